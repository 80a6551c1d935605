// A callback receiver on plain node:http: handler.node reads the raw body itself (the
// signature covers those exact bytes) and answers the service.
//
//   SERVICE_PUBLIC_KEY=service-public.pem PORT=3000 node examples/node-http.mjs
import fs from 'node:fs';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { VerifyingKey } from 'payment-intake';
import { createHandler, printing } from './handle-callback.mjs';

/**
 * @param {import('payment-intake').KeyInput} keys
 * @param {import('./handle-callback.mjs').Handlers} handlers
 */
export function createServer(keys, handlers) {
  const handler = createHandler(keys, handlers);
  return http.createServer((req, res) => {
    if (req.url !== '/payment-callback') {
      res.writeHead(404).end();
      return;
    }
    handler.node(req, res);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const key = VerifyingKey.fromPem(fs.readFileSync(process.env.SERVICE_PUBLIC_KEY ?? 'service-public.pem', 'utf8'));
  createServer(key, printing).listen(Number(process.env.PORT ?? 3000));
}
