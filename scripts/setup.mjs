#!/usr/bin/env node
// What the build and the tests need on this machine, and how each is installed.
// scripts/build.mjs (npm start, npm run build), scripts/test.mjs (npm test),
// scripts/lint.mjs and .ci/run all call this; it installs only what is missing:
//
//   npm        the devDependencies (wasm-opt from binaryen, tsc, playwright-core, eslint):
//              `npm ci` when node_modules/ is absent or differs from package-lock.json
//   wasm32     the rustup target wasm32-unknown-unknown: `rustup target add`
//   bindgen    wasm-bindgen and wasm-bindgen-test-runner at exactly the version
//              Cargo.toml pins: `cargo install wasm-bindgen-cli --version X`
//   browser    Chromium and chromedriver, Debian packages (needs root or sudo)
//   servers    PostgreSQL and Redis, Debian packages `postgresql` and `redis-server` (needs
//              root or sudo): the store tests and the multi-process receiver test start a
//              throwaway server of each (tests/support/servers.mjs); no service is used
//   lint       the rustup components rustfmt and clippy
//
// Every install says what it runs and about how long it takes; a failure names the
// one command that fixes it. Lines start with "[setup]"; a run that installed
// nothing ends with "[setup] nothing to install", one that did with "[setup] installed: …".
//
//   node scripts/setup.mjs                 what `npm start` needs (npm wasm32 bindgen)
//   node scripts/setup.mjs test            what `npm test` needs (adds browser, servers)
//   node scripts/setup.mjs ci              what .ci/run needs (test + lint)
//   node scripts/setup.mjs npm bindgen …   just those
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WASM_TARGET = 'wasm32-unknown-unknown';
const PROFILES = {
  build: ['npm', 'wasm32', 'bindgen'],
  test: ['npm', 'wasm32', 'bindgen', 'browser', 'servers'],
  lint: ['npm', 'wasm32', 'lint'],
  ci: ['npm', 'wasm32', 'bindgen', 'browser', 'servers', 'lint'],
};
const ORDER = ['cargo', 'npm', 'wasm32', 'lint', 'bindgen', 'browser', 'servers'];

/** Where `cargo install` puts binaries: $CARGO_INSTALL_ROOT/bin, else $CARGO_HOME/bin. */
function cargoBinDir() {
  if (process.env.CARGO_INSTALL_ROOT) return path.join(process.env.CARGO_INSTALL_ROOT, 'bin');
  return path.join(process.env.CARGO_HOME || path.join(os.homedir(), '.cargo'), 'bin');
}

/**
 * The environment the build and test commands run in: npm's .bin (wasm-opt, tsc)
 * and cargo's bin folder (wasm-bindgen, wasm-bindgen-test-runner) first on PATH.
 */
export function toolEnv(base = process.env) {
  const dirs = [path.join(root, 'node_modules', '.bin'), cargoBinDir()];
  return { ...base, PATH: [...dirs, base.PATH ?? ''].join(path.delimiter) };
}

const env = toolEnv();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const say = (text) => console.log(`[setup] ${text}`);

class SetupError extends Error {
  constructor(problem, fix) {
    super(problem);
    this.fix = fix;
  }
}

/** stdout of a command, or null when it cannot start or exits non-zero. */
function output(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return r.status === 0 ? r.stdout.trim() : null;
}

function which(name) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** Runs an install command with its output shown; throws SetupError with `fix` on failure. */
function install(what, cmd, args, about, fix) {
  const shown = [cmd, ...args].join(' ');
  say(`installing ${what}: ${shown}`);
  say(`  (${about})`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  if (r.error || r.status !== 0) {
    throw new SetupError(`${shown} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`, fix);
  }
  const took = Date.now() - started;
  say(`installed ${what} in ${seconds(took)}`);
  return took;
}

// ---------------------------------------------------------------------------
// npm devDependencies

/** Why node_modules/ does not match package-lock.json, or null when it does. */
function npmStaleReason() {
  const lockFile = path.join(root, 'package-lock.json');
  const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const locked = lock.packages?.[''] ?? {};
  for (const field of ['dependencies', 'devDependencies']) {
    const want = manifest[field] ?? {};
    const have = locked[field] ?? {};
    const names = new Set([...Object.keys(want), ...Object.keys(have)]);
    for (const name of names) {
      if (want[name] !== have[name]) {
        throw new SetupError(
          `package.json and package-lock.json disagree on ${name} (${want[name] ?? 'absent'} vs ${have[name] ?? 'absent'})`,
          'npm install',
        );
      }
    }
  }
  if (!fs.existsSync(path.join(root, 'node_modules'))) return 'node_modules/ is absent';
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (key === '' || entry.link || !key.startsWith('node_modules/')) continue;
    let installed;
    try {
      installed = JSON.parse(fs.readFileSync(path.join(root, key, 'package.json'), 'utf8'));
    } catch {
      // Optional packages for other platforms (e.g. another OS's native binary) are never installed.
      if (entry.optional) continue;
      return `${key} is missing`;
    }
    if (installed.version !== entry.version) {
      return `${key} is ${installed.version}, package-lock.json wants ${entry.version}`;
    }
  }
  return null;
}

