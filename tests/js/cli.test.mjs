// The command line (pkg/cli.js, the package's "bin"): every subcommand run as a child
// process against the vectors, its --help and bad flags, and `npx payment-intake` from
// the packed tarball installed into a fresh project, offline.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { cjs, cjs as api, pkgDir, readKey, readVectors, root, throwsCode } from './helpers.mjs';

const cli = path.join(pkgDir, 'cli.js');
const keys = path.join(root, 'tests', 'vectors', 'keys');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-intake-cli-'));

/** Runs the CLI; `input` is its stdin. */
function run(args, input = '') {
  const r = spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const write = (name, text) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
};

const FLAG = { signatureEncoding: 'signature-encoding' };
/** The vector's options as flags. */
function optionFlags(options) {
  return Object.entries(options).flatMap(([n, v]) => {
    if (n === 'padding') return [v ? '--padding' : '--no-padding'];
    return [`--${FLAG[n] ?? n}`, String(v)];
  });
}

const bodyText = (body) => (typeof body === 'string' ? body : JSON.stringify(body));

/**
 * Starts a command that serves until stopped; resolves with the child, its first line of
 * output (the address it serves at) and `until(regex)`, which resolves once its whole
 * output matches. `detached` puts it in its own process group, so stop() also reaches
 * what a launcher (npx) started.
 */
function serve(cmd, args, options = {}) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let out = '';
  const until = (regex) => new Promise((resolve) => {
    const check = () => regex.test(out) && (child.stdout.off('data', check), resolve(out));
    child.stdout.on('data', check);
    check();
  });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ child, line: out.slice(0, out.indexOf('\n')), until });
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
}

/** SIGTERM to a child from serve(), or to its process group (`group`, when it was detached); resolves with its exit code. */
function stop(child, group = false) {
  const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code))));
  if (child.exitCode === null) process.kill(group ? -child.pid : child.pid, 'SIGTERM');
  return exited;
}

describe('keygen', () => {
  test('writes a PKCS#8 and an SPKI PEM that parse as a key pair', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'keygen-'));
    const r = run(['keygen', '--out-dir', dir, '--json']);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.bits, 2048);
    const priv = fs.readFileSync(out.private, 'utf8');
    const pub = fs.readFileSync(out.public, 'utf8');
    assert.match(priv, /^-----BEGIN PRIVATE KEY-----/);
    assert.match(pub, /^-----BEGIN PUBLIC KEY-----/);
    const key = cjs.SigningKey.fromPem(priv);
    assert.equal(key.bits, 2048);
    assert.equal(cjs.VerifyingKey.fromPem(pub).publicKeyPem(), key.publicKeyPem());
    if (process.platform !== 'win32') assert.equal(fs.statSync(out.private).mode & 0o777, 0o600);
    // Existing files are kept unless --force.
    assert.equal(run(['keygen', '--out-dir', dir]).code, 2);
    assert.equal(run(['keygen', '--out-dir', dir, '--force']).code, 0);
  });

  test('bad --bits exits 2; a missing --out-dir is made, the files named merchant-private.pem and merchant-public.pem', () => {
    assert.equal(run(['keygen', '--bits', '1024', '--out-dir', tmp]).code, 2);
    const dir = path.join(tmp, 'nope');
    const r = run(['keygen', '--out-dir', dir]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, `wrote ${path.join(dir, 'merchant-private.pem')} (private key, PKCS#8 PEM)\nwrote ${path.join(dir, 'merchant-public.pem')} (public key, SPKI PEM)\n`);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['merchant-private.pem', 'merchant-public.pem']);
  });

  test('the help names one set of key files: merchant-private.pem, merchant-public.pem, service-public.pem', () => {
    const help = run(['--help']).out;
    for (const name of ['merchant-private.pem', 'merchant-public.pem', 'service-public.pem']) assert.match(help, new RegExp(name.replace('.', '\\.')), name);
    assert.doesNotMatch(help, /[^-]private\.pem|[^-]public\.pem/, 'no other key file name');
    assert.match(run(['keygen', '--help']).out, /DIR\/merchant-private\.pem .* DIR\/merchant-public\.pem/);
    assert.match(run(['sandbox', '--help']).out, /--merchant-key FILE +the merchant's public key PEM, e\.g\. merchant-public\.pem/);
    assert.match(run(['sandbox', '--help']).out, /--service-public-key-out FILE +.*service-public\.pem/);
  });
});

