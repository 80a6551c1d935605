// A callback receiver as a Fetch-style handler, `(request: Request) => Promise<Response>`:
// the shape of Next.js route handlers, Hono, Bun.serve, Deno.serve and Workers. handler.fetch
// reads the body's exact bytes itself; never call request.json() before it.
import { createHandler } from './handle-callback.mjs';

/**
 * @param {import('payment-intake').KeyInput} keys
 * @param {import('./handle-callback.mjs').Handlers} handlers
 * @returns {(request: Request) => Promise<Response>}
 */
export function createFetchHandler(keys, handlers) {
  return createHandler(keys, handlers).fetch;
}
