// `payment-intake sign`: a request body's x-access-* headers, and with --curl a curl command.
'use strict';

const { UsageError } = require('./args.cjs');
const { api, canonicalOptions, failure, printJson, readBody, readPem, readSecret } = require('./io.cjs');

const shellQuote = (s) => `'${String(s).replace(/'/g, "'\\''")}'`;

function sign({ values }) {
  if ((values.key === undefined) === (values['hmac-secret'] === undefined)) throw new UsageError('give one of --key FILE or --hmac-secret FILE');
  if (values['merchant-id'] === undefined) throw new UsageError('--merchant-id ID is required');
  const options = canonicalOptions(values);
  const key = values.key !== undefined ? readPem(values.key, 'key', false) : readSecret(values['hmac-secret']);
  const body = readBody(values);
  let signed;
  try {
    signed = api().signRequest(body, key, { merchantId: values['merchant-id'], timestamp: values.timestamp, options });
  } catch (e) {
    // Only --timestamp gives signRequest a timestamp: the package's rule, worded as a bad argument.
    if (e?.code === 'INVALID_TIMESTAMP') throw new UsageError(`--timestamp: ${e.message}${e.hint ? ` (${e.hint})` : ''}`);
    return failure(values, e);
  } finally {
    key.free();
  }
  const curl = values.curl === undefined ? undefined : [
    `curl -sS -X POST ${shellQuote(values.curl)}`,
    `  -H ${shellQuote('content-type: application/json')}`,
    ...Object.entries(signed.headers).map(([n, v]) => `  -H ${shellQuote(`${n}: ${v}`)}`),
    `  --data-raw ${shellQuote(signed.body)}`,
  ].join(' \\\n');
  if (values.json) printJson(curl === undefined ? signed : { ...signed, curl });
  else process.stdout.write(`${curl ?? Object.entries(signed.headers).map(([n, v]) => `${n}: ${v}`).join('\n')}\n`);
  return 0;
}

module.exports = sign;
