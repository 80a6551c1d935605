//! The bound on quadratic expansion ([`expansion_limit`]): every entry repeats
//! the path above its leaf, so the entries can grow quadratically in the body.
//! What each key and leaf adds to the body's own size and to the bound of its
//! entries, as the writer counts them while it writes, and the same counts over
//! a tree before anything is written ([`measure`]); a body whose entries would
//! pass the bound is refused.

use super::leaf::{index_len, NONE};
use crate::canonical::number;
use crate::error::{Error, Result};
use crate::json::{Json, Leaf};

/// The canonical entries may be at most this many times the size of the tree's
/// own keys and leaves, plus [`CANONICAL_SLACK_BYTES`], and never more than
/// [`MAX_CANONICAL_BYTES`]. The service's bodies stay within about twice their
/// size; a long array of tiny leaves a few levels down, the worst honest shape,
/// within about ten.
pub const CANONICAL_EXPANSION: u64 = 16;
/// Room above the proportional bound, for small deeply nested bodies: more than
/// any callback or request of the spec needs as a whole.
pub const CANONICAL_SLACK_BYTES: u64 = 64 << 10;
/// The absolute ceiling of the canonical entries, whatever the body limit.
pub const MAX_CANONICAL_BYTES: u64 = 16 << 20;

/// Largest canonical size accepted for a tree with `own` bytes of keys and leaves.
pub(crate) fn expansion_limit(own: u64) -> u64 {
    own.saturating_mul(CANONICAL_EXPANSION).saturating_add(CANONICAL_SLACK_BYTES).min(MAX_CANONICAL_BYTES)
}

/// Reserves room for `additional` more bytes, or reports the body as too large:
/// running out of memory must be an error, never a trap of the wasm instance.
pub(crate) fn try_room(buffer: &mut String, additional: usize) -> Result<()> {
    buffer.try_reserve(additional).map_err(|_| Error::CanonicalTooLarge {
        limit: MAX_CANONICAL_BYTES,
        actual: buffer.len().saturating_add(additional) as u64,
    })
}

/// What a key adds to the body's own size.
#[inline]
pub(super) fn key_size(key: &str) -> u64 {
    key.len() as u64 + 1
}

/// What a leaf at a path of `path_len` bytes adds to (the body's own size, the
/// bound of its entries' bytes): its raw bytes, and its entry with the longest
/// text any variant writes (an integer keeps its digits or fewer, a float's
/// Python repr is at most 24 characters and its JavaScript text at most
/// [`number::JS_NUMBER_MAX_CHARS`]) and a `;` after it.
#[inline]
pub(super) fn leaf_sizes(leaf: Leaf<'_>, path_len: usize) -> (u64, u64) {
    let (raw, longest) = match leaf {
        Leaf::String(text) => (text.len(), text.len().max(NONE.len())),
        Leaf::Number(text) if !number::is_integer_text(text) => {
            (text.len(), text.len().max(number::JS_NUMBER_MAX_CHARS))
        }
        Leaf::Number(text) => (text.len(), text.len().max(NONE.len())),
        Leaf::Null | Leaf::Bool(_) => (5, 5),
    };
    (raw as u64 + 1, path_len as u64 + longest as u64 + 2)
}

/// The length of a path once a segment of `segment_len` bytes joins it: no
/// `:` after an empty path.
#[inline]
pub(super) fn joined_len(path_len: usize, segment_len: usize) -> usize {
    path_len + usize::from(path_len > 0) + segment_len
}

/// The bound of the entries' bytes, or `CanonicalTooLarge` when it passes
/// [`expansion_limit`] of the body's own size.
pub(super) fn checked_bound(own: u64, bound: u64) -> Result<u64> {
    let limit = expansion_limit(own);
    if bound > limit {
        return Err(Error::CanonicalTooLarge { limit, actual: bound });
    }
    Ok(bound)
}

/// Measures a tree before anything is written: its entries' bound, exactly as
/// an [`EntryWriter`] counts it, or `CanonicalTooLarge` (nothing is built for a
/// body whose entries would be too large).
pub(crate) fn measure(body: &Json) -> Result<u64> {
    fn sizes(value: &Json, path_len: usize) -> (u64, u64) {
        let add = |(own, bound): (u64, u64), (own2, bound2): (u64, u64)| {
            (own.saturating_add(own2), bound.saturating_add(bound2))
        };
        match value {
            Json::Object(members) => members.iter().fold((0, 0), |total, (key, child)| {
                add(add(total, (key_size(key), 0)), sizes(child, joined_len(path_len, key.len())))
            }),
            Json::Array(items) => items
                .iter()
                .enumerate()
                .fold((0, 0), |total, (index, child)| add(total, sizes(child, joined_len(path_len, index_len(index))))),
            leaf => leaf.leaf().map_or((0, 0), |leaf| leaf_sizes(leaf, path_len)),
        }
    }
    let (own, bound) = sizes(body, 0);
    checked_bound(own, bound)
}
