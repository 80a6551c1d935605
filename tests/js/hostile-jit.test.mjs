// Forged callbacks must never take the process down. The bench's hostile lines verify each
// hostile body of hostile-bodies.mjs and the genuine 1 KB callback in turn, in one hot loop;
// run here in a child process (`node scripts/bench.mjs --only hostile`, which writes nothing),
// they must run to their end. An earlier rewrite of the wasm boundary made Node 20 abort
// there (V8: "Fatal error ... unreachable code" in the deoptimizer, exit 133) in 5 of 6
// runs; BENCHMARKS.md has the figures. The cause: its private exports answered a single
// externref, which V8 11 inlines into optimized JS and cannot deoptimize during the call
// (tests/js/wasm-exports.test.mjs reads the .wasm for such an export). The abort needed the
// bench's whole setup: a smaller loop of the same calls did not show it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { pkgDir, root } from './helpers.mjs';

test('the bench verifies hostile and genuine callbacks in turn: the process runs to its end', () => {
  const bench = path.join(root, 'scripts', 'bench.mjs');
  const child = spawnSync(process.execPath, [bench, '--pkg', pkgDir, '--only', 'hostile', '--rounds', '3'], { cwd: root, encoding: 'utf8', timeout: 400_000 });
  assert.equal(child.signal, null, `killed by ${child.signal}\n${child.stderr.slice(0, 2000)}`);
  assert.equal(child.status, 0, `exit ${child.status}\n${child.stdout.slice(-1000)}\n${child.stderr.slice(0, 2000)}`);
  const lines = child.stdout.match(/^ {2}hostile .* ratio \d/gm) ?? [];
  assert.equal(lines.length, 8, `every hostile line ran:\n${child.stdout}`);
});
