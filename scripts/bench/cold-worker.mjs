// One sample of the worker cold start (scripts/bench/worker-cold.mjs): the body of a fresh
// worker_threads Worker. It loads one entry of a built package, as a fresh thread would, and
// verifies the genuine callback vector once, marking each step on the process-wide monotonic
// clock (process.hrtime, the same clock in every thread) so the parent can subtract the moment
// it called `new Worker`. Entries:
//   kind 'web': an ES module entry that needs init() (pkg/web/index.js and the lean ones): the
//     .wasm read from the file the parent found, compiled (WebAssembly.compile), Node's fetch
//     globals loaded (the glue's init() reads `typeof Response`: Node loads its fetch, undici, at
//     the first read of one, 15 to 25 ms in a fresh thread; a browser has them), init() with the
//     compiled module (instantiate), then verifyCallbackAsync (WebCrypto: globalThis.crypto.subtle);
//   kind 'node': the Node entry (pkg/index.mjs), whose import reads, compiles and instantiates the
//     .wasm itself, then verifyCallback (node:crypto).
import fs from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';

const now = () => Number(process.hrtime.bigint()) / 1e6;
const marks = { started: now() };
const { kind, entryUrl, wasmFile, publicPem, body, headers } = workerData;

const mod = await import(entryUrl);
marks.imported = now();
if (kind === 'web') {
  const init = typeof mod.default === 'function' ? mod.default : mod.init;
  if (typeof init !== 'function') throw new Error(`${entryUrl}: no init() export (default or named)`);
  const bytes = await fs.readFile(wasmFile);
  marks.read = now();
  const module = await WebAssembly.compile(bytes);
  marks.compiled = now();
  if (typeof globalThis.Response !== 'function') throw new Error('no Response global');
  marks.globals = now();
  await init({ module_or_path: module });
  marks.instantiated = now();
}
const key = typeof mod.VerifyingKey?.fromPem === 'function' ? mod.VerifyingKey.fromPem(publicPem) : publicPem;
const verify = kind === 'web' ? mod.verifyCallbackAsync ?? mod.verifyCallback : mod.verifyCallback;
if (typeof verify !== 'function') throw new Error(`${entryUrl}: no verifyCallbackAsync or verifyCallback export`);
const verified = await verify(body, headers, key);
marks.verified = now();
// A genuine callback gives its model; anything else (a falsy answer) is no verification.
if (!verified || typeof verified !== 'object') throw new Error(`${entryUrl}: the genuine callback gave ${JSON.stringify(verified)}`);
parentPort.postMessage(marks);
