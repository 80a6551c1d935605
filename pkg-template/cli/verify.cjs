// `payment-intake verify`: a callback's signature, then its model.
'use strict';

const { UsageError } = require('./args.cjs');
const { api, canonicalOptions, failure, printJson, readCallback, verifyingKeys } = require('./io.cjs');

function verify({ values }) {
  const options = canonicalOptions(values);
  const keys = verifyingKeys(values);
  const { headers, body } = readCallback(values);
  const verifyOptions = { options };
  if (values.tolerance !== undefined) {
    if (!/^\d+$/.test(values.tolerance)) throw new UsageError(`--tolerance must be whole seconds, got '${values.tolerance}'`);
    verifyOptions.toleranceSeconds = Number(values.tolerance);
  }
  let model;
  try {
    model = api().verifyCallback(body, headers, keys, verifyOptions);
  } catch (e) {
    return failure(values, e);
  } finally {
    keys.forEach((k) => k.free());
  }
  if (values.json) {
    printJson({ ok: true, model });
  } else {
    const v = model.verification;
    process.stdout.write(`verified with key ${v.keyIndex + 1} of ${keys.length}, timestamp ${v.timestamp}, merchant id ${v.merchantId} (not signed)\n`);
    process.stdout.write(`${JSON.stringify(model, null, 2)}\n`);
  }
  return 0;
}

module.exports = verify;
