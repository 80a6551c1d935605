#!/usr/bin/env node
// Where the .wasm's bytes go (issue 41), from twiggy's own output (`twiggy top -f json`): each
// item's shallow size, summed by crate (the first path segment of its demangled name: for
// `<T as Trait>::f` the crate of T, or of the trait when T is a primitive or a slice), and the
// largest functions; then the shipped, optimized .wasm files, raw and gzip -9.
//
//   node scripts/wasm-bytes.mjs [--top 25] [--markdown] [--no-bindgen] [FILE.wasm ...]
//
// The names are only in the wasm before wasm-opt (which drops the name section): by default the
// cargo outputs the build keeps, the full build's (target/wasm32-unknown-unknown/release/
// payment_intake.wasm) and each lean build's (target/wasm-<name>/…, scripts/build/wasm.mjs) when
// present, a column each. Any input still holding wasm-bindgen's custom section (a cargo output)
// is passed through wasm-bindgen (--target web, into a temporary folder) as the build does, so
// the items are those wasm-opt receives; --no-bindgen measures it as it is (with wasm-bindgen's
// describe functions, which the shipped .wasm has not). Other files are measured as they are
// (an optimized .wasm gives `code[N]` items: no crate). FILEs given replace the defaults.
// The shipped sizes: every pkg/web/*_bg.wasm present (the full build and the lean ones).
// twiggy is a measurement tool, not a dependency of the build or CI: `cargo install twiggy`.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const TOP = topIndex >= 0 ? Number(args[topIndex + 1]) : 25;
const MARKDOWN = args.includes('--markdown');
const NO_BINDGEN = args.includes('--no-bindgen');
const files = args.filter((a, i) => a.endsWith('.wasm') && args[i - 1] !== '--top');
const cargoWasm = (dir) => path.join(dir, 'wasm32-unknown-unknown', 'release', 'payment_intake.wasm');
if (files.length === 0) {
  // The full build's cargo output, and each lean build's, in its target dir of its own (target/wasm-<name>/).
  files.push(cargoWasm(path.join(root, 'target')));
  const target = path.join(root, 'target');
  const lean = fs.existsSync(target) ? fs.readdirSync(target).filter((d) => d.startsWith('wasm-') && fs.existsSync(cargoWasm(path.join(target, d)))) : [];
  files.push(...lean.sort().map((d) => cargoWasm(path.join(target, d))));
}
/** A column's name: `full` or the lean build's for a cargo output of this repository, else the path. */
const labelOf = (file) => {
  const m = path.relative(root, file).match(/^target\/(?:wasm-([\w-]+)\/)?wasm32-unknown-unknown\/release\/payment_intake\.wasm$/);
  return m ? `${m[1] ?? 'full'} build` : path.relative(root, file) || file;
};

/** A tool on PATH, or in ~/.cargo/bin where `cargo install` puts it; null when absent. */
function tool(name) {
  for (const candidate of [name, path.join(os.homedir(), '.cargo', 'bin', name)]) {
    const r = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (r.status === 0) return { bin: candidate, version: r.stdout.trim() };
  }
  return null;
}

const KiB = (n) => `${(n / 1024).toFixed(1)} KiB`;
const num = (n) => n.toLocaleString('en-US');
const pct = (n, of) => `${((100 * n) / of).toFixed(1)} %`;

/** The shipped .wasm files: raw and gzip -9. */
function shippedSizes() {
  const dir = path.join(root, 'pkg', 'web');
  const shipped = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('_bg.wasm')).sort() : [];
  return shipped.map((f) => {
    const bytes = fs.readFileSync(path.join(dir, f));
    return { file: `pkg/web/${f}`, raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
  });
}

const BUILTINS = /^(mem(cpy|set|move|cmp)|bcmp|f?(round|floor|ceil|trunc|sqrt|min|max|abs|mod)f?|__(ashl|ashr|lshr|mul|div|mod|udiv|umod|float|fix)\w*)$/;
const PRIMITIVE = /^(u8|u16|u32|u64|u128|usize|i8|i16|i32|i64|i128|isize|f32|f64|bool|char|str)$/;

