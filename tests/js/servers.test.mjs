// The test servers' harness (tests/support/servers.mjs): a PostgreSQL and a Redis started by a
// test process are gone when that process ends, whether it fails (an uncaught error) or is
// SIGKILLed (then the next start removes the folder it left).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { serverSkip, startRedis } from '../support/servers.mjs';
import { root } from './helpers.mjs';

const harness = pathToFileURL(path.join(root, 'tests', 'support', 'servers.mjs')).href;

/** Whether `pid` runs (a zombie nobody reaped does not). */
function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pids) {
  for (let i = 0; i < 100 && pids.some(alive); i += 1) await sleep(50);
  return pids.filter(alive);
}

/** A child that starts both servers, prints their pids and folders, then ends by `how`. */
async function startAndEnd(how) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `
    const { startPostgres, startRedis } = await import(${JSON.stringify(harness)});
    const pg = await startPostgres();
    const redis = await startRedis();
    console.log(JSON.stringify({ pids: [pg.pid, redis.pid], dirs: [pg.host] }));
    ${how === 'kill' ? "process.kill(process.pid, 'SIGKILL');" : "throw new Error('a failing test');"}
  `], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const [line] = await Promise.race([
    new Promise((resolve) => readline.createInterface({ input: child.stdout }).once('line', (l) => resolve([l]))),
    new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`child exited (${code}) before starting the servers`)))),
  ]);
  await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', resolve)));
  return JSON.parse(line);
}

const skip = serverSkip('postgres', 'redis');

test('servers started by a process that fails are stopped and their folders removed', { skip }, async () => {
  const { pids, dirs } = await startAndEnd('throw');
  assert.deepEqual(await gone(pids), [], 'no server outlives the process');
  assert.ok(dirs.every((d) => !fs.existsSync(d)), 'folders removed');
});

test('servers started by a process that is SIGKILLed die with it; the next start removes its folder', { skip }, async () => {
  const { pids, dirs } = await startAndEnd('kill');
  assert.deepEqual(await gone(pids), [], 'the kernel kills them with their parent (setpriv --pdeathsig)');
  assert.ok(dirs.every((d) => fs.existsSync(d)), 'nothing of the killed process could remove its folder');
  const redis = await startRedis();
  try {
    assert.ok(dirs.every((d) => !fs.existsSync(d)), 'removed by the next start');
  } finally {
    await redis.stop();
  }
});
