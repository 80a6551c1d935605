#!/usr/bin/env node
// Development server for the debugger page, over the package's one static server
// (pkg-template/cli/static-server.cjs, the one `payment-intake debugger` uses):
//   /            -> redirect to /www/
//   /www/...     the page (www/index.html for /www/)
//   /pkg/...     the built package (run `npm run build` first)
//   /tests/vectors/...  the shared test vectors
// Anything else, dot-files and paths escaping those folders get 404.
// PORT (default 8080) and HOST (default 127.0.0.1) choose where it listens; QUIET=1 logs no requests.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createStaticServer, closeServer } = createRequire(import.meta.url)('../pkg-template/cli/static-server.cjs');
const port = Number.parseInt(process.env.PORT ?? '8080', 10);
const host = process.env.HOST || '127.0.0.1';

const server = createStaticServer({
  mounts: { '/www/': path.join(root, 'www'), '/pkg/': path.join(root, 'pkg'), '/tests/vectors/': path.join(root, 'tests', 'vectors') },
  home: '/www/',
  notFound: (pathname) => (pathname.startsWith('/pkg/') ? ' (run `npm run build` first)' : ''),
  onResponse: (req, res) => {
    if (!process.env.QUIET) console.log(`${req.method} ${req.url} -> ${res.statusCode}`);
  },
});

server.on('error', (error) => {
  console.error(`serve: ${error.message}`);
  process.exit(1);
});

server.listen(port, host, () => {
  const { port: actual } = server.address();
  const shown = host === '127.0.0.1' || host === '::1' ? 'localhost' : host;
  if (!fs.existsSync(path.join(root, 'pkg', 'web'))) {
    console.warn('warning: pkg/web/ is missing; run `npm run build` (or use `npm start`)');
  }
  console.log(`Serving ${root} on http://${shown}:${actual}/ (page: http://${shown}:${actual}/www/)`);
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => closeServer(server).then(() => process.exit(0)));
