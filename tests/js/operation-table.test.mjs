// The operation index is one table, src/spec/operations.rs, given at run time by
// `operationTable()`: the client's methods, the sandbox's routes and the `.d.ts`
// `OperationPath` union and the client's `ClientOperations` are functions of it
// (`operationsOf`/`clientMethodsOf`, `sandboxRoutesOf`, `operationTypesOf`, `clientTypesOf`). A fake row added to the real table reaches
// each; and the package as built uses those same functions over the real table.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

import { cjs, esm as api, pkgDir, root } from './helpers.mjs';
import { OPERATIONS as SANDBOX_OPERATIONS } from './support/sandbox-kit.mjs';

const { clientMethodsOf, operationsOf } = await import(pathToFileURL(path.join(root, 'pkg-template', 'client', 'operations.mjs')).href);
const { sandboxRoutesOf } = await import(pathToFileURL(path.join(pkgDir, 'sandbox', 'routes.mjs')).href);
const { clientTypesOf, operationTypesOf } = await import(pathToFileURL(path.join(root, 'scripts', 'build', 'operation-types.mjs')).href);

const table = api.operationTable();
const FAKE = [
  { path: '/api/v9/fake/payin', name: 'fake.payin.create', model: 'status', takes: 'body', create: true, info: '/api/v9/fake/payin/info', target: null, schema: 'objectOnly' },
  { path: '/api/v9/fake/payin/info', name: 'fake.payin.info', model: 'info', takes: 'ref', create: false, info: null, target: null, schema: 'objectOnly' },
  { path: '/api/v9/fake/payin/cancel', name: 'fake.payin.cancel', model: 'status', takes: 'ref', create: false, info: '/api/v9/fake/payin/info', target: 'cancel', schema: 'objectOnly' },
];
const withFake = [...table, ...FAKE];

/** The tree of a client's method names, `a.b.c` each. */
function methodNames(node, prefix = '') {
  return Object.entries(node).flatMap(([name, value]) => (typeof value === 'function' ? [`${prefix}${name}`] : methodNames(value, `${prefix}${name}.`)));
}

test('operationTable(): plain rows, the same from both entries, each path and name once, infos of their own group', () => {
  assert.deepEqual(cjs.operationTable(), table);
  assert.equal(table.length, 17);
  assert.equal(new Set(table.map((row) => row.path)).size, table.length);
  assert.equal(new Set(table.map((row) => row.name)).size, table.length);
  const byPath = new Map(table.map((row) => [row.path, row]));
  for (const row of table) {
    assert.deepEqual(Object.keys(row), ['path', 'name', 'model', 'takes', 'create', 'info', 'target', 'schema'], row.path);
    if (row.info !== null) assert.equal(byPath.get(row.info).model, 'info', row.path);
  }
  assert.notEqual(table, api.operationTable(), 'each call answers a copy');
  // A caller that changes its copy changes no one else's, nor what the package validates by.
  const mine = api.operationTable();
  mine[0].path = '/changed';
  mine.pop();
  assert.deepEqual(api.operationTable(), table);
  assert.equal(api.validateRequest(table[0].path, '{}').errors[0].code, 'REQUIRED');
});

test('a fake row reaches the client: a method at its name that calls its path', async () => {
  const { list, byPath } = operationsOf(withFake);
  const calls = [];
  const client = clientMethodsOf(list, (operation, input) => calls.push([operation.path, input]));
  assert.equal(typeof client.fake.payin.create, 'function');
  await client.fake.payin.create({ general: {} });
  await client.fake.payin.cancel({ projectId: 'p', paymentId: 'x' });
  assert.deepEqual(calls.map(([p]) => p), ['/api/v9/fake/payin', '/api/v9/fake/payin/cancel']);
  assert.deepEqual(byPath.get('/api/v9/fake/payin'), { name: 'fake.payin.create', path: '/api/v9/fake/payin', model: 'status', takes: 'body', create: true, info: '/api/v9/fake/payin/info' });
  assert.equal(byPath.get('/api/v9/fake/payin/cancel').target, 'cancel');
});

