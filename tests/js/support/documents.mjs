// The documents a user reads, held to the package: the README (shipped in the package) and
// the guides in docs/ (read on GitHub, not shipped). readme.test.mjs and docs.test.mjs
// apply the same rules through these helpers (CONTRIBUTING.md, "Documentation"):
// - every code block runs as written, or is marked as a fragment by a `<!-- fragment -->`
//   line right before its fence; fences are `js`, `sh` or `text`; a synopsis is a fragment;
// - every `js` block that is not a fragment parses as an ES module, and runs with the packed
//   package installed, in a folder holding the key files, with a local sandbox at
//   SANDBOX_URL that knows the merchant's key;
// - every relative link resolves (in the tarball for the README, in the repository for a
//   guide), every link by GitHub address names a file of the repository, and every
//   `#anchor` names a heading of the document it points into;
// - every file path in a code span is a file of the packed package (or, for a guide, of the
//   repository);
// - the key files have one set of names everywhere.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { esm as api, pkgDir, root } from '../helpers.mjs';
import { installPacked, installedPackage, packList } from './packed.mjs';

export const FRAGMENT = '<!-- fragment -->';
/** The key files every document names: the merchant's pair, and the service's public key. */
export const KEY_FILES = ['merchant-private.pem', 'merchant-public.pem', 'service-public.pem'];
/** The repository's address, by which the README links what the package does not ship. */
export const REPOSITORY = 'https://github.com/payment-intake/payment-intake';

/** A heading's anchor as GitHub and npm make it. */
export const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** `npm pack --dry-run` of pkg/, once per process. */
let packCache;
const packed = () => (packCache ??= packList());

/** The guides in docs/, as paths from the root (`docs/client.md`, …). */
export const guides = () =>
  fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);

/**
 * A document read for checking: its text, its fenced blocks (language, code, whether marked
 * a fragment, line), its headings' anchors, and `section(heading)`: the text from a heading
 * to the next heading of its level or above.
 */
