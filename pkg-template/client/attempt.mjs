// One attempt of a call: the signed text POSTed, the answer read (no further than the
// package's reader goes, answer.mjs), under the attempt's share of the call's deadline
// (attemptMs) and the caller's signal. It never throws for what the network or the service
// did: it resolves to an outcome the retry loop (call.mjs) decides on.
import { readAnswer } from './answer.mjs';

/** Why an attempt's own controller aborted: its deadline, an Error (a TIMEOUT's `cause` is always one). */
class DeadlineError extends Error {
  constructor(ms) {
    super(`the attempt's deadline (${Math.max(0, Math.round(ms))} ms) passed before the answer was read`);
    this.name = 'DeadlineError';
  }
}

/** Whether `cause` is Node's fetch refusing a redirect (`redirect: 'error'`: a TypeError whose cause says so); a browser's says nothing, and is a network error. */
function isRedirectRefusal(cause) {
  return cause?.cause?.message === 'unexpected redirect';
}

/**
 * `{ kind, statusCode, text, headers, cause }`: kind 'answer' (an HTTP answer read whole),
 * 'oversize' (an answer over `maxBytes`, not read further: `text` its start), 'network' (the connection failed, before or during the answer), 'redirect' (the
 * service answered a redirect, not followed), 'timeout' (the deadline passed) or 'aborted' (the caller's signal; `cause` its reason).
 */
async function attempt({ fetch, url, headers, body, remainingMs, maxBytes, signal }) {
  const controller = new AbortController();
  // The deadline's Error is made when it passes, not for every attempt: an Error's stack is
  // the costliest thing an attempt that succeeds would make.
  let deadline = null;
  const timer = setTimeout(() => controller.abort((deadline = new DeadlineError(remainingMs))), Math.max(0, remainingMs));
  const onAbort = () => controller.abort(signal.reason);
  if (signal) {
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  const outcome = (kind, extra) => ({ kind, statusCode: null, text: null, headers: null, cause: null, ...extra });
  let statusCode = null;
  try {
    // A redirect is never followed: a 307/308 would send the signed body and its signature to
    // the place it names, and any other would turn the call into a GET of it. 'error' rather
    // than 'manual': the fetch of Node (undici) copies a request's body for any mode but
    // 'error' (a stream tee, about a tenth of a create's CPU). A fetch that answers the 3xx
    // anyway is refused by call.mjs.
    const res = await fetch(url, { method: 'POST', headers, body, signal: controller.signal, redirect: 'error' });
    statusCode = res.status;
    const read = await readAnswer(res, maxBytes, controller.signal);
    if (read.oversize) return outcome('oversize', { statusCode, text: read.text, headers: res.headers });
    return outcome('answer', { statusCode, text: read.text, headers: res.headers });
  } catch (cause) {
    if (controller.signal.aborted) {
      return deadline !== null && controller.signal.reason === deadline ? outcome('timeout', { statusCode, cause: deadline }) : outcome('aborted', { statusCode, cause: controller.signal.reason });
    }
    if (statusCode === null && isRedirectRefusal(cause)) return outcome('redirect', { cause });
    return outcome('network', { statusCode, cause });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The time attempt `attempts` (from 1) of a call may take, of the `remainingMs` of its
 * deadline: `attemptTimeoutMs` when the call or the client gives it, else its share, the
 * remaining time divided among the attempts left (the last gets all that remains), so that
 * an attempt that times out leaves time for the retries promised on a timeout.
 */
function attemptMs({ retries, attemptTimeoutMs }, attempts, remainingMs) {
  if (attemptTimeoutMs !== undefined) return Math.min(attemptTimeoutMs, remainingMs);
  const left = Math.max(1, retries + 2 - attempts);
  return remainingMs / left;
}

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), or null. */
function retryAfterMs(headers, now) {
  const value = headers?.get?.('retry-after');
  if (value === null || value === undefined || value === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export { attempt, attemptMs, retryAfterMs, sleep };
