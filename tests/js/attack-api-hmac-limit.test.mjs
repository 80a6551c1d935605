// Attack on HmacKey's lifetime: README says "free() wipes it (a collected key is freed
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

test('keys dropped without free() after each request are freed as collected, and fromSecret keeps working', { todo: 'not fixed: the 4097th live key is refused before V8 collects the dropped ones (no limit in README)' }, () => {
  assert.equal(perRequestKeys(6000, false), 0);
});
