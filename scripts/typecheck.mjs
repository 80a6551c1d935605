#!/usr/bin/env node
// The `types` suite of scripts/test.mjs: tsc over each TypeScript project under tests/types
// against the built pkg/, one after another; fails when any fails. tsc prints nothing and
// exits 0 when every line type-checks (and every `@ts-expect-error` line is an error).
//   tsconfig.json           a merchant's use of every export (ESM, CJS, web, backends)
//   tsconfig.bare.json      no @types/node, no lib esnext.disposable (Symbol.dispose, `| undefined`)
//   tsconfig.examples.json  examples/*.mjs with checkJs, strict, exactOptionalPropertyTypes
// Then the "exports" step: a project in a temporary folder with pkg/ installed as
// node_modules/payment-intake (a link) and no `paths`, so every import resolves through the
// package.json `exports` map as in a merchant's project: a file importing every entry of the
// map (generated from it, so a new entry is checked too) and tests/types/exports/headers.ts,
// compiled under moduleResolution Bundler, NodeNext and Node16.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const projects = ['tsconfig.json', 'tsconfig.bare.json', 'tsconfig.examples.json'].map((f) => path.join('tests', 'types', f));

/** Each moduleResolution a merchant's tsconfig may have, with the `module` it goes with. */
const RESOLUTIONS = [
  { moduleResolution: 'bundler', module: 'esnext' },
  { moduleResolution: 'nodenext', module: 'nodenext' },
  { moduleResolution: 'node16', module: 'node16' },
];

/** Each `lib` a merchant's tsconfig may have: ES2022 alone (a Node service with @types/node) and with the DOM. */
const LIBS = [['es2022'], ['es2022', 'dom']];

/** Writes the temporary project of the "exports" step; returns its folder and its tsconfig files. */
function exportsProject() {
  const pkgDir = path.join(root, 'pkg');
  const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const entries = Object.keys(manifest.exports).filter((key) => !/\.(wasm|json)$/.test(key));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-intake-types-'));
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(modules, '@types'), { recursive: true });
  fs.symlinkSync(pkgDir, path.join(modules, manifest.name), 'dir');
  fs.symlinkSync(path.join(root, 'node_modules', '@types', 'node'), path.join(modules, '@types', 'node'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }));
  const specifiers = entries.map((key) => manifest.name + key.slice(1));
  fs.writeFileSync(
    path.join(dir, 'entries.ts'),
    `// Every entry of the exports map of ${manifest.name}.\n${specifiers.map((s, i) => `import * as entry${i} from '${s}';`).join('\n')}\nexport const entries = [${specifiers.map((_, i) => `entry${i}`).join(', ')}];\n`,
  );
  for (const name of ['headers.ts', 'usage.ts']) fs.copyFileSync(path.join(root, 'tests', 'types', 'exports', name), path.join(dir, name));
  const configs = RESOLUTIONS.flatMap(({ moduleResolution, module }) => LIBS.map((lib) => {
    const file = path.join(dir, `tsconfig.${moduleResolution}.${lib.join('-')}.json`);
    const compilerOptions = { strict: true, noEmit: true, target: 'es2022', module, moduleResolution, lib, types: ['node'], skipLibCheck: false, exactOptionalPropertyTypes: true };
    // headers.ts is about the DOM's HeadersInit: with the DOM lib only.
    const files = lib.includes('dom') ? ['entries.ts', 'headers.ts', 'usage.ts'] : ['entries.ts', 'usage.ts'];
    fs.writeFileSync(file, JSON.stringify({ compilerOptions, files }, null, 2));
    return file;
  }));
  console.log(`exports step: ${specifiers.join(', ')}`);
  return { dir, configs };
}

let failed = 0;
const exportsStep = exportsProject();
process.on('exit', () => fs.rmSync(exportsStep.dir, { recursive: true, force: true }));
projects.push(...exportsStep.configs);
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
