// A merchant's use of `payment-intake/sandbox` and of validateRequest's options, type-checked.
import { SigningKey, declineReasons, specStates, validateRequest, type SpecDeclineReason, type SpecState, type ValidationReport } from 'payment-intake';
import { startSandbox, type Sandbox, type SandboxCallbackEvent, type SandboxDelivery, type SandboxFault, type SandboxPayment } from 'payment-intake/sandbox';

export async function run(): Promise<SandboxPayment[]> {
  const merchant = SigningKey.generate();
  const sandbox: Sandbox = await startSandbox({ merchantKey: merchant.publicKeyPem(), timeScale: 60, duplicateCallbacks: true, profile: 'spec', timestampToleranceSeconds: 300 });
  const faults: SandboxFault[] = [{ type: 'drop-after', count: 1 }, { type: 'status', status: 502, share: 0.1 }, { type: 'rate-limit', retryAfter: 2 }, { type: 'delay', ms: 300 }];
  await (await startSandbox({ merchantKey: merchant.publicKeyPem(), timestampToleranceSeconds: false, faults })).close();
  await (await startSandbox({ merchantKey: merchant.publicKeyPem(), duplicateCallbacks: true, shuffleCallbacks: true, concurrentCallbacks: 8 })).close();
  // @ts-expect-error concurrentCallbacks is a number of attempts in flight
  void startSandbox({ merchantKey: merchant.publicKeyPem(), concurrentCallbacks: '8' });
  await (await startSandbox({ merchantKey: merchant.publicKeyPem(), loseCallbacks: 0.3 })).close();
  await (await startSandbox({ merchantKey: merchant.publicKeyPem(), loseCallbacks: (p: SandboxPayment) => p.paymentId.startsWith('lost-') })).close();
  // @ts-expect-error loseCallbacks is a share (a number) or a predicate, not text
  void startSandbox({ merchantKey: merchant.publicKeyPem(), loseCallbacks: '0.3' });
  sandbox.events.on('client-gone', ({ method, path }) => `${method} ${path}`);
  sandbox.events.on('fault', ({ path, fault }) => `${path}: ${fault.type} (${fault.remaining ?? 'share'})`);
  sandbox.events.on('callback', (event: SandboxCallbackEvent) => {
    const outcome: number | null = event.status;
    const next: number | null = event.nextRetryAt;
    return `${event.requestId} ${outcome} ${next}`;
  });
  const finals: string[] = specStates().filter((row: SpecState) => row.final && row.order >= 0).map((row) => `${row.status}:${row.subStatus ?? ''}`);
  const texts: string[] = declineReasons().map((reason: SpecDeclineReason) => `${reason.code}: ${reason.description}`);
  void finals;
  void texts;
  sandbox.events.on('move', ({ payment, move }) => `${payment.paymentId}: ${move.status}`);
  const report: ValidationReport = validateRequest('/api/v1/payment/p2p/payin', '{}', { allowLoopbackHttp: true });
  const codes: string[] = report.warnings.map((w) => w.code);
  void codes;
  const key: string = sandbox.servicePublicKeyPem;
  void key;
  await sandbox.callbacksIdle();
  const payments = sandbox.payments();
  const deliveries: SandboxDelivery[] = payments.flatMap((p) => p.deliveries);
  const retries: (number | null)[] = deliveries.map((d) => (d.manual ? null : d.nextRetryAt));
  void retries;
  const answers: string[] = deliveries.map((d) => (d.lost ? 'lost' : `${d.status ?? d.error} ${d.code ?? ''}`));
  const lost: boolean[] = payments.map((p) => p.callbacksLost);
  void answers;
  void lost;
  await sandbox.close();
  return payments;
}
