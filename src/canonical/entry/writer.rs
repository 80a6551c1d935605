//! [`EntryWriter`], the one writer of canonical entries, `path:value`, and a
//! `json::reader::Sink`: both walkers feed it the same events (a member or item
//! begins and ends, a leaf), the tree walk (`json::tree::replay`, through
//! [`EntryWriter::write_tree`]) and the one-pass text reader (`canonical::text`).
//! It joins the path (`:` between segments, none after an empty path), writes
//! each leaf's entry with the leaf's text (`leaf.rs`), counts the entries against
//! their bound (`bound.rs`) and stops the walk past it; a check-only writer
//! ([`EntryWriter::checks_only`]) writes nothing and applies the ambiguity rules
//! (`checks.rs`).

use super::bound::{self, expansion_limit, joined_len, key_size, leaf_sizes, try_room};
use super::bound::{CANONICAL_SLACK_BYTES, MAX_CANONICAL_BYTES};
use super::checks::{Checks, Mode};
use super::flat::Flat;
use super::leaf::{invalid_number, push_index, text_of};
use crate::canonical::CanonicalOptions;
use crate::error::{Ambiguity, Error, Result};
use crate::json::reader::{Segment, Sink};
use crate::json::tree::replay;
use crate::json::{Json, Leaf};

/// Writes the entries of one body, counting their size as it goes; or, with
/// [`Checks`] (a check-only writer, [`EntryWriter::checks_only`]), writes nothing
/// and applies the ambiguity rules where it would write: to each key as it
/// enters it, to each text leaf.
pub(crate) struct EntryWriter<'o, M: Mode = ()> {
    options: &'o CanonicalOptions,
    /// The path of the value being written, its segments joined with `:`.
    path: String,
    flat: Flat,
    /// Bytes of the body's own keys and leaves so far.
    own: u64,
    /// An upper bound of the entries' bytes so far, separators included.
    bound: u64,
    /// Entries are written while `bound` stays within this; past it, only counted.
    write_until: u64,
    /// The one-pass reader's writer ([`EntryWriter::for_text`]): the walk also stops
    /// once the entries pass [`expansion_limit`] of the body's own bytes read so far.
    stop_past_running_limit: bool,
    /// Why the writer stopped a walk, when an entry could not be written.
    error: Option<Error>,
    /// The ambiguity rules, in a check-only writer (nothing otherwise).
    checks: M,
}

impl EntryWriter<'static, Checks> {
    /// A writer that writes no entry and only applies the ambiguity rules,
    /// recording the first `max` places.
    pub(crate) fn checks_only(max: usize) -> Self {
        let mut writer = Self::blank(&CanonicalOptions::DEFAULT, u64::MAX);
        writer.checks.record_at_most(max);
        writer
    }

    /// Whether the walk found a place: then the same walk again, with
    /// [`EntryWriter::located`], words their paths.
    pub(crate) fn found_any(&self) -> bool {
        self.checks.found_any()
    }

    /// Whether the walk met a number with no canonical text under the spec's
    /// reading (which signing by default refuses).
    pub(crate) fn found_number_without_text(&self) -> bool {
        self.checks.number_without_text()
    }

    /// Ready for the second walk, which words the paths of the places found.
    pub(crate) fn locate(&mut self) {
        self.checks.restart();
        self.path.clear();
        self.checks.start_locating();
    }

    /// The places with their paths, in body order, once the second walk is done.
    pub(crate) fn located(self) -> Vec<Ambiguity> {
        self.checks.into_found()
    }
}

impl<'o> EntryWriter<'o> {
    /// A writer that writes entries while their bound stays within `write_until`.
    pub(crate) fn new(options: &'o CanonicalOptions, write_until: u64) -> Self {
        Self::blank(options, write_until)
    }

    /// The one-pass reader's writer for `text_len` bytes of text. Its walk stops (and
    /// the reader gives up, for the tree path to decide) past the bound the whole text
    /// could allow, whose own bytes are at most twice the text, and also as soon as the
    /// entries so far pass [`expansion_limit`] of the own bytes so far. Entries within
    /// the slack never do, and the service's bodies stay far below the proportional
    /// bound; a body that passes it early (many deep leaves) is usually refused by the
    /// tree path's measure, and the reader no longer writes the rest of its entries
    /// first. One that a later long leaf brings back within the bound is still read,
    /// by the tree path.
    pub(crate) fn for_text(options: &'o CanonicalOptions, text_len: usize) -> Self {
        let mut writer = Self::blank(options, expansion_limit(2 * text_len as u64 + 2));
        writer.stop_past_running_limit = true;
        writer
    }
}

