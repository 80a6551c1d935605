// The package as a merchant gets it: pkg/ packed with `npm pack` and installed from the
// tarball into a fresh project in a temporary folder (offline: the tarball has no
// dependencies). Frameworks the examples need (express, fastify) are this repository's
// devDependencies, linked into that project's node_modules.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { pkgDir, root } from '../helpers.mjs';

export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function run(cmd, args, cwd, options = {}) {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

/** `npm pack --dry-run --json` of pkg/: the tarball's file list and name, nothing written. */
export function packList() {
  const [packed] = JSON.parse(run(npm, ['pack', '--dry-run', '--json'], pkgDir));
  return { filename: packed.filename, files: packed.files.map((f) => f.path).sort(), size: packed.size, unpackedSize: packed.unpackedSize };
}

/**
 * A fresh project with the packed package installed. Returns { dir, tarball, remove() }.
 * @param {{ link?: string[], type?: 'module' | 'commonjs' }} options
 */
export function installPacked({ link = [], type = 'module' } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-intake-app-'));
  const [packed] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', work], pkgDir));
  const dir = path.join(work, 'app');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'merchant-app', private: true, type }));
  const tarball = path.join(work, packed.filename);
  run(npm, ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], dir);
  for (const name of link) {
    fs.symlinkSync(path.join(root, 'node_modules', name), path.join(dir, 'node_modules', name), 'dir');
  }
  return { dir, tarball, work, remove: () => fs.rmSync(work, { recursive: true, force: true }) };
}

/** The installed package's folder in a project made by installPacked. */
export const installedPackage = (dir) => path.join(dir, 'node_modules', 'payment-intake');
