// PostgreSQL and Redis (the store tests and the multi-process receiver test start
// a throwaway server of each, tests/support/servers.mjs): where their programs are,
// and their Debian packages when missing.
import fs from 'node:fs';
import path from 'node:path';

import { aptInstall } from './apt.mjs';
import { SetupError, output, say, which } from './run.mjs';

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

export function ensureServers() {
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
