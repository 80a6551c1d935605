//! What a callback keeps in the wasm while the JS core's native RSA check runs, under a
//! handle (`src/wasm/exports/callback.rs`): what the model needs, until the check answered.
//!
//! For a sync check the body is kept too (the check reads its bytes in place and answers
//! before anything else runs). For an awaited check (`verifyCallbackAsync`) it is not:
//! `__verifyCallback` hands the JS core a copy of the bytes it read (a `Uint8Array` only the
//! core holds), and the core gives that copy back to `__finishCallback` once the check
//! passed. So the model is made from exactly the bytes that were checked, with the headers
//! and options as read once (never from a second read of the caller's body, a buffer it can
//! change during the await, or of its getters), and wasm memory, which never shrinks, is
//! not grown for good by many hostile bodies awaiting their checks at once: a [`Pending`] is
//! of a few hundred bytes whatever the body. No tree is kept either for an awaited check:
//! the one-pass reader's rare tree is dropped, and the text read again after the check.
//! The JS core finishes each handle right after the check answered, whatever it answered.

#[cfg(test)]
use std::sync::atomic::{AtomicU32, Ordering};

use super::shapes::verified_json;
use crate::callback::{PreparedCallback, VerifyOptions};
use crate::error::Error;

/// How many [`Pending`]s are alive: what the unit test reads to see each one freed (the
/// shipped build counts nothing; the JS tests see each handle freed through
/// `__finishCallback`, `tests/js/support/pending.mjs`).
#[cfg(test)]
static ALIVE: AtomicU32 = AtomicU32::new(0);

/// A prepared callback without its text, tree, message and signature, and the options
/// as read once.
pub(super) struct Pending {
    prepared: PreparedCallback,
    options: VerifyOptions,
}

impl Pending {
    /// `prepared` as [`PreparedCallback::split_body`] left it (an awaited check), or whole.
    pub(super) fn new(prepared: PreparedCallback, options: VerifyOptions) -> Self {
        #[cfg(test)]
        ALIVE.fetch_add(1, Ordering::Relaxed);
        Pending { prepared, options }
    }

    pub(super) fn options(&self) -> &VerifyOptions {
        &self.options
    }

    /// The body kept with the rest (the sync check's handle keeps it; an awaited one's
    /// does not, and gets it back from the core): taken, for [`Pending::finish`].
    pub(super) fn take_body(&mut self) -> String {
        std::mem::take(&mut self.prepared.raw_body)
    }

    /// Once the check passed: the verified callback's JSON text (as `verifyCallback` returns
    /// it) read by [`PreparedCallback::finish`] from `raw_body`, the text that was checked.
    pub(super) fn finish(&mut self, raw_body: String) -> Result<String, Error> {
        self.prepared.raw_body = raw_body;
        let result = model_json(&self.prepared, &self.options);
        // Nothing big is kept, even should the JS core not free this at once.
        self.prepared.raw_body = String::new();
        result
    }

    /// How many are alive (made and not yet dropped).
    #[cfg(test)]
    pub(super) fn alive() -> u32 {
        ALIVE.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
impl Drop for Pending {
    fn drop(&mut self) {
        ALIVE.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The verified callback's JSON text, made from the prepared one (the model, bound to the
/// signed entries), or the error raised making it: one copy for every step that makes it.
#[inline(never)]
pub(super) fn model_json(prepared: &PreparedCallback, options: &VerifyOptions) -> Result<String, Error> {
    prepared.finish(options).and_then(|verified| verified_json(&verified, options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::callback::fixtures;
    use crate::callback::prepare_callback;

    /// A pending callback finishes, from the text handed back, as the whole prepared one
    /// does (the model, or the error raised after the check), keeps neither the text nor a
    /// tree, and is counted while alive.
    #[test]
    fn finishes_as_the_prepared_callback_and_is_counted_while_alive() {
        let (key, keys) = fixtures::vector_key();
        let options = VerifyOptions::default();
        let marker = fixtures::with_marker();
        for text in [fixtures::PLAIN, marker.as_str(), r#"{"project_id":{"a":1}}"#, r#"{"project_id":"p","a:b":1}"#] {
            let headers = fixtures::signed_headers(text, &key);
            let prepared = prepare_callback(text, &headers, &keys, &options).unwrap();
            let whole = prepared.finish(&options).and_then(|verified| verified_json(&verified, &options));
            let before = Pending::alive();
            let (raw_body, rest) = prepared.split_body();
            let mut pending = Pending::new(rest, options.clone());
            assert_eq!(Pending::alive(), before + 1);
            assert!(pending.prepared.raw_body.is_empty() && pending.prepared.body.is_none());
            assert_eq!(pending.finish(raw_body), whole, "{text}");
            assert!(pending.prepared.raw_body.is_empty());
            drop(pending);
            assert_eq!(Pending::alive(), before);
        }
    }
}
