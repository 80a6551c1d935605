// Forged callbacks that keep a genuine signature valid, through every verifier.
//
// The corpus tests/fixtures/forgeries.json is written by an independent Python
// reference (no Rust or JS of this repository computes anything in it); every
// forgery there has exactly its genuine callback's signed message. Regenerate it
// with:
//
//   python3 scripts/forgery_corpus.py
//
// For every case and verifier: the genuine body is verified (its model or its
// error recorded); each forgery must then throw (after the signature check only
// AMBIGUOUS_CALLBACK, INVALID_CALLBACK or a timestamp error) or return a model
// deep-equal to the genuine one (`verification` aside). With `allowAmbiguous`,
// every forgery that reads differently must say `verification.ambiguous`.
// Attack classes (see the script): forged-success, resplit, replay, malleability,
// empty-key, generic, timestamp. Set FORGERIES_REPORT=<file> to get the outcome
// table and every accepted forgery that reads differently as JSON.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

import { cjs, esm as api, modelEntries, modelMessage, pkgDir, root, valueToTree } from './helpers.mjs';

const FIXTURE = path.join(root, 'tests', 'fixtures', 'forgeries.json');
const REGENERATE = 'python3 scripts/forgery_corpus.py';

test('tests/fixtures/forgeries.json exists', () => {
  assert.ok(fs.existsSync(FIXTURE), `${FIXTURE} is missing: regenerate it with \`${REGENERATE}\``);
});

const corpus = fs.existsSync(FIXTURE) ? JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) : { cases: [], publicKeyPem: '' };
const KEY = corpus.publicKeyPem;

const web = await import(pathToFileURL(path.join(pkgDir, 'web', 'index.js')).href);
web.initSync({ module: fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm')) });

/** prepareCallback + node:crypto's RSA check: the model in `.callback`, the error in `.callbackError`. */
function viaPrepare(m) {
  return async (body, headers, keys, options) => {
    const prepared = m.prepareCallback(body, headers, keys, options);
    const pem = Array.isArray(keys) ? keys[prepared.keyIndex] : keys;
    const good = crypto.verify('sha256', Buffer.from(prepared.message, 'utf8'), pem, Buffer.from(prepared.signature));
    if (!good) throw Object.assign(new Error('the signature does not verify over prepared.message'), { code: 'INVALID_SIGNATURE' });
    if (prepared.callbackError !== null && prepared.callbackError !== undefined) {
      if (prepared.callback !== null) {
        throw Object.assign(new Error('prepareCallback: both .callback and .callbackError are set'), { code: 'TEST_SHAPE' });
      }
      throw prepared.callbackError;
    }
    if (!prepared.callback) throw Object.assign(new Error('prepareCallback: neither .callback nor .callbackError'), { code: 'TEST_SHAPE' });
    return prepared.callback;
  };
}

/** The verifiers: name -> (body, headers, keys, options) => Promise<model>. */
const VERIFIERS = {
  'import verifyCallback (node:crypto)': async (b, h, k, o) => api.verifyCallback(b, h, k, o),
  'import verifyCallback backend wasm': async (b, h, k, o) => api.verifyCallback(b, h, k, { ...o, backend: 'wasm' }),
  'import verifyCallbackAsync': (b, h, k, o) => api.verifyCallbackAsync(b, h, k, o),
  'import prepareCallback': viaPrepare(api),
  'require verifyCallback': async (b, h, k, o) => cjs.verifyCallback(b, h, k, o),
  'web verifyCallback (wasm)': async (b, h, k, o) => web.verifyCallback(b, h, k, o),
  'web verifyCallbackAsync (WebCrypto)': (b, h, k, o) => web.verifyCallbackAsync(b, h, k, o),
  'web prepareCallback': viaPrepare(web),
};

/** After the signature verified, only these refusals are right for a body with the genuine message. */
const AFTER_SIGNATURE = new Set(['AMBIGUOUS_CALLBACK', 'INVALID_CALLBACK', 'INVALID_TIMESTAMP', 'TIMESTAMP_OUT_OF_TOLERANCE']);
// The rules of the brief are KEY_SEPARATOR and VALUE_ENTRY_TEXT; the package may name more
// (EMPTY_TOP_LEVEL_KEY, UNREAD_AFTER_TEXT): any upper-case rule name is accepted and listed.
const rulesSeen = new Set();

async function outcome(run) {
  try {
    return { ok: await run() };
  } catch (error) {
    return { error };
  }
}

const withoutVerification = (model) => {
  const { verification, ...rest } = model;
  return rest;
};

const short = (value) => {
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 100 ? `${text.slice(0, 97)}...` : text;
};

/** Paths where two plain values differ. */
function differences(a, b, where = '', out = []) {
  if (isDeepStrictEqual(a, b)) return out;
  const objects = a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
  if (!objects) {
    out.push(`${where || '(model)'}: ${short(a)} -> ${short(b)}`);
    return out;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[key], b[key], where ? `${where}.${key}` : key, out);
  return out;
}

/** The package's message for a body and a timestamp text (undefined when it refuses the body). */
function packageMessage(body, timestamp, options) {
  try {
    return api.canonicalSteps(body, 1700000000, options?.options).encoded + timestamp;
  } catch {
    return undefined;
  }
}

/** The documented shape of AMBIGUOUS_CALLBACK; returns the problems found. */
function ambiguousShape(error, body) {
  const problems = [];
  if (!(error instanceof Error)) problems.push('not an Error');
  if (error.verified !== true) problems.push(`.verified is ${error.verified}`);
  const raw = typeof error.rawBody === 'string' ? error.rawBody : error.rawBody instanceof Uint8Array ? Buffer.from(error.rawBody).toString('utf8') : error.rawBody;
  if (raw !== body) problems.push('.rawBody is not the body text');
  if (!Array.isArray(error.ambiguities) || error.ambiguities.length === 0) problems.push('.ambiguities is not a non-empty array');
  else if (!error.ambiguities.every((a) => a && typeof a.path === 'string' && typeof a.rule === 'string' && /^[A-Z][A-Z_]*$/.test(a.rule))) problems.push(`.ambiguities entries: ${JSON.stringify(error.ambiguities)}`);
  else for (const a of error.ambiguities) rulesSeen.add(a.rule);
  if (typeof error.hint !== 'string' || error.hint === '') problems.push('.hint is missing');
  return problems;
}

const attackClass = (forgery) => forgery.attack.split('/')[0];
const statusOf = (body) => JSON.parse(body)?.status?.status;

// Results for the summary and the later tests: case name -> verifier -> { genuine, forgeries[] }.
const results = new Map();
const findings = []; // forgeries accepted with a model other than the genuine's
// Forgeries accepted while their genuine (with ';…:' text) is refused as AMBIGUOUS_CALLBACK (or,
// with allowAmbiguous, accepted as ambiguous): the unambiguous reading of an ambiguous message.
const rearrangements = [];
const flaggedGenuine = new Map(); // `${case}\t${verifier}` -> the genuine's model under allowAmbiguous

/** Leaves where two plain values differ: [{ path, from, to }]. */
function changedLeaves(a, b, where = '', out = []) {
  if (isDeepStrictEqual(a, b)) return out;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) changedLeaves(a[key], b[key], where ? `${where}.${key}` : key, out);
  } else {
    out.push({ path: where, from: a, to: b });
  }
  return out;
}