describe('sign', () => {
  const vectors = readVectors('signatures.json').filter((v) => v.key === 'keys/rsa2048.pkcs8.pem');

  test('the headers of every rsa2048 signature vector', () => {
    assert.ok(vectors.length > 10);
    for (const v of vectors) {
      const args = ['sign', '--key', path.join(keys, 'rsa2048.pkcs8.pem'), '--merchant-id', v.merchant_id,
        '--timestamp', v.headers['x-access-timestamp'], ...optionFlags(v.options)];
      const json = run([...args, '--json'], bodyText(v.body));
      assert.equal(json.code, 0, `${v.name}: ${json.err}`);
      assert.deepEqual(JSON.parse(json.out).headers, v.headers, v.name);
      const text = run(args, bodyText(v.body));
      const lines = Object.entries(v.headers).map(([n, h]) => `${n}: ${h}`);
      assert.equal(text.out, `${lines.join('\n')}\n`, v.name);
    }
  });

  test('--curl prints a command with every header and the body; --json adds it', () => {
    const v = vectors.find((x) => x.name.startsWith('payin request'));
    const args = ['sign', '--key', path.join(keys, 'rsa2048.pkcs8.pem'), '--merchant-id', v.merchant_id, '--timestamp', '1700000000',
      '--curl', 'https://pay.example/api/v1/payment/p2p/payin'];
    const r = run(args, bodyText(v.body));
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^curl -sS -X POST 'https:\/\/pay\.example\/api\/v1\/payment\/p2p\/payin'/);
    for (const [n, h] of Object.entries(v.headers)) assert.ok(r.out.includes(`-H '${n}: ${h}'`), n);
    assert.ok(r.out.includes('--data-raw \''), 'body');
    const json = JSON.parse(run([...args, '--json'], bodyText(v.body)).out);
    assert.deepEqual(Object.keys(json).sort(), ['body', 'curl', 'headers']);
    assert.equal(json.curl, r.out.trimEnd());
    assert.deepEqual(json.headers, v.headers);
  });

  test('--hmac-secret: one trailing newline is not part of the secret', () => {
    const secret = 'a-shared-secret-of-32-characters';
    const file = write('hmac.secret', `${secret}\n`);
    const r = run(['sign', '--hmac-secret', file, '--merchant-id', 'm', '--timestamp', '1700000000', '--json'], '{"a":1}');
    assert.equal(r.code, 0, r.err);
    const expected = cjs.signRequest('{"a":1}', cjs.HmacKey.fromSecret(secret), { merchantId: 'm', timestamp: 1700000000 });
    assert.deepEqual(JSON.parse(r.out).headers, expected.headers);
  });

  test('a body that is not JSON exits 1 with its code; bad arguments exit 2 naming the flag', () => {
    const key = path.join(keys, 'rsa2048.pkcs8.pem');
    const bad = run(['sign', '--key', key, '--merchant-id', 'm', '--json'], '{nope');
    assert.equal(bad.code, 1);
    assert.equal(JSON.parse(bad.out).code, 'INVALID_JSON');
    const cases = [
      [['sign', '--merchant-id', 'm'], /--key/],
      [['sign', '--key', key], /--merchant-id/],
      [['sign', '--key', path.join(tmp, 'missing.pem'), '--merchant-id', 'm'], /--key: cannot read/],
      [['sign', '--key', path.join(keys, 'rsa2048.public.pem'), '--merchant-id', 'm'], /--key: .*INVALID_KEY|--key/],
      [['sign', '--key', key, '--merchant-id', 'm', '--timestamp', 'soon'], /--timestamp/],
      // The package's own timestamp rule: digits, but a leading zero or milliseconds.
      [['sign', '--key', key, '--merchant-id', 'm', '--timestamp', '0000000000'], /--timestamp: .*leading zero/],
      [['sign', '--key', key, '--merchant-id', 'm', '--timestamp', '1700000000000'], /--timestamp: .*milliseconds/],
      [['sign', '--key', key, '--merchant-id', 'my shop'], /merchantId.*visible ASCII/],
      [['sign', '--key', key, '--merchant-id', 'm', '--falsy', 'maybe'], /--falsy/],
      [['sign', '--key', key, '--merchant-id', 'm', '--profile', 'nope'], /--profile/],
      [['sign', '--key', key, '--merchant-id', 'm', '--padding', '--no-padding'], /--padding/],
      [['sign', '--key', key, '--merchant-id'], /--merchant-id/],
    ];
    for (const [args, message] of cases) {
      const r = run(args, '{}');
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.err, message, args.join(' '));
      assert.equal(r.out, '', args.join(' '));
    }
  });
});

describe('verify', () => {
  const cb = readVectors('callbacks.json');
  const pub = path.join(keys, 'rsa2048.public.pem');
  const valid = cb.cases.find((c) => c.name === 'valid callback');

  test('the valid callback: exit 0 and the model, as JSON and as text; headers as lines too', () => {
    const headers = write('valid.headers.json', JSON.stringify(valid.headers));
    const json = run(['verify', '--key', pub, '--headers', headers, '--json'], valid.body);
    assert.equal(json.code, 0, json.err);
    const out = JSON.parse(json.out);
    assert.equal(out.ok, true);
    const expected = JSON.parse(JSON.stringify(cjs.verifyCallback(valid.body, valid.headers, readKey(cb.verifying_key))));
    assert.deepEqual(out.model, expected);
    const lines = write('valid.headers.txt', `POST /callback HTTP/1.1\n${Object.entries(valid.headers).map(([n, v]) => `${n}: ${v}`).join('\r\n')}\n`);
    const text = run(['verify', '--key', `${path.join(keys, 'rsa3072.public.pem')},${pub}`, '--headers', lines], valid.body);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /^verified with key 2 of 2/);
  });

  test('every callback vector: exit 0 or 1 with the expected code and a hint', () => {
    for (const c of cb.cases) {
      const headers = write('case.headers.json', JSON.stringify(c.headers));
      const r = run(['verify', '--key', pub, '--headers', headers, '--json'], c.body);
      const out = JSON.parse(r.out);
      if (c.expect === 'ok') {
        assert.equal(r.code, 0, c.name);
      } else {
        assert.equal(r.code, 1, c.name);
        assert.equal(out.code, c.expect, c.name);
        assert.equal(out.ok, false);
      }
    }
  });

  test('a tampered body: INVALID_SIGNATURE and a hint on stderr, exit 1', () => {
    const headers = write('tampered.headers.json', JSON.stringify(valid.headers));
    const r = run(['verify', '--key', pub, '--headers', headers], valid.body.replace('150000', '150001'));
    assert.equal(r.code, 1);
    assert.match(r.err, /^INVALID_SIGNATURE: /);
    assert.match(r.err, /\nhint: /);
  });

  test('headers from stdin need --body; bad arguments exit 2', () => {
    const headers = write('stdin.headers.json', JSON.stringify(valid.headers));
    const body = write('stdin.body.json', valid.body);
    assert.equal(run(['verify', '--key', pub, '--headers', '-', '--body', body], JSON.stringify(valid.headers)).code, 0);
    const both = run(['verify', '--key', pub, '--headers', '-'], JSON.stringify(valid.headers));
    assert.equal(both.code, 2);
    assert.match(both.err, /--body/);
    assert.match(run(['verify', '--headers', headers], valid.body).err, /--key/);
    assert.match(run(['verify', '--key', pub], valid.body).err, /--headers/);
    assert.equal(run(['verify', '--key', pub, '--headers', write('bad.headers', 'no colon here')], valid.body).code, 2);
    assert.equal(run(['verify', '--key', pub, '--headers', headers, '--tolerance', 'x'], valid.body).code, 2);
  });
});

