// The sandbox's side of a request: the spec's tables it reads from the package (not typed
// again), the wording of what it refuses (a request's error, not a callback receiver's),
// and the x-access-timestamp rule (5 minutes from its clock, as the service).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { cjs as api, pkgDir, root } from './helpers.mjs';
import { P2P, Receiver, SERVICE_KEY, call, merchantKey, p2pBody, startSandbox, strangerKey } from './support/sandbox-kit.mjs';

const data = await import(pathToFileURL(path.join(pkgDir, 'sandbox', 'data.mjs')).href);
const nowSeconds = () => Math.floor(Date.now() / 1000);
const fingerprint = (pem) => `sha256:${crypto.createHash('sha256').update(crypto.createPublicKey(pem).export({ type: 'spki', format: 'der' })).digest('hex')}`;

/** The rows of the spec's markdown table under `heading`, or null when the spec is not beside the repository. */
function specTable(heading) {
  const file = process.env.PAYMENT_INTAKE_SPEC ?? path.resolve(root, '..', 'shared', 'spec', 'interface.md');
  if (!fs.existsSync(file)) return null;
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.slice(text.indexOf(`\n${heading}\n`)).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

describe("the spec's tables, from the package", () => {
  test('specStates() is the states table of the spec, in its order, with final and order', (t) => {
    const states = api.specStates();
    const rows = specTable('## States and transitions');
    if (rows === null) t.diagnostic('the spec is not beside the repository: checked against parseCallback only');
    else {
      assert.deepEqual(states, rows.map(([status, sub, , kind], order) => ({ status, subStatus: sub === 'none' ? null : sub, final: kind === 'final', order })));
    }
    const base = { project_id: 'p', general: { request_id: 'r', payment_id: 'x' } };
    for (const row of states) {
      const model = api.parseCallback({ ...base, status: { status: row.status, sub_status: row.subStatus, status_description: null } });
      assert.deepEqual([model.isKnownState, model.isFinal], [true, row.final], JSON.stringify(row));
    }
  });

  test('declineReasons() is the decline texts of the spec, each with the code parseCallback gives it', (t) => {
    const reasons = api.declineReasons();
    const rows = specTable('## Errors');
    if (rows === null) t.diagnostic('the spec is not beside the repository: checked against parseCallback only');
    else assert.deepEqual(reasons.map((r) => r.description), rows.map((row) => row[1]));
    assert.ok(reasons.length >= 4);
    for (const { code, description } of reasons) {
      const model = api.parseCallback({ project_id: 'p', general: { request_id: 'r', payment_id: 'x' }, status: { status: 'decline', sub_status: null, status_description: description } });
      assert.deepEqual(model.declineReason, { code, description });
    }
    // Fresh copies: a caller that changes one does not change the next answer.
    reasons[0].description = 'changed';
    assert.notEqual(api.declineReasons()[0].description, 'changed');
  });

  test("the sandbox's tables are those rows, and no file of the sandbox types a decline text again", () => {
    assert.deepEqual(data.STATES, api.specStates());
    for (const state of Object.values(data.STATE)) assert.ok(api.specStates().some((row) => row.status === state.status && row.subStatus === state.subStatus && row.final === state.final));
    assert.deepEqual(data.FINAL_STATUSES, ['decline', 'success']);
    assert.deepEqual(data.DECLINE, Object.fromEntries(api.declineReasons().map((r) => [r.code, r.description])));
    const sources = fs.readdirSync(path.join(pkgDir, 'sandbox')).filter((f) => f.endsWith('.mjs'));
    assert.ok(sources.includes('data.mjs') && sources.includes('payments.mjs'));
    for (const file of sources) {
      const text = fs.readFileSync(path.join(pkgDir, 'sandbox', file), 'utf8');
      for (const { description } of api.declineReasons()) assert.ok(!text.includes(description), `${file} types '${description}'`);
    }
  });
});

describe('what the sandbox refuses is worded for the request', () => {
  let sandbox;
  before(async () => {
    sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, merchantId: 'shop-42' });
  });
  after(() => sandbox.close());
  const body = { general: { project_id: 'prj_1' } };
  const callbackWords = /callback|admin panel/i;

  test('a wrong merchant id names both ids and how to match them; not "Invalid public key", nothing of a callback', async () => {
    const r = await call(sandbox, '/api/v1/balance/info', body, { merchantId: 'shop-7' });
    assert.equal(r.status, 401);
    assert.equal(r.json.status, 'error');
    assert.notEqual(r.json.status_description, 'Invalid public key');
    assert.match(r.json.status_description, /merchant id.*'shop-42'.*'shop-7'/);
    assert.equal(r.json.sandbox_error.code, 'MERCHANT_ID_MISMATCH');
    assert.match(r.json.sandbox_error.message, /x-access-merchant-id 'shop-7'.*'shop-42'/);
    assert.match(r.json.sandbox_error.hint, /merchantId: 'shop-42'/);
    assert.match(r.json.sandbox_error.hint, /--merchant-id ID/);
    assert.doesNotMatch(JSON.stringify(r.json), callbackWords);
  });

  test("a request signed with another key is told the sandbox's registered key (its fingerprint) and the flag that sets it", async () => {
    const r = await call(sandbox, '/api/v1/balance/info', body, { key: strangerKey });
    assert.equal(r.status, 401);
    assert.equal(r.json.status_description, 'Invalid public key');
    assert.equal(r.json.sandbox_error.code, 'INVALID_PUBLIC_KEY');
    const { message, hint } = r.json.sandbox_error;
    assert.ok(message.includes(`carries the public key ${fingerprint(strangerKey.publicKeyPem())}`), message);
    assert.ok(message.includes(`the public key registered for the merchant 'shop-42' in this sandbox is ${fingerprint(merchantKey.publicKeyPem())}`), message);
    assert.match(hint, /--merchant-key merchant-public\.pem/);
    assert.match(hint, /startSandbox\(\{ merchantKey \}\)/);
    assert.doesNotMatch(JSON.stringify(r.json), callbackWords);
  });

  test('a bad signature and a missing header say what to send, nothing of a callback', async () => {
    const tampered = await call(sandbox, '/api/v1/balance/info', body, { tamper: (s) => ({ ...s, body: s.body.replace('prj_1', 'prj_2') }) });
    assert.equal(tampered.json.sandbox_error.code, 'INVALID_SIGNATURE');
    assert.match(tampered.json.sandbox_error.hint, /byte for byte/);
    const bare = await call(sandbox, '/api/v1/balance/info', body, { tamper: (s) => ({ ...s, headers: { 'x-access-merchant-id': 'shop-42' } }) });
    assert.equal(bare.status, 401);
    assert.equal(bare.json.sandbox_error.code, 'MISSING_HEADER');
    assert.match(bare.json.sandbox_error.hint, /merchantId: 'shop-42'/);
    for (const r of [tampered, bare]) assert.doesNotMatch(JSON.stringify(r.json), callbackWords);
  });
});

