// A body's bytes read from its stream, no further than a limit: used by
// `verifyCallbackRequest` (callbacks.mjs) and the receiver's Fetch adapter
// (receiver/fetch-adapter.mjs), so a sender cannot make either hold more than the limit.

/** A stream chunk that is not bytes: the caller says what it means for its input. */
class NotBytesError extends TypeError {}

/**
 * The bytes `reader` (a ReadableStream's reader) gives, at most `limit + 1` of them kept: the
 * verifier refuses a longer body as BODY_TOO_LARGE, so reading stops there and the stream is
 * cancelled. A chunk other than a Uint8Array throws NotBytesError; a failing stream, its own
 * error.
 */
async function readBounded(reader, limit) {
  const chunks = [];
  let length = 0;
  while (length <= limit) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!(value instanceof Uint8Array)) throw new NotBytesError('the body stream gave something other than bytes');
    chunks.push(value);
    length += value.byteLength;
  }
  if (length > limit) await reader.cancel().catch(() => {});
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

export { NotBytesError, readBounded };
