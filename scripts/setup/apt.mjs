// Debian packages, installed as root (this user, or password-less sudo): what the
// browser and server steps install when their programs are missing.
import { spawnSync } from 'node:child_process';

import { SetupError, install, which } from './run.mjs';

/**
 * How to run a command as root: [] when this is root, ['sudo'] with password-less sudo;
 * throws SetupError (`why`, `fix`) otherwise.
 */
export function rootPrefix(why, fix) {
  if (process.getuid?.() === 0) return [];
  if (which('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return ['sudo'];
  throw new SetupError(`${why}, and installing Debian packages needs root (this user is not root and has no password-less sudo)`, fix);
}

/** apt-get update, then apt-get install -y `packages`; the time it took. */
export function aptInstall(what, packages, about, missingWhy, fix) {
  const asRoot = rootPrefix(missingWhy, fix);
  const run = (args) => (asRoot.length ? ['sudo', [...args]] : [args[0], args.slice(1)]);
  let took = install('the Debian package index', ...run(['apt-get', 'update']), 'about 5 s', fix);
  took += install(what, ...run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', ...packages]), about, fix);
  return took;
}
