// The sandbox's controls (/sandbox/): payments found by the merchant's payment_id (with its
// project) as well as by request_id, the index of /sandbox/ (JSON and HTML), a refused move
// listing the moves the state allows, and each payment's callback deliveries with the
// "deliver again" control.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from 'node:test';

import { P2P, call, ids, merchantKey, nextId, p2pBody, withSandbox } from './support/sandbox-kit.mjs';

const json = async (res) => ({ status: res.status, json: await res.json() });
const post = (url, body, headers = { 'content-type': 'application/json' }) => fetch(url, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });

test("every control takes the payment's payment_id (with its project) or its request_id", async () => {
  // Time scale 1: requisites come after 5 s, so the form's requisites-found is the move.
  await withSandbox({ timeScale: 1 }, async ({ sandbox, receiver }) => {
    const paymentId = nextId('shared');
    const first = p2pBody(receiver, { paymentId });
    const second = p2pBody(receiver, { paymentId });
    second.general.project_id = 'prj_2';
    const a = (await call(sandbox, P2P, first)).json;
    const b = (await call(sandbox, P2P, second)).json;
    const only = p2pBody(receiver);
    const c = (await call(sandbox, P2P, only)).json;

    // A payment_id used once needs no project.
    const byPaymentId = await json(await fetch(`${sandbox.url}/sandbox/payments/${encodeURIComponent(only.general.payment_id)}`));
    assert.equal(byPaymentId.status, 200);
    assert.equal(byPaymentId.json.requestId, c.request_id);
    // One used in two projects asks for the project, and names them.
    const ambiguous = await json(await fetch(`${sandbox.url}/sandbox/payments/${paymentId}`));
    assert.equal(ambiguous.status, 409);
    assert.deepEqual(ambiguous.json.projects, ['prj_1', 'prj_2']);
    assert.match(ambiguous.json.error, /project_id/);
    const inProject = await json(await fetch(`${sandbox.url}/sandbox/payments/${paymentId}?project_id=prj_2`));
    assert.equal(inProject.json.requestId, b.request_id);
    assert.equal((await fetch(`${sandbox.url}/sandbox/payments/${paymentId}?project_id=prj_9`)).status, 404);

    // A move by payment_id and project (query, JSON body, form), and by request_id.
    const moved = await json(await post(`${sandbox.url}/sandbox/payments/${paymentId}/anti-fraud?project_id=prj_1`));
    assert.equal(moved.status, 200, JSON.stringify(moved.json));
    assert.deepEqual([moved.json.requestId, moved.json.status], [a.request_id, 'decline']);
    const movedJson = await json(await post(`${sandbox.url}/sandbox/payments/${paymentId}/cancel`, { project_id: 'prj_2' }));
    assert.deepEqual([movedJson.json.requestId, movedJson.json.statusDescription], [b.request_id, 'Canceled by client']);
    const form = await fetch(`${sandbox.url}/sandbox/payments/${encodeURIComponent(only.general.payment_id)}/requisites-found`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'project_id=prj_1', redirect: 'manual',
    });
    assert.equal(form.status, 303);
    assert.equal(form.headers.get('location'), `/sandbox/pay/${c.request_id}`);
    // The page, by payment_id too.
    const page = await fetch(`${sandbox.url}/sandbox/pay/${encodeURIComponent(only.general.payment_id)}?project_id=prj_1`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), new RegExp(c.request_id));
    assert.equal((await fetch(`${sandbox.url}/sandbox/payments/${c.request_id}`)).status, 200);
  });
});

