// E2E, the debugger page's rule controls in headless Chromium: every option <select> of
// tools 2 and 3 is built from the package's optionTable() at run time (www/dom.js
// `wireOptionTable`), so it offers exactly the table's choices, set to the row's default; and a
// row changed in the table (a choice added, a default moved) reaches the page with nothing
// written in www/.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pkg, useServerAndBrowser } from './helpers.mjs';

const { withPage } = useServerAndBrowser();

const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const choiceRows = () => pkg.optionTable().filter((row) => row.takenBy.includes('canonical') && row.type === 'choice' && row.name !== 'profile');

/** `{ id: { values, texts, value } }` of the page's `<select>`s whose ids are `ids`, those it has. */
const selects = (page, ids) =>
  page.evaluate((wanted) => {
    const found = {};
    for (const id of wanted) {
      const select = document.getElementById(id);
      if (select?.tagName !== 'SELECT') continue;
      found[id] = { values: [...select.options].map((o) => o.value), texts: [...select.options].map((o) => o.textContent), value: select.value };
    }
    return found;
  }, ids);

describe('the option selects of the debugger page', () => {
  test("offer exactly optionTable()'s choices, labelled from it, set to its default", () =>
    withPage(async ({ page }) => {
      const rows = choiceRows();
      const ids = ['s', 'c'].flatMap((prefix) => rows.map((row) => `${prefix}-${kebab(row.name)}`));
      const shown = await selects(page, ids);
      assert.ok(Object.keys(shown).length >= 13, `${Object.keys(shown).length} option selects found`);
      for (const [id, select] of Object.entries(shown)) {
        const row = rows.find((r) => id.endsWith(`-${kebab(r.name)}`));
        assert.deepEqual(select.values, row.choices.map((c) => c.value), id);
        assert.deepEqual(select.texts, row.choices.map((c) => `${c.value} (${c.label})`), id);
        assert.equal(select.value, row.default, `${id} starts at the default`);
      }
      assert.equal(await page.isChecked('#s-padding'), pkg.optionTable().find((row) => row.name === 'padding').default);
    }));

  test('a row changed in the table reaches the page: a choice added, a default moved', () =>
    withPage(async ({ page }) => {
      const changed = pkg.optionTable().map((row) =>
        row.name === 'booleans' ? { ...row, choices: [...row.choices, { value: 'yes-no', label: 'yes/no' }], default: 'lower' } : row);
      const shown = await page.evaluate(async (table) => {
        const { wireOptionTable, defaultProfile } = await import('./dom.js');
        wireOptionTable(table);
        const select = document.getElementById('c-booleans');
        return { values: [...select.options].map((o) => o.value), value: select.value, baseline: defaultProfile().booleans };
      }, changed);
      assert.deepEqual(shown.values, ['python', 'lower', 'digit', 'yes-no']);
      assert.equal(shown.value, 'lower');
      assert.equal(shown.baseline, 'lower', 'the baseline a differing rule is marked against follows the table');
    }));
});
