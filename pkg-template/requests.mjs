// Signing and checking requests: the native RSA signature around the wasm's `__signRequest` /
// `__signRequestHmac` (src/wasm/exports/request.rs), the canonical message and validation,
// with the in-place paths of pkg-template/wasm-io.mjs where they pay. Each private export
// takes one request object and answers `{ ok, value | error }` (`unwrap`).

/** `signRequest`'s result from a prepared request and the base64url signature (`provider`'s). */
function signedRequest(provider, prepared, signatureBytes) {
  const h = prepared.headers;
  return {
    body: prepared.body,
    headers: {
      'x-access-timestamp': h['x-access-timestamp'],
      'x-access-merchant-id': h['x-access-merchant-id'],
      'x-access-signature': provider.base64url(signatureBytes, prepared.padding),
      'x-access-token': h['x-access-token'],
    },
  };
}

/**
 * The wasm's `{ signed }`, or `{ prepared, data }` for the native RSA (`native`: the
 * provider offers one now; `prepare`: sign nothing). An HmacKey signs in the wasm, by the
 * number of its secret; a SigningKey's glue key is the request's key itself.
 */
function signInWasm({ glue, errors, keys }, body, signingKey, options, native, prepare) {
  const key = keys.signingKeyArg(signingKey);
  return errors.unwrap(
    typeof key === 'number' ? glue.__signRequestHmac({ body, key, options, prepare }) : key.__signRequest({ body, options, native, prepare }),
  );
}

/** The request functions of the API over `glue`, with `provider`'s RSA, `keys`' key classes and `io`'s in-place paths. */
function createRequests(glue, provider, errors, keys, io) {
  const { cryptoFailure, unwrap } = errors;
  const { nativeSigningKey } = keys;
  const wasm = { glue, errors, keys };

  function signRequest(body, signingKey, options) {
    const { signed, prepared, data } = signInWasm(wasm, body, signingKey, options, provider.sync, false);
    if (signed !== undefined) return signed;
    let signature;
    try {
      signature = provider.sign(data, nativeSigningKey(signingKey));
    } catch (cause) {
      throw cryptoFailure(cause);
    }
    return signedRequest(provider, prepared, signature);
  }

  /** `signRequest`, with the RSA operation off the main thread where the provider can. */
  async function signRequestAsync(body, signingKey, options) {
    const { signed, prepared, data } = signInWasm(wasm, body, signingKey, options, provider.available(), false);
    if (signed !== undefined) return signed;
    let signature;
    try {
      signature = await provider.signAsync(data, nativeSigningKey(signingKey));
    } catch (cause) {
      throw cryptoFailure(cause);
    }
    return signedRequest(provider, prepared, signature);
  }

  /** Everything of `signRequest` but the signature (`digest: 'double'`: RSA-SHA256 signs the message's SHA-256). */
  function prepareRequest(body, signingKey, options) {
    return signInWasm(wasm, body, signingKey, options, false, true).prepared;
  }

  function canonicalMessage(body, timestamp, options) {
    if (provider.ascii === undefined) return glue.canonicalMessage(body, timestamp, options);
    const inPlace = io.canonicalMessage(body, timestamp, options);
    if (inPlace !== undefined) return inPlace;
    // Text the provider encodes goes in as UTF-8 bytes; anything else as it is, read by the wasm.
    const bytes = provider.bytes(body, errors.shared().maxBodyBytes);
    return provider.ascii(unwrap(glue.__canonicalMessageBytes({ body: bytes, timestamp, options })));
  }

  // The index of each operation path in the wasm's operation table (`__constants().operations`), made once.
  let operationIndexes;
  const operationIndex = (operation) => (operationIndexes ??= new Map(errors.shared().operations.map((row, index) => [row.path, index]))).get(operation);

  function validateRequest(operation, body, options) {
    // Text the provider encodes is written into wasm memory, for a known operation by its index.
    if (options === undefined && typeof operation === 'string' && typeof body === 'string') {
      const index = operationIndex(operation);
      const report = index !== undefined ? io.validateRequest(index, body) : undefined;
      if (report !== undefined) return report;
    }
    return glue.validateRequest(operation, provider.bytes(body, 4096), options);
  }

  return { canonicalMessage, prepareRequest, signRequest, signRequestAsync, validateRequest };
}

export { createRequests };
