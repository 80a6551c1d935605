// The payment-intake command line (Node only): the package's "bin" (cli.js) runs main().
// Exit codes: 0 ok, 1 verification failed / body not valid / nothing matched, 2 bad
// arguments (unknown flag, missing flag, unreadable file). The flags and help text are in
// args.cjs; each command is its own file here, loaded when it runs.
'use strict';

const { COMMANDS, PROG, UsageError, commandUsage, mainUsage, parse } = require('./args.cjs');

/** The exit code of `argv`, or undefined when a server keeps the process alive. */
function main(argv) {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && Object.hasOwn(COMMANDS, rest[0] ?? '')) process.stdout.write(commandUsage(rest[0]));
    else process.stdout.write(mainUsage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    process.stdout.write(`${require('../package.json').version}\n`);
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    process.stderr.write(`${PROG}: unknown command '${name}'\n\n${mainUsage()}`);
    return 2;
  }
  try {
    const args = parse(name, rest);
    if (args.values.help) {
      process.stdout.write(commandUsage(name));
      return 0;
    }
    return require(`./${name}.cjs`)(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${PROG} ${name}: ${e.message}\nRun '${PROG} ${name} --help' for its flags.\n`);
    return 2;
  }
}

module.exports = { main };
