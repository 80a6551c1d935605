// The RSA provider the JS core is built with (pkg-template/core.mjs `createApi(glue, provider)`):
// node:crypto (pkg-template/node-crypto.mjs) or WebCrypto (pkg-template/web-crypto.mjs). Not
// shipped: the declaration of what the core calls, checked against both providers by
// `node scripts/test.mjs types`.

/** A native key handle: a node:crypto KeyObject, or a WebCrypto CryptoKey (or its promise). */
export type NativeKey = unknown;

/** Bytes the provider works on. */
export type Bytes = Uint8Array;

export interface CryptoProvider {
  /** Whether `sign` and `verify` exist (node:crypto): the sync functions use them. */
  readonly sync: boolean;
  /** Whether a native RSA is there now (WebCrypto: a secure context). */
  available(): boolean;
  /** Whether a SigningKey's native key is read from the PEM it was read from (`sourcePem`). */
  readonly keepsSourcePem: boolean;
  /** The native private key of the glue's key (`privateKeyPem()`: its PKCS#8 PEM), checked against `publicJwk()` (`n.e`). */
  privateKey(glueKey: { privateKeyPem(): string }, sourcePem: string | undefined, publicJwk: () => string): NativeKey;
  /** The native public key of a SubjectPublicKeyInfo PEM. */
  publicKey(spkiPem: string): NativeKey;
  /** RSASSA-PKCS1-v1_5 over SHA-256 of `data` (the message, or its digest), sync. */
  sign?(data: Bytes, key: NativeKey): Bytes;
  verify?(data: Bytes, signature: Bytes, key: NativeKey): boolean;
  signAsync(data: Bytes, key: NativeKey): Promise<Bytes>;
  verifyAsync(data: Bytes, signature: Bytes, key: NativeKey): Promise<boolean>;
  /** base64url of a signature, `=`-padded when `padding`. */
  base64url(bytes: Bytes, padding: boolean): string;
  /** Text the wasm reads faster as UTF-8 bytes (at most `maxLength` UTF-16 units), else `body` as it is. */
  bytes<T>(body: T, maxLength: number): T | Bytes;
  /** A message's ASCII bytes as a string; none: strings come from the wasm. */
  ascii?: ((bytes: Bytes) => string) | undefined;
  // The in-place fast paths (pkg-template/wasm-io.mjs), where the provider has them:
  /** Whether `text` is text `utf8Into` may write. */
  fits?(text: unknown, maxLength: number): boolean;
  /** A view of the wasm's memory. */
  view?(buffer: ArrayBuffer): Bytes;
  /** Writes `text` as UTF-8 into `view` from `at`, at most `capacity` bytes: how many it wrote. */
  utf8Into?(text: string, view: Bytes, at: number, capacity: number): number;
  /** Whether the `written` bytes from `at` came from text without a lone surrogate. */
  wroteWellFormed?(text: string, view: Bytes, at: number, written: number): boolean;
  /** `ascii` of `view`'s bytes from `start` to `end`, read in place. */
  asciiAt?(view: Bytes, start: number, end: number): string;
}
