//! The exported functions. Public names are the package's API where the wasm
//! is the whole of it; `__` names are the private protocol of the JS core
//! (`pkg-template/core.mjs` and its modules), which owns the key classes and the
//! native RSA. Errors cross as data (`js::js_error`), never as objects of a class.

mod callback;
mod canonical;
mod constants;
mod input;
mod model;
mod options;
mod request;
mod response;
mod spec;

use wasm_bindgen::prelude::*;

use super::options::NativeRsa;

/// Whether the JS core offers a native RSA: the private protocol's string enum.
#[wasm_bindgen(skip_typescript)]
#[derive(Clone, Copy)]
pub enum Rsa {
    Absent = "absent",
    Available = "available",
    Prepare = "prepare",
}

impl From<Rsa> for NativeRsa {
    fn from(rsa: Rsa) -> Self {
        match rsa {
            Rsa::Absent => NativeRsa::Absent,
            Rsa::Available => NativeRsa::Available,
            Rsa::Prepare => NativeRsa::Prepare,
            // wasm-bindgen's own value for a string it does not know: nothing native.
            _ => NativeRsa::Absent,
        }
    }
}
