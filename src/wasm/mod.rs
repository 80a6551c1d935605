//! The JS API, as thin as it can be: every export of the npm package's wasm,
//! with camelCase names; the work is done by the core modules. Files by
//! concern:
//!
//! - `gateway/`: the one way caller values are read (under `catch`, so that no
//!   getter, Proxy or iterator can throw through the wasm frames): the
//!   exception-safe reads (`mod.rs`), the copies into wasm memory (`copy.rs`)
//!   and the domain readers over both (`readers.rs`);
//! - `options`: the one typed reader of option objects, without `JsValue`;
//! - `body`, `headers`, `keys`: what the arguments become in the core
//!   (`cache`: parsed verifying keys by PEM);
//! - `shapes`: what the API returns, as serde structs, without `JsValue`;
//! - `pending`: what a callback keeps in the wasm while the JS core's native check runs;
//! - `js`: results and error data as JS values, and the private exports' answer
//!   (`{ ok: true, value }` or `{ ok: false, error }`);
//! - `types`: the TypeScript declarations of the shapes;
//! - `exports/`: the exported functions, a few lines each, and the private
//!   protocol (`__` names) used by the package's JS core (`pkg-template/core.mjs`
//!   and its modules), with what both sides share given once (`__constants`).
//!
//! `options`, `shapes`, `pending`, `cache` and the rules of `headers` compile natively for their unit
//! tests (`cargo test --lib`).

#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod cache;
mod headers;
pub(crate) mod options;
mod pending;
mod shapes;

#[cfg(target_arch = "wasm32")]
mod body;
#[cfg(target_arch = "wasm32")]
mod exports;
#[cfg(target_arch = "wasm32")]
mod gateway;
#[cfg(target_arch = "wasm32")]
mod js;
#[cfg(target_arch = "wasm32")]
mod keys;
#[cfg(target_arch = "wasm32")]
mod types;

#[cfg(target_arch = "wasm32")]
type JsResult<T> = Result<T, wasm_bindgen::JsValue>;

/// The wasm's allocator: Talc in place of the standard library's dlmalloc. A verified callback
/// allocates a few hundred times (the body's tree, the model, its JSON text), and dlmalloc's
/// `malloc` and `free` took about 4 % of a `verifyCallback`'s time in a profile.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
