// A callback receiver with Express (4 or 5). handler.express() reads the raw body itself, or
// takes the Buffer of express.raw({ type: 'application/json' }) when a route has it; mount it
// before an app-wide express.json(), which would parse the body and lose the bytes the
// signature covers (it then answers INVALID_ARGUMENT, naming express.raw).
//
//   SERVICE_PUBLIC_KEY=service-public.pem PORT=3000 node examples/express.mjs
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { VerifyingKey } from 'payment-intake';
import { createHandler, printing } from './handle-callback.mjs';

/**
 * @param {import('payment-intake').KeyInput} keys
 * @param {import('./handle-callback.mjs').Handlers} handlers
 */
export function createApp(keys, handlers) {
  const app = express();
  app.post('/payment-callback', createHandler(keys, handlers).express());
  // The rest of the app may parse JSON: routes after the callback route.
  app.use(express.json());
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const key = VerifyingKey.fromPem(fs.readFileSync(process.env.SERVICE_PUBLIC_KEY ?? 'service-public.pem', 'utf8'));
  createApp(key, printing).listen(Number(process.env.PORT ?? 3000));
}