/** A change that only cuts a text at a `;` (the genuine's own ';…:' text, shortened). */
const isCut = ({ from, to }) => typeof from === 'string' && typeof to === 'string' && from.startsWith(to) && from.slice(to.length).startsWith(';');
const tally = new Map(); // `${class}\t${verifier}` -> { outcome: count }
const notes = new Set();

function count(klass, verifier, what) {
  const key = `${klass}\t${verifier}`;
  const row = tally.get(key) ?? {};
  row[what] = (row[what] ?? 0) + 1;
  tally.set(key, row);
}

describe('every forgery is refused or reads as its genuine callback', () => {
  for (const c of corpus.cases) {
    test(c.name, async () => {
      const failures = [];
      const perVerifier = {};
      results.set(c.name, perVerifier);
      for (const [verifier, verify] of Object.entries(VERIFIERS)) {
        const genuine = await outcome(() => verify(c.genuine.body, c.genuine.headers, KEY, c.options));
        perVerifier[verifier] = { genuine, forgeries: [] };
        if (!c.ambiguous && genuine.error) failures.push(`${verifier}: the genuine callback (no ';…:' text) is refused: ${genuine.error.code} ${genuine.error.message}`);
        if (c.ambiguous) {
          if (genuine.ok) failures.push(`${verifier}: the genuine callback with ';…:' text is accepted (AMBIGUOUS_CALLBACK expected)`);
          else if (genuine.error.code !== 'AMBIGUOUS_CALLBACK') failures.push(`${verifier}: genuine with ';…:' text: ${genuine.error.code} (AMBIGUOUS_CALLBACK expected): ${genuine.error.message}`);
          else for (const p of ambiguousShape(genuine.error, c.genuine.body)) failures.push(`${verifier}: genuine AMBIGUOUS_CALLBACK: ${p}`);
        }
        if (genuine.ok && c.idempotencyKey !== undefined && genuine.ok.idempotencyKey !== c.idempotencyKey) {
          failures.push(`${verifier}: genuine idempotencyKey ${JSON.stringify(genuine.ok.idempotencyKey)}, expected ${JSON.stringify(c.idempotencyKey)}`);
        }
        for (const forgery of c.forgeries) {
          const klass = attackClass(forgery);
          const result = await outcome(() => verify(forgery.body, forgery.headers, KEY, c.options));
          perVerifier[verifier].forgeries.push({ forgery, result });
          const label = `[${c.name}] [${forgery.attack}] [${verifier}]`;
          if (result.ok) {
            if (genuine.error?.code === 'AMBIGUOUS_CALLBACK' && result.ok.verification?.ambiguous === false) {
              rearrangements.push({ label, case: c.name, verifier, model: result.ok });
              count(klass, verifier, 'ACCEPTED (genuine refused as ambiguous)');
            } else if (genuine.error) {
              failures.push(`${label}: ACCEPTED, the genuine was refused (${genuine.error.code})`);
              findings.push({ case: c.name, attack: forgery.attack, verifier, genuine: genuine.error.code, differences: ['(the genuine callback is refused)'], body: forgery.body, timestamp: forgery.headers['x-access-timestamp'] });
              count(klass, verifier, 'ACCEPTED (genuine refused)');
            } else {
              const diff = differences(withoutVerification(genuine.ok), withoutVerification(result.ok));
              if (diff.length) {
                failures.push(`${label}: ACCEPTED WITH A DIFFERENT MODEL: ${diff.join('; ')}`);
                findings.push({ case: c.name, attack: forgery.attack, verifier, differences: diff, body: forgery.body, timestamp: forgery.headers['x-access-timestamp'] });
                count(klass, verifier, 'ACCEPTED DIFFERENT');
              } else {
                count(klass, verifier, 'accepted, same model');
              }
            }
            continue;
          }
          const { error } = result;
          if (!(error instanceof Error)) {
            failures.push(`${label}: thrown value is not an Error: ${String(error)}`);
            continue;
          }
          count(klass, verifier, error.code ?? '(no code)');
          const message = packageMessage(forgery.body, forgery.headers['x-access-timestamp'], c.options);
          const passedSignature = message === c.message;
          if (message !== undefined && message !== c.message) notes.add(`${c.name} / ${forgery.attack}: the package's message differs from the Python reference's`);
          if (passedSignature && !AFTER_SIGNATURE.has(error.code)) failures.push(`${label}: ${error.code} after the signature verified: ${error.message}`);
          if (error.code === 'AMBIGUOUS_CALLBACK') for (const p of ambiguousShape(error, forgery.body)) failures.push(`${label}: AMBIGUOUS_CALLBACK: ${p}`);
        }
      }
      // Every verifier reaches the same verdict on the genuine callback.
      const verdicts = Object.entries(perVerifier).map(([name, r]) => [name, r.genuine.ok ? withoutVerification(r.genuine.ok) : r.genuine.error.code]);
      for (const [name, verdict] of verdicts.slice(1)) {
        if (!isDeepStrictEqual(verdict, verdicts[0][1])) failures.push(`${name} and ${verdicts[0][0]} disagree on the genuine callback: ${differences(verdicts[0][1], verdict).join('; ')}`);
      }
      assert.equal(failures.length, 0, `${failures.length} failure(s):\n${failures.join('\n')}`);
    });
  }
});