test('the real client has exactly the methods of clientMethodsOf(operationTable()), besides its own', () => {
  const client = api.createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm', key: api.HmacKey.fromSecret('0123456789abcdef'), fetch: async () => { throw new Error('no'); } });
  const own = new Set(['call', 'infoOf', 'request', 'p2p.payin.waitFor', 'widget.payin.waitFor']);
  const expected = methodNames(clientMethodsOf(operationsOf(table).list, () => {}));
  assert.deepEqual(methodNames(client).filter((name) => !own.has(name)).sort(), expected.sort());
  const source = fs.readFileSync(path.join(root, 'pkg-template', 'client', 'index.mjs'), 'utf8');
  assert.match(source, /operations \?\?= operationsOf\(api\.operationTable\(\)\)/);
  assert.match(source, /clientMethodsOf\(OPERATIONS, perform\)/);
});

test('a fake row reaches the sandbox: a route at its path, of its group and action', () => {
  const routes = sandboxRoutesOf(withFake);
  assert.deepEqual(routes.create['/api/v9/fake/payin'], { kind: 'fake.payin', type: 'payin' });
  assert.deepEqual(routes.onPayment['/api/v9/fake/payin/info'], { kind: 'fake.payin', action: 'info' });
  assert.deepEqual(routes.onPayment['/api/v9/fake/payin/cancel'], { kind: 'fake.payin', action: 'cancel' });
  assert.deepEqual(routes.targets['fake.payin'], { cancel: '/api/v9/fake/payin/cancel' });
  assert.ok(routes.paths.includes('/api/v9/fake/payin'));
  // The real sandbox serves the real table's routes, from the same function.
  assert.deepEqual(SANDBOX_OPERATIONS, sandboxRoutesOf(table).paths);
  const source = fs.readFileSync(path.join(root, 'pkg-template', 'sandbox', 'routes.mjs'), 'utf8');
  assert.match(source, /export const ROUTES = sandboxRoutesOf\(api\.operationTable\(\)\);/);
});

test('a fake row reaches the types: the generated union holds it; the built union is the real table', () => {
  assert.match(operationTypesOf(withFake), /\| '\/api\/v9\/fake\/payin\/cancel'/);
  const union = operationTypesOf(table);
  for (const dir of ['web', 'node']) {
    const declarations = fs.readFileSync(path.join(pkgDir, dir, 'payment_intake.d.ts'), 'utf8');
    assert.ok(declarations.includes(union), `pkg/${dir}/payment_intake.d.ts holds operationTypesOf(operationTable())`);
  }
  assert.match(fs.readFileSync(path.join(root, 'scripts', 'build.mjs'), 'utf8'), /writeOperationTypes\(\);/);
});

test("a fake row reaches the client's types: a method at its name, typed by what it takes and answers; the built ones are the real table's", () => {
  const fake = clientTypesOf(withFake);
  assert.ok(fake.includes(['  fake: {', '    payin: {', '      create: Op<Body, StatusResponse>;', '      info: Op<PaymentRef, InfoResult>;', '      cancel: Op<PaymentRef, StatusResponse>;', '    };', '  };'].join('\n')), fake);
  assert.ok(clientTypesOf(table, new Set(['P2pPayinCreateBody'])).includes('\n      create: Op<P2pPayinCreateBody | string, StatusResponse>;'));
  assert.ok(clientTypesOf(table).endsWith('\n  balance: ProjectOp<BalanceResult>;\n  banks: ProjectOp<BanksResult>;\n}'));
  for (const dir of ['web', 'node']) {
    const declarations = fs.readFileSync(path.join(pkgDir, dir, 'client', 'index.d.ts'), 'utf8');
    assert.ok(declarations.includes(clientTypesOf(table, new Set(['P2pPayinCreateBody', 'WidgetPayinCreateBody']))), `pkg/${dir}/client/index.d.ts holds clientTypesOf(operationTable())`);
    assert.doesNotMatch(declarations, /generated: ClientOperations/);
  }
});

test("the CLI's call and validate list every operation of the table, with its method", async () => {
  const { execFileSync } = await import('node:child_process');
  for (const command of ['call', 'validate']) {
    const help = execFileSync(process.execPath, [path.join(pkgDir, 'cli.js'), command, '--help'], { encoding: 'utf8' });
    for (const row of table) assert.match(help, new RegExp(`\\n  ${row.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +client\\.${row.name.replace('.', '\\.')}`), `${command}: ${row.path}`);
  }
});
