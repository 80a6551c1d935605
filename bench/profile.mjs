#!/usr/bin/env node
// Writes bench/profiles/<scenario>.txt: where the time of one call goes, for the
// calls the benchmark compares. The package is pkg/node (run `npm run build`
// first) with its wasm replaced by the cargo output bound again without
// wasm-opt, so the profile names Rust functions. Each scenario runs in a fresh
// `node --cpu-prof`; the file lists self time and inclusive time by function.
//   node bench/profile.mjs [scenario...]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wasmFile = path.join(root, 'target', 'wasm32-unknown-unknown', 'release', 'payment_intake.wasm');
if (!fs.existsSync(path.join(root, 'pkg', 'node', 'index.js')) || !fs.existsSync(wasmFile)) {
  throw new Error('run `npm run build` first');
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-intake-profile-'));
const pkgDir = path.join(work, 'node');
fs.cpSync(path.join(root, 'pkg', 'node'), pkgDir, { recursive: true });
// pkg/node/index.js loads the glue from ../web/payment_intake_node.cjs (scripts/build.mjs).
const glueDir = path.join(work, 'web');
fs.mkdirSync(glueDir);
execFileSync('wasm-bindgen', ['--target', 'nodejs', '--out-dir', glueDir, '--out-name', 'payment_intake_node', wasmFile]);
fs.renameSync(path.join(glueDir, 'payment_intake_node.js'), path.join(glueDir, 'payment_intake_node.cjs'));

// Each scenario: the setup, then the call, as the body of a function of `pi` (the package).
const setup = `
const fs = require('node:fs');
const path = require('node:path');
const vectors = ${JSON.stringify(path.join(root, 'tests', 'vectors'))};
const read = (name) => fs.readFileSync(path.join(vectors, name), 'utf8');
const callback = JSON.parse(read('callbacks.json')).cases.find((c) => c.name === 'valid callback');
const payin = JSON.parse(read('canonical.json')).find((c) => c.name === 'payin request').body;
const signingKey = pi.SigningKey.fromPem(read('keys/rsa2048.pkcs8.pem'));
const verifyingKey = pi.VerifyingKey.fromPem(read('keys/rsa2048.public.pem'));
const signOptions = { merchantId: 'merchant-1', timestamp: '1700000000' };
// tests/js/hostile-bodies.mjs's costliest shape under the 16 KiB callback limit: 8,180 zeros.
const tinyLeaves = \`{"a":[\${Array(8180).fill('0').join(',')}]}\`;
const refused = (fn) => { try { fn(); } catch { /* INVALID_SIGNATURE is what is timed */ } };
`;
const scenarios = {
  'verify-native': 'pi.verifyCallback(callback.body, callback.headers, verifyingKey)',
  'verify-wasm': "pi.verifyCallback(callback.body, callback.headers, verifyingKey, { backend: 'wasm' })",
  'sign-native': 'pi.signRequest(payin, signingKey, signOptions)',
  'sign-wasm': "pi.signRequest(payin, signingKey, { ...signOptions, backend: 'wasm' })",
  'canonical-1kb': "pi.canonicalMessage(callback.body, '1700000000')",
  validate: "pi.validateRequest('/api/v1/payment/p2p/payin', payin)",
  'hostile-leaves': 'refused(() => pi.verifyCallback(tinyLeaves, callback.headers, verifyingKey))',
};
const wanted = process.argv.slice(2);
const MS = 4000;

function summarize(file, title) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const name = (node) => `${(node.callFrame.functionName || '(anonymous)').replace(/::h[0-9a-f]{16}$/, '')} ${node.callFrame.url.split('/').pop()}`.trim();
  const self = new Map();
  const inclusive = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    self.set(name(byId.get(id)), (self.get(name(byId.get(id))) ?? 0) + dt);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const n = name(byId.get(at));
      if (!seen.has(n)) {
        seen.add(n);
        inclusive.set(n, (inclusive.get(n) ?? 0) + dt);
      }
    }
  });
  const top = (map, skip) =>
    [...map]
      .filter(([n]) => !skip.test(n))
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(process.env.PROFILE_TOP ?? 30))
      .map(([n, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${n.slice(0, 150)}`)
      .join('\n');
  const frame = /^(\(root\)|\(program\)|\(anonymous\)\s*$|Module\.|executeUserEntryPoint|\(anonymous\) node:internal)/;
  return `${title}\n\n## Self time\n${top(self, /^$/)}\n\n## Inclusive time (the function and what it calls)\n${top(inclusive, frame)}\n`;
}

fs.mkdirSync(path.join(root, 'bench', 'profiles'), { recursive: true });
for (const [scenario, call] of Object.entries(scenarios)) {
  if (wanted.length && !wanted.includes(scenario)) continue;
  const script = path.join(work, `${scenario}.cjs`);
  fs.writeFileSync(
    script,
    `const pi = require(${JSON.stringify(pkgDir)});\n${setup}\nfor (let i = 0; i < 200; i++) ${call};\nlet calls = 0;\nconst start = process.hrtime.bigint();\nwhile (process.hrtime.bigint() - start < ${MS}_000_000n) { ${call}; calls++; }\nconsole.log(JSON.stringify({ calls, us: Number(process.hrtime.bigint() - start) / 1000 / calls }));\n`,
  );
  const dir = path.join(work, `${scenario}-prof`);
  const out = JSON.parse(execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, script], { encoding: 'utf8' }));
  const [file] = fs.readdirSync(dir);
  const title = `# ${scenario}: ${out.us.toFixed(1)} µs per call (${out.calls} calls in ${MS / 1000} s, ${new Date().toISOString().slice(0, 10)}; load average ${os.loadavg()[0].toFixed(2)})\n# ${call}\n# node --cpu-prof on pkg/node with the wasm bound without wasm-opt (Rust names kept); bench/profile.mjs`;
  fs.writeFileSync(path.join(root, 'bench', 'profiles', `${scenario}.txt`), summarize(path.join(dir, file), title));
  console.log(`${scenario}: ${out.us.toFixed(1)} µs per call -> bench/profiles/${scenario}.txt`);
}
fs.rmSync(work, { recursive: true, force: true });