describe('allowAmbiguous: true flags every forgery that reads differently', () => {
  for (const c of corpus.cases) {
    test(c.name, async () => {
      const failures = [];
      for (const [verifier, verify] of Object.entries(VERIFIERS)) {
        const options = { ...c.options, allowAmbiguous: true };
        const genuine = await outcome(() => verify(c.genuine.body, c.genuine.headers, KEY, options));
        if (genuine.ok) flaggedGenuine.set(`${c.name}\t${verifier}`, genuine.ok);
        if (genuine.ok) {
          const v = genuine.ok.verification ?? {};
          if (v.ambiguous !== c.ambiguous) failures.push(`${verifier}: genuine verification.ambiguous is ${v.ambiguous}, expected ${c.ambiguous}`);
          if (!Array.isArray(v.ambiguities) || (v.ambiguities.length > 0) !== c.ambiguous) failures.push(`${verifier}: genuine verification.ambiguities ${JSON.stringify(v.ambiguities)}`);
        } else if (!c.ambiguous || genuine.error.code !== 'INVALID_CALLBACK') {
          failures.push(`${verifier}: genuine refused with allowAmbiguous: ${genuine.error?.code} ${genuine.error?.message}`);
        }
        for (const forgery of c.forgeries) {
          const result = await outcome(() => verify(forgery.body, forgery.headers, KEY, options));
          if (!result.ok) continue;
          const label = `[${c.name}] [${forgery.attack}] [${verifier}]`;
          const v = result.ok.verification ?? {};
          const differs = !genuine.ok || differences(withoutVerification(genuine.ok), withoutVerification(result.ok)).length > 0;
          if (differs && (v.ambiguous !== true || !Array.isArray(v.ambiguities) || v.ambiguities.length === 0)) {
            const diff = genuine.ok ? differences(withoutVerification(genuine.ok), withoutVerification(result.ok)) : ['(the genuine is refused)'];
            const message = `${label} (allowAmbiguous): reads differently and verification.ambiguous is ${v.ambiguous}: ${diff.join('; ')}`;
            // The genuine is ambiguous itself and this is its unambiguous reading: judged below.
            if (!(genuine.ok?.verification?.ambiguous === true && v.ambiguous === false)) failures.push(message);
          }
          if (v.ambiguous === false && !isDeepStrictEqual(v.ambiguities, [])) failures.push(`${label}: ambiguous false with ambiguities ${JSON.stringify(v.ambiguities)}`);
        }
      }
      assert.equal(failures.length, 0, `${failures.length} failure(s):\n${failures.join('\n')}`);
    });
  }
});

