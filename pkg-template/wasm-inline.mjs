// The package's one .wasm carried in the JS, for `payment-intake/inline` (pkg/web/inline.js,
// node.mjs built with this module in place of ./wasm-file.mjs): the bytes as base64 in
// `#wasm-base64` (pkg/web/inline-wasm.js, written by the build), compiled as the entry loads,
// so a bundle made from it needs no file beside it.
import wasmBase64 from '#wasm-base64';

/** The .wasm, compiled. */
function wasmSource() {
  return new WebAssembly.Module(Buffer.from(wasmBase64, 'base64'));
}

export { wasmSource };
