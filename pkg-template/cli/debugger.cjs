// `payment-intake debugger`: the integration debugger page of the installed package.
// The page (www/, copied into the package by scripts/build.mjs) imports the web build as
// `../pkg/web/index.js`, as in the repository: `/www/…` is <package>/www/… and `/pkg/web/…`
// is <package>/web/…, through the one static server (static-server.cjs). Nothing else is served.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { PROG, UsageError } = require('./args.cjs');
const { portFlag, stopOnSignals } = require('./io.cjs');
const { closeServer, createStaticServer } = require('./static-server.cjs');

const packageDir = path.join(__dirname, '..');

function debuggerPage({ values }) {
  const port = portFlag(values, '8080');
  const host = values.host ?? '127.0.0.1';
  const www = path.join(packageDir, 'www');
  if (!fs.existsSync(path.join(www, 'index.html'))) throw new UsageError(`the page is missing: ${www}`);
  const server = createStaticServer({ mounts: { '/www/': www, '/pkg/web/': path.join(packageDir, 'web') }, home: '/www/' });
  server.on('error', (e) => {
    process.stderr.write(`${PROG} debugger: cannot listen on ${host}:${port}: ${e.code ?? e.message}\n`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const shown = host.includes(':') ? `[${host}]` : host;
    process.stdout.write(`${PROG} debugger: http://${shown}:${server.address().port}/www/ (Ctrl-C stops it)\n`);
  });
  stopOnSignals(() => closeServer(server));
  return undefined; // the server keeps the process alive
}

module.exports = debuggerPage;
