#!/usr/bin/env node
// The payment-intake command (the package's "bin"; scripts/build.mjs copies it to pkg/cli.js).
// The command line itself is in cli/: args.cjs (flags, help, parsing), main.cjs, one file per command.
'use strict';

process.exitCode = require('./cli/main.cjs').main(process.argv.slice(2));
