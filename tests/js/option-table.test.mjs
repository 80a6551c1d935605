// The option table of the core, `optionTable()`, and the places that offer its choices: the
// CLI's flags (read from its help text; cli/args.cjs reads the table) and the option
// <select>s of the debugger page, built from the table at run time (www/index.html and
// www/dom.js, read as text, write none of them).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { cjs, esm as api, pkgDir, root } from './helpers.mjs';

const rows = api.optionTable();
const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const values = (row) => row.choices.map((c) => c.value);

test('optionTable() is plain data, the same from both entries, with the profiles as the profile choices', () => {
  assert.deepEqual(cjs.optionTable(), rows);
  assert.ok(rows.length > 15);
  for (const row of rows) {
    assert.equal(typeof row.name, 'string');
    assert.ok(row.takenBy.length > 0, row.name);
    assert.equal(row.type === 'choice', row.choices.length >= 2, row.name);
    if (row.type === 'choice') assert.equal(row.default, row.choices[0].value, row.name);
  }
  const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
  assert.deepEqual(values(byName.profile), api.profiles().map((p) => p.name));
  // Each choice option's default is the 'spec' profile's rule.
  const spec = api.profiles()[0].options;
  for (const [name, value] of Object.entries(spec)) assert.equal(byName[name].default, value, name);
  assert.equal(byName.maxBodyBytes.default, 16384);
  assert.equal(byName.toleranceSeconds.default, null);
});

test("the CLI's option flags offer exactly the table's choices", () => {
  const cli = path.join(pkgDir, 'cli.js');
  const canonical = rows.filter((r) => r.takenBy.includes('canonical') && r.type === 'choice');
  for (const command of ['sign', 'verify', 'diagnose']) {
    const help = execFileSync(process.execPath, [cli, 'help', command], { encoding: 'utf8' });
    const flags = new Map();
    for (const line of help.split('\n')) {
      const m = /^\s+--([a-z-]+) (\S+)\s{2,}(.*)$/.exec(line);
      if (m) flags.set(m[1], { arg: m[2], text: m[3] });
    }
    let seen = 0;
    for (const row of canonical) {
      const flag = flags.get(kebab(row.name));
      if (!flag) continue;
      seen += 1;
      const offered = flag.arg.includes('|') ? flag.arg.split('|') : flag.text.split(': ').pop().split(', ');
      assert.deepEqual(offered, values(row), `${command} --${kebab(row.name)}`);
    }
    if (command !== 'diagnose') assert.ok(seen >= canonical.length - 1, `${command}: ${seen} option flags read`);
  }
});

test("the debugger page's option <select>s are the table's: none of their choices is written in www/", () => {
  // The page builds them from optionTable() at run time (www/dom.js wireOptionTable); that
  // they then offer exactly its choices is tests/e2e/option-selects.test.mjs's, in Chromium.
  const html = fs.readFileSync(path.join(root, 'www', 'index.html'), 'utf8');
  let seen = 0;
  for (const m of html.matchAll(/<select id="([sc])-([a-z-]+)"[^>]*>(.*?)<\/select>/g)) {
    const [, , id, inner] = m;
    if (!rows.some((r) => kebab(r.name) === id && r.type === 'choice')) continue;
    seen += 1;
    assert.equal(inner, '', `${m[1]}-${id}: its <option>s are made from optionTable(), not written in the HTML`);
  }
  assert.ok(seen >= 13, `${seen} option selects read`);
  const dom = fs.readFileSync(path.join(root, 'www', 'dom.js'), 'utf8');
  for (const row of rows.filter((r) => r.type === 'choice' && r.name !== 'profile')) {
    for (const choice of row.choices) assert.ok(!dom.includes(`'${choice.value}'`), `www/dom.js writes the choice '${choice.value}' of ${row.name}`);
  }
});
