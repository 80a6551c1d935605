// The answers of the service as typed models, every one read by the package's own reader:
// StatusResponses and info responses by `parseInfoResponse` (the StatusResponse is the top of
// an info response, its required fields enforced the same way); every other answer (the
// balance, the bank list, an error's body, `client.request`'s) is checked by the same reader
// (`canonicalEntries`: duplicate keys, nesting past 64 levels, over 64 KiB, numbers with no
// exact form are refused) before `JSON.parse` gives its values, then read field by field here.

/**
 * The info paths `parseInfoResponse` has a model of (the payin infos), and the one whose model
 * reads a StatusResponse (the first): asked of the core once, from its operation table.
 */
const infoModelsCache = new WeakMap();
function infoModels(api) {
  let known = infoModelsCache.get(api);
  if (known === undefined) {
    const paths = api.operationTable().filter((row) => row.model === 'info').map((row) => row.path);
    known = new Set(paths.filter((path) => readsInfo(api, path)));
    infoModelsCache.set(api, known);
  }
  return known;
}

/** Whether `parseInfoResponse` has a model of `path` (another path is INVALID_ARGUMENT). */
function readsInfo(api, path) {
  try {
    api.parseInfoResponse(path, '{}');
    return true;
  } catch (error) {
    return error?.code !== 'INVALID_ARGUMENT';
  }
}

/** Thrown for an answer that lacks the operation's shape; the caller adds the answer's text. */
class ShapeError extends Error {
  constructor(path, reason) {
    super(`the answer's ${path} ${reason}`);
    this.path = path;
    this.reason = reason;
  }
}

/** The StatusResponse of an info model (or of a StatusResponse read as one). */
function statusModel(info) {
  const { status, subStatus, statusDescription, requestId, projectId, paymentId, isFinal, isKnownState, declineReason, integration } = info;
  return { status, subStatus, statusDescription, requestId, projectId, paymentId, isFinal, isKnownState, declineReason, integration, raw: info.raw };
}

/** An info model of `path`: payin infos by their own model, the others (bodies not shown) by the StatusResponse at their top. */
function infoModel(api, path, text) {
  const models = infoModels(api);
  const own = models.has(path);
  const info = api.parseInfoResponse(own ? path : models.values().next().value, text);
  if (!own) info.warnings = [];
  return info;
}

/** The package reader's limit on a body's size (src/spec/limits.rs): a longer answer is refused. */
const READER_LIMIT = 'the package reads at most 64 KiB and 64 levels of nesting';

/**
 * The JSON of an answer's text, read strictly: the package's reader checks it (an answer
 * that is not an object is checked as the member of one), then `JSON.parse` gives its values.
 * Throws a ShapeError (with the reader's code as `.readerCode`) when the reader refuses it.
 */
function readJson(api, text) {
  const refused = (code, cause) => {
    const reason = code === 'INVALID_JSON' ? 'is not JSON' : `is refused by the package's JSON reader (${code}: ${cause.message}; ${READER_LIMIT})`;
    return Object.assign(new ShapeError('body', reason), { readerCode: code, cause });
  };
  try {
    api.canonicalEntries(text.trimStart().startsWith('{') ? text : `{"answer":${text}}`);
  } catch (cause) {
    if (cause?.code === undefined) throw cause;
    throw refused(cause.code, cause);
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    // Text the reader took only as a member of the object around it (`1,"b":2`).
    throw refused('INVALID_JSON', cause);
  }
}

const integer = (value) => Number.isSafeInteger(value);
const stringOrNull = (value) => value === null || value === undefined || typeof value === 'string';

function balanceModel(json) {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new ShapeError('body', 'is not an object');
  if (!Array.isArray(json.balance)) throw new ShapeError('balance', 'is not an array');
  const balance = json.balance.map((entry, i) => {
    const where = `balance[${i}]`;
    if (entry === null || typeof entry !== 'object') throw new ShapeError(where, 'is not an object');
    if (typeof entry.currency !== 'string') throw new ShapeError(`${where}.currency`, 'is not a string');
    if (!integer(entry.amount)) throw new ShapeError(`${where}.amount`, 'is not an integer');
    if (!integer(entry.locked_amount)) throw new ShapeError(`${where}.locked_amount`, 'is not an integer');
    return { currency: entry.currency, amount: entry.amount, lockedAmount: entry.locked_amount };
  });
  return { balance, raw: json };
}

function banksModel(json) {
  if (!Array.isArray(json)) throw new ShapeError('body', 'is not an array (the spec: a JSON array of Bank records)');
  const banks = json.map((bank, i) => {
    const where = `[${i}]`;
    if (bank === null || typeof bank !== 'object' || Array.isArray(bank)) throw new ShapeError(where, 'is not an object');
    if (typeof bank.symbol !== 'string') throw new ShapeError(`${where}.symbol`, 'is not a string');
    for (const name of ['id', 'name', 'sbp_code', 'country_code']) {
      if (!stringOrNull(bank[name])) throw new ShapeError(`${where}.${name}`, 'is not a string');
    }
    if (bank.is_sbp_bank !== undefined && bank.is_sbp_bank !== null && typeof bank.is_sbp_bank !== 'boolean') {
      throw new ShapeError(`${where}.is_sbp_bank`, 'is not a boolean');
    }
    return {
      id: bank.id ?? null, name: bank.name ?? null, symbol: bank.symbol, sbpCode: bank.sbp_code ?? null,
      isSbpBank: bank.is_sbp_bank ?? null, countryCode: bank.country_code ?? null,
    };
  });
  return { banks, raw: json };
}

/** The model of `operation`'s answer from its text (as sent), read by the package's reader. */
function modelOf(api, operation, text) {
  switch (operation.model) {
    case 'status':
      return statusModel(api.parseInfoResponse(infoModels(api).values().next().value, text));
    case 'info':
      return infoModel(api, operation.path, text);
    case 'balance':
      return balanceModel(readJson(api, text));
    case 'banks':
      return banksModel(readJson(api, text));
    default:
      return readJson(api, text);
  }
}

export { ShapeError, infoModel, modelOf, readJson, statusModel };
