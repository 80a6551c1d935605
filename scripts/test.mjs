#!/usr/bin/env node
// Runs every test suite in turn, prints which one is running, and fails when
// any fails. Each suite's output is shown as it comes and also read for its
// counts, so that a wasm run that silently ran no test (e.g. browser tests
// without `run_in_browser`, which still exit 0) is a failure.
//
//   node scripts/test.mjs              all suites
//   node scripts/test.mjs js browser   only the named ones (native, node, browser, build, types, js, e2e)
// The e2e suite runs when tests/e2e/ has test files.
// First scripts/setup.mjs installs what the chosen suites need and is missing (npm
// packages, the wasm32 target, wasm-bindgen-cli, Chromium and chromedriver, PostgreSQL
// and Redis), or
// stops with the command that would.
//
// The wasm suites run `cargo test --target wasm32-unknown-unknown` with
// wasm-bindgen-test-runner (from wasm-bindgen-cli) as cargo's runner, set exactly
// as `wasm-pack test --node` and `wasm-pack test --headless --chrome` set it, so
// wasm-pack is not needed here; both wasm-pack commands still work on this crate.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserPaths, setup } from './setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Sums every `test result: ok. N passed; M failed; K ignored` line (cargo and wasm-bindgen-test). */
function rustCounts(output) {
  let passed = 0;
  let failed = 0;
  let ignored = 0;
  let lines = 0;
  for (const m of output.matchAll(/test result: (\w+)\. (\d+) passed; (\d+) failed(?:; (\d+) ignored)?/g)) {
    lines += 1;
    passed += Number(m[2]);
    failed += Number(m[3]);
    ignored += Number(m[4] ?? 0);
    if (m[1] !== 'ok' && Number(m[3]) === 0) failed += 1;
  }
  return { passed, failed, ignored, lines };
}

/** Counts from node's test runner (spec or tap reporter). */
function nodeCounts(output) {
  const last = (word) => {
    const all = [...output.matchAll(new RegExp(`^(?:#|\\u2139)\\s*${word} (\\d+)\\s*$`, 'gm'))];
    return all.length ? Number(all[all.length - 1][1]) : null;
  };
  const tests = last('tests');
  return { passed: last('pass') ?? 0, failed: last('fail') ?? 0, ignored: (last('skipped') ?? 0) + (last('todo') ?? 0), lines: tests === null ? 0 : 1 };
}

function testFiles(folder) {
  const dir = path.join(root, 'tests', folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /\.test\.(mjs|cjs|js)$/.test(f))
    .sort()
    .map((f) => path.join('tests', folder, f));
}

// cargo runs each wasm32 test binary through wasm-bindgen-test-runner. The runner
// runs a binary in Node unless it says `wasm_bindgen_test_configure!(run_in_browser)`;
// the ONLY_* variables skip the other kind, as wasm-pack's --node and --chrome do.
const WASM_RUNNER = { CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER: 'wasm-bindgen-test-runner' };