impl<'o, M: Mode> EntryWriter<'o, M> {
    fn blank(options: &'o CanonicalOptions, write_until: u64) -> Self {
        EntryWriter {
            options,
            path: String::with_capacity(64),
            flat: Flat::reused(),
            own: 0,
            bound: 0,
            write_until,
            stop_past_running_limit: false,
            error: None,
            checks: M::default(),
        }
    }

    /// Reserves room ahead for `text` bytes of entries and `spans` entries.
    pub(crate) fn reserve(&mut self, text: usize, spans: usize) -> Result<()> {
        try_room(&mut self.flat.text, text)?;
        self.flat.spans.try_reserve(spans).map_err(|_| Error::CanonicalTooLarge {
            limit: MAX_CANONICAL_BYTES,
            actual: spans.saturating_mul(std::mem::size_of::<(usize, usize)>()) as u64,
        })
    }

    /// A member or item begins: its segment joins the path. Returns the mark
    /// to give [`EntryWriter::pop_segment`] when it ends.
    #[inline(always)]
    pub(crate) fn push_segment(&mut self, segment: Segment<'_>) -> usize {
        let mark = self.path.len();
        if M::CHECKS {
            self.checks.enter(segment, &mut self.path);
            return mark;
        }
        if joined_len(mark, 0) > mark {
            self.path.push(':');
        }
        match segment {
            Segment::Key(key) => {
                self.own = self.own.saturating_add(key_size(key));
                self.path.push_str(key);
            }
            Segment::Index(index) => push_index(&mut self.path, index),
        }
        mark
    }

    #[inline]
    pub(crate) fn pop_segment(&mut self, mark: usize) {
        if M::CHECKS {
            self.checks.leave();
        }
        self.path.truncate(mark);
    }

    /// The entry of a leaf at the current path (only counted once past `write_until`).
    pub(crate) fn write_leaf(&mut self, leaf: Leaf<'_>) -> Result<()> {
        match self.try_leaf(leaf) {
            Some(()) => Ok(()),
            None => Err(self.leaf_error(leaf)),
        }
    }

    /// [`EntryWriter::write_leaf`] on the hot path: `None` when the entry cannot
    /// be written ([`EntryWriter::leaf_error`] says why).
    #[inline(always)]
    fn try_leaf(&mut self, leaf: Leaf<'_>) -> Option<()> {
        if M::CHECKS {
            self.checks.leaf(leaf);
            return Some(());
        }
        let (own, bound) = leaf_sizes(leaf, self.path.len());
        self.own = self.own.saturating_add(own);
        self.bound = self.bound.saturating_add(bound);
        if self.over() {
            return Some(());
        }
        let text = text_of(leaf, self.options)?;
        let out = &mut self.flat.text;
        let needed = self.path.len() + 1 + text.len();
        // Usually reserved ahead; growing past that is fallible too.
        if out.capacity() - out.len() < needed {
            out.try_reserve(needed).ok()?;
        }
        let start = out.len();
        out.push_str(&self.path);
        out.push(':');
        out.push_str(&text);
        self.flat.spans.push((start, out.len()));
        Some(())
    }

    /// Why [`EntryWriter::try_leaf`] could not write this leaf's entry: a number
    /// without canonical text, or no memory for the entry.
    #[cold]
    fn leaf_error(&self, leaf: Leaf<'_>) -> Error {
        match text_of(leaf, self.options) {
            None => invalid_number(&self.path, leaf),
            Some(text) => Error::CanonicalTooLarge {
                limit: MAX_CANONICAL_BYTES,
                actual: (self.flat.text.len() + self.path.len() + 1 + text.len()) as u64,
            },
        }
    }

    /// Whether the bound has passed `write_until` (entries are no longer written).
    #[inline]
    pub(crate) fn over(&self) -> bool {
        self.bound > self.write_until
    }

