// The handler as a Fastify plugin, scoped to its route: inside the plugin's own (encapsulated)
// context every content type is parsed as the raw bytes, so the app's JSON parser, on every
// other route, stays as it is. `fastify.register(handler.fastify, { url: '/callbacks' })`.

function fastifyPlugin(handle, limit) {
  return async function paymentIntakeCallbacks(instance, options) {
    const bodyLimit = limit();
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
    instance.post(options?.url ?? '/', { bodyLimit }, async (request, reply) => {
      const { status, body, headers } = await handle(request.body ?? new Uint8Array(0), request.headers);
      return reply.code(status).headers(headers).send(body);
    });
  };
}

export { fastifyPlugin };
