// `payment-intake diagnose`: the rules a callback was signed with, or why none matches; with
// the flags that make `payment-intake verify` use those rules.
'use strict';

const { PROG } = require('./args.cjs');
const { api, cliHint, failure, printJson, readCallback, verifyingKeys } = require('./io.cjs');

/** The rule flags of `verify` for the package's options: `--profile NAME` when one is named, else every rule. */
function verifyFlags(options, profile) {
  if (profile) return ['--profile', profile];
  return Object.entries(options).flatMap(([name, value]) => {
    if (name === 'padding') return [value ? '--padding' : '--no-padding'];
    return [`--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, String(value)];
  });
}

function diagnose({ values }) {
  const keys = verifyingKeys(values);
  const { headers, body } = readCallback(values);
  let d;
  try {
    d = api().diagnoseCallback(body, headers, keys);
  } catch (e) {
    return failure(values, e);
  } finally {
    keys.forEach((k) => k.free());
  }
  const same = (a, b) => Object.keys(a).every((k) => a[k] === b[k]);
  const profile = d.options ? api().profiles().find((p) => same(p.options, d.options))?.name ?? null : null;
  const flags = d.options ? verifyFlags(d.options, profile) : null;
  const hint = cliHint(d.hint);
  if (values.json) {
    printJson({ ...d, hint, profile, verifyFlags: flags });
  } else if (d.matched) {
    const rules = Object.entries(d.options).map(([n, v]) => `  ${n}: ${v}`).join('\n');
    process.stdout.write(`matched: ${profile ? `the profile ${profile}` : 'no named profile'}, key ${d.keyIndex + 1} (${d.algorithm}${d.token ? `, ${d.token} token` : ''})\n${rules}\n`);
    if (d.matching.length > 1) process.stdout.write(`(${d.matching.length} combinations verify: the body has no leaf they treat differently)\n`);
    process.stdout.write(`hint: ${hint}\nverify with: ${PROG} verify ${flags.join(' ')} (and the same --key, --headers)\n`);
  } else {
    process.stdout.write(`no match; cause: ${d.cause}\nhint: ${hint}\n`);
  }
  return d.matched ? 0 : 1;
}

module.exports = diagnose;
