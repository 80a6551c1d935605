// Rust: cargo itself, the wasm32 target, the rustfmt and clippy components, and
// wasm-bindgen-cli at exactly the version Cargo.toml pins.
import fs from 'node:fs';
import path from 'node:path';

import { SetupError, cargoBinDir, install, output, root, say, which } from './run.mjs';

export const WASM_TARGET = 'wasm32-unknown-unknown';

export function requireCargo() {
  if (!output('cargo', ['--version'])) {
    throw new SetupError('cargo is not on PATH (Rust is needed)', "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh");
  }
}

export function ensureWasmTarget() {
  const libdir = output('rustc', ['--print', 'target-libdir', '--target', WASM_TARGET]);
  const present = libdir && fs.existsSync(libdir) && fs.readdirSync(libdir).some((f) => f.startsWith('libcore-'));
  if (present) {
    say(`ok: rust target ${WASM_TARGET}`);
    return null;
  }
  const fix = `rustup target add ${WASM_TARGET}`;
  if (!which('rustup')) throw new SetupError(`the Rust standard library for ${WASM_TARGET} is missing and rustup is not on PATH`, fix);
  return install(`rust target ${WASM_TARGET}`, 'rustup', ['target', 'add', WASM_TARGET], 'about 10 s: downloads the standard library for wasm32, about 20 MB', fix);
}

export function ensureLintComponents() {
  const missing = [
    ['rustfmt', ['cargo', ['fmt', '--version']]],
    ['clippy', ['cargo', ['clippy', '--version']]],
  ].filter(([, [cmd, args]]) => !output(cmd, args)).map(([name]) => name);
  if (!missing.length) {
    say('ok: rustfmt, clippy');
    return null;
  }
  const fix = `rustup component add ${missing.join(' ')}`;
  if (!which('rustup')) throw new SetupError(`${missing.join(' and ')} missing and rustup is not on PATH`, fix);
  return install(missing.join(' and '), 'rustup', ['component', 'add', ...missing], 'about 10 s: downloads from the Rust distribution server', fix);
}

// wasm-bindgen-cli at the pinned version

/** The exact wasm-bindgen version the crate pins (`wasm-bindgen = "=X"`). */
export function pinnedBindgenVersion() {
  const toml = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8');
  const m = toml.match(/^wasm-bindgen\s*=\s*(?:"=?([^"]+)"|\{[^}]*version\s*=\s*"=?([^"]+)")/m);
  if (!m) throw new SetupError('no wasm-bindgen dependency in Cargo.toml', 'git checkout Cargo.toml');
  return m[1] ?? m[2];
}

function bindgenProblem(version) {
  for (const bin of ['wasm-bindgen', 'wasm-bindgen-test-runner']) {
    const have = output(bin, ['--version']);
    if (have !== `${bin} ${version}`) return have ? `found "${have}"` : `${bin} is not on PATH`;
  }
  return null;
}

export function ensureBindgen() {
  requireCargo();
  const version = pinnedBindgenVersion();
  const problem = bindgenProblem(version);
  if (!problem) {
    say(`ok: wasm-bindgen, wasm-bindgen-test-runner ${version} (${path.dirname(which('wasm-bindgen'))})`);
    return null;
  }
  say(`wasm-bindgen-cli: Cargo.toml pins ${version}, ${problem}`);
  const fix = `cargo install wasm-bindgen-cli --version ${version}`;
  const took = install(
    `wasm-bindgen-cli ${version}`,
    'cargo',
    ['install', 'wasm-bindgen-cli', '--version', version],
    'about 1.5 to 2.5 min on 2 cores: compiles from crates.io source; cargo may print nothing new for a minute',
    fix,
  );
  const after = bindgenProblem(version);
  if (after) {
    throw new SetupError(
      `after the install, ${after}: another wasm-bindgen comes first on PATH, or ${cargoBinDir()} is not on it`,
      `export PATH="${cargoBinDir()}:$PATH"`,
    );
  }
  return took;
}
