// The guides in docs/ (read on GitHub; the package does not ship them), held to the package
// by the README's rules (support/documents.mjs, CONTRIBUTING.md "Documentation"):
// - one guide per job and per reference the README links: client, receiving, sandbox and
//   CLI, deploying, API reference, error codes, security (and the canonical form);
// - every code block runs as written, or is marked as a fragment; each JS block that is not
//   a fragment runs with the packed package installed, in a folder holding the key files,
//   with a sandbox of its own at SANDBOX_URL;
// - every relative link resolves in the repository, with its #anchor naming a heading of the
//   file it points into; every file path in a code span is a file of the package or the
//   repository;
// - the error table lists exactly errorCodes(), the options table every canonical option.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { esm as api } from './helpers.mjs';
import { blockRunner, checkBlocks, checkLinks, checkPaths, guides, readDocument, runnable } from './support/documents.mjs';

const GUIDES = ['api.md', 'canonical-form.md', 'client.md', 'deploying.md', 'errors.md', 'observability.md', 'receiving.md', 'sandbox-and-cli.md', 'security.md'].map((f) => `docs/${f}`);
const documents = guides().map((file) => readDocument(file));
const doc = (file) => documents.find((d) => d.name === `docs/${file}`);

test('docs/ holds a guide for each job and each reference, each under one title', () => {
  assert.deepEqual(guides(), GUIDES);
  for (const d of documents) {
    assert.equal(d.headings.filter((h) => h.startsWith('# ')).length, 1, `${d.name}: one title`);
    assert.ok(d.headings[0].startsWith('# '), `${d.name} starts with its title`);
  }
});

test('docs/errors.md: the error table lists every code of errorCodes(), and no other; the issue table every issueCodes() code', () => {
  const errors = doc('errors.md');
  const documented = [...errors.section('## The codes').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual([...documented].sort(), [...api.errorCodes()].sort());
  const issues = [...errors.section('## Issue codes').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual([...issues].sort(), api.issueCodes().map((c) => c.code).sort());
});

test('docs/api.md: the canonical options table names every option the package accepts', () => {
  const text = doc('api.md').section('## Sender rules: canonical options and profiles');
  const options = {
    falsy: ['none', 'null'],
    booleans: ['python', 'lower', 'digit'],
    order: ['codepoint', 'utf16'],
    numbers: ['python', 'js'],
    digest: ['single', 'double'],
    token: ['pem', 'der'],
    signatureEncoding: ['base64url', 'hex'],
    profile: api.profiles().map((p) => p.name),
  };
  for (const [name, values] of Object.entries(options)) {
    assert.match(text, new RegExp(`^\\| \`${name}\` \\|`, 'm'), `the table has a row for ${name}`);
    for (const value of values) {
      assert.match(text, new RegExp(`\`'${value}'\``), `${name}: ${value}`);
      api.canonicalEntries('{}', { [name]: value });
    }
  }
  assert.match(text, /\| `padding` \|/);
  // Every option a profile spells out is a row of the table.
  for (const name of Object.keys(api.profiles()[0].options)) assert.match(text, new RegExp(`^\\| \`${name}\` \\|`, 'm'), name);
});

test('every code block of every guide is runnable or marked as a fragment; every js block parses as an ES module', () => {
  for (const d of documents) checkBlocks(d);
  const counts = Object.fromEntries(documents.map((d) => [d.name, runnable(d).length]));
  // Each guide with code runs some of it: only what truly cannot run alone is a fragment.
  for (const file of ['api.md', 'client.md', 'deploying.md', 'observability.md', 'receiving.md', 'sandbox-and-cli.md']) assert.ok(counts[`docs/${file}`] >= 1, `docs/${file}: ${counts[`docs/${file}`]} runnable blocks`);
});

test('every link of every guide resolves in the repository, with its anchor; every file path it names exists', () => {
  for (const d of documents) {
    checkLinks(d, { inPackage: false });
    checkPaths(d, { orRepository: true });
  }
});

describe('the guides against the packed package', () => {
  const runner = blockRunner();
  before(() => runner.start());
  after(() => runner.stop());

  for (const d of documents.filter((x) => runnable(x).length > 0)) {
    test(`${d.name}: every JS block that is not a fragment runs as written`, async () => {
      for (const [i, block] of runnable(d).entries()) {
        const ran = await runner.runWithSandbox(`${d.name.replace(/\W/g, '-')}-${i}`, block.code);
        assert.equal(ran.status, 0, `${d.name} line ${block.line}:\n${ran.stdout}\n${ran.stderr}`);
        // A block whose output the guide states prints it.
        if (block.code.includes('loseCallbacks: 1')) assert.equal(ran.stdout.trim(), 'replayed: true\nchecked 1, advanced 1, credited 150000');
      }
    });
  }
});
