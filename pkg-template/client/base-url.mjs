// createClient's `baseUrl`: an http(s) URL, without a user or password. One with credentials
// (https://user:password@host) would put them in every URL the client makes, so in error
// messages, hook events and the CLI's output: refused, with a message that never shows the value.

/** `value` without its trailing slashes, or INVALID_ARGUMENT from `make`. */
function baseUrlOf(make, value) {
  const refuse = (reason, hint) => make('INVALID_ARGUMENT', `createClient: 'baseUrl' ${reason}`, { hint });
  const usage = "set baseUrl to the service's address, e.g. 'https://…' (each merchant gets its own)";
  if (typeof value !== 'string') throw refuse("must be the service's http(s) URL", usage);
  let url;
  try {
    url = new URL(value);
  } catch {
    throw refuse("must be the service's http(s) URL: it is no URL", usage);
  }
  if (url.username !== '' || url.password !== '') {
    throw refuse('must not hold a user or password (user:password@host): they would be shown wherever the URL is', 'pass credentials another way: the service authenticates by the signed headers; a proxy that asks for credentials gets them from a fetch of your own (createClient({ fetch })) that adds its header');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !/^https?:\/\/[^/]+/i.test(value)) throw refuse("must be the service's http(s) URL", usage);
  // Each operation's path is appended to baseUrl: after a query or a fragment it would not be a path.
  if (/[?#]/.test(value)) throw refuse('must not hold a query or a fragment (? or #): each operation\'s path is appended to it', usage);
  // The scheme in lower case, as the loopback rule (index.mjs) and the URLs made from it read it.
  return value.replace(/^https?:/i, (scheme) => scheme.toLowerCase()).replace(/\/+$/, '');
}

export { baseUrlOf };
