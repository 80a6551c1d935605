// README.md stays true to the package: its error table lists exactly the codes
// errorCodes() returns, and its JS examples are valid modules.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { esm as api, root } from './helpers.mjs';

const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

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
