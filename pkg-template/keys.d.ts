// Types of the package's key classes (pkg-template/keys.mjs), re-exported by index.d.ts.
import type { CanonicalOptions } from '#glue';

// The keys' `[Symbol.dispose]()` (for `using`) needs `Symbol.dispose` declared. TypeScript
// declares it in lib `esnext.disposable` (or `es2025`+), @types/node in its globals; this
// declares the same, so a strict build with neither (lib es2022, `types: []`) compiles.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** An RSA private key that signs requests. Freed keys throw INVALID_ARGUMENT. */
export class SigningKey {
  private constructor();
  /** Frees the key's wasm memory; later uses throw. Does nothing on a freed key. */
  free(): void;
  [Symbol.dispose](): void;
  /** Reads a PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM of 2048 to 4096 bits. */
  static fromPem(pem: string): SigningKey;
  /** Generates a key pair (2048 bits unless told): for tests and debugging. */
  static generate(bits?: number | null): SigningKey;
  /** The private key as PKCS#8 PEM. */
  privateKeyPem(): string;
  /** The public key as SubjectPublicKeyInfo PEM. */
  publicKeyPem(): string;
  /** The `x-access-token` header value for this key (`token`: 'pem' or 'der'; `padding`). */
  token(options?: CanonicalOptions): string;
  /** The matching public key. */
  verifyingKey(): VerifyingKey;
  /** Modulus size in bits. */
  readonly bits: number;
}

/** An RSA public key that verifies callbacks. Freed keys throw INVALID_ARGUMENT. */
export class VerifyingKey {
  private constructor();
  /** Frees the key's wasm memory; later uses throw. Does nothing on a freed key. */
  free(): void;
  [Symbol.dispose](): void;
  /** Reads a SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 (`RSA PUBLIC KEY`) PEM. */
  static fromPem(pem: string): VerifyingKey;
  /** The key as SubjectPublicKeyInfo PEM. */
  publicKeyPem(): string;
  /** The `x-access-token` value the service sends with this key (`token`: 'pem' or 'der'; `padding`). */
  token(options?: CanonicalOptions): string;
  /** Modulus size in bits. */
  readonly bits: number;
}

/** An HMAC-SHA512 secret (requests or callbacks). Kept in wasm memory, wiped by free(). Freed keys throw INVALID_ARGUMENT. */
export class HmacKey {
  private constructor();
  /** Wipes the secret from wasm memory; later uses throw. Does nothing on a freed key. */
  free(): void;
  [Symbol.dispose](): void;
  /** The secret as text (without a file's trailing newline) or bytes; fewer than 16 bytes is refused (INVALID_KEY). */
  static fromSecret(secret: string | Uint8Array | ArrayBuffer): HmacKey;
}

/** A key that signs requests. */
export type RequestKey = SigningKey | HmacKey;
/** The configured key(s) that callbacks are checked against: RSA and HMAC, one or an array (rotation). */
export type KeyInput = VerifyingKey | SigningKey | HmacKey | string | Array<VerifyingKey | SigningKey | HmacKey | string>;
