// The README shipped in the package (pkg/README.md, copied from the root's README.md;
// pack-contents.test.mjs checks they are the same) stays short and true to the package:
// - at most about 400 lines, read top-down by a merchant: the quick start, install, one short
//   section per job (calling the service, receiving callbacks, testing locally, deploying),
//   each linking its guide in docs/ by the repository's GitHub address (docs/ is not shipped),
//   then the reference, security and developing; the guides' own rules are docs.test.mjs's;
// - every code block runs as written, or is marked as a fragment (CONTRIBUTING.md): each JS
//   block that is not a fragment is run with the packed package installed, the quick start
//   against a sandbox started here on a loopback port (SANDBOX_URL), in a folder holding the
//   key files the README names (the rules: support/documents.mjs);
// - every relative link and every file path it names is a file of the packed package; every
//   link by GitHub address names a file (and heading) of the repository;
// - the key files have one set of names across the README, examples/ and docs/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { pkgDir, root } from './helpers.mjs';
import { KEY_FILES, REPOSITORY, blockRunner, checkBlocks, checkKeyFileNames, checkLinks, checkPaths, guides, readDocument, runnable } from './support/documents.mjs';

const readme = readDocument('README.md', fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8'));
const { section, blocks } = readme;
const guide = (file) => `${REPOSITORY}/blob/main/docs/${file}`;

test('the README is short: at most about 400 lines', () => {
  const lines = readme.text.split('\n').length;
  assert.ok(lines <= 420, `${lines} lines`);
});

test("a merchant's path, top-down: quick start, install, one section per job with its guide, reference, security, developing", () => {
  assert.match(section('## Install'), /^npm install payment-intake$/m);
  assert.match(section('## Quick start'), /^npm install payment-intake$/m);
  const headings = readme.headings.filter((h) => /^#{2,3} /.test(h));
  const order = ['## Quick start', '## Install', '## Calling the service', '## Receiving callbacks', '## Testing locally', '## Deploying', '## Reference', '## Security', '## Developing'];
  assert.deepEqual(headings, order, 'these sections, in this order, and no others');
  // Each job's section is short and links its guide (by GitHub address: docs/ is not shipped).
  const jobs = {
    '## Calling the service': ['client.md'],
    '## Receiving callbacks': ['receiving.md'],
    '## Testing locally': ['sandbox-and-cli.md'],
    '## Deploying': ['deploying.md'],
    '## Reference': ['api.md', 'errors.md', 'canonical-form.md'],
    '## Security': ['security.md'],
  };
  for (const [heading, files] of Object.entries(jobs)) {
    const text = section(heading);
    assert.ok(text.split('\n').length <= 60, `${heading}: ${text.split('\n').length} lines`);
    for (const file of files) assert.ok(text.includes(`](${guide(file)})`), `${heading} links ${file}`);
  }
  assert.ok(section('## Security').includes(`](${REPOSITORY}/blob/main/SECURITY.md)`), 'Security links SECURITY.md');
  // Every guide in docs/ is linked from the README.
  for (const file of guides()) assert.ok(readme.text.includes(`](${REPOSITORY}/blob/main/${file})`), `the README links ${file}`);
  // The quick start is the first section, its steps in order: install, keygen, the sandbox,
  // createClient, the create; the receiver verifies callbacks with verifyCallback.
  assert.equal(headings[0], '## Quick start');
  const quick = section('## Quick start');
  const steps = ['npm install payment-intake', 'npx payment-intake keygen', 'npx payment-intake sandbox', 'createClient(', 'client.p2p.payin.create('].map((s) => quick.indexOf(s));
  assert.ok(steps.every((i) => i >= 0) && steps.every((i, n) => n === 0 || i > steps[n - 1]), `quick start steps at ${steps}`);
  assert.ok(quick.includes('verifyCallback('), 'the quick start verifies its callbacks');
  assert.ok(!/signRequest\(|fetch\(/.test(quick.slice(quick.indexOf('```js'))), 'the quick start calls the service through the client, not by hand');
  // Both ways to bundle: the copy step names the file the package ships; the inline entry is an export.
  const deploying = section('## Deploying');
  const step = deploying.match(/^cp node_modules\/payment-intake\/(\S+) dist\/$/m);
  assert.ok(step, 'the copy step');
  assert.ok(fs.existsSync(path.join(pkgDir, step[1])), step[1]);
  assert.match(deploying, /^esbuild app\.mjs --bundle --platform=node --outfile=dist\/app\.js$/m);
  // The contributors' two commands.
  assert.match(section('## Developing'), /^npm start +#/m);
  assert.match(section('## Developing'), /^npm test +#/m);
  // The canonical-form argument is not the README's: its rules and proof are in docs/.
  const docs = fs.readFileSync(path.join(root, 'docs', 'canonical-form.md'), 'utf8');
  for (const rule of ['KEY_SEPARATOR', 'EMPTY_TOP_LEVEL_KEY', 'VALUE_ENTRY_TEXT', 'UNREAD_AFTER_TEXT', '**The argument.**']) {
    assert.ok(!readme.text.includes(rule), `README: ${rule} is docs/canonical-form.md's`);
    assert.ok(docs.includes(rule), `docs/canonical-form.md: ${rule}`);
  }
});

test('every code block is runnable or marked as a fragment; every js block parses as an ES module', () => {
  assert.ok(blocks.length >= 6, `${blocks.length} blocks`);
  checkBlocks(readme);
  assert.ok(runnable(readme).length >= 2, 'the quick start and at least one more JS block run');
});

describe('the README against the packed package', () => {
  const runner = blockRunner();
  before(() => runner.start());
  after(() => runner.stop());

  test('the quick start runs as written against a sandbox on a loopback port, and its payin ends in success', async () => {
    const quick = runnable(readme).find((b) => b.code.includes('quickstart.mjs'));
    assert.ok(quick, 'the quick start is a JS block that is not a fragment');
    assert.ok(section('## Quick start').includes(quick.code), 'in the Quick start section');
    const sandbox = await runner.startSandbox({ timeScale: 20 });
    try {
      const files = { 'service-public.pem': sandbox.servicePublicKeyPem };
      const ran = await runner.run('quick-start', quick.code, { files, env: { SANDBOX_URL: sandbox.url } });
      assert.equal(ran.status, 0, `${ran.stdout}\n${ran.stderr}`);
      // The create's model, as the client read it: the sandbox's payment, its request id.
      const created = ran.stdout.match(/^created: processing:requisites, request_id (\S+)$/m);
      assert.ok(created, ran.stdout);
      assert.match(ran.stdout, /^callback: processing:awaiting_confirm$/m);
      assert.match(ran.stdout, /^confirmed: processing:paid$/m);
      assert.match(ran.stdout, /^payment order-\d+: success$/m);
      const [payment] = sandbox.payments();
      assert.equal(sandbox.payments().length, 1, 'one payment');
      assert.equal(created[1], payment.requestId);
      // Callbacks the script verified with service-public.pem, the sandbox's key.
      assert.ok(ran.stdout.match(/^callback: /gm).length >= 3, ran.stdout);
      assert.doesNotMatch(ran.stderr, /callback refused/);
      assert.deepEqual(
        payment.history.map((m) => (m.subStatus ? `${m.status}:${m.subStatus}` : m.status)),
        ['processing:requisites', 'processing:awaiting_confirm', 'processing:paid', 'success'],
      );
      // What the README says it prints is what it printed, line for line (`…` standing for the ids).
      const shown = section('## Quick start').match(/^It prints[^\n]*\n\n```text\n([\s\S]*?)```$/m);
      assert.ok(shown, 'the quick start shows its output');
      const lines = (text) => text.trim().split('\n').map((l) => l.replace(/(sbx_|order-)\S+/g, '$1…')).sort();
      assert.deepEqual(lines(ran.stdout), lines(shown[1]));
    } finally {
      await sandbox.close();
    }
  });

  test('every other JS block that is not a fragment runs as written', async () => {
    const others = runnable(readme).filter((b) => !b.code.includes('quickstart.mjs'));
    assert.ok(others.length >= 1);
    for (const [i, block] of others.entries()) {
      const ran = await runner.runWithSandbox(`block-${i}`, block.code);
      assert.equal(ran.status, 0, `README line ${block.line}:\n${ran.stdout}\n${ran.stderr}`);
    }
  });

  test('every relative link and file path of the README is a file of the packed package; every GitHub link a file of the repository', () => {
    const { relative, repository } = checkLinks(readme, { inPackage: true });
    assert.ok(relative >= 5, 'the README links the examples and the licenses');
    assert.ok(repository >= 8, 'the README links the guides by their GitHub address');
    assert.ok(checkPaths(readme) >= 5, 'paths checked');
  });

  test('the key files have one set of names across the README, examples/ and docs/', () => {
    const documents = [
      ['README.md', readme.text],
      ...fs.readdirSync(path.join(root, 'examples')).map((f) => [`examples/${f}`, fs.readFileSync(path.join(root, 'examples', f), 'utf8')]),
      ...guides().map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]),
    ];
    checkKeyFileNames(documents);
    assert.deepEqual([...checkKeyFileNames([['README.md', readme.text]])].sort(), [...KEY_FILES].sort(), 'the README names all three');
  });
});
