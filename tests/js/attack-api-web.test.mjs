// Attack on the web build (pkg/web/index.js) in Node before its wasm is loaded: docs/errors.md
// says every failure is a PaymentIntakeError with a stable `.code`, but a
// function called before `init()`/`initSync()` throws the glue's TypeError ("Cannot read
// properties of undefined (reading 'toMinorUnits')"), without `.code`; so does initSync
// given bytes that are not a wasm module (a CompileError). Run in a fresh process: the web
// build is one module instance per process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { pkgDir } from './helpers.mjs';

const webUrl = pathToFileURL(path.join(pkgDir, 'web', 'index.js')).href;
const wasmPath = path.join(pkgDir, 'web', 'payment_intake_bg.wasm');

/** What `calls` (source of `(web) => …` functions) throw before the wasm is loaded: `{ name, code }` each. */
function beforeInit(calls) {
  const script = `
    const web = await import(${JSON.stringify(webUrl)});
    const out = [];
    for (const call of [${calls.join(', ')}]) {
      try { call(web); out.push({ name: 'none' }); } catch (e) { out.push({ name: e?.name, code: e?.code ?? null, hint: e?.hint ?? null }); }
    }
    // Loading afterwards still works, and the calls answer.
    web.initSync({ module: (await import('node:fs')).readFileSync(${JSON.stringify(wasmPath)}) });
    out.push({ after: web.toMinorUnits('1', 'RUB') });
    console.log(JSON.stringify(out));
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test('the web build loads after calls made before init, and then answers (held)', () => {
  const out = beforeInit(['(web) => web.isPaymentIntakeError(new Error())']);
  assert.deepEqual(out, [{ name: 'none' }, { after: 100 }]);
});

test('a function of the web build called before init() throws a PaymentIntakeError with a .code and a hint to await init()', () => {
  const calls = [
    "(web) => web.toMinorUnits('1', 'RUB')",
    '(web) => web.errorCodes()',
    "(web) => web.HmacKey.fromSecret('0123456789abcdef')",
    "(web) => web.validateRequest('/api/v1/payment/p2p/payin/info', '{}')",
    "(web) => web.canonicalMessage('{}', '1700000000')",
  ];
  const out = beforeInit(calls);
  for (const [i, result] of out.slice(0, calls.length).entries()) {
    assert.equal(result.name, 'PaymentIntakeError', `${calls[i]}: ${JSON.stringify(result)}`);
    assert.equal(result.code, 'INVALID_ARGUMENT', calls[i]);
    assert.match(result.hint, /await init\(\)/, calls[i]);
  }
});
