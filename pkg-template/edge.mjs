// payment-intake for Workers-style runtimes (copied by scripts/build.mjs to pkg/web/edge.js;
// the `workerd` and `edge-light` conditions: Cloudflare Workers and wrangler, Vercel Edge and
// Next.js). These runtimes and their bundlers import a .wasm file as a compiled
// WebAssembly.Module, which is instantiated here: no `init()` call is needed, and the
// `init()` / `initSync()` of the browser build, exported as well, return at once.
import wasmModule from './payment_intake_bg.wasm';
import { initSync } from './payment_intake.js';

initSync({ module: wasmModule });

export * from './index.js';
export { default } from './index.js';
