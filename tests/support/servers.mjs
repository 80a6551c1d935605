// Throwaway PostgreSQL and Redis servers for the tests: started on demand, listening on a
// Unix socket in a temp folder (PostgreSQL) or on 127.0.0.1 (Redis), and gone when the test
// process ends, however it ends:
//  - stop() (call it in `after`) shuts the server down and removes its temp folder;
//  - on process exit (a failed assertion, process.exit) they are SIGKILLed and the folder removed;
//  - when the test process itself is SIGKILLed, the kernel SIGKILLs them (setpriv --pdeathsig).
// PostgreSQL refuses to run as root: as root it runs as the `postgres` user (setpriv), in a
// temp folder owned by that user. Binaries are found by scripts/setup.mjs (serverPaths),
// which also installs them (`node scripts/setup.mjs servers`).
//
//   import { serverSkip, startPostgres, startRedis } from '../support/servers.mjs';
//   const skip = serverSkip('postgres');            // a reason, or false (always false under CI=true)
//   test('...', { skip }, async (t) => { const pg = await startPostgres(); t.after(() => pg.stop()); ... });
//
// Without CI, a missing server skips the test with the reason and the install command;
// under CI=true the test runs and startPostgres/startRedis throw that same message, so a
// CI machine without the servers fails instead of passing with nothing tested.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { SERVERS_FIX, serverPaths } from '../../scripts/setup.mjs';

const KINDS = {
  postgres: { name: 'PostgreSQL (initdb and postgres)', pkg: 'postgresql' },
  redis: { name: 'redis-server', pkg: 'redis-server' },
};
const START_TIMEOUT_MS = 30000;

/** Why `kind` cannot be started here (binaries missing), with the install command; null when it can. */
export function serverMissing(kind) {
  if (!KINDS[kind]) throw new Error(`unknown server '${kind}': postgres or redis`);
  if (serverPaths()[kind]) return null;
  return `${KINDS[kind].name} is not installed: run \`node scripts/setup.mjs servers\` (it runs: sudo apt-get install -y ${KINDS[kind].pkg}), or set ${kind === 'postgres' ? 'PG_BIN' : 'REDIS_SERVER'}`;
}

/** The `skip` option of a test that needs these servers: a reason when one is missing and CI is not 'true', else false. */
export function serverSkip(...kinds) {
  if (process.env.CI === 'true') return false;
  const reasons = kinds.map(serverMissing).filter(Boolean);
  return reasons.length ? reasons.join('; ') : false;
}

function requireServer(kind) {
  const why = serverMissing(kind);
  if (why) throw new Error(`${why}${process.env.CI === 'true' ? ' (CI=true: a missing server is a failure, not a skip)' : ''}`);
  return serverPaths()[kind];
}

// ---- cleanup of everything started, whatever ends the process ------------------------

const running = new Set();
let hooked = false;

function killAllNow() {
  for (const server of running) {
    try {
      server.child.kill('SIGKILL');
    } catch {
      // already gone
    }
    fs.rmSync(server.dir, { recursive: true, force: true });
  }
  running.clear();
}

function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      killAllNow();
      process.kill(process.pid, signal);
    });
  }
}

/** util-linux's setpriv, if on PATH. */
const SETPRIV = (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir || '.', 'setpriv')).find((file) => fs.existsSync(file)) ?? null;

/**
 * As root, run `args` as `user` (setpriv); with the parent-death signal KILL when setpriv is
 * there. Without setpriv, not as root: the command itself (only a SIGKILLed test process then
 * leaves its servers running).
 */
function command(args, user) {
  const asUser = user && process.getuid?.() === 0 ? ['--reuid', user, '--regid', user, '--init-groups'] : [];
  if (!SETPRIV) {
    if (asUser.length) throw new Error(`PostgreSQL refuses to run as root, and setpriv (util-linux) is not on PATH to run it as '${user}': install util-linux, or run the tests as another user`);
    return [args[0], args.slice(1)];
  }
  return [SETPRIV, [...asUser, '--pdeathsig', 'KILL', '--', ...args]];
}

/**
 * Starts `args` (as `user` when root) and resolves once a line of its output matches
 * `ready`; rejects with the output so far when it exits or takes too long.
 */
