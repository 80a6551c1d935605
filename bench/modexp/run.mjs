#!/usr/bin/env node
// Builds bench/modexp (wasm32, the package's release settings) and times, in
// this Node, modular exponentiation by our src/rsa/hazmat.rs (mm), num-bigint-dig
// (nb, what rsa 0.9 uses) and crypto-bigint's BoxedMontyForm (cb, under rsa
// 0.10): a 2048-bit modulus with e = 65537 (a verification) and a 1024-bit
// modulus with a 1024-bit exponent (one CRT half of an RSA-2048 signature).
// Constants (Montgomery parameters) are made once, outside the timing, except
// num-bigint-dig's modpow, which makes its own on every call.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
execFileSync('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '--manifest-path', path.join(dir, 'Cargo.toml')], { stdio: 'inherit' });
const wasm = path.join(dir, 'target', 'wasm32-unknown-unknown', 'release', 'modexp_bench.wasm');
const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasm), {});
const x = instance.exports;
const time = (fn, kind, n) => {
  fn(kind, Math.max(1, n / 10));
  const start = process.hrtime.bigint();
  fn(kind, n);
  return Number(process.hrtime.bigint() - start) / n / 1000;
};
for (let round = 0; round < 3; round++) {
  for (const [kind, label, n] of [[0, '2048-bit modulus, e = 65537', 300], [1, '1024-bit modulus, 1024-bit exponent', 20]]) {
    const out = ['mm', 'nb', 'cb'].map((name) => `${name} ${time(x[name], kind, n).toFixed(0)} µs`);
    console.log(`${label}: ${out.join(', ')}`);
  }
}
