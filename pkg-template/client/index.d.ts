// Types of the client (pkg-template/client/): `createClient` and what its operations take
// and return. Copied by scripts/build.mjs to pkg/web/client/ and pkg/node/client/, `#glue` the
// glue's declarations of each build.
import type { Body, CanonicalOptions, DeclineReason, InfoResponse, ValidateOptions, ValidationReport } from '#glue';
import type { ClientErrorDetails, PaymentIntakeError } from '../errors.js';
export type { ClientErrorDetails } from '../errors.js';
import type { HmacKey, SigningKey } from '../keys.js';

/** A payment's `status` (the spec's States table). */
export type PaymentStatus = 'error' | 'processing' | 'dispute' | 'decline' | 'success';
/** A payment's `sub_status` (the spec's States table); `null` where the table says none. */
export type PaymentSubStatus = 'new' | 'requisites' | 'awaiting_confirm' | 'paid' | 'no_payment' | 'different_amount' | 'confirm_timeout';

/** What every result carries about the exchange. */
export interface ClientResponseInfo {
  /** The HTTP status of the answer the result was read from. */
  statusCode: number | null;
  /** Requests sent for the call (with those of the info read that settled it). */
  attempts: number;
  /** From the call to its result, ms. */
  durationMs: number;
  /**
   * The result was read through the info operation: the payment was made (or moved) once, by
   * an earlier attempt or an earlier call with the same request.
   */
  replayed?: true;
  /** False when the store could not record the service's answer to a create (the create itself was recorded before it was sent). */
  recorded?: false;
}

/** The spec's StatusResponse: the answer of create, confirm and cancel. */
export interface StatusResponse {
  status: PaymentStatus;
  subStatus: PaymentSubStatus | null;
  statusDescription: string | null;
  requestId: string;
  projectId: string;
  paymentId: string;
  /** `decline` or `success`. */
  isFinal: boolean;
  /** The (status, sub_status) pair is a row of the spec's states table. */
  isKnownState: boolean;
  declineReason: DeclineReason | null;
  /** Only in create answers. */
  integration: { formUrl: string | null; redirectUrl: string | null } | null;
  /** The answer's JSON as received. */
  raw: Record<string, unknown>;
  response: ClientResponseInfo;
}
/** An info answer (as `parseInfoResponse` reads it), with `status` and `subStatus` as unions. */
export type InfoResult = Omit<InfoResponse, 'status' | 'subStatus'> & {
  status: PaymentStatus;
  subStatus: PaymentSubStatus | null;
  response: ClientResponseInfo;
};
/** A Balance entry. */
export interface BalanceEntry { currency: string; amount: number; lockedAmount: number; }
/** The balance answer (read by the package's JSON reader, then entry by entry). */
export interface BalanceResult { balance: BalanceEntry[]; raw: unknown; response: ClientResponseInfo; }
/** A Bank record; fields the answer leaves out are null. */
export interface BankRecord { id: string | null; name: string | null; symbol: string; sbpCode: string | null; isSbpBank: boolean | null; countryCode: string | null; }
export interface BanksResult { banks: BankRecord[]; raw: unknown; response: ClientResponseInfo; }

/** The payment an info, confirm or cancel is about: the spec's shared body, or its two ids (`projectId` defaults to the config's). */
export type PaymentRef = { projectId?: string; paymentId: string } | { general: { project_id: string; payment_id: string } } | string;
/** The project of a balance or bank list: the spec's body, or `projectId` (default: the config's). */
export type ProjectRef = { projectId?: string } | { general: { project_id: string } } | string;

interface General {
  project_id: string; payment_id: string;
  merchant_callback_url?: string; merchant_success_callback_url?: string; merchant_decline_callback_url?: string; redirect_url?: string;
}
interface Customer {
  id: string; ip_address: string; country: string;
  first_name?: string; last_name?: string; customer_type?: 'ftd' | 'trust'; language?: string; email?: string;
  browser?: string; device_type?: string; user_agent?: string;
}
/** The body of a P2P payin create (the spec's "Create P2P payin"). */
export interface P2pPayinCreateBody {
  general: General;
  payment: { method: string; amount: number; currency: string; lifetime?: number; bank_symbol?: string; description?: string; extra_param?: string };
  sender?: { pan?: string; phone?: string; bank_symbol?: string; card_holder?: string };
  customer: Customer;
}
/** The body of a widget payin create (the spec's "Create widget payin"). */
export interface WidgetPayinCreateBody {
  general: General;
  payment: { amount: number; currency: string; lifetime?: number; description?: string; extra_param?: string; widget_method?: string };
  sender?: { bank_symbol?: string };
  customer: Omit<Customer, 'first_name' | 'last_name' | 'browser' | 'device_type' | 'user_agent'>;
}

