#!/usr/bin/env node
// Builds the npm package in pkg/ from one release build of the crate:
//   pkg/web/   the package's one .wasm and both wasm-bindgen glues next to it: the ES
//              module one (--target web, payment_intake.js) and the CommonJS one
//              (--target nodejs, renamed payment_intake_node.cjs). Both targets import
//              the same module names, so their .wasm files are the same bytes (checked):
//              one is shipped. Entries here (ES modules):
//              index.js (pkg-template/web.mjs): browsers, needs init(); WebCrypto
//              (web-crypto.js, from pkg-template/web-crypto.mjs)
//              edge.js (pkg-template/edge.mjs): workerd / edge-light, imports the .wasm
//              as a module and instantiates it itself
//              node.js (pkg-template/node.mjs): Node as a real ES module, for bundlers
//              (the `module` condition), reads the .wasm beside it
//              inline.js (node.mjs with the .wasm as base64 in inline-wasm.js): payment-intake/inline,
//              a bundle with no file to copy
//   pkg/node/  CommonJS: index.js (pkg-template/node.cjs) over ../web/payment_intake_node.cjs,
//              loads synchronously; the
//              nodejs target's payment_intake.d.ts
//   core.js in both, from pkg-template/core.mjs (CommonJS for node/): the API, written
//              once with the RSA provider injected, over its modules errors.js, keys.js,
//              callbacks.js, requests.js and wasm-io.js (the same from pkg-template/)
//   node-crypto.js in both, from pkg-template/node-crypto.mjs (CommonJS for node/): the
//              node:crypto provider of the two Node entries
//   index.d.ts in both, from pkg-template/index.d.ts
//   pkg/index.mjs + index.d.mts  ES module for Node: pkg/node/index.js by `require`
//              (one instance for `import` and `require`), no init needed
//   pkg/package.json  from pkg-template/package.json, version from Cargo.toml
//   pkg/README.md, CHANGELOG.md, LICENSE-MIT, LICENSE-APACHE, examples/*.mjs  copied from the root
//   pkg/cli.js  the command line (the package's "bin"), from pkg-template/cli.cjs, executable,
//              over pkg/cli/ (from pkg-template/cli/: the flags, one file per command)
//   pkg/sandbox/  the local sandbox (`payment-intake/sandbox`), from pkg-template/sandbox/
//   pkg/otel/  OpenTelemetry hooks (`payment-intake/otel`), from pkg-template/otel/
// Every .wasm is run through wasm-opt from the npm package `binaryen`.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { pinnedBindgenVersion, setup } from './setup.mjs';
import { copyClient, copyModules } from './build-client.mjs';

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
  // SIMD128 (.cargo/config.toml): hazmat's Montgomery multiplication.
  '--enable-simd',
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
 * wasm-opt -Os --converge in place. Its output is kept in the cargo target dir under the hash of
 * its input, wasm-opt's version and flags, so a rebuild with nothing changed copies it
 * instead of spending the 8 to 10 s wasm-opt takes here.
 */
