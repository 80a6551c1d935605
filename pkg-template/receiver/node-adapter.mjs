// The handler on node:http and Express: the raw body read from the request stream, no
// further than the limit (past it nothing more is read, the verifier refuses the body as
// BODY_TOO_LARGE and the answer closes the connection), and the answer written to the response.

/**
 * The request stream's bytes, at most `limit + 1` of them kept. Past the limit it resolves at
 * once (the verifier refuses the body as BODY_TOO_LARGE) and stops reading: a body that never
 * ends must not hold the request open; the answer then closes the connection.
 */
function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let length = 0;
    const done = () => {
      const body = new Uint8Array(length);
      let at = 0;
      for (const chunk of chunks) {
        body.set(chunk, at);
        at += chunk.byteLength;
      }
      resolve(body);
    };
    const onData = (chunk) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      chunks.push(bytes);
      length += bytes.byteLength;
      if (length > limit) {
        req.removeListener('data', onData);
        req.removeListener('end', done);
        req.pause();
        req.tooLargeForCallbacks = true;
        done();
      }
    };
    req.on('data', onData);
    req.on('end', done);
    req.on('error', reject);
  });
}

/** Whether something read the request stream already (a body parser): as `on-finished` tells it. */
function consumed(req) {
  return req.readableEnded === true || (req.complete === true && req.readable === false);
}

const isBytes = (value) => typeof value === 'string' || value instanceof Uint8Array || value instanceof ArrayBuffer || ArrayBuffer.isView(value);

function send(res, { status, body, headers }, req) {
  if (res.headersSent) return;
  // A body left unread past the limit: the connection is closed after the answer.
  res.writeHead(status, req?.tooLargeForCallbacks ? { ...headers, connection: 'close' } : headers);
  res.end(body);
}

/**
 * `handler.node` and `handler.express()` over `handle`; `limit()` is the most bytes read,
 * `refuse(message, hint)` the INVALID_ARGUMENT answer of a body read before the handler.
 */
function nodeAdapters(handle, { limit, refuse, unreadable }) {
  /**
   * The request's raw body: `req.body` when a raw parser left bytes there, else the stream when
   * nothing read it; a stream something already read (a parsed `req.body`) is refused, naming
   * the setting, rather than waited on for ever.
   */
  async function answerOf(req) {
    const given = req.body;
    let body;
    if (isBytes(given)) body = given;
    else if (!consumed(req)) {
      try {
        body = await readBody(req, limit());
      } catch (error) {
        return unreadable(error);
      }
    } else {
      return refuse(
        `'rawBody' was read before the callback handler (req.body is ${given === null ? 'null' : typeof given}): the signature covers the body's exact bytes`,
        "give this route the raw body: Express: app.post(path, express.raw({ type: 'application/json' }), handler.express()), or mount it before express.json(); node:http: pass the request to handler.node before anything reads it",
      );
    }
    return handle(body, req.headers);
  }

  async function node(req, res) {
    if (req.method !== 'POST') {
      send(res, { status: 405, body: JSON.stringify({ ok: false, code: 'METHOD_NOT_ALLOWED' }), headers: { allow: 'POST', 'content-type': 'application/json; charset=utf-8' } });
      return;
    }
    send(res, await answerOf(req), req);
  }

  /** Express 4 and 5: `req.body` as bytes when a raw parser ran, else the stream when unread. */
  function express() {
    return function paymentIntakeCallbacks(req, res, next) {
      answerOf(req).then((answer) => send(res, answer, req), next);
    };
  }

  return { node, express };
}

export { nodeAdapters, readBody };
