// How many callbacks the wasm still holds for a native RSA check that never finished
// (src/wasm/exports/callback.rs, `HELD`), read through the private exports the package ships:
// the shipped build has no export for tests. Handles count up from 1, one for each native
// check, and are never reused; an awaited `__verifyCallback` answers the newest one; and
// `__finishCallback` of a handle answers INVALID_ARGUMENT ("is not a pending callback") when
// the wasm no longer holds it, else frees it. So a read frees what it counts: make it where
// none should be held (before and after a call, not during an await).
import assert from 'node:assert/strict';

/** The handles below this were read already, for each glue (freed then, if not before). */
const readUpTo = new WeakMap();

/**
 * How many handles `glue`'s wasm held that were not finished, each freed now. `callback`:
 * a genuine RSA-signed callback `{ body, headers, keys }` (PEM keys), whose awaited
 * `__verifyCallback` answers the newest handle (its own, not counted).
 */
export function heldCallbacks(glue, { body, headers, keys, options }) {
  const newest = glue.__verifyCallback({ body, headers, keys, options, native: true, awaited: true });
  assert.equal(newest.ok, true, 'the probe callback verifies up to its native check');
  assert.equal(typeof newest.value.handle, 'number', 'the probe callback awaits a native check');
  let held = 0;
  for (let handle = readUpTo.get(glue) ?? 1; handle < newest.value.handle; handle++) {
    const answer = glue.__finishCallback({ handle, verified: false });
    if (answer.ok || answer.error.code !== 'INVALID_ARGUMENT') held += 1;
  }
  const own = glue.__finishCallback({ handle: newest.value.handle, verified: false });
  assert.equal(own.error.code, 'INVALID_SIGNATURE', "the probe's own handle was held, and is freed");
  assert.match(glue.__finishCallback({ handle: newest.value.handle, verified: false }).error.message, /not a pending callback/);
  readUpTo.set(glue, newest.value.handle + 1);
  return held;
}
