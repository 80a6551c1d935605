// The one factory of the package's errors (pkg-template/errors.mjs, bundled by the build into
// pkg/node/index.js and, for every ES module entry, one shared module of pkg/web/): the core,
// the client and the receiver over one glue share one set of errors, so the wasm's constants
// are read once, not once per part.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { createErrors } from '../../pkg-template/errors.mjs';
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

test('the factory is in each build once: one module for the core, the client and the receiver', () => {
  const defined = (files) => files.map((f) => fs.readFileSync(path.join(pkgDir, f), 'utf8').split('function createErrors(').length - 1).reduce((a, b) => a + b, 0);
  // The lean entries (payment-intake/lean, payment-intake/receiver) are bundles of their own, over a glue of their own.
  const lean = /^(lean|receiver)(-edge|-edge-light)?\.js$/;
  const web = fs.readdirSync(path.join(pkgDir, 'web')).filter((f) => f.endsWith('.js') && !lean.test(f)).map((f) => `web/${f}`);
  assert.equal(defined(web), 1, 'web/: the ES module entries share one');
  assert.equal(defined(['node/index.js']), 1, 'node/index.js');
  for (const name of ['lean', 'receiver']) {
    assert.equal(defined([`web/${name}.js`]), 1, `web/${name}.js`);
    assert.equal(defined([`web/${name}-edge.js`, `web/${name}-edge-light.js`]), 0, `web/${name}-edge*.js import web/${name}.js`);
  }
});

test('one set of errors per glue, its constants read once', () => {
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
