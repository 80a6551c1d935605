// payment-intake for Workers-style runtimes (built by scripts/build.mjs as pkg/web/edge.js;
// the `workerd` and `edge-light` conditions: Cloudflare Workers and wrangler, Vercel Edge and
// Next.js). These runtimes and their bundlers import a .wasm file as a compiled
// WebAssembly.Module, which is instantiated here: no `init()` call is needed, and the
// `init()` / `initSync()` of the browser build, exported as well, return at once.
// The browser entry is not bundled in again: the build keeps it an import of ./index.js (the
// bundle of ./web.mjs), so both entries are one API over one glue.
import wasmModule from '#wasm';
import { initSync } from '#glue';

initSync({ module: wasmModule });

export * from './web.mjs';
export { default } from './web.mjs';