test('a refused move (409) lists the moves the state allows, on /sandbox/ and on the spec operations', async () => {
  await withSandbox({ timeScale: 1 }, async ({ sandbox, receiver }) => {
    const body = p2pBody(receiver);
    const created = (await call(sandbox, P2P, body)).json;
    const early = await json(await post(`${sandbox.url}/sandbox/payments/${created.request_id}/confirm`));
    assert.equal(early.status, 409);
    assert.equal(early.json.state, 'processing:requisites');
    assert.deepEqual(early.json.allowed, ['requisites-found', 'requisites-not-found', 'anti-fraud', 'expire', 'cancel']);
    assert.match(early.json.error, /the moves it allows now: requisites-found, requisites-not-found, anti-fraud, expire, cancel/);
    const refusedConfirm = await call(sandbox, `${P2P}/confirm`, ids(body));
    assert.equal(refusedConfirm.status, 409);
    assert.deepEqual(refusedConfirm.json.sandbox_error.allowed, early.json.allowed);

    await post(`${sandbox.url}/sandbox/payments/${created.request_id}/cancel`);
    const final = await json(await post(`${sandbox.url}/sandbox/payments/${created.request_id}/confirm`));
    assert.equal(final.status, 409);
    assert.deepEqual(final.json.allowed, []);
    assert.match(final.json.error, /final/);
    // A form asking in vain comes back to the page, which says so.
    const form = await fetch(`${sandbox.url}/sandbox/payments/${created.request_id}/confirm`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual',
    });
    assert.equal(form.status, 303);
    const page = await (await fetch(`${sandbox.url}${form.headers.get('location')}`)).text();
    assert.match(page, /'confirm' was not possible in this state; the moves it allows now: none/);
  });
});

