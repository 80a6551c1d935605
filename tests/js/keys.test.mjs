// Every key of tests/vectors/keys in every PEM form, and the keys the package must refuse.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';

import { base64urlDecode, callbackValue, esm as api, keyFamilies, nodeVerify, pkgDir, readKey, throwsCode, tokenOf } from './helpers.mjs';

const glue = createRequire(import.meta.url)(path.join(pkgDir, 'web', 'payment_intake_node.cjs'));

const families = keyFamilies();

/** The modulus and exponent of any PEM, as node:crypto reads it. */
function jwkOf(pem) {
  const jwk = crypto.createPublicKey(pem).export({ format: 'jwk' });
  return { n: jwk.n, e: jwk.e };
}

test('keys/ holds the four families of the README', () => {
  assert.deepEqual(families.map((f) => f.name), ['attacker2048', 'rsa2048', 'rsa3072', 'rsa4096']);
});

for (const family of families) {
  describe(family.name, () => {
    const expected = jwkOf(readKey(family.spki));
    const spkiPem = crypto.createPublicKey(readKey(family.spki)).export({ type: 'spki', format: 'pem' });

    for (const form of ['pkcs8', 'pkcs1']) {
      test(`SigningKey.fromPem(${form}) reads the key, its public half and token`, () => {
        const key = api.SigningKey.fromPem(readKey(family[form]));
        try {
          assert.equal(key.bits, family.bits);
          assert.deepEqual(jwkOf(key.publicKeyPem()), expected, 'same public key as the .public.pem');
          assert.equal(key.publicKeyPem(), spkiPem, 'SPKI PEM as node:crypto writes it');
          assert.equal(key.token(), tokenOf(key.publicKeyPem()), 'token is base64url of the PEM bytes');
          assert.equal(base64urlDecode(key.token()).toString('utf8'), key.publicKeyPem());
          const verifying = key.verifyingKey();
          assert.equal(verifying.token(), key.token());
          assert.equal(verifying.bits, family.bits);
          // privateKeyPem() is PKCS#8 of the same private key.
          const exported = key.privateKeyPem();
          assert.match(exported, /^-----BEGIN PRIVATE KEY-----\n/);
          const original = crypto.createPrivateKey(readKey(family[form])).export({ format: 'jwk' });
          assert.deepEqual(crypto.createPrivateKey(exported).export({ format: 'jwk' }), original);
          verifying.free();
        } finally {
          key.free();
        }
      });

      test(`SigningKey.fromPem(${form}): the wasm's n.e is node:crypto's JWK (the provider's key check takes it)`, () => {
        const inner = glue.SigningKey.fromPem(readKey(family[form]));
        try {
          assert.deepEqual({ ...inner.__publicJwk() }, { ok: true, value: `${expected.n}.${expected.e}` });
        } finally {
          inner.free();
        }
      });
    }

    for (const form of ['spki', 'pkcs1Public']) {
      test(`VerifyingKey.fromPem(${form}) reads the key and gives the SPKI token`, () => {
        const key = api.VerifyingKey.fromPem(readKey(family[form]));
        assert.equal(key.bits, family.bits);
        assert.deepEqual(jwkOf(key.publicKeyPem()), expected);
        assert.equal(key.token(), tokenOf(spkiPem));
        key.free();
      });
    }

    test('CRLF line endings and surrounding whitespace are accepted', () => {
      const crlf = `\n  ${readKey(family.pkcs8).replace(/\n/g, '\r\n')}  \n`;
      assert.equal(api.SigningKey.fromPem(crlf).token(), tokenOf(spkiPem));
      const crlfPublic = readKey(family.pkcs1Public).replace(/\n/g, '\r\n');
      assert.equal(api.VerifyingKey.fromPem(crlfPublic).token(), tokenOf(spkiPem));
    });

    test('signatures verify with node:crypto and with the package for every public form', () => {
      const key = api.SigningKey.fromPem(readKey(family.pkcs1));
      const signed = api.signRequest(callbackValue({ payment_info: { amount: 150000, currency: 'RUB' } }), key, { merchantId: 'm-1', timestamp: 1700000000 });
      const message = api.canonicalMessage(signed.body, signed.headers['x-access-timestamp']);
      for (const form of ['spki', 'pkcs1Public']) {
        assert.ok(nodeVerify(message, signed.headers['x-access-signature'], readKey(family[form])), `node:crypto, ${form}`);
        api.verifyCallback(signed.body, signed.headers, api.VerifyingKey.fromPem(readKey(family[form])));
        api.verifyCallback(signed.body, signed.headers, readKey(family[form]));
      }
    });

    test('a private key is refused where a public key is wanted, and the reverse', () => {
      throwsCode(() => api.VerifyingKey.fromPem(readKey(family.pkcs8)), 'INVALID_KEY');
      throwsCode(() => api.VerifyingKey.fromPem(readKey(family.pkcs1)), 'INVALID_KEY');
      throwsCode(() => api.SigningKey.fromPem(readKey(family.spki)), 'INVALID_KEY');
      throwsCode(() => api.SigningKey.fromPem(readKey(family.pkcs1Public)), 'INVALID_KEY');
    });
  });
}

