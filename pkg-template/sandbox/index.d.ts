// Types of `payment-intake/sandbox` (pkg-template/sandbox/index.mjs): a local stand-in
// for the Payment Intake Service. State lives in memory; nothing here is for production.
import type { SigningKey, VerifyingKey } from 'payment-intake';

export interface SandboxOptions {
  /**
   * The merchant's public key (PEM or VerifyingKey), e.g. `fs.readFileSync('merchant-public.pem', 'utf8')`:
   * requests must be signed with its private key.
   */
  merchantKey: string | VerifyingKey;
  /** `x-access-merchant-id` requests must carry; the callbacks carry it too. Default 'sandbox-merchant'. */
  merchantId?: string;
  /** The service's private key that signs callbacks (PEM or SigningKey); generated when absent. */
  serviceKey?: string | SigningKey;
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on; default '127.0.0.1'. */
  host?: string;
  /** How much faster than the service's clock the sandbox runs: 60 makes a 300 s lifetime last 5 s. Default 1. */
  timeScale?: number;
  /** The named profile (signing rules) requests are checked and callbacks signed with; default 'spec'. */
  profile?: string;
  /** Send every delivered callback a second time, so receivers can test duplicate handling. */
  duplicateCallbacks?: boolean;
  /**
   * Let a payment's callbacks arrive out of order: each is held a random 0 to 3 s of the
   * service's time (scaled by `timeScale`) before its first attempt, instead of waiting for
   * the one before it. Default false.
   */
  shuffleCallbacks?: boolean;
  /**
   * Deliver concurrently: nothing waits for another callback, the `duplicateCallbacks` copy
   * goes out at once beside the original, and at most N attempts are in flight across the
   * sandbox. Default 0: a payment's callbacks one after the other (no limit across payments).
   */
  concurrentCallbacks?: number;
  /** Attempts per callback until a receiver answers HTTP 200; default 6. */
  callbackAttempts?: number;
  /** A browser origin allowed besides loopback ones (CORS), e.g. 'https://debugger.example'. */
  allowedOrigin?: string;
  /**
   * How far a request's x-access-timestamp may be from the sandbox's clock, in seconds
   * (default 300, as the service): a request further off is refused with 401,
   * TIMESTAMP_OUT_OF_TOLERANCE. `Infinity` or `false`: served, with a TIMESTAMP_SKEW warning
   * (`sandbox_warnings`, the `x-sandbox-warning` header) past 300 seconds.
   */
  timestampToleranceSeconds?: number | false;
  /** Failures injected into the spec's operations from the start (also `POST /sandbox/faults`). */
  faults?: SandboxFault[];
  /**
   * Payments that never get a callback, so a merchant can try reconciliation: every callback of
   * such a payment is recorded as lost (`lost: true` in its deliveries, "lost" on the pages, a
   * 'callback' event with `lost: true`) and never sent, "deliver again" included; its states
   * still move, and the info operations answer its true state (`callbacksLost` in
   * `payments()` tells which). A number from 0 to 1: the share of payments, each picked at
   * random as it is created (0.3: about 3 in 10; 1: all). A function: called once as each
   * payment is created, with a copy of it (`paymentId`, `projectId`, `amount`...), answers
   * true or false: whether its callbacks are lost (a deterministic choice for tests). It must
   * answer at once: a throw, or an answer that is not a boolean (a Promise of an async
   * function), fails that create with HTTP 500 and makes no payment. Default 0. Anything
   * else is INVALID_OPTION.
   */
  loseCallbacks?: number | ((payment: SandboxPayment) => boolean);
}

/**
 * A failure injected into the spec's operations (never the /sandbox/ controls), for the next
 * `count` requests or a `share` (0..1) of them; every request when neither is given. The
 * first fault of the list that takes a request decides what happens to it.
 */
export type SandboxFault = ({ count?: number; share?: never } | { share?: number; count?: never }) & (
  /** The connection closes before the request is handled: nothing is done. */
  | { type: 'drop-before' }
  /** The request is handled (a payin is made), then the connection closes unanswered. */
  | { type: 'drop-after' }
  /** The answer waits `ms` milliseconds (0 to 60000), then comes as usual. */
  | { type: 'delay'; ms: number }
  /** HTTP 500, 502 or 503 (default 503); the request is not handled. */
  | { type: 'status'; status?: 500 | 502 | 503 }
  /** HTTP 429 with `Retry-After` seconds (default 1); not handled. */
  | { type: 'rate-limit'; retryAfter?: number }
  /** Handled, then the answer's body stops halfway (its content-length promised more). */
  | { type: 'truncate' }
  /** An HTML page with HTTP `status` (default 502), as a proxy would answer; not handled. */
  | { type: 'html'; status?: number }
);

/** A state the payment passed through. */
export interface SandboxMove { status: string; subStatus: string | null; statusDescription: string | null; at: number; }

