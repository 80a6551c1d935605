// The lines of `npm run bench` that compare the package with plain Node: signing and
// verifying, the canonical message, validation, the client (bench/client.mjs,
// bench/client-load.mjs), the hostile bodies, and the diagnosis times. With --only,
// just the lines whose title holds its text.
import crypto from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { CLIENT_LINE, clientLine } from '../../bench/client.mjs';
import { AGAINST_LINE, CONCURRENT_LINE, PGLITE_LINE, RECONCILE_LINE, STORE_LINE, concurrentLines, reconcileLines } from '../../bench/client-load.mjs';
import { plainCanonicalMessage, plainVerifyCallback } from '../../bench/baselines.mjs';
import { AGAINST, BATCH_MS, ONLY, ROUNDS, arg, pkgDir, require, root } from './settings.mjs';
import { compare, stats } from './timing.mjs';

/** Runs every line (or those --only names) in order; their results, and the hostile bodies timed. */
export async function runLines(pi, input) {
  const {
    signingPem,
    publicPem,
    signingKey,
    verifyingKey,
    privateKeyObject,
    publicKeyObject,
    subtle,
    ALG,
    subtlePrivate,
    subtlePublic,
    timestamp,
    signOptions,
    payinText,
    signMessage,
    callbackBody,
    callbackHeaders,
    verifyMessage,
    verifySignature,
    bigText,
    hostileBodies,
    ajvValidate,
    validatePath,
  } = input;
  const rawSign = { name: 'crypto.sign (cached KeyObject)', fn: () => crypto.sign('sha256', signMessage, privateKeyObject) };
  const rawVerify = { name: 'crypto.verify (cached KeyObject)', fn: () => crypto.verify('sha256', verifyMessage, publicKeyObject, verifySignature) };
  const plainVerify = { name: 'plain JS verifier (bench/baselines.mjs)', fn: () => plainVerifyCallback(crypto, callbackBody, callbackHeaders, publicKeyObject) };
  const subtleSign = { name: 'WebCrypto sign (cached CryptoKey)', fn: () => subtle.sign(ALG, subtlePrivate, signMessage) };
  const subtleVerify = { name: 'WebCrypto verify (cached CryptoKey)', fn: () => subtle.verify(ALG, subtlePublic, verifySignature, verifyMessage) };
  const wasmSign = { name: "signRequest, backend 'wasm'", fn: () => pi.signRequest(payinText, signingKey, { ...signOptions, backend: 'wasm' }) };
  const wasmVerify = {
    name: "verifyCallback, backend 'wasm'",
    fn: () => pi.verifyCallback(callbackBody, callbackHeaders, verifyingKey, { backend: 'wasm' }),
  };
  const rsaMs = Math.max(BATCH_MS, 300);

  const results = [];
  const push = (result) => result && results.push(result);
  console.log('signing and verifying (RSA-2048, PKCS#1 v1.5, SHA-256)');
  const nodeVerify = { name: 'verifyCallback (node:crypto)', fn: () => pi.verifyCallback(callbackBody, callbackHeaders, verifyingKey) };
  push(await compare('Node signRequest (payin body) vs raw crypto.sign', { name: 'signRequest (node:crypto)', fn: () => pi.signRequest(payinText, signingKey, signOptions) }, rawSign, { ms: rsaMs, target: 0.95 }));
  push(await compare('Node verifyCallback (1 KB callback) vs plain JS verifier', nodeVerify, plainVerify, { target: 1.2 }));
  push(await compare('Node verifyCallback (1 KB callback) vs raw crypto.verify', nodeVerify, rawVerify, { target: 0.7 }));
  push(await compare('pure-wasm signRequest vs raw crypto.sign', wasmSign, rawSign, { ms: rsaMs, target: 0.3 }));
  push(await compare('pure-wasm verifyCallback vs raw crypto.verify', wasmVerify, rawVerify, { ms: rsaMs, target: 0.3 }));
  push(await compare('pure-wasm signRequest vs WebCrypto sign', wasmSign, subtleSign, { ms: rsaMs, asyncBase: true }));
  push(await compare('pure-wasm verifyCallback vs WebCrypto verify', wasmVerify, subtleVerify, { ms: rsaMs, asyncBase: true }));

  console.log('\ncanonical message (string in, string out: boundary crossing included)');
  push(await compare('canonicalMessage 1 KB vs plain JS', { name: 'canonicalMessage', fn: () => pi.canonicalMessage(callbackBody, timestamp) }, { name: 'plain JS canonicalizer', fn: () => plainCanonicalMessage(callbackBody, timestamp) }, { target: 2.5 }));
  push(await compare('canonicalMessage 60 KB vs plain JS', { name: 'canonicalMessage', fn: () => pi.canonicalMessage(bigText, timestamp) }, { name: 'plain JS canonicalizer', fn: () => plainCanonicalMessage(bigText, timestamp) }, { ms: rsaMs, target: 3 }));

  console.log('\nvalidation of raw JSON text (P2P payin create body)');
  push(await compare('validateRequest vs ajv (JSON.parse + compiled schema, allErrors)', { name: 'validateRequest(path, text)', fn: () => pi.validateRequest(validatePath, payinText) }, { name: 'ajv', fn: () => ajvValidate(JSON.parse(payinText)) }, { target: 1.5 }));

  if (!ONLY || CLIENT_LINE.includes(ONLY)) console.log('\nthe client: a P2P payin create against the loopback sandbox (bench/client.mjs)');
  push(await clientLine({ pi, pkgDir, signingPem, publicPem, only: ONLY, rounds: Math.max(ROUNDS, 11) }));
  // With --against, the other build's client is interleaved with this one's (AGAINST_LINE).
  const loadContext = { pi, pkgDir, signingPem, publicPem, other: AGAINST ? require(AGAINST) : undefined };
  if (!ONLY || [CONCURRENT_LINE, STORE_LINE, PGLITE_LINE, AGAINST_LINE].some((title) => title.includes(ONLY))) console.log('\nthe client 16 creates at a time, without and with a store, interleaved batches (bench/client-load.mjs)');
  for (const line of await concurrentLines(loadContext, { only: ONLY, rounds: arg('load-rounds', 31), batch: arg('load-batch', 64) })) push(line);
  if (!ONLY || RECONCILE_LINE.includes(ONLY)) console.log('\nreconcile over payments the client recorded, against the sandbox (bench/client-load.mjs)');
  const reconcile = await reconcileLines(loadContext, { only: ONLY });

  console.log('\nhostile bodies up to the default 16 KiB callback limit: valid token, wrong signature (cost against a genuine 1 KB callback)');
  const genuineVerify = { name: 'verifyCallback, genuine 1 KB', fn: () => pi.verifyCallback(callbackBody, callbackHeaders, verifyingKey) };
  const hostile = hostileBodies(16 * 1024);
  for (const [name, text, options] of hostile) {
    // Each must fail, and fail for the expected reason, before it is timed.
    let code;
    try {
      pi.verifyCallback(text, callbackHeaders, verifyingKey, options);
    } catch (error) {
      code = error.code;
    }
    if (!['INVALID_SIGNATURE', 'BODY_TOO_LARGE', 'BODY_TOO_DEEP'].includes(code)) throw new Error(`hostile body ${name}: ${code}`);
    const ours = { name: `verifyCallback, ${name} (${code})`, fn: () => { try { pi.verifyCallback(text, callbackHeaders, verifyingKey, options); } catch { /* the refusal is what is timed */ } } };
    push(await compare(`hostile ${name} (${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB) vs genuine 1 KB verify`, ours, genuineVerify, { target: 0.05 }));
  }
  const diagnoseTimes = [];
  if (!ONLY || 'diagnoseCallback'.includes(ONLY)) {
    for (const [name, text] of hostile) {
      const runs = [];
      for (let i = 0; i < 5; i += 1) {
        const t0 = performance.now();
        try { pi.diagnoseCallback(text, callbackHeaders, verifyingKey); } catch { /* the refusal is what is timed */ }
        runs.push(performance.now() - t0);
      }
      const ms = stats(runs);
      diagnoseTimes.push({ name, ms, targetMs: 1000, met: ms.max <= 1000 });
      console.log(`  diagnoseCallback, hostile ${name}: median ${ms.median.toFixed(1)} ms (max ${ms.max.toFixed(1)}); target <= 1000 ms`);
    }
  }

  // The diagnosis of a genuine 1 KB callback signed by the public JS client's rules
  // (tests/js/support/js-client-port.mjs, node:crypto): every combination is tried.
  const diagnoseDialect = [];
  if (!ONLY || 'diagnoseCallback'.includes(ONLY)) {
    const { signLikeJsClient } = await import(pathToFileURL(path.join(root, 'tests', 'js', 'support', 'js-client-port.mjs')).href);
    // With leaves every rule writes differently, so that each combination builds its own message.
    const extra = { flag: true, rate: 1.5e-7, ratio: 1.0, zero: 0, empty: '', 'k\u{1F600}': 1, 'k\u{FF5E}': 2 };
    const dialect = signLikeJsClient({ ...JSON.parse(callbackBody), extra }, signingPem, 'merchant-1', timestamp);
    const runs = [];
    for (let i = 0; i < 25; i += 1) {
      const t0 = performance.now();
      const d = pi.diagnoseCallback(dialect.body, dialect.headers, verifyingKey);
      runs.push(performance.now() - t0);
      if (!d.matched || d.options.digest !== 'double' || d.token !== 'der') throw new Error(`the diagnosis did not name the public JS client: ${d.hint}`);
    }
    const ms = stats(runs);
    const messages = pi.diagnoseCallback(dialect.body, dialect.headers, verifyingKey).messagesTried;
    diagnoseDialect.push({ name: `1 KB callback, public JS client rules (${messages} messages)`, ms, targetMs: 50, met: ms.max <= 50 });
    console.log(`  diagnoseCallback, 1 KB public JS client callback: median ${ms.median.toFixed(2)} ms (max ${ms.max.toFixed(2)}, ${messages} distinct messages); target < 50 ms`);
  }
  return { results, reconcile, diagnoseTimes, diagnoseDialect, hostile, rsaMs };
}