/** Per call, the last argument of every operation. */
export interface CallOptions {
  /** Aborts the call: it rejects with ABORTED, the signal's reason (an Error) as its `cause`. */
  signal?: AbortSignal;
  /** The whole call's deadline, across attempts, the body included (default: the config's): a whole number of ms from 1 to 2^31 - 1 (setTimeout's range; more, or Infinity, is INVALID_ARGUMENT). */
  timeoutMs?: number;
  /** One attempt's own timeout (default: the config's, else the attempt's share of the deadline); 1 to 2^31 - 1 ms. */
  attemptTimeoutMs?: number;
  /** Retries after the first attempt (default: the config's); 0 to 100. */
  retries?: number;
}
export interface WaitForOptions {
  /** 'requisites' (requisites or, for a widget, the form URL; or the payment final), 'final', or a condition of the info model. Default 'requisites'. */
  until?: 'requisites' | 'final' | ((info: InfoResult) => boolean);
  /** From the start of one poll to the start of the next (the first poll is at once); default 15000 (the spec's interval); 0 to 2^31 - 1 ms. */
  intervalMs?: number;
  /** TIMEOUT when the condition has not held by then, ms from 0; default Infinity (none). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface RequestEvent { operation: string; url: string; attempt: number; headers: Record<string, string>; body: string; }
export interface ResponseEvent {
  operation: string;
  /** Where the attempt was sent: baseUrl and the operation's path (never a user, password or query: createClient refuses them). */
  url: string;
  statusCode: number | null;
  attempt: number;
  durationMs: number;
  body: string | null;
  error: 'network' | 'timeout' | 'aborted' | 'oversize' | 'redirect' | null;
}
/** A call as `onCall` sees it: the operation and the payment, never a body, a header or a key. */
export interface CallEvent {
  /** The method's name: 'p2p.payin.create', 'balance'…; 'request' for `client.request`. */
  operation: string;
  /** The path it is sent to. */
  path: string;
  /** `general.project_id` of the body sent, when it names one. */
  projectId: string | null;
  /** `general.payment_id` of the body sent, when it names one. */
  paymentId: string | null;
}
/** How a call ended: what `run()` of `onCall` resolves to (it never rejects). */
export interface CallEnd {
  /** null when the call returned a result; else the code of the error it threw (an ErrorCode: TIMEOUT, REQUEST_REJECTED…). */
  error: string | null;
  /** The HTTP status of the call's last answer, or null (none came). */
  statusCode: number | null;
  /** Requests sent, an info read that settled the call included; 0 when it was refused before sending. */
  attempts: number;
  /** From the call's start to its end, ms (by the config's `clock`). */
  durationMs: number;
  /** The result was read through the info operation (`response.replayed`). */
  replayed: boolean;
}

