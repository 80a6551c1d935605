#!/usr/bin/env node
// Builds the npm package in pkg/ from one release build of the crate:
//   pkg/node/  CommonJS build (wasm-bindgen --target nodejs), loads synchronously;
//              index.js (pkg-template/node.cjs): the JS core with node:crypto
//              (node-crypto.js, from pkg-template/node-crypto.cjs)
//   pkg/web/   browser ES module build (wasm-bindgen --target web), needs init();
//              index.js (pkg-template/web.mjs): the JS core with WebCrypto
//              (web-crypto.js, from pkg-template/web-crypto.mjs)
//   core.js in both, from pkg-template/core.mjs (CommonJS for node/): the API, the
//              key classes, written once with the RSA provider injected
//   index.d.ts in both, from pkg-template/index.d.ts
//   pkg/index.mjs + index.d.mts  ES-module wrapper of pkg/node/index.js, no init needed
//   pkg/package.json  from pkg-template/package.json, version from Cargo.toml
//   pkg/cli.js  the command line (the package's "bin"), from pkg-template/cli.cjs, executable
//   pkg/sandbox/  the local sandbox (`payment-intake/sandbox`), from pkg-template/sandbox/
// Every .wasm is run through wasm-opt from the npm package `binaryen`.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { pinnedBindgenVersion, setup } from './setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = path.join(root, 'pkg');
const crateName = 'payment_intake';
const binDir = path.join(root, 'node_modules', '.bin');

// Features the Rust wasm32 target emits by default; wasm-opt must accept them,
// and every runtime we support (Node 18+, current browsers) has them.
const WASM_FEATURES = [
  '--enable-bulk-memory',
  '--enable-bulk-memory-opt',
  '--enable-nontrapping-float-to-int',
  '--enable-sign-ext',
  '--enable-mutable-globals',
  '--enable-reference-types',
  '--enable-multivalue',
  '--enable-call-indirect-overlong',
];

function step(text) {
  console.log(`\n[build] ${text}`);
}

function fail(text) {
  console.error(`\n[build] error: ${text}`);
  process.exit(1);
}

function run(cmd, args, options = {}, shown = `${cmd} ${args.join(' ')}`) {
  console.log(`$ ${shown}`);
  const result = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit', ...options });
  if (result.error) fail(`${cmd} could not start: ${result.error.message}`);
  if (result.status !== 0) fail(`${cmd} exited with ${result.status ?? result.signal}`);
}

