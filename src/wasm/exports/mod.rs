//! The exported functions. Public names are the package's API where the wasm
//! is the whole of it; `__` names are the private protocol of the JS core
//! (`pkg-template/core.mjs` and its modules), which owns the key classes and the
//! native RSA. Errors cross as data (`js::js_error`), never as objects of a class.

//!
//! Without the `full-api` feature (the receiver's `.wasm`) only what verifying and
//! reading callbacks needs is exported: the canonical-form tools, request signing,
//! validation, the builders, the operation table, info responses, minor units,
//! availability, decline reasons and diagnosis are not, and the linker drops the
//! code and tables only they reach.

mod callback;
#[cfg(feature = "full-api")]
mod canonical;
mod constants;
mod input;
mod model;
#[cfg(feature = "full-api")]
mod operations;
mod options;
#[cfg(feature = "full-api")]
mod request;
mod spec;
