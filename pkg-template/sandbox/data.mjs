// The sandbox's fixed tables: the states it moves payments through, the decline
// reasons it writes, its timings, and the plausible data it answers the balance and
// bank-list operations and the requisites "selection" with.
//
// The states and decline texts are the spec's ("States and transitions", "Errors"), read
// from the package (specStates(), declineReasons(): src/spec/states.rs and
// src/spec/decline_reasons.rs), never typed here: the sandbox only names the rows it uses.
import * as api from 'payment-intake';

/** The spec's states table, in its order: `{ status, subStatus, final, order }`. */
export const STATES = Object.freeze(api.specStates().map((row) => Object.freeze(row)));

/** The row of STATES for (status, sub_status); a table without it is a broken package. */
function row(status, subStatus) {
  const found = STATES.find((s) => s.status === status && s.subStatus === subStatus);
  if (!found) throw new Error(`payment-intake/sandbox: the package's states table has no ${status}:${subStatus}`);
  return found;
}

/** (status, sub_status) rows the sandbox uses, named. */
export const STATE = Object.freeze({
  new: row('processing', 'new'),
  requisites: row('processing', 'requisites'),
  awaitingConfirm: row('processing', 'awaiting_confirm'),
  paid: row('processing', 'paid'),
  differentAmount: row('dispute', 'different_amount'),
  success: row('success', null),
  decline: row('decline', null),
});

/** The statuses that are final (the spec: decline and success). */
export const FINAL_STATUSES = Object.freeze([...new Set(STATES.filter((s) => s.final).map((s) => s.status))]);

/** `status_description` of a decline, by the code parseCallback gives it (declineReason.code). */
export const DECLINE = Object.freeze(Object.fromEntries(api.declineReasons().map(({ code, description }) => [code, description])));
for (const code of ['CANCELED_BY_CLIENT', 'DECLINED_BY_ANTI_FRAUD', 'REQUISITES_NOT_FOUND', 'CANCELLED_BY_TIMEOUT']) {
  if (typeof DECLINE[code] !== 'string') throw new Error(`payment-intake/sandbox: the package lists no decline reason ${code}`);
}

/**
 * Delays of the automatic moves, in the service's seconds (divided by the time scale).
 * The spec says "a short delay" for requisites and shows no figure for the others.
 */
export const DELAY = Object.freeze({
  /** processing:requisites -> processing:awaiting_confirm. */
  requisites: 5,
  /** processing:paid -> success. */
  settle: 10,
  /** KE payin-mobile-money: processing:new -> success (the push notification confirmed). */
  push: 10,
  /** First callback retry; each next one doubles, up to `retryMax`. */
  retry: 2,
  retryMax: 60,
  /** The longest random hold of a callback before its first attempt (startSandbox({ shuffleCallbacks })). */
  shuffle: 3,
});

/** Lifetime when the body gives none (the spec: 10 minutes everywhere). */
export const DEFAULT_LIFETIME = 600;

/** The balance operation's answer: one entry per currency. */
export const BALANCE = Object.freeze([
  { currency: 'RUB', amount: 12500000, locked_amount: 350000 },
  { currency: 'KZT', amount: 48000000, locked_amount: 0 },
]);

/** The bank list operation's answer. */
export const BANKS = Object.freeze([
  { id: '1', name: 'Sberbank', symbol: 'sberbank', sbp_code: '100000000111', is_sbp_bank: true, country_code: 'RU' },
  { id: '2', name: 'T-Bank', symbol: 't-bank', sbp_code: '100000000004', is_sbp_bank: true, country_code: 'RU' },
  { id: '3', name: 'Alfa-Bank', symbol: 'alfa-bank', sbp_code: '100000000008', is_sbp_bank: true, country_code: 'RU' },
  { id: '4', name: 'Halyk Bank', symbol: 'halyk', sbp_code: '000000000000', is_sbp_bank: false, country_code: 'KZ' },
]);

/** Requisites "selected" for a payin, by the customer's country (RU when not listed). */
export const REQUISITES = Object.freeze({
  RU: { pan: '2200700012345678', card_holder: 'IVAN IVANOV', bank_name: 'Sberbank', bank_country: 'RU' },
  KZ: { pan: '4400430012345678', card_holder: '---', bank_name: 'Halyk Bank', bank_country: 'KZ' },
  NG: { pan: '*737*50*1000#', card_holder: 'ADA OBI', bank_name: 'GTBank', bank_country: 'NG' },
  ZA: { pan: 'https://eft.example/pay/sandbox', card_holder: 'SANDBOX PTY', bank_name: 'FNB', bank_country: 'ZA' },
});
