// Attacks on createCallbackHandler by someone who captured one genuine callback and replays
// it: bodies the signature cannot tell apart (re-spaced, keys re-ordered, characters
// re-escaped) must be one review in the store and one onReview call, not one each (the store
// grew without bound and onReview was flooded), and a valid callback's variants are duplicates.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ambiguous, body, callback, installed, recorder, signed } from './support/receiver-kit.mjs';

let pkg;
let app;
before(async () => ({ pkg, app } = await installed()));
after(() => app?.remove());

/** Texts of `text`'s JSON that its signature covers alike. */
function variants(text) {
  const value = JSON.parse(text);
  const reversed = (v) => (v === null || typeof v !== 'object' || Array.isArray(v) ? v : Object.fromEntries(Object.keys(v).reverse().map((k) => [k, reversed(v[k])])));
  return [
    text,
    ` ${text}`,
    `${text}\n\n`,
    JSON.stringify(value, null, 2),
    JSON.stringify(reversed(value)),
    text.replace('"prj_1"', '"prj\\u005f1"'),
    JSON.stringify(reversed(value), null, '\t'),
  ];
}

describe('createCallbackHandler: a genuine callback replayed as many texts', () => {
  for (const [name, make, code] of [
    ['INVALID_CALLBACK', () => signed(body('success', { omitStatus: true })), 'INVALID_CALLBACK'],
    ['AMBIGUOUS_CALLBACK', () => ambiguous(), 'AMBIGUOUS_CALLBACK'],
  ]) {
    test(`${name}: every variant is answered 200 and kept once, onReview once`, async () => {
      const { seen, config } = recorder();
      const handler = pkg.createCallbackHandler({ ...config, store: pkg.memoryStore() });
      const sent = make();
      const texts = variants(sent.body);
      assert.equal(new Set(texts).size, texts.length);
      for (const text of texts) {
        const answer = await handler.handle(text, sent.headers);
        assert.deepEqual({ status: answer.status, json: JSON.parse(answer.body) }, { status: 200, json: { ok: true, code } }, text);
      }
      const kept = await handler.store.reviews();
      assert.equal(kept.length, 1, 'one record');
      assert.equal(kept[0].rawBody, sent.body, 'the first text received is the one kept');
      assert.equal(seen.reviews.length, 1, 'onReview once');
    });
  }

  test('a valid callback: its variants are duplicates, onEvent once', async () => {
    const { seen, config } = recorder();
    const handler = pkg.createCallbackHandler({ ...config, store: pkg.memoryStore() });
    const sent = callback('success');
    const answers = [];
    for (const text of variants(sent.body)) answers.push(JSON.parse((await handler.handle(text, sent.headers)).body));
    assert.deepEqual(answers[0], { ok: true });
    assert.ok(answers.slice(1).every((a) => a.code === 'DUPLICATE'), JSON.stringify(answers));
    assert.equal(seen.events.length, 1);
  });
});
