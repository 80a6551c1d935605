// The bench's command line (see scripts/bench.mjs): the package measured (--pkg),
// the rounds and batch lengths, --against, --ab-seconds and --only; the repository
// root, and a require() for the package and the CommonJS baselines.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkgIndex = process.argv.indexOf('--pkg');
export const pkgDir = pkgIndex >= 0 ? path.resolve(process.argv[pkgIndex + 1]) : path.join(root, 'pkg');
export const require = createRequire(import.meta.url);
export const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
export const ROUNDS = arg('rounds', 7);
export const BATCH_MS = arg('ms', 200);
export const COLD_RUNS = arg('cold', 15);
const againstIndex = process.argv.indexOf('--against');
export const AGAINST = againstIndex >= 0 ? path.resolve(process.argv[againstIndex + 1]) : null;
/** Seconds of interleaved batches per A/B line (`--ab-seconds`). */
export const AB_SECONDS = arg('ab-seconds', 4);
const onlyIndex = process.argv.indexOf('--only');
export const ONLY = onlyIndex >= 0 ? process.argv[onlyIndex + 1] : null;
