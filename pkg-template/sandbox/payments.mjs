// The sandbox's payments, in memory, and the spec's states table run on them
// ("Moves that are shown"):
//   P2P or widget payin: processing:requisites -> (delay) processing:awaiting_confirm
//     -> confirm -> processing:paid -> (delay) success; cancel -> decline
//     CANCELED_BY_CLIENT; lifetime over -> decline CANCELLED_BY_TIMEOUT (the texts: data.mjs).
//   KE payin-mobile-money: processing:new -> (delay) success, or decline.
//   Payouts and ECOM requests (the spec shows neither their bodies nor their moves):
//     processing:new, moved only by the /sandbox/ endpoint.
// Every move records the state, sends its callback (informative for intermediate
// states, success or decline for the final ones) and never leaves a final state.
// Also here: the shapes of the StatusResponse, the info responses (RU and KZ
// variants) and the callback bodies.
import crypto from 'node:crypto';

import { DECLINE, DEFAULT_LIFETIME, DELAY, FINAL_STATUSES, REQUISITES, STATE } from './data.mjs';
import { make } from './errors.mjs';
import { ROUTES } from './routes.mjs';

const FINAL = new Set(FINAL_STATUSES);
const now = () => Math.floor(Date.now() / 1000);

/** A move that the payment's state does not allow (HTTP 409); `allowed`: the moves it does allow. */
export class MoveRefused extends Error {
  constructor(message, allowed) {
    super(message);
    this.allowed = allowed;
  }
}

const isFinal = (payment) => FINAL.has(payment.status);
/** A state row as the payment holds it: only its (status, sub_status). */
const pair = ({ status, subStatus }) => ({ status, subStatus });
const at = (payment, state) => payment.status === state.status && payment.subStatus === state.subStatus;

/**
 * The moves a person or test can force (the /sandbox/ endpoint and the form page), each
 * allowed from the states `from` lists (`null`: any state that is not final).
 */
export const SCENARIOS = Object.freeze({
  'requisites-found': { from: [STATE.requisites], about: 'requisites are found now' },
  'requisites-not-found': { from: [STATE.requisites], about: `decline '${DECLINE.REQUISITES_NOT_FOUND}'` },
  'anti-fraud': { from: null, about: `decline '${DECLINE.DECLINED_BY_ANTI_FRAUD}'` },
  'different-amount': { from: [STATE.awaitingConfirm, STATE.paid], about: 'dispute: the client sent another amount (`amount`, default half)' },
  expire: { from: null, about: `the lifetime ends now: decline '${DECLINE.CANCELLED_BY_TIMEOUT}'` },
  confirm: { from: [STATE.awaitingConfirm], about: 'the client says the money was sent: processing:paid' },
  cancel: { from: null, about: `decline '${DECLINE.CANCELED_BY_CLIENT}'` },
  succeed: { from: [STATE.new, STATE.paid, STATE.differentAmount], about: 'processing finished: success' },
});

/** Whether the scenario `name` may move `payment` now. */
export function allowed(payment, name) {
  const { from } = SCENARIOS[name];
  return from === null ? !isFinal(payment) : from.some((state) => at(payment, state));
}

/** The scenarios the payment's state allows now (none once it is final). */
export const allowedMoves = (payment) => Object.keys(SCENARIOS).filter((name) => allowed(payment, name));

/** `status:sub_status`, or the status alone. */
export const stateName = ({ status, subStatus }) => (subStatus ? `${status}:${subStatus}` : status);

/** A loseCallbacks function's answer: true or false (a Promise, e.g. of an async function, would count as true). */
function boolean(answer) {
  if (typeof answer === 'boolean') return answer;
  throw make('INVALID_OPTION', `it must answer true or false, not ${answer instanceof Promise ? 'a Promise (an async function)' : typeof answer}`);
}

/**
 * Which payments lose every callback (startSandbox({ loseCallbacks })): a share from 0 to 1,
 * each payment picked at random as it is created, or a function of the new payment (a copy,
 * as `payments()` shows it) that answers whether it does. The picker, or null for any other value.
 */
export function lossPicker(value) {
  if (typeof value === 'function') return (payment) => boolean(value(payment));
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) return null;
  return () => Math.random() < value;
}

