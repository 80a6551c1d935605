// The README shipped in the package (pkg/README.md, copied from the root's README.md;
// pack-contents.test.mjs checks they are the same) stays true to the package:
// - its error table lists exactly the codes errorCodes() returns, and its options table
//   every canonical option;
// - it reads top-down for a merchant: install, quick start, receiving callbacks, testing
//   locally, deploying, the API reference, the error codes; the canonical-form argument
//   lives in docs/canonical-form.md;
// - every code block runs as written, or is marked as a fragment by a `<!-- fragment -->`
//   line right before it (CONTRIBUTING.md): each JS block that is not a fragment is run
//   with the packed package installed, the quick start against a sandbox started here on
//   a loopback port (SANDBOX_URL), in a folder holding the key files the README names;
// - every relative link and every file path it names is a file of the packed package;
// - the key files have one set of names across the README, examples/ and docs/.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { esm as api, pkgDir, root } from './helpers.mjs';
import { installPacked, installedPackage, packList } from './support/packed.mjs';

const readme = fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8');
const FRAGMENT = '<!-- fragment -->';

/** Every fenced block: its language, its code, whether it is marked a fragment, and its line. */
const blocks = [...readme.matchAll(/^(?:(<!-- fragment -->)\n)?```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  fragment: m[1] === FRAGMENT,
  lang: m[2],
  code: m[3],
  line: readme.slice(0, m.index).split('\n').length + (m[1] ? 1 : 0),
}));
/** A section's text, from its heading to the next heading of its level or above. */
function section(heading) {
  const level = heading.match(/^#+/)[0].length;
  const start = readme.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, heading);
  const rest = readme.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The key files every document names: the merchant's pair, and the service's public key. */
const KEY_FILES = ['merchant-private.pem', 'merchant-public.pem', 'service-public.pem'];

test('the error table lists every code of errorCodes(), and no other', () => {
  const documented = [...section('## Error codes').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual([...documented].sort(), [...api.errorCodes()].sort());
});

test('the canonical options table names every option the package accepts', () => {
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
    assert.match(readme, new RegExp(`^\\| \`${name}\` \\|`, 'm'), `the table has a row for ${name}`);
    for (const value of values) {
      assert.match(readme, new RegExp(`\`'${value}'\``), `${name}: ${value}`);
      api.canonicalEntries('{}', { [name]: value });
    }
  }
  assert.match(readme, /\| `padding` \|/);
  // Every option a profile spells out is a row of the table.
  for (const name of Object.keys(api.profiles()[0].options)) assert.match(readme, new RegExp(`^\\| \`${name}\` \\|`, 'm'), name);
});