function wasmOpt(file, cacheDir) {
  const before = fs.statSync(file).size;
  // --converge: the passes again until the module stops shrinking (346 bytes of gzip
  // measured, the build's wasm-opt step 2 to 3 times as long; its output is cached).
  // -Oz instead of -Os measured only 69 bytes of gzip smaller. The producers and
  // target_features custom sections are metadata no runtime reads (157 bytes the latter).
  const args = ['-Os', '--converge', ...WASM_FEATURES, '--strip-producers', '--strip-target-features'];
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
    `// Generated by scripts/build.mjs: the CommonJS build, as an ES module for Node, loaded by
// \`require\`, so \`import\` and \`require\` share one instance (and Node's ES module loader does
// not scan the CommonJS file for names, a cost on every cold start); bundlers take
// ./web/node.js instead.
import { createRequire } from 'node:module';

const wasm = createRequire(import.meta.url)('./node/index.js');

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
/** \`init\` (a no-op on Node: the wasm is loaded on import), carrying the whole API. */
declare const api: typeof wasm.init & typeof wasm;
export default api;
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
  // The documents a user reads, and the examples the README links: copied as they are.
  for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE-MIT', 'LICENSE-APACHE']) {
    fs.copyFileSync(path.join(root, file), path.join(pkgDir, file));
  }
  fs.mkdirSync(path.join(pkgDir, 'examples'));
  for (const file of fs.readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('.mjs'))) {
    fs.copyFileSync(path.join(root, 'examples', file), path.join(pkgDir, 'examples', file));
  }
  return generated;
}

/**
 * A template ES module as CommonJS. The shapes it may have are few, so the rewrite is
 * exact: `import name from 'node:…';` and `import { a, b } from './x.js';` lines become
 * `require`, and its one export, either `export { a, b };` or `export default …`, becomes
 * `module.exports`. Anything else fails.
 */
function asCommonJs(file) {
  let text = fs.readFileSync(path.join(root, 'pkg-template', file), 'utf8');
  text = text.replace(/^import (\w+) from '(node:\w+)';$/gm, "const $1 = require('$2');");
  text = text.replace(/^import \{ ([\w, ]+) \} from '(\.\/[\w-]+\.js)';$/gm, "const { $1 } = require('$2');");
  const named = /^export \{ ([\w, ]+) \};$/m;
  const fallback = /^export default /m;
  const exports = [...text.matchAll(/^export\b.*$/gm)];
  if (exports.length !== 1 || !(named.test(text) || fallback.test(text)) || /^import\b/m.test(text)) {
    fail(`pkg-template/${file} must have one \`export { … };\` or \`export default\`, and import only node: builtins by default import and ./ modules by name`);
  }
  text = text.replace(named, 'module.exports = { $1 };').replace(fallback, 'module.exports = ');
  return `// Generated by scripts/build.mjs from pkg-template/${file}, as CommonJS.\n'use strict';\n\n${text}`;
}

/** The JS core's modules (pkg-template/core.mjs says what each owns), in both builds. */
const CORE_MODULES = ['core.mjs', 'errors.mjs', 'keys.mjs', 'callbacks.mjs', 'requests.mjs', 'wasm-io.mjs', 'body-stream.mjs'];

/**
 * The package's JS: one core over both wasm-bindgen builds, each entry building the API
 * with its RSA provider, and one declaration file for both entries.
 */
