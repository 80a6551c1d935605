// `payment-intake help NAME` for names that are not commands (properties every object has).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';

import { pkgDir } from './helpers.mjs';

const cli = path.join(pkgDir, 'cli.js');

function run(args) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  if (r.error) throw r.error;
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('help', () => {
  test("'help NAME' for a name that is not a command prints the main usage, not an undefined one", () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const r = run(['help', name]);
      assert.doesNotMatch(r.out, /undefined/, `help ${name}: ${r.out}`);
      assert.match(r.out, /^Usage:\n/, `help ${name}`);
    }
  });
});
