// What every step of the build shares (scripts/build.mjs says what the steps are): the
// folders, the crate's name, the step and error lines, and running a tool.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const pkgDir = path.join(root, 'pkg');
export const templateDir = path.join(root, 'pkg-template');
export const crateName = 'payment_intake';

/** The environment the tools run in: set once by the tool check (scripts/setup.mjs's PATH). */
let toolEnv = process.env;
export function useToolEnv(env) {
  toolEnv = env;
}

export function step(text) {
  console.log(`\n[build] ${text}`);
}

export function fail(text) {
  console.error(`\n[build] error: ${text}`);
  process.exit(1);
}

export function run(cmd, args, options = {}, shown = `${cmd} ${args.join(' ')}`) {
  console.log(`$ ${shown}`);
  const result = spawnSync(cmd, args, { cwd: root, env: toolEnv, stdio: 'inherit', ...options });
  if (result.error) fail(`${cmd} could not start: ${result.error.message}`);
  if (result.status !== 0) fail(`${cmd} exited with ${result.status ?? result.signal}`);
}

export function output(cmd, args) {
  return execFileSync(cmd, args, { cwd: root, env: toolEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** `to` as a relative module specifier from the folder `fromDir` (always `./` or `../`, `/` separated). */
export function specifier(fromDir, to) {
  const relative = path.relative(fromDir, to).split(path.sep).join('/');
  return relative.startsWith('../') ? relative : `./${relative}`;
}
