// The debugger page's builder form (www/builder.js, its FIELDS list) against the builders'
// input-fields table (src/request/fields.rs), which the page cannot import: every form field
// is a builder input member that lands at the path the page shows, for each kind it is on;
// and every input member the TypeScript declares (held equal to the table by
// src/request/fields_tests.rs) is on the form, but `amount`, which the page takes as
// `amountMajor`. A row added to the table and not to the page fails here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { esm as api, root } from './helpers.mjs';

/** FIELDS of www/builder.js: a literal of plain objects, read as the page reads it. */
function pageFields() {
  const text = fs.readFileSync(path.join(root, 'www', 'builder.js'), 'utf8');
  const found = /\nconst FIELDS = (\[[\s\S]*?\n\]);\n/.exec(text);
  assert.ok(found, 'www/builder.js has no `const FIELDS = [ … ];`');
  return new Function(`return ${found[1]};`)();
}

/** The members of `name` (and of the interface it extends) in the built declarations. */
function declaredMembers(name) {
  const dts = fs.readFileSync(path.join(root, 'pkg', 'web', 'payment_intake.d.ts'), 'utf8');
  const found = new RegExp(`interface ${name}(?: extends (\\w+))? \\{([\\s\\S]*?)\\n?\\}`).exec(dts);
  assert.ok(found, `no interface ${name} in pkg/web/payment_intake.d.ts`);
  const own = [...found[2].replace(/\/\*\*[\s\S]*?\*\//g, '').matchAll(/(\w+)\?:/g)].map((m) => m[1]);
  return found[1] ? [...declaredMembers(found[1]), ...own] : own;
}

const KINDS = {
  p2p: { build: api.buildPayinRequest, declared: 'PayinInput' },
  widget: { build: api.buildWidgetPayinRequest, declared: 'WidgetPayinInput' },
};
const forKind = (value, kind) => (typeof value === 'object' ? value[kind] : value);
/** A value the builder takes for `key`, and what it writes for it. */
function sample(key, number) {
  if (key === 'amountMajor') return { input: { amountMajor: '123.45', currency: 'RUB' }, written: 12345 };
  if (key === 'customerType') return { input: { customerType: 'trust' }, written: 'trust' };
  if (number) return { input: { [key]: 900 }, written: 900 };
  return { input: { [key]: `v-${key}` }, written: `v-${key}` };
}
const at = (body, dotted) => dotted.split('.').reduce((node, name) => node?.[name], body);

for (const [kind, { build, declared }] of Object.entries(KINDS)) {
  test(`the page's ${kind} form fields land where the page says, and cover the builder's input`, () => {
    const fields = pageFields().filter((field) => forKind(field.path, kind) !== undefined);
    assert.ok(fields.length >= 10, `only ${fields.length} ${kind} fields read from www/builder.js`);
    for (const field of fields) {
      const key = forKind(field.key, kind);
      const { input, written } = sample(key, field.number === true);
      const { body } = build(input);
      assert.deepEqual(at(body, forKind(field.path, kind)), written, `${field.id}: ${key} -> ${forKind(field.path, kind)}`);
    }
    const onPage = new Set(fields.map((field) => forKind(field.key, kind)));
    const missing = declaredMembers(declared).filter((member) => !onPage.has(member) && member !== 'amount');
    assert.deepEqual(missing, [], `${declared} members with no field on the page (www/builder.js FIELDS)`);
  });
}