/** Deliveries kept per payment (the oldest go first). */
const MAX_DELIVERIES = 200;

export class PaymentBook {
  #byKey = new Map();
  #byRequestId = new Map();
  #clock;
  #baseUrl;
  #notify;
  #loses;

  /**
   * `clock.after(seconds, fn)` schedules in the service's seconds; `baseUrl()` is the
   * sandbox's address; `notify(payment, move)` is called after each move; `loses(payment)`
   * (lossPicker) picks, as a payment is created, whether its callbacks are lost.
   */
  constructor({ clock, baseUrl, notify, loses = () => false }) {
    this.#clock = clock;
    this.#baseUrl = baseUrl;
    this.#notify = notify;
    this.#loses = loses;
  }

  static key(projectId, paymentId) {
    return JSON.stringify([projectId, paymentId]);
  }

  find(projectId, paymentId) {
    return this.#byKey.get(PaymentBook.key(projectId, paymentId)) ?? null;
  }

  byRequestId(requestId) {
    return this.#byRequestId.get(requestId) ?? null;
  }

  all() {
    return [...this.#byKey.values()];
  }

  /** A new payment from a valid create body; the caller has checked that the payment_id is new. */
  create(path, body) {
    const { kind, type } = ROUTES.create[path];
    const created = now();
    // validateRequest checks payment.lifetime's type only where the spec shows the body
    // (P2P, widget): a payout or ECOM body may carry "abc" or an object, which made
    // expiration_date a string and the form page throw. Such a lifetime is the default.
    const given = body.payment?.lifetime;
    const lifetime = Number.isSafeInteger(given) && given > 0 ? given : DEFAULT_LIFETIME;
    const mobileMoney = body.payment?.widget_method === 'payin-mobile-money';
    const requestId = `sbx_${crypto.randomBytes(12).toString('hex')}`;
    const payment = {
      kind,
      type,
      projectId: body.general.project_id,
      paymentId: body.general.payment_id,
      requestId,
      country: body.customer?.country ?? null,
      ...pair((kind === 'p2p' || kind === 'widget') && !mobileMoney ? STATE.requisites : STATE.new),
      statusDescription: null,
      amount: body.payment?.amount ?? null,
      oldAmount: body.payment?.amount ?? null,
      initialAmount: body.payment?.amount ?? null,
      currency: body.payment?.currency ?? null,
      lifetime,
      createdDate: created,
      updatedDate: created,
      expirationDate: created + lifetime,
      method: kind === 'widget' ? null : (body.payment?.method ?? null),
      widgetMethod: kind === 'widget' ? (body.payment?.widget_method ?? null) : null,
      urls: {
        informative: body.general.merchant_callback_url ?? null,
        success: body.general.merchant_success_callback_url ?? null,
        decline: body.general.merchant_decline_callback_url ?? null,
      },
      formUrl: `${this.#baseUrl()}/sandbox/pay/${requestId}`,
      redirectUrl: body.general.redirect_url ?? null,
      requisites: null,
      history: [],
      /** Every attempt to deliver one of its callbacks (callbacks.mjs), oldest first. */
      deliveries: [],
      /** The last callback queued (`{ seq, kind, url, body, state }`), for "deliver again". */
      lastCallback: null,
      callbacks: 0,
      /** Every callback of this payment is lost, never sent (startSandbox({ loseCallbacks })). */
      callbacksLost: false,
      timers: [],
    };
    payment.history.push(this.#snapshot(payment));
    try {
      payment.callbacksLost = this.#loses(publicPayment(payment));
    } catch (e) {
      throw make('INVALID_OPTION', `loseCallbacks threw: ${e?.message ?? e}`, { cause: e instanceof Error ? e : new Error(String(e)) });
    }
    this.#byKey.set(PaymentBook.key(payment.projectId, payment.paymentId), payment);
    this.#byRequestId.set(requestId, payment);
    if (at(payment, STATE.requisites)) {
      this.#after(payment, DELAY.requisites, () => this.force(payment, 'requisites-found'));
      this.#after(payment, lifetime, () => this.force(payment, 'expire'));
    } else if (mobileMoney) {
      this.#after(payment, DELAY.push, () => this.force(payment, 'succeed'));
      this.#after(payment, lifetime, () => this.force(payment, 'expire'));
    }
    return payment;
  }

  /** Applies a scenario (SCENARIOS) now; throws MoveRefused when the state does not allow it. */
  force(payment, name, { amount } = {}) {
    if (!allowed(payment, name)) {
      const moves = allowedMoves(payment);
      const now = moves.length ? `the moves it allows now: ${moves.join(', ')}` : 'the payment is final: no move is possible';
      throw new MoveRefused(`'${name}' is not possible in the state ${stateName(payment)}; ${now}`, moves);
    }
    switch (name) {
      case 'requisites-found':
        payment.requisites = { ...(REQUISITES[payment.country] ?? REQUISITES.RU), currency: payment.currency };
        return this.#move(payment, STATE.awaitingConfirm);
      case 'requisites-not-found':
        return this.#move(payment, STATE.decline, DECLINE.REQUISITES_NOT_FOUND);
      case 'anti-fraud':
        return this.#move(payment, STATE.decline, DECLINE.DECLINED_BY_ANTI_FRAUD);
      case 'different-amount': {
        const received = Number.isSafeInteger(amount) && amount > 0 ? amount : Math.max(1, Math.floor(payment.amount / 2));
        payment.oldAmount = payment.amount;
        payment.amount = received;
        const description = `The client sent ${received} instead of ${payment.oldAmount}: contact technical support to resolve the appeal`;
        return this.#move(payment, STATE.differentAmount, description);
      }
      case 'expire':
        return this.#move(payment, STATE.decline, DECLINE.CANCELLED_BY_TIMEOUT);
      case 'confirm':
        this.#move(payment, STATE.paid);
        // Settles only a payment still paid: a dispute forced meanwhile waits for support.
        this.#after(payment, DELAY.settle, () => at(payment, STATE.paid) && this.force(payment, 'succeed'));
        return payment;
      case 'cancel':
        return this.#move(payment, STATE.decline, DECLINE.CANCELED_BY_CLIENT);
      default:
        return this.#move(payment, STATE.success);
    }
  }

  /** Keeps a delivery of one of the payment's callbacks (at most MAX_DELIVERIES, the newest). */
  record(payment, delivery) {
    payment.deliveries.push(delivery);
    if (payment.deliveries.length > MAX_DELIVERIES) payment.deliveries.splice(0, payment.deliveries.length - MAX_DELIVERIES);
  }

  /** Stops every timer (close()). */
  stop() {
    for (const payment of this.#byKey.values()) this.#clearTimers(payment);
  }

  #after(payment, seconds, move) {
    const timer = this.#clock.after(seconds, () => {
      try {
        move();
      } catch (e) {
        // A timer that lost a race with a move (e.g. expiry after success) does nothing.
        if (!(e instanceof MoveRefused)) throw e;
      }
    });
    payment.timers.push(timer);
  }

