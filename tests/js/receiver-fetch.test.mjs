// handler.fetch, `(Request) => Response`, from the packed package, called with Requests as a
// Fetch framework makes them (and served through node:http for the shared cases). A Request
// whose body was read (request.json()) is refused as INVALID_ARGUMENT naming the setting.
// (In workerd: bundlers.test.mjs serves examples/edge-worker.mjs, which uses it.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { assertRawBodyRefused, callback, exerciseAdapter, installed, recorder } from './support/receiver-kit.mjs';

let pkg;
let app;
before(async () => ({ pkg, app } = await installed()));
after(() => app?.remove());

const request = ({ body, headers }, init = {}) =>
  new Request('https://merchant.example/callbacks', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, ...init });
const read = async (response) => ({ status: response.status, json: await response.json() });

describe('handler.fetch (Request in, Response out)', () => {
  test('genuine, duplicate, stale, tampered, forged and ambiguous callbacks', async () => {
    const { seen, config } = recorder();
    const handler = pkg.createCallbackHandler(config);
    await exerciseAdapter(async (sent) => read(await handler.fetch(request(sent))), { seen, store: handler.store });
    const response = await handler.fetch(request(callback('success')));
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
  });

  test('a body already read (request.json()): INVALID_ARGUMENT naming the raw body; no body: refused by the verifier', async () => {
    const { seen, config } = recorder();
    const handler = pkg.createCallbackHandler(config);
    const parsed = request(callback('success'));
    await parsed.json();
    assertRawBodyRefused(await read(await handler.fetch(parsed)), 'before anything reads its body');
    const sent = callback('success');
    const none = await read(await handler.fetch(new Request('https://merchant.example/callbacks', { method: 'POST', headers: sent.headers })));
    assert.equal(none.json.code, 'INVALID_SIGNATURE');
    assert.equal(seen.events.length, 0);
    assert.equal(await handler.store.payment('prj_1', 'order-1'), null);
  });

  test('a GET is 405 with allow: POST', async () => {
    const handler = pkg.createCallbackHandler(recorder().config);
    const response = await handler.fetch(new Request('https://merchant.example/callbacks'));
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST');
  });

  test('a body past verify.maxBodyBytes is read no further and refused BODY_TOO_LARGE', async () => {
    const handler = pkg.createCallbackHandler(recorder({ verify: { maxBodyBytes: 128 } }).config);
    const sent = callback('success');
    const answer = await read(await handler.fetch(request({ body: sent.body + ' '.repeat(1 << 16), headers: sent.headers })));
    assert.equal(answer.json.code, 'BODY_TOO_LARGE');
  });

  test('a body stream that gives text instead of bytes is BODY_UNREADABLE, not read as some other body', async () => {
    const { seen, config } = recorder();
    const handler = pkg.createCallbackHandler(config);
    const sent = callback('success');
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(sent.body); // a string chunk: no Fetch runtime gives one
        controller.close();
      },
    });
    const fake = { method: 'POST', bodyUsed: false, headers: new Headers(sent.headers), body };
    const answer = await read(await handler.fetch(fake));
    assert.equal(answer.status, 400);
    assert.equal(answer.json.code, 'BODY_UNREADABLE');
    assert.equal(seen.events.length, 0);
    assert.equal(seen.reviews.length, 0);
  });
});
