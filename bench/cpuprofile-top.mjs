#!/usr/bin/env node
// Self time by function of a V8 .cpuprofile (node --cpu-prof), top N.
//   node bench/cpuprofile-top.mjs file.cpuprofile [N]
import fs from 'node:fs';

const [file, n = '30'] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  const name = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop()}`;
  self.set(name, (self.get(name) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(n))) {
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(1).padStart(8)} ms  ${name.slice(0, 140)}`);
}
