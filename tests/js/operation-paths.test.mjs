// Each operation path of the spec's index is written in one source file, the Rust table
// (src/spec/operations.rs): every other file of src/, pkg-template/, www/ and scripts/
// takes it from `operationTable()` or from the Rust rows. A path counts wherever it stands
// as a whole (in code, a string or a comment), not inside a longer path or a URL.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { esm as api, root } from './helpers.mjs';

const HOME = 'src/spec/operations.rs';
const FOLDERS = ['src', 'pkg-template', 'www', 'scripts'];

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(full);
    return /\.(rs|mjs|cjs|js|ts|mts|html|json|py|sh|md)$/.test(entry.name) ? [full] : [];
  });
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('every operation path is written in one source file, the Rust table', () => {
  const files = FOLDERS.flatMap((folder) => filesUnder(path.join(root, folder))).map((file) => [path.relative(root, file), fs.readFileSync(file, 'utf8')]);
  assert.ok(files.length > 100);
  const paths = api.operationTable().map((row) => row.path);
  for (const operationPath of paths) {
    const whole = new RegExp(`(?<![\\w.:/-])${escape(operationPath)}(?![\\w/-])`);
    const holders = files.filter(([, text]) => whole.test(text)).map(([name]) => name);
    assert.deepEqual(holders, [HOME], `${operationPath} is written in ${holders.join(', ')}`);
  }
});
