// Callback delivery, as the service does it: each callback body is signed with the
// service's key (signRequestAsync: the message rule is the same in both directions),
// POSTed to its address and retried with a doubling backoff until the receiver
// answers HTTP 200, at most `attempts` times. Callbacks of one payment go out in
// order: the next waits until the one before is delivered or given up. With
// `duplicates`, each delivered callback is sent once more (signed again), so a
// receiver can test that it ignores repeats. close() stops every pending retry.
// Two harsher modes, for receivers that must stand what a real network does:
//  - `shuffle`: a payment's callbacks are not chained; each waits a random delay of up to
//    DELAY.shuffle (the service's seconds) before its first attempt, so a later state can
//    arrive before an earlier one;
//  - `concurrent` N (from 1): nothing waits for another callback: every callback (and its
//    duplicate, sent at once beside it instead of after its 200) goes through its attempts
//    on its own, with at most N attempts in flight across the sandbox.
// Every attempt is recorded (`record(queue, delivery)`: when, where, the receiver's
// answer or the error, the answer's code (`{ ok, code }`, read from at most MAX_ANSWER_BYTES
// of its body), the attempt, when the next retry is due), and `once()` makes one more attempt
// at once, outside the queue (the "deliver again" control). A callback marked `lost` (its
// payment's callbacks are lost: startSandbox({ loseCallbacks })) is only recorded as such.
import http from 'node:http';
import https from 'node:https';

import { DELAY } from './data.mjs';

/** Real milliseconds a receiver gets to answer one attempt. */
const ATTEMPT_TIMEOUT_MS = 10000;

/** The most of an answer's body read for its code; a longer body is not read on. */
export const MAX_ANSWER_BYTES = 4096;
/** An answer code kept: a short word of A-Z and _ (DUPLICATE, NOT_FORWARD), never other text. */
const ANSWER_CODE = /^[A-Z_]{1,64}$/;

/**
 * The `code` of a receiver's answer `{ ok, code? }` (the package's receiver answers so), or
 * null: a body that is not such JSON, or whose code is not a short word of A-Z and _.
 */
export function answerCode(text) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || typeof parsed.ok !== 'boolean') return null;
  const code = Object.hasOwn(parsed, 'code') ? parsed.code : null;
  return typeof code === 'string' && ANSWER_CODE.test(code) ? code : null;
}

