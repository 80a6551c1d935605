// A callback receiver on plain node:http. The raw body is read chunk by chunk and never
// parsed before it is verified: the signature covers those exact bytes.
//
//   SERVICE_PUBLIC_KEY=service-public.pem PORT=3000 node examples/node-http.mjs
import fs from 'node:fs';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { VerifyingKey } from 'payment-intake';
import { handleCallback } from './handle-callback.mjs';

/**
 * @param {import('payment-intake').KeyInput} keys
 * @param {import('./handle-callback.mjs').Handlers} handlers
 */
export function createServer(keys, handlers) {
  return http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/payment-callback') {
      res.writeHead(404).end();
      return;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      try {
        const { status, body } = await handleCallback(Buffer.concat(chunks), req.headers, keys, handlers);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
      } catch (error) {
        console.error('callback handler failed:', error);
        res.writeHead(500).end('ERROR');
      }
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const key = VerifyingKey.fromPem(fs.readFileSync(process.env.SERVICE_PUBLIC_KEY ?? 'service-public.pem', 'utf8'));
  createServer(key, {
    onCallback: (callback) => console.log('payment', callback.paymentId, 'is', callback.status, callback.subStatus),
    keep: (rawBody, error) => console.warn('kept a genuine callback to look up:', error.message, String(rawBody)),
  }).listen(Number(process.env.PORT ?? 3000));
}
