// The package's own bench lines, built from one loaded copy of the package, so that
// scripts/bench.mjs --against DIR can time this build (pkg/) and another build (DIR,
// e.g. made by scripts/build-rev.sh from an older commit) side by side in one process.
// Each line is a function of the package object alone: the same inputs for both builds.

/**
 * @param {object} pi the loaded package (`require(dir)`)
 * @param {object} input bench inputs: signingPem, publicPem, payinText, signOptions,
 *   callbackBody, callbackHeaders, timestamp, bigText, validatePath, hostile (name, text, options triples)
 * @returns {Array<{ title: string, fn: () => unknown, rsa?: boolean }>}
 */
export function packageLines(pi, input) {
  const signingKey = pi.SigningKey.fromPem(input.signingPem);
  const verifyingKey = pi.VerifyingKey.fromPem(input.publicPem);
  const { payinText, signOptions, callbackBody, callbackHeaders, timestamp, bigText, validatePath } = input;
  const refused = (text, options) => () => {
    try {
      pi.verifyCallback(text, callbackHeaders, verifyingKey, options);
    } catch {
      // the refusal is what is timed
    }
  };
  return [
    { title: 'signRequest (node:crypto), payin', fn: () => pi.signRequest(payinText, signingKey, signOptions), rsa: true },
    { title: 'verifyCallback (node:crypto), 1 KB', fn: () => pi.verifyCallback(callbackBody, callbackHeaders, verifyingKey) },
    { title: "signRequest, backend 'wasm'", fn: () => pi.signRequest(payinText, signingKey, { ...signOptions, backend: 'wasm' }), rsa: true },
    { title: "verifyCallback, backend 'wasm'", fn: () => pi.verifyCallback(callbackBody, callbackHeaders, verifyingKey, { backend: 'wasm' }), rsa: true },
    { title: 'canonicalMessage 1 KB', fn: () => pi.canonicalMessage(callbackBody, timestamp) },
    { title: 'canonicalMessage 60 KB', fn: () => pi.canonicalMessage(bigText, timestamp), rsa: true },
    { title: 'validateRequest, payin text', fn: () => pi.validateRequest(validatePath, payinText) },
    { title: 'prepareCallback, 1 KB', fn: () => pi.prepareCallback(callbackBody, callbackHeaders, verifyingKey) },
    ...input.hostile.map(([name, text, options]) => ({ title: `verifyCallback refuses hostile ${name}`, fn: refused(text, options) })),
  ];
}
