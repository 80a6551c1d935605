// The browser build's `init` and `initSync` (web.mjs, edge.mjs: wasm-bindgen's, re-exported),
// declared here rather than by wasm-bindgen, whose declarations name the DOM's RequestInfo,
// BufferSource and WebAssembly: these compile under lib ES2022 alone (with @types/node, or a
// worker runtime's types) as well as with the DOM. scripts/build/modules.mjs appends this to
// web/index.d.ts (and edge.d.ts); the glue's own declarations there are the nodejs target's.

/** A compiled `WebAssembly.Module` (typed by its shape, an object, so no DOM lib is needed). */
export type WasmModule = object;
/** The .wasm as `init` takes it: its URL, a fetch `Response` of it, its bytes, or the module compiled. */
export type InitInput = string | URL | Response | ArrayBuffer | ArrayBufferView | WasmModule;
/** The .wasm as `initSync` takes it: its bytes, or the module compiled. */
export type SyncInitInput = ArrayBuffer | ArrayBufferView | WasmModule;
/**
 * Loads the .wasm (by default from beside web/index.js) once; every other function of the
 * browser build needs it first ('init' was not awaited otherwise). A second call does nothing.
 */
export default function init(moduleOrPath?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<unknown>;
/** Loads the .wasm from its bytes or its compiled module, synchronously. */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): unknown;