describe('diagnose', () => {
  test('names the profile a callback was signed with', () => {
    const { body } = readVectors('callbacks.json').cases.find((c) => c.name === 'valid callback');
    const signed = run(['sign', '--key', path.join(keys, 'rsa2048.pkcs8.pem'), '--merchant-id', 'm', '--profile', 'public-js-client', '--json'], body);
    assert.equal(signed.code, 0, signed.err);
    const headers = write('diag.headers.json', JSON.stringify(JSON.parse(signed.out).headers));
    const args = ['diagnose', '--key', path.join(keys, 'rsa2048.public.pem'), '--headers', headers];
    const json = run([...args, '--json'], body);
    assert.equal(json.code, 0, json.err);
    const out = JSON.parse(json.out);
    assert.equal(out.matched, true);
    assert.equal(out.profile, 'public-js-client');
    const text = run(args, body);
    assert.match(text.out, /^matched: the profile public-js-client, key 1 \(rsa, der token\)/);
    // Verifying with the default rules fails; with the profile it passes.
    assert.equal(run(['verify', '--key', path.join(keys, 'rsa2048.public.pem'), '--headers', headers], body).code, 1);
    assert.equal(run(['verify', '--key', path.join(keys, 'rsa2048.public.pem'), '--headers', headers, '--profile', 'public-js-client'], body).code, 0);
  });

  test("hints name the command line, not the package's functions: verify's INVALID_SIGNATURE names `payment-intake diagnose`", () => {
    const headers = write('hint.headers.json', JSON.stringify(readVectors('callbacks.json').cases.find((c) => c.name === 'valid callback').headers));
    const { body } = readVectors('callbacks.json').cases.find((c) => c.name === 'valid callback');
    const pub = path.join(keys, 'rsa2048.public.pem');
    let library;
    try {
      cjs.verifyCallback(body.replace('150000', '150001'), JSON.parse(fs.readFileSync(headers, 'utf8')), readKey('keys/rsa2048.public.pem'));
    } catch (e) {
      library = e;
    }
    assert.match(library.hint, /diagnoseCallback/, 'the package names its function (else this test tests nothing)');
    const text = run(['verify', '--key', pub, '--headers', headers], body.replace('150000', '150001'));
    assert.equal(text.code, 1);
    assert.match(text.err, /\nhint: .*`payment-intake diagnose` \(with the same --key and --headers\)/);
    assert.doesNotMatch(text.err, /diagnoseCallback/);
    const json = JSON.parse(run(['verify', '--key', pub, '--headers', headers, '--json'], body.replace('150000', '150001')).out);
    assert.equal(json.code, 'INVALID_SIGNATURE');
    assert.doesNotMatch(`${json.message} ${json.hint}`, /diagnoseCallback/);
    assert.match(json.hint, /payment-intake diagnose/);
  });

  test("an HMAC signature in hex: verify's hint gives the flag --signature-encoding hex, not the package's option", () => {
    const { body } = readVectors('callbacks.json').cases.find((c) => c.name === 'valid callback');
    const secret = write('hex.secret', 'project-secret-0123456789\n');
    const signed = JSON.parse(run(['sign', '--hmac-secret', secret, '--merchant-id', 'm', '--signature-encoding', 'hex', '--json'], body).out);
    const headers = write('hex.headers.json', JSON.stringify(signed.headers));
    const r = run(['verify', '--hmac-secret', secret, '--headers', headers], body);
    assert.equal(r.code, 1);
    assert.match(r.err, /\nhint: .*give --signature-encoding hex/);
    assert.doesNotMatch(r.err, /signatureEncoding/);
    assert.equal(run(['verify', '--hmac-secret', secret, '--headers', headers, '--signature-encoding', 'hex'], body).code, 0);
  });

  test('diagnose says to pass --profile NAME (or the rule flags) to verify, and those flags verify', () => {
    // A boolean and a float: leaves on which the rules differ, so only the signer's rules verify.
    const valid = JSON.parse(readVectors('callbacks.json').cases.find((c) => c.name === 'valid callback').body);
    const body = JSON.stringify({ ...valid, payment_info: { ...valid.payment_info, is_test: true, rate: 1.5 } });
    const pub = path.join(keys, 'rsa2048.public.pem');
    for (const [flags, expected] of [[['--profile', 'public-js-client'], /verify with: payment-intake verify --profile public-js-client /], [['--booleans', 'lower', '--digest', 'double'], /verify with: payment-intake verify (--[a-z-]+ [a-z0-9]+ |--(no-)?padding )+\(and the same --key, --headers\)\n$/]]) {
      const signed = run(['sign', '--key', path.join(keys, 'rsa2048.pkcs8.pem'), '--merchant-id', 'm', ...flags, '--json'], body);
      const headers = write(`diag-${flags.join('')}.headers.json`, JSON.stringify(JSON.parse(signed.out).headers));
      const text = run(['diagnose', '--key', pub, '--headers', headers], body);
      assert.equal(text.code, 0, text.err);
      assert.match(text.out, /\nhint: the sender uses these rules \(`options` with --json\); pass them to `payment-intake verify` as --profile NAME, or as the rule flags/);
      assert.doesNotMatch(text.out, /verifyCallback/);
      assert.match(text.out, expected);
      const out = JSON.parse(run(['diagnose', '--key', pub, '--headers', headers, '--json'], body).out);
      assert.doesNotMatch(out.hint, /verifyCallback/);
      assert.equal(run(['verify', '--key', pub, '--headers', headers, ...out.verifyFlags], body).code, 0, out.verifyFlags.join(' '));
    }
  });

  test('the wrong key: no match, cause key, exit 1', () => {
    const cb = readVectors('callbacks.json');
    const c = cb.cases.find((x) => x.name === 'valid callback');
    const headers = write('diag2.headers.json', JSON.stringify(c.headers));
    const r = run(['diagnose', '--key', path.join(keys, 'attacker2048.public.pem'), '--headers', headers, '--json'], c.body);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.out);
    assert.equal(out.matched, false);
    assert.equal(typeof out.hint, 'string');
  });
});

