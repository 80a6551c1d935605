#!/usr/bin/env node
// Builds bench/modexp (wasm32, the package's release settings) and times, in
// this Node, modular exponentiation by our src/rsa/hazmat/ (mm), num-bigint-dig
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
// Two builds: without SIMD128 (hazmat's 32-bit scalar loop) and with it
// (hazmat's 28-bit digits with u64x2_extmul, "mm+simd").
const load = async (feature) => {
  const targetDir = path.join(dir, 'target', feature);
  execFileSync('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '--manifest-path', path.join(dir, 'Cargo.toml'), '--target-dir', targetDir], {
    stdio: 'inherit',
    env: { ...process.env, RUSTFLAGS: `-C target-feature=${feature === 'simd' ? '+' : '-'}simd128` },
  });
  const wasm = path.join(targetDir, 'wasm32-unknown-unknown', 'release', 'modexp_bench.wasm');
  return (await WebAssembly.instantiate(fs.readFileSync(wasm), {})).instance.exports;
};
const x = await load('scalar');
const v = await load('simd');
const time = (fn, kind, n) => {
  fn(kind, Math.max(1, n / 10));
  const start = process.hrtime.bigint();
  fn(kind, n);
  return Number(process.hrtime.bigint() - start) / n / 1000;
};
for (let round = 0; round < 3; round++) {
  for (const [kind, label, n] of [[0, '2048-bit modulus, e = 65537', 300], [1, '1024-bit modulus, 1024-bit exponent', 20]]) {
    const out = [['mm', x.mm], ['mm+simd', v.mm], ['nb', x.nb], ['cb', x.cb]].map(([name, fn]) => `${name} ${time(fn, kind, n).toFixed(0)} µs`);
    console.log(`${label}: ${out.join(', ')}`);
  }
}