describe('x-access-timestamp: at most 5 minutes from the sandbox clock', () => {
  let receiver;
  before(async () => {
    receiver = await new Receiver().start();
  });
  after(() => receiver.close());

  const within = (text, seconds) => {
    const found = Number(/(\d+) seconds/.exec(text)?.[1]);
    assert.ok(Math.abs(found - seconds) <= 3, `${text}: about ${seconds} seconds`);
  };

  test('a request signed 400 s ago, or 400 s ahead, is refused naming the skew; 200 s off is served', async () => {
    const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY });
    try {
      const old = p2pBody(receiver);
      const behind = await call(sandbox, P2P, old, { timestamp: String(nowSeconds() - 400) });
      assert.equal(behind.status, 401);
      assert.equal(behind.json.status, 'error');
      assert.match(behind.json.status_description, /^Invalid timestamp: x-access-timestamp is \d+ seconds behind the sandbox's clock \(tolerance 300 seconds\)$/);
      within(behind.json.status_description, 400);
      const { code, message, hint, skewSeconds, toleranceSeconds } = behind.json.sandbox_error;
      assert.deepEqual([code, toleranceSeconds], ['TIMESTAMP_OUT_OF_TOLERANCE', 300]);
      assert.ok(Math.abs(skewSeconds + 400) <= 3, String(skewSeconds));
      assert.match(message, /refuses a request more than 300 seconds off/);
      assert.match(hint, /clock/);
      assert.equal(sandbox.payments().length, 0, 'the payin was not made');

      const ahead = await call(sandbox, '/api/v1/balance/info', { general: { project_id: 'prj_1' } }, { timestamp: String(nowSeconds() + 400) });
      assert.equal(ahead.status, 401);
      assert.match(ahead.json.status_description, /seconds ahead of the sandbox's clock/);
      assert.ok(ahead.json.sandbox_error.skewSeconds >= 397, String(ahead.json.sandbox_error.skewSeconds));

      const near = await call(sandbox, P2P, p2pBody(receiver), { timestamp: String(nowSeconds() - 200) });
      assert.equal(near.status, 200, JSON.stringify(near.json));
      assert.equal(near.json.sandbox_warnings.some((w) => w.code === 'TIMESTAMP_SKEW'), false);
    } finally {
      await sandbox.close();
    }
  });

  test('timestampToleranceSeconds: a tighter bound refuses; false and Infinity serve with a warning (body and header)', async () => {
    const tight = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, timestampToleranceSeconds: 60 });
    try {
      const r = await call(tight, '/api/v1/balance/info', { general: { project_id: 'prj_1' } }, { timestamp: String(nowSeconds() - 100) });
      assert.equal(r.status, 401);
      assert.match(r.json.status_description, /tolerance 60 seconds/);
    } finally {
      await tight.close();
    }
    for (const off of [false, Infinity]) {
      const lax = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, timestampToleranceSeconds: off });
      try {
        const signed = api.signRequest({ general: { project_id: 'prj_1' } }, merchantKey, { merchantId: lax.merchantId, timestamp: String(nowSeconds() - 3600) });
        const res = await fetch(`${lax.url}/api/v1/bank/all`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed.headers }, body: signed.body });
        assert.equal(res.status, 200, String(off));
        assert.ok(Array.isArray(await res.json()));
        assert.equal(res.headers.get('x-sandbox-warning'), 'TIMESTAMP_SKEW');
        const balance = await call(lax, '/api/v1/balance/info', { general: { project_id: 'prj_1' } }, { timestamp: String(nowSeconds() - 3600) });
        assert.equal(balance.status, 200);
        const [warning] = balance.json.sandbox_warnings;
        assert.equal(warning.code, 'TIMESTAMP_SKEW');
        within(warning.message, 3600);
        assert.match(warning.message, /served anyway/);
        const fresh = await call(lax, '/api/v1/balance/info', { general: { project_id: 'prj_1' } });
        assert.equal(fresh.json.sandbox_warnings, undefined, 'no warning for a request on time');
      } finally {
        await lax.close();
      }
    }
  });

  test('a timestampToleranceSeconds that is no number of seconds is refused at start', async () => {
    for (const value of [-1, 'abc', true, Number.NaN]) {
      await assert.rejects(
        startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, timestampToleranceSeconds: value }),
        (e) => e.code === 'INVALID_OPTION' && /timestampToleranceSeconds/.test(e.message),
        String(value),
      );
    }
  });
});
