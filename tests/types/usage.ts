// A merchant's TypeScript using every export of `payment-intake` through
// `import` (Node ES module build). Never run: `tsc -p tests/types` checks that
// it type-checks against the built pkg/ declarations, and every
// `@ts-expect-error` line proves that a mistake is refused at compile time
// (tsc fails if such a line compiles).
import paymentIntake, {
  HmacKey,
  SigningKey,
  VerifyingKey,
  availability,
  buildPayinRequest,
  buildWidgetPayinRequest,
  canonicalEntries,
  canonicalMessage,
  canonicalSteps,
  diagnoseCallback,
  errorCodes,
  fromMinorUnits,
  inputFieldTable,
  issueCodes,
  parseCallback,
  parseInfoResponse,
  profiles,
  signRequest,
  toMinorUnits,
  validateRequest,
  verifyCallback,
} from 'payment-intake';
import type {
  AccessHeaders,
  Ambiguity,
  AvailabilityRow,
  Body,
  BuiltRequest,
  Callback,
  CanonicalOptions,
  CanonicalStepsResult,
  DeclineReason,
  Diagnosis,
  ErrorCode,
  HeadersInput,
  InfoResponse,
  Issue,
  IssueCode,
  OperationPath,
  PayinInput,
  PaymentInfo,
  PaymentInstruction,
  PaymentIntakeError,
  ProfileInfo,
  ProfileOptions,
  Requisites,
  SignOptions,
  SignedRequest,
  Timestamp,
  ValidationReport,
  VerifiedCallback,
  VerifiedOptions,
  VerifyCallbackOptions,
  VerifyingKeyInput,
  WidgetPayinInput,
} from 'payment-intake';

declare const merchantPrivatePem: string;
declare const servicePublicPem: string;
declare const rawBody: Uint8Array;
declare const receivedHeaders: Record<string, string | string[] | undefined>;
declare function send(path: OperationPath, body: string, headers: AccessHeaders): void;

const TS: Timestamp = 1700000000;

// --- keys -------------------------------------------------------------------------
const signingKey: SigningKey = SigningKey.fromPem(merchantPrivatePem);
const generated: SigningKey = SigningKey.generate(3072);
const bits: number = signingKey.bits + generated.bits;
const token: string = signingKey.token();
const publicPem: string = signingKey.publicKeyPem();
const privatePem: string = signingKey.privateKeyPem();
const verifyingKey: VerifyingKey = VerifyingKey.fromPem(servicePublicPem);
const sameKey: VerifyingKey = signingKey.verifyingKey();
const keys: VerifyingKeyInput = [verifyingKey, servicePublicPem, sameKey];
const verifyingToken: string = verifyingKey.token() + verifyingKey.publicKeyPem() + String(verifyingKey.bits);
generated.free();
// @ts-expect-error -- keys come from PEM text, there is no public constructor
new SigningKey();
// @ts-expect-error -- bits is read-only
signingKey.bits = 1024;

// --- build, validate, sign ---------------------------------------------------------------
const payin: PayinInput = {
  projectId: 'prj_8f2c',
  paymentId: 'order-10045',
  merchantCallbackUrl: 'https://shop.example/cb',
  method: 'card-p2p',
  amountMajor: '1500.50',
  currency: 'RUB',
  customerId: 'user-7',
  customerIp: '203.0.113.7',
  country: 'RU',
  customerType: 'ftd',
  senderPhone: '+79001234567',
};
const built: BuiltRequest = buildPayinRequest(payin);
if (!built.report.valid) {
  for (const issue of built.report.errors) {
    const code: IssueCode = issue.code;
    const where: string = issue.path;
    const limit: number | string | undefined = issue.limit;
    const actual: number | string | undefined = issue.actual;
    console.log(code, where, issue.message, limit, actual);
  }
}
const signed: SignedRequest = signRequest(built.bodyText, signingKey, { merchantId: 'merchant-1', timestamp: TS });
send('/api/v1/payment/p2p/payin', signed.body, signed.headers);
const signatureHeader: string = signed.headers['x-access-signature'];

