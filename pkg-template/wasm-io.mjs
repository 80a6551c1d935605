// The one module that touches wasm memory: the fast paths that BENCHMARKS.md shows pay, where
// the provider writes and reads bytes in place. Text the provider encodes goes straight into
// the wasm's input buffer (`__textInput`), the canonical message is read where the wasm wrote
// it, and the sync callback check reads the bytes RSA-SHA256 verifies where they lie.
// Addresses and lengths stay in this file; the other modules call the functions below. The
// exports it calls take one request and answer `{ ok, value }` or `{ ok, error }`
// (CONTRIBUTING.md, "The boundary's shape"): those of the text written in place take the one
// object of the glue's `__InPlaceCall` this file makes and keeps, whose request members it
// sets and whose answer members (`ok`, `kind`, `value`, `error`) the export fills: only
// numbers cross, each a call into the wasm, which V8 inlines (src/wasm/exports/input.rs). The
// text goes into that object's own room, asked for again only when a text needs more.

/** The u32 little-endian at `at` of `view`. */
const u32At = (view, at) => (view[at] | (view[at + 1] << 8) | (view[at + 2] << 16) | (view[at + 3] << 24)) >>> 0;

/** Whether `text` is ASCII, written into `view` from `at` if so. */
function asciiInto(text, view, at) {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return false;
    view[at + i] = code;
  }
  return true;
}

/**
 * The sync native check of `__verifyCallback`'s value `{ key, at }` (src/wasm/exports/callback.rs,
 * `in_place`): from `at`, the handle, the length of the bytes RSA-SHA256 verifies and the
 * signature's (u32 little-endian each), then those bytes, then the signature, read where the
 * wasm keeps them until `__finishCallback`. `{ handle, answer }` of `verify(data, signature,
 * nativeKey(key))`, or `{ handle, failure }` with what it threw. The bytes are read through a
 * view made after the native key is found (`nativeKey(key)` may call the wasm and grow its
 * memory, which detaches older views); the handle, before. `memory()`: the view of the wasm's
 * memory (createWasmIo's).
 */
function checkInPlace(memory, { key, at }, verify, nativeKey) {
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

/**
 * The in-place I/O over `glue` with `provider`: `canonicalMessage(body, timestamp, options)`
 * and `validateRequest(index, body)` (`undefined` when the general path must run), and
 * `checkInPlace(value, verify, nativeKey)`, the sync callback check.
 */
function createWasmIo(glue, provider, errors) {
  const { unwrap } = errors;
  /** The request and answer of the in-place exports, made once. */
  let call;
  /** The address and size of its room for text (`__textInput`), kept until a text needs more. */
  let roomAt = 0;
  let roomSize = 0;
  /**
   * Whether an in-place call is under way: a caller's getter the wasm reads (the options)
   * that calls in again takes the general path (the call's object is in use).
   */
  let busy = false;
  /** `provider.view` of the wasm's memory, made again once the memory grows (the old view is then empty). */
  let memoryView;
  /** The decoder of the reports' JSON text, made once. */
  let utf8;
  const memory = () => (memoryView?.length ? memoryView : (memoryView = provider.view(unwrap(glue.__memory({})).buffer)));

  /**
   * Writes text of at most `maxLength` UTF-16 units that the provider encodes straight into
   * the wasm's input buffer as UTF-8, with `room` bytes after it (src/wasm/exports/input.rs):
   * `{ view, at, written }`, or undefined for the general path (no room, past any body the
   * wasm reads, or a lone surrogate: that path words the error). No wasm call may come
   * between this and the call that reads it.
   */
  function textInput(text, room, maxLength) {
    if (busy || !provider.fits?.(text, maxLength)) return undefined;
    call ??= new glue.__InPlaceCall();
    const capacity = 3 * text.length;
    if (capacity + room > roomSize) {
      call.capacity = capacity + room;
      glue.__textInput(call);
      if (!call.ok) return undefined;
      roomAt = call.value;
      roomSize = capacity + room;
    }
    const at = roomAt;
    // (No wasm call until the text is read: the memory cannot grow, one view serves.)
    const view = memory();
    const written = provider.utf8Into(text, view, at, capacity);
    return provider.wroteWellFormed(text, view, at, written) ? { view, at, written } : undefined;
  }

  /**
   * The message of text the provider encodes, written into wasm memory and read where the
   * wasm wrote it (after its length, 4 bytes little-endian); `undefined` for the general
   * path. A timestamp of at most `stampRoom` ASCII characters goes in after the text
   * (`timestampWritten`); else the wasm reads `timestamp` itself.
   */
  function canonicalMessage(body, timestamp, options) {
    const { stampRoom, maxBodyBytes } = errors.shared();
    const input = textInput(body, stampRoom, maxBodyBytes);
    if (input === undefined) return undefined;
    const { view: into, at, written } = input;
    const timestampWritten = typeof timestamp === 'string' && timestamp.length <= stampRoom && asciiInto(timestamp, into, at + written);
    call.length = written;
    call.timestampWritten = timestampWritten;
    // The call lets go of the caller's values once read: only those given are set.
    if (timestampWritten) call.timestampLength = timestamp.length;
    else call.timestamp = timestamp;
    if (options !== undefined) call.options = options;
    busy = true;
    try {
      glue.__canonicalMessageOfInput(call);
    } finally {
      busy = false;
    }
    const message = unwrap(call);
    const view = memory();
    return provider.asciiAt(view, message + 4, message + 4 + u32At(view, message));
  }

  /**
   * The report of `validateRequest` without options for the operation at `index` of the
   * spec's table, of text the provider encodes into wasm memory (`undefined`: the general
   * path): the report's JSON text read where the wasm wrote it, or a report without an
   * issue made here.
   */
  function validateRequest(index, body) {
    const input = textInput(body, 0, 4096);
    if (input === undefined) return undefined;
    call.operationIndex = index;
    call.length = input.written;
    glue.__validateRequestOfInput(call);
    const report = unwrap(call);
    if (call.kind === 'valid') return { valid: true, errors: [], warnings: [] };
    const view = memory();
    return JSON.parse((utf8 ??= new TextDecoder()).decode(view.subarray(report + 4, report + 4 + u32At(view, report))));
  }

  return { canonicalMessage, checkInPlace: (value, verify, nativeKey) => checkInPlace(memory, value, verify, nativeKey), validateRequest };
}

export { createWasmIo };
