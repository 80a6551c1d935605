// E2E, tool 1's form in headless Chromium: its fields are built from the package's
// inputFieldTable() at run time (www/builder-fields.js `wireInputFieldTable`), so every row of
// each builder is a field of the form for that kind (but the amount in minor units: the page
// takes it in major units), a choice's <select> offers exactly the row's choices, a count's
// placeholder is its default, and what is typed lands at the row's path; and a row added or
// changed in the table reaches the page with nothing written in www/.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pkg, settle, useServerAndBrowser } from './helpers.mjs';

const { withPage } = useServerAndBrowser();

const KINDS = ['p2p', 'widget'];
const shownRows = (table, kind) => table.filter((row) => row.builders.includes(kind) && row.type !== 'minorAmount');

/** Each field of the page's form for `kind` (from `fieldsOf`), with what its control shows. */
const formFields = (page, kind) =>
  page.evaluate(async (k) => {
    const { fieldsOf } = await import('./builder-fields.js');
    return fieldsOf(k).map((f) => {
      const control = document.getElementById(f.id);
      return {
        name: f.key, path: f.path, id: f.id, tag: control?.tagName, placeholder: control?.getAttribute('placeholder'),
        options: control?.tagName === 'SELECT' ? [...control.options].map((o) => o.value) : null,
        inForm: control?.closest('#build-form') !== null, label: document.querySelector(`label[for="${f.id}"]`)?.textContent ?? null,
        hidden: control?.closest('[hidden]') !== null,
      };
    });
  }, kind);

describe("tool 1's form fields", () => {
  test('are the rows of inputFieldTable() for each kind: choices, defaults and paths from the table', () =>
    withPage(async ({ page }) => {
      const table = pkg.inputFieldTable();
      for (const kind of KINDS) {
        await page.check(`#b-kind-${kind}`);
        const fields = await formFields(page, kind);
        const rows = shownRows(table, kind);
        assert.deepEqual(fields.map((f) => f.name).sort(), rows.map((row) => row.name).sort(), kind);
        for (const row of rows) {
          const field = fields.find((f) => f.name === row.name);
          assert.equal(field.path, row.path, `${kind} ${row.name}`);
          assert.ok(field.tag && field.inForm && field.label, `${kind} ${row.name}: a labelled control of the form`);
          assert.equal(field.hidden, false, `${kind} ${row.name}: shown for ${kind}`);
          if (row.type === 'choice') assert.deepEqual(field.options, ['', ...row.choices], `${row.name}: (not sent) and the row's choices`);
          if (row.type === 'count') assert.equal(field.placeholder, String(row.default), `${row.name}: its default`);
        }
        // Every text field typed into lands at its row's path in the body built.
        const typed = fields.filter((f) => f.tag === 'INPUT' && table.find((row) => row.name === f.name && row.builders.includes(kind)).type === 'text' && f.name !== 'currency');
        assert.ok(typed.length >= 10, `${typed.length} ${kind} text fields`);
        await page.evaluate(() => document.querySelectorAll('#build-form details').forEach((d) => (d.open = true)));
        const values = {};
        for (const f of typed) {
          await page.fill(`#${f.id}`, `v-${f.name}`);
          values[f.id] = await page.inputValue(`#${f.id}`); // as its maxlength leaves it
        }
        await settle(page);
        const body = JSON.parse(await page.locator('#b-body').textContent());
        for (const f of typed) assert.equal(f.path.split('.').reduce((node, name) => node?.[name], body), values[f.id], `${kind} ${f.id} -> ${f.path}`);
      }
    }));

  test('a row added or changed in the table reaches the page', () =>
    withPage(async ({ page }) => {
      const table = pkg.inputFieldTable().map((row) =>
        row.name === 'customerType' ? { ...row, choices: [...row.choices, 'vip'] } : row.name === 'lifetime' ? { ...row, default: 900 } : row);
      const fake = [
        { name: 'loyaltyTier', path: 'customer.loyalty_tier', type: 'choice', choices: ['gold', 'silver'], default: null, builders: ['widget'] },
        { name: 'referrerCode', path: 'general.referrer_code', type: 'text', choices: null, default: null, builders: ['p2p', 'widget'] },
      ];
      const shown = await page.evaluate(async (rows) => {
        const { wireInputFieldTable, fieldsOf } = await import('./builder-fields.js');
        wireInputFieldTable(rows);
        const options = (id) => [...document.getElementById(id).options].map((o) => o.value);
        const tier = document.getElementById('b-loyalty-tier');
        return {
          widget: fieldsOf('widget').map((f) => f.key), p2p: fieldsOf('p2p').map((f) => f.key),
          tier: { options: options('b-loyalty-tier'), kind: tier.closest('.field').dataset.kind, inForm: tier.closest('#build-form') !== null },
          referrer: document.getElementById('b-referrer-code')?.tagName, customerType: options('b-customer-type'),
          lifetime: document.getElementById('b-lifetime').placeholder,
        };
      }, [...table, ...fake]);
      assert.ok(shown.widget.includes('loyaltyTier') && !shown.p2p.includes('loyaltyTier'));
      assert.ok(shown.widget.includes('referrerCode') && shown.p2p.includes('referrerCode'));
      assert.deepEqual(shown.tier, { options: ['', 'gold', 'silver'], kind: 'widget', inForm: true });
      assert.equal(shown.referrer, 'INPUT');
      assert.deepEqual(shown.customerType, ['', 'ftd', 'trust', 'vip']);
      assert.equal(shown.lifetime, '900');
    }));
});
