// The package's one .wasm for the Node ES module entry (node.mjs): the file beside the module
// this is bundled into (pkg/web/node.js, or a merchant's bundle made from it). In a bundle, the
// .wasm is read from beside the bundle: esbuild needs it copied there (the README's one step);
// webpack 5 emits files it finds as `new URL('…', import.meta.url)` itself (not tested here). A
// CommonJS bundle has no import.meta.url (esbuild empties import.meta): there the bundle's
// folder is used. `payment-intake/inline` is node.mjs built with ./wasm-inline.mjs instead.
import { readFileSync } from 'node:fs';

/** The .wasm's bytes, or an error naming the file and the step that puts it there. */
function wasmSource() {
  const wasmFile = typeof import.meta.url === 'string' ? new URL('./payment_intake_bg.wasm', import.meta.url) : `${__dirname}/payment_intake_bg.wasm`;
  try {
    return readFileSync(wasmFile);
  } catch (cause) {
    const error = new Error(
      `payment-intake could not read its WebAssembly file ${wasmFile}: ${cause.message}. ` +
        'In a bundle, copy node_modules/payment-intake/web/payment_intake_bg.wasm next to the bundled file (see the README, "Bundlers").',
      { cause },
    );
    error.code = cause.code;
    throw error;
  }
}

export { wasmSource };
