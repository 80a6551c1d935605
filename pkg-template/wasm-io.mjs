// The one module that touches wasm memory: the fast paths that BENCHMARKS.md shows pay, where
// the provider writes and reads bytes in place. Text the provider encodes goes straight into
// the wasm's input buffer (`__textInput`), the canonical message is read where the wasm wrote
// it, and the sync callback check reads the bytes RSA-SHA256 verifies where they lie.
// Addresses, lengths and the "none" values the wasm uses for them stay in this file; the other
// modules call the functions below. Its exports are the only positional ones (CONTRIBUTING.md,
// "The boundary's shape", lists each and the BENCHMARKS.md figure that keeps it;
// tests/js/wasm-exports.test.mjs allows only those).

/**
 * The in-place I/O over `glue` with `provider`: `canonicalMessage(body, timestamp, options)`
 * and `validateRequest(index, body)` (`undefined` when the general path must run), and
 * `checkInPlace(value, verify, nativeKey)`, the sync callback check.
 */
function createWasmIo(glue, provider, errors) {
  /** `provider.view` of the wasm's memory, made again once the memory grows (the old view is then empty). */
  let memoryView;
  const memory = () => (memoryView?.length ? memoryView : (memoryView = provider.view(glue.__memory().buffer)));

  /**
   * Writes text of at most `maxLength` UTF-16 units that the provider encodes straight into
   * the wasm's input buffer as UTF-8, with `room` bytes after it (src/wasm/exports/input.rs):
   * `{ view, at, written }`, or undefined for the general path (no room, past any body the
   * wasm reads, or a lone surrogate: that path words the error). No wasm call may come
   * between this and the call that reads it.
   */
  function textInput(text, room, maxLength) {
    if (!provider.fits?.(text, maxLength)) return undefined;
    const capacity = 3 * text.length;
    const at = glue.__textInput(capacity + room);
    if (at === 0) return undefined;
    // (No wasm call until the text is read: the memory cannot grow, one view serves.)
    const view = memory();
    const written = provider.utf8Into(text, view, at, capacity);
    return provider.wroteWellFormed(text, view, at, written) ? { view, at, written } : undefined;
  }

  /** Writes `text` into `view` from `at` if it is ASCII: its length, else -1. */
  function asciiInto(text, view, at) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7f) return -1;
      view[at + i] = code;
    }
    return text.length;
  }

  /**
   * The message of text the provider encodes, written into wasm memory and read where the
   * wasm wrote it (after its length, 4 bytes little-endian); `undefined` for the general
   * path. A timestamp of at most `stampRoom` ASCII characters goes in after the text, its
   * length passed (-1: the wasm reads `timestamp` itself).
   */
  function canonicalMessage(body, timestamp, options) {
    const { stampRoom, maxBodyBytes } = errors.shared();
    const input = textInput(body, stampRoom, maxBodyBytes);
    if (input === undefined) return undefined;
    const { view: into, at, written } = input;
    const stamp = typeof timestamp === 'string' && timestamp.length <= stampRoom ? asciiInto(timestamp, into, at + written) : -1;
    const message = glue.__canonicalMessageOfInput(written, stamp, timestamp, options);
    const view = memory();
    const length = view[message] | (view[message + 1] << 8) | (view[message + 2] << 16) | (view[message + 3] << 24);
    return provider.asciiAt(view, message + 4, message + 4 + length);
  }

  /**
   * The report of `validateRequest` without options for the operation at `index` of the
   * spec's table, of text the provider encodes into wasm memory (`undefined`: the general
   * path; a report without an issue is written here).
   */
  function validateRequest(index, body) {
    const input = textInput(body, 0, 4096);
    if (input === undefined) return undefined;
    return glue.__validateRequestOfInput(index, input.written) ?? { valid: true, errors: [], warnings: [] };
  }

  /** The u32 little-endian at `at` of `view`. */
  const u32At = (view, at) => (view[at] | (view[at + 1] << 8) | (view[at + 2] << 16) | (view[at + 3] << 24)) >>> 0;

  /**
   * The sync native check of `__verifyCallback`'s value `{ key, at }` (src/wasm/exports/callback.rs,
   * `in_place`): from `at`, the handle, the length of the bytes RSA-SHA256 verifies and the
   * signature's (u32 little-endian each), then those bytes, then the signature, read where the
   * wasm keeps them until `__finishCallback`. `{ handle, answer }` of `verify(data, signature,
   * nativeKey(key))`, or `{ handle, failure }` with what it threw. The bytes are read through a
   * view made after the native key is found (`nativeKey(key)` may call the wasm and grow its
   * memory, which detaches older views); the handle, before.
   */
  function checkInPlace({ key, at }, verify, nativeKey) {
    const handle = u32At(memory(), at);
    try {
      const native = nativeKey(key);
      const view = memory();
      const data = at + 12;
      const signature = data + u32At(view, at + 4);
      return { handle, answer: verify(view.subarray(data, signature), view.subarray(signature, signature + u32At(view, at + 8)), native) };
    } catch (cause) {
      return { handle, failure: { cause } };
    }
  }

  return { canonicalMessage, checkInPlace, validateRequest };
}

export { createWasmIo };