function launch({ args, user, dir, ready, label }) {
  hookExit();
  const [cmd, argv] = command(args, user);
  const child = spawn(cmd, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const server = { child, dir };
  running.add(server);
  let log = '';
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      running.delete(server);
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
      reject(new Error(`${label}: ${why}\n$ ${[cmd, ...argv].join(' ')}\n${log.slice(-3000)}`));
    };
    const timer = setTimeout(() => fail(`not ready after ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const onData = (chunk) => {
      log += chunk;
      if (ready.test(log)) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        child.stdout.resume();
        child.stderr.resume();
        child.off('exit', onExit);
        resolve(server);
      }
    };
    const onExit = (code, signal) => fail(`exited (${code ?? signal}) before it was ready`);
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('exit', onExit);
    child.on('error', (e) => fail(e.message));
  });
}

/** Stops a launched server with `signal` (SIGKILL after 10 s) and removes its folder. */
function stopper(server, signal) {
  let stopping;
  return () => {
    stopping ??= new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        running.delete(server);
        fs.rmSync(server.dir, { recursive: true, force: true });
        resolve();
      };
      const timer = setTimeout(() => server.child.kill('SIGKILL'), 10000);
      if (server.child.exitCode !== null || server.child.signalCode !== null) return done();
      server.child.once('exit', done);
      server.child.kill(signal);
    });
    return stopping;
  };
}

const OWNER_FILE = 'owner.pid';
const TEMP_PREFIXES = ['pi-postgres-', 'pi-redis-'];

/**
 * Removes the folders of servers whose test process was SIGKILLed (their servers died with it,
 * by the parent-death signal, but no code of that process could remove the folder).
 */
function sweepOrphans() {
  for (const name of fs.readdirSync(os.tmpdir()).filter((n) => TEMP_PREFIXES.some((p) => n.startsWith(p)))) {
    const dir = path.join(os.tmpdir(), name);
    let owner;
    try {
      owner = Number(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue; // being created, or not ours
    }
    try {
      process.kill(owner, 0);
    } catch (e) {
      if (e.code === 'ESRCH') fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

function tempDir(prefix, user) {
  sweepOrphans();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  if (user && process.getuid?.() === 0) {
    const { status, stderr } = spawnSync('chown', ['-R', `${user}:`, dir], { encoding: 'utf8' });
    if (status !== 0) throw new Error(`chown ${user} ${dir}: ${stderr}`);
  }
  return dir;
}

/**
 * A new PostgreSQL cluster in a temp folder, on a Unix socket there (no TCP), trust auth,
 * fsync off (a test server: a crash of the machine is not what it tests). Resolves with
 * `{ host, port, user, database, config, stop() }`; `config` is what `new pg.Pool(config)` takes.
 * `settings`: more `-c name=value` server settings.
 */
export async function startPostgres({ settings = {} } = {}) {
  const bin = requireServer('postgres');
  const user = process.getuid?.() === 0 ? 'postgres' : null;
  const dir = tempDir('pi-postgres-', user);
  const data = path.join(dir, 'data');
  const [cmd, argv] = command([path.join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '-N', '-E', 'UTF8', '--locale=C'], user);
  const init = spawnSync(cmd, argv, { cwd: dir, encoding: 'utf8' });
  if (init.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status ?? init.signal}):\n$ ${[cmd, ...argv].join(' ')}\n${init.stdout}${init.stderr}`);
  }
  const port = 5432;
  const config = { listen_addresses: '', unix_socket_directories: dir, port, fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: 200, ...settings };
  const flags = Object.entries(config).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const server = await launch({
    args: [path.join(bin, 'postgres'), '-D', data, ...flags],
    user,
    dir,
    ready: /database system is ready to accept connections/,
    label: 'postgres',
  });
  // SIGQUIT: immediate shutdown (a throwaway cluster needs no checkpoint).
  const stop = stopper(server, 'SIGQUIT');
  return { host: dir, port, user: 'postgres', database: 'postgres', config: { host: dir, port, user: 'postgres', database: 'postgres' }, pid: server.child.pid, stop };
}

/** A free TCP port on 127.0.0.1 (redis-server and workerd cannot take port 0; also the e2e page server's). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A redis-server on 127.0.0.1 and a free port, no persistence (no RDB, no AOF), its folder
 * a temp one. Resolves with `{ host, port, url, stop() }`.
 */
export async function startRedis() {
  const bin = requireServer('redis');
  for (let tries = 1; ; tries += 1) {
    const dir = tempDir('pi-redis-');
    const port = await freePort();
    const args = [bin, '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--protected-mode', 'yes'];
    try {
      const server = await launch({ args, dir, ready: /Ready to accept connections/, label: 'redis-server' });
      return { host: '127.0.0.1', port, url: `redis://127.0.0.1:${port}`, pid: server.child.pid, stop: stopper(server, 'SIGTERM') };
    } catch (e) {
      // Another process took the port between the probe and the start: try another.
      if (tries >= 3 || !/Address already in use/.test(e.message)) throw e;
    }
  }
}

export { SERVERS_FIX };
