// `payment-intake call OPERATION`: one call of the service through the package's client
// (createClient): validated, signed, sent, retried; prints the answer's model, or the error
// code and hint (exit 1). The process's exit code is set when the call ends.
'use strict';

const { PROG, UsageError } = require('./args.cjs');
const { api, canonicalOptions, failure, printJson, readBody, readPem, readSecret } = require('./io.cjs');

const whole = (values, flag) => {
  if (values[flag] === undefined) return undefined;
  if (!/^\d{1,9}$/.test(values[flag])) throw new UsageError(`--${flag} must be a whole number, got '${values[flag]}'`);
  return Number(values[flag]);
};

/** The model for people: its scalar members as `name: value` lines, then the exchange. */
function text(model) {
  const lines = Object.entries(model)
    .filter(([name, value]) => name !== 'raw' && name !== 'response' && (value === null || typeof value !== 'object'))
    .map(([name, value]) => `${name}: ${value}`);
  for (const list of ['balance', 'banks']) if (Array.isArray(model[list])) lines.push(...model[list].map((entry) => `${list}: ${JSON.stringify(entry)}`));
  if (model.integration?.formUrl) lines.push(`formUrl: ${model.integration.formUrl}`);
  const { statusCode, attempts, durationMs, replayed } = model.response;
  lines.push(`(HTTP ${statusCode}, ${attempts} attempt${attempts === 1 ? '' : 's'}, ${durationMs} ms${replayed ? ', settled through info' : ''})`);
  return `${lines.join('\n')}\n`;
}

function call({ values, positionals }) {
  const [path] = positionals;
  if (values['base-url'] === undefined) throw new UsageError('--base-url URL is required');
  if (values['merchant-id'] === undefined) throw new UsageError('--merchant-id ID is required');
  if ((values.key === undefined) === (values['hmac-secret-file'] === undefined)) throw new UsageError('give one of --key FILE or --hmac-secret-file FILE');
  const options = canonicalOptions(values);
  const timeoutMs = whole(values, 'timeout');
  const retries = whole(values, 'retries');
  let input;
  if (values.body !== undefined) input = values.body === '-' ? readBody({}) : readBody(values);
  else if (values['project-id'] === undefined) throw new UsageError('give --body FILE|-, or --project-id (and --payment-id) for an operation on a payment or a project');
  else input = { projectId: values['project-id'], paymentId: values['payment-id'] };
  const key = values.key !== undefined ? readPem(values.key, 'key', false) : readSecret(values['hmac-secret-file'], 'hmac-secret-file');
  let client;
  try {
    client = api().createClient({
      baseUrl: values['base-url'], merchantId: values['merchant-id'], key, options: Object.keys(options).length ? options : undefined,
      projectId: values['project-id'], timeoutMs, retries, validate: values['no-validate'] ? false : undefined,
    });
  } catch (e) {
    key.free();
    return failure(values, e);
  }
  const body = Buffer.isBuffer(input) ? input.toString('utf8') : input;
  client
    .call(path, body)
    .then(
      (model) => {
        if (values.json) printJson(model);
        else process.stdout.write(text(model));
        return 0;
      },
      (e) => failure(values, e),
    )
    .catch((e) => {
      if (!(e instanceof UsageError)) throw e;
      process.stderr.write(`${PROG} call: ${e.message}\nRun '${PROG} call --help' for its flags.\n`);
      return 2;
    })
    .then((code) => {
      key.free();
      process.exitCode = code;
    });
  return undefined; // the call sets the exit code when it ends
}

module.exports = call;