// Kept apart from the first test: when the genuine callback itself carries ';…:' text, it
// is refused, and its message may still have an unambiguous reading (that text cut at a
// ';' and the rest made members). No verifier can tell that body from one the service
// sent. A reading that only cuts the text is the residual SECURITY.md documents (listed,
// as a todo); one that changes any other field of the model (requisites, currency, a
// masked flag...) is a failure. Each entry names the case, attack, verifier and fields.
let judged;
function judgedRearrangements() {
  if (judged) return judged;
  const changing = [];
  const cutting = [];
  for (const r of rearrangements) {
    const genuine = flaggedGenuine.get(`${r.case}\t${r.verifier}`);
    const changes = genuine ? changedLeaves(withoutVerification(genuine), withoutVerification(r.model)) : [{ path: '(genuine not read with allowAmbiguous)' }];
    const line = `${r.label}: accepted while the genuine is refused as AMBIGUOUS_CALLBACK: ${changes.map((x) => `${x.path}: ${short(x.from)} -> ${short(x.to)}`).join('; ')}`;
    (changes.every(isCut) ? cutting : changing).push(line);
    findings.push({ case: r.case, attack: r.label, verifier: r.verifier, genuine: 'AMBIGUOUS_CALLBACK', differences: [line] });
  }
  judged = { changing, cutting };
  return judged;
}

test('no unambiguous reading of a refused ambiguous genuine changes a field other than the cut text', () => {
  const { changing } = judgedRearrangements();
  assert.equal(changing.length, 0, `${changing.length} accepted:\n${changing.join('\n')}`);
});

test('unambiguous readings of a refused ambiguous genuine that only cut its text (documented residual)', { todo: 'SECURITY.md: what a rewrite of an ambiguous genuine body can still do' }, () => {
  const { cutting } = judgedRearrangements();
  assert.equal(cutting.length, 0, `${cutting.length} accepted:\n${cutting.join('\n')}`);
});

for (const [title, wanted] of [
  ['all replays of a genuine success give its one idempotencyKey', (status) => status === 'success'],
  ['all replays of any other verified genuine callback give its one idempotencyKey', (status) => status !== 'success'],
]) test(title, () => {
  const failures = [];
  let successes = 0;
  for (const c of corpus.cases) {
    if (c.ambiguous || !wanted(statusOf(c.genuine.body)) || !results.has(c.name)) continue;
    successes += 1;
    for (const [verifier, r] of Object.entries(results.get(c.name))) {
      if (!r.genuine.ok) continue; // a refused genuine is a failure of the first test
      const keys = new Set([r.genuine.ok.idempotencyKey]);
      for (const { forgery, result } of r.forgeries) {
        if (result.ok && result.ok.idempotencyKey !== r.genuine.ok.idempotencyKey) {
          failures.push(`[${c.name}] [${forgery.attack}] [${verifier}]: idempotencyKey ${JSON.stringify(result.ok.idempotencyKey)} (genuine ${JSON.stringify(r.genuine.ok.idempotencyKey)})`);
        }
        if (result.ok) keys.add(result.ok.idempotencyKey);
      }
      if (keys.size !== 1) failures.push(`[${c.name}] [${verifier}]: ${keys.size} idempotency keys: ${[...keys].join(' | ')}`);
    }
  }
  assert.ok(successes > 0, 'the corpus has such genuine callbacks');
  assert.equal(failures.length, 0, failures.join('\n'));
});

