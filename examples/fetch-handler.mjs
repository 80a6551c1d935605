// A callback receiver as a Fetch-style handler, `(request: Request) => Promise<Response>`:
// the shape of Next.js route handlers, Hono, Bun.serve, Deno.serve and Workers. The raw
// body is `await request.arrayBuffer()`; never `request.json()`, which loses the bytes the
// signature covers.
import { handleCallback } from './handle-callback.mjs';

/**
 * @param {import('payment-intake').KeyInput} keys
 * @param {import('./handle-callback.mjs').Handlers} handlers
 * @returns {(request: Request) => Promise<Response>}
 */
export function createFetchHandler(keys, handlers) {
  return async (request) => {
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    const rawBody = new Uint8Array(await request.arrayBuffer());
    const { status, body } = await handleCallback(rawBody, request.headers, keys, handlers);
    return new Response(body, { status, headers: { 'content-type': 'text/plain' } });
  };
}