/** The crate (or kind of item) a twiggy item's bytes go to. */
function groupOf(name) {
  if (/^code\[\d+\]$/.test(name)) return '(unnamed code: no name section)';
  if (/^data(\[\d+\]| segment )/.test(name)) return '(data segments)';
  if (/subsection$/.test(name)) return '(name section: names, not shipped)';
  if (name.startsWith('custom section ')) return '(other custom sections)';
  if (/^(export |import |type\[|global\[|table\[|memory\[|elem\[)|section headers$|^wasm magic bytes$/.test(name)) return '(module structure: types, imports, exports, tables, headers)';
  if (/ shim$/.test(name) || /^__(wbg_|wbindgen_|externref_)/.test(name)) return 'wasm_bindgen';
  if (!name.includes('::')) return BUILTINS.test(name) ? 'compiler_builtins' : 'payment_intake';
  // `<T as Trait>::f`, `<&mut T as …>`, `<[u32] as rand::…>`, `<u128>::f`: T's crate, else the
  // trait's, else core (a primitive's own method).
  const head = name.replace(/^(?:[<&([]|\*const |\*mut |mut |dyn )+/, '');
  const crate = head.match(/^([a-z_][a-z0-9_]*)(?:\[[0-9a-f]+\])?(?:::|[<>\],;)]|$)/);
  if (crate && !PRIMITIVE.test(crate[1])) return crate[1];
  const trait = name.match(/ as ([a-z_][a-z0-9_]*)(?:\[[0-9a-f]+\])?::/);
  if (trait) return trait[1];
  return crate ? 'core' : '(other code)';
}
const isCode = (group) => !group.startsWith('(') || group.startsWith('(unnamed code') || group === '(other code)';
const display = (name) => name.replace(/::h[0-9a-f]{16}$/, '').replace(/\[[0-9a-f]{16}\]/g, '');

/** The measured form of `file` (through wasm-bindgen when it is the raw cargo output), twiggy's items. */
function measure(file, twiggy, bindgen) {
  let measured = file;
  let note = 'as it is';
  const bytes = fs.readFileSync(file);
  if (bytes.includes('__wasm_bindgen_unstable')) {
    if (!bindgen || NO_BINDGEN) {
      note = `the raw cargo output (${NO_BINDGEN ? '--no-bindgen' : 'wasm-bindgen not found'}: wasm-bindgen's describe functions and sections included)`;
    } else {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'wasm-bytes-'));
      execFileSync(bindgen.bin, ['--target', 'web', '--out-dir', out, '--out-name', 'm', file]);
      measured = path.join(out, 'm_bg.wasm');
      note = `through ${bindgen.version} --target web, as the build does (what wasm-opt receives)`;
    }
  }
  const twiggyJson = (extra) => JSON.parse(execFileSync(twiggy.bin, ['top', ...extra, '-f', 'json', measured], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 }));
  const items = twiggyJson([]);
  // Retained sizes (twiggy's dominator tree): the bytes only that export reaches.
  const exports = twiggyJson(['--retained']).filter((item) => item.name.startsWith('export ')).sort((a, b) => b.retained_size - a.retained_size);
  const size = fs.statSync(measured).size;
  if (measured !== file) fs.rmSync(path.dirname(measured), { recursive: true, force: true });
  const groups = new Map();
  let code = 0;
  for (const item of items) {
    const group = groupOf(item.name);
    groups.set(group, (groups.get(group) ?? 0) + item.shallow_size);
    if (isCode(group)) code += item.shallow_size;
  }
  const functions = items.filter((item) => isCode(groupOf(item.name))).sort((a, b) => b.shallow_size - a.shallow_size);
  return { file: path.relative(root, file) || file, label: labelOf(file), note, size, code, groups, functions, exports };
}

/** A table, plain or Markdown; the columns in `left` aligned left, the others right. */
function table(header, rows, left = [0]) {
  if (MARKDOWN) {
    const line = (cells) => `| ${cells.join(' | ')} |`;
    return [line(header), line(header.map((_, i) => (left.includes(i) ? '---' : '---:'))), ...rows.map(line)].join('\n');
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (left.includes(i) ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

const twiggy = tool('twiggy');
const bindgen = tool('wasm-bindgen');
const shipped = shippedSizes();
const out = [];
if (!twiggy) {
  out.push('twiggy is not installed: no breakdown by crate or function (it is a measurement tool, not a build or CI dependency; `cargo install twiggy` installs it). Only the shipped sizes follow.');
} else {
  const runs = [];
  for (const file of files) {
    if (!fs.existsSync(file)) {
      out.push(`${file}: no such file (the cargo output is made by \`npm run build\`)`);
      continue;
    }
    runs.push(measure(file, twiggy, bindgen));
  }
  out.push(`${twiggy.version}, ${new Date().toISOString().slice(0, 10)}`);
  for (const r of runs) out.push(`${r.label === r.file ? r.file : `${r.label}, ${r.file}`}: ${num(r.size)} bytes measured, ${r.note}; code ${num(r.code)} bytes (${KiB(r.code)})`);
  if (runs.length > 0) {
    const names = [...new Set(runs.flatMap((r) => [...r.groups.keys()]))];
    const codeGroups = names.filter(isCode).sort((a, b) => (runs[0].groups.get(b) ?? 0) - (runs[0].groups.get(a) ?? 0));
    const otherGroups = names.filter((g) => !isCode(g)).sort((a, b) => (runs[0].groups.get(b) ?? 0) - (runs[0].groups.get(a) ?? 0));
    const cell = (r, g, of) => (r.groups.has(g) ? `${num(r.groups.get(g))} (${pct(r.groups.get(g), of)})` : '–');
    const header = ['crate / item', ...runs.map((r) => (runs.length > 1 ? r.label : 'bytes (share)'))];
    out.push('', `Code by crate (share of the code):`, '');
    out.push(table(header, [...codeGroups.map((g) => [g, ...runs.map((r) => cell(r, g, r.code))]), ['code, in all', ...runs.map((r) => `${num(r.code)} (${KiB(r.code)})`)]]));
    out.push('', `Everything else in the file (share of the file):`, '');
    out.push(table(header, [...otherGroups.map((g) => [g, ...runs.map((r) => cell(r, g, r.size))]), ['the file, in all', ...runs.map((r) => `${num(r.size)} (${KiB(r.size)})`)]]));
    for (const r of runs) {
      out.push('', `The ${TOP} largest functions of the ${r.label} (share of the code):`, '');
      const rows = r.functions.slice(0, TOP).map((f) => [num(f.shallow_size), pct(f.shallow_size, r.code), groupOf(f.name), MARKDOWN ? `\`${display(f.name).replace(/\|/g, '\\|')}\`` : display(f.name)]);
      out.push(table(['bytes', 'share', 'crate', 'function'], rows, [2, 3]));
      out.push('', `What each export alone keeps in the ${r.label} (twiggy's retained size: the bytes reached from no other export or root, at least what leaving it out of a build removes; the ${Math.min(15, TOP)} largest):`, '');
      out.push(table(['retained bytes', 'share of the file', 'export'], r.exports.slice(0, Math.min(15, TOP)).map((e) => [num(e.retained_size), pct(e.retained_size, r.size), MARKDOWN ? `\`${e.name.slice(8, -1)}\`` : e.name.slice(8, -1)]), [2]));
    }
  }
}
out.push('', 'Shipped (after wasm-opt):', '');
out.push(shipped.length ? table(['file', 'raw', 'gzip -9'], shipped.map((s) => [s.file, `${num(s.raw)} (${KiB(s.raw)})`, `${num(s.gzip)} (${KiB(s.gzip)})`])) : '(no pkg/web/*_bg.wasm: run `npm run build`)');
console.log(out.join('\n'));
if (!twiggy) process.exit(1);
