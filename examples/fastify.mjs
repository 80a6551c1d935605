// A callback receiver with Fastify. Its built-in JSON parser turns the body into an object
// and loses the bytes the signature covers: this app registers a content-type parser that
// keeps application/json bodies as a Buffer (put the route in its own plugin to keep JSON
// parsing for the rest of your app).
//
//   SERVICE_PUBLIC_KEY=service-public.pem PORT=3000 node examples/fastify.mjs
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { VerifyingKey } from 'payment-intake';
import { handleCallback } from './handle-callback.mjs';

/**
 * @param {import('payment-intake').KeyInput} keys
 * @param {import('./handle-callback.mjs').Handlers} handlers
 */
export function createApp(keys, handlers) {
  const app = Fastify({ bodyLimit: 64 * 1024 });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post('/payment-callback', async (request, reply) => {
    const rawBody = /** @type {Buffer} */ (request.body);
    const { status, body } = await handleCallback(rawBody, request.headers, keys, handlers);
    return reply.code(status).type('text/plain').send(body);
  });
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const key = VerifyingKey.fromPem(fs.readFileSync(process.env.SERVICE_PUBLIC_KEY ?? 'service-public.pem', 'utf8'));
  const app = createApp(key, {
    onCallback: (callback) => console.log('payment', callback.paymentId, 'is', callback.status, callback.subStatus),
    keep: (rawBody, error) => console.warn('kept a genuine callback to look up:', error.message, String(rawBody)),
  });
  await app.listen({ port: Number(process.env.PORT ?? 3000) });
}