test('GET /sandbox/ is an index: JSON for Accept: application/json, HTML for a browser; an unknown endpoint lists them', async () => {
  await withSandbox({ timeScale: 100 }, async ({ sandbox, receiver }) => {
    const body = p2pBody(receiver);
    const created = (await call(sandbox, P2P, body)).json;
    await receiver.callback(body.general.payment_id, 'processing', 'awaiting_confirm');
    await sandbox.callbacksIdle();

    const index = await fetch(`${sandbox.url}/sandbox/`, { headers: { accept: 'application/json' } });
    assert.equal(index.status, 200);
    assert.match(index.headers.get('content-type'), /^application\/json/);
    const data = await index.json();
    assert.equal(data.merchantId, sandbox.merchantId);
    const listed = data.payments.find((p) => p.requestId === created.request_id);
    assert.deepEqual([listed.paymentId, listed.status, listed.subStatus, listed.page], [body.general.payment_id, 'processing', 'awaiting_confirm', `/sandbox/pay/${created.request_id}`]);
    assert.ok(data.scenarios.some((s) => s.name === 'confirm' && s.from.includes('processing:awaiting_confirm')));
    const [delivery] = data.deliveries;
    assert.deepEqual([delivery.requestId, delivery.state, delivery.status, delivery.kind], [created.request_id, 'processing:awaiting_confirm', 200, 'informative']);
    assert.ok(data.endpoints.some((e) => e.path === '/sandbox/payments/PAYMENT/deliver-again'));
    // The keys: the merchant's, by fingerprint; the service's, to save as service-public.pem.
    const der = crypto.createPublicKey(merchantKey.publicKeyPem()).export({ type: 'spki', format: 'der' });
    assert.equal(data.merchantKey, `sha256:${crypto.createHash('sha256').update(der).digest('hex')}`);
    const pem = await fetch(`${sandbox.url}${data.servicePublicKey}`);
    assert.equal(await pem.text(), sandbox.servicePublicKeyPem);
    assert.equal(pem.headers.get('content-disposition'), 'attachment; filename="service-public.pem"');
    assert.equal((await (await fetch(`${sandbox.url}/sandbox`, { headers: { accept: 'application/json' } })).json()).merchantId, sandbox.merchantId);

    const html = await fetch(`${sandbox.url}/sandbox/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.match(html.headers.get('content-type'), /^text\/html/);
    const text = await html.text();
    assert.ok(text.includes(`href="/sandbox/pay/${created.request_id}"`));
    assert.match(text, /Recent callback deliveries/);
    assert.match(text, /download="service-public\.pem"/);
    assert.match(text, /--merchant-key merchant-public\.pem/);
    assert.match(text, /processing:awaiting_confirm/);
    assert.doesNotMatch(text, /not a sandbox endpoint/);

    const unknown = await json(await fetch(`${sandbox.url}/sandbox/nope`));
    assert.equal(unknown.status, 404);
    assert.ok(unknown.json.endpoints.length >= 6);
    assert.equal(unknown.json.index, '/sandbox/');
  });
});

test('each payment keeps its deliveries (answer, attempt, next retry); "deliver again" re-sends the last callback once', async () => {
  let answer = 503;
  await withSandbox({ timeScale: 100, callbackAttempts: 3 }, async ({ sandbox, receiver }) => {
    const gaveUp = new Promise((resolve) => sandbox.events.on('callback', (e) => e.gaveUp && resolve(e)));
    const body = p2pBody(receiver);
    const created = (await call(sandbox, P2P, body)).json;
    const last = await gaveUp;
    assert.equal(last.requestId, created.request_id);
    await sandbox.callbacksIdle();

    const payment = (await json(await fetch(`${sandbox.url}/sandbox/payments/${created.request_id}`))).json;
    assert.deepEqual(payment.deliveries.map((d) => [d.attempt, d.status, d.gaveUp]), [[1, 503, false], [2, 503, false], [3, 503, true]]);
    for (const d of payment.deliveries) {
      assert.equal(d.url, `${receiver.base}/${body.general.payment_id}/info`);
      assert.deepEqual([d.callback, d.kind, d.state, d.manual, d.error], [1, 'informative', 'processing:awaiting_confirm', false, null]);
    }
    // Retries after 2 s, then 4 s of the service's time (at 100x: 20 ms, 40 ms), none after the last.
    const [one, two, three] = payment.deliveries;
    assert.ok(one.nextRetryAt >= one.at + 20 && one.nextRetryAt <= two.at + 5, JSON.stringify([one, two]));
    assert.ok(two.nextRetryAt >= two.at + 40, JSON.stringify(two));
    assert.equal(three.nextRetryAt, null);
    assert.deepEqual(sandbox.payments()[0].deliveries, payment.deliveries);
    const listed = (await json(await fetch(`${sandbox.url}/sandbox/payments`))).json;
    assert.deepEqual(listed[0].deliveries, payment.deliveries);

    // The receiver is back: deliver again, once, now.
    answer = 200;
    const again = await json(await post(`${sandbox.url}/sandbox/payments/${body.general.payment_id}/deliver-again`));
    assert.equal(again.status, 200, JSON.stringify(again.json));
    assert.deepEqual([again.json.delivery.attempt, again.json.delivery.status, again.json.delivery.manual, again.json.delivery.callback], [4, 200, true, 1]);
    assert.equal(again.json.payment.deliveries.length, 4);
    const arrived = receiver.of(body.general.payment_id);
    assert.equal(arrived.length, 1, 'the one answered 200');
    assert.equal(arrived[0].model.idempotencyKey, receiver.received[0].model.idempotencyKey, 'the same callback');
    assert.equal(arrived[0].model.subStatus, 'awaiting_confirm');

    // The page lists them, newest first, with the button.
    const page = await (await fetch(`${sandbox.url}/sandbox/pay/${created.request_id}`)).text();
    const rows = page.match(/<tr class="delivery">/g) ?? [];
    assert.equal(rows.length, 4);
    assert.match(page, /HTTP 503/);
    assert.ok(page.indexOf('HTTP 200') < page.indexOf('HTTP 503'), 'newest first');
    assert.match(page, /id="deliver-again"/);
    const form = await fetch(`${sandbox.url}/sandbox/payments/${created.request_id}/deliver-again`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual',
    });
    assert.equal(form.status, 303);
    assert.equal(sandbox.payments()[0].deliveries.at(-1).attempt, 5);
  }, { answer: () => answer });
});

test('a receiver that does not answer is recorded with the error; a payment without callbacks has nothing to deliver again', async () => {
  await withSandbox({ timeScale: 100, callbackAttempts: 1 }, async ({ sandbox, receiver }) => {
    const body = p2pBody(receiver);
    body.general.merchant_callback_url = 'http://127.0.0.1:9/closed';
    const created = (await call(sandbox, P2P, body)).json;
    await post(`${sandbox.url}/sandbox/payments/${created.request_id}/requisites-found`);
    await sandbox.callbacksIdle();
    const [delivery] = sandbox.payments()[0].deliveries;
    assert.deepEqual([delivery.status, delivery.error, delivery.gaveUp], [null, 'ECONNREFUSED', true]);

    const silent = p2pBody(receiver);
    for (const name of ['merchant_callback_url', 'merchant_success_callback_url', 'merchant_decline_callback_url']) delete silent.general[name];
    const quiet = (await call(sandbox, P2P, silent)).json;
    const nothing = await json(await post(`${sandbox.url}/sandbox/payments/${quiet.request_id}/deliver-again`));
    assert.equal(nothing.status, 409);
    assert.match(nothing.json.error, /no callback/);
  });
});
