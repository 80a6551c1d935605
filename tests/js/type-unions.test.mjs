// The TypeScript unions of the built package equal the runtime lists they
// describe: `ErrorCode` is `errorCodes()`, `IssueCode` is `issueCodes()`
// (the issue codes of its own plus `ErrorCode`, of which the runtime lists
// those that leave a body unreadable), and `OperationPath` is exactly the
// paths of `operationTable()` (the build writes it from there). The declarations
// are found in whichever `.d.ts` / `.d.mts` file of pkg/ holds them, so moving or
// merging the type files does not matter. And the
// table of error codes in docs/errors.md lists exactly `errorCodes()`, each once.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import { cjs, esm, pkgDir, root } from './helpers.mjs';

/** Every type declaration file under `dir`. */
function declarationFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return declarationFiles(full);
    return /\.d\.m?ts$/.test(entry.name) ? [full] : [];
  });
}

/**
 * Every declaration `export type <name> = …;` in the package, each read as
 * { literals, references }: its string literal members and the names of the
 * types it includes. Comments are dropped first.
 */
function unions(name) {
  const found = [];
  for (const file of declarationFiles(pkgDir)) {
    const text = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
    const pattern = new RegExp(`export\\s+type\\s+${name}\\s*=([^;]*);`, 'g');
    for (const [, body] of text.matchAll(pattern)) {
      const members = body.split('|').map((member) => member.trim()).filter(Boolean);
      const literals = members.filter((m) => /^'[^']*'$/.test(m)).map((m) => m.slice(1, -1));
      const references = members.filter((m) => /^[A-Za-z_]\w*$/.test(m));
      assert.equal(literals.length + references.length, members.length, `${file}: ${name} has a member that is neither a literal nor a name: ${body}`);
      found.push({ file: path.relative(pkgDir, file), literals, references });
    }
  }
  assert.ok(found.length > 0, `no .d.ts under ${pkgDir} declares ${name}`);
  for (const other of found.slice(1)) {
    assert.deepEqual(other.literals, found[0].literals, `${name} differs between ${found[0].file} and ${other.file}`);
    assert.deepEqual(other.references, found[0].references, `${name} differs between ${found[0].file} and ${other.file}`);
  }
  return found[0];
}

function once(list, what) {
  assert.equal(new Set(list).size, list.length, `${what} repeats a member: ${list}`);
  return new Set(list);
}

const sorted = (set) => [...set].sort();

for (const [flavor, api] of [['require', cjs], ['import', esm]]) {
  describe(`TS unions equal the runtime lists (${flavor})`, () => {
    const errorCodes = once(api.errorCodes(), 'errorCodes()');
    const issueCodes = once(api.issueCodes().map((entry) => entry.code), 'issueCodes()');

    test('ErrorCode is errorCodes()', () => {
      const union = unions('ErrorCode');
      assert.deepEqual(union.references, []);
      assert.deepEqual(sorted(once(union.literals, 'ErrorCode')), sorted(errorCodes));
    });

    test('IssueCode is the issue codes of issueCodes() plus ErrorCode', () => {
      const union = unions('IssueCode');
      assert.deepEqual(union.references, ['ErrorCode']);
      const own = [...issueCodes].filter((code) => !errorCodes.has(code));
      assert.deepEqual(sorted(once(union.literals, 'IssueCode')), own.sort());
      // What issueCodes() lists beyond those is an ErrorCode (an unreadable body), which the union includes.
      for (const code of issueCodes) assert.ok(union.literals.includes(code) || errorCodes.has(code), code);
    });

    test('every OperationPath is an operation of the runtime, each once', () => {
      const union = unions('OperationPath');
      assert.deepEqual(union.references, []);
      assert.ok(union.literals.length > 0);
      assert.deepEqual(sorted(once(union.literals, 'OperationPath')), api.operationTable().map((row) => row.path).sort());
      for (const path of once(union.literals, 'OperationPath')) {
        const report = api.validateRequest(path, {});
        assert.ok(!report.errors.some((issue) => issue.code === 'UNKNOWN_OPERATION'), `${path} is not an operation at runtime`);
      }
      const unknown = api.validateRequest('/api/v1/not-an-operation', {});
      assert.ok(unknown.errors.some((issue) => issue.code === 'UNKNOWN_OPERATION'), 'the check can fail');
    });
  });
}

test("docs/errors.md: the error code table lists exactly errorCodes(), each once", () => {
  const guide = fs.readFileSync(path.join(root, 'docs', 'errors.md'), 'utf8');
  const section = guide.split(/^## The codes$/m)[1].split(/^##/m)[0];
  const documented = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual(sorted(once(documented, 'the table of docs/errors.md')), sorted(new Set(esm.errorCodes())));
});
