// What a review record (store.d.ts ReviewRecord) keeps of a genuine callback that is not
// acted on: the signature's headers, best-effort ids, and texts every store can hold.

/** The headers a kept callback keeps: what the signature was checked with. */
const KEPT_HEADER = /^(x-access-|content-type$)/;

/** The signature's headers of any HeadersInput (Headers, a Map, pairs, node's object), lower-cased. */
function keptHeaders(headers) {
  const kept = {};
  const add = (name, value) => {
    const lower = String(name).toLowerCase();
    if (KEPT_HEADER.test(lower) && value !== undefined) kept[lower] = storable(Array.isArray(value) ? value.join(', ') : String(value));
  };
  try {
    if (headers && typeof headers.forEach === 'function' && !Array.isArray(headers)) headers.forEach((value, name) => add(name, value));
    else if (Array.isArray(headers)) for (const [name, value] of headers) add(name, value);
    else if (headers && typeof headers === 'object') for (const [name, value] of Object.entries(headers)) add(name, value);
  } catch {
    // headers that cannot be read again: the record keeps none
  }
  return kept;
}

/** Best effort, for a person reading a kept body: its project and payment ids, or nulls. */
function reviewIds(text) {
  try {
    const json = JSON.parse(text);
    const projectId = typeof json?.project_id === 'string' ? json.project_id : null;
    const paymentId = typeof json?.general?.payment_id === 'string' ? json.general.payment_id : null;
    return { projectId, paymentId };
  } catch {
    return { projectId: null, paymentId: null };
  }
}

/**
 * A text as a store can hold it: PostgreSQL text holds no NUL, so each is written U+FFFD (a
 * review is for a person to read; its signature was checked before). Anything else as it is.
 */
function storable(text) {
  return typeof text === 'string' && text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

export { keptHeaders, reviewIds, storable };
