// copy_string (src/wasm/gateway.rs) copies a long string with TextEncoder.encodeInto into
// room for three bytes a UTF-16 unit, and wasm memory never shrinks: a 50-million-character
// ASCII x-access-token grew it by 200 MB for good before the token was compared (the glue's
// copy takes one byte a unit). Over the largest body, a string takes the glue's copy.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

import { esm as api, pkgDir, readKey, throwsCode } from './helpers.mjs';

const glue = createRequire(import.meta.url)(path.join(pkgDir, 'web', 'payment_intake_node.cjs'));
const memoryBytes = () => glue.__memory({}).value.buffer.byteLength;
const publicPem = readKey('keys/rsa2048.public.pem');
const token = api.VerifyingKey.fromPem(publicPem).token();
const timestamp = String(Math.floor(Date.now() / 1000));
const headersWith = (name, value) => ({ 'x-access-timestamp': timestamp, 'x-access-merchant-id': 'm', 'x-access-signature': 'a', 'x-access-token': token, [name]: value });

test('a huge header value grows wasm memory by about its length, not three times it', () => {
  const units = 30e6;
  const huge = 'A'.repeat(units);
  const before = memoryBytes();
  throwsCode(() => api.verifyCallback('{}', headersWith('x-access-token', huge.slice(1) + 'B'), publicPem), 'INVALID_PUBLIC_KEY');
  throwsCode(() => api.verifyCallback('{}', headersWith('x-access-signature', huge), publicPem), 'INVALID_SIGNATURE');
  const grown = memoryBytes() - before;
  // The glue's copy and the String the headers keep: two bytes a character (four before).
  assert.ok(grown < 2.5 * units, `wasm memory grew by ${grown} bytes for a value of ${units} characters`);
});