const SUITES = [
  {
    id: 'native',
    title: 'Rust tests, native (cargo test)',
    cmd: () => ['cargo', ['test']],
    counts: rustCounts,
    setup: [],
  },
  {
    id: 'node',
    title: 'Rust tests as wasm in Node (as wasm-pack test --node)',
    cmd: () => ['cargo', ['test', '--target', 'wasm32-unknown-unknown']],
    env: () => ({ ...WASM_RUNNER, WASM_BINDGEN_TEST_ONLY_NODE: '1' }),
    counts: rustCounts,
    mustRun: true,
    setup: ['wasm32', 'bindgen'],
  },
  {
    id: 'browser',
    title: 'Rust tests as wasm in headless Chromium (as wasm-pack test --headless --chrome)',
    cmd: () => ['cargo', ['test', '--target', 'wasm32-unknown-unknown']],
    // webdriver.json (headless Chromium flags) is read by the runner from the crate folder.
    env: () => ({ ...WASM_RUNNER, WASM_BINDGEN_TEST_ONLY_WEB: '1', CHROMEDRIVER: browserPaths()[1] }),
    counts: rustCounts,
    mustRun: true,
    setup: ['wasm32', 'bindgen', 'browser'],
  },
  {
    id: 'build',
    title: 'npm package build (npm run build)',
    cmd: () => [process.execPath, [path.join('scripts', 'build.mjs')]],
    setup: ['build'],
  },
  {
    // The declarations of the built pkg/ against a merchant's usage (tests/types/usage*.ts),
    // in a bare project (no @types/node), and examples/ under checkJs (scripts/typecheck.mjs):
    // tsc prints nothing and exits 0 when every line type-checks and every
    // `@ts-expect-error` line is indeed an error; it fails when there is no input file.
    id: 'types',
    title: 'TypeScript declarations of pkg/ and examples/ (tsc -p on each tests/types project)',
    cmd: () => [process.execPath, [path.join('scripts', 'typecheck.mjs')]],
    needs: 'build',
    setup: ['npm'],
  },
  {
    id: 'js',
    title: 'JS tests on the built pkg/ (node --test tests/js/)',
    cmd: () => [process.execPath, ['--test', '--test-reporter=spec', ...testFiles('js')]],
    counts: nodeCounts,
    mustRun: true,
    needs: 'build',
    files: 'js',
    // The store tests start a throwaway PostgreSQL and Redis (tests/support/servers.mjs).
    setup: ['npm', 'servers'],
  },
  {
    id: 'e2e',
    title: 'End to end: the debugger page in headless Chromium, receivers on PostgreSQL and Redis (node --test tests/e2e/)',
    cmd: () => [process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=1', ...testFiles('e2e')]],
    counts: nodeCounts,
    mustRun: true,
    needs: 'build',
    files: 'e2e',
    optional: true,
    setup: ['npm', 'browser', 'servers'],
  },
];

function runSuite(suite) {
  const [cmd, args] = suite.cmd();
  const extra = suite.env?.() ?? {};
  const shownEnv = Object.entries(extra).map(([k, v]) => `${k}=${v} `).join('');
  const bar = '='.repeat(78);
  console.log(`\n${bar}\n== ${suite.title}\n== $ ${shownEnv}${[cmd === process.execPath ? 'node' : cmd, ...args].join(' ')}\n${bar}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.on('error', (error) => resolve({ ok: false, why: `could not start ${cmd}: ${error.message}`, started }));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const counts = suite.counts ? suite.counts(output) : null;
      let ok = code === 0;
      let why = ok ? '' : `exit ${code ?? signal}`;
      if (ok && suite.mustRun && (!counts || counts.lines === 0 || counts.passed === 0)) {
        ok = false;
        why = 'exited 0 but ran no test';
      }
      if (ok && counts && counts.failed > 0) {
        ok = false;
        why = `${counts.failed} failed`;
      }
      resolve({ ok, why, seconds, counts });
    });
  });
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !SUITES.some((s) => s.id === w));
if (unknown.length) {
  console.error(`unknown suite(s): ${unknown.join(', ')}; known: ${SUITES.map((s) => s.id).join(', ')}`);
  process.exit(2);
}
const selected = SUITES.filter((s) => wanted.length === 0 || wanted.includes(s.id));

// Install what the selected suites need before running any (exits with the fix if it cannot).
console.log(`[test] setting up for: ${selected.map((s) => s.id).join(', ')}`);
const env = setup(['cargo', ...selected.flatMap((s) => s.setup ?? [])]);

const results = [];
for (const suite of selected) {
  const dependency = suite.needs && results.find((r) => r.suite.id === suite.needs);
  if (dependency && !dependency.ok) {
    results.push({ suite, ok: false, why: `skipped: ${suite.needs} failed`, seconds: '0.0', counts: null });
    continue;
  }
  if (suite.files && testFiles(suite.files).length === 0) {
    if (suite.optional) {
      console.log(`\n== ${suite.title}: no test files in tests/${suite.files}/, skipped`);
      continue;
    }
    results.push({ suite, ok: false, why: `no test files in tests/${suite.files}/`, seconds: '0.0', counts: null });
    continue;
  }
  results.push({ suite, ...(await runSuite(suite)) });
}

console.log(`\n${'='.repeat(78)}\n== Summary\n${'='.repeat(78)}`);
let passed = 0;
let failed = 0;
for (const r of results) {
  const c = r.counts;
  if (c) {
    passed += c.passed;
    failed += c.failed;
  }
  // A suite that failed without a failing test (build error, no test run) counts as one failure.
  if (!r.ok && !(c && c.failed > 0)) failed += 1;
  const detail = c ? `${c.passed} passed, ${c.failed} failed${c.ignored ? `, ${c.ignored} ignored/skipped` : ''}` : '';
  const state = r.ok ? 'ok' : `FAILED (${r.why})`;
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.suite.id.padEnd(8)} ${state}${detail ? `: ${detail}` : ''} [${r.seconds ?? '-'} s]`);
}
const failedSuites = results.filter((r) => !r.ok).length;
console.log(failedSuites ? `\n${failedSuites} of ${results.length} suites FAILED` : `\nall ${results.length} suites passed`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failedSuites ? 1 : 0);
