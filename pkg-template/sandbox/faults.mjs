// Failure injection, for testing a client's retries and error handling against the
// sandbox: faults set by `startSandbox({ faults })` or `POST /sandbox/faults` hit the
// spec's operations (never the /sandbox/ controls), each for its next `count` requests or
// a `share` (0..1) of them (every request when neither is given). The first fault of the
// list that takes a request decides what happens to it:
//   drop-before   the connection is closed before the request is handled (nothing done)
//   drop-after    the request is handled (a payin is made), then the connection is closed unanswered
//   delay         the answer waits `ms` milliseconds (then the request is handled as usual)
//   status        HTTP `status` (500, 502 or 503 by default 503), not handled
//   rate-limit    HTTP 429 with `Retry-After: retryAfter` seconds (default 1), not handled
//   truncate      handled, then the answer stops halfway through its body (content-length promised more)
//   html          HTTP `status` (default 502) with an HTML page, as a proxy in front of the service would, not handled

/** Each fault type, with the members it takes besides `type`, `count` and `share`. */
export const FAULT_TYPES = Object.freeze({
  'drop-before': [],
  'drop-after': [],
  delay: ['ms'],
  status: ['status'],
  'rate-limit': ['retryAfter'],
  truncate: [],
  html: ['status'],
});

/** The longest delay a fault may hold a request (ms). */
const MAX_DELAY_MS = 60000;

export class FaultError extends Error {}

const whole = (value, min, max) => Number.isSafeInteger(value) && value >= min && value <= max;

/** A fault as given, checked and with its defaults: `{ type, ..., count, share, remaining }`. */
function normalize(fault, i) {
  const where = `faults[${i}]`;
  if (fault === null || typeof fault !== 'object' || Array.isArray(fault)) throw new FaultError(`${where} must be an object with a type`);
  const { type, count, share } = fault;
  if (!Object.hasOwn(FAULT_TYPES, type)) throw new FaultError(`${where}.type must be one of ${Object.keys(FAULT_TYPES).join(', ')}`);
  const unknown = Object.keys(fault).filter((name) => !['type', 'count', 'share', ...FAULT_TYPES[type]].includes(name));
  if (unknown.length) throw new FaultError(`${where}: ${unknown.join(', ')} is not taken by a '${type}' fault`);
  if (count !== undefined && !whole(count, 1, Number.MAX_SAFE_INTEGER)) throw new FaultError(`${where}.count must be a whole number from 1`);
  if (share !== undefined && !(typeof share === 'number' && share >= 0 && share <= 1)) throw new FaultError(`${where}.share must be a number from 0 to 1`);
  if (count !== undefined && share !== undefined) throw new FaultError(`${where}: give count or share, not both`);
  const out = { type, count: count ?? null, share: count === undefined ? (share ?? 1) : null, remaining: count ?? null };
  if (type === 'delay') {
    if (!whole(fault.ms, 0, MAX_DELAY_MS)) throw new FaultError(`${where}.ms must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`);
    out.ms = fault.ms;
  }
  if (type === 'status') {
    out.status = fault.status ?? 503;
    if (![500, 502, 503].includes(out.status)) throw new FaultError(`${where}.status must be 500, 502 or 503`);
  }
  if (type === 'html') {
    out.status = fault.status ?? 502;
    if (!whole(out.status, 200, 599)) throw new FaultError(`${where}.status must be an HTTP status from 200 to 599`);
  }
  if (type === 'rate-limit') {
    out.retryAfter = fault.retryAfter ?? 1;
    if (!whole(out.retryAfter, 0, 86400)) throw new FaultError(`${where}.retryAfter must be a whole number of seconds from 0 to 86400`);
  }
  return out;
}

/** The faults in force, in order. */
export class Faults {
  #list = [];

  constructor(list = []) {
    this.set(list);
  }

  /** Replaces the faults (throws FaultError, changing nothing, when one is not a fault). */
  set(list) {
    if (!Array.isArray(list)) throw new FaultError('faults must be an array');
    this.#list = list.map(normalize);
  }

  /** A copy of the faults, `remaining` counting down for those with a `count`. */
  list() {
    return this.#list.map((fault) => ({ ...fault }));
  }

  /** The fault that takes the next request, or null (a fault whose count is used up takes none). */
  next() {
    for (const fault of this.#list) {
      if (fault.remaining !== null) {
        if (fault.remaining === 0) continue;
        fault.remaining -= 1;
        return { ...fault };
      }
      if (Math.random() < fault.share) return { ...fault };
    }
    return null;
  }
}

const HTML_PAGE = (status) => `<!doctype html>
<html><head><title>${status} Error</title></head>
<body><h1>${status} Error</h1><p>The upstream server did not answer. (payment-intake sandbox: an injected fault.)</p></body></html>
`;

/**
 * Answers a request the fault took. `run()` handles the request and resolves to
 * `[status, body, headers]`; `send(status, body, type, location, headers)` answers;
 * resolves to true when the request was answered here, false when it goes on as usual
 * (after a delay).
 */
export async function applyFault(fault, { res, run, send }) {
  const note = { error: `sandbox fault: ${fault.type}`, sandbox_fault: fault.type };
  switch (fault.type) {
    case 'drop-before':
      res.socket?.destroy();
      return true;
    case 'delay':
      await new Promise((resolve) => setTimeout(resolve, fault.ms).unref());
      return false;
    case 'status':
      send(fault.status, note);
      return true;
    case 'rate-limit':
      send(429, note, undefined, undefined, { 'retry-after': String(fault.retryAfter) });
      return true;
    case 'html':
      send(fault.status, HTML_PAGE(fault.status), 'text/html; charset=utf-8');
      return true;
    case 'drop-after':
      await run();
      res.socket?.destroy();
      return true;
    default: {
      // truncate: the whole answer's length is promised, half of it is sent, then the connection ends.
      const [status, body] = await run();
      const bytes = Buffer.from(JSON.stringify(body));
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length, 'cache-control': 'no-store' });
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.socket?.destroy());
      return true;
    }
  }
}
