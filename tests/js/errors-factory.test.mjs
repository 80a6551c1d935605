// The one factory of the package's errors (pkg-template/errors.mjs, built to web/errors.js
// and node/errors.js): the core, the client and the receiver over one glue share one set of
// errors, so the wasm's constants are read once, not once per part.
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { pkgDir } from './helpers.mjs';

/** A glue whose `__constants()` is counted, with the statuses `make` reads. */
function countedGlue() {
  const glue = {
    reads: 0,
    __constants() {
      glue.reads += 1;
      return JSON.stringify({ statuses: { INVALID_ARGUMENT: 400, CRYPTO_FAILURE: 500 } });
    },
  };
  return glue;
}

const builds = [
  ['web (ESM)', async () => (await import(pathToFileURL(path.join(pkgDir, 'web', 'errors.js')).href)).createErrors],
  ['node (CommonJS)', async () => createRequire(import.meta.url)(path.join(pkgDir, 'node', 'errors.js')).createErrors],
];

for (const [name, load] of builds) {
  test(`${name}: one set of errors per glue, its constants read once`, async () => {
    const createErrors = await load();
    const glue = countedGlue();
    const first = createErrors(glue);
    assert.equal(createErrors(glue), first, 'the same set for a second part over the same glue');
    assert.equal(createErrors(glue), first, 'and a third');
    first.make('INVALID_ARGUMENT', 'x');
    assert.equal(glue.reads, 1, '__constants() read once for every part and every error');
    const error = createErrors(glue).invalidArgument('keys', 'must be a key');
    assert.equal(error.code, 'INVALID_ARGUMENT');
    assert.equal(error.status, 400, 'the status from the glue\'s table');
    assert.equal(error.message, "'keys' must be a key");

    const other = countedGlue();
    const second = createErrors(other);
    assert.notEqual(second, first, 'another glue has its own set');
    assert.equal(other.reads, 1);
    assert.equal(glue.reads, 1);
  });
}