  #clearTimers(payment) {
    for (const timer of payment.timers) this.#clock.cancel(timer);
    payment.timers = [];
  }

  #move(payment, state, description = null) {
    payment.status = state.status;
    payment.subStatus = state.subStatus;
    payment.statusDescription = description;
    payment.updatedDate = now();
    if (!at(payment, STATE.awaitingConfirm) && !at(payment, STATE.paid)) payment.requisites = null;
    if (isFinal(payment)) this.#clearTimers(payment);
    const entry = this.#snapshot(payment);
    payment.history.push(entry);
    this.#notify(payment, entry);
    return payment;
  }

  #snapshot(payment) {
    return { status: payment.status, subStatus: payment.subStatus, statusDescription: payment.statusDescription, at: Date.now() };
  }
}

/** What `payments()` returns: a copy without the timers and the last callback's body. */
export function publicPayment(payment) {
  const { timers, history, urls, requisites, deliveries, lastCallback, callbacks, ...rest } = payment;
  return {
    ...rest,
    urls: { ...urls },
    requisites: requisites && { ...requisites },
    history: history.map((h) => ({ ...h })),
    deliveries: deliveries.map((d) => ({ ...d })),
  };
}

// ---- response and callback shapes -----------------------------------------------------

/** The shared StatusResponse; `integration` only for create and info. */
export function statusResponse(payment, withIntegration) {
  const response = {
    status: payment.status,
    sub_status: payment.subStatus,
    status_description: payment.statusDescription,
    request_id: payment.requestId,
    project_id: payment.projectId,
    payment_id: payment.paymentId,
  };
  if (withIntegration) response.integration = { form_url: payment.formUrl, redirect_url: payment.redirectUrl };
  return response;
}

