//! Where the spec's signed message stops pinning the body down.
//!
//! The message joins `path:value` entries with `;`. Keys may hold `:` and `;`,
//! and values may hold both, so one joined text can be split back into entries
//! in several ways, and different bodies share one signature. A body is
//! *ambiguous* when it has either of:
//!
//! - an object key, at any depth, that contains `:` or `;` ([`KEY_SEPARATOR`]);
//! - an empty key at the top level ([`EMPTY_TOP_LEVEL_KEY`]): the spec's path
//!   join writes no `:` after an empty path, so `{"": {"a": 1}}` writes the
//!   entries of `{"a": 1}`;
//! - a string value with text after a `;` that holds a `:` before the next `;`
//!   or the end of the value ([`VALUE_ENTRY_TEXT`]): that text reads as an entry
//!   of its own.
//!
//! A callback has one more rule, because its genuine form may itself be
//! ambiguous: a `payment_id` the service signed, `"cust-7;general:q:1"`, is
//! refused, but its rewrite with the value cut at the `;` and `general.q`
//! added is not ambiguous by the rules above, and names another payment. The
//! entries of such a rewrite come directly after the cut value in the signed
//! order, so a callback is also refused when an entry its model does not read
//! directly follows the text of a field that identifies the payment
//! ([`UNREAD_AFTER_TEXT`], [`unread_after_text`]). Elsewhere a cut only
//! shortens text its sender chose, and what it adds is not read.
//!
//! A `;` followed by plain text (`Declined by issuer; code 05`, `?a=1;b=2`)
//! cannot be read as another entry and is not ambiguous.
//!
//! Why this is enough, for bodies without either: every entry then contains a
//! `:` (between its path and value) in the piece before its first `;`, and every
//! later piece of a value contains none. Splitting the joined text at `;` and
//! starting a new entry exactly at the pieces that hold a `:` gives back the
//! body's entries, whatever body it was. So two unambiguous bodies with the
//! same message have the same entries; the callback model reads each of its
//! fields from the one entry at that field's path (`callback_model`), and so
//! reads the same model from both. README ("Why a verified callback means what
//! it says") gives the whole argument; `tests/binding.rs` tests it.
//!
//! The rules themselves are in `canonical::ambiguity_rules` ([`key_is_ambiguous`],
//! [`text_is_ambiguous`]; which rule a key or a text breaks: `key_rule`,
//! `text_rule`), re-exported here; this file finds where a body breaks them. The entry writer (`canonical::entry`) applies them, as it
//! enters keys and meets text leaves: [`find`] feeds a check-only writer (one
//! that writes no entry) the tree walk's events, for every caller alike
//! (callback verification, validation's `AMBIGUOUS_KEY`/`AMBIGUOUS_TEXT`,
//! strict signing), and the one-pass reader's events are the same
//! (`canonical::entry` tests both). [`unread_after_text`] writes the entries
//! with the entry writer too, so its order is the signed order.

pub(crate) use crate::canonical::ambiguity_rules::{KEY_SEPARATOR, UNREAD_AFTER_TEXT};
use crate::canonical::entry::EntryWriter;
use crate::canonical::CanonicalOptions;
pub use crate::error::Ambiguity;
use crate::error::{Error, Result};
pub(crate) use crate::json::reader::Segment;
use crate::json::tree::replay;
use crate::json::Json;

/// At most this many places are reported; the check itself looks at the whole body.
const MAX_REPORTED: usize = 16;

/// The places (at most 16, in body order) where the body is ambiguous; empty when it is not.
pub fn ambiguities(body: &Json) -> Vec<Ambiguity> {
    find(body, MAX_REPORTED)
}

/// The first `max` places where the body is ambiguous, in body order: the
/// tree walk feeds a check-only entry writer, which applies the rules.
pub(crate) fn find(body: &Json, max: usize) -> Vec<Ambiguity> {
    find_noting_numbers(body, max).0
}

