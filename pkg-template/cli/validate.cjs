// `payment-intake validate OPERATION`: a request body against the spec's rules for it.
'use strict';

const { api, printJson, readBody } = require('./io.cjs');

/** The package's operation paths, from its operation table. */
function operationPaths() {
  return api().operationTable().map((row) => row.path);
}

/** Levenshtein distance of two short strings. */
function distance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** The operation path closest to `given`, or null when none is near (more than a third of it differs). */
function closestOperation(given, paths = operationPaths()) {
  let best = null;
  for (const p of paths) {
    const d = distance(given.toLowerCase(), p);
    if (best === null || d < best.d) best = { p, d };
  }
  return best && best.d <= Math.max(3, Math.floor(best.p.length / 3)) ? best.p : null;
}

function validate({ values, positionals }) {
  const operation = positionals[0];
  const options = values['allow-loopback-http'] ? { allowLoopbackHttp: true } : undefined;
  const report = api().validateRequest(operation, readBody(values), options);
  for (const issue of report.errors) {
    if (issue.code !== 'UNKNOWN_OPERATION') continue;
    const closest = closestOperation(operation);
    if (closest) {
      issue.message += `; did you mean ${closest}?`;
      issue.suggestion = closest;
    }
  }
  if (values.json) {
    printJson(report);
  } else {
    process.stdout.write(`${report.valid ? 'valid' : 'not valid'}: ${report.errors.length} error(s), ${report.warnings.length} warning(s)\n`);
    for (const [kind, list] of [['error', report.errors], ['warning', report.warnings]]) {
      for (const i of list) process.stdout.write(`  ${kind} ${i.path || '(body)'}: ${i.code}: ${i.message}\n`);
    }
  }
  return report.valid ? 0 : 1;
}

module.exports = validate;
module.exports.closestOperation = closestOperation;
