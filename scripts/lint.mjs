#!/usr/bin/env node
// npm run lint: rustfmt and clippy (native and wasm32, warnings are errors),
// plus a syntax check of the JS tooling. Runs every check, fails if any fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup } from './setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const jsFiles = ['scripts', 'tests/js']
  .flatMap((dir) => (fs.existsSync(path.join(root, dir)) ? fs.readdirSync(path.join(root, dir)).map((f) => `${dir}/${f}`) : []))
  .filter((f) => /\.(mjs|cjs|js)$/.test(f));

const CHECKS = [
  ['cargo fmt --check', 'cargo', ['fmt', '--check']],
  ['cargo clippy (native)', 'cargo', ['clippy', '--all-targets', '--', '-D', 'warnings']],
  ['cargo clippy (wasm32)', 'cargo', ['clippy', '--target', 'wasm32-unknown-unknown', '--all-targets', '--', '-D', 'warnings']],
  ...jsFiles.map((f) => [`node --check ${f}`, process.execPath, ['--check', f]]),
];

// rustfmt, clippy and the wasm32 target: installed when missing, or the fix is named.
setup(['lint']);

const failed = [];
for (const [title, cmd, args] of CHECKS) {
  const quiet = cmd === process.execPath;
  if (!quiet) console.log(`\n== ${title}\n$ ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    failed.push(title);
    console.error(`-- ${title}: FAILED (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`);
  }
}
console.log(`\n== lint: ${CHECKS.length - failed.length} of ${CHECKS.length} checks passed (${jsFiles.length} JS files syntax-checked)`);
if (failed.length) {
  console.error(`lint FAILED: ${failed.join('; ')}`);
  process.exit(1);
}
