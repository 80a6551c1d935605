#!/usr/bin/env node
// Size profile of a .wasm (a small twiggy-like "top"): bytes of each function
// body by name (from the name section, so run it on the un-stripped cargo
// output), grouped by crate, and the size of each section. From twiggy's own output, with the
// exports' retained sizes and several builds side by side: scripts/wasm-bytes.mjs.
//   node bench/wasm-sizes.mjs [file.wasm] [--top N]
import fs from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => a.endsWith('.wasm')) ?? 'target/wasm32-unknown-unknown/release/payment_intake.wasm';
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 40;
const bytes = fs.readFileSync(file);

let pos = 8;
function u32() {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return result;
  }
}
function name() {
  const len = u32();
  const s = bytes.toString('utf8', pos, pos + len);
  pos += len;
  return s;
}

const sections = [];
let importedFuncs = 0;
const bodies = [];
const names = new Map();
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = u32();
  const end = pos + size;
  let label = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount'][id] ?? `id${id}`;
  if (id === 0) {
    const custom = name();
    label = `custom:${custom}`;
    if (custom === 'name') {
      while (pos < end) {
        const sub = bytes[pos++];
        const subSize = u32();
        const subEnd = pos + subSize;
        if (sub === 1) {
          const count = u32();
          for (let i = 0; i < count; i++) {
            const index = u32();
            names.set(index, name());
          }
        }
        pos = subEnd;
      }
    }
  } else if (id === 2) {
    const count = u32();
    for (let i = 0; i < count; i++) {
      name();
      name();
      const kind = bytes[pos++];
      if (kind === 0) { u32(); importedFuncs++; }
      else if (kind === 1) { pos++; const flags = u32(); u32(); if (flags & 1) u32(); }
      else if (kind === 2) { const flags = u32(); u32(); if (flags & 1) u32(); }
      else if (kind === 3) { pos += 2; }
    }
  } else if (id === 10) {
    const count = u32();
    for (let i = 0; i < count; i++) {
      const len = u32();
      bodies.push({ index: importedFuncs + i, size: len });
      pos += len;
    }
  }
  sections.push({ label, size });
  pos = end;
}

/** Legacy (`_ZN…E`) and v0 (`_R…`) Rust symbols to a readable path (enough to group and read). */
const demangle = (n) => {
  if (!n.startsWith('_ZN') && !n.startsWith('_R')) return n;
  const parts = [];
  const re = /(\d+)_?/g;
  let i = n.startsWith('_ZN') ? 3 : 2;
  while (i < n.length) {
    re.lastIndex = i;
    const m = re.exec(n);
    if (!m) break;
    const len = Number(m[1]);
    const start = m.index + m[0].length;
    if (len > 0 && len < 200 && start + len <= n.length) {
      parts.push(n.slice(start, start + len));
      i = start + len;
    } else {
      i = m.index + m[0].length;
    }
  }
  return parts
    .filter((p) => !/^h[0-9a-f]{16}$/.test(p))
    .join('::')
    .replace(/\$LT\$/g, '<').replace(/\$GT\$/g, '>').replace(/\$u20\$/g, ' ').replace(/\$u5b\$/g, '[')
    .replace(/\$u5d\$/g, ']').replace(/\$RF\$/g, '&').replace(/\.\./g, '::').replace(/\$C\$/g, ',');
};
const crateOf = (n) => {
  // v0 symbols (`_R…`) name the crate after its disambiguator: `Cs<hash>_4core`.
  const v0 = n.startsWith('_R') && n.match(/C(?:s[0-9a-zA-Z]*_)?(\d+)([a-z_][a-z0-9_]*)/);
  if (v0) return v0[2].slice(0, Number(v0[1]));
  const m = demangle(n).match(/^[<&[ ]*(?:mut |dyn )?([a-z_][a-z0-9_]*)(?:::|$| as)/);
  return m ? m[1] : '(other)';
};
const total = bodies.reduce((s, b) => s + b.size, 0);
console.log(`${file}: ${bytes.length} bytes; code ${total} bytes in ${bodies.length} functions`);
console.log('\nsections:');
for (const s of sections) console.log(`  ${String(s.size).padStart(9)}  ${s.label}`);
const byCrate = new Map();
for (const b of bodies) {
  const c = crateOf(names.get(b.index) ?? '');
  byCrate.set(c, (byCrate.get(c) ?? 0) + b.size);
}
console.log('\ncode by crate (first path segment):');
for (const [c, s] of [...byCrate].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`  ${String(s).padStart(9)}  ${((100 * s) / total).toFixed(1).padStart(5)}%  ${c}`);
}
console.log(`\ntop ${top} functions:`);
for (const b of [...bodies].sort((a, b) => b.size - a.size).slice(0, top)) {
  console.log(`  ${String(b.size).padStart(7)}  ${demangle(names.get(b.index) ?? `func[${b.index}]`).slice(0, 150)}`);
}
