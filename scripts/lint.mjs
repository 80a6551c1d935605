#!/usr/bin/env node
// npm run lint: rustfmt and clippy (native and wasm32, warnings are errors),
// plus ESLint over every JS file of the repository (scripts/, tests/js/,
// tests/e2e/, bench/, pkg-template/, www/; the rules and each folder's globals
// are in eslint.config.mjs). Runs every check, fails if any fails.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup } from './setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Run by path (no shell, no .bin shim), from the root: eslint.config.mjs says which files and globals.
const ESLINT = 'node_modules/eslint/bin/eslint.js';

const CHECKS = [
  ['cargo fmt --check', 'cargo', ['fmt', '--check']],
  ['cargo clippy (native)', 'cargo', ['clippy', '--all-targets', '--', '-D', 'warnings']],
  ['cargo clippy (wasm32)', 'cargo', ['clippy', '--target', 'wasm32-unknown-unknown', '--all-targets', '--', '-D', 'warnings']],
  ['eslint (JS)', process.execPath, [ESLINT, '--max-warnings', '0', '.']],
];

// ESLint (npm devDependencies), rustfmt, clippy and the wasm32 target: installed when missing, or the fix is named.
setup(['lint']);

const failed = [];
for (const [title, cmd, args] of CHECKS) {
  console.log(`\n== ${title}\n$ ${cmd === process.execPath ? 'node' : cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    failed.push(title);
    console.error(`-- ${title}: FAILED (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`);
  }
}
console.log(`\n== lint: ${CHECKS.length - failed.length} of ${CHECKS.length} checks passed`);
if (failed.length) {
  console.error(`lint FAILED: ${failed.join('; ')}`);
  process.exit(1);
}