function copyWrappers() {
  step('JS core and entries: pkg/{node,web}/core.js, index.js, the RSA providers, index.d.ts');
  const copies = [
    ['node.cjs', 'node/index.js'],
    ['node-crypto.mjs', 'web/node-crypto.js'],
    ['web.mjs', 'web/index.js'],
    ['node.mjs', 'web/node.js'],
    ['edge.mjs', 'web/edge.js'],
    ['web-crypto.mjs', 'web/web-crypto.js'],
    ...CORE_MODULES.map((file) => [file, `web/${file.replace('.mjs', '.js')}`]),
  ];
  for (const [from, to] of copies) {
    fs.copyFileSync(path.join(root, 'pkg-template', from), path.join(pkgDir, to));
    console.log(`  pkg-template/${from} -> pkg/${to}`);
  }
  // The client (`createClient`), ES modules in web/ and CommonJS in node/ (scripts/build-client.mjs).
  console.log(`  pkg-template/client/ -> pkg/${copyClient(root, pkgDir).join(', pkg/')}`);
  // The callback handler (`createCallbackHandler`) and memoryStore, the same way; the stores
  // with an entry of their own (`payment-intake/stores/postgres`) to pkg/stores/ as they are.
  console.log(`  pkg-template/receiver/ -> pkg/${copyModules(root, pkgDir, 'receiver').join(', pkg/')}`);
  console.log(`  pkg-template/stores/memory.mjs, due.mjs -> pkg/${copyModules(root, pkgDir, 'stores', ['memory.mjs', 'due.mjs']).join(', pkg/')}`);
  copyStoreEntries();
  // The command line: CommonJS whatever the parent says (its shebang runs it through node).
  fs.copyFileSync(path.join(root, 'pkg-template', 'cli.cjs'), path.join(pkgDir, 'cli.js'));
  fs.chmodSync(path.join(pkgDir, 'cli.js'), 0o755);
  fs.cpSync(path.join(root, 'pkg-template', 'cli'), path.join(pkgDir, 'cli'), { recursive: true });
  console.log('  pkg-template/cli.cjs -> pkg/cli.js (executable), pkg-template/cli/ -> pkg/cli/ (its commands)');
  // The local sandbox, `payment-intake/sandbox` (ES modules over ../index.mjs).
  fs.cpSync(path.join(root, 'pkg-template', 'sandbox'), path.join(pkgDir, 'sandbox'), { recursive: true });
  console.log('  pkg-template/sandbox/ -> pkg/sandbox/ (the local sandbox)');
  // `payment-intake/otel`: ES modules that import nothing, copied as they are (every runtime).
  fs.cpSync(path.join(root, 'pkg-template', 'otel'), path.join(pkgDir, 'otel'), { recursive: true });
  console.log('  pkg-template/otel/ -> pkg/otel/ (OpenTelemetry hooks)');
  // The debugger page, for `payment-intake debugger`. Its files are copied as they are:
  // they import `../pkg/web/index.js`, which that command's server maps to <package>/web/.
  fs.cpSync(path.join(root, 'www'), path.join(pkgDir, 'www'), { recursive: true, filter: (f) => !path.basename(f).startsWith('.') });
  console.log('  www/ -> pkg/www/ (the debugger page)');
  // The web entry's types: the same declarations, and `init()` as the default export
  // (edge.js has the same exports). The node entry's: with its no-op `init`/`initSync`.
  const types = fs.readFileSync(path.join(root, 'pkg-template', 'index.d.ts'), 'utf8');
  fs.writeFileSync(path.join(pkgDir, 'web', 'index.d.ts'), `${types}export { default } from './payment_intake.js';\n`);
  console.log('  pkg-template/index.d.ts -> pkg/web/index.d.ts (with the default export init)');
  fs.writeFileSync(
    path.join(pkgDir, 'node', 'index.d.ts'),
    `${types}
/** Does nothing: on Node the wasm is loaded on import. Exists so code written for the browser build runs here. */
export function init(moduleOrPath?: unknown): Promise<void>;
/** Does nothing: on Node the wasm is loaded on import. Exists so code written for the browser build runs here. */
export function initSync(module?: unknown): void;
`,
  );
  console.log('  pkg-template/index.d.ts -> pkg/node/index.d.ts (with no-op init, initSync)');
  fs.copyFileSync(path.join(pkgDir, 'web', 'index.d.ts'), path.join(pkgDir, 'web', 'edge.d.ts'));
  fs.copyFileSync(path.join(pkgDir, 'node', 'index.d.ts'), path.join(pkgDir, 'web', 'node.d.ts'));
  // The core, its modules and the node:crypto provider as CommonJS for the Node build.
  for (const file of [...CORE_MODULES, 'node-crypto.mjs']) {
    fs.writeFileSync(path.join(pkgDir, 'node', file.replace('.mjs', '.js')), asCommonJs(file));
    console.log(`  pkg-template/${file} -> pkg/node/${file.replace('.mjs', '.js')} (CommonJS)`);
  }
}

/** pkg-template/stores/*.mjs and .d.ts but memory.mjs: each its own entry (`payment-intake/stores/<name>`, Node ES modules). */
function copyStoreEntries() {
  fs.mkdirSync(path.join(pkgDir, 'stores'), { recursive: true });
  for (const file of fs.readdirSync(path.join(root, 'pkg-template', 'stores')).filter((f) => f !== 'memory.mjs' && /\.(mjs|d\.ts)$/.test(f))) {
    fs.copyFileSync(path.join(root, 'pkg-template', 'stores', file), path.join(pkgDir, 'stores', file));
    console.log(`  pkg-template/stores/${file} -> pkg/stores/${file}`);
  }
}

/**
 * `payment-intake/inline`: pkg/web/inline.js is pkg-template/node.mjs with its reading of the
 * .wasm replaced by the bytes themselves, base64 in pkg/web/inline-wasm.js, compiled at once
 * (`new WebAssembly.Module`), so a bundle made from it runs with no file beside it. Its types
 * are the Node entry's (package.json).
 */