const widget: WidgetPayinInput = {
  projectId: 'prj_8f2c',
  paymentId: 'order-20001',
  widgetMethod: 'payin-mobile-money',
  amount: 500000,
  currency: 'KES',
  customerId: 'user-8',
  customerIp: '2001:db8::7',
  country: 'KE',
  email: 'payer@example.com',
  lifetime: 600,
};
const builtWidget = buildWidgetPayinRequest(widget);
const widgetBody: Record<string, unknown> = builtWidget.body;
const builtAmount: number | undefined = builtWidget.body.payment.amount;
const builtProject: string | undefined = builtWidget.body.general?.project_id;
console.log(builtAmount, builtProject);
// @ts-expect-error -- the built body is typed: an amount is a number
const builtAmountText: string | undefined = builtWidget.body.payment.amount;
console.log(builtAmountText);
signRequest(widgetBody, signingKey, { merchantId: 'merchant-1', options: { padding: false } });

// @ts-expect-error -- misspelled option: projectID is not a PayinInput field
buildPayinRequest({ projectID: 'prj_8f2c' });
// @ts-expect-error -- a widget payin has no `method` (it is `widgetMethod`)
buildWidgetPayinRequest({ method: 'card-p2p' });
// @ts-expect-error -- the amount in minor units is a number, not text
buildPayinRequest({ amount: '150000' });
// @ts-expect-error -- customer_type is 'ftd' or 'trust'
buildPayinRequest({ customerType: 'vip' });
// @ts-expect-error -- senderBankSymbol is a P2P field only
buildWidgetPayinRequest({ senderBankSymbol: 'sberbank' });

const report: ValidationReport = validateRequest('/api/v1/widget/payin', builtWidget.bodyText);
const reportFromBytes: ValidationReport = validateRequest('/api/v1/bank/all', new TextEncoder().encode('{"general":{"project_id":"p"}}'));
const firstError: Issue | undefined = report.errors[0];
if (firstError?.code === 'EMAIL_REQUIRED' || reportFromBytes.warnings.some((w) => w.code === 'UNKNOWN_FIELD')) console.log('fix it');
// @ts-expect-error -- not an issue code
const wrongCode: IssueCode = 'EMAIL_MISSING';
// @ts-expect-error -- comparing with a code that does not exist is a mistake tsc sees
if (firstError?.code === 'TOO_BIG') console.log('never');
// @ts-expect-error -- not an operation path of the spec (trailing slash)
validateRequest('/api/v1/payment/p2p/payin/', {});
// @ts-expect-error -- sign options: merchantId, not merchantID
signRequest('{}', signingKey, { merchantID: 'merchant-1' });
// @ts-expect-error -- merchantId is required
signRequest('{}', signingKey, { timestamp: TS });
// @ts-expect-error -- booleans is 'python' | 'lower' | 'digit'
signRequest('{}', signingKey, { merchantId: 'm', options: { booleans: 'True' } });

// --- minor units --------------------------------------------------------------------------
const minor: number = toMinorUnits('1500.50', 'RUB');
const major: string = fromMinorUnits(minor, 'RUB');
// @ts-expect-error -- the decimal amount is text, so that it is never a float
toMinorUnits(1500.5, 'RUB');

// --- availability and codes -------------------------------------------------------------------
const rows: AvailabilityRow[] = availability();
for (const row of rows) {
  const integration: 'h2h' | 'widget' = row.integration;
  const methods: string[] = row.payinMethods.concat(row.payoutMethods);
  console.log(row.country, row.currency, integration, methods, row.lifetimeMax);
  // @ts-expect-error -- the integrations are 'h2h' and 'widget'
  if (row.integration === 'h2c') console.log('never');
}
const codes: Array<{ code: IssueCode; description: string }> = issueCodes();
for (const field of inputFieldTable()) {
  const kinds: Array<'p2p' | 'widget'> = field.builders;
  const choices: string[] = field.choices ?? [];
  const lifetime: number | null = field.type === 'count' ? field.default : null;
  console.log(field.name, field.path, kinds, choices, lifetime);
  // @ts-expect-error -- the types are the table's five
  if (field.type === 'number') console.log('never');
}
const thrown: ErrorCode[] = errorCodes();

