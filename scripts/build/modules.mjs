// The package's JS from pkg-template/, its source (scripts/build.mjs says where each file goes).
// Each entry is bundled by esbuild from the ES modules it imports, every import naming a file
// of pkg-template/: the ES module entries of pkg/web/ and, as CommonJS, pkg/node/index.js. What
// only the build makes (the wasm-bindgen glue, the .wasm, the .wasm as base64) the sources name
// by a `#` name of pkg-template/package.json's "imports", which the bundles import by its
// relative path in pkg/ (a browser resolves no `#` name): `#glue` is the ES module glue for an
// import, the CommonJS one for a require. The declarations are written for each build with the
// same names resolved (`types`). What runs as it is (cli/, sandbox/, the stores with an entry of
// their own) is copied: it names the package by its name, `payment-intake`.
import fs from 'node:fs';
import path from 'node:path';
import { crateName, fail, pkgDir, specifier, step, templateDir } from './common.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(templateDir, 'package.json'), 'utf8'));

/** The target in pkg/ of the `#` name `name` under `conditions` (the first that matches, as Node picks), or undefined. */
export function importTarget(name, conditions) {
  const pick = (value) => {
    if (typeof value === 'string' || value === null) return value ?? undefined;
    for (const [condition, target] of Object.entries(value)) {
      if (condition !== 'default' && !conditions.includes(condition)) continue;
      const found = pick(target);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return Object.hasOwn(manifest.imports, name) ? pick(manifest.imports[name]) : undefined;
}

/**
 * The ES module entries of pkg/web/, bundled in one esbuild build, so the modules they share
 * (the core, the client, the receiver, the in-memory store; node:crypto's provider) are
 * modules of pkg/web/ of their own (`chunk-<hash>.js`), one instance for every entry, as they
 * would be unbundled. inline.js is node.mjs again, with ./wasm-file.mjs swapped for ./wasm-inline.mjs
 * (node.mjs loaded a second time in a namespace named `inline`, where that one import resolves
 * to the other file). edge.js, built on its own, keeps ./web.mjs an import of ./index.js: one API.
 */
const WEB_ENTRIES = [
  { source: 'web.mjs', out: 'index' },
  { source: 'node.mjs', out: 'node' },
  { source: 'node.mjs', out: 'inline', swap: { 'wasm-file.mjs': 'wasm-inline.mjs' } },
];
const EDGE = { source: 'edge.mjs', out: 'web/edge.js', keep: { 'web.mjs': 'web/index.js' } };
// edge-light.js: edge.mjs with the .wasm imported as Vercel's bundlers take it (`?module`).
const EDGE_LIGHT = { source: 'edge-light.mjs', out: 'web/edge-light.js', keep: EDGE.keep };
const CJS = { source: 'node.cjs', out: 'node/index.js' };
/**
 * The lean entries (`payment-intake/lean`, `payment-intake/receiver`), each bundled on its own
 * (no module shared with the main entries: one is imported, not both), its `#` names resolved
 * under its condition of pkg-template/package.json's "imports" (its glue, its .wasm): the
 * browser entry (`init()`), then edge.mjs and edge-light.mjs again with their import of
 * ./web.mjs kept an import of that entry. lean.js is web.mjs (the whole API; RSA by WebCrypto,
 * async), receiver.js receiver-entry.mjs (the receiver's part of it).
 */
const LEAN_ENTRIES = [
  { condition: 'lean', source: 'web.mjs', out: 'web/lean.js' },
  { condition: 'receiver', source: 'receiver-entry.mjs', out: 'web/receiver.js' },
].flatMap((entry) => [
  entry,
  ...[EDGE, EDGE_LIGHT].map((edge) => ({
    condition: entry.condition,
    source: edge.source,
    out: edge.out.replace(/edge/, `${entry.condition}-edge`),
    keep: { 'web.mjs': entry.out },
  })),
]);

/** Resolves the `#` names (kept imports of their file in pkg/, from `outDir`) and the entries' `swap` and `keep` modules. */
function packagePaths(outDir, { keep = {}, condition } = {}) {
  const kept = new Map(Object.entries(keep).map(([from, to]) => [path.join(templateDir, from), to]));
  return {
    name: 'package-paths',
    setup(build) {
      build.onResolve({ filter: /^#/ }, (args) => {
        const target = importTarget(args.path, [...(condition ? [condition] : []), args.kind === 'require-call' ? 'require' : 'import']);
        if (target === undefined) return { errors: [{ text: `${args.path} is not a name of pkg-template/package.json's "imports"` }] };
        return { path: specifier(outDir, path.join(pkgDir, target)), external: true };
      });
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const file = path.resolve(args.resolveDir, args.path);
        if (kept.has(file)) return { path: specifier(outDir, path.join(pkgDir, kept.get(file))), external: true };
        const entry = WEB_ENTRIES.find((e) => e.swap && e.out === args.namespace);
        const swap = entry?.swap[path.relative(templateDir, file)];
        return swap ? { path: path.join(templateDir, swap) } : undefined;
      });
      // An entry with a swap: its source again, in a namespace named after it, its imports resolved from pkg-template/.
      build.onResolve({ filter: /^\w+:pkg-template\// }, (args) => {
        const [namespace, file] = args.path.split(':');
        return { path: file, namespace };
      });
      for (const { out } of WEB_ENTRIES.filter((e) => e.swap)) {
        build.onLoad({ filter: /.*/, namespace: out }, (args) => ({
          contents: fs.readFileSync(path.join(path.dirname(templateDir), args.path), 'utf8'),
          resolveDir: templateDir,
          loader: 'js',
        }));
      }
    },
  };
}

