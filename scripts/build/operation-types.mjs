// The `.d.ts` unions of the operation index, generated from the table the built package
// gives at run time (`__constants().operations`, src/spec/operations.rs): the glue's declarations
// carry a placeholder `OperationPath = string`, replaced here by the union of its paths.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { crateName, fail, pkgDir, step } from './common.mjs';

const PLACEHOLDER = /^export type OperationPath = string;.*$/m;

/** The TypeScript of the operation table's path union, one path a line. */
export function operationTypesOf(table) {
  const literals = table.map((row) => `  | '${row.path.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`);
  return `export type OperationPath =\n${literals.join('\n')};`;
}

/** The operation table of the freshly built package, read through its CommonJS glue. */
export function builtOperationTable() {
  const glue = createRequire(import.meta.url)(path.join(pkgDir, 'web', `${crateName}_node.cjs`));
  const table = JSON.parse(glue.__constants()).operations;
  if (!Array.isArray(table) || table.length === 0) fail(`__constants() holds no operation table: ${JSON.stringify(table)}`);
  return table;
}

/** Writes the union into the declarations of both glues (each must hold the placeholder). */
export function writeOperationTypes(table = builtOperationTable()) {
  const union = operationTypesOf(table);
  const files = ['web', 'node'].map((dir) => path.join(pkgDir, dir, `${crateName}.d.ts`)).filter((file) => fs.existsSync(file));
  if (files.length === 0) fail('no glue declarations to write OperationPath into');
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    if (!PLACEHOLDER.test(text)) fail(`${path.relative(pkgDir, file)}: no 'export type OperationPath = string;' placeholder to replace`);
    fs.writeFileSync(file, text.replace(PLACEHOLDER, union));
  }
  step(`OperationPath: ${table.length} paths of operationTable() written into ${files.map((file) => path.relative(pkgDir, file)).join(', ')}`);
}
