// pkg-template/ is the package's source as it is: every relative import, export … from,
// import() and require() of its modules, and every import of its declarations, names a file
// of pkg-template/ by its exact name (as Node resolves it: no extension guessed, no folder
// index); what only the build makes is named by a `#` name of pkg-template/package.json's
// "imports"; the package itself by its name (`payment-intake`, a self-reference); anything
// else is a Node builtin (`node:…`): the package has no runtime dependency. And no module
// imports itself through others: the graph of the files has no circle.
//
// The JS is read by esbuild's parser (the bundler the build uses), the declarations by their
// `from '…'` and `import('…')` specifiers. A template-literal require (cli/main.cjs loads
// `./${name}.cjs`) counts as an import of every file its pattern matches.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import * as esbuild from 'esbuild';
import { root } from './helpers.mjs';

const templateDir = path.join(root, 'pkg-template');
const manifest = JSON.parse(fs.readFileSync(path.join(templateDir, 'package.json'), 'utf8'));

/** Every file under `dir`, relative to pkg-template/, `/`-separated. */
function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [path.relative(templateDir, file).split(path.sep).join('/')];
  });
}
const files = filesUnder(templateDir);
const modules = files.filter((f) => /\.[cm]?js$/.test(f));
const declarationFiles = files.filter((f) => f.endsWith('.d.ts'));

/** A file of pkg-template/ (a regular file, as named: Node guesses no extension). */
const isFile = (relative) => files.includes(relative);

/**
 * Every import of every module: `{ from, specifier, kind }` (`specifier` as written; a glob for a
 * template-literal require), read by esbuild from one build of all of them, nothing written.
 */
async function moduleImports() {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: modules.map((f) => ({ in: `pkg-template/${f}`, out: f.replace(/\./g, '_') })),
    outdir: path.join(root, 'pkg-template-graph'),
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    // Only relative specifiers are followed (a missing file fails the build, named); the rest is read as written.
    plugins: [{ name: 'as-written', setup: (build) => build.onResolve({ filter: /^[^.]/ }, (args) => (args.kind === 'entry-point' ? undefined : { path: args.path, external: true })) }],
  });
  return Object.entries(result.metafile.inputs)
    .filter(([file]) => file.startsWith('pkg-template/') && !file.endsWith('.json'))
    .flatMap(([file, { imports }]) => imports.map(({ path: resolved, original, kind }) => ({ from: file.slice('pkg-template/'.length), specifier: original ?? resolved, kind })));
}

/** Every import of every declaration file: its `from '…'` and `import('…')` specifiers, comments aside. */
function declarationImports() {
  return declarationFiles.flatMap((from) => {
    const text = fs.readFileSync(path.join(templateDir, from), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    return [...text.matchAll(/\b(?:from\s+|import\s*\(\s*)(['"])([^'"]+)\1/g)].map((m) => ({ from, specifier: m[2], kind: 'type' }));
  });
}

/** The files of pkg-template/ a relative specifier names: one, or for a glob every file it matches but the importer. */
function targets({ from, specifier, kind }) {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (specifier.includes('*')) {
    const pattern = new RegExp(`^${joined.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '(?:.*/)?').replace(/\*/g, '[^/]*')}$`);
    return files.filter((f) => pattern.test(f) && f !== from);
  }
  // A declaration names another by its JS name (`./x.js` for ./x.d.ts), as TypeScript resolves it.
  if (kind === 'type' && !isFile(joined)) return [joined.replace(/\.js$/, '.d.ts')];
  return [joined];
}

/** The package's own entries by name (a self-reference): the exports map's subpaths. */
const selfNames = new Set(Object.keys(manifest.exports).map((key) => manifest.name + key.slice(1)));

const imports = [...(await moduleImports()), ...declarationImports()];

test('pkg-template/ has modules and declarations to check, and reads them all', () => {
  assert.ok(modules.length >= 60, `${modules.length} modules`);
  assert.ok(declarationFiles.length >= 8, `${declarationFiles.length} declaration files`);
  for (const f of ['core.mjs', 'node.cjs', 'web.mjs', 'cli/main.cjs', 'client/index.d.ts']) assert.ok(imports.some((i) => i.from === f), `${f}'s imports are read`);
  assert.ok(imports.some((i) => i.from === 'cli/main.cjs' && i.specifier.includes('*')), "cli/main.cjs's template-literal require is read as a pattern");
});

test('every relative import names a file of pkg-template/ by its exact name', () => {
  const missing = [];
  for (const entry of imports.filter((i) => i.specifier.startsWith('.'))) {
    const found = targets(entry);
    if (found.length === 0 || found.some((f) => f.startsWith('../') || !isFile(f))) missing.push(`${entry.from}: '${entry.specifier}'`);
  }
  assert.deepEqual(missing, [], 'relative imports naming no file of pkg-template/');
});

test('what is not relative is a `#` name of "imports", the package itself, or a Node builtin: no runtime dependency', () => {
  const others = imports.filter((i) => !i.specifier.startsWith('.'));
  const wrong = others.filter(({ specifier, kind }) => {
    if (specifier.startsWith('#')) return !Object.hasOwn(manifest.imports, specifier) || (kind === 'type' && !JSON.stringify(manifest.imports[specifier]).includes('"types"'));
    return !selfNames.has(specifier) && !specifier.startsWith('node:');
  });
  assert.deepEqual(wrong.map((i) => `${i.from}: '${i.specifier}'`), []);
  // The build-only files are reached this way, and only this way.
  assert.ok(others.some((i) => i.specifier === '#glue' && i.kind === 'require-call'), 'the CommonJS entry requires #glue');
  assert.ok(others.some((i) => i.specifier === 'payment-intake'), 'the sandbox, stores and CLI name the package');
  for (const name of Object.keys(manifest.imports)) assert.ok(others.some((i) => i.specifier === name), `${name} is used`);
});

test('no import circle: the files of pkg-template/ import each other as a tree without cycles', () => {
  // Edges between the files; a self-reference goes to the source of the entry it names where
  // that is a file here (payment-intake/sandbox: sandbox/index.mjs), the package's main entry
  // to the CommonJS entry's source, which every other entry mirrors.
  const edges = new Map(files.map((f) => [f, new Set()]));
  for (const entry of imports) {
    let to = [];
    if (entry.specifier.startsWith('.')) to = targets(entry);
    else if (entry.specifier === manifest.name) to = ['node.cjs'];
    else if (selfNames.has(entry.specifier)) {
      const target = manifest.exports[`.${entry.specifier.slice(manifest.name.length)}`];
      to = [target.node ?? target.default].filter((f) => typeof f === 'string').map((f) => f.slice(2)).filter(isFile);
    }
    for (const t of to) edges.get(entry.from)?.add(t);
  }
  const state = new Map();
  const circles = [];
  const visit = (file, trail) => {
    state.set(file, 'open');
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...trail.slice(trail.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next, [...trail, next]);
    }
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file, [file]);
  assert.deepEqual(circles, []);
  assert.ok([...edges.values()].reduce((n, s) => n + s.size, 0) > 100, 'the graph has its edges');
});