/** A payment as the sandbox holds it (a copy). */
export interface SandboxPayment {
  kind: 'p2p' | 'widget' | 'payout' | 'ecom' | 'ecom-payout';
  type: 'payin' | 'payout';
  projectId: string; paymentId: string; requestId: string; country: string | null;
  status: string; subStatus: string | null; statusDescription: string | null;
  amount: number | null; oldAmount: number | null; initialAmount: number | null; currency: string | null;
  lifetime: number; createdDate: number; updatedDate: number; expirationDate: number;
  method: string | null; widgetMethod: string | null;
  urls: { informative: string | null; success: string | null; decline: string | null };
  formUrl: string; redirectUrl: string | null;
  requisites: Record<string, string> | null;
  history: SandboxMove[];
  /** Whether every callback of this payment is lost, never sent (`loseCallbacks`), picked as it was created. */
  callbacksLost: boolean;
  /** Every attempt to deliver one of its callbacks, oldest first (the newest 200 kept). */
  deliveries: SandboxDelivery[];
}

/** One attempt to deliver one of a payment's callbacks. */
export interface SandboxDelivery {
  /** When the attempt was made (ms since the epoch). */
  at: number;
  /** Which of the payment's callbacks, from 1 (one per move that had a callback URL). */
  callback: number;
  /** The state the callback reports, e.g. 'processing:awaiting_confirm'. */
  state: string;
  kind: 'informative' | 'success' | 'decline';
  url: string;
  /** 1 for the first attempt; a "deliver again" takes the next number. */
  attempt: number;
  /** The extra copy `duplicateCallbacks` sends. */
  duplicate: boolean;
  /** Sent by the "deliver again" control (one attempt, no retries). */
  manual: boolean;
  /** The receiver's HTTP status, or null when it did not answer (`error`) or the callback was lost. */
  status: number | null;
  /**
   * The `code` of the receiver's answer when it is JSON `{ ok, code }` (as the package's
   * receiver answers: 'DUPLICATE', 'STALE', 'BUSY'...), read from at most the first 4096 bytes
   * of its body; null otherwise. Only a word of 1 to 64 characters A-Z and _ is kept.
   */
  code: string | null;
  error: string | null;
  /** The callback was not sent: its payment's callbacks are lost (`loseCallbacks`). */
  lost: boolean;
  /** The last attempt of the schedule failed: no retry follows. */
  gaveUp: boolean;
  /** When the next retry is due (ms since the epoch), or null when none is. */
  nextRetryAt: number | null;
}

/** One attempt to deliver a callback (the 'callback' event): the delivery, its payment's request_id and the body sent. */
export interface SandboxCallbackEvent extends SandboxDelivery {
  type: 'callback'; requestId: string; body: string;
}

/** A move of a payment (the 'move' event): the payment after it, and the state it entered. */
export interface SandboxMoveEvent { type: 'move'; payment: SandboxPayment; move: SandboxMove; }
/** A request a fault took (the 'fault' event): the operation's path, and the fault with the count it has left. */
export interface SandboxFaultEvent { type: 'fault'; path: string; fault: SandboxFault & { remaining: number | null }; }
/** Something that went wrong inside the sandbox (the 'failure' event). */
export interface SandboxFailureEvent { type: 'failure'; error: unknown; }
/** A client closed the connection before its request's body ended (the 'client-gone' event): not answered, no failure of the sandbox. */
export interface SandboxClientGoneEvent { type: 'client-gone'; method: string; path: string; }

/** The events (a node:events EventEmitter; declared here without Node's types). */
export interface SandboxEvents {
  on(event: 'move', listener: (event: SandboxMoveEvent) => void): this;
  on(event: 'callback', listener: (event: SandboxCallbackEvent) => void): this;
  on(event: 'failure', listener: (event: SandboxFailureEvent) => void): this;
  on(event: 'fault', listener: (event: SandboxFaultEvent) => void): this;
  on(event: 'client-gone', listener: (event: SandboxClientGoneEvent) => void): this;
  off(event: 'move' | 'callback' | 'failure' | 'fault' | 'client-gone', listener: (...args: never[]) => void): this;
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:43121. */
  url: string;
  merchantId: string;
  /** The public key (SPKI PEM) a receiver verifies the callbacks with: save it as `service-public.pem` (also served at /sandbox/service-public.pem). */
  servicePublicKeyPem: string;
  /** 'move', 'callback', 'fault', 'failure' and 'client-gone'. */
  events: SandboxEvents;
  /** A copy of every payment, with its history. */
  payments(): SandboxPayment[];
  /** Resolves when every callback queued so far is delivered or given up. */
  callbacksIdle(): Promise<void>;
  /** Stops the server, every timer and every pending callback. */
  close(): Promise<void>;
}

/** The spec's operation paths the sandbox serves. */
export const OPERATIONS: readonly string[];
export const DEFAULT_MERCHANT_ID: string;
/** Starts a sandbox; resolves once it listens. */
export function startSandbox(options: SandboxOptions): Promise<Sandbox>;