/** The KZ variant carries lifetime and expiration_date; the RU one leaves them out. */
const kzVariant = (payment) => payment.currency === 'KZT';
/** Requisites as a widget shows them: masked. */
function masked(requisites) {
  const { pan, card_holder: holder, ...rest } = requisites;
  return { pan_hidden: `${pan.slice(0, 4)}****${pan.slice(-4)}`, card_holder_hidden: holder.replace(/(\S)\S*/g, '$1***'), ...rest };
}

function paymentInfo(payment, { dates }) {
  const info = {
    amount: payment.amount,
    old_amount: payment.oldAmount,
    initial_amount: payment.initialAmount,
    currency: payment.currency,
  };
  if (dates) Object.assign(info, { lifetime: payment.lifetime, expiration_date: payment.expirationDate });
  Object.assign(info, { updated_date: payment.updatedDate, created_date: payment.createdDate, method: payment.method });
  if (payment.kind === 'widget') Object.assign(info, { widget_method: payment.widgetMethod, payment_system: null });
  info.type = payment.type;
  return info;
}

/** The payment instruction (display_data) while requisites are given. */
function displayData(payment, baseUrl) {
  if (!payment.requisites) return null;
  const targets = ROUTES.targets[payment.kind === 'widget' ? 'widget' : 'p2p'];
  const item = (title, data) => ({ type: 'add_info', title, data });
  return [
    item('recipient_pan', payment.requisites.pan),
    item('recipient_card_holder', payment.requisites.card_holder),
    item('bank_name', payment.requisites.bank_name),
    item('bank_country', payment.requisites.bank_country),
    item('amount', payment.amount),
    item('currency', payment.currency),
    item('lifetime', payment.lifetime),
    item('valid_until', payment.expirationDate),
    item('confirm_url', `${baseUrl}${targets.confirm}`),
    item('reject_url', `${baseUrl}${targets.cancel}`),
  ];
}

/** Requisites as this payment's responses and callbacks carry them (widgets masked; KE none). */
function shownRequisites(payment) {
  if (!payment.requisites) return null;
  return payment.kind === 'widget' ? masked(payment.requisites) : { ...payment.requisites };
}

/** The info operation's answer, in the RU or KZ variant (by currency). */
export function infoResponse(payment, baseUrl) {
  const response = statusResponse(payment, false);
  if (payment.kind !== 'p2p' && payment.kind !== 'widget') return { ...response, integration: { form_url: payment.formUrl, redirect_url: payment.redirectUrl } };
  response.payment_info = paymentInfo(payment, { dates: kzVariant(payment) });
  response.recipient_requisites = shownRequisites(payment);
  const display = displayData(payment, baseUrl);
  if (display) response.additional_info = { display_data: display };
  response.integration = { form_url: payment.formUrl, redirect_url: payment.redirectUrl };
  return response;
}

/** A callback body, as the spec's Events section shows it. */
export function callbackBody(payment, baseUrl) {
  const display = payment.kind === 'p2p' ? displayData(payment, baseUrl) : null;
  return {
    project_id: payment.projectId,
    general: { request_id: payment.requestId, payment_id: payment.paymentId },
    status: { status: payment.status, sub_status: payment.subStatus, status_description: payment.statusDescription },
    payment_info: paymentInfo(payment, { dates: true }),
    recipient_requisites: shownRequisites(payment),
    integration: { form_url: payment.formUrl, redirect_url: payment.redirectUrl },
    additional_info: display && { display_data: display },
  };
}

/** Which address a move's callback goes to: success, decline, or the informative one. */
export function callbackAddress(payment) {
  if (payment.status === STATE.success.status) return { kind: 'success', url: payment.urls.success };
  if (payment.status === STATE.decline.status) return { kind: 'decline', url: payment.urls.decline };
  return { kind: 'informative', url: payment.urls.informative };
}
