// A callback receiver as a Cloudflare Worker (the same handler runs on Vercel Edge). The
// package's `workerd` / `edge-light` entry loads its WebAssembly itself: no init() call.
// The service's public key comes from the Worker's environment (a secret:
// `wrangler secret put SERVICE_PUBLIC_KEY < service-public.pem`). New states are passed on to
// your backend through a service binding, EVENTS. The default store (memoryStore) drops repeats
// within one isolate only: the backend must still act once per idempotencyKey (or give the
// handler a store all isolates share).
import { VerifyingKey } from 'payment-intake';
import { createFetchHandler } from './fetch-handler.mjs';

/**
 * @typedef {object} Env
 * @property {string} SERVICE_PUBLIC_KEY the service's public key (PEM)
 * @property {{ fetch(input: string, init?: RequestInit): Promise<Response> }} EVENTS your backend
 */

/**
 * Passes an event on to the backend; a failure throws, so the service is answered 500 and
 * sends the callback again later.
 * @param {Env} env
 * @param {string} path
 * @param {unknown} event
 */
async function forward(env, path, event) {
  const response = await env.EVENTS.fetch(`https://backend${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(event),
  });
  if (!response.ok) throw new Error(`backend answered ${response.status}`);
}

/** @type {Map<string, (request: Request) => Promise<Response>>} one handler per key text */
const handlers = new Map();

export default {
  /**
   * @param {Request} request
   * @param {Env} env
   */
  async fetch(request, env) {
    let handler = handlers.get(env.SERVICE_PUBLIC_KEY);
    if (!handler) {
      handler = createFetchHandler(VerifyingKey.fromPem(env.SERVICE_PUBLIC_KEY), {
        onEvent: (event) => forward(env, '/payment-events', { ...event.callback, previous: event.previous, forward: event.forward }),
        onReview: (review) => forward(env, '/kept-callbacks', review),
      });
      handlers.set(env.SERVICE_PUBLIC_KEY, handler);
    }
    return handler(request);
  },
};
