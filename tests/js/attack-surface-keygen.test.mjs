// Attacks on `keygen`: what it writes through a symlink, and over what, with and
// without --force.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { pkgDir } from './helpers.mjs';

const cli = path.join(pkgDir, 'cli.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-intake-attack-cli-'));

function run(args) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  if (r.error) throw r.error;
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('keygen', () => {
  test('a dangling symlink at merchant-private.pem is refused, not followed to write the private key elsewhere', (t) => {
    const dir = fs.mkdtempSync(path.join(tmp, 'symlink-'));
    const elsewhere = path.join(tmp, `elsewhere-${path.basename(dir)}.pem`);
    fs.symlinkSync(elsewhere, path.join(dir, 'merchant-private.pem'));
    const r = run(['keygen', '--out-dir', dir]);
    assert.equal(fs.existsSync(elsewhere), false, 'the private key was written through the symlink, outside --out-dir');
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, /merchant-private\.pem exists; give --force/);
    t.after(() => fs.rmSync(elsewhere, { force: true }));
  });

  test('--force replaces a symlink itself: the file it points to is not overwritten', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'force-'));
    const precious = path.join(dir, 'precious.txt');
    fs.writeFileSync(precious, 'not a key\n');
    fs.symlinkSync(precious, path.join(dir, 'merchant-public.pem'));
    fs.symlinkSync(precious, path.join(dir, 'merchant-private.pem'));
    const r = run(['keygen', '--out-dir', dir, '--force']);
    assert.equal(r.code, 0, r.err);
    assert.equal(fs.readFileSync(precious, 'utf8'), 'not a key\n', 'the symlink target was overwritten');
    for (const name of ['merchant-private.pem', 'merchant-public.pem']) assert.equal(fs.lstatSync(path.join(dir, name)).isFile(), true, name);
    assert.match(fs.readFileSync(path.join(dir, 'merchant-private.pem'), 'utf8'), /BEGIN PRIVATE KEY/);
  });

  test('--force over a world-readable merchant-private.pem leaves a new file of mode 600 (the key is never written into the old one)', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'mode-'));
    const file = path.join(dir, 'merchant-private.pem');
    fs.writeFileSync(file, 'old\n', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    // A second name for the old file (another user's hard link, a backup tool's) shows what went into it.
    const old = path.join(dir, 'old-link');
    fs.linkSync(file, old);
    const r = run(['keygen', '--out-dir', dir, '--force']);
    assert.equal(r.code, 0, r.err);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.match(fs.readFileSync(file, 'utf8'), /BEGIN PRIVATE KEY/);
    assert.equal(fs.readFileSync(old, 'utf8'), 'old\n', 'the private key went into the old, world-readable file');
  });

  test('--out-dir that is missing is made (mode 700), nested too; a dangling symlink there is never made into a folder nor written through', () => {
    const dir = path.join(fs.mkdtempSync(path.join(tmp, 'made-')), 'keys', 'merchant');
    const r = run(['keygen', '--out-dir', dir, '--json']);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), { bits: 2048, private: path.join(dir, 'merchant-private.pem'), public: path.join(dir, 'merchant-public.pem') });
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.match(fs.readFileSync(path.join(dir, 'merchant-private.pem'), 'utf8'), /BEGIN PRIVATE KEY/);
    const parent = fs.mkdtempSync(path.join(tmp, 'dangling-dir-'));
    const elsewhere = path.join(parent, 'elsewhere');
    fs.symlinkSync(elsewhere, path.join(parent, 'keys'));
    const dangling = run(['keygen', '--out-dir', path.join(parent, 'keys')]);
    assert.equal(dangling.code, 2, dangling.out + dangling.err);
    assert.match(dangling.err, /--out-dir: .*keys is not a directory/);
    assert.equal(fs.existsSync(elsewhere), false, 'a folder was made where the symlink points');
    const file = path.join(parent, 'a-file');
    fs.writeFileSync(file, 'x');
    assert.match(run(['keygen', '--out-dir', file]).err, /a-file is not a directory/);
  });
});
