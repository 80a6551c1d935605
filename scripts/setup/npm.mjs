// The npm devDependencies (wasm-opt from binaryen, tsc, playwright-core, eslint):
// `npm ci` when node_modules/ is absent or differs from package-lock.json.
import fs from 'node:fs';
import path from 'node:path';

import { SetupError, install, root, say } from './run.mjs';

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

export function ensureNpm() {
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
