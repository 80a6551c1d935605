// Types of what a callback is read from (pkg-template/callbacks.mjs), re-exported by index.d.ts.
import type { HeadersInput } from '#glue';

/** A callback's raw body: its text, or its exact bytes (Buffer, Uint8Array, any typed array, DataView, ArrayBuffer). */
export type RawBody = string | ArrayBuffer | ArrayBufferView;
/** What `verifyCallbackRequest` reads: a Fetch `Request`, or anything with its `headers` and `arrayBuffer()`. */
export interface RequestLike {
  readonly headers: HeadersInput;
  readonly bodyUsed?: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
}