describe('the corpus can make this test fail', () => {
  test('per attack class, forged bodies whose JSON differs from the genuine exist', () => {
    const differing = {};
    for (const c of corpus.cases) {
      const genuine = JSON.parse(c.genuine.body);
      for (const f of c.forgeries) {
        const k = attackClass(f);
        differing[k] ??= 0;
        if (!isDeepStrictEqual(JSON.parse(f.body), genuine)) differing[k] += 1;
      }
    }
    for (const k of ['forged-success', 'resplit', 'replay', 'malleability', 'empty-key', 'generic', 'timestamp']) {
      assert.ok((differing[k] ?? 0) > 0, `class ${k}: ${differing[k] ?? 0} forged bodies differ from their genuine (${JSON.stringify(differing)})`);
    }
  });

  test('the genuine signatures verify over the corpus messages (node:crypto), and forgeries reuse them', () => {
    for (const c of corpus.cases) {
      const signature = Buffer.from(c.genuine.headers['x-access-signature'].replace(/=+$/, ''), 'base64url');
      assert.ok(crypto.verify('sha256', Buffer.from(c.message, 'utf8'), KEY, signature), c.name);
      assert.ok(c.forgeries.length > 0, `${c.name} has forgeries`);
      for (const f of c.forgeries) assert.equal(f.headers['x-access-signature'], c.genuine.headers['x-access-signature'], `${c.name} / ${f.attack}`);
    }
  });

  test("a second, JS model of the canonical form (helpers.mjs) gives every forgery its genuine's message", () => {
    const mismatches = [];
    for (const c of corpus.cases) {
      const options = c.options.options ?? {};
      for (const f of [{ attack: '(genuine)', ...c.genuine }, ...c.forgeries]) {
        const message = modelMessage(modelEntries(valueToTree(JSON.parse(f.body)), options), f.headers['x-access-timestamp'], options);
        if (message !== c.message) mismatches.push(`${c.name} / ${f.attack}`);
      }
    }
    assert.deepEqual(mismatches, []);
  });

  test('genuine callbacks without ";…:" text exist and verified everywhere; those with it exist too', () => {
    const clean = corpus.cases.filter((c) => !c.ambiguous);
    assert.ok(clean.length > 0 && clean.length < corpus.cases.length);
    for (const c of clean) {
      for (const [verifier, r] of Object.entries(results.get(c.name) ?? {})) assert.ok(r.genuine.ok, `${c.name} / ${verifier}: ${r.genuine.error?.code}`);
    }
  });
});

after(() => {
  if (corpus.cases.length === 0) return;
  const lines = ['forgeries: outcomes per attack class and verifier'];
  for (const [key, row] of [...tally].sort()) lines.push(`  ${key.replace('\t', ' | ')}: ${JSON.stringify(row)}`);
  lines.push(`accepted with a model other than the genuine's: ${findings.length}`);
  for (const f of findings) lines.push(`  [${f.case}] [${f.attack}] [${f.verifier}] ${f.differences.join('; ')}`);
  for (const n of notes) lines.push(`  note: ${n}`);
  lines.push(`ambiguity rules seen: ${[...rulesSeen].sort().join(', ')}`);
  console.log(lines.join('\n'));
  if (process.env.FORGERIES_REPORT) {
    const outcomes = [];
    for (const [name, perVerifier] of results) {
      const entries = Object.entries(perVerifier);
      entries[0]?.[1].forgeries.forEach(({ forgery }, i) => {
        const row = {};
        for (const [verifier, r] of entries) {
          const { result } = r.forgeries[i];
          row[verifier] = result.ok ? (r.genuine.ok && isDeepStrictEqual(withoutVerification(r.genuine.ok), withoutVerification(result.ok)) ? 'same model' : 'DIFFERENT MODEL') : result.error?.code;
        }
        outcomes.push({ case: name, attack: forgery.attack, outcomes: row });
      });
    }
    fs.writeFileSync(process.env.FORGERIES_REPORT, JSON.stringify({ tally: Object.fromEntries(tally), findings, rearrangements: judgedRearrangements(), notes: [...notes], rules: [...rulesSeen], outcomes }, null, 1));
  }
});
