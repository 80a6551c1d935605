// Loopback helpers of the cluster tests (tests/e2e/reconcile-cluster.test.mjs, receiver-cluster.test.mjs): a seeded PRNG, an HTTP proxy that
// can drop answers and hold requests back, and a lock that runs async work one at a time.
import http from 'node:http';

/** A seeded PRNG (mulberry32), so a run's choices can be replayed with its seed. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct indexes of 0..n-1, picked with `rand`. */
export function pick(n, count, rand) {
  const all = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return new Set(all.slice(0, count));
}

/**
 * An HTTP proxy on 127.0.0.1 to the port `upstream()` names for each request (null: 502): a
 * `dropShare` of the answers is never relayed (the client's socket is destroyed once the
 * upstream answered). `hold()` stops forwarding new requests and resolves, once none is in
 * flight, with a function that lets them go again.
 */
export async function startProxy({ upstream, dropShare = 0, rand = Math.random }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const stats = { requests: 0, dropped: 0, refused: 0, held: 0, answers: {} };
  let inFlight = 0;
  let gate = null;
  let drained = null;
  const settled = () => {
    inFlight -= 1;
    if (inFlight === 0) drained?.();
  };
  const forward = (req, res, body) => {
    const port = upstream();
    const refuse = () => {
      stats.refused += 1;
      if (!res.headersSent) res.writeHead(502).end('upstream down');
    };
    if (!port) return refuse();
    inFlight += 1;
    const request = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      const chunks = [];
      answer.on('data', (c) => chunks.push(c));
      answer.on('error', () => {
        settled();
        req.socket.destroy();
      });
      answer.on('end', () => {
        settled();
        stats.answers[answer.statusCode] = (stats.answers[answer.statusCode] ?? 0) + 1;
        if (rand() < dropShare) {
          stats.dropped += 1;
          req.socket.destroy();
          return;
        }
        res.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'] ?? 'text/plain' }).end(Buffer.concat(chunks));
      });
    });
    request.on('error', () => {
      settled();
      refuse();
    });
    request.end(body);
    return undefined;
  };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      stats.requests += 1;
      if (gate) stats.held += 1;
      while (gate) await gate;
      forward(req, res, Buffer.concat(chunks));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stats,
    async hold() {
      let open;
      const closed = new Promise((resolve) => (open = resolve));
      while (gate) await gate;
      gate = closed;
      if (inFlight > 0) await new Promise((resolve) => (drained = resolve));
      drained = null;
      return () => {
        gate = null;
        open();
      };
    },
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `exclusive(fn)`: runs `fn` after every earlier one settled; resolves as it does. */
export function lock() {
  let chain = Promise.resolve();
  return (fn) => {
    const run = chain.then(fn);
    chain = run.catch(() => {});
    return run;
  };
}