/** esbuild's options for every build: the code as it is written (no syntax lowered: esbuild's default target, esnext). */
function options(version) {
  return {
    absWorkingDir: path.dirname(templateDir),
    bundle: true,
    charset: 'utf8',
    define: { PACKAGE_VERSION: JSON.stringify(version) },
    banner: { js: `// payment-intake ${version}: bundled by scripts/build.mjs (esbuild) from the ES modules of pkg-template/, each under a line naming it.` },
    metafile: true,
    logLevel: 'warning',
  };
}

/** The pkg-template/ files of a build's metafile, added to `inputs`; a line per output. */
function report(result, inputs) {
  for (const file of Object.keys(result.metafile.inputs)) if (file.startsWith('pkg-template/')) inputs.add(file);
  for (const [file, { bytes, entryPoint }] of Object.entries(result.metafile.outputs)) {
    const from = entryPoint?.replace(/^(\w+):(.*)$/, (_, name, source) => `${source} with its ${name} swap: ${Object.entries(WEB_ENTRIES.find((e) => e.out === name).swap).map(([a, b]) => `${b} for ${a}`).join(', ')}`);
    console.log(`  pkg/${path.relative('pkg', file)}: ${bytes} bytes (${from ?? 'the modules the entries share'})`);
  }
}

/** What `output` (a file of the metafile) imports, its chunks' imports included. */
function importsOf(outputs, output, seen = new Set()) {
  for (const { path: imported } of outputs[output].imports) {
    if (seen.has(imported)) continue;
    seen.add(imported);
    if (outputs[imported]) importsOf(outputs, imported, seen);
  }
  return seen;
}

/** Bundles every entry; returns the pkg-template/ files that went into them. */
async function bundleEntries(version) {
  // esbuild is a devDependency: imported here, once the build's setup step has installed it
  // (a fresh clone's `npm start` has no node_modules/ when scripts/build.mjs starts).
  const esbuild = await import('esbuild');
  const inputs = new Set();
  const webDir = path.join(pkgDir, 'web');
  const web = await esbuild.build({
    ...options(version),
    entryPoints: WEB_ENTRIES.map((e) => ({ in: e.swap ? `${e.out}:pkg-template/${e.source}` : path.join(templateDir, e.source), out: e.out })),
    outdir: webDir,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    platform: 'node',
    plugins: [packagePaths(webDir)],
  });
  report(web, inputs);
  // The browser entry and what it imports name no Node module (the build is for Node, as two entries are).
  const browser = [...importsOf(web.metafile.outputs, 'pkg/web/index.js')].filter((p) => p.startsWith('node:'));
  if (browser.length) fail(`pkg/web/index.js (browsers) imports ${browser.join(', ')}`);
  for (const entry of [EDGE, EDGE_LIGHT]) {
    const edge = await esbuild.build({
      ...options(version),
      entryPoints: [path.join(templateDir, entry.source)],
      outfile: path.join(pkgDir, entry.out),
      format: 'esm',
      platform: 'neutral',
      plugins: [packagePaths(webDir, entry)],
    });
    report(edge, inputs);
  }
  for (const entry of LEAN_ENTRIES) {
    const lean = await esbuild.build({
      ...options(version),
      entryPoints: [path.join(templateDir, entry.source)],
      outfile: path.join(pkgDir, entry.out),
      format: 'esm',
      platform: 'neutral',
      plugins: [packagePaths(webDir, entry)],
    });
    report(lean, inputs);
    const builtins = Object.values(lean.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path)).filter((p) => p.startsWith('node:'));
    if (builtins.length) fail(`pkg/${entry.out} (browsers and edge runtimes) imports ${builtins.join(', ')}`);
  }
  const cjs = await esbuild.build({
    ...options(version),
    entryPoints: [path.join(templateDir, CJS.source)],
    outfile: path.join(pkgDir, CJS.out),
    format: 'cjs',
    platform: 'node',
    plugins: [packagePaths(path.join(pkgDir, 'node'))],
  });
  report(cjs, inputs);
  return inputs;
}

