// Callback delivery, as the service does it: each callback body is signed with the
// service's key (signRequestAsync: the message rule is the same in both directions),
// POSTed to its address and retried with a doubling backoff until the receiver
// answers HTTP 200, at most `attempts` times. Callbacks of one payment go out in
// order: the next waits until the one before is delivered or given up. With
// `duplicates`, each delivered callback is sent once more (signed again), so a
// receiver can test that it ignores repeats. close() stops every pending retry.
import http from 'node:http';
import https from 'node:https';

import { DELAY } from './data.mjs';

/** Real milliseconds a receiver gets to answer one attempt. */
const ATTEMPT_TIMEOUT_MS = 10000;

export class CallbackSender {
  #api;
  #key;
  #merchantId;
  #profile;
  #clock;
  #attempts;
  #duplicates;
  #emit;
  #queues = new Map();
  #requests = new Set();
  /** Resolvers of the backoff waits, released by close(). */
  #waits = new Set();
  #closed = false;

  /**
   * `api`: the package; `key`: the service's SigningKey; `clock`: the sandbox's timers
   * (`after(seconds, fn)`, scaled); `emit(event)`: reports each attempt.
   */
  constructor({ api, key, merchantId, profile, clock, attempts, duplicates, emit }) {
    this.#api = api;
    this.#key = key;
    this.#merchantId = merchantId;
    this.#profile = profile;
    this.#clock = clock;
    this.#attempts = attempts;
    this.#duplicates = duplicates;
    this.#emit = emit;
  }

  /** Queues `body` for `url` behind the earlier callbacks of the same payment (`queue`). */
  send(queue, url, kind, body) {
    const previous = this.#queues.get(queue) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        const delivered = await this.#deliver(url, kind, body, 1);
        if (delivered && this.#duplicates) await this.#deliver(url, kind, body, 1, true);
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

  /** Resolves when every queued callback is delivered or given up. */
  async idle() {
    while (this.#queues.size > 0) await Promise.all([...this.#queues.values()]);
  }

  /** Stops: requests in flight are cut, waits for a retry end, and nothing is sent again. */
  close() {
    this.#closed = true;
    for (const request of this.#requests) request.destroy();
    for (const release of this.#waits) release();
    this.#waits.clear();
  }

  /** One callback through its attempts; true once a receiver answered 200. */
  async #deliver(url, kind, body, attempt, duplicate = false) {
    if (this.#closed) return false;
    const signed = await this.#api.signRequestAsync(body, this.#key, { merchantId: this.#merchantId, options: { profile: this.#profile } });
    const result = await this.#post(url, signed);
    const ok = result.status === 200;
    const last = !ok && attempt >= this.#attempts;
    this.#emit({ type: 'callback', kind, url, attempt, duplicate, status: result.status, error: result.error, gaveUp: last, body: signed.body });
    if (ok || last || this.#closed) return ok;
    const delay = Math.min(DELAY.retry * 2 ** (attempt - 1), DELAY.retryMax);
    await new Promise((resolve) => {
      const release = () => {
        this.#waits.delete(release);
        resolve();
      };
      this.#waits.add(release);
      this.#clock.after(delay, release);
    });
    return this.#deliver(url, kind, body, attempt + 1, duplicate);
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