// --- canonical form ----------------------------------------------------------------------------
const options: CanonicalOptions = { falsy: 'none', booleans: 'python', padding: true, order: 'codepoint' };
const entries: string[] = canonicalEntries('{"a":1}', options);
const message: string = canonicalMessage({ a: 1 }, '1700000000', options);
const steps: CanonicalStepsResult = canonicalSteps('{"a":1}', TS, {});
console.log(steps.entries, steps.joined, steps.encoded, steps.message);
// @ts-expect-error -- falsy is 'none' | 'null'
canonicalEntries('{}', { falsy: 'empty' });
// @ts-expect-error -- unknown canonical option
canonicalEntries('{}', { sort: 'utf16' });

// --- callbacks ------------------------------------------------------------------------------------
const verifyOptions: VerifyCallbackOptions = { toleranceSeconds: 600, maxBodyBytes: 1 << 20, now: 1700000000, options: {} };
try {
  const callback: VerifiedCallback = verifyCallback(rawBody, receivedHeaders, keys, verifyOptions);
  const asCallback: Callback = callback;
  const verifiedAt: number = callback.verification.timestamp;
  const keyIndex: number = callback.verification.keyIndex;
  const usedOptions: VerifiedOptions = callback.verification.options;
  const duplicateKey: string = asCallback.idempotencyKey;
  const isFinal: boolean = callback.isFinal && callback.isKnownState;
  const info: PaymentInfo | null = callback.paymentInfo;
  const amount: number | null | undefined = info?.amount;
  const requisites: Requisites | null = callback.requisites;
  const instruction: PaymentInstruction | null = callback.instruction;
  const reason: DeclineReason | null = callback.declineReason;
  if (reason?.code === 'CANCELLED_BY_TIMEOUT') console.log(reason.description);
  // @ts-expect-error -- the decline code is CANCELLED_BY_TIMEOUT
  if (reason?.code === 'TIMEOUT') console.log('never');
  console.log(verifiedAt, keyIndex, usedOptions, duplicateKey, isFinal, amount, requisites?.pan, requisites?.masked, instruction?.confirmUrl, instruction?.other[0]?.title, instruction?.other[0]?.data);
} catch (error) {
  const failure = error as PaymentIntakeError;
  const code: ErrorCode = failure.code;
  if (code === 'INVALID_SIGNATURE') {
    const diagnosis: Diagnosis = diagnoseCallback(rawBody, receivedHeaders, verifyingKey);
    if (diagnosis.matched && diagnosis.options) verifyCallback(rawBody, receivedHeaders, keys, { options: diagnosis.options });
    console.log(diagnosis.hint, diagnosis.matching, diagnosis.defaultError?.code, diagnosis.tokenMatchesKey, diagnosis.messagesTried, failure.hint, failure.path);
  }
  // @ts-expect-error -- not an error code
  if (failure.code === 'SIGNATURE_INVALID') console.log('never');
}
// @ts-expect-error -- misspelled verify option
verifyCallback(rawBody, receivedHeaders, keys, { tolerance: 600 });
// @ts-expect-error -- verifyCallback needs the raw body, not a parsed object
verifyCallback({ project_id: 'p' }, receivedHeaders, keys, {});

const headerForms: HeadersInput[] = [receivedHeaders, new Headers(), new Map([['x-access-timestamp', '1']]), [['x-access-timestamp', '1']]];
const parsed: Callback = parseCallback('{"project_id":"p","general":{"payment_id":"o"},"status":{"status":"success"}}');
const infoResponse: InfoResponse = parseInfoResponse('/api/v1/payment/p2p/payin/info', { status: 'processing' });
const variant: string | null = infoResponse.variant;
const sender = infoResponse.sender?.panHidden;
const infoWarnings: Issue[] = infoResponse.warnings;
// @ts-expect-error -- info responses are read for the info operations, by path
parseInfoResponse('/api/v1/payment/p2p/payin/status', {});

