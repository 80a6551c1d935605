// What every step of scripts/setup.mjs shares: the repository root, the tools'
// environment (npm's .bin and cargo's bin folder first on PATH), the "[setup]"
// lines, SetupError (a problem and the one command that fixes it), and running
// a command: its output, where a program is, an install with its output shown.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where `cargo install` puts binaries: $CARGO_INSTALL_ROOT/bin, else $CARGO_HOME/bin. */
export function cargoBinDir() {
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

export const env = toolEnv();
export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
export const say = (text) => console.log(`[setup] ${text}`);

export class SetupError extends Error {
  constructor(problem, fix) {
    super(problem);
    this.fix = fix;
  }
}

/** stdout of a command, or null when it cannot start or exits non-zero. */
export function output(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return r.status === 0 ? r.stdout.trim() : null;
}

export function which(name) {
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
export function install(what, cmd, args, about, fix) {
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
