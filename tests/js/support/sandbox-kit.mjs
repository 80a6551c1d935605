// What the sandbox's tests share: the merchant's keys, a callback receiver that verifies
// every callback, signed calls, request bodies, and a sandbox started for one test.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { cjs as api, keysDir, pkgDir } from '../helpers.mjs';

export const { startSandbox, OPERATIONS, DEFAULT_MERCHANT_ID } = await import(pathToFileURL(path.join(pkgDir, 'sandbox', 'index.mjs')).href);

export const pem = (name) => fs.readFileSync(path.join(keysDir, name), 'utf8');
export const merchantKey = api.SigningKey.fromPem(pem('rsa2048.pkcs8.pem'));
export const strangerKey = api.SigningKey.fromPem(pem('attacker2048.pkcs8.pem'));
export const SERVICE_KEY = pem('rsa3072.pkcs8.pem');
/** Safety net for any one wait; the flows take milliseconds to a few seconds. */
export const SAFETY_MS = 30000;

/**
 * A merchant's callback receiver: verifies each callback, keeps it, and answers with
 * `answer(path, count)` (default 200). `until(predicate)` resolves once the callbacks
 * received so far satisfy it.
 */
export class Receiver {
  received = [];
  refused = [];
  #waiters = [];
  #counts = new Map();

  /** `answer(path, count)`: the HTTP status to answer; `onReceive(record)`: after each verified callback. */
  constructor({ answer = () => 200, onReceive = () => {} } = {}) {
    this.answer = answer;
    this.onReceive = onReceive;
    this.server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const count = (this.#counts.get(req.url) ?? 0) + 1;
        this.#counts.set(req.url, count);
        const status = this.answer(req.url, count);
        try {
          const model = api.verifyCallback(Buffer.concat(chunks), req.headers, this.key, {
            toleranceSeconds: 600, expectedMerchantId: this.merchantId, options: this.profile && { profile: this.profile },
          });
          const record = { path: req.url, model, status };
          this.received.push(record);
          this.onReceive(record);
        } catch (e) {
          this.refused.push({ path: req.url, code: e.code, message: e.message });
        }
        res.writeHead(status).end(status === 200 ? 'OK' : 'NO');
        this.#check();
      });
    });
  }

  async start() {
    await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${this.server.address().port}`;
    return this;
  }

  /** Trusts this sandbox's key (and signing rules, `profile`) from now on. */
  trust(sandbox, profile = undefined) {
    this.profile = profile;
    this.key = api.VerifyingKey.fromPem(sandbox.servicePublicKeyPem);
    this.merchantId = sandbox.merchantId;
  }

  urls(tag) {
    return {
      merchant_callback_url: `${this.base}/${tag}/info`,
      merchant_success_callback_url: `${this.base}/${tag}/ok`,
      merchant_decline_callback_url: `${this.base}/${tag}/no`,
    };
  }

  /** The verified callbacks of one payment (answered 200), in arrival order. */
  of(paymentId) {
    return this.received.filter((r) => r.model.paymentId === paymentId && r.status === 200);
  }

  until(predicate, what) {
    if (predicate(this)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; received ${JSON.stringify(this.received.map((r) => [r.path, r.model.status, r.model.subStatus]))}`)), SAFETY_MS);
      this.#waiters.push({ predicate, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** Resolves with the first verified callback of `paymentId` in `status`[:`subStatus`]. */
  async callback(paymentId, status, subStatus = null) {
    const find = () => this.of(paymentId).find((r) => r.model.status === status && r.model.subStatus === subStatus);
    await this.until(() => find() !== undefined, `${paymentId} ${status}:${subStatus}`);
    return find();
  }

  #check() {
    this.#waiters = this.#waiters.filter((w) => (w.predicate(this) ? (w.resolve(), false) : true));
  }

  close() {
    this.server.close();
    this.server.closeAllConnections();
  }
}

/** Signs and POSTs `body` to the sandbox; `{ status, json }`. */
export async function call(sandbox, operation, body, { key = merchantKey, merchantId = sandbox.merchantId, tamper, profile, timestamp } = {}) {
  const signed = api.signRequest(body, key, { merchantId, timestamp, options: profile && { profile } });
  const sent = tamper ? tamper(signed) : signed;
  const res = await fetch(`${sandbox.url}${operation}`, { method: 'POST', headers: { 'content-type': 'application/json', ...sent.headers }, body: sent.body });
  return { status: res.status, json: await res.json() };
}

export const P2P = '/api/v1/payment/p2p/payin';
export const WIDGET = '/api/v1/widget/payin';
let serial = 0;
/** A payment_id not used before in this process. */
export const nextId = (prefix) => `${prefix}-${++serial}`;

export function p2pBody(receiver, { country = 'RU', currency = 'RUB', paymentId = nextId('order') } = {}) {
  return {
    general: { project_id: 'prj_1', payment_id: paymentId, ...receiver.urls(paymentId) },
    payment: { method: country === 'KZ' ? 'international-card-p2p' : 'card-p2p', amount: 150000, currency, lifetime: 300 },
    customer: { id: 'user-7', ip_address: '203.0.113.7', country },
  };
}

export const ids = (body) => ({ general: { project_id: body.general.project_id, payment_id: body.general.payment_id } });
export const states = (callbacks) => callbacks.map((r) => (r.model.subStatus ? `${r.model.status}:${r.model.subStatus}` : r.model.status));

/**
 * Runs `fn({ sandbox, receiver })` against a fresh sandbox (the merchant's key, the
 * service key, and `options`) and a receiver that trusts it; every callback must verify.
 */
export async function withSandbox(options, fn, receiverOptions = {}) {
  const receiver = await new Receiver(receiverOptions).start();
  const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, ...options });
  receiver.trust(sandbox, options.profile);
  try {
    await fn({ sandbox, receiver });
    assert.deepEqual(receiver.refused, [], 'every callback verified');
  } finally {
    await sandbox.close();
    receiver.close();
  }
}
