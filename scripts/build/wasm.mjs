// The .wasm and its two wasm-bindgen glues (scripts/build.mjs says where each goes): the tools
// checked, the crate built for wasm32, both glues written, one .wasm kept for both, wasm-opt.
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pinnedBindgenVersion, setup } from '../setup.mjs';
import { crateName, fail, output, pkgDir, root, run, step, useToolEnv } from './common.mjs';

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

/** `version = "..."` of the [package] table of Cargo.toml. */
export function crateVersion() {
  const toml = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8');
  const pkgTable = toml.split(/^\[/m).find((t) => t.startsWith('package]'));
  const m = pkgTable && pkgTable.match(/^version\s*=\s*"([^"]+)"/m);
  if (!m) fail('no version in the [package] table of Cargo.toml');
  return m[1];
}

/** Installs what is missing (scripts/setup.mjs), shows the versions the build uses, and runs the tools with that PATH. */
export function checkTools() {
  step('checking tools (scripts/setup.mjs installs what is missing)');
  const toolEnv = setup(['build']);
  useToolEnv(toolEnv);
  const wasmOptBin = path.join(binDir, process.platform === 'win32' ? 'wasm-opt.cmd' : 'wasm-opt');
  const version = (cmd) => execFileSync(cmd, ['--version'], { cwd: root, env: toolEnv, encoding: 'utf8' }).trim();
  console.log(`${version('wasm-opt')} (${path.relative(root, wasmOptBin)})`);
  console.log(`${version('wasm-bindgen')} (Cargo.toml pins ${pinnedBindgenVersion()})`);
}

/**
 * The lean .wasm files, for browsers and edge runtimes (`payment-intake/lean`, `payment-intake/receiver`,
 * scripts/build/modules.mjs): the crate without its `wasm-rsa` feature (no RSA arithmetic, keys read
 * by src/rsa/keys/der.rs; RSA is WebCrypto's, async) and, for the receiver, without `full-api` (only
 * what verifying and reading callbacks needs is exported). Each builds in a target dir of its own:
 * one crate built with other features into the same dir writes the same payment_intake.wasm, which
 * cargo could then take for the other build's, fresh. Optimised for size ("z" everywhere: what
 * level 2 makes fast in the full build is its RSA arithmetic and validation), with the ES module
 * glue only (their declarations are the full glue's: the same API).
 */
export const LEAN_BUILDS = [
  { name: 'lean', features: ['full-api'] },
  { name: 'receiver', features: [] },
];
const SIZE_PROFILE = ['opt-level="z"', ...['serde_json', 'sha2', 'base64'].map((p) => `package.${p}.opt-level="z"`)];

function cargoBuild(build) {
  const args = ['build', '--release', '--target', 'wasm32-unknown-unknown', '--lib'];
  const meta = JSON.parse(output('cargo', ['metadata', '--format-version', '1', '--no-deps']));
  let targetDir = meta.target_directory;
  if (build) {
    targetDir = path.join(meta.target_directory, `wasm-${build.name}`);
    args.push('--no-default-features', ...(build.features.length ? ['--features', build.features.join(',')] : []), '--target-dir', targetDir);
    for (const setting of SIZE_PROFILE) args.push('--config', `profile.release.${setting}`);
  }
  step(`cargo ${args.join(' ')}`);
  run('cargo', args);
  const wasm = path.join(targetDir, 'wasm32-unknown-unknown', 'release', `${crateName}.wasm`);
  if (!fs.existsSync(wasm)) fail(`cargo did not produce ${wasm}`);
  return { wasm, targetDir: meta.target_directory };
}

function bindgen(wasm, target, outDir, outName = crateName) {
  step(`wasm-bindgen --target ${target} -> ${path.relative(root, outDir)}/${outName}`);
  run('wasm-bindgen', ['--target', target, '--typescript', '--out-dir', outDir, '--out-name', outName, wasm]);
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
  // --low-memory-unused: addresses below 1024 are never read or written, so a constant added
  // to an address folds into the load's offset (4.9 KB raw, 1.1 KB of gzip smaller, measured
  // 2026-12-07). True of this crate: Rust's wasm32 linker puts the stack first, from 1 MiB down
  // to 0, and the crate's depth and size limits keep it far from its bottom.
  const args = ['-Os', '--converge', '--low-memory-unused', ...WASM_FEATURES, '--strip-producers', '--strip-target-features'];
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
  // Keep the six newest outputs (the full, lean and receiver builds, twice over).
  const entries = fs.readdirSync(cacheDir).map((f) => path.join(cacheDir, f));
  entries.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  for (const old of entries.slice(6)) fs.rmSync(old, { force: true });
  console.log(`  ${path.relative(root, file)}: ${before} -> ${fs.statSync(file).size} bytes`);
}

/**
 * pkg/ made afresh with the wasm build in it: pkg/web/ holds the one .wasm (optimised), the
 * ES module glue (payment_intake.js) and the CommonJS one (payment_intake_node.cjs); pkg/node/
 * the CommonJS glue's declarations (payment_intake.d.ts, web/'s too).
 */
export function buildWasm() {
  const { wasm, targetDir } = cargoBuild();
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
  // The web glue's declarations are the nodejs glue's (the same exports, without its init's,
  // which name DOM types): init and initSync are declared in pkg-template/web-init.d.ts.
  fs.copyFileSync(path.join(pkgDir, 'node', `${crateName}.d.ts`), path.join(pkgDir, 'web', `${crateName}.d.ts`));
  for (const f of [nodeWasm, `${nodeWasm.slice(0, -5)}.wasm.d.ts`]) fs.rmSync(f);
  console.log(`  pkg/node/${crateName}.js -> pkg/web/${crateName}_node.cjs; pkg/node/${crateName}_bg.wasm (the same bytes as pkg/web's) removed`);
  step('wasm-opt -Os');
  wasmOpt(webWasm, path.join(targetDir, 'wasm-opt-cache'));
  for (const build of LEAN_BUILDS) {
    const lean = cargoBuild(build);
    const name = `${crateName}_${build.name}`;
    bindgen(lean.wasm, 'web', path.join(pkgDir, 'web'), name);
    for (const f of [`${name}.d.ts`, `${name}_bg.wasm.d.ts`]) fs.rmSync(path.join(pkgDir, 'web', f));
    wasmOpt(path.join(pkgDir, 'web', `${name}_bg.wasm`), path.join(targetDir, 'wasm-opt-cache'));
  }
}

export function reportSizes() {
  step('sizes');
  for (const name of [crateName, ...LEAN_BUILDS.map((b) => `${crateName}_${b.name}`)]) {
    const bytes = fs.readFileSync(path.join(pkgDir, 'web', `${name}_bg.wasm`));
    const gz = zlib.gzipSync(bytes, { level: 9 }).length;
    const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
    console.log(`  pkg/web/${name}_bg.wasm: ${bytes.length} bytes (${kib(bytes.length)}) raw, ${gz} bytes (${kib(gz)}) gzip`);
  }
}