/// [`find`], and whether the same walk met a number with no canonical text
/// under the spec's reading.
pub(crate) fn find_noting_numbers(body: &Json, max: usize) -> (Vec<Ambiguity>, bool) {
    let mut writer = EntryWriter::checks_only(max);
    // A check-only writer never stops the walk.
    let _ = replay(body, &mut writer);
    let numbers = writer.found_number_without_text();
    if writer.found_any() {
        writer.locate();
        let _ = replay(body, &mut writer);
    }
    (writer.located(), numbers)
}

/// For `strict` signing: refuses a request body whose signed message would not
/// determine it (`AMBIGUOUS_REQUEST`).
pub fn refuse_ambiguous_request(body: &Json) -> Result<()> {
    let found = ambiguities(body);
    if found.is_empty() {
        Ok(())
    } else {
        Err(Error::AmbiguousRequest { ambiguities: found })
    }
}

/// A test of a path, e.g. whether the callback model reads it.
pub(crate) type PathTest = fn(&[Segment<'_>]) -> bool;

/// A leaf's entry in the signed message (a span of one buffer that starts with its
/// path), with what [`unread_after_text`] needs.
struct Leaf {
    span: (usize, usize),
    /// How many segments its path has.
    depth: usize,
    /// A text value at a guarded path.
    guarded_text: bool,
    read: bool,
}

/// For a body read by a model that reads exactly the paths `reads` accepts: the
/// unread entries that directly follow, in the signed order of `options`, the
/// text value of a path `guards` accepts (at most 16). Run on a body free of
/// the other rules.
pub(crate) fn unread_after_text(
    body: &Json,
    options: &CanonicalOptions,
    reads: PathTest,
    guards: PathTest,
) -> Result<Vec<Ambiguity>> {
    let mut leaves = Vec::new();
    // Without the other rules (no empty top-level key), these are the body's canonical entries.
    let mut writer = EntryWriter::new(options, u64::MAX);
    collect(body, &mut Vec::new(), (reads, guards), &mut writer, &mut leaves)?;
    let mut flat = writer.into_flat();
    // The signed order, by the canonical form's own sort; spans start in collection order.
    flat.sort(options.order);
    let (entries, spans) = (&flat.text, &flat.spans);
    let leaf_at =
        |span: &(usize, usize)| leaves.binary_search_by_key(&span.0, |leaf| leaf.span.0).ok().map(|i| &leaves[i]);
    let mut found = Vec::new();
    for pair in spans.windows(2) {
        if let (Some(before), Some(after)) = (leaf_at(&pair[0]), leaf_at(&pair[1])) {
            if before.guarded_text && !after.read && found.len() < MAX_REPORTED {
                // The entry's first `depth` `:`-fields are its path (no key holds `:`).
                let entry = &entries[after.span.0..after.span.1];
                let path: Vec<&str> = entry.split(':').take(after.depth).collect();
                found.push(Ambiguity { path: path.join("."), rule: UNREAD_AFTER_TEXT });
            }
        }
    }
    Ok(found)
}

fn collect<'a>(
    value: &'a Json,
    path: &mut Vec<Segment<'a>>,
    paths: (PathTest, PathTest),
    writer: &mut EntryWriter<'_>,
    out: &mut Vec<Leaf>,
) -> Result<()> {
    let descend = |segment, child, path: &mut Vec<Segment<'a>>, writer: &mut EntryWriter<'_>, out: &mut Vec<Leaf>| {
        path.push(segment);
        let mark = writer.push_segment(segment);
        let result = collect(child, path, paths, writer, out);
        writer.pop_segment(mark);
        path.pop();
        result
    };
    match value {
        Json::Object(members) => {
            for (key, child) in members {
                descend(Segment::Key(key), child, path, writer, out)?;
            }
        }
        Json::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                descend(Segment::Index(index), child, path, writer, out)?;
            }
        }
        leaf => {
            if let Some(written) = leaf.leaf() {
                writer.write_leaf(written)?;
            }
            if let Some(span) = writer.last_span() {
                let (reads, guards) = paths;
                let guarded_text = matches!(leaf, Json::String(_)) && guards(path);
                out.push(Leaf { span, depth: path.len(), guarded_text, read: reads(path) });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::ambiguity_rules::{text_is_ambiguous, EMPTY_TOP_LEVEL_KEY, VALUE_ENTRY_TEXT};
    use crate::json::{parse_body, Limits};

    fn found(text: &str) -> Vec<(String, &'static str)> {
        ambiguities(&parse_body(text, &Limits::default()).unwrap()).into_iter().map(|a| (a.path, a.rule)).collect()
    }

    #[test]
    fn plain_semicolons_are_not_ambiguous() {
        for text in [
            "Declined by issuer; code 05",
            "https://shop.example/back?a=1;b=2",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
            "a;",
            ";",
            "https://shop.example:8443/x",
            "12:30",
        ] {
            assert!(!text_is_ambiguous(text), "{text}");
        }
    }

    #[test]
    fn text_that_reads_as_an_entry_is_ambiguous() {
        // The user agent above has a `:` after its last `;`: "rv:109.0) …" reads as an entry.
        assert!(text_is_ambiguous("Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko"));
        for text in ["x;status:status:success", ";a:b", "a;b;c:d", "a;:"] {
            assert!(text_is_ambiguous(text), "{text}");
        }
    }

    #[test]
    fn keys_with_separators_are_ambiguous_at_any_depth() {
        assert_eq!(
            found(r#"{"status:status":"success","a":[{"b;c":1}],"ok":{"d":"e"}}"#),
            vec![("status:status".to_owned(), KEY_SEPARATOR), ("a.0.b;c".to_owned(), KEY_SEPARATOR)]
        );
    }

    #[test]
    fn values_are_found_with_their_paths() {
        let body =
            r#"{"integration":{"redirect_url":"https://x/?q=1;status:status:success"},"d":["fine; text","x;y:z"]}"#;
        assert_eq!(
            found(body),
            vec![("integration.redirect_url".to_owned(), VALUE_ENTRY_TEXT), ("d.1".to_owned(), VALUE_ENTRY_TEXT)]
        );
        assert!(found(r#"{"a":{"b":"c:d","e":["f;g"]},"n":null,"z":0}"#).is_empty());
    }

    #[test]
    fn an_empty_top_level_key_is_ambiguous_and_a_deeper_one_is_not() {
        assert_eq!(found(r#"{"":{"payment_info":{"amount":1}}}"#), vec![(String::new(), EMPTY_TOP_LEVEL_KEY)]);
        assert!(found(r#"{"a":{"":"x"}}"#).is_empty());
    }

    #[test]
    fn unread_entries_after_text_are_found_in_signed_order() {
        // Reads `a`, `c` and `e`, guards `a` and `c`: `b` sorts right after the text at `a`;
        // `d` after the number at `c`; `f` after the text at `e`, which is not guarded.
        fn reads(path: &[Segment<'_>]) -> bool {
            matches!(path, [Segment::Key("a" | "c" | "e")])
        }
        fn guards(path: &[Segment<'_>]) -> bool {
            matches!(path, [Segment::Key("a" | "c")])
        }
        let body = parse_body(r#"{"f":"y","e":"x","d":1,"c":2,"b":"x","a":"cust-7"}"#, &Limits::default()).unwrap();
        let found = unread_after_text(&body, &CanonicalOptions::DEFAULT, reads, guards).unwrap();
        assert_eq!(found, vec![Ambiguity { path: "b".into(), rule: UNREAD_AFTER_TEXT }]);
        let body = parse_body(r#"{"f":"y","e":"x","d":1,"c":2,"a":"cust-7"}"#, &Limits::default()).unwrap();
        assert!(unread_after_text(&body, &CanonicalOptions::DEFAULT, reads, guards).unwrap().is_empty());
    }

    #[test]
    fn reports_are_capped_but_the_check_is_not() {
        let members: Vec<String> = (0..40).map(|i| format!(r#""k{i}":"x;y:z""#)).collect();
        let body = format!("{{{}}}", members.join(","));
        assert_eq!(found(&body).len(), MAX_REPORTED);
    }
}
