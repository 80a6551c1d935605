// The bench's inputs, each checked before anything is timed: the test keys (as the
// package's, node:crypto's and WebCrypto's), the P2P payin body, the genuine 1 KB
// callback, a 60 KB body, the hostile bodies, and ajv's compiled payin schema. The
// plain JS baselines must compute what the package computes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { payinSchema, plainCanonicalMessage, plainVerifyCallback, largeBody, payinBody } from '../../bench/baselines.mjs';
import { require, root } from './settings.mjs';

const read = (p) => fs.readFileSync(path.join(root, p), 'utf8');

/** The inputs of every line, for the package `pi`; throws when a baseline disagrees with it. */
export async function loadInputs(pi) {
  const signingPem = read('tests/vectors/keys/rsa2048.pkcs8.pem');
  const publicPem = read('tests/vectors/keys/rsa2048.public.pem');
  const signingKey = pi.SigningKey.fromPem(signingPem);
  const verifyingKey = pi.VerifyingKey.fromPem(publicPem);
  const privateKeyObject = crypto.createPrivateKey(signingPem);
  const publicKeyObject = crypto.createPublicKey(publicPem);
  const subtle = crypto.webcrypto.subtle;
  const ALG = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const der = (pem) => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const subtlePrivate = await subtle.importKey('pkcs8', der(signingPem), ALG, false, ['sign']);
  const subtlePublic = await subtle.importKey('spki', der(publicPem), ALG, false, ['verify']);

  const timestamp = '1700000000';
  const signOptions = { merchantId: 'merchant-1', timestamp };
  const payinText = JSON.stringify(payinBody);
  const signMessage = Buffer.from(pi.canonicalMessage(payinText, timestamp));

  const callbackCase = JSON.parse(read('tests/vectors/callbacks.json')).cases.find((c) => c.name === 'valid callback');
  const callbackBody = callbackCase.body;
  const callbackHeaders = callbackCase.headers;
  const verifyMessage = Buffer.from(pi.canonicalMessage(callbackBody, timestamp));
  const verifySignature = Buffer.from(callbackHeaders['x-access-signature'].replace(/=+$/, ''), 'base64url');
  // Under the 64 KiB limit on bodies to canonicalize (it was 100 KB before that limit).
  const bigText = JSON.stringify(largeBody(60 * 1024));

  // The baselines must compute the same thing as the package.
  for (const [name, text] of [['1 KB', callbackBody], ['100 KB', bigText], ['payin', payinText]]) {
    if (plainCanonicalMessage(text, timestamp) !== pi.canonicalMessage(text, timestamp)) {
      throw new Error(`the plain JS canonicalizer disagrees with the package on the ${name} body`);
    }
  }
  if (!crypto.verify('sha256', verifyMessage, publicKeyObject, verifySignature)) throw new Error('the callback vector does not verify');
  plainVerifyCallback(crypto, callbackBody, callbackHeaders, publicKeyObject); // throws unless it accepts the vector
  const { hostileBodies } = await import(pathToFileURL(path.join(root, 'tests', 'js', 'hostile-bodies.mjs')).href);
  const Ajv = require('ajv');
  const addFormats = require('ajv-formats');
  const ajv = new Ajv({ allErrors: true });
  addFormats(ajv);
  const ajvValidate = ajv.compile(payinSchema);
  const validatePath = pi.operationTable().find((row) => row.name === 'p2p.payin.create').path;
  if (!ajvValidate(JSON.parse(payinText)) || !pi.validateRequest(validatePath, payinText).valid) {
    throw new Error(`the payin body must be valid for both validators: ${JSON.stringify(ajvValidate.errors)}`);
  }
  return {
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
  };
}
