// Attack on HmacKey's lifetime: docs/api.md says "free() wipes it (a collected key is freed
// too)", and names no limit. src/wasm/keys.rs refuses a 4097th live HMAC key
// (MAX_HMAC_KEYS), and a key that is no longer referenced stays live until V8 collects it
// and runs the FinalizationRegistry callback, which a process allocating little does not
// do soon. A handler that reads its secret per request (HmacKey.fromSecret(secret), no
// free()) fails with INVALID_ARGUMENT from its 4097th request on: 15 904 of 20 000 such
// requests failed, with event-loop turns between them. Run in a fresh process (the limit
// is per wasm instance).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

import { pkgDir } from './helpers.mjs';

/** How many of `requests` per-request keys (dropped, never freed) failed, with a turn of the event loop every 10. */
function perRequestKeys(requests, freeEach) {
  const script = `
    const api = require(${JSON.stringify(pkgDir)});
    (async () => {
      let failed = 0;
      for (let i = 0; i < ${requests}; i++) {
        try {
          const key = api.HmacKey.fromSecret('0123456789abcdef');
          api.signRequest('{}', key, { merchantId: 'm', timestamp: '1700000000' });
          ${freeEach ? 'key.free();' : ''}
        } catch (error) {
          if (error.code !== 'INVALID_ARGUMENT') throw error;
          failed += 1;
        }
        if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      console.log(failed);
    })();
  `;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return Number(result.stdout.trim());
}

test('keys freed after each request never reach the limit (held)', () => {
  assert.equal(perRequestKeys(6000, true), 0);
});

test('keys dropped without free() after each request are freed as collected, and fromSecret keeps working', () => {
  // Keys of one secret hold it once in the wasm (one more holder each, not one more key).
  assert.equal(perRequestKeys(6000, false), 0);
});

test('keys of one secret share it: free() of one leaves the others signing, the last one frees it', () => {
  const script = `
    const api = require(${JSON.stringify(pkgDir)});
    const sign = (key) => api.signRequest('{}', key, { merchantId: 'm', timestamp: '1700000000' }).headers['x-access-signature'];
    const a = api.HmacKey.fromSecret('0123456789abcdef');
    const b = api.HmacKey.fromSecret(Buffer.from('0123456789abcdef'));
    const other = api.HmacKey.fromSecret('fedcba9876543210');
    const out = { same: sign(a) === sign(b), differs: sign(a) !== sign(other) };
    a.free();
    out.afterOne = sign(b);
    try { sign(a); out.freed = 'none'; } catch (error) { out.freed = error.code; }
    b.free();
    try { sign(b); out.last = 'none'; } catch (error) { out.last = error.code; }
    // 4096 distinct secrets held at once are still the limit.
    const held = [];
    let refused = null;
    for (let i = 0; i < 4097 && refused === null; i++) {
      try { held.push(api.HmacKey.fromSecret('secret-' + String(i).padStart(10, '0'))); } catch (error) { refused = [i, error.code]; }
    }
    out.refused = refused;
    console.log(JSON.stringify(out));
  `;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  assert.equal(out.same, true);
  assert.equal(out.differs, true);
  assert.equal(typeof out.afterOne, 'string');
  assert.equal(out.freed, 'INVALID_ARGUMENT');
  assert.equal(out.last, 'INVALID_ARGUMENT');
  assert.deepEqual(out.refused, [4095, 'INVALID_ARGUMENT'], 'other (live) is the first of the 4096');
});
