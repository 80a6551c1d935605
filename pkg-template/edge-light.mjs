// payment-intake for Vercel Edge (built by scripts/build.mjs as pkg/web/edge-light.js; the
// `edge-light` condition: Vercel Edge Functions, Next.js middleware and edge routes): edge.mjs
// with its .wasm imported as Vercel's bundlers give a compiled WebAssembly.Module, with the
// `?module` suffix (`./payment_intake_bg.wasm?module`); without it they would not. No `init()`
// call is needed; the `init()` / `initSync()` of the browser build, exported as well, return at once.
import wasmModule from '#wasm-module';
import { initSync } from '#glue';

initSync({ module: wasmModule });

export * from './web.mjs';
export { default } from './web.mjs';
