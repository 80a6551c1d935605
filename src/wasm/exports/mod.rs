//! The exported functions. Public names are the package's API where the wasm
//! is the whole of it; `__` names are the private protocol of the JS core
//! (`pkg-template/core.mjs` and its modules), which owns the key classes and the
//! native RSA. Errors cross as data (`js::js_error`), never as objects of a class.

mod callback;
mod canonical;
mod constants;
mod input;
mod model;
mod operations;
mod options;
mod request;
mod spec;