/** `#` names in a declaration file, resolved for the build it is written into (`import` for web/, `require` for node/). */
function declarations(from, to, condition) {
  const text = fs.readFileSync(path.join(templateDir, from), 'utf8');
  const outDir = path.dirname(path.join(pkgDir, to));
  return text.replace(/(['"])(#[\w-]+)\1/g, (_, quote, name) => {
    const target = importTarget(name, ['types', condition]);
    if (target === undefined || !target.endsWith('.d.ts')) fail(`pkg-template/${from}: ${name} has no declarations in pkg-template/package.json's "imports"`);
    return `${quote}${specifier(outDir, path.join(pkgDir, target)).replace(/\.d\.ts$/, '.js')}${quote}`;
  });
}

/** The declarations of both builds, from pkg-template/'s, with what each entry adds. */
function writeDeclarations() {
  const shared = ['errors.d.ts', 'keys.d.ts', 'callbacks.d.ts', 'client/index.d.ts', 'receiver/index.d.ts', 'receiver/store.d.ts'];
  for (const [dir, condition] of [['web', 'import'], ['node', 'require']]) {
    for (const file of shared) {
      fs.mkdirSync(path.dirname(path.join(pkgDir, dir, file)), { recursive: true });
      fs.writeFileSync(path.join(pkgDir, dir, file), declarations(file, `${dir}/${file}`, condition));
    }
  }
  // The web entry's types: the same declarations, and `init()` as the default export
  // (edge.js has the same exports). The node entry's: with its no-op `init`/`initSync`.
  const web = declarations('index.d.ts', 'web/index.d.ts', 'import');
  fs.writeFileSync(path.join(pkgDir, 'web', 'index.d.ts'), `${web}\n${fs.readFileSync(path.join(templateDir, 'web-init.d.ts'), 'utf8')}`);
  fs.writeFileSync(
    path.join(pkgDir, 'node', 'index.d.ts'),
    `${declarations('index.d.ts', 'node/index.d.ts', 'require')}
/** Does nothing: on Node the wasm is loaded on import. Exists so code written for the browser build runs here. */
export function init(moduleOrPath?: unknown): Promise<void>;
/** Does nothing: on Node the wasm is loaded on import. Exists so code written for the browser build runs here. */
export function initSync(module?: unknown): void;
`,
  );
  fs.copyFileSync(path.join(pkgDir, 'web', 'index.d.ts'), path.join(pkgDir, 'web', 'edge.d.ts'));
  // payment-intake/lean: the web entry's API (its glue's declarations are the full glue's).
  fs.copyFileSync(path.join(pkgDir, 'web', 'index.d.ts'), path.join(pkgDir, 'web', 'lean.d.ts'));
  // payment-intake/receiver: its own declarations, with the same init and initSync.
  const receiver = declarations('receiver-entry.d.ts', 'web/receiver.d.ts', 'receiver');
  fs.writeFileSync(path.join(pkgDir, 'web', 'receiver.d.ts'), `${receiver}\n${fs.readFileSync(path.join(templateDir, 'web-init.d.ts'), 'utf8')}`);
  fs.copyFileSync(path.join(pkgDir, 'node', 'index.d.ts'), path.join(pkgDir, 'web', 'node.d.ts'));
  console.log(`  pkg-template/index.d.ts -> pkg/{web,node}/index.d.ts (web: init and initSync of web-init.d.ts; node: no-op init, initSync), web/edge.d.ts, web/node.d.ts, web/lean.d.ts`);
  console.log('  pkg-template/receiver-entry.d.ts -> pkg/web/receiver.d.ts (with web-init.d.ts)');
  console.log(`  pkg-template/${shared.join(', ')} -> pkg/{web,node}/`);
}

/** The folders and files that run as they are, copied: the CLI, the sandbox, the OpenTelemetry hooks, the stores with an entry of their own. */
function copyAsIs() {
  fs.copyFileSync(path.join(templateDir, 'cli.cjs'), path.join(pkgDir, 'cli.js'));
  fs.chmodSync(path.join(pkgDir, 'cli.js'), 0o755);
  fs.cpSync(path.join(templateDir, 'cli'), path.join(pkgDir, 'cli'), { recursive: true });
  console.log('  pkg-template/cli.cjs -> pkg/cli.js (executable, CommonJS whatever the parent says), pkg-template/cli/ -> pkg/cli/');
  fs.cpSync(path.join(templateDir, 'sandbox'), path.join(pkgDir, 'sandbox'), { recursive: true });
  console.log('  pkg-template/sandbox/ -> pkg/sandbox/ (the local sandbox, `payment-intake/sandbox`)');
  // `payment-intake/otel`: ES modules that import nothing, for every runtime.
  fs.cpSync(path.join(templateDir, 'otel'), path.join(pkgDir, 'otel'), { recursive: true });
  console.log('  pkg-template/otel/ -> pkg/otel/ (OpenTelemetry hooks, `payment-intake/otel`)');
  // memory.mjs is bundled into the entries (memoryStore); the others are `payment-intake/stores/<name>`.
  fs.mkdirSync(path.join(pkgDir, 'stores'), { recursive: true });
  const stores = fs.readdirSync(path.join(templateDir, 'stores')).filter((f) => f !== 'memory.mjs' && /\.(mjs|d\.ts)$/.test(f));
  for (const file of stores) fs.copyFileSync(path.join(templateDir, 'stores', file), path.join(pkgDir, 'stores', file));
  console.log(`  pkg-template/stores/{${stores.join(',')}} -> pkg/stores/`);
  return ['cli.cjs', 'cli/', 'sandbox/', 'otel/', ...stores.map((f) => `stores/${f}`)].map((f) => `pkg-template/${f}`);
}

/** pkg/web/inline-wasm.js: the .wasm as base64 (`#wasm-base64`, read by ./wasm-inline.mjs in pkg/web/inline.js). */
function writeInlineWasm() {
  const wasm = fs.readFileSync(path.join(pkgDir, 'web', `${crateName}_bg.wasm`));
  const base64 = wasm.toString('base64');
  const file = path.join(pkgDir, importTarget('#wasm-base64', ['import']));
  fs.writeFileSync(file, `// Generated by scripts/build.mjs: ${crateName}_bg.wasm as base64, for ./inline.js.\nexport default '${base64}';\n`);
  console.log(`  pkg/${path.relative(pkgDir, file)}: the .wasm's ${wasm.length} bytes as ${base64.length} characters of base64`);
}

/** Every JS file of pkg-template/ ships, bundled or as it is: one in neither is a module nothing imports. */
function checkEveryModuleShips(bundled, copied) {
  const unshipped = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      const name = path.relative(path.dirname(templateDir), file).split(path.sep).join('/');
      if (entry.isDirectory()) walk(file);
      else if (/\.[cm]?js$/.test(entry.name) && !bundled.has(name) && !copied.some((c) => name === c || (c.endsWith('/') && name.startsWith(c)))) unshipped.push(name);
    }
  };
  walk(templateDir);
  if (unshipped.length) fail(`in no bundle and not copied: ${unshipped.join(', ')}`);
}

/** The package's JS and declarations, into pkg/ (its package.json written: the version is its). */
export async function buildModules(version) {
  step('JS: the entries bundled from pkg-template/ (esbuild), the declarations, the CLI, sandbox and stores as they are');
  writeInlineWasm();
  const bundled = await bundleEntries(version);
  writeDeclarations();
  checkEveryModuleShips(bundled, copyAsIs());
}
