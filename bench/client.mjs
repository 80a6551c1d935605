// The client's bench line (issue 29): a P2P payin create through `createClient` against the
// loopback sandbox, against the same create written by hand (`signRequest`, `fetch`,
// `JSON.parse`), side by side in one process. Both sides send the same body with a fresh
// payment_id each and read the whole answer; the sandbox runs in this process, so its work
// (checking the signature, storing the payment) is in both measurements.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const CLIENT_LINE = 'client create vs signRequest + fetch + JSON.parse (loopback sandbox)';
/** At most 1.1× the hand-written create's cost: throughput ratio ≥ 1/1.1. */
export const CLIENT_TARGET = 0.91;

/** A P2P payin create body with `paymentId`. */
const createBody = (paymentId) => ({
  general: { project_id: 'prj_1', payment_id: paymentId },
  payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' },
  customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
});

/**
 * Runs the line with `compare(title, ours, baseline, settings)` (scripts/bench.mjs) and
 * returns its result (null when `--only` skips it). `pi`: the loaded package in `pkgDir`.
 */
export async function clientLine({ pi, pkgDir, signingPem, publicPem, compare, only, ms }) {
  if (only && !CLIENT_LINE.includes(only)) return null;
  const { startSandbox } = await import(pathToFileURL(path.join(pkgDir, 'sandbox', 'index.mjs')).href);
  const sandbox = await startSandbox({ merchantKey: publicPem });
  const key = pi.SigningKey.fromPem(signingPem);
  const client = pi.createClient({ baseUrl: sandbox.url, merchantId: sandbox.merchantId, key });
  let n = 0;
  const nextId = (side) => `bench-${side}-${(n += 1)}`;
  const byHand = async () => {
    const signed = pi.signRequest(createBody(nextId('hand')), key, { merchantId: sandbox.merchantId });
    const response = await fetch(`${sandbox.url}/api/v1/payment/p2p/payin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signed.headers },
      body: signed.body,
    });
    const answer = JSON.parse(await response.text());
    if (answer.status !== 'processing') throw new Error(`the hand-written create was answered ${answer.status}`);
    return answer;
  };
  const throughClient = async () => {
    const payment = await client.p2p.payin.create(createBody(nextId('client')));
    if (payment.status !== 'processing') throw new Error(`the client's create was answered ${payment.status}`);
    return payment;
  };
  try {
    // Each side works before it is timed.
    await byHand();
    await throughClient();
    const result = await compare(CLIENT_LINE, { name: 'client.p2p.payin.create', fn: throughClient }, { name: 'signRequest + fetch + JSON.parse', fn: byHand }, { ms, target: CLIENT_TARGET, asyncOurs: true, asyncBase: true });
    if (result) {
      const cost = 1 / result.ratio.median;
      console.log(`    cost: the client's create ${cost.toFixed(3)}× the hand-written one (target ≤ 1.1×); ${(1e3 / result.oursOpsPerSec.median).toFixed(3)} ms vs ${(1e3 / result.baselineOpsPerSec.median).toFixed(3)} ms per create; ${sandbox.payments().length} payments made`);
    }
    return result;
  } finally {
    key.free();
    await sandbox.close();
  }
}
