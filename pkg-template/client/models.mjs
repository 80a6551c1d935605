// The answers of the service as typed models. StatusResponses and info responses are read
// by the package's own reader and checks (`parseInfoResponse`: the StatusResponse is the
// top of an info response, its required fields enforced the same way); the balance and the
// bank list, whose shapes are plain, are checked here field by field.

const P2P_INFO = '/api/v1/payment/p2p/payin/info';
const INFO_MODELS = new Set([P2P_INFO, '/api/v1/widget/payin/info']);

/** Thrown for an answer that lacks the operation's shape; the caller adds the answer's text. */
class ShapeError extends Error {
  constructor(path, reason) {
    super(`the answer's ${path} ${reason}`);
    this.path = path;
  }
}

/** The StatusResponse of an info model (or of a StatusResponse read as one). */
function statusModel(info) {
  const { status, subStatus, statusDescription, requestId, projectId, paymentId, isFinal, isKnownState, declineReason, integration } = info;
  return { status, subStatus, statusDescription, requestId, projectId, paymentId, isFinal, isKnownState, declineReason, integration, raw: info.raw };
}

/** An info model of `path`: payin infos by their own model, the others (bodies not shown) by the StatusResponse at their top. */
function infoModel(api, path, text) {
  const info = api.parseInfoResponse(INFO_MODELS.has(path) ? path : P2P_INFO, text);
  if (!INFO_MODELS.has(path)) info.warnings = [];
  return info;
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

/** The model of `operation`'s answer: `text` as sent, `json` its JSON.parse (for the checks here). */
function modelOf(api, operation, text, json) {
  switch (operation.model) {
    case 'status':
      return statusModel(api.parseInfoResponse(P2P_INFO, text));
    case 'info':
      return infoModel(api, operation.path, text);
    case 'balance':
      return balanceModel(json);
    case 'banks':
      return banksModel(json);
    default:
      return json;
  }
}

export { ShapeError, infoModel, modelOf, statusModel };
