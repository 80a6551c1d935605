// Compiled by scripts/typecheck.mjs ("exports" step) beside a generated file that imports
// every entry of the package, under moduleResolution Bundler, NodeNext and Node16, with
// the package resolved through its package.json `exports` (no `paths`) and @types/node.
// The signed headers are what fetch and node:http take as they are.
import http from 'node:http';
import { SigningKey, signRequest, type AccessHeaders } from 'payment-intake';

const key = SigningKey.generate();
const { body, headers } = signRequest('{"general":{"project_id":"prj_1"}}', key, { merchantId: 'merchant-1' });

const asInit: HeadersInit = headers;
const asNode: http.OutgoingHttpHeaders = headers;
const asRecord: Record<string, string> = headers;

export async function send(url: string, signed: AccessHeaders): Promise<number> {
  const plain = await fetch(url, { method: 'POST', headers: signed, body });
  const merged = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...signed }, body });
  return plain.status + merged.status;
}

export function sendWithNode(url: string): http.ClientRequest {
  const request = http.request(url, { method: 'POST', headers });
  request.setHeader('x-access-signature', headers['x-access-signature']);
  return request.end(body);
}

export { asInit, asNode, asRecord };