function output(cmd, args) {
  return execFileSync(cmd, args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `version = "..."` of the [package] table of Cargo.toml. */
function crateVersion() {
  const toml = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8');
  const pkgTable = toml.split(/^\[/m).find((t) => t.startsWith('package]'));
  const m = pkgTable && pkgTable.match(/^version\s*=\s*"([^"]+)"/m);
  if (!m) fail('no version in the [package] table of Cargo.toml');
  return m[1];
}

/** Installs what is missing (scripts/setup.mjs) and shows the versions the build uses. */
function checkTools() {
  step('checking tools (scripts/setup.mjs installs what is missing)');
  const toolEnv = setup(['build']);
  const wasmOpt = path.join(binDir, process.platform === 'win32' ? 'wasm-opt.cmd' : 'wasm-opt');
  const version = (cmd) => execFileSync(cmd, ['--version'], { cwd: root, env: toolEnv, encoding: 'utf8' }).trim();
  console.log(`${version('wasm-opt')} (${path.relative(root, wasmOpt)})`);
  console.log(`${version('wasm-bindgen')} (Cargo.toml pins ${pinnedBindgenVersion()})`);
  return toolEnv;
}

function cargoBuild() {
  step('cargo build --release --target wasm32-unknown-unknown');
  run('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '--lib']);
  const meta = JSON.parse(output('cargo', ['metadata', '--format-version', '1', '--no-deps']));
  const wasm = path.join(meta.target_directory, 'wasm32-unknown-unknown', 'release', `${crateName}.wasm`);
  if (!fs.existsSync(wasm)) fail(`cargo did not produce ${wasm}`);
  return { wasm, targetDir: meta.target_directory };
}

function bindgen(wasm, target, outDir) {
  step(`wasm-bindgen --target ${target} -> ${path.relative(root, outDir)}/`);
  run('wasm-bindgen', ['--target', target, '--typescript', '--out-dir', outDir, '--out-name', crateName, wasm]);
}

/**
 * wasm-opt -Os in place. Its output is kept in the cargo target dir under the hash of
 * its input, wasm-opt's version and flags, so a rebuild with nothing changed copies it
 * instead of spending the 8 to 10 s wasm-opt takes here.
 */
function wasmOpt(file, cacheDir) {
  const before = fs.statSync(file).size;
  const args = ['-Os', ...WASM_FEATURES, '--strip-producers'];
  const key = crypto
    .createHash('sha256')
    .update(output('wasm-opt', ['--version']))
    .update(args.join(' '))
    .update(fs.readFileSync(file))
    .digest('hex');
  const cached = path.join(cacheDir, `${key.slice(0, 32)}.wasm`);
  if (fs.existsSync(cached)) {
    fs.copyFileSync(cached, file);
    console.log(`  ${path.relative(root, file)}: ${before} -> ${fs.statSync(file).size} bytes (input unchanged: wasm-opt output reused from ${path.relative(root, cached)})`);
    return;
  }
  const tmp = `${file}.opt`;
  run('wasm-opt', [...args, file, '-o', tmp]);
  fs.renameSync(tmp, file);
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.copyFileSync(file, cached);
  // Keep the four newest outputs (node and web builds, twice over).
  const entries = fs.readdirSync(cacheDir).map((f) => path.join(cacheDir, f));
  entries.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  for (const old of entries.slice(4)) fs.rmSync(old, { force: true });
  console.log(`  ${path.relative(root, file)}: ${before} -> ${fs.statSync(file).size} bytes`);
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Public names of the CommonJS build, read from the module itself. */
function exportNames(cjsFile) {
  const require = createRequire(import.meta.url);
  const mod = require(cjsFile);
  const names = Object.keys(mod).filter((n) => !n.startsWith('__') && /^[A-Za-z_$][\w$]*$/.test(n));
  if (names.includes('default')) fail('the wasm module exports "default", which the ESM wrapper reserves');
  return names.sort();
}

function writeEsmWrapper(names) {
  step(`pkg/index.mjs re-exports ${names.length} names: ${names.join(', ') || '(none)'}`);
  const list = names.map((n) => `  ${n},`).join('\n');
  fs.writeFileSync(
    path.join(pkgDir, 'index.mjs'),
    `// Generated by scripts/build.mjs: the CommonJS build, as an ES module for Node.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const wasm = require('./node/index.js');

export const {
${list}
} = wasm;
export default wasm;
`,
  );
  fs.writeFileSync(
    path.join(pkgDir, 'index.d.mts'),
    `// Generated by scripts/build.mjs.
export * from './node/index.js';
import * as wasm from './node/index.js';
export default wasm;
`,
  );
}

function writePackageJson(version) {
  const template = JSON.parse(fs.readFileSync(path.join(root, 'pkg-template', 'package.json'), 'utf8'));
  const toml = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8');
  const field = (name) => toml.match(new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, 'm'))?.[1];
  const generated = {
    ...template,
    version,
    description: template.description ?? field('description'),
    license: template.license ?? field('license'),
  };
  delete generated.$comment;
  writeJson(path.join(pkgDir, 'package.json'), generated);
  // Each build folder says what its .js files are, whatever the parent says.
  writeJson(path.join(pkgDir, 'node', 'package.json'), { type: 'commonjs' });
  writeJson(path.join(pkgDir, 'web', 'package.json'), { type: 'module' });
  const readme = path.join(root, 'README.md');
  if (fs.existsSync(readme)) fs.copyFileSync(readme, path.join(pkgDir, 'README.md'));
  return generated;
}

/**
 * The package's JS: one core over both wasm-bindgen builds, each entry building the API
 * with its RSA provider, and one declaration file for both entries.
 */
function copyWrappers() {
  step('JS core and entries: pkg/{node,web}/core.js, index.js, the RSA providers, index.d.ts');
  const copies = [
    ['node.cjs', 'node/index.js'],
    ['node-crypto.cjs', 'node/node-crypto.js'],
    ['web.mjs', 'web/index.js'],
    ['web-crypto.mjs', 'web/web-crypto.js'],
    ['core.mjs', 'web/core.js'],
    ['index.d.ts', 'node/index.d.ts'],
  ];
  for (const [from, to] of copies) {
    fs.copyFileSync(path.join(root, 'pkg-template', from), path.join(pkgDir, to));
    console.log(`  pkg-template/${from} -> pkg/${to}`);
  }
  // The command line: CommonJS whatever the parent says (its shebang runs it through node).
  fs.copyFileSync(path.join(root, 'pkg-template', 'cli.cjs'), path.join(pkgDir, 'cli.js'));
  fs.chmodSync(path.join(pkgDir, 'cli.js'), 0o755);
  console.log('  pkg-template/cli.cjs -> pkg/cli.js (executable)');
  // The local sandbox, `payment-intake/sandbox` (ES modules over ../index.mjs).
  fs.cpSync(path.join(root, 'pkg-template', 'sandbox'), path.join(pkgDir, 'sandbox'), { recursive: true });
  console.log('  pkg-template/sandbox/ -> pkg/sandbox/ (the local sandbox)');
  // The debugger page, for `payment-intake debugger`. Its files are copied as they are:
  // they import `../pkg/web/index.js`, which that command's server maps to <package>/web/.
  fs.cpSync(path.join(root, 'www'), path.join(pkgDir, 'www'), { recursive: true, filter: (f) => !path.basename(f).startsWith('.') });
  console.log('  www/ -> pkg/www/ (the debugger page)');
  // The web entry's types: the same declarations, and `init()` as the default export.
  const types = fs.readFileSync(path.join(root, 'pkg-template', 'index.d.ts'), 'utf8');
  fs.writeFileSync(path.join(pkgDir, 'web', 'index.d.ts'), `${types}export { default } from './payment_intake.js';\n`);
  console.log('  pkg-template/index.d.ts -> pkg/web/index.d.ts (with the default export init)');
  // The core as CommonJS for the Node build: its one `export` line made module.exports.
  const core = fs.readFileSync(path.join(root, 'pkg-template', 'core.mjs'), 'utf8');
  const exportLine = /^export \{ ([\w, ]+) \};\n/m;
  const matches = core.match(new RegExp(exportLine.source, 'gm')) ?? [];
  if (matches.length !== 1 || /^(?:export|import)\b/m.test(core.replace(exportLine, ''))) {
    fail('pkg-template/core.mjs must have exactly one `export { … };` line and no other import or export');
  }
  const cjs = `// Generated by scripts/build.mjs from pkg-template/core.mjs, as CommonJS.\n'use strict';\n\n${core.replace(
    exportLine,
    (_, names) => `module.exports = { ${names} };\n`,
  )}`;
  fs.writeFileSync(path.join(pkgDir, 'node', 'core.js'), cjs);
  console.log('  pkg-template/core.mjs -> pkg/node/core.js (CommonJS)');
}

/** Loads both builds in a fresh Node process: the optimised wasm must instantiate. */
function smokeTest(names) {
  step('loading the built package (CommonJS, ES module wrapper, web build via initSync)');
  const script = `
    const assert = require('node:assert');
    const fs = require('node:fs');
    const path = require('node:path');
    const { pathToFileURL } = require('node:url');
    const pkg = ${JSON.stringify(pkgDir)};
    const names = ${JSON.stringify(names)};
    (async () => {
      const cjs = require(pkg);
      assert.deepStrictEqual(Object.keys(cjs).filter((n) => !n.startsWith('__')).sort(), names);
      const esm = await import(pathToFileURL(path.join(pkg, 'index.mjs')).href);
      for (const n of names) assert.strictEqual(esm[n], cjs[n], n);
      const web = await import(pathToFileURL(path.join(pkg, 'web', 'index.js')).href);
      web.initSync({ module: fs.readFileSync(path.join(pkg, 'web', '${crateName}_bg.wasm')) });
      for (const n of names) assert.ok(n in web, 'web build lacks ' + n);
      if (typeof cjs.errorCodes === 'function') {
        assert.deepStrictEqual(web.errorCodes(), cjs.errorCodes());
        console.log('  errorCodes(): ' + cjs.errorCodes().length + ' codes from both builds');
      }
      console.log('  ok: node (require), node (import) and web (initSync) all load');
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  run(process.execPath, ['-e', script], {}, 'node -e <load pkg/ three ways>');
}

function reportSizes() {
  step('sizes');
  for (const dir of ['node', 'web']) {
    const file = path.join(pkgDir, dir, `${crateName}_bg.wasm`);
    const bytes = fs.readFileSync(file);
    const gz = zlib.gzipSync(bytes, { level: 9 }).length;
    const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
    console.log(`  pkg/${dir}/${crateName}_bg.wasm: ${bytes.length} bytes (${kib(bytes.length)}) raw, ${gz} bytes (${kib(gz)}) gzip`);
  }
}

const started = Date.now();
const env = checkTools();
const version = crateVersion();
const { wasm, targetDir } = cargoBuild();
const optCache = path.join(targetDir, 'wasm-opt-cache');
fs.rmSync(pkgDir, { recursive: true, force: true });
bindgen(wasm, 'nodejs', path.join(pkgDir, 'node'));
bindgen(wasm, 'web', path.join(pkgDir, 'web'));
step('wasm-opt -Os');
const nodeWasm = path.join(pkgDir, 'node', `${crateName}_bg.wasm`);
const webWasm = path.join(pkgDir, 'web', `${crateName}_bg.wasm`);
const sameInput = fs.readFileSync(nodeWasm).equals(fs.readFileSync(webWasm));
wasmOpt(nodeWasm, optCache);
if (sameInput) {
  fs.copyFileSync(nodeWasm, webWasm);
  console.log(`  ${path.relative(root, webWasm)}: same module as the node build, copied`);
} else {
  wasmOpt(webWasm, optCache);
}
const manifest = writePackageJson(version);
copyWrappers();
const names = exportNames(path.join(pkgDir, 'node', 'index.js'));
writeEsmWrapper(names);
smokeTest(names);
reportSizes();
console.log(`\n[build] ${manifest.name}@${manifest.version} built in pkg/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
