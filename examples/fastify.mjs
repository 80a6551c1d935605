// A callback receiver with Fastify. handler.fastify is a plugin with its own route: inside
// its context bodies are kept as bytes (the signature covers them), and the app's JSON parser
// is left as it is for every other route.
//
//   SERVICE_PUBLIC_KEY=service-public.pem PORT=3000 node examples/fastify.mjs
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { VerifyingKey } from 'payment-intake';
import { createHandler, printing } from './handle-callback.mjs';

/**
 * @param {import('payment-intake').KeyInput} keys
 * @param {import('./handle-callback.mjs').Handlers} handlers
 */
export function createApp(keys, handlers) {
  const app = Fastify({ bodyLimit: 64 * 1024 });
  app.register(createHandler(keys, handlers).fastify, { url: '/payment-callback' });
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const key = VerifyingKey.fromPem(fs.readFileSync(process.env.SERVICE_PUBLIC_KEY ?? 'service-public.pem', 'utf8'));
  await createApp(key, printing).listen({ port: Number(process.env.PORT ?? 3000) });
}
