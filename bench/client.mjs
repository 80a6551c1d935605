// The client's bench line (issue 29): a P2P payin create through `createClient` against the
// loopback sandbox, against the same create written by hand (`signRequest`, `fetch`,
// `JSON.parse`), side by side in one process. Both sides send the same body with a fresh
// payment_id each and read the whole answer; the sandbox runs in this process, so its work
// (checking the signature, storing the payment) is in both measurements. A create takes
// milliseconds and the machine is shared, so the two are interleaved one create at a time
// (the order swapped each pair) rather than timed in batches: both meet the same load.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const CLIENT_LINE = 'client create vs signRequest + fetch + JSON.parse (loopback sandbox)';
/** At most 1.1× the hand-written create's cost: throughput ratio ≥ 1/1.1. */
export const CLIENT_TARGET = 0.91;

/** A P2P payin create body with `paymentId`. */
export const createBody = (paymentId) => ({
  general: { project_id: 'prj_1', payment_id: paymentId },
  payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' },
  customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
});

/** The create written by hand against `sandbox`: `signRequest`, `fetch`, `JSON.parse`; `nextId()` a fresh payment_id. */
export function handWritten(pi, key, sandbox, nextId) {
  return async () => {
    const signed = pi.signRequest(createBody(nextId()), key, { merchantId: sandbox.merchantId });
    const response = await fetch(`${sandbox.url}/api/v1/payment/p2p/payin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signed.headers },
      body: signed.body,
    });
    const answer = JSON.parse(await response.text());
    if (answer.status !== 'processing') throw new Error(`the hand-written create was answered ${answer.status}`);
    return answer;
  };
}

/**
 * Runs the line and returns its result in the shape of scripts/bench.mjs's `compare` (null
 * when `--only` skips it): `rounds` rounds of `pairs` creates each side. `pi`: the loaded package in `pkgDir`.
 */
export async function clientLine({ pi, pkgDir, signingPem, publicPem, only, rounds = 11, pairs = 60 }) {
  if (only && !CLIENT_LINE.includes(only)) return null;
  const { startSandbox } = await import(pathToFileURL(path.join(pkgDir, 'sandbox', 'index.mjs')).href);
  const sandbox = await startSandbox({ merchantKey: publicPem });
  const key = pi.SigningKey.fromPem(signingPem);
  const client = pi.createClient({ baseUrl: sandbox.url, merchantId: sandbox.merchantId, key });
  let n = 0;
  const nextId = (side) => `bench-${side}-${(n += 1)}`;
  const byHand = handWritten(pi, key, sandbox, () => nextId('hand'));
  const throughClient = async () => {
    const payment = await client.p2p.payin.create(createBody(nextId('client')));
    if (payment.status !== 'processing') throw new Error(`the client's create was answered ${payment.status}`);
    return payment;
  };
  try {
    // Each side works before it is timed, and warms up.
    for (let i = 0; i < 30; i += 1) {
      await byHand();
      await throughClient();
    }
    // Per side: wall time, and the CPU time of this process (the client's work and the
    // sandbox's), which a shared machine's load disturbs far less.
    const cpu = () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1e3;
    };
    const rates = { ours: { wall: [], cpu: [] }, base: { wall: [], cpu: [] } };
    const ratios = { wall: [], cpu: [] };
    process.stdout.write(`  ${CLIENT_LINE} `);
    for (let round = 0; round < rounds; round += 1) {
      const spent = { ours: { wall: 0, cpu: 0 }, base: { wall: 0, cpu: 0 } };
      for (let pair = 0; pair < pairs; pair += 1) {
        const first = (pair + round) % 2 === 0;
        for (const side of first ? ['ours', 'base'] : ['base', 'ours']) {
          const c0 = cpu();
          const t0 = performance.now();
          await (side === 'ours' ? throughClient() : byHand());
          spent[side].wall += performance.now() - t0;
          spent[side].cpu += cpu() - c0;
        }
      }
      for (const side of ['ours', 'base']) for (const kind of ['wall', 'cpu']) rates[side][kind].push((pairs * 1e3) / spent[side][kind]);
      for (const kind of ['wall', 'cpu']) ratios[kind].push(spent.base[kind] / spent.ours[kind]);
      process.stdout.write('.');
    }
    const stats = (values) => {
      const sorted = [...values].sort((a, b) => a - b);
      return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
    };
    const ratio = stats(ratios.cpu);
    const wall = stats(ratios.wall);
    const result = {
      title: CLIENT_LINE, ours: 'client.p2p.payin.create (CPU time)', baseline: 'signRequest + fetch + JSON.parse (CPU time)',
      oursOpsPerSec: stats(rates.ours.cpu), baselineOpsPerSec: stats(rates.base.cpu), ratio, target: CLIENT_TARGET, met: ratio.median >= CLIENT_TARGET,
      wall: { ratio: wall, oursOpsPerSec: stats(rates.ours.wall), baselineOpsPerSec: stats(rates.base.wall) },
    };
    const ms = (rate) => (1e3 / rate.median).toFixed(3);
    console.log(` CPU ratio ${ratio.median.toFixed(2)} (min ${ratio.min.toFixed(2)}, max ${ratio.max.toFixed(2)}), target >= ${CLIENT_TARGET}; wall ratio ${wall.median.toFixed(2)} (min ${wall.min.toFixed(2)}, max ${wall.max.toFixed(2)})`);
    console.log(`    cost: the client's create ${(1 / ratio.median).toFixed(3)}× the hand-written one in CPU time (target ≤ 1.1×), ${(1 / wall.median).toFixed(3)}× in wall time; per create ${ms(result.oursOpsPerSec)} vs ${ms(result.baselineOpsPerSec)} ms CPU, ${ms(result.wall.oursOpsPerSec)} vs ${ms(result.wall.baselineOpsPerSec)} ms wall (${rounds} rounds of ${pairs} pairs; ${sandbox.payments().length} payments made)`);
    return result;
  } finally {
    key.free();
    await sandbox.close();
  }
}
