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

const CLIENT_PLACEHOLDER = /^export interface ClientOperations \{.*\} \/\/ generated: ClientOperations.*$/m;
const ANSWERS = { status: 'StatusResponse', info: 'InfoResult', balance: 'BalanceResult', banks: 'BanksResult' };
const pascal = (name) => name.split('.').map((part) => part[0].toUpperCase() + part.slice(1)).join('');

/** The type of one row's method: what its `takes` and `model` say; a body's is `<Name>Body` where `declared` holds it. */
function methodTypeOf(row, declared) {
  const answer = ANSWERS[row.model];
  if (answer === undefined) fail(`operation ${row.name}: no answer type for model '${row.model}'`);
  if (row.takes === 'project') return `ProjectOp<${answer}>`;
  if (row.takes === 'ref') return `Op<PaymentRef, ${answer}>`;
  if (row.takes !== 'body') fail(`operation ${row.name}: no input type for takes '${row.takes}'`);
  const body = `${pascal(row.name)}Body`;
  return `Op<${declared.has(body) ? `${body} | string` : 'Body'}, ${answer}>`;
}

/**
 * The TypeScript of the client's operation methods (`ClientOperations`): the table's rows
 * nested at their names (`p2p.payin.create`), each typed by `methodTypeOf`.
 */
export function clientTypesOf(table, declared = new Set()) {
  const tree = {};
  for (const row of table) {
    const names = row.name.split('.');
    let node = tree;
    for (const name of names.slice(0, -1)) node = node[name] ??= {};
    node[names.at(-1)] = methodTypeOf(row, declared);
  }
  const write = (node, indent) =>
    Object.entries(node)
      .map(([name, value]) => (typeof value === 'string' ? `${indent}${name}: ${value};` : `${indent}${name}: {\n${write(value, `${indent}  `)}\n${indent}};`))
      .join('\n');
  return `export interface ClientOperations {\n${write(tree, '  ')}\n}`;
}

/** Writes `ClientOperations` into the client's declarations of both builds (each must hold the placeholder). */
export function writeClientTypes(table = builtOperationTable()) {
  for (const dir of ['web', 'node']) {
    const file = path.join(pkgDir, dir, 'client', 'index.d.ts');
    const text = fs.readFileSync(file, 'utf8');
    if (!CLIENT_PLACEHOLDER.test(text)) fail(`${path.relative(pkgDir, file)}: no '// generated: ClientOperations' placeholder to replace`);
    const declared = new Set([...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1]));
    fs.writeFileSync(file, text.replace(CLIENT_PLACEHOLDER, clientTypesOf(table, declared)));
  }
  step(`ClientOperations: ${table.length} methods of operationTable() written into {web,node}/client/index.d.ts`);
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
