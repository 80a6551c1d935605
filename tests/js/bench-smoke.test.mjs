// The measurement scripts run: nothing here is timed (figures are for `npm run bench`, never for
// a test). The bench's worker cold start (scripts/bench/worker-cold.mjs) verifies the genuine
// callback in a fresh Worker for every entry of the built package, one round; and
// scripts/wasm-bytes.mjs, without twiggy, says so and still gives the shipped sizes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { pkgDir, root } from './helpers.mjs';

test('the bench line "cold start in a worker" verifies a callback in a fresh worker for each entry present', () => {
  const bench = path.join(root, 'scripts', 'bench.mjs');
  const child = spawnSync(process.execPath, [bench, '--pkg', pkgDir, '--only', 'cold start in a worker', '--worker-rounds', '1'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  assert.equal(child.status, 0, `exit ${child.status ?? child.signal}\n${child.stdout}\n${child.stderr}`);
  for (const entry of ['full, web entry', 'full, Node entry']) {
    assert.match(child.stdout, new RegExp(`pkg: ${entry} \\(.*\\): median \\d+\\.\\d ms`), `a figure for ${entry}:\n${child.stdout}`);
  }
  // The lean builds: measured when the package exports them, else named as skipped.
  const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  for (const name of ['lean', 'receiver']) {
    const shown = manifest.exports[`./${name}`] ? new RegExp(`pkg: ${name} \\(.*\\): median`) : new RegExp(`pkg: ${name}: skipped`);
    assert.match(child.stdout, shown, `${name}:\n${child.stdout}`);
  }
});

test('scripts/wasm-bytes.mjs without twiggy says so, and gives the shipped sizes', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'no-twiggy-'));
  try {
    const env = { ...process.env, HOME: home, PATH: path.dirname(process.execPath) };
    const child = spawnSync(process.execPath, [path.join(root, 'scripts', 'wasm-bytes.mjs')], { cwd: root, encoding: 'utf8', env, timeout: 60_000 });
    assert.equal(child.status, 1, `exit ${child.status ?? child.signal}\n${child.stdout}\n${child.stderr}`);
    assert.match(child.stdout, /^twiggy is not installed: .*`cargo install twiggy`/m);
    assert.match(child.stdout, /pkg\/web\/payment_intake_bg\.wasm +[\d,]+ \([\d.]+ KiB\) +[\d,]+ \([\d.]+ KiB\)/);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