export function readDocument(name, text = fs.readFileSync(path.join(root, name), 'utf8')) {
  const blocks = [...text.matchAll(/^(?:(<!-- fragment -->)\n)?```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    fragment: m[1] === FRAGMENT,
    lang: m[2],
    code: m[3],
    line: text.slice(0, m.index).split('\n').length + (m[1] ? 1 : 0),
  }));
  const prose = text.replace(/^```\w*\n[\s\S]*?^```$/gm, '');
  const headings = [...prose.matchAll(/^(#{1,6}) (.+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
  const anchors = new Set(headings.map((h) => slug(h.replace(/^#+ /, ''))));
  function section(heading) {
    const level = heading.match(/^#+/)[0].length;
    const start = text.indexOf(`\n${heading}\n`);
    assert.ok(start >= 0, `${name}: ${heading}`);
    const rest = text.slice(start + heading.length + 2);
    const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
    return end < 0 ? rest : rest.slice(0, end);
  }
  return { name, text, blocks, prose, headings, anchors, section };
}

/** The fence rules, and every `js` block parses as an ES module. */
export function checkBlocks(doc) {
  const { name, text, blocks } = doc;
  // A fragment marker stands right before a fence, and nowhere else.
  assert.equal(text.split(FRAGMENT).length - 1, blocks.filter((b) => b.fragment).length, `${name}: every ${FRAGMENT} comes right before a fence`);
  // Every fence is a block the pattern found (none indented into a list, where no rule would see it).
  assert.equal((text.match(/^\s*```/gm) ?? []).length, blocks.length * 2, `${name}: every fence starts a line and is closed`);
  for (const block of blocks) assert.ok(['js', 'sh', 'text'].includes(block.lang), `${name} line ${block.line}: a block in js, sh or text, not '${block.lang}'`);
  // A synopsis (`[--flag]`, `A|B`) is not a command to paste: such a block is a fragment.
  for (const block of blocks.filter((b) => b.lang === 'sh' && !b.fragment)) assert.doesNotMatch(block.code, /\[--|\|-/, `${name} line ${block.line}: a synopsis, not marked as a fragment`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-blocks-'));
  try {
    for (const [i, block] of blocks.entries()) {
      if (block.lang !== 'js') continue;
      const file = path.join(dir, `block${i}.mjs`);
      fs.writeFileSync(file, block.code);
      const checked = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
      assert.equal(checked.status, 0, `${name} line ${block.line}: ${checked.stderr}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The `js` blocks of a document that are not fragments. */
export const runnable = (doc) => doc.blocks.filter((b) => b.lang === 'js' && !b.fragment);

/** The headings' anchors of a Markdown file of the repository (null when it is no such file). */
function anchorsOf(file) {
  const full = path.join(root, file);
  if (!fs.existsSync(full) || !file.endsWith('.md')) return null;
  return readDocument(file).anchors;
}

/** `relative#anchor` resolved against `from` (a file of the repository): a repository path and the anchor. */
function resolveIn(from, link) {
  const [target, anchor] = link.split('#');
  const file = target === '' ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
  return { file: file.replace(/\/$/, ''), anchor };
}

/** Asserts that `file` (with `anchor`) is in the repository: a file or folder, and a heading of it. */
function assertInRepository(where, link, file, anchor) {
  assert.ok(!file.startsWith('..') && fs.existsSync(path.join(root, file)), `${where}: ${link} names ${file}, which is not in the repository`);
  if (anchor !== undefined && anchor !== '') {
    const anchors = anchorsOf(file);
    assert.ok(anchors, `${where}: ${link}: an anchor into ${file}, which is no Markdown file`);
    assert.ok(anchors.has(anchor), `${where}: ${link}: #${anchor} names no heading of ${file}`);
  }
}

/**
 * Every link of the document's prose: relative ones resolve (`inPackage`: in the tarball;
 * otherwise in the repository, with their anchors), `#anchors` name headings, and links by the
 * repository's GitHub address name its files and headings. Returns the counts.
 */
export function checkLinks(doc, { inPackage }) {
  const links = [...doc.prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  const counts = { relative: 0, repository: 0 };
  const files = inPackage ? packed().files : null;
  for (const link of links) {
    if (link.startsWith('#')) {
      assert.ok(doc.anchors.has(link.slice(1)), `${doc.name}: ${link} names a heading of it`);
      continue;
    }
    const github = link.match(/^https:\/\/github\.com\/payment-intake\/payment-intake\/(?:blob|tree)\/main\/([^#]*)(?:#(.*))?$/);
    if (github) {
      counts.repository += 1;
      assertInRepository(doc.name, link, github[1].replace(/\/$/, ''), github[2]);
      continue;
    }
    if (/^[a-z]+:/i.test(link)) continue;
    counts.relative += 1;
    if (inPackage) {
      const clean = link.split('#')[0].replace(/^\.\//, '').replace(/\/$/, '');
      assert.ok(files.includes(clean) || files.some((f) => f.startsWith(`${clean}/`)), `${doc.name}: link ${link} is in the tarball`);
    } else {
      const { file, anchor } = resolveIn(doc.name, link);
      assertInRepository(doc.name, link, file, anchor);
    }
  }
  return counts;
}

/** Whether `name` is a package a guide has the merchant install beside this one (`@opentelemetry/api`): one of the repository's devDependencies. */
function installedBeside(name) {
  const { devDependencies = {} } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  return Object.hasOwn(devDependencies, name);
}

/**
 * File paths in code spans (a word with a slash or a file extension) name files of the packed
 * package, entries of its exports, or (`orRepository`) files of the repository. Not paths of a
 * file: URL paths ('/api/…'), media types, and the merchant's own files. Returns how many were checked.
 */
export function checkPaths(doc, { orRepository = false, ownFiles = [] } = {}) {
  const { files } = packed();
  const inPackage = (p) => {
    const clean = p.replace(/^\.\//, '').replace(/\/$/, '');
    return files.includes(clean) || files.some((f) => f.startsWith(`${clean}/`));
  };
  const inRepository = (p) => orRepository && fs.existsSync(path.join(root, p));
  const exportsMap = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).exports;
  const own = new Set([...KEY_FILES, 'quickstart.mjs', 'app.mjs', 'otel.mjs', 'dist/', ...ownFiles]);
  const spans = [...doc.prose.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]);
  const paths = spans.filter((s) => /^[\w.@-]+(\/[\w.@*-]*)+$|^[\w.-]+\.(rs|py|mjs|cjs|js|ts|mts|md|json|toml|wasm|sh|html)$/.test(s));
  let checked = 0;
  for (const p of paths) {
    if (/^(application|text)\/|^\d/.test(p) || own.has(p) || installedBeside(p)) continue;
    checked += 1;
    if (!p.includes('/')) {
      // A file named alone (`payment_intake_bg.wasm`) is a file of the package somewhere.
      assert.ok(files.some((f) => path.posix.basename(f) === p) || inRepository(p), `${doc.name}: \`${p}\` is a file of the tarball`);
    } else if (p.startsWith('payment-intake/')) {
      assert.ok(Object.hasOwn(exportsMap, `./${p.slice('payment-intake/'.length)}`), `${doc.name}: \`${p}\` is an entry of the package's exports`);
    } else {
      assert.ok(inPackage(p.replace(/^node_modules\/payment-intake\//, '')) || inRepository(p), `${doc.name}: \`${p}\` is in the tarball`);
    }
  }
  return checked;
}

/** Asserts that the documents name only the three key files; returns the set they name. */
export function checkKeyFileNames(documents) {
  const named = new Set();
  for (const [name, text] of documents) {
    for (const [file] of text.matchAll(/[\w.-]+\.pem\b/g)) {
      assert.ok(KEY_FILES.includes(file), `${name} names ${file}, not one of ${KEY_FILES.join(', ')}`);
      named.add(file);
    }
  }
  return named;
}

/**
 * A merchant's project with the packed package installed, in which blocks run. `start()`
 * installs it and makes the merchant's key pair; `run(name, code, { env, files })` runs `code`
 * as an ES module in a folder of the project holding the key files (`service-public.pem` a key
 * of a stand-in service unless `files` says otherwise) and resolves with its output;
 * `startSandbox(options)` starts the installed package's sandbox for the merchant's key.
 */
export function blockRunner() {
  let app;
  let sandboxModule;
  const keys = {};
  let service;
  return {
    keys,
    async start() {
      // docs/observability.md runs with the OpenTelemetry packages it says to install beside.
      app = installPacked({ link: ['@opentelemetry'] });
      const merchant = api.SigningKey.generate();
      keys['merchant-private.pem'] = merchant.privateKeyPem();
      keys['merchant-public.pem'] = merchant.publicKeyPem();
      service = api.SigningKey.generate().publicKeyPem();
      sandboxModule = await import(pathToFileURL(path.join(installedPackage(app.dir), 'sandbox', 'index.mjs')).href);
    },
    stop: () => app?.remove(),
    startSandbox: (options = {}) => sandboxModule.startSandbox({ merchantKey: keys['merchant-public.pem'], ...options }),
    run(name, code, { env = {}, files = {} } = {}) {
      const dir = path.join(app.dir, name);
      fs.mkdirSync(dir);
      for (const [file, text] of Object.entries({ ...keys, 'service-public.pem': service, ...files })) fs.writeFileSync(path.join(dir, file), text);
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
    },
    /** Runs a block with a sandbox of its own at SANDBOX_URL (time 20 times faster, its key in service-public.pem); resolves with its output. */
    async runWithSandbox(name, code) {
      const sandbox = await this.startSandbox({ timeScale: 20 });
      try {
        return await this.run(name, code, { env: { SANDBOX_URL: sandbox.url }, files: { 'service-public.pem': sandbox.servicePublicKeyPem } });
      } finally {
        await sandbox.close();
      }
    },
  };
}
