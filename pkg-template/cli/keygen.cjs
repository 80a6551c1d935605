// `payment-intake keygen`: the merchant's RSA key pair, merchant-private.pem and merchant-public.pem.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { KEY_FILES, UsageError } = require('./args.cjs');
const { api, printJson } = require('./io.cjs');

/** DIR of --out-dir, made (mode 700) when nothing is there; anything there must be a directory. */
function outDir(dir) {
  const there = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (there === undefined) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      throw new UsageError(`--out-dir: cannot make ${dir}: ${e.code ?? e.message}`);
    }
  } else if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`--out-dir: ${dir} is not a directory`);
  }
}

function keygen({ values }) {
  const bits = values.bits === undefined ? 2048 : Number(values.bits);
  if (!/^\d+$/.test(values.bits ?? '2048') || bits < 2048 || bits > 4096) {
    throw new UsageError(`--bits must be a whole number from 2048 to 4096, got '${values.bits}'`);
  }
  const dir = values['out-dir'] ?? '.';
  outDir(dir);
  const files = { private: path.join(dir, KEY_FILES.private), public: path.join(dir, KEY_FILES.public) };
  // lstat, not exists: a symlink (even one to nothing) is there, and is never written through.
  const present = (f) => fs.lstatSync(f, { throwIfNoEntry: false }) !== undefined;
  for (const f of Object.values(files)) {
    if (present(f) && !values.force) throw new UsageError(`${f} exists; give --force to overwrite it`);
  }
  const key = api().SigningKey.generate(bits);
  // Each file is made anew ('wx': O_CREAT | O_EXCL, which also refuses a symlink): --force
  // removes what is there first (a symlink itself, not what it points to), so the private
  // key never goes into an older file with wider permissions, or outside DIR.
  const create = (f, text, mode) => {
    if (values.force && present(f)) fs.unlinkSync(f);
    fs.writeFileSync(f, text, { mode, flag: 'wx' });
  };
  try {
    create(files.private, key.privateKeyPem(), 0o600);
    fs.chmodSync(files.private, 0o600);
    create(files.public, key.publicKeyPem(), 0o644);
  } catch (e) {
    throw new UsageError(`--out-dir: cannot write to ${dir}: ${e.code ?? e.message}`);
  } finally {
    key.free();
  }
  if (values.json) printJson({ bits, private: files.private, public: files.public });
  else process.stdout.write(`wrote ${files.private} (private key, PKCS#8 PEM)\nwrote ${files.public} (public key, SPKI PEM)\n`);
  return 0;
}

module.exports = keygen;
