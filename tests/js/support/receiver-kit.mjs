// Shared by the receiver and store tests: the packed package installed as a merchant gets it
// (`payment-intake` and `payment-intake/stores/postgres` imported from that project), callbacks
// signed as the service signs them, and the cases every adapter is put through.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { esm as api, readKey } from '../helpers.mjs';
import { installPacked } from './packed.mjs';

export const service = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
export const attacker = api.SigningKey.fromPem(readKey('keys/attacker2048.pkcs8.pem'));
export const servicePublicPem = readKey('keys/rsa2048.public.pem');

/** The packed package installed in a fresh project: `{ pkg, postgres, app }` (app.remove() after). */
export async function installed() {
  const app = installPacked();
  fs.writeFileSync(
    path.join(app.dir, 'load.mjs'),
    "export * as pkg from 'payment-intake';\nexport * as postgres from 'payment-intake/stores/postgres';\n",
  );
  const loaded = await import(pathToFileURL(path.join(app.dir, 'load.mjs')).href);
  return { pkg: loaded.pkg, postgres: loaded.postgres, app };
}

/** A callback body of `state` ('success', 'processing:paid', …) for `paymentId`. */
export function body(state, { paymentId = 'order-1', projectId = 'prj_1', redirect = 'https://shop.example/back', omitStatus = false } = {}) {
  const [status, subStatus = null] = state.split(':');
  return JSON.stringify({
    project_id: projectId,
    general: { payment_id: paymentId, request_id: 'r-1' },
    ...(omitStatus ? {} : { status: { status, sub_status: subStatus, status_description: null } }),
    payment_info: { amount: 150000, currency: 'RUB' },
    integration: { form_url: 'https://pay.example/f', redirect_url: redirect },
  });
}
const now = () => Math.floor(Date.now() / 1000);
/** `{ body, headers }` as the service sends it. */
export const signed = (text, key = service, timestamp = now()) => api.signRequest(text, key, { merchantId: 'merchant-1', timestamp });
export const callback = (state, options) => signed(body(state, options));
/** A genuine callback whose signed message does not pin its body down (AMBIGUOUS_CALLBACK). */
export const ambiguous = (paymentId = 'order-1') => signed(body('success', { paymentId, redirect: 'https://shop.example/back?q=1;status:status:success' }));

/** The error verifyCallback gives `sent`: what the handler answers it with. */
export function refusal(sent) {
  try {
    api.verifyCallback(sent.body, sent.headers, servicePublicPem, { toleranceSeconds: 600 });
  } catch (error) {
    return error;
  }
  return assert.fail('verified');
}

/** A handler config that records what reaches the merchant's code. */
export function recorder(extra = {}) {
  const seen = { events: [], reviews: [], errors: [] };
  return {
    seen,
    config: {
      keys: servicePublicPem,
      verify: { toleranceSeconds: 600, expectedMerchantId: 'merchant-1' },
      onEvent: (event) => {
        seen.events.push(event);
      },
      onReview: (review) => {
        seen.reviews.push(review);
      },
      onError: (error) => {
        seen.errors.push(error);
      },
      ...extra,
    },
  };
}

/**
 * The cases every adapter answers alike. `post({ body, headers })` sends one callback through
 * the adapter and gives `{ status, json }`. The store is `store`; `seen` what reached the code.
 */