function ensureNpm() {
  const why = npmStaleReason();
  if (!why) {
    say('ok: node_modules/ matches package-lock.json');
    return null;
  }
  say(`npm devDependencies: ${why}`);
  return install(
    'npm devDependencies',
    'npm',
    ['ci', '--no-audit', '--no-fund'],
    'about 10 s: downloads about 100 packages from the npm registry',
    'npm ci',
  );
}

// ---------------------------------------------------------------------------
// Rust: the wasm32 target and the rustfmt/clippy components

function requireCargo() {
  if (!output('cargo', ['--version'])) {
    throw new SetupError('cargo is not on PATH (Rust is needed)', "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh");
  }
}

function ensureWasmTarget() {
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

function ensureLintComponents() {
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

// ---------------------------------------------------------------------------
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

function ensureBindgen() {
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

// ---------------------------------------------------------------------------
// Chromium and chromedriver (the browser and e2e suites)

const CHROMIUM_FIX = 'sudo apt-get update && sudo apt-get install -y chromium chromium-driver';

/** [chromium, chromedriver] paths the test suites use, null where missing. */
export function browserPaths() {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  const driver = process.env.CHROMEDRIVER || which('chromedriver');
  return [fs.existsSync(chromium) ? chromium : null, driver && fs.existsSync(driver) ? driver : null];
}

/**
 * How to run a command as root: [] when this is root, ['sudo'] with password-less sudo;
 * throws SetupError (`why`, `fix`) otherwise.
 */
function rootPrefix(why, fix) {
  if (process.getuid?.() === 0) return [];
  if (which('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return ['sudo'];
  throw new SetupError(`${why}, and installing Debian packages needs root (this user is not root and has no password-less sudo)`, fix);
}

/** apt-get update, then apt-get install -y `packages`; the time it took. */
function aptInstall(what, packages, about, missingWhy, fix) {
  const asRoot = rootPrefix(missingWhy, fix);
  const run = (args) => (asRoot.length ? ['sudo', [...args]] : [args[0], args.slice(1)]);
  let took = install('the Debian package index', ...run(['apt-get', 'update']), 'about 5 s', fix);
  took += install(what, ...run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', ...packages]), about, fix);
  return took;
}

function ensureBrowser() {
  const [chromium, driver] = browserPaths();
  if (chromium && driver) {
    const v = output(driver, ['--version'])?.split(' (')[0] ?? 'chromedriver';
    say(`ok: ${chromium}, ${v} (${driver})`);
    return null;
  }
  const missing = [chromium ? null : 'chromium', driver ? null : 'chromedriver'].filter(Boolean).join(' and ');
  const overridden = process.env.CHROMIUM_PATH || process.env.CHROMEDRIVER;
  if (overridden) {
    throw new SetupError(`${missing} not found where CHROMIUM_PATH/CHROMEDRIVER point`, 'unset CHROMIUM_PATH CHROMEDRIVER');
  }
  if (!which('apt-get')) {
    throw new SetupError(
      `${missing} missing, and this is not a Debian-like system (no apt-get) where the tests could install them. ` +
        'Install Chromium and its chromedriver with the system package manager, then set CHROMIUM_PATH and CHROMEDRIVER if they are not /usr/bin/chromium and on PATH',
      'CHROMIUM_PATH=/path/to/chromium CHROMEDRIVER=/path/to/chromedriver npm test',
    );
  }
  const took = aptInstall(
    'chromium and chromium-driver (Debian packages)',
    ['chromium', 'chromium-driver'],
    'about 30 s: downloads about 165 MB',
    `${missing} missing: the browser tests need them`,
    CHROMIUM_FIX,
  );
  const [c2, d2] = browserPaths();
  if (!c2 || !d2) throw new SetupError(`apt-get installed the packages but ${c2 ? 'chromedriver' : '/usr/bin/chromium'} is still missing`, CHROMIUM_FIX);
  return took;
}

// ---------------------------------------------------------------------------
// PostgreSQL and Redis (the store tests and the multi-process receiver test)

export const SERVERS_FIX = 'sudo apt-get update && sudo apt-get install -y postgresql redis-server';

/** The folder of PostgreSQL's initdb and postgres: $PG_BIN, Debian's newest /usr/lib/postgresql/N/bin, or PATH; null when none. */
function postgresBinDir() {
  const has = (dir) => dir && ['initdb', 'postgres'].every((b) => fs.existsSync(path.join(dir, b)));
  if (process.env.PG_BIN) return has(process.env.PG_BIN) ? process.env.PG_BIN : null;
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (has(path.join(debian, v, 'bin'))) return path.join(debian, v, 'bin');
  }
  const initdb = which('initdb');
  return initdb && has(path.dirname(initdb)) ? path.dirname(initdb) : null;
}

/** { postgres: folder of initdb and postgres, redis: redis-server }, null where missing. */
export function serverPaths() {
  const redis = process.env.REDIS_SERVER || which('redis-server') || (fs.existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null);
  return { postgres: postgresBinDir(), redis: redis && fs.existsSync(redis) ? redis : null };
}

function ensureServers() {
  const found = serverPaths();
  if (found.postgres && found.redis) {
    const pg = output(path.join(found.postgres, 'postgres'), ['--version']) ?? 'postgres';
    const redis = output(found.redis, ['--version'])?.split(' sha=')[0] ?? 'redis-server';
    say(`ok: ${pg} (${found.postgres}), ${redis} (${found.redis})`);
    return null;
  }
  const packages = [found.postgres ? null : 'postgresql', found.redis ? null : 'redis-server'].filter(Boolean);
  const fix = `sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}`;
  if (process.env.PG_BIN || process.env.REDIS_SERVER) {
    throw new SetupError(`${packages.join(' and ')} not found where PG_BIN/REDIS_SERVER point`, 'unset PG_BIN REDIS_SERVER');
  }
  if (!which('apt-get')) {
    throw new SetupError(
      `${packages.join(' and ')} missing, and this is not a Debian-like system (no apt-get) where the tests could install them. ` +
        'Install PostgreSQL and Redis with the system package manager, then set PG_BIN (the folder of initdb and postgres) and REDIS_SERVER if they are not found',
      'PG_BIN=/path/to/postgresql/bin REDIS_SERVER=/path/to/redis-server npm test',
    );
  }
  const took = aptInstall(
    `${packages.join(' and ')} (Debian packages)`,
    packages,
    'about 20 s: downloads about 60 MB; the tests start their own throwaway servers, not these services',
    `${packages.join(' and ')} missing: the store tests need them`,
    fix,
  );
  const after = serverPaths();
  if (!after.postgres || !after.redis) throw new SetupError(`apt-get installed the packages but ${after.postgres ? 'redis-server' : 'initdb/postgres'} is still missing`, fix);
  return took;
}

// ---------------------------------------------------------------------------

const STEPS = {
  cargo: ['cargo', () => (requireCargo(), null)],
  npm: ['npm devDependencies', ensureNpm],
  wasm32: [`rust target ${WASM_TARGET}`, () => (requireCargo(), ensureWasmTarget())],
  lint: ['rustfmt and clippy', () => (requireCargo(), ensureLintComponents())],
  bindgen: ['wasm-bindgen-cli', ensureBindgen],
  browser: ['chromium and chromedriver', ensureBrowser],
  servers: ['postgresql and redis-server', ensureServers],
};

/**
 * Checks and installs what `needs` (step names or profile names) asks for.
 * Returns the environment to run the tools in; exits with the fix on failure.
 */
export function setup(needs = ['build']) {
  const wanted = new Set(needs.flatMap((n) => PROFILES[n] ?? [n]));
  const unknown = [...wanted].filter((n) => !STEPS[n]);
  if (unknown.length) {
    console.error(`[setup] unknown step(s): ${unknown.join(', ')}; known: ${ORDER.join(', ')}, or ${Object.keys(PROFILES).join(', ')}`);
    process.exit(2);
  }
  const started = Date.now();
  const installed = [];
  for (const name of ORDER.filter((n) => wanted.has(n))) {
    const [what, ensure] = STEPS[name];
    try {
      const took = ensure();
      if (took !== null) installed.push(`${what} (${seconds(took)})`);
    } catch (error) {
      if (!(error instanceof SetupError)) throw error;
      console.error(`\n[setup] error: ${error.message}`);
      console.error(`[setup] fix: ${error.fix}`);
      process.exit(1);
    }
  }
  const total = seconds(Date.now() - started);
  say(installed.length ? `installed: ${installed.join(', ')}; setup took ${total}` : `nothing to install (checked in ${total})`);
  return env;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  setup(args.length ? args : ['build']);
}