// --- bodies ------------------------------------------------------------------------------------------
type PayinBody = { general: { project_id: string; payment_id: string }; payment: { amount: number } };
const typedBody: PayinBody = { general: { project_id: 'p', payment_id: 'o' }, payment: { amount: 1 } };
const bodies: Body[] = ['{}', new Uint8Array(), typedBody, built.body];
validateRequest('/api/v1/payment/p2p/payin', typedBody);
// @ts-expect-error -- a body is an object, JSON text or bytes; not a number
validateRequest('/api/v1/payment/p2p/payin', 42);

// --- optional arguments and loose body types that merchants write -----------------------------
canonicalMessage('{}', TS);
canonicalSteps('{}', TS);
canonicalEntries('{}');
verifyCallback(rawBody, receivedHeaders, servicePublicPem);
// The binding of the model to the signed entries: options, result and error members.
const flagged = verifyCallback(rawBody, receivedHeaders, keys, { allowAmbiguous: true, expectedMerchantId: 'merchant-1', toleranceSeconds: 300 });
const places: Ambiguity[] = flagged.verification.ambiguities;
const ambiguous: boolean = flagged.verification.ambiguous;
const rule: Ambiguity['rule'] | undefined = places[0]?.rule;
// @ts-expect-error -- not a rule
if (rule === 'SOMETHING_ELSE') console.log('never');
console.log(ambiguous, rule);
// @ts-expect-error -- allowAmbiguous is a boolean
verifyCallback(rawBody, receivedHeaders, keys, { allowAmbiguous: 'yes' });
// @ts-expect-error -- the model has no raw body: only what its fields name
console.log(flagged.raw);
signRequest({}, signingKey, { merchantId: 'm', strict: true });
try {
  verifyCallback(rawBody, receivedHeaders, keys);
} catch (error) {
  const e = error as PaymentIntakeError;
  if (e.code === 'AMBIGUOUS_CALLBACK') console.log(e.verified, e.rawBody, e.ambiguities?.length);
}
// A body typed by an interface is a body.
interface PayinBodyInterface { general: { project_id: string; payment_id: string } }
declare const interfaceBody: PayinBodyInterface;
validateRequest('/api/v1/payment/p2p/payin', interfaceBody);
// Under exactOptionalPropertyTypes, `timestamp: undefined` still means "now".
declare const maybeTimestamp: Timestamp | undefined;
signRequest('{}', signingKey, { merchantId: 'merchant-1', timestamp: maybeTimestamp });

// The default export is the whole module.
const viaDefault: typeof validateRequest = paymentIntake.validateRequest;
const signOptions: SignOptions = { merchantId: 'merchant-1' };

// Dialects: profiles, the new dimensions, HMAC keys wherever a key is taken.
const listed: ProfileInfo[] = profiles();
const jsClient: ProfileOptions = listed[1]!.options;
const dialect: CanonicalOptions = { profile: 'public-js-client', padding: true, numbers: 'js', digest: 'double', token: 'der', signatureEncoding: 'hex' };
// @ts-expect-error -- not a profile
canonicalMessage('{}', 1, { profile: 'python' });
// @ts-expect-error -- not a digest rule
canonicalMessage('{}', 1, { digest: 'triple' });
const hmac: HmacKey = HmacKey.fromSecret('test-only-hmac-secret-0123456789');
const hmacSigned: SignedRequest = signRequest('{}', hmac, { merchantId: 'm', algorithmHeader: 'HMAC-SHA512', options: dialect });
const algorithmHeader: string | undefined = hmacSigned.headers['x-access-merchant-algorithm'];
verifyCallback(rawBody, receivedHeaders, [hmac, signingKey.verifyingKey(), 'PEM'], { options: jsClient });
const named: Diagnosis = diagnoseCallback(rawBody, receivedHeaders, [hmac]);
const cause: 'key' | 'body' | 'rule' | null = named.cause;
const derToken: string = signingKey.token({ token: 'der' });
hmac.free();

export const used = [
  jsClient, algorithmHeader, cause, derToken,
  bits, token, publicPem, privatePem, verifyingToken, signatureHeader, wrongCode, minor, major, codes, thrown, entries, message,
  headerForms, parsed, variant, sender, infoWarnings, bodies, viaDefault, signOptions,
];