describe('validate', () => {
  const payin = {
    general: { project_id: 'prj', payment_id: 'order-7' },
    payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' },
    customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
  };

  test('a valid payin body: exit 0, the report', () => {
    const r = run(['validate', '/api/v1/payment/p2p/payin', '--json'], JSON.stringify(payin));
    assert.equal(r.code, 0, r.out);
    assert.deepEqual(JSON.parse(r.out), cjs.validateRequest('/api/v1/payment/p2p/payin', payin));
    assert.match(run(['validate', '/api/v1/payment/p2p/payin'], JSON.stringify(payin)).out, /^valid: 0 error/);
  });

  test('an invalid one: exit 1, errors with their paths', () => {
    const bad = { ...payin, payment: { method: 'card-p2p', currency: 'RUB' } };
    const r = run(['validate', '/api/v1/payment/p2p/payin', '--json'], JSON.stringify(bad));
    assert.equal(r.code, 1);
    const report = JSON.parse(r.out);
    assert.equal(report.valid, false);
    assert.ok(report.errors.some((e) => e.path === 'payment.amount'), r.out);
    const text = run(['validate', '/api/v1/payment/p2p/payin'], JSON.stringify(bad));
    assert.equal(text.code, 1);
    assert.match(text.out, /^not valid: .*\n {2}error payment\.amount: /);
  });

  test('no operation, or two: exit 2', () => {
    assert.equal(run(['validate'], '{}').code, 2);
    assert.equal(run(['validate', 'a', 'b'], '{}').code, 2);
  });

  test('--allow-loopback-http: an http:// loopback callback URL is the warning LOOPBACK_HTTP, as the package says, not the error NOT_HTTPS', () => {
    const local = { ...payin, general: { ...payin.general, merchant_callback_url: 'http://127.0.0.1:8000/callbacks' } };
    const strict = run(['validate', '/api/v1/payment/p2p/payin', '--json'], JSON.stringify(local));
    assert.equal(strict.code, 1, strict.out);
    assert.deepEqual(JSON.parse(strict.out).errors.map((e) => e.code), ['NOT_HTTPS']);
    const allowed = run(['validate', '/api/v1/payment/p2p/payin', '--allow-loopback-http', '--json'], JSON.stringify(local));
    assert.equal(allowed.code, 0, allowed.out + allowed.err);
    assert.deepEqual(JSON.parse(allowed.out), cjs.validateRequest('/api/v1/payment/p2p/payin', local, { allowLoopbackHttp: true }));
    assert.deepEqual(JSON.parse(allowed.out).warnings.map((e) => e.code), ['LOOPBACK_HTTP']);
    assert.match(run(['validate', '--help']).out, /--allow-loopback-http +/);
  });

  test('an unknown operation: "did you mean" the closest operation path; none when nothing is close', () => {
    for (const [given, closest] of [['/api/v1/payment/p2p/payins', '/api/v1/payment/p2p/payin'], ['/api/v1/widget/payin/inf', '/api/v1/widget/payin/info'], ['api/v1/balance/info', '/api/v1/balance/info'], ['/API/V1/BANK/ALL', '/api/v1/bank/all']]) {
      const r = run(['validate', given, '--json'], JSON.stringify(payin));
      assert.equal(r.code, 1, r.out);
      const [issue] = JSON.parse(r.out).errors;
      assert.equal(issue.code, 'UNKNOWN_OPERATION');
      assert.equal(issue.suggestion, closest, given);
      assert.match(issue.message, new RegExp(`did you mean ${closest.replace(/[/]/g, '\\/')}\\?$`));
      assert.match(run(['validate', given], JSON.stringify(payin)).out, new RegExp(`UNKNOWN_OPERATION: .*did you mean ${closest.replace(/[/]/g, '\\/')}\\?`));
    }
    const far = JSON.parse(run(['validate', 'frobnicate', '--json'], '{}').out).errors[0];
    assert.equal(far.code, 'UNKNOWN_OPERATION');
    assert.equal(far.suggestion, undefined);
    assert.doesNotMatch(far.message, /did you mean/);
  });
});

