// The builders' input fields are one table, src/request/fields.rs, given at run time by
// `inputFieldTable()` (the JSON text of `__constants().inputFields`, held to the Rust rows by
// src/wasm/shapes/input_fields.rs's test). Here: plain rows, a fresh copy each call, the same from
// every entry; each row's member lands at its path through its builders, and the declared
// input types have exactly the table's members. The debugger page's form is built from it:
// tests/e2e/input-fields.test.mjs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

import { cjs, esm as api, pkgDir } from './helpers.mjs';

const table = api.inputFieldTable();
const web = await import(pathToFileURL(path.join(pkgDir, 'web', 'index.js')).href);
web.initSync({ module: fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm')) });
const webNode = await import(pathToFileURL(path.join(pkgDir, 'web', 'node.js')).href);

const BUILDERS = { p2p: { build: api.buildPayinRequest, declared: 'PayinInput' }, widget: { build: api.buildWidgetPayinRequest, declared: 'WidgetPayinInput' } };
const TYPES = ['text', 'choice', 'count', 'minorAmount', 'majorAmount'];

test('inputFieldTable(): plain rows, each whole, the same from every entry', () => {
  assert.deepEqual(cjs.inputFieldTable(), table);
  assert.deepEqual(web.inputFieldTable(), table);
  assert.deepEqual(webNode.inputFieldTable(), table);
  assert.ok(table.length >= 30, `${table.length} rows`);
  for (const row of table) {
    assert.deepEqual(Object.keys(row), ['name', 'path', 'type', 'choices', 'default', 'builders'], row.name);
    assert.match(row.path, /^[a-z_]+\.[a-z_]+$/, row.name);
    assert.ok(TYPES.includes(row.type), `${row.name}: ${row.type}`);
    assert.equal(Array.isArray(row.choices), row.type === 'choice', row.name);
    if (row.type !== 'count') assert.equal(row.default, null, row.name);
    assert.ok(row.builders.length > 0 && row.builders.every((b) => b in BUILDERS), row.name);
  }
  for (const kind of Object.keys(BUILDERS)) {
    const names = table.filter((row) => row.builders.includes(kind)).map((row) => row.name);
    assert.equal(new Set(names).size, names.length, `${kind}: a name once`);
  }
  const row = (name) => table.find((r) => r.name === name);
  assert.deepEqual(row('customerType').choices, ['ftd', 'trust']);
  assert.equal(row('lifetime').type, 'count');
  assert.equal(row('lifetime').default, 600);
  assert.deepEqual(table.filter((r) => r.name === 'bankSymbol').map((r) => [r.path, r.builders]), [['payment.bank_symbol', ['p2p']], ['sender.bank_symbol', ['widget']]]);
});

test('inputFieldTable() answers a fresh copy each call: a caller changing its own changes nothing else', () => {
  const mine = api.inputFieldTable();
  assert.notEqual(mine, table);
  assert.notEqual(mine[0], table[0]);
  mine[0].name = 'changed';
  mine.find((r) => r.type === 'choice').choices.push('vip');
  mine.find((r) => r.type === 'choice').builders.length = 0;
  mine.pop();
  assert.deepEqual(api.inputFieldTable(), table);
  assert.deepEqual(cjs.inputFieldTable(), table);
});

const at = (body, dotted) => dotted.split('.').reduce((node, name) => node?.[name], body);
/** A value the builder takes for `row`, and what it writes at the row's path. */
function sample(row) {
  if (row.type === 'majorAmount') return { input: { [row.name]: '123.45', currency: 'RUB' }, written: 12345 };
  if (row.type === 'choice') return { input: { [row.name]: row.choices.at(-1) }, written: row.choices.at(-1) };
  if (row.type === 'count' || row.type === 'minorAmount') return { input: { [row.name]: 900 }, written: 900 };
  return { input: { [row.name]: `v-${row.name}` }, written: `v-${row.name}` };
}

/** The members of `name` (and of the interface it extends) in the built declarations. */
function declaredMembers(name) {
  const dts = fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake.d.ts'), 'utf8');
  const found = new RegExp(`interface ${name}(?: extends (\\w+))? \\{([\\s\\S]*?)\\n?\\}`).exec(dts);
  assert.ok(found, `no interface ${name} in pkg/web/payment_intake.d.ts`);
  const own = [...found[2].replace(/\/\*\*[\s\S]*?\*\//g, '').matchAll(/(\w+)\?:/g)].map((m) => m[1]);
  return found[1] ? [...declaredMembers(found[1]), ...own] : own;
}

for (const [kind, { build, declared }] of Object.entries(BUILDERS)) {
  test(`each ${kind} row's member lands at its path; ${declared} declares exactly the rows`, () => {
    const rows = table.filter((row) => row.builders.includes(kind));
    for (const row of rows) {
      const { input, written } = sample(row);
      assert.deepEqual(at(build(input).body, row.path), written, `${row.name} -> ${row.path}`);
    }
    assert.deepEqual(declaredMembers(declared).sort(), rows.map((row) => row.name).sort());
  });
}

test('every entry\'s declarations declare inputFieldTable() and InputFieldRow', () => {
  for (const file of ['node/index.d.ts', 'web/index.d.ts', 'web/node.d.ts', 'web/edge.d.ts']) {
    const dts = fs.readFileSync(path.join(pkgDir, file), 'utf8');
    assert.match(dts, /export function inputFieldTable\(\): InputFieldRow\[\];/, file);
    assert.match(dts, /export interface InputFieldRow \{/, file);
  }
});
