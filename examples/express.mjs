// A callback receiver with Express. `express.json()` would parse the body and lose the
// bytes the signature covers: this route takes them with `express.raw()`, whose `type`
// must match what the service sends (application/json), since its default is
// application/octet-stream and leaves `req.body` empty otherwise.
//
//   SERVICE_PUBLIC_KEY=service-public.pem PORT=3000 node examples/express.mjs
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { VerifyingKey } from 'payment-intake';
import { handleCallback } from './handle-callback.mjs';

/**
 * @param {import('payment-intake').KeyInput} keys
 * @param {import('./handle-callback.mjs').Handlers} handlers
 */
export function createApp(keys, handlers) {
  const app = express();
  app.post('/payment-callback', express.raw({ type: 'application/json', limit: '64kb' }), async (req, res) => {
    // req.body is a Buffer holding the bytes as received.
    const { status, body } = await handleCallback(req.body, req.headers, keys, handlers);
    res.status(status).type('text/plain').send(body);
  });
  // The rest of the app may use express.json() on its own routes.
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const key = VerifyingKey.fromPem(fs.readFileSync(process.env.SERVICE_PUBLIC_KEY ?? 'service-public.pem', 'utf8'));
  createApp(key, {
    onCallback: (callback) => console.log('payment', callback.paymentId, 'is', callback.status, callback.subStatus),
    keep: (rawBody, error) => console.warn('kept a genuine callback to look up:', error.message, String(rawBody)),
  }).listen(Number(process.env.PORT ?? 3000));
}
