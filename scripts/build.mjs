#!/usr/bin/env node
// Builds the npm package in pkg/ from one release build of the crate and the JS of
// pkg-template/ (the source: ES modules whose imports name its own files):
//   pkg/web/   the package's one .wasm and both wasm-bindgen glues next to it: the ES
//              module one (--target web, payment_intake.js) and the CommonJS one
//              (--target nodejs, renamed payment_intake_node.cjs). Both targets import
//              the same module names, so their .wasm files are the same bytes (checked):
//              one is shipped. Its entries, ES modules each bundled by esbuild from
//              pkg-template/ with the JS core (core.mjs and the modules it imports), the
//              client, the receiver and the in-memory store:
//              index.js (web.mjs): browsers, needs init(); RSA by WebCrypto
//              edge.js (edge.mjs): workerd, imports the .wasm as a module,
//              instantiates it, and re-exports ./index.js
//              edge-light.js (edge-light.mjs): edge-light (Vercel), the same with the
//              .wasm imported as `./payment_intake_bg.wasm?module`
//              node.js (node.mjs): Node as a real ES module, for bundlers (the `module`
//              condition), reads the .wasm beside it (wasm-file.mjs)
//              inline.js (node.mjs with wasm-inline.mjs): payment-intake/inline, the .wasm
//              as base64 in inline-wasm.js, a bundle with no file to copy
//              lean.js (web.mjs, its `#glue` and `#wasm` under the `lean` condition):
//              payment-intake/lean, over payment_intake_lean_bg.wasm, the crate without its
//              wasm-rsa feature (RSA by WebCrypto, async only), with lean-edge.js and
//              lean-edge-light.js (edge.mjs, edge-light.mjs over it); receiver.js
//              (receiver-entry.mjs, `receiver` condition): payment-intake/receiver, over
//              payment_intake_receiver_bg.wasm (neither wasm-rsa nor full-api: only what
//              verifying and reading callbacks needs), with receiver-edge.js and
//              receiver-edge-light.js. Each built by cargo in a target dir of its own.
//   pkg/node/  index.js: CommonJS, bundled by esbuild from pkg-template/node.cjs and the ES
//              modules it requires, over ../web/payment_intake_node.cjs; loads synchronously;
//              the nodejs target's payment_intake.d.ts
//   index.d.ts in both (and web/edge.d.ts, web/node.d.ts), from pkg-template/index.d.ts, with
//              client/ and receiver/ declarations beside it
//   pkg/index.mjs + index.d.mts  ES module for Node: pkg/node/index.js by `require`
//              (one instance for `import` and `require`), no init needed
//   pkg/package.json  from pkg-template/package.json, version from Cargo.toml
//   pkg/README.md, CHANGELOG.md, LICENSE-MIT, LICENSE-APACHE, examples/*.mjs  copied from the root
//   pkg/cli.js + pkg/cli/, pkg/sandbox/, pkg/otel/, pkg/stores/  copied from pkg-template/ as they are
//              (they name the package by its name), pkg/www/ from www/
// The steps: build/wasm.mjs (the crate, the glues, wasm-opt), build/operation-types.mjs (the
// OperationPath union of the glues' declarations and the client's ClientOperations, from the built operationTable()), build/modules.mjs (the JS),
// build/package.mjs (the manifest, documents, the ES module wrapper, the smoke test).
import { checkTools, buildWasm, crateVersion, reportSizes } from './build/wasm.mjs';
import { buildModules } from './build/modules.mjs';
import { writeClientTypes, writeOperationTypes } from './build/operation-types.mjs';
import { exportNames, smokeTest, writeEsmWrapper, writePackageJson } from './build/package.mjs';

const started = Date.now();
checkTools();
const version = crateVersion();
buildWasm();
writeOperationTypes();
const manifest = writePackageJson(version);
await buildModules(version);
writeClientTypes();
const names = exportNames();
writeEsmWrapper(names);
smokeTest(names);
reportSizes();
console.log(`\n[build] ${manifest.name}@${manifest.version} built in pkg/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
