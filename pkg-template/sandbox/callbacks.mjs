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
// answer or the error, the attempt, when the next retry is due), and `once()` makes one
// more attempt at once, outside the queue (the "deliver again" control).
import http from 'node:http';
import https from 'node:https';

import { DELAY } from './data.mjs';

/** Real milliseconds a receiver gets to answer one attempt. */
const ATTEMPT_TIMEOUT_MS = 10000;

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
      error: result.error,
      gaveUp: !ok && !manual && retryIn === null,
      nextRetryAt: ok || retryIn === null || this.#closed ? null : Date.now() + this.#clock.msOf(retryIn),
    };
    this.#record(queue, delivery);
    this.#emit({ type: 'callback', requestId: queue, ...delivery, body: signed.body });
    return delivery;
  }

  /** POSTs the signed body; `{ status }` or `{ status: null, error }`. */
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
      const done = (outcome) => {
        this.#requests.delete(request);
        resolve(outcome);
      };
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => done({ status: response.statusCode, error: null }));
        response.on('error', (e) => done({ status: null, error: e.code ?? e.message }));
      });
      request.on('timeout', () => request.destroy(new Error('no answer in time')));
      request.on('error', (e) => done({ status: null, error: e.code ?? e.message }));
      request.end(signed.body);
    });
  }
}
