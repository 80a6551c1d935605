#!/usr/bin/env node
// The `types` suite of scripts/test.mjs: tsc over each TypeScript project under tests/types
// against the built pkg/, one after another; fails when any fails. tsc prints nothing and
// exits 0 when every line type-checks (and every `@ts-expect-error` line is an error).
//   tsconfig.json           a merchant's use of every export (ESM, CJS, web, backends)
//   tsconfig.bare.json      no @types/node, no lib esnext.disposable (Symbol.dispose, `| undefined`)
//   tsconfig.examples.json  examples/*.mjs with checkJs, strict, exactOptionalPropertyTypes
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const projects = ['tsconfig.json', 'tsconfig.bare.json', 'tsconfig.examples.json'].map((f) => path.join('tests', 'types', f));

let failed = 0;
for (const project of projects) {
  console.log(`$ tsc -p ${project}`);
  const result = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    failed += 1;
    console.error(`-- ${project}: FAILED (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`);
  }
}
console.log(`types: ${projects.length - failed} of ${projects.length} projects type-check`);
process.exit(failed ? 1 : 0);