export async function exerciseAdapter(post, { seen, store }) {
  const genuine = callback('success', { paymentId: 'order-7' });
  const first = await post(genuine);
  assert.deepEqual(first, { status: 200, json: { ok: true } });
  assert.equal(seen.events.length, 1);
  const [event] = seen.events;
  assert.equal(event.callback.paymentId, 'order-7');
  assert.equal(event.callback.verification.merchantId, 'merchant-1');
  assert.deepEqual({ previous: event.previous, state: event.state, forward: event.forward, final: event.final }, {
    previous: null, state: { status: 'success', subStatus: null, isFinal: true }, forward: true, final: true,
  });
  assert.equal((await store.payment('prj_1', 'order-7')).status, 'success');

  // The same callback again: answered 200, not delivered again.
  assert.deepEqual(await post(genuine), { status: 200, json: { ok: true, code: 'DUPLICATE' } });
  // A state behind the recorded final one: acknowledged, recorded as handled, not delivered.
  assert.deepEqual(await post(callback('processing:paid', { paymentId: 'order-7' })), { status: 200, json: { ok: true, code: 'STALE' } });
  assert.equal(seen.events.length, 1);
  assert.equal((await store.payment('prj_1', 'order-7')).status, 'success');

  // Tampered and forged: the sender's fault, answered with the error's status and code only; stored nowhere.
  const tamperedSent = { ...genuine, body: genuine.body.replace('order-7', 'order-8') };
  const tampered = await post(tamperedSent);
  assert.deepEqual(tampered, { status: refusal(tamperedSent).status, json: { ok: false, code: 'INVALID_SIGNATURE' } });
  assert.ok(tampered.status >= 400 && tampered.status < 500);
  assert.equal(await store.payment('prj_1', 'order-8'), null);
  const forgedSent = signed(body('success', { paymentId: 'order-8' }), attacker);
  const forged = await post(forgedSent);
  assert.deepEqual(forged, { status: refusal(forgedSent).status, json: { ok: false, code: 'INVALID_PUBLIC_KEY' } });
  assert.equal(await store.payment('prj_1', 'order-8'), null);

  // Genuine but ambiguous: kept with its raw body, shown to onReview once, answered 200.
  const kept = ambiguous('order-9');
  assert.deepEqual(await post(kept), { status: 200, json: { ok: true, code: 'AMBIGUOUS_CALLBACK' } });
  assert.deepEqual(await post(kept), { status: 200, json: { ok: true, code: 'AMBIGUOUS_CALLBACK' } });
  assert.equal(seen.reviews.length, 1);
  assert.equal(seen.reviews[0].code, 'AMBIGUOUS_CALLBACK');
  assert.equal(seen.reviews[0].rawBody, kept.body);
  assert.equal(seen.reviews[0].paymentId, 'order-9');
  assert.equal(seen.reviews[0].headers['x-access-signature'], kept.headers['x-access-signature']);
  const reviews = await store.reviews();
  assert.deepEqual(reviews.map((r) => [r.code, r.rawBody]), [['AMBIGUOUS_CALLBACK', kept.body]]);
  assert.equal(await store.payment('prj_1', 'order-9'), null, 'a kept callback is not a state');
  assert.equal(seen.events.length, 1, 'nothing but the genuine callback reached onEvent');
  for (const answer of [first, tampered, forged]) assert.ok(!JSON.stringify(answer.json).includes('order-'), 'answers never echo the body');
}

/** The answer of a body a framework parsed, or never read: INVALID_ARGUMENT naming the setting. */
export function assertRawBodyRefused(answer, setting = "express.raw({ type: 'application/json' })") {
  assert.equal(answer.json.code, 'INVALID_ARGUMENT', JSON.stringify(answer));
  assert.equal(answer.status, 500, 'the receiver is misconfigured: 5xx, so the service sends it again once fixed');
  assert.ok(`${answer.json.message} ${answer.json.hint}`.includes(setting), `names ${setting}: ${JSON.stringify(answer.json)}`);
}

/** `post(sent, extraHeaders)` to `url`: `{ status, json }`. */
export function poster(url) {
  return async ({ body: text, headers }, extra = {}) => {
    const response = await fetch(url, { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...headers, ...extra } });
    return { status: response.status, json: await response.json() };
  };
}

/** Serves a node:http server on a loopback port: `{ url, close() }`. */
export async function listening(server, pathname = '/callbacks') {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}${pathname}`,
    close: () => {
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