describe('help and bad arguments', () => {
  test('--help of the tool and of every subcommand: exit 0', () => {
    const top = run(['--help']);
    assert.equal(top.code, 0);
    for (const name of ['keygen', 'sign', 'verify', 'diagnose', 'validate']) {
      assert.ok(top.out.includes(`payment-intake ${name} `), name);
      const r = run([name, '--help']);
      assert.equal(r.code, 0, name);
      assert.match(r.out, new RegExp(`^Usage: payment-intake ${name} `), name);
      assert.match(r.out, /--json/, name);
    }
    assert.match(run(['sign', '--help']).out, /trailing newline/);
  });

  test('an unknown flag, an unknown command, no command: exit 2 with a message on stderr', () => {
    for (const name of ['keygen', 'sign', 'verify', 'diagnose', 'validate']) {
      const r = run([name, '--frobnicate']);
      assert.equal(r.code, 2, name);
      assert.match(r.err, /--frobnicate/, name);
      assert.match(r.err, new RegExp(`payment-intake ${name} --help`), name);
    }
    assert.equal(run(['sandbox']).code, 2);
    assert.equal(run([]).code, 2);
  });
});

describe('debugger', () => {
  // A copy of the package, with dot-files inside it and a file next to it that must not be served.
  const copy = path.join(tmp, 'debugger', 'payment-intake');
  fs.cpSync(pkgDir, copy, { recursive: true });
  fs.writeFileSync(path.join(copy, 'www', '.secret'), 'secret');
  fs.writeFileSync(path.join(copy, 'web', '.env'), 'secret');
  fs.writeFileSync(path.join(copy, '..', 'outside.html'), 'secret');

  /** GET with the path sent as written (no URL normalisation on this side). */
  const get = (base, urlPath) => new Promise((resolve, reject) => {
    http.get(new URL(base), { path: urlPath }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });

  test('serves the page and the web build from the package; nothing else', async () => {
    const { child, line } = await serve(process.execPath, [path.join(copy, 'cli.js'), 'debugger', '--port', '0']);
    try {
      const url = line.match(/(http:\/\/127\.0\.0\.1:\d+\/www\/)/)?.[1];
      assert.ok(url, line);
      const page = await get(url, '/www/');
      assert.equal(page.status, 200);
      assert.match(page.type, /^text\/html/);
      assert.match(page.body.toString(), /Content-Security-Policy/);
      assert.match(page.body.toString(), /integration debugger/);
      const src = page.body.toString().match(/<script type="module" src="([^"]+)"/)[1];
      const app = await get(url, `/www/${src}`);
      assert.equal(app.status, 200);
      assert.match(app.type, /^text\/javascript/);
      assert.match(app.body.toString(), /from '\.\.\/pkg\/web\/index\.js'/);
      const entry = await get(url, '/pkg/web/index.js');
      assert.equal(entry.status, 200);
      assert.match(entry.type, /^text\/javascript/);
      const wasm = await get(url, '/pkg/web/payment_intake_bg.wasm');
      assert.equal(wasm.status, 200);
      assert.equal(wasm.type, 'application/wasm');
      assert.ok(wasm.body.equals(fs.readFileSync(path.join(copy, 'web', 'payment_intake_bg.wasm'))));
      assert.equal((await get(url, '/www/style.css')).type, 'text/css; charset=utf-8');
      assert.equal((await get(url, '/')).status, 302);
      for (const bad of ['/www/.secret', '/pkg/web/.env', '/www/%2esecret', '/www/../cli.js', '/www/..%2Fcli.js', '/www/..%2F..%2Foutside.html',
        '/pkg/web/..%2F..%2Foutside.html', '/pkg/web/%2E%2E/package.json', '/cli.js', '/package.json', '/pkg/node/index.js', '/www/%E0%A4%A', '/www/a%00b']) {
        assert.equal((await get(url, bad)).status, 404, bad);
      }
    } finally {
      assert.equal(await stop(child), 0, 'stops cleanly on SIGTERM');
    }
  });

  test('--help exits 0; a bad flag or port exits 2', () => {
    const help = run(['debugger', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: payment-intake debugger /);
    assert.match(help.out, /--port P/);
    assert.match(run(['--help']).out, /payment-intake debugger /);
    for (const args of [['--frobnicate'], ['--port', 'x'], ['--port', '65536'], ['--port']]) {
      const r = run(['debugger', ...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.err, /payment-intake debugger --help/);
    }
  });

  test('a port in use: exit 1 with a message', async () => {
    const busy = http.createServer();
    await new Promise((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const r = run(['debugger', '--port', String(busy.address().port)]);
      assert.equal(r.code, 1);
      assert.match(r.err, /cannot listen on 127\.0\.0\.1:\d+: EADDRINUSE/);
    } finally {
      busy.close();
    }
  });
});

describe('sandbox', () => {
  const merchant = cjs.SigningKey.fromPem(fs.readFileSync(path.join(keys, 'rsa2048.pkcs8.pem'), 'utf8'));
  const args = (...more) => [cli, 'sandbox', '--merchant-key', path.join(keys, 'rsa2048.public.pem'), '--merchant-id', 'm-1', ...more];
  const signedPost = (url, body) => {
    const signed = cjs.signRequest(body, merchant, { merchantId: 'm-1' });
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...signed.headers }, body: signed.body });
  };

  test('--json: a ready line with the URL; answers signed requests; logs each move; writes the service key; stops on SIGTERM', async () => {
    const keyOut = path.join(tmp, 'service.pub.pem');
    const { child, line, until } = await serve(process.execPath, args('--service-key', path.join(keys, 'rsa3072.pkcs8.pem'), '--service-public-key-out', keyOut, '--json', '--time-scale', '50'));
    let code;
    try {
      const ready = JSON.parse(line);
      assert.equal(ready.event, 'ready');
      assert.match(ready.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(ready.merchantId, 'm-1');
      assert.match(ready.note, /not for production/);
      const service = cjs.SigningKey.fromPem(fs.readFileSync(path.join(keys, 'rsa3072.pkcs8.pem'), 'utf8'));
      assert.equal(fs.readFileSync(keyOut, 'utf8'), service.publicKeyPem(), 'the public half of --service-key');
      const balance = await signedPost(`${ready.url}/api/v1/balance/info`, { general: { project_id: 'p' } });
      assert.equal(balance.status, 200);
      const payin = await signedPost(`${ready.url}/api/v1/payment/p2p/payin`, {
        general: { project_id: 'p', payment_id: 'cli-1' },
        payment: { method: 'card-p2p', amount: 1000, currency: 'RUB' },
        customer: { id: 'u', ip_address: '203.0.113.1', country: 'RU' },
      });
      assert.equal(payin.status, 200);
      const lines = (await until(/"awaiting_confirm"/)).split('\n').slice(1).filter(Boolean).map((l) => JSON.parse(l));
      assert.deepEqual(lines.map((l) => [l.event, l.paymentId, l.subStatus]), [['move', 'cli-1', 'requisites'], ['move', 'cli-1', 'awaiting_confirm']]);
    } finally {
      code = await stop(child);
    }
    assert.equal(code, 0, 'stops cleanly on SIGTERM');
  });

  test('text output says where it runs, that state is in memory and not for production', async () => {
    const { child, line, until } = await serve(process.execPath, args('--port', '0'));
    try {
      assert.match(line, /^payment-intake sandbox: http:\/\/127\.0\.0\.1:\d+ \(merchant id m-1; /);
      assert.match(await until(/for production/), /in memory.*Nothing here is for production/s);
    } finally {
      await stop(child);
    }
  });

  test('--help exits 0; bad arguments exit 2 naming the problem', () => {
    const help = run(['sandbox', '--help']);
    assert.equal(help.code, 0);
    for (const flag of ['--merchant-key FILE', '--service-key FILE', '--service-public-key-out FILE', '--time-scale N', '--duplicate-callbacks', '--shuffle-callbacks', '--concurrent-callbacks N', '--profile NAME', '--timestamp-tolerance S', '--faults FILE']) {
      assert.ok(help.out.includes(flag), flag);
    }
    const cases = [
      [['sandbox'], /--merchant-key FILE .* is required/],
      [['sandbox', '--merchant-key', path.join(tmp, 'missing.pem')], /--merchant-key: cannot read/],
      [['sandbox', '--merchant-key', path.join(keys, 'rsa2048.pkcs8.pem')], /public key, not a private one/],
      [args('--port', 'x').slice(1), /--port must be/],
      [args('--time-scale', '0').slice(1), /--time-scale must be a number above 0/],
      [args('--time-scale', 'fast').slice(1), /--time-scale/],
      [args('--profile', 'nope').slice(1), /--profile must be one of spec, /],
      [args('--frobnicate').slice(1), /--frobnicate/],
      // Refused by the sandbox as it starts (INVALID_OPTION), still a bad argument.
      [['sandbox', '--merchant-key', path.join(keys, 'rsa2048.public.pem'), '--merchant-id', 'my shop'], /cannot start: INVALID_OPTION .*merchantId/],
      [args('--timestamp-tolerance', 'soon').slice(1), /--timestamp-tolerance must be whole seconds or 'off'/],
      [args('--faults', path.join(tmp, 'missing-faults.json')).slice(1), /--faults: cannot read/],
      [args('--concurrent-callbacks', '0').slice(1), /--concurrent-callbacks must be a whole number from 1, got '0'/],
      [args('--concurrent-callbacks', 'many').slice(1), /--concurrent-callbacks must be a whole number from 1/],
      [args('--faults', write('faults-not-json.json', '[{')).slice(1), /--faults: .* is not JSON/],
      [args('--faults', write('faults-bad.json', '[{"type":"explode"}]')).slice(1), /cannot start: INVALID_OPTION .*faults\[0\]\.type must be one of/],
    ];
    for (const [a, message] of cases) {
      const r = run(a);
      assert.equal(r.code, 2, a.join(' '));
      assert.match(r.err, message, a.join(' '));
      assert.match(r.err, /payment-intake sandbox --help/);
    }
  });

  test('--service-public-key-out never overwrites a private key, another file or a link; a public key of an earlier run, yes', async () => {
    const privatePem = fs.readFileSync(path.join(keys, 'rsa2048.pkcs8.pem'), 'utf8');
    const kept = [
      [write('out-private.pem', privatePem), /exists and is not a public key PEM/],
      [write('out-notes.txt', 'my notes\n'), /exists and is not a public key PEM/],
      [tmp, /is not a file/],
    ];
    const link = path.join(tmp, 'out-link.pem');
    fs.rmSync(link, { force: true });
    fs.symlinkSync(path.join(tmp, 'out-private.pem'), link);
    kept.push([link, /is a symbolic link/]);
    for (const [file, message] of kept) {
      const before = fs.lstatSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined;
      const r = run(args('--service-public-key-out', file).slice(1));
      assert.equal(r.code, 2, file);
      assert.match(r.err, message, file);
      assert.match(r.err, /it is not overwritten/);
      if (before !== undefined) assert.equal(fs.readFileSync(file, 'utf8'), before, `${file} is unchanged`);
    }
    assert.equal(fs.readFileSync(path.join(tmp, 'out-private.pem'), 'utf8'), privatePem);
    // The usual restart: the file holds the service key of an earlier run.
    const earlier = write('out-earlier.pub.pem', fs.readFileSync(path.join(keys, 'rsa2048.public.pem'), 'utf8'));
    const { child, line } = await serve(process.execPath, args('--service-public-key-out', earlier, '--json'));
    try {
      assert.equal(JSON.parse(line).event, 'ready');
      assert.match(fs.readFileSync(earlier, 'utf8'), /^-----BEGIN PUBLIC KEY-----/);
      assert.notEqual(fs.readFileSync(earlier, 'utf8'), fs.readFileSync(path.join(keys, 'rsa2048.public.pem'), 'utf8'), 'the new service key replaced it');
    } finally {
      await stop(child);
    }
  });

  test('--faults FILE and --timestamp-tolerance off reach the sandbox', async () => {
    const faults = write('faults-ok.json', JSON.stringify([{ type: 'status', status: 503, count: 1 }]));
    const { child, line } = await serve(process.execPath, args('--faults', faults, '--timestamp-tolerance', 'off', '--json'));
    try {
      const { url } = JSON.parse(line);
      assert.deepEqual((await (await fetch(`${url}/sandbox/faults`)).json()).faults.map((f) => [f.type, f.status, f.remaining]), [['status', 503, 1]]);
      // An unsigned, hour-old request: the fault answers first, as it does for any request.
      const first = await fetch(`${url}/api/v1/balance/info`, { method: 'POST', body: '{}' });
      assert.equal(first.status, 503);
      assert.deepEqual((await (await fetch(`${url}/sandbox/faults`)).json()).faults.map((f) => f.remaining), [0]);
      // Signed an hour ago: served with a warning, not refused, with 'off'.
      const signed = cjs.signRequest({ general: { project_id: 'prj_1' } }, merchant, { merchantId: 'm-1', timestamp: Math.floor(Date.now() / 1000) - 3600 });
      const late = await fetch(`${url}/api/v1/balance/info`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed.headers }, body: signed.body });
      assert.equal(late.status, 200);
      assert.match(late.headers.get('x-sandbox-warning') ?? '', /TIMESTAMP_SKEW/);
    } finally {
      await stop(child);
    }
  });

  test('--duplicate-callbacks, --shuffle-callbacks and --concurrent-callbacks N reach the sandbox (the ready line says so)', async () => {
    const plain = await serve(process.execPath, args('--json'));
    try {
      assert.deepEqual(JSON.parse(plain.line).callbacks, { duplicate: false, shuffle: false, concurrent: 0, lose: 0 });
    } finally {
      await stop(plain.child);
    }
    const { child, line } = await serve(process.execPath, args('--duplicate-callbacks', '--shuffle-callbacks', '--concurrent-callbacks', '8', '--json'));
    try {
      assert.deepEqual(JSON.parse(line).callbacks, { duplicate: true, shuffle: true, concurrent: 8, lose: 0 });
    } finally {
      await stop(child);
    }
  });

  test('a port in use: exit 1 with a message', async () => {
    const busy = http.createServer();
    await new Promise((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const r = spawnSync(process.execPath, args('--port', String(busy.address().port)), { encoding: 'utf8' });
      assert.equal(r.status, 1);
      assert.match(r.stderr, /cannot start: .*EADDRINUSE/);
    } finally {
      busy.close();
    }
  });
});

describe('npx payment-intake, from the packed tarball, offline', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-intake-cli-install-'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const exec = (cmd, args, cwd, input) => execFileSync(cmd, args, { cwd, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  const app = path.join(work, 'app');

  test('installs, and `npx payment-intake --help` and `sign` run', () => {
    const packed = JSON.parse(exec(npm, ['pack', '--json', '--pack-destination', work], pkgDir));
    const cliFile = packed[0].files.find((f) => f.path === 'cli.js');
    assert.ok(cliFile, 'cli.js is packed');
    for (const f of ['www/index.html', 'www/app.js', 'www/style.css', 'sandbox/index.mjs', 'sandbox/index.d.ts']) assert.ok(packed[0].files.some((x) => x.path === f), `${f} is packed`);
    if (process.platform !== 'win32') assert.equal(cliFile.mode & 0o111, 0o111, 'cli.js is executable');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    exec(npm, ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', path.join(work, packed[0].filename)], app);
    assert.match(exec(npx, ['--offline', 'payment-intake', '--help'], app), /payment-intake sign /);
    const v = readVectors('signatures.json').find((x) => x.key === 'keys/rsa2048.pkcs8.pem' && Object.keys(x.options).length === 0);
    const out = exec(npx, ['--offline', 'payment-intake', 'sign', '--key', path.join(keys, 'rsa2048.pkcs8.pem'), '--merchant-id', v.merchant_id,
      '--timestamp', v.headers['x-access-timestamp'], '--json'], app, bodyText(v.body));
    assert.deepEqual(JSON.parse(out).headers, v.headers);
  });

  /** `npx payment-intake ARGS`: `{ code, out, err }`. */
  const npxRun = (args, input = '') => {
    const r = spawnSync(npx, ['--offline', 'payment-intake', ...args], { cwd: app, input, encoding: 'utf8' });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  test('npx: keygen, verify, diagnose and validate each do their work; bad arguments exit 2', () => {
    assert.ok(fs.existsSync(path.join(app, 'node_modules', 'payment-intake')), 'installed by the test before');
    const dir = fs.mkdtempSync(path.join(work, 'keys-'));
    const keygen = npxRun(['keygen', '--out-dir', dir, '--json']);
    assert.equal(keygen.code, 0, keygen.err);
    assert.equal(cjs.VerifyingKey.fromPem(fs.readFileSync(JSON.parse(keygen.out).public, 'utf8')).bits, 2048);
    const callbacks = readVectors('callbacks.json');
    const good = callbacks.cases.find((c) => c.expect === 'ok');
    const headers = path.join(work, 'headers.json');
    fs.writeFileSync(headers, JSON.stringify(good.headers));
    const verifyArgs = ['--key', path.join(root, 'tests', 'vectors', callbacks.verifying_key), '--headers', headers, '--json'];
    const verified = npxRun(['verify', ...verifyArgs], good.body);
    assert.equal(verified.code, 0, verified.err);
    assert.equal(JSON.parse(verified.out).model.paymentId, 'order-10045');
    assert.equal(npxRun(['verify', ...verifyArgs], good.body.replace('150000', '150001')).code, 1, 'a changed body fails');
    const diagnosed = npxRun(['diagnose', ...verifyArgs], good.body);
    assert.equal(diagnosed.code, 0, diagnosed.err);
    assert.equal(JSON.parse(diagnosed.out).profile, 'spec');
    const valid = npxRun(['validate', '/api/v1/balance/info', '--json'], '{"general":{"project_id":"p"}}');
    assert.equal(valid.code, 0, valid.err);
    assert.equal(JSON.parse(valid.out).valid, true);
    assert.equal(npxRun(['validate', '/api/v1/balance/info'], '{"general":{}}').code, 1);
    for (const args of [['keygen', '--bits', '1'], ['sign'], ['verify'], ['validate'], ['debugger', '--port', 'x'], ['sandbox'], ['nonsense']]) {
      assert.equal(npxRun(args).code, 2, args.join(' '));
    }
  });

  test('npx: debugger and sandbox serve until stopped', async () => {
    assert.ok(fs.existsSync(path.join(app, 'node_modules', 'payment-intake')), 'installed by the test before');
    const page = await serve(npx, ['--offline', 'payment-intake', 'debugger', '--port', '0'], { cwd: app, detached: true });
    try {
      const url = page.line.match(/(http:\/\/127\.0\.0\.1:\d+\/www\/)/)[1];
      assert.match(await (await fetch(url)).text(), /integration debugger/);
    } finally {
      await stop(page.child, true);
    }
    const box = await serve(npx, ['--offline', 'payment-intake', 'sandbox', '--merchant-key', path.join(keys, 'rsa2048.public.pem'), '--json'], { cwd: app, detached: true });
    try {
      const { url } = JSON.parse(box.line);
      const root = await (await fetch(url)).json();
      assert.equal(root.operations.length, 17);
    } finally {
      await stop(box.child, true);
    }
  });
});

test("the CLI's rule choices are the library's: each one it offers is accepted, and the library's list for each is the same", () => {
  const help = spawnSync(process.execPath, [path.join(root, 'pkg', 'cli.js'), 'sign', '--help'], { encoding: 'utf8' }).stdout;
  const offered = [...help.matchAll(/^ {2}--([a-z-]+) ([a-z0-9]+(?:\|[a-z0-9]+)+) /gm)].map((m) => [m[1], m[2].split('|')]);
  assert.ok(offered.length >= 7, help);
  const names = offered.map(([flag]) => flag).sort();
  assert.deepEqual(names, ['booleans', 'digest', 'falsy', 'numbers', 'order', 'signature-encoding', 'token']);
  const profiles = help.match(/--profile NAME +start from a named profile: (.*)$/m)[1].split(', ');
  assert.deepEqual(profiles, api.profiles().map((p) => p.name));
  for (const [flag, values] of offered) {
    const option = flag.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    for (const value of values) api.canonicalEntries('{}', { [option]: value });
    const error = throwsCode(() => api.canonicalEntries('{}', { [option]: 'neither' }), 'INVALID_OPTION');
    assert.match(error.message, new RegExp(`use one of ${values.join(', ')}$`), flag);
  }
});

test('the CLI is argument parsing plus one small file per command, shipped in pkg/cli/', () => {
  const usage = run(['--help']).out;
  const commands = [...usage.matchAll(/^ {2}payment-intake ([a-z]+) /gm)].map((m) => m[1]);
  assert.deepEqual(commands, ['keygen', 'sign', 'verify', 'diagnose', 'validate', 'sandbox', 'call', 'debugger']);
  for (const name of commands) {
    const file = path.join(root, 'pkg-template', 'cli', `${name}.cjs`);
    assert.ok(fs.existsSync(file), `${name} has its file`);
    assert.ok(fs.readFileSync(path.join(pkgDir, 'cli', `${name}.cjs`)).equals(fs.readFileSync(file)), `pkg/cli/${name}.cjs is shipped`);
  }
  for (const file of fs.readdirSync(path.join(root, 'pkg-template', 'cli'))) {
    const lines = fs.readFileSync(path.join(root, 'pkg-template', 'cli', file), 'utf8').split('\n').length;
    assert.ok(lines <= 200, `pkg-template/cli/${file}: ${lines} lines`);
  }
  assert.ok(fs.readFileSync(cli, 'utf8').split('\n').length <= 10, 'pkg/cli.js only starts cli/main.cjs');
  // The choices are one table, the package's optionTable(): the help prints them from it, and
  // parsing refuses anything else; args.cjs writes none of them.
  const args = fs.readFileSync(path.join(root, 'pkg-template', 'cli', 'args.cjs'), 'utf8');
  assert.equal((args.match(/'codepoint'|'utf16'|'callback-docs'/g) ?? []).length, 0, 'the choices are read from optionTable(), not written in args.cjs');
  assert.match(args, /optionTable\(\)/, 'args.cjs reads the option table');
});
