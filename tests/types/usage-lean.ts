// The lean entries (pkg/web/lean.js, pkg/web/receiver.js: payment-intake/lean and
// payment-intake/receiver), type-checked: the receiver's own declarations offer what a callback
// receiver uses and nothing of requests; lean has the web entry's API, with init().
import initReceiver, {
  createCallbackHandler, memoryStore, verifyCallbackAsync, verifyCallbackRequest, VerifyingKey, HmacKey, isPaymentIntakeError, specStates,
  type CallbackEvent, type VerifiedCallback, type SpecState,
} from '../../pkg/web/receiver.js';
import * as receiver from '../../pkg/web/receiver.js';
import initLean, { signRequestAsync, SigningKey, validateRequest } from '../../pkg/web/lean.js';

declare const request: Request;

export async function receive(): Promise<VerifiedCallback> {
  await initReceiver();
  const handler = createCallbackHandler({
    keys: VerifyingKey.fromPem('-----BEGIN PUBLIC KEY-----…'),
    store: memoryStore(),
    onEvent: (event: CallbackEvent) => {
      void event.callback.paymentId;
    },
  });
  const response: Response = await handler.fetch(request);
  void response;
  const states: SpecState[] = specStates();
  void states;
  void HmacKey.fromSecret('0123456789abcdef0123');
  try {
    return await verifyCallbackRequest(request, '-----BEGIN PUBLIC KEY-----…');
  } catch (error) {
    if (isPaymentIntakeError(error) && error.code === 'SYNC_RSA_UNAVAILABLE') void error.hint;
    return verifyCallbackAsync('{}', {}, '-----BEGIN PUBLIC KEY-----…');
  }
}

// @ts-expect-error -- the receiver entry has no request validation
void receiver.validateRequest;

export async function sign(): Promise<string> {
  await initLean();
  const signed = await signRequestAsync('{}', SigningKey.fromPem('-----BEGIN PRIVATE KEY-----…'), { merchantId: 'merchant-1' });
  void validateRequest('/api/v1/payment/p2p/payin', signed.body);
  return signed.headers['x-access-signature'];
}
