// A merchant's use of `payment-intake/sandbox` and of validateRequest's options, type-checked.
import { SigningKey, validateRequest, type ValidationReport } from 'payment-intake';
import { startSandbox, type Sandbox, type SandboxCallbackEvent, type SandboxPayment } from 'payment-intake/sandbox';

export async function run(): Promise<SandboxPayment[]> {
  const merchant = SigningKey.generate();
  const sandbox: Sandbox = await startSandbox({ merchantKey: merchant.publicKeyPem(), timeScale: 60, duplicateCallbacks: true, profile: 'spec' });
  sandbox.events.on('callback', (event: SandboxCallbackEvent) => {
    const outcome: number | null = event.status;
    return outcome;
  });
  sandbox.events.on('move', ({ payment, move }) => `${payment.paymentId}: ${move.status}`);
  const report: ValidationReport = validateRequest('/api/v1/payment/p2p/payin', '{}', { allowLoopbackHttp: true });
  const codes: string[] = report.warnings.map((w) => w.code);
  void codes;
  const key: string = sandbox.servicePublicKeyPem;
  void key;
  await sandbox.callbacksIdle();
  const payments = sandbox.payments();
  await sandbox.close();
  return payments;
}