export interface ClientConfig {
  /** The service's base URL (each merchant gets its own); an http:// loopback URL is a local sandbox. A URL with a user or password (`https://user:password@host`) is INVALID_ARGUMENT: pass credentials another way; so is one with a query or a fragment. */
  baseUrl: string;
  merchantId: string;
  /** Signs every request; an HmacKey sends `x-access-merchant-algorithm` too. */
  key: SigningKey | HmacKey;
  /** The default `projectId` of info, confirm, cancel, balance and banks. */
  projectId?: string;
  /** The canonical rules (profile) requests are signed with. */
  options?: CanonicalOptions;
  /**
   * Each call's deadline, ms, across attempts; default 30000. Every duration of the client is a
   * whole number of ms up to 2^31 - 1 (about 24.8 days), the longest delay setTimeout keeps:
   * a longer one, or Infinity, is refused (INVALID_ARGUMENT), never clamped.
   */
  timeoutMs?: number;
  /**
   * One attempt's own timeout, 1 to 2^31 - 1 ms. Default: the attempt's share of what remains
   * of the deadline (divided among the attempts left; the last gets all that remains), so a
   * timed-out attempt leaves time for its retry.
   */
  attemptTimeoutMs?: number;
  /** Retries after the first attempt (network errors, timeouts, 5xx, 429); default 2, at most 100. */
  retries?: number;
  /** First backoff, doubled each retry, with jitter; default 500; 0 to 2^31 - 1. */
  retryDelayMs?: number;
  /** Longest backoff; default 5000 (a Retry-After asks for more); 0 to 2^31 - 1. */
  maxRetryDelayMs?: number;
  /**
   * Default `globalThis.fetch`. An answer's `body` stream, when it has one, is read no further
   * than 64 KiB (the package's JSON reader's limit; a gzip answer counted inflated) and then
   * cancelled: INVALID_RESPONSE "the answer is over 64 KiB". Without a `body`, `text()` is read.
   */
  fetch?: (url: string, init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;
  /** ms since the epoch; default Date.now. Signs the timestamps and keeps the deadlines. */
  clock?: () => number;
  /** Waits between attempts and polls; default setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** `false`: send without validating; an object: validateRequest's options (an http:// loopback baseUrl allows loopback http URLs). */
  validate?: boolean | ValidateOptions;
  /**
   * Fields whose values hooks see as '***' (default pan, card_holder, phone, email, ip_address;
   * the signature header always). Unless `false`, card numbers are masked too under any name,
   * in a body that is not JSON too (12 to 19 digits, spaces or dashes between, passing Luhn).
   * A CVV/CVC member (`cvv`, `cvc`, `cvv2`, `cvc2`, `security_code`, any case, any nesting)
   * is masked always, even with `false` or a list. Error messages hold no card number either.
   */
  mask?: false | string[];
  /**
   * Around each call (every attempt, retry and info read it makes): called as the call starts;
   * the call runs when you call `run()` (or as soon as onCall returns, if you have not), so a
   * span you make active around `run()` is the parent of everything the call does.
   * `run()` resolves to how the call ended and never rejects; the caller gets the call's own
   * result whatever onCall does, and the call never waits for it. `payment-intake/otel` makes one.
   */
  onCall?: (call: CallEvent, run: () => Promise<CallEnd>) => unknown;
  /** Before each attempt (masked: see `mask`); a throw or a rejection changes nothing. */
  onRequest?: (event: RequestEvent) => void;
  /** After each attempt (masked: see `mask`); a throw or a rejection changes nothing. */
  onResponse?: (event: ResponseEvent) => void;
  /** The User-Agent header; default `payment-intake/<the package's version>`. */
  userAgent?: string;
  /**
   * Records every create before it is sent, and the service's answer after (memoryStore(),
   * postgresStore(pool), redisStore(client): the callback handler's store). A create of a
   * payment_id recorded before with other members is PAYMENT_EXISTS without sending; the
   * handler's `reconcile` asks about the recorded payments whose callbacks never came.
   * A create is not sent when the store cannot record it (STORE_FAILED).
   */
  store?: CreateStore;
}

/** What createClient's `store` needs (every store of the package has it). */
export interface CreateStore {
  recordCreate(record: object): Promise<{ isNew: boolean; existing: unknown }>;
  recordAnswer(projectId: string, paymentId: string, answer: object): Promise<void>;
}

type Op<In, Out> = (input: In, options?: CallOptions) => Promise<Out>;
type ProjectOp<Out> = (ref?: ProjectRef, options?: CallOptions) => Promise<Out>;
/**
 * The client's operation methods: one per row of `operationTable()`, at its `name`. The build
 * writes this from the table (scripts/build/operation-types.mjs): a row's `takes` gives the
 * input (a body: the `<Name>Body` declared here, e.g. `P2pPayinCreateBody`, or any `Body`; a
 * `PaymentRef`; a `ProjectRef`), its `model` the answer.
 */
export interface ClientOperations { [group: string]: unknown } // generated: ClientOperations (this line)
/** What a payin group waits for (`waitFor`), besides its operations. */
interface Waits {
  waitFor(ref: PaymentRef, options?: WaitForOptions): Promise<InfoResult>;
}
export interface Client extends ClientOperations {
  p2p: ClientOperations['p2p'] & { payin: Waits };
  widget: ClientOperations['widget'] & { payin: Waits };
  /** The operation of the spec's index at `path`, as its method (its row of `operationTable()` names the method: `p2p.payin.create`); another path is INVALID_ARGUMENT. */
  call(path: string, input: Body, options?: CallOptions): Promise<StatusResponse | InfoResult | BalanceResult | BanksResult>;
  /** Any path (e.g. the bank paths the spec names without showing): signed, sent, retried; the answer's JSON, not validated. */
  request(path: string, body: Body, options?: CallOptions): Promise<unknown>;
  /** The info operation of the create at `createPath` (how `handler.reconcile` asks about a recorded payment); another path is INVALID_ARGUMENT. */
  infoOf(createPath: string, ref: PaymentRef, options?: CallOptions): Promise<InfoResult>;
}
/** The client as `handler.reconcile` takes it. */
export type PaymentClient = Client;

export type ClientError = PaymentIntakeError & ClientErrorDetails;
