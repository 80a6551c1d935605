// An answer's body, read no further than the package's JSON reader goes (its 64 KiB,
// `__constants().readerMaxBytes`): from its stream when it has one (a gzip answer is counted
// inflated, as the stream gives it), cancelled past the limit; else by its `text()` (a fake
// fetch's `{ status, text() }`). Either way under the attempt's signal: a stream that stalls
// ends when the attempt's timeout aborts it.
import { readBounded } from '../body-stream.mjs';

/** Rejects with the signal's reason when it aborts first. */
function untilAborted(promise, signal) {
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort;
  const aborted = new Promise((resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** Whether `text` is over `limit` UTF-8 bytes (a UTF-16 unit is at least one byte, so a longer text is). */
function textOver(text, limit) {
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  return new TextEncoder().encode(text).byteLength > limit;
}

/** `{ text }`, or `{ oversize: true, text }` past `limit` bytes (`text` about its first `limit` bytes). Throws what the stream or the signal throws. */
async function readAnswer(res, limit, signal) {
  const stream = res.body;
  if (stream !== null && typeof stream === 'object' && typeof stream.getReader === 'function') {
    const reader = stream.getReader();
    const onAbort = () => reader.cancel(signal.reason).catch(() => {});
    signal.addEventListener('abort', onAbort, { once: true });
    let bytes;
    try {
      bytes = await untilAborted(readBounded(reader, limit), signal);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (bytes.byteLength > limit) return { oversize: true, text: new TextDecoder().decode(bytes.subarray(0, limit)) };
    return { text: new TextDecoder().decode(bytes) };
  }
  const text = await untilAborted(Promise.resolve(res.text()), signal);
  if (typeof text !== 'string') throw new TypeError('the answer\'s text() gave no string');
  return textOver(text, limit) ? { oversize: true, text: text.slice(0, limit) } : { text };
}

/** The INVALID_RESPONSE of an answer over the limit (`out` the attempt's outcome). */
function oversizeError(make, operation, out, attempts, limit) {
  const size = limit % 1024 === 0 ? `${limit / 1024} KiB` : `${limit} bytes`;
  return make('INVALID_RESPONSE', `${operation.path}: the answer is over ${size} (HTTP ${out.statusCode}): not read further`, {
    statusCode: out.statusCode, attempts, body: out.text,
    hint: `the package reads at most ${size} of an answer: the service's answers are about 1 KB, so this one is not the service's (check baseUrl)${operation.create ? '; whether this payment was made is unknown: repeating the same create with the same payment_id is safe' : ''}`,
  });
}

export { oversizeError, readAnswer };