/** At most `limit` holders at once; the others wait in order. */
class Slots {
  #free;
  #waiting = [];
  constructor(limit) {
    this.#free = limit;
  }
  async take() {
    if (this.#free > 0) {
      this.#free -= 1;
      return;
    }
    await new Promise((resolve) => this.#waiting.push(resolve));
  }
  give() {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free += 1;
  }
  /** Lets every waiter go (close()). */
  drain() {
    for (const next of this.#waiting.splice(0)) next();
  }
}

export class CallbackSender {
  #api;
  #key;
  #merchantId;
  #profile;
  #clock;
  #attempts;
  #duplicates;
  #shuffle;
  /** Slots of the `concurrent` mode, or null (a payment's callbacks one after the other). */
  #slots;
  #emit;
  #record;
  #queues = new Map();
  /** Callbacks going through their attempts on their own (shuffle, concurrent). */
  #loose = new Set();
  #requests = new Set();
  /** Resolvers of the backoff waits, released by close(). */
  #waits = new Set();
  #closed = false;

  /**
   * `api`: the package; `key`: the service's SigningKey; `clock`: the sandbox's timers
   * (`after(seconds, fn)` and `msOf(seconds)`, scaled); `emit(event)`: reports each
   * attempt; `record(queue, delivery)`: keeps it with its payment. `shuffle` (boolean) and
   * `concurrent` (0: off, else the most attempts in flight): the modes above.
   */
  constructor({ api, key, merchantId, profile, clock, attempts, duplicates, shuffle = false, concurrent = 0, emit, record }) {
    this.#api = api;
    this.#key = key;
    this.#merchantId = merchantId;
    this.#profile = profile;
    this.#clock = clock;
    this.#attempts = attempts;
    this.#duplicates = duplicates;
    this.#shuffle = shuffle;
    this.#slots = concurrent > 0 ? new Slots(concurrent) : null;
    this.#emit = emit;
    this.#record = record;
  }

  /**
   * Queues `callback` (`{ url, kind, body, seq, state }`) behind the earlier callbacks of the
   * same payment (`queue`).
   */
  send(queue, callback) {
    if (callback.lost) return void this.#lose(queue, callback, { attempt: 1, manual: false });
    if (this.#shuffle || this.#slots) return this.#sendLoose(queue, callback);
    const previous = this.#queues.get(queue) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        const delivered = await this.#deliver(queue, callback, 1);
        if (delivered && this.#duplicates) await this.#deliver(queue, callback, 1, true);
      })
      .catch((error) => {
        // Signing can fail only once close() has freed the key; report anything else.
        if (!this.#closed) this.#emit({ type: 'failure', error });
      });
    this.#queues.set(queue, next);
    next.finally(() => {
      if (this.#queues.get(queue) === next) this.#queues.delete(queue);
    });
  }

  /** A callback on its own: after a random delay (shuffle), its duplicate beside it (concurrent). */
  #sendLoose(queue, callback) {
    const report = (error) => {
      if (!this.#closed) this.#emit({ type: 'failure', error });
    };
    const go = async () => {
      if (this.#shuffle) await this.#wait(Math.random() * DELAY.shuffle);
      if (this.#slots && this.#duplicates) {
        await Promise.all([this.#deliver(queue, callback, 1), this.#deliver(queue, callback, 1, true)]);
      } else {
        const delivered = await this.#deliver(queue, callback, 1);
        if (delivered && this.#duplicates) await this.#deliver(queue, callback, 1, true);
      }
    };
    const pending = go().catch(report);
    this.#loose.add(pending);
    pending.finally(() => this.#loose.delete(pending));
  }

  /** Waits `seconds` of the service's time; close() ends the wait at once. */
  #wait(seconds) {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const release = () => {
        this.#waits.delete(release);
        resolve();
      };
      this.#waits.add(release);
      this.#clock.after(seconds, release);
    });
  }

  /** One attempt now, outside the queue and its retries; resolves with its delivery (null once closed). */
  async once(queue, callback, attempt) {
    if (this.#closed) return null;
    if (callback.lost) return this.#lose(queue, callback, { attempt, manual: true });
    return this.#attempt(queue, callback, { attempt, manual: true, retryIn: null });
  }

  /** Resolves when every queued callback is delivered or given up. */
  async idle() {
    while (this.#queues.size > 0 || this.#loose.size > 0) await Promise.all([...this.#queues.values(), ...this.#loose]);
  }

  /** Stops: requests in flight are cut, waits for a retry end, and nothing is sent again. */
  close() {
    this.#closed = true;
    for (const request of this.#requests) request.destroy();
    for (const release of [...this.#waits]) release();
    this.#waits.clear();
    this.#slots?.drain();
  }

  /**
   * A callback of a payment whose callbacks are lost (startSandbox({ loseCallbacks })): recorded
   * and reported as `lost`, never signed nor POSTed, never retried. Resolves with the delivery.
   */
  #lose(queue, { url, kind, body, seq, state }, { attempt, manual }) {
    if (this.#closed) return null;
    const delivery = {
      at: Date.now(), callback: seq, state, kind, url, attempt, duplicate: false, manual, status: null, code: null, error: null, lost: true, gaveUp: !manual, nextRetryAt: null,
    };
    this.#record(queue, delivery);
    this.#emit({ type: 'callback', requestId: queue, ...delivery, body: JSON.stringify(body) });
    return delivery;
  }

  /** One callback through its attempts; true once a receiver answered 200. */
  async #deliver(queue, callback, attempt, duplicate = false) {
    if (this.#closed) return false;
    const retryIn = attempt >= this.#attempts ? null : Math.min(DELAY.retry * 2 ** (attempt - 1), DELAY.retryMax);
    const delivery = await this.#attempt(queue, callback, { attempt, duplicate, retryIn });
    if (delivery.status === 200 || delivery.gaveUp || this.#closed) return delivery.status === 200;
    await this.#wait(retryIn);
    return this.#deliver(queue, callback, attempt + 1, duplicate);
  }

  /** Signs and POSTs the callback once, records the delivery and reports it; resolves with the delivery. */
  async #attempt(queue, { url, kind, body, seq, state }, { attempt, duplicate = false, manual = false, retryIn }) {
    const signed = await this.#api.signRequestAsync(body, this.#key, { merchantId: this.#merchantId, options: { profile: this.#profile } });
    await this.#slots?.take();
    const at = Date.now();
    let result;
    try {
      result = this.#closed ? { status: null, error: 'sandbox closed' } : await this.#post(url, signed);
    } finally {
      this.#slots?.give();
    }
    const ok = result.status === 200;
    const delivery = {
      at,
      callback: seq,
      state,
      kind,
      url,
      attempt,
      duplicate,
      manual,
      status: result.status,
      code: result.code ?? null,
      error: result.error,
      lost: false,
      gaveUp: !ok && !manual && retryIn === null,
      nextRetryAt: ok || retryIn === null || this.#closed ? null : Date.now() + this.#clock.msOf(retryIn),
    };
    this.#record(queue, delivery);
    this.#emit({ type: 'callback', requestId: queue, ...delivery, body: signed.body });
    return delivery;
  }

  /** POSTs the signed body; `{ status, code }` (the answer's code, or null) or `{ status: null, error }`. */
  #post(url, signed) {
    return new Promise((resolve) => {
      const target = new URL(url);
      const transport = target.protocol === 'https:' ? https : http;
      const request = transport.request(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(signed.body), ...signed.headers },
        timeout: ATTEMPT_TIMEOUT_MS,
      });
      this.#requests.add(request);
      let settled = false;
      const done = (outcome) => {
        if (settled) return;
        settled = true;
        this.#requests.delete(request);
        resolve(outcome);
      };
      request.on('response', (response) => readAnswer(response, done));
      request.on('timeout', () => request.destroy(new Error('no answer in time')));
      request.on('error', (e) => done({ status: null, error: e.code ?? e.message }));
      request.end(signed.body);
    });
  }
}

/**
 * Reads at most MAX_ANSWER_BYTES of an answer for its code, for at most ATTEMPT_TIMEOUT_MS;
 * `settle({ status, error, code })`. A longer or slower body is not read on: the answer's
 * status is known (it stands, with no code), the connection is closed.
 */
function readAnswer(response, settle) {
  const status = response.statusCode;
  const chunks = [];
  let size = 0;
  // A body that trickles in is not waited for longer than an attempt: its status stands.
  const timer = setTimeout(() => cut(), ATTEMPT_TIMEOUT_MS);
  const done = (outcome) => {
    clearTimeout(timer);
    settle(outcome);
  };
  const cut = () => {
    done({ status, error: null, code: null });
    response.destroy();
  };
  response.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      cut();
    } else {
      chunks.push(chunk);
    }
  });
  response.on('end', () => done({ status, error: null, code: answerCode(Buffer.concat(chunks).toString('utf8')) }));
  response.on('error', (e) => done({ status: null, error: e.code ?? e.message, code: null }));
}