function writeInlineEntry() {
  step('pkg/web/inline.js: the Node ES module entry with the .wasm inside (payment-intake/inline)');
  const source = fs.readFileSync(path.join(root, 'pkg-template', 'node.mjs'), 'utf8');
  const readFs = /^import \{ readFileSync \} from 'node:fs';\n/m;
  const readWasm = /^(?:\/\/.*\n)*const wasmFile = [\s\S]*?^glue\.initSync\(\{ module: wasmBytes \}\);$/m;
  if (!readFs.test(source) || !readWasm.test(source)) {
    fail('pkg-template/node.mjs: writeInlineEntry finds no `readFileSync` import, or no block from `const wasmFile` to `glue.initSync({ module: wasmBytes });`');
  }
  const inline = source
    .replace(/^(?:\/\/.*\n)+/, '')
    .replace(readFs, "import wasmBase64 from './inline-wasm.js';\n")
    .replace(readWasm, "// The .wasm is carried in ./inline-wasm.js as base64: nothing to read, nothing to copy into a bundle.\nglue.initSync({ module: new WebAssembly.Module(Buffer.from(wasmBase64, 'base64')) });");
  fs.writeFileSync(path.join(pkgDir, 'web', 'inline.js'), `// Generated by scripts/build.mjs from pkg-template/node.mjs: payment-intake/inline, the Node ES module\n// entry with the .wasm inside (./inline-wasm.js), compiled as it loads: a bundle needs no file beside it.\n${inline}`);
  const wasm = fs.readFileSync(path.join(pkgDir, 'web', `${crateName}_bg.wasm`));
  const base64 = wasm.toString('base64');
  fs.writeFileSync(path.join(pkgDir, 'web', 'inline-wasm.js'), `// Generated by scripts/build.mjs: ${crateName}_bg.wasm as base64, for ./inline.js.\nexport default '${base64}';\n`);
  console.log(`  pkg/web/inline.js, inline-wasm.js: the .wasm's ${wasm.length} bytes as ${base64.length} characters of base64`);
}

/** Loads both builds in a fresh Node process: the optimised wasm must instantiate. */
function smokeTest(names) {
  step('loading the built package (CommonJS, ES module wrapper, web/node.js, web build via initSync)');
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
      const bundlerEsm = await import(pathToFileURL(path.join(pkg, 'web', 'node.js')).href);
      for (const n of names) assert.ok(typeof bundlerEsm[n] === typeof cjs[n], 'web/node.js lacks ' + n);
      const web = await import(pathToFileURL(path.join(pkg, 'web', 'index.js')).href);
      web.initSync({ module: fs.readFileSync(path.join(pkg, 'web', '${crateName}_bg.wasm')) });
      for (const n of names) if (n !== 'init') assert.ok(n in web, 'web build lacks ' + n); // its init is the default export
      if (typeof cjs.errorCodes === 'function') {
        assert.deepStrictEqual(web.errorCodes(), cjs.errorCodes());
        console.log('  errorCodes(): ' + cjs.errorCodes().length + ' codes from both builds');
      }
      console.log('  ok: node (require), node (import), web/node.js and web (initSync) all load');
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  run(process.execPath, ['-e', script], {}, 'node -e <load pkg/ four ways>');
}

function reportSizes() {
  step('sizes');
  for (const dir of ['web']) {
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
step('one .wasm for both glues');
const nodeWasm = path.join(pkgDir, 'node', `${crateName}_bg.wasm`);
const webWasm = path.join(pkgDir, 'web', `${crateName}_bg.wasm`);
// Both glues give the wasm the same import module name (./payment_intake_bg.js), so
// wasm-bindgen writes the same bytes for both targets; the nodejs glue reads the file
// next to itself, so it moves into web/ under its own name.
if (!fs.readFileSync(nodeWasm).equals(fs.readFileSync(webWasm))) {
  fail('wasm-bindgen wrote different .wasm files for --target nodejs and --target web: the package ships one, shared by both glues');
}
fs.renameSync(path.join(pkgDir, 'node', `${crateName}.js`), path.join(pkgDir, 'web', `${crateName}_node.cjs`));
for (const f of [nodeWasm, `${nodeWasm.slice(0, -5)}.wasm.d.ts`]) fs.rmSync(f);
console.log(`  pkg/node/${crateName}.js -> pkg/web/${crateName}_node.cjs; pkg/node/${crateName}_bg.wasm (the same bytes as pkg/web's) removed`);
step('wasm-opt -Os');
wasmOpt(webWasm, optCache);
const manifest = writePackageJson(version);
copyWrappers();
writeInlineEntry();
const names = exportNames(path.join(pkgDir, 'node', 'index.js'));
writeEsmWrapper(names);
smokeTest(names);
reportSizes();
console.log(`\n[build] ${manifest.name}@${manifest.version} built in pkg/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
