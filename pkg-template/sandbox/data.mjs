// The sandbox's fixed tables: the states it moves payments through, the decline
// reasons it writes, its timings, and the plausible data it answers the balance and
// bank-list operations and the requisites "selection" with.
//
// The states and decline texts are the spec's ("States and transitions", "Errors").
// The library keeps them in Rust (src/spec/states.rs, src/spec/decline_reasons.rs)
// and exposes them only through its models, so they are written here once, and
// tests/js/sandbox.test.mjs asserts that every one reads back through parseCallback
// as a known state and as the decline reason code named here.

/** (status, sub_status) pairs the sandbox uses, named. */
export const STATE = Object.freeze({
  new: Object.freeze({ status: 'processing', subStatus: 'new' }),
  requisites: Object.freeze({ status: 'processing', subStatus: 'requisites' }),
  awaitingConfirm: Object.freeze({ status: 'processing', subStatus: 'awaiting_confirm' }),
  paid: Object.freeze({ status: 'processing', subStatus: 'paid' }),
  differentAmount: Object.freeze({ status: 'dispute', subStatus: 'different_amount' }),
  success: Object.freeze({ status: 'success', subStatus: null }),
  decline: Object.freeze({ status: 'decline', subStatus: null }),
});

/** `status_description` of a decline, by the code parseCallback gives it (declineReason.code). */
export const DECLINE = Object.freeze({
  CANCELED_BY_CLIENT: 'Canceled by client',
  DECLINED_BY_ANTI_FRAUD: 'Declined by anti-fraud',
  REQUISITES_NOT_FOUND: 'Requisites not found',
  CANCELLED_BY_TIMEOUT: 'Order cancelled by timeout',
});

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