test("a merchant's path, top-down: quick start first, install, calling the service, receiving, testing locally, deploying, API reference, error codes", () => {
  assert.match(section('## Install'), /^npm install payment-intake$/m);
  assert.match(section('## Quick start'), /^npm install payment-intake$/m);
  const headings = [...readme.matchAll(/^(#{2,3}) (.+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
  const order = [
    '## Quick start',
    '## Install',
    '## Calling the service: `createClient`',
    '## Receiving callbacks',
    '### In your framework',
    '## Testing locally',
    '### Local sandbox',
    '### Debugger page',
    '## Deploying',
    '### Node',
    '### Bundlers',
    '### Edge runtimes',
    '### Browsers',
    '## API reference',
    '### Command line',
    '## Error codes',
  ];
  const at = order.map((h) => headings.indexOf(h));
  for (const [i, h] of order.entries()) assert.ok(at[i] >= 0, `section ${h}`);
  assert.deepEqual([...at].sort((a, b) => a - b), at, 'in this order');
  // The quick start is the first section, its steps in order: install, keygen, the sandbox,
  // createClient, the create; the receiver verifies callbacks with verifyCallback.
  assert.equal(headings[0], '## Quick start');
  const quick = section('## Quick start');
  const steps = ['npm install payment-intake', 'npx payment-intake keygen', 'npx payment-intake sandbox', 'createClient(', 'client.p2p.payin.create('].map((s) => quick.indexOf(s));
  assert.ok(steps.every((i) => i >= 0) && steps.every((i, n) => n === 0 || i > steps[n - 1]), `quick start steps at ${steps}`);
  assert.ok(quick.includes('verifyCallback('), 'the quick start verifies its callbacks');
  assert.ok(!/signRequest\(|fetch\(/.test(quick.slice(quick.indexOf('```js'))), 'the quick start calls the service through the client, not by hand');
  // Both ways to bundle: the copy step names the file the package ships; the inline entry is an export.
  const step = readme.match(/^cp node_modules\/payment-intake\/(\S+) dist\/$/m);
  assert.ok(step, 'the copy step');
  assert.ok(fs.existsSync(path.join(pkgDir, step[1])), step[1]);
  assert.match(section('### Bundlers'), /^esbuild app\.mjs --bundle --platform=node --outfile=dist\/app\.js$/m);
  // The canonical-form argument is not the README's: its rules and proof are in docs/.
  const docs = fs.readFileSync(path.join(root, 'docs', 'canonical-form.md'), 'utf8');
  for (const rule of ['KEY_SEPARATOR', 'EMPTY_TOP_LEVEL_KEY', 'VALUE_ENTRY_TEXT', 'UNREAD_AFTER_TEXT', '**The argument.**']) {
    assert.ok(!readme.includes(rule), `README: ${rule} is docs/canonical-form.md's`);
    assert.ok(docs.includes(rule), `docs/canonical-form.md: ${rule}`);
  }
  assert.match(readme, /\]\(https:\/\/github\.com\/payment-intake\/payment-intake\/blob\/main\/docs\/canonical-form\.md\)/);
  assert.match(readme, /\]\(https:\/\/github\.com\/payment-intake\/payment-intake\/blob\/main\/SECURITY\.md\)/);
});

test('every code block is runnable or marked as a fragment; every js block parses as an ES module', () => {
  assert.ok(blocks.length >= 10, `${blocks.length} blocks`);
  // A fragment marker stands right before a fence, and nowhere else.
  assert.equal(readme.split(FRAGMENT).length - 1, blocks.filter((b) => b.fragment).length, `every ${FRAGMENT} comes right before a fence`);
  for (const block of blocks) assert.ok(['js', 'sh', 'text'].includes(block.lang), `line ${block.line}: a block in js, sh or text, not '${block.lang}'`);
  // A synopsis (`[--flag]`, `A|B`) is not a command to paste: such a block is a fragment.
  for (const block of blocks.filter((b) => b.lang === 'sh' && !b.fragment)) assert.doesNotMatch(block.code, /\[--|\|-/, `line ${block.line}: a synopsis, not marked as a fragment`);
  assert.ok(blocks.filter((b) => b.lang === 'js' && !b.fragment).length >= 4, 'the quick start and at least three more JS blocks run');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-'));
  try {
    for (const [i, block] of blocks.entries()) {
      if (block.lang !== 'js') continue;
      const file = path.join(dir, `block${i}.mjs`);
      fs.writeFileSync(file, block.code);
      const checked = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
      assert.equal(checked.status, 0, `README line ${block.line}: ${checked.stderr}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('the README against the packed package', () => {
  let app;
  let sandboxModule;
  const keys = {};
  before(async () => {
    app = installPacked();
    const merchant = api.SigningKey.generate();
    keys['merchant-private.pem'] = merchant.privateKeyPem();
    keys['merchant-public.pem'] = merchant.publicKeyPem();
    sandboxModule = await import(pathToFileURL(path.join(installedPackage(app.dir), 'sandbox', 'index.mjs')).href);
  });
  after(() => app?.remove());

  /** Runs `code` as an ES module in a folder of the merchant's project holding `files`; resolves with its output. */
  function runBlock(name, code, files, env = {}) {
    const dir = path.join(app.dir, name);
    fs.mkdirSync(dir);
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
    fs.writeFileSync(path.join(dir, 'block.mjs'), code);
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['block.mjs'], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (status, signal) => {
        clearTimeout(timer);
        resolve({ status, signal, stdout, stderr });
      });
    });
  }

  test('the quick start runs as written against a sandbox on a loopback port, and its payin ends in success', async () => {
    const quick = blocks.find((b) => b.lang === 'js' && !b.fragment && b.code.includes('quickstart.mjs'));
    assert.ok(quick, 'the quick start is a JS block that is not a fragment');
    assert.ok(quick.line < readme.indexOf('\n## Receiving callbacks') && readme.slice(0, readme.indexOf(quick.code)).includes('\n## Quick start\n'), 'in the Quick start section');
    const sandbox = await sandboxModule.startSandbox({ merchantKey: keys['merchant-public.pem'], timeScale: 20 });
    try {
      const files = { ...keys, 'service-public.pem': sandbox.servicePublicKeyPem };
      const ran = await runBlock('quick-start', quick.code, files, { SANDBOX_URL: sandbox.url });
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
    const runnable = blocks.filter((b) => b.lang === 'js' && !b.fragment && !b.code.includes('quickstart.mjs'));
    assert.ok(runnable.length >= 3);
    const service = api.SigningKey.generate();
    for (const [i, block] of runnable.entries()) {
      const ran = await runBlock(`block-${i}`, block.code, { ...keys, 'service-public.pem': service.publicKeyPem() });
      assert.equal(ran.status, 0, `README line ${block.line}:\n${ran.stdout}\n${ran.stderr}`);
    }
  });

  test('every relative link and file path of the README is a file of the packed package', () => {
    const { files } = packList();
    const packed = (p) => {
      const clean = p.replace(/^\.\//, '').replace(/\/$/, '');
      return files.includes(clean) || files.some((f) => f.startsWith(`${clean}/`));
    };
    const exportsMap = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).exports;
    const prose = readme.replace(/^```\w*\n[\s\S]*?^```$/gm, '');
    const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/i.test(l) && !l.startsWith('#'));
    assert.ok(links.length >= 5, 'the README links the examples and the licenses');
    for (const link of links) assert.ok(packed(link.split('#')[0]), `link ${link} is in the tarball`);
    // File paths in code spans: a word with a slash or a file extension. Not paths of a file:
    // URL paths ('/api/…'), media types, and the merchant's own files (its keys, its bodies).
    const spans = [...prose.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]);
    const ownFiles = new Set([...KEY_FILES, 'quickstart.mjs', 'app.mjs', 'dist/']);
    const paths = spans.filter((s) => /^[\w.@-]+(\/[\w.@*-]*)+$|^[\w.-]+\.(rs|py|mjs|cjs|js|ts|mts|md|json|toml|wasm|sh|html)$/.test(s));
    let checked = 0;
    for (const p of paths) {
      if (/^(application|text)\/|^\d/.test(p) || ownFiles.has(p)) continue;
      checked += 1;
      if (!p.includes('/')) {
        // A file named alone (`payment_intake_bg.wasm`) is a file of the package somewhere.
        assert.ok(files.some((f) => path.posix.basename(f) === p), `\`${p}\` is a file of the tarball`);
      } else if (p.startsWith('payment-intake/')) {
        assert.ok(Object.hasOwn(exportsMap, `./${p.slice('payment-intake/'.length)}`), `\`${p}\` is an entry of the package's exports`);
      } else {
        assert.ok(packed(p.replace(/^node_modules\/payment-intake\//, '')), `\`${p}\` is in the tarball`);
      }
    }
    assert.ok(checked >= 5, `${checked} paths checked`);
  });

  test('the key files have one set of names across the README, examples/ and docs/', () => {
    const documents = [
      ['README.md', readme],
      ...fs.readdirSync(path.join(root, 'examples')).map((f) => [`examples/${f}`, fs.readFileSync(path.join(root, 'examples', f), 'utf8')]),
      ...fs.readdirSync(path.join(root, 'docs')).map((f) => [`docs/${f}`, fs.readFileSync(path.join(root, 'docs', f), 'utf8')]),
    ];
    const named = new Set();
    for (const [name, text] of documents) {
      for (const [file] of text.matchAll(/[\w.-]+\.pem\b/g)) {
        assert.ok(KEY_FILES.includes(file), `${name} names ${file}, not one of ${KEY_FILES.join(', ')}`);
        named.add(file);
      }
    }
    assert.deepEqual([...named].sort(), [...KEY_FILES].sort(), 'the README names all three');
  });
});