describe('refused keys', () => {
  test('garbage, empty and truncated PEM -> INVALID_KEY', () => {
    throwsCode(() => api.SigningKey.fromPem(''), 'INVALID_KEY');
    throwsCode(() => api.SigningKey.fromPem('not a key'), 'INVALID_KEY');
    throwsCode(() => api.VerifyingKey.fromPem('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n'), 'INVALID_KEY');
    const pem = readKey('keys/rsa2048.pkcs8.pem');
    throwsCode(() => api.SigningKey.fromPem(pem.slice(0, pem.length / 2)), 'INVALID_KEY');
  });

  test('an encrypted PKCS#8 key -> KEY_ENCRYPTED with a hint', () => {
    const encrypted = crypto
      .createPrivateKey(readKey('keys/rsa2048.pkcs8.pem'))
      .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' });
    const error = throwsCode(() => api.SigningKey.fromPem(encrypted), 'KEY_ENCRYPTED');
    assert.equal(typeof error.hint, 'string');
  });

  test('EC and Ed25519 keys -> KEY_TYPE_UNSUPPORTED', () => {
    for (const [type, options] of [['ec', { namedCurve: 'P-256' }], ['ed25519', {}]]) {
      const { privateKey, publicKey } = crypto.generateKeyPairSync(type, options);
      throwsCode(() => api.SigningKey.fromPem(privateKey.export({ type: 'pkcs8', format: 'pem' })), 'KEY_TYPE_UNSUPPORTED', `${type} private`);
      throwsCode(() => api.VerifyingKey.fromPem(publicKey.export({ type: 'spki', format: 'pem' })), 'KEY_TYPE_UNSUPPORTED', `${type} public`);
    }
  });

  test('RSA keys outside 2048..4096 bits -> KEY_SIZE_UNSUPPORTED', () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });
    throwsCode(() => api.SigningKey.fromPem(privateKey.export({ type: 'pkcs8', format: 'pem' })), 'KEY_SIZE_UNSUPPORTED');
    throwsCode(() => api.VerifyingKey.fromPem(publicKey.export({ type: 'spki', format: 'pem' })), 'KEY_SIZE_UNSUPPORTED');
    throwsCode(() => api.SigningKey.generate(1024), 'KEY_SIZE_UNSUPPORTED');
    const large = throwsCode(() => api.SigningKey.generate(8192), 'KEY_SIZE_UNSUPPORTED');
    assert.match(large.message, /must be 2048 to 4096 bits, this one is 8192/);
    // In range but not whole bytes: said so, not "must be 2048 to 4096" of a size inside it.
    const odd = throwsCode(() => api.SigningKey.generate(2049), 'KEY_SIZE_UNSUPPORTED');
    assert.match(odd.message, /generated in whole bytes: 2049 bits is not a multiple of 8/);
  });

  test('public exponents 1 and 2 are refused with a key error code', () => {
    const jwk = crypto.createPublicKey(readKey('keys/rsa2048.public.pem')).export({ format: 'jwk' });
    for (const e of ['AQ', 'Ag']) {
      const pem = crypto.createPublicKey({ key: { ...jwk, e }, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
      let caught;
      try {
        api.VerifyingKey.fromPem(pem);
      } catch (error) {
        caught = error;
      }
      assert.ok(caught instanceof Error, `exponent ${e} accepted`);
      assert.ok(['KEY_EXPONENT_UNSUPPORTED', 'INVALID_KEY'].includes(caught.code), `exponent ${e}: ${caught.code}`);
    }
  });
});

test('SigningKey.generate() makes a 2048-bit key that node:crypto accepts', () => {
  const key = api.SigningKey.generate();
  assert.equal(key.bits, 2048);
  const privatePem = key.privateKeyPem();
  assert.deepEqual(jwkOf(privatePem), jwkOf(key.publicKeyPem()));
  const signed = api.signRequest('{"a":"1"}', key, { merchantId: 'm', timestamp: '1700000000' });
  const message = api.canonicalMessage(signed.body, '1700000000');
  assert.ok(nodeVerify(message, signed.headers['x-access-signature'], key.publicKeyPem()));
  // node:crypto signs the same bytes identically (PKCS#1 v1.5 is deterministic).
  const byNode = crypto.sign('sha256', Buffer.from(message), privatePem);
  assert.ok(byNode.equals(base64urlDecode(signed.headers['x-access-signature'])));
  key.free();
});
