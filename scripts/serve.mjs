#!/usr/bin/env node
// Static development server for the debugger page: plain node:http, no framework.
//   /            -> redirect to /www/
//   /www/...     the page (www/index.html for /www/)
//   /pkg/...     the built package (run `npm run build` first)
//   /tests/vectors/...  the shared test vectors
// Anything else, dot-files and paths escaping those folders get 404.
// PORT (default 8080) and HOST (default 127.0.0.1) choose where it listens.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVED = ['www', 'pkg', 'tests/vectors'];
const port = Number.parseInt(process.env.PORT ?? '8080', 10);
const host = process.env.HOST || '127.0.0.1';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.ts': 'text/plain; charset=utf-8',
  '.mts': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.pem': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(body);
}

/** The file a URL path names, or null when it is outside what we serve. */
function resolve(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter(Boolean);
  // No dot-files, no "." or ".." segments at all: nothing to normalise away.
  if (segments.some((s) => s.startsWith('.'))) return null;
  const relative = segments.join('/');
  const base = SERVED.find((dir) => relative === dir || relative.startsWith(`${dir}/`));
  if (!base) return null;
  const file = path.resolve(root, relative);
  const allowed = path.resolve(root, base);
  if (file !== allowed && !file.startsWith(allowed + path.sep)) return null;
  return { file, allowed };
}

async function handle(req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return send(res, 405, 'method not allowed\n', { allow: 'GET, HEAD' });
  }
  let url;
  try {
    url = new URL(req.url ?? '/', 'http://localhost');
  } catch {
    return send(res, 400, 'bad request target\n'); // `GET http://[ HTTP/1.1`: no URL at all
  }
  if (url.pathname === '/' || url.pathname === '/index.html') {
    return send(res, 302, 'see /www/\n', { location: '/www/' });
  }
  const target = resolve(url.pathname);
  if (!target) return send(res, 404, 'not found\n');
  let file = target.file;
  let stat;
  try {
    // Symlinks must not lead out of the served folder either.
    const real = await fs.promises.realpath(file);
    const realAllowed = await fs.promises.realpath(target.allowed);
    if (real !== realAllowed && !real.startsWith(realAllowed + path.sep)) return send(res, 404, 'not found\n');
    stat = await fs.promises.stat(real);
    file = real;
    if (stat.isDirectory()) {
      if (!url.pathname.endsWith('/')) {
        return send(res, 301, 'moved\n', { location: `${url.pathname}/${url.search}` });
      }
      file = path.join(real, 'index.html');
      stat = await fs.promises.stat(file);
    }
  } catch {
    const hint = url.pathname.startsWith('/pkg/') ? ' (run `npm run build` first)' : '';
    return send(res, 404, `not found${hint}\n`);
  }
  if (!stat.isFile()) return send(res, 404, 'not found\n');
  const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, {
    'content-type': type,
    'content-length': stat.size,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') return res.end();
  fs.createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

const server = http.createServer((req, res) => {
  handle(req, res)
    .catch((error) => {
      console.error(error);
      if (!res.headersSent) send(res, 500, 'internal error\n');
      else res.destroy();
    })
    .finally(() => {
      if (!process.env.QUIET) console.log(`${req.method} ${req.url} -> ${res.statusCode}`);
    });
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

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
