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
//
// The steps are modules of scripts/setup/: run.mjs (what they share), npm.mjs,
// rust.mjs (cargo, wasm32, lint, bindgen), browser.mjs and servers.mjs (over apt.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureBrowser } from './setup/browser.mjs';
import { ensureNpm } from './setup/npm.mjs';
import { SetupError, env, say, seconds } from './setup/run.mjs';
import { WASM_TARGET, ensureBindgen, ensureLintComponents, ensureWasmTarget, requireCargo } from './setup/rust.mjs';
import { ensureServers } from './setup/servers.mjs';

export { browserPaths } from './setup/browser.mjs';
export { root, toolEnv } from './setup/run.mjs';
export { pinnedBindgenVersion } from './setup/rust.mjs';
export { SERVERS_FIX, serverPaths } from './setup/servers.mjs';

const PROFILES = {
  build: ['npm', 'wasm32', 'bindgen'],
  test: ['npm', 'wasm32', 'bindgen', 'browser', 'servers'],
  lint: ['npm', 'wasm32', 'lint'],
  ci: ['npm', 'wasm32', 'bindgen', 'browser', 'servers', 'lint'],
};
const ORDER = ['cargo', 'npm', 'wasm32', 'lint', 'bindgen', 'browser', 'servers'];

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
