//! The one typed reader of the option objects the JS API takes: canonical
//! options, `signRequest`'s and `verifyCallback`'s. The gateway
//! (`gateway/`) reads an object's own members once, each into a
//! [`Member`]; everything here works on those values, without `JsValue`, so
//! it runs (and is tested) natively. `O` is what the gateway keeps of a
//! member that is not a primitive (a `JsValue` in the wasm build), for the
//! members a reader takes further (`options`, `timestamp`).
//!
//! Files by concern: `member.rs`, a member as read and why an object or member is
//! refused; `readers.rs`, each option object's reader (conversion only: the names,
//! choices and rules are the options table's, `src/options/`); `tests.rs`, their native
//! tests. (A builder's input is read by the input-fields table, `src/request/fields.rs`.)

mod member;
mod readers;
#[cfg(test)]
mod tests;

#[cfg(target_arch = "wasm32")]
pub(crate) use member::THROWS;
pub(crate) use member::{Member, ShapeError};
pub(crate) use readers::*;
