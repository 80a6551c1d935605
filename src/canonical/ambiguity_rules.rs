//! The ambiguity rules themselves, each a test of one key or one text leaf
//! (`canonical::ambiguity` says why they are the rules and finds where a body
//! breaks them). The entry writer (`canonical::entry`) applies them as it enters
//! keys and meets text leaves; this file imports nothing, so both can use it.

/// Rule: an object key holds `:` or `;`.
pub const KEY_SEPARATOR: &str = "KEY_SEPARATOR";
/// Rule: a string value holds `;` followed by text with a `:`, which reads as another entry.
pub const VALUE_ENTRY_TEXT: &str = "VALUE_ENTRY_TEXT";
/// Rule: an empty key at the top level, which the path join drops.
pub const EMPTY_TOP_LEVEL_KEY: &str = "EMPTY_TOP_LEVEL_KEY";
/// Rule (callbacks): an entry the model does not read directly follows, in the signed
/// order, the text of a field that identifies the payment, which could have held it.
pub const UNREAD_AFTER_TEXT: &str = "UNREAD_AFTER_TEXT";

/// Whether a key holds a separator of the canonical form.
pub fn key_is_ambiguous(key: &str) -> bool {
    key.bytes().any(|b| b == b':' || b == b';')
}

/// Whether a string value holds text that reads as an entry of its own:
/// after some `;`, a `:` before the next `;` or the end. (A `:` anywhere after
/// the first `;` lies in some such piece.)
pub fn text_is_ambiguous(text: &str) -> bool {
    let mut after_semicolon = false;
    for &byte in text.as_bytes() {
        match byte {
            b';' => after_semicolon = true,
            b':' if after_semicolon => return true,
            _ => {}
        }
    }
    false
}

/// The rule a key breaks, if any, at `depth` segments (1 for a top-level key).
#[inline]
pub(crate) fn key_rule(key: &str, depth: usize) -> Option<&'static str> {
    if key_is_ambiguous(key) {
        Some(KEY_SEPARATOR)
    } else if key.is_empty() && depth == 1 {
        Some(EMPTY_TOP_LEVEL_KEY)
    } else {
        None
    }
}

/// The rule a text leaf breaks, if any.
#[inline]
pub(crate) fn text_rule(text: &str) -> Option<&'static str> {
    text_is_ambiguous(text).then_some(VALUE_ENTRY_TEXT)
}
