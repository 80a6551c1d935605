// Every shared vector through the package as `import` gives it in Node.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import { esm as api, readKey, readVectors, sharedVectorsDir, throwsCode, vectorsDir, nodeVerify } from './helpers.mjs';

const canonical = readVectors('canonical.json');
const signatures = readVectors('signatures.json');
const callbacks = readVectors('callbacks.json');

describe('canonical.json', () => {
  test('has cases', () => assert.ok(canonical.length > 0));
  for (const c of canonical) {
    test(c.name, () => {
      assert.deepEqual(api.canonicalEntries(c.body, c.options), c.entries, 'entries');
      assert.equal(api.canonicalMessage(c.body, c.timestamp, c.options), c.message, 'message');
      assert.equal(api.canonicalMessage(c.body, Number(c.timestamp), c.options), c.message, 'numeric timestamp');
      const steps = api.canonicalSteps(c.body, c.timestamp, c.options);
      assert.deepEqual(steps.entries, c.entries);
      assert.equal(steps.joined, c.entries.join(';'));
      assert.equal(steps.message, c.message);
      assert.equal(steps.encoded + c.timestamp, c.message);
      // The same body as bytes reads the same.
      assert.deepEqual(api.canonicalEntries(new TextEncoder().encode(c.body), c.options), c.entries, 'bytes');
    });
  }
});

describe('signatures.json', () => {
  test('has cases', () => assert.ok(signatures.length > 0));
  const keys = new Map();
  const keyFor = (relative) => {
    if (!keys.has(relative)) keys.set(relative, api.SigningKey.fromPem(readKey(relative)));
    return keys.get(relative);
  };
  for (const c of signatures) {
    test(c.name, () => {
      const key = keyFor(c.key);
      const timestamp = c.headers['x-access-timestamp'];
      const signed = api.signRequest(c.body, key, { merchantId: c.merchant_id, timestamp, options: c.options });
      assert.deepEqual(signed.headers, c.headers, 'exact headers');
      assert.equal(signed.body, c.body, 'body text is returned exactly');
      // Independent check: node:crypto accepts the signature over the canonical message.
      const message = api.canonicalMessage(c.body, timestamp, c.options);
      const publicPem = key.publicKeyPem();
      assert.ok(nodeVerify(message, signed.headers['x-access-signature'], publicPem), 'node:crypto verifies');
      // The package's verifier finds the vector's options among those that verify.
      // (These bodies are not callbacks, so diagnoseCallback rather than verifyCallback.)
      const d = api.diagnoseCallback(signed.body, signed.headers, key.verifyingKey());
      assert.equal(d.signatureMatched, true);
      assert.equal(d.tokenMatchesKey, true);
      const wanted = { falsy: 'none', booleans: 'python', padding: true, order: 'codepoint', numbers: 'python', digest: 'single', token: 'pem', signatureEncoding: 'base64url', ...c.options };
      assert.ok(d.matching.some((o) => JSON.stringify(o) === JSON.stringify(wanted)), `${JSON.stringify(wanted)} in ${JSON.stringify(d.matching)}`);
      // The signature is good; what verifyCallback would still refuse is that the body is no callback.
      // (INVALID_CALLBACK without a callback's fields, AMBIGUOUS_CALLBACK for members the model does not read.)
      const refusals = ['INVALID_CALLBACK', 'AMBIGUOUS_CALLBACK'];
      if (Object.keys(c.options).length === 0) assert.ok(d.defaultError === null || refusals.includes(d.defaultError.code), JSON.stringify(d.defaultError));
    });
  }
});

describe('callbacks.json', () => {
  const verifyingKey = api.VerifyingKey.fromPem(readKey(callbacks.verifying_key));
  test('has cases', () => assert.ok(callbacks.cases.length > 0));
  for (const c of callbacks.cases) {
    test(`${c.name} -> ${c.expect}`, () => {
      if (c.expect === 'ok') {
        const verified = api.verifyCallback(c.body, c.headers, verifyingKey);
        const { verification, ...model } = verified;
        assert.deepEqual(model, api.parseCallback(c.body));
        assert.equal(model.projectId, JSON.parse(c.body).project_id);
        assert.equal(verification.ambiguous, false);
        assert.equal(verified.verification.merchantId, c.headers['x-access-merchant-id']);
        assert.equal(String(verified.verification.timestamp), c.headers['x-access-timestamp']);
        // The PEM text works as well as the key object.
        api.verifyCallback(c.body, c.headers, readKey(callbacks.verifying_key));
      } else {
        throwsCode(() => api.verifyCallback(c.body, c.headers, verifyingKey), c.expect, c.name);
      }
    });
  }
});

describe('vectors drift', () => {
  const listing = (dir) =>
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)))
      .sort();
  test(
    'tests/vectors/ is an exact copy of ../shared/vectors/ (refresh with scripts/sync-vectors.sh)',
    { skip: fs.existsSync(sharedVectorsDir) ? false : `no ${sharedVectorsDir}` },
    () => {
      const ours = listing(vectorsDir);
      const shared = listing(sharedVectorsDir);
      assert.deepEqual(ours, shared, 'same files');
      for (const file of shared) {
        const a = fs.readFileSync(path.join(vectorsDir, file));
        const b = fs.readFileSync(path.join(sharedVectorsDir, file));
        assert.ok(a.equals(b), `${file} differs from ../shared/vectors/${file}: run scripts/sync-vectors.sh`);
      }
    },
  );
});
