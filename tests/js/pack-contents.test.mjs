// What `npm pack` of pkg/ would publish (`npm pack --dry-run --json`): every file the
// manifest names is in the tarball, one .wasm (and one per lean entry), the license files and the changelog, and
// every relative link of the shipped README and CHANGELOG resolves inside the tarball
// (a `#anchor` to one of the document's headings).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import { pkgDir, root } from './helpers.mjs';
import { packList } from './support/packed.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const { files } = packList();
const packed = new Set(files);
const isPacked = (relative) => {
  const clean = relative.replace(/^\.\//, '').replace(/\/$/, '');
  return packed.has(clean) || files.some((f) => f.startsWith(`${clean}/`));
};

/** Every string target of the exports map. */
function exportTargets(value) {
  if (typeof value === 'string') return [value];
  return Object.values(value).flatMap(exportTargets);
}

/** A heading's anchor as GitHub and npm make it. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

describe('npm pack of pkg/', () => {
  test('every file the manifest names is packed: main, module, types, bin, exports, sideEffects, files', () => {
    const named = [
      manifest.main,
      manifest.module,
      manifest.types,
      ...Object.values(manifest.bin),
      ...exportTargets(manifest.exports),
      ...manifest.sideEffects,
      ...manifest.files,
    ];
    assert.ok(named.length > 20);
    for (const file of named) assert.ok(isPacked(file), `${file} is in the tarball`);
  });

  test('the license, the changelog and the README; one .wasm, and one per lean entry', () => {
    for (const f of ['LICENSE-MIT', 'LICENSE-APACHE', 'CHANGELOG.md', 'README.md', 'package.json']) assert.ok(packed.has(f), f);
    assert.equal(manifest.license, 'MIT OR Apache-2.0');
    assert.match(fs.readFileSync(path.join(pkgDir, 'LICENSE-MIT'), 'utf8'), /^MIT License/);
    assert.match(fs.readFileSync(path.join(pkgDir, 'LICENSE-APACHE'), 'utf8'), /Apache License\s+Version 2\.0/);
    for (const field of ['repository', 'homepage', 'bugs']) assert.ok(manifest[field], field);
    assert.deepEqual(
      files.filter((f) => f.endsWith('.wasm')),
      ['web/payment_intake_bg.wasm', 'web/payment_intake_lean_bg.wasm', 'web/payment_intake_receiver_bg.wasm'],
    );
  });

  test('the shipped documents are the repository\'s, as they are', () => {
    for (const f of ['README.md', 'CHANGELOG.md', 'LICENSE-MIT', 'LICENSE-APACHE']) {
      assert.equal(fs.readFileSync(path.join(pkgDir, f), 'utf8'), fs.readFileSync(path.join(root, f), 'utf8'), f);
    }
    for (const f of fs.readdirSync(path.join(root, 'examples')).filter((x) => x.endsWith('.mjs'))) assert.ok(packed.has(`examples/${f}`), f);
  });

  for (const doc of ['README.md', 'CHANGELOG.md']) {
    test(`every relative link of the shipped ${doc} resolves inside the tarball`, () => {
      const text = fs.readFileSync(path.join(pkgDir, doc), 'utf8');
      const headings = new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
      const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
      let relative = 0;
      for (const link of links) {
        if (/^[a-z]+:/i.test(link)) continue;
        if (link.startsWith('#')) {
          assert.ok(headings.has(link.slice(1)), `${doc}: ${link} names a heading`);
          continue;
        }
        relative += 1;
        assert.ok(isPacked(link.split('#')[0]), `${doc}: ${link} is in the tarball`);
      }
      if (doc === 'README.md') assert.ok(relative >= 5, 'the README links the examples and the licenses');
    });
  }
});
