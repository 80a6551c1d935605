// The handler as `(request: Request) => Promise<Response>` (Workers, Next.js, Deno, Bun,
// Hono): the body's exact bytes read from its stream, no further than the limit.
import { readBounded } from '../body-stream.mjs';

/** The body's bytes, at most `limit + 1` kept (the verifier refuses a longer body). */
async function requestBytes(request, limit) {
  const stream = request.body;
  if (stream === null || stream === undefined) return new Uint8Array(await request.arrayBuffer());
  return readBounded(stream.getReader(), limit);
}

function fetchAdapter(handle, { limit, refuse, unreadable }) {
  const respond = ({ status, body, headers }) => new Response(body, { status, headers });
  return async function fetchHandler(request) {
    if (request.method !== 'POST') {
      return new Response(JSON.stringify({ ok: false, code: 'METHOD_NOT_ALLOWED' }), { status: 405, headers: { allow: 'POST', 'content-type': 'application/json; charset=utf-8' } });
    }
    if (request.bodyUsed) {
      return respond(await refuse("'request' has a body that was already read (bodyUsed)", 'give the handler the Request before anything reads its body, or request.clone()'));
    }
    let body;
    try {
      body = await requestBytes(request, limit());
    } catch (error) {
      return respond(unreadable(error));
    }
    return respond(await handle(body, request.headers));
  };
}

export { fetchAdapter };
