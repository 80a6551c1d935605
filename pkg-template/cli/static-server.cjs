// The one static file server of the project: `payment-intake debugger` serves the page of
// the installed package with it, and scripts/serve.mjs (`npm start`) the repository's www/,
// pkg/ and tests/vectors/. Plain node:http, GET and HEAD only, loopback by default.
// Its path rules, written once here:
// - only the mounted folders: `/<prefix>/…` is `<folder>/…`; `/` redirects to the page;
// - no way out: no `.`/`..` or dot-file segment (after decoding), no NUL or backslash, and
//   a symlink must not lead out of its folder either (its real path is checked);
// - a request target that is no URL (`GET http://[ HTTP/1.1`) gets 400, not a crash;
// - `.wasm` is `application/wasm` (WebAssembly.instantiateStreaming needs it).
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

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

/**
 * Where a URL path points: `{ file, folder }` inside a mount (not yet checked on disk), a
 * `{ redirect }` for a mount named without its slash, or null when it names nothing served.
 * `mounts` maps URL prefixes ending in `/` to folders.
 */
function locate(mounts, pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (/[\0\\]/.test(decoded)) return null;
  const bare = Object.keys(mounts).find((prefix) => decoded === prefix.slice(0, -1));
  if (bare) return { redirect: bare };
  const prefix = Object.keys(mounts).find((p) => decoded.startsWith(p));
  if (!prefix) return null;
  const segments = decoded.slice(prefix.length).split('/').filter(Boolean);
  // No dot-files, no "." or ".." segments at all: nothing to normalise away.
  if (segments.some((s) => s.startsWith('.'))) return null;
  if (decoded.endsWith('/')) segments.push('index.html');
  return { file: path.join(mounts[prefix], ...segments), folder: mounts[prefix] };
}

/** The real path of `file` when it is a file inside the real `folder`; a directory is `{ directory }`; else null. */
function onDisk(file, folder) {
  try {
    const realFolder = fs.realpathSync(folder);
    const real = fs.realpathSync(file);
    if (!real.startsWith(realFolder + path.sep)) return null;
    const stat = fs.statSync(real);
    if (stat.isDirectory()) return { directory: true };
    return stat.isFile() ? { file: real, size: stat.size } : null;
  } catch {
    return null;
  }
}

/**
 * An http.Server (not listening) serving `mounts` ({ '/www/': folder, … }). `home` is where
 * `/` redirects (302). `notFound(pathname)` may add a line to a 404 (e.g. "run the build").
 * `onResponse(req, res)` is called once each request is answered (a log line).
 */
function createStaticServer({ mounts, home, notFound = () => '', onResponse = () => {} }) {
  const send = (res, status, body, headers = {}) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
    res.end(body);
  };

  // Synchronous on purpose: the answer is written before the server reads on, so a client
  // that half-closes right after its request (`socket.end(request)`) still gets it.
  function handle(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed\n', { allow: 'GET, HEAD' });
    let url;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      return send(res, 400, 'bad request target\n');
    }
    if (home && (url.pathname === '/' || url.pathname === '/index.html')) return send(res, 302, `see ${home}\n`, { location: home });
    const place = locate(mounts, url.pathname);
    if (place?.redirect) return send(res, 301, 'moved\n', { location: `${place.redirect}${url.search}` });
    const found = place && onDisk(place.file, place.folder);
    if (found?.directory) {
      if (url.pathname.endsWith('/')) return send(res, 404, 'not found\n');
      return send(res, 301, 'moved\n', { location: `${url.pathname}/${url.search}` });
    }
    if (!found) return send(res, 404, `not found${notFound(url.pathname)}\n`);
    res.writeHead(200, {
      'content-type': MIME[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': found.size,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : fs.readFileSync(found.file));
  }

  return http.createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      if (!res.headersSent) send(res, 500, 'internal error\n');
      else res.destroy();
    }
    onResponse(req, res);
  });
}

/** Closes `server` and its open connections; resolves when it is closed. */
function closeServer(server) {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}

module.exports = { createStaticServer, closeServer, MIME };