    /// Whether a writer of [`EntryWriter::for_text`] has entries past
    /// [`expansion_limit`] of the own bytes read so far.
    #[inline]
    fn past_running_limit(&self) -> bool {
        self.stop_past_running_limit && self.bound > CANONICAL_SLACK_BYTES && self.bound > expansion_limit(self.own)
    }

    /// The last entry written, as a span of [`EntryWriter::into_flat`]'s text.
    pub(crate) fn last_span(&self) -> Option<(usize, usize)> {
        self.flat.spans.last().copied()
    }

    /// The bound of every entry's bytes, or `CanonicalTooLarge` when it passes
    /// [`expansion_limit`] of the body's own size.
    pub(crate) fn checked_bound(&self) -> Result<u64> {
        bound::checked_bound(self.own, self.bound)
    }

    pub(crate) fn into_flat(self) -> Flat {
        self.flat
    }

    /// Writes the entries of a tree (the tree walk, `json::tree::replay`).
    pub(crate) fn write_tree(&mut self, body: &Json) -> Result<()> {
        match replay(body, self) {
            Some(()) => Ok(()),
            // Only a leaf stops the walk: with its error, or past `write_until`.
            None => Err(self
                .error
                .take()
                .unwrap_or(Error::CanonicalTooLarge { limit: self.write_until, actual: self.bound })),
        }
    }
}

