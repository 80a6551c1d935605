// The README shipped in the package (pkg/README.md, copied from the root's README.md;
// pack-contents.test.mjs checks they are the same) stays true to the package: its error
// table lists exactly the codes errorCodes() returns, its JS examples are valid modules,
// and it keeps the sections a user needs, from install to deploy.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { esm as api, pkgDir } from './helpers.mjs';

const readme = fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8');

test('the error table lists every code of errorCodes(), and no other', () => {
  const section = readme.split(/^## Error codes$/m)[1].split(/^## /m)[0];
  const documented = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual([...documented].sort(), [...api.errorCodes()].sort());
});

test('the js examples parse as ES modules', () => {
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length >= 2);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-'));
  try {
    blocks.forEach((code, i) => {
      const file = path.join(dir, `example${i}.mjs`);
      fs.writeFileSync(file, code);
      execFileSync(process.execPath, ['--check', file], { stdio: 'pipe' });
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the canonical options table names every option the package accepts', () => {
  const options = {
    falsy: ['none', 'null'],
    booleans: ['python', 'lower', 'digit'],
    order: ['codepoint', 'utf16'],
    numbers: ['python', 'js'],
    digest: ['single', 'double'],
    token: ['pem', 'der'],
    signatureEncoding: ['base64url', 'hex'],
    profile: api.profiles().map((p) => p.name),
  };
  for (const [name, values] of Object.entries(options)) {
    assert.match(readme, new RegExp(`^\\| \`${name}\` \\|`, 'm'), `the table has a row for ${name}`);
    for (const value of values) {
      assert.match(readme, new RegExp(`\`'${value}'\``), `${name}: ${value}`);
      api.canonicalEntries('{}', { [name]: value });
    }
  }
  assert.match(readme, /\| `padding` \|/);
  // Every option a profile spells out is a row of the table.
  for (const name of Object.keys(api.profiles()[0].options)) assert.match(readme, new RegExp(`^\\| \`${name}\` \\|`, 'm'), name);
});

test('a user\'s path: install, sign and receive, frameworks, test locally, deploy (bundlers, edge)', () => {
  assert.match(readme, /^npm install payment-intake$/m);
  const headings = [...readme.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]);
  const order = ['Node backend', 'Receiving callbacks in your framework', 'Test locally', 'Deploying: bundlers and edge runtimes', 'Bundlers', 'Edge runtimes'];
  const at = order.map((h) => headings.indexOf(h));
  for (const [i, h] of order.entries()) assert.ok(at[i] >= 0, `section ${h}`);
  assert.deepEqual([...at].sort((a, b) => a - b), at, 'in this order');
  // The one copy step of a bundle names the file the package ships.
  const step = readme.match(/^cp node_modules\/payment-intake\/(\S+) dist\/$/m);
  assert.ok(step, 'the copy step');
  assert.ok(fs.existsSync(path.join(pkgDir, step[1])), step[1]);
});