/// The writer as a sink of both walkers, the one-pass text reader and the
/// tree walk: it stops the walk at the first entry it cannot write (a number
/// without canonical text, the bound past `write_until`).
impl<M: Mode> Sink for EntryWriter<'_, M> {
    type Mark = usize;

    #[inline]
    fn open(&mut self, _array: bool) -> Option<()> {
        Some(())
    }

    #[inline]
    fn enter(&mut self, segment: Segment<'_>) -> Option<usize> {
        Some(self.push_segment(segment))
    }

    #[inline]
    fn leave(&mut self, mark: usize) {
        self.pop_segment(mark);
    }

    #[inline]
    fn close(&mut self) -> Option<()> {
        Some(())
    }

    #[inline]
    fn leaf(&mut self, leaf: Leaf<'_>) -> Option<()> {
        if self.try_leaf(leaf).is_none() {
            self.error = Some(self.leaf_error(leaf));
            return None;
        }
        (!self.over() && !self.past_running_limit()).then_some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::entry::bound::measure;

    /// The one-pass writer stops once its entries pass [`expansion_limit`] of the own
    /// bytes read so far. Many leaves 60 levels deep (a hostile shape, refused by the
    /// tree path's measure) are given up within about the slack, not after writing
    /// entries up to the whole text's bound; a body that a later long leaf brings back
    /// within the bound is given up too, and `message_of_text` writes it by the tree.
    #[test]
    fn the_text_writer_stops_past_the_running_bound() {
        use crate::canonical::{canonical_message, message_of_text};
        use crate::json::{parse_body, reader, Limits};
        let options = CanonicalOptions::DEFAULT;
        let limits = Limits::default();
        let deep = |tail: &str| {
            format!(r#"{}[{}"x"]{}{tail}}}"#, r#"{"a":"#.repeat(60), r#""x","#.repeat(3_000), "}".repeat(59))
        };
        let full = |text: &str| parse_body(text, &limits).and_then(|body| canonical_message(&body, "17", &options));
        let written_before_giving_up = |text: &str| {
            let mut writer = EntryWriter::for_text(&options, text.len());
            assert!(reader::read(text, &limits, &mut writer).is_none(), "the reader went on");
            (writer.bound, writer.flat.text.len() as u64)
        };

        let hostile = deep("");
        assert!(matches!(full(&hostile), Err(Error::CanonicalTooLarge { .. })));
        let (bound, written) = written_before_giving_up(&hostile);
        // Its entries come to about 380 KB; the whole text's bound would let 16 times 2x its size.
        assert!(bound < 2 * CANONICAL_SLACK_BYTES && written < 2 * CANONICAL_SLACK_BYTES, "{bound} {written}");

        let honest = deep(&format!(r#","z":"{}""#, "y".repeat(40_000)));
        let message = full(&honest).expect("within the bound of the whole body");
        let (bound, _) = written_before_giving_up(&honest);
        assert!(bound < 2 * CANONICAL_SLACK_BYTES, "{bound}");
        assert_eq!(message_of_text(&honest, "17", &options, &limits).ok(), Some(message));
    }

    #[test]
    fn measuring_counts_what_the_writer_counts() {
        for text in [r#"{"a":[1,"x",null,2.5],"b":{"c":true,"":{"d":[[0]]}},"":"e"}"#, "{}", r#"{"a":[]}"#] {
            let body = crate::json::parse_body(text, &Default::default()).unwrap();
            let options = CanonicalOptions::DEFAULT;
            let mut writer = EntryWriter::new(&options, u64::MAX);
            writer.write_tree(&body).unwrap();
            assert_eq!(measure(&body).unwrap(), writer.bound, "{text}");
            assert_eq!(writer.checked_bound().unwrap(), writer.bound, "{text}");
        }
        let body = crate::json::parse_body(r#"{"a":[1,"x",null],"b":{"c":true}}"#, &Default::default()).unwrap();
        let options = CanonicalOptions::DEFAULT;
        let mut writer = EntryWriter::new(&options, u64::MAX);
        writer.write_tree(&body).unwrap();
        let flat = writer.into_flat();
        assert_eq!(flat.entries().collect::<Vec<_>>(), ["a:0:1", "a:1:x", "a:2:None", "b:c:True"]);
    }

    /// The places a check-only writer finds, with their paths, from either walker.
    fn places(text: &str, from_text: bool) -> Vec<(String, &'static str)> {
        let limits = crate::json::Limits::default();
        let body = crate::json::parse_value(text, &limits).unwrap();
        let mut writer = EntryWriter::checks_only(16);
        let walk = |writer: &mut EntryWriter<'static, Checks>| {
            if from_text {
                crate::json::reader::read(text, &limits, writer).unwrap();
            } else {
                replay(&body, writer).unwrap();
            }
        };
        walk(&mut writer);
        if writer.found_any() {
            writer.locate();
            walk(&mut writer);
        }
        writer.located().into_iter().map(|a| (a.path, a.rule)).collect()
    }

    #[test]
    fn a_check_only_writer_applies_the_rules_alike_from_text_and_tree() {
        use crate::canonical::ambiguity_rules::{
            EMPTY_TOP_LEVEL_KEY as EMPTY, KEY_SEPARATOR as KEY, VALUE_ENTRY_TEXT as TEXT,
        };
        let cases: &[(&str, &[(&str, &str)])] = &[
            (r#"{"a":1,"b":[true,null,"x;y"],"c":{"d":"e:f"}}"#, &[]),
            (r#"{"a;b":"x;y:z"}"#, &[("a;b", KEY), ("a;b", TEXT)]),
            (r#"{"":{"a:b":1,"":"x"}}"#, &[("", EMPTY), (".a:b", KEY)]),
            (r#"{"":{"":{"c;":[0]}}}"#, &[("", EMPTY), ("..c;", KEY)]),
            (
                r#"{"a":[{"b":"x;y:z"},"c;d:e",[["f;g:h"]]],"k:":{}}"#,
                &[("a.0.b", TEXT), ("a.1", TEXT), ("a.2.0.0", TEXT), ("k:", KEY)],
            ),
            (r#""x;y:z""#, &[("", TEXT)]),
            (r#"["x;y:z",{"a:":1}]"#, &[("0", TEXT), ("1.a:", KEY)]),
        ];
        for &(text, expected) in cases {
            let expected: Vec<(String, &str)> = expected.iter().map(|&(p, r)| (p.to_owned(), r)).collect();
            assert_eq!(places(text, false), expected, "tree: {text}");
            assert_eq!(places(text, true), expected, "text: {text}");
        }
    }

    #[test]
    fn a_check_only_writer_writes_no_entry_and_caps_what_it_records() {
        let body = crate::json::parse_body(r#"{"a:":"x;y:z","b":[1,"x;y:z"],"c;":2}"#, &Default::default()).unwrap();
        let mut writer = EntryWriter::checks_only(2);
        replay(&body, &mut writer).unwrap();
        writer.locate();
        replay(&body, &mut writer).unwrap();
        assert!(writer.flat.text.is_empty() && writer.flat.spans.is_empty());
        let found: Vec<_> = writer.located().into_iter().map(|a| a.path).collect();
        assert_eq!(found, ["a:", "a:"]);
    }
}
