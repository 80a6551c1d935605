//! The one writer of canonical entries, `path:value`. It is a
//! `json::reader::Sink`: both walkers feed it the same events (a member or item
//! begins and ends, a leaf), the tree walk (`json::tree::replay`, through
//! [`EntryWriter::write_tree`]) and the one-pass text reader (`canonical::text`).
//! Neither holds a rule of its own; this file owns them all:
//!
//! - the leaf text ([`text_of`]): `None` for null and, under `falsy: 'none'`,
//!   for `false`, `""` and any zero; `True`/`False`, `true`/`false` or `1`/`0`
//!   for booleans; numbers as Python or JavaScript writes them (`canonical::number`);
//! - the path join (`:` between segments, none after an empty path) and the
//!   array index digits ([`push_index`]);
//! - the bound on quadratic expansion ([`expansion_limit`]): every entry
//!   repeats the path above its leaf, so the entries can grow quadratically in
//!   the body; they are counted as they are written (and a tree is measured
//!   by the same counts before it is written, [`measure`]), and a body whose
//!   entries would pass the bound is refused;
//! - where the ambiguity rules apply (`canonical::ambiguity_rules`; why they are
//!   the rules: `canonical::ambiguity`): a check-only writer ([`EntryWriter::checks_only`], which writes no entry)
//!   applies them to each key as it enters it and to each text leaf as it
//!   meets it, fed by the tree walk or the one-pass reader alike.

use std::borrow::Cow;
use std::cell::Cell;

use crate::canonical::ambiguity_rules as ambiguity;
use crate::canonical::number;
use crate::canonical::sort::{sort_spans, Key};
use crate::canonical::{Booleans, CanonicalOptions, Falsy, Numbers, Order};
use crate::error::{Ambiguity, Error, Result};
use crate::json::reader::{Segment, Sink};
use crate::json::tree::replay;
use crate::json::{Json, Leaf};

/// The text of a falsy leaf (Python's `str(None)`).
pub(crate) const NONE: &str = "None";

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

/// A leaf's canonical text, or `None` for a number that has none (an integer
/// of more than 4300 digits, a float beyond the `f64` range).
#[inline]
pub(crate) fn text_of<'t>(leaf: Leaf<'t>, options: &CanonicalOptions) -> Option<Cow<'t, str>> {
    // A false, empty or zero leaf is written `None` only under `falsy: 'none'`; null always.
    let falsy_is_none = options.falsy == Falsy::None;
    Some(Cow::Borrowed(match leaf {
        Leaf::Null => NONE,
        Leaf::Bool(false) if falsy_is_none => NONE,
        Leaf::Bool(value) => match (options.booleans, value) {
            (Booleans::Python, true) => "True",
            (Booleans::Python, false) => "False",
            (Booleans::Lower, true) => "true",
            (Booleans::Lower, false) => "false",
            (Booleans::Digit, true) => "1",
            (Booleans::Digit, false) => "0",
        },
        Leaf::String("") if falsy_is_none => NONE,
        Leaf::String(text) => text,
        Leaf::Number(text) => return number_text(text, options),
    }))
}

/// A number leaf's canonical text: kept out of [`text_of`] so that the common
/// leaves (text, null, booleans) stay small enough to inline.
#[inline(never)]
fn number_text<'t>(text: &'t str, options: &CanonicalOptions) -> Option<Cow<'t, str>> {
    let number = match options.numbers {
        Numbers::Python => number::python_number_text(text)?,
        Numbers::Js => number::js_number_text(text)?,
    };
    if number.is_zero && options.falsy == Falsy::None {
        Some(Cow::Borrowed(NONE))
    } else {
        Some(number.text)
    }
}

/// What a key adds to the body's own size.
#[inline]
fn key_size(key: &str) -> u64 {
    key.len() as u64 + 1
}

/// What a leaf at a path of `path_len` bytes adds to (the body's own size, the
/// bound of its entries' bytes): its raw bytes, and its entry with the longest
/// text any variant writes (an integer keeps its digits or fewer, a float's
/// Python repr is at most 24 characters and its JavaScript text at most
/// [`number::JS_NUMBER_MAX_CHARS`]) and a `;` after it.
#[inline]
fn leaf_sizes(leaf: Leaf<'_>, path_len: usize) -> (u64, u64) {
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
fn joined_len(path_len: usize, segment_len: usize) -> usize {
    path_len + usize::from(path_len > 0) + segment_len
}

/// The bound of the entries' bytes, or `CanonicalTooLarge` when it passes
/// [`expansion_limit`] of the body's own size.
fn checked_bound(own: u64, bound: u64) -> Result<u64> {
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

/// The error of a number leaf without canonical text at `path` (segments joined
/// with `:`, as the entries write it; the error names it with `.`).
pub(crate) fn invalid_number(path: &str, leaf: Leaf<'_>) -> Error {
    let text = match leaf {
        Leaf::Number(text) => text,
        _ => "",
    };
    Error::InvalidNumber { path: path.replace(':', "."), text: text.to_owned() }
}

/// Whether the message writes this leaf as the text `None`: a falsy leaf, or the string "None".
pub(crate) fn writes_none(leaf: &Json, falsy: Falsy) -> bool {
    let options = CanonicalOptions { falsy, ..CanonicalOptions::DEFAULT };
    leaf.leaf().and_then(|leaf| text_of(leaf, &options)).is_some_and(|text| text == NONE)
}

/// A leaf's canonical text on its own (for the callback model's free-form
/// values); a container has none.
pub(crate) fn leaf_text(value: &Json, options: &CanonicalOptions) -> Result<String> {
    match value.leaf() {
        None => Ok(String::new()),
        Some(leaf) => text_of(leaf, options).map(Cow::into_owned).ok_or_else(|| invalid_number("", leaf)),
    }
}

/// Appends the decimal digits of an array index, without allocating.
pub(crate) fn push_index(out: &mut String, mut index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (index % 10) as u8;
        index /= 10;
        if index == 0 {
            break;
        }
    }
    for &digit in &digits[at..] {
        out.push(char::from(digit));
    }
}

/// How many digits [`push_index`] writes.
#[inline]
fn index_len(mut index: usize) -> usize {
    let mut len = 1;
    while index >= 10 {
        index /= 10;
        len += 1;
    }
    len
}

/// Every entry of a body written into one buffer, each a byte range of it:
/// one growing allocation instead of one per entry.
#[derive(Default)]
pub(crate) struct Flat {
    pub(crate) text: String,
    pub(crate) spans: Vec<(usize, usize)>,
}

thread_local! {
    /// The buffers of the last entries dropped, for the next body's (a few kilobytes at
    /// most are kept): two allocations less for each message.
    static SPARE: Cell<(String, Vec<(usize, usize)>)> = const { Cell::new((String::new(), Vec::new())) };
}

/// The most bytes of entries (and of spans) whose buffers are kept for the next body.
const SPARE_BYTES: usize = 16 << 10;

impl Flat {
    /// Empty entries, in the buffers of the last ones dropped when they were kept.
    fn reused() -> Flat {
        let (mut text, mut spans) = SPARE.try_with(Cell::take).unwrap_or_default();
        text.clear();
        spans.clear();
        Flat { text, spans }
    }
}

impl Drop for Flat {
    fn drop(&mut self) {
        let spans_bytes = self.spans.capacity().saturating_mul(std::mem::size_of::<(usize, usize)>());
        if self.text.capacity() <= SPARE_BYTES && spans_bytes <= SPARE_BYTES {
            let buffers = (std::mem::take(&mut self.text), std::mem::take(&mut self.spans));
            // (After the thread's storage is gone, they are just freed.)
            let _ = SPARE.try_with(|spare| spare.set(buffers));
        }
    }
}

impl Flat {
    pub(crate) fn sort(&mut self, order: Order) {
        let key = match order {
            // UTF-8 byte order is code point order.
            Order::CodePoint => Key::CodePoint,
            Order::Utf16 => Key::Utf16,
        };
        sort_spans(self.text.as_bytes(), &mut self.spans, key);
    }

    pub(crate) fn entries(&self) -> impl Iterator<Item = &str> {
        self.spans.iter().map(|&(start, end)| &self.text[start..end])
    }

    /// The sorted entries joined with `;`.
    pub(crate) fn joined(&self) -> Result<String> {
        let mut joined = String::new();
        try_room(&mut joined, self.text.len() + self.spans.len())?;
        for (i, entry) in self.entries().enumerate() {
            if i > 0 {
                joined.push(';');
            }
            joined.push_str(entry);
        }
        Ok(joined)
    }
}

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

/// What a writer does: write entries (`()`), or only apply the ambiguity rules ([`Checks`]).
pub(crate) trait Mode: Default {
    /// Whether the writer only applies the rules, and writes no entry.
    const CHECKS: bool;
    /// A member or item begins (`path` is the writer's, free in a check-only writer).
    fn enter(&mut self, _segment: Segment<'_>, _path: &mut String) {}
    /// The member or item ends.
    fn leave(&mut self) {}
    /// A leaf at the current path.
    fn leaf(&mut self, _leaf: Leaf<'_>) {}
}

impl Mode for () {
    const CHECKS: bool = false;
}

/// What the writer needs to apply the ambiguity rules. A place is first
/// recorded with how many members and items had begun when it was found, so
/// that the check builds no path; only when there are places, a second walk of
/// the same events words their paths ([`EntryWriter::located`]): a place's
/// path is the one right after its count began (a key's own member, a text
/// leaf's member or item, or none at the top).
#[derive(Default)]
pub(crate) struct Checks {
    /// The places found, at most `max` (the walk itself goes on), their paths
    /// empty until the second walk.
    found: Vec<Ambiguity>,
    /// For each place found, how many members and items had begun.
    at: Vec<usize>,
    max: usize,
    /// Members and items begun so far.
    entered: usize,
    /// Members and items open.
    depth: usize,
    /// Whether this is the second walk, which words the places' paths.
    locating: bool,
    /// In the second walk: how many places have their paths.
    next: usize,
    /// A number leaf with no canonical text under the spec's reading was met.
    number_without_text: bool,
}

impl Checks {
    /// Notes a number leaf with no canonical text under the spec's reading (out of
    /// line: the reader's leaf stays small).
    #[inline(never)]
    fn note_number(&mut self, text: &str) {
        if !number::is_integer_text(text) || text.len() > number::MAX_INTEGER_DIGITS {
            self.number_without_text |= number::python_number_text(text).is_none();
        }
    }

    #[cold]
    fn report(&mut self, rule: &'static str) {
        if self.found.len() < self.max {
            self.found.push(Ambiguity { path: String::new(), rule });
            self.at.push(self.entered);
        }
    }

    /// In the second walk, words the paths of the places at the current count.
    #[cold]
    fn locate(&mut self, dotted: &str) {
        while let (Some(&at), Some(place)) = (self.at.get(self.next), self.found.get_mut(self.next)) {
            if at != self.entered {
                break;
            }
            place.path = dotted.to_owned();
            self.next += 1;
        }
    }
}

impl EntryWriter<'static, Checks> {
    /// A writer that writes no entry and only applies the ambiguity rules,
    /// recording the first `max` places.
    pub(crate) fn checks_only(max: usize) -> Self {
        let mut writer = Self::blank(&CanonicalOptions::DEFAULT, u64::MAX);
        writer.checks.max = max;
        writer
    }

    /// Whether the walk found a place: then the same walk again, with
    /// [`EntryWriter::located`], words their paths.
    pub(crate) fn found_any(&self) -> bool {
        !self.checks.found.is_empty()
    }

    /// Whether the walk met a number with no canonical text under the spec's
    /// reading (which signing by default refuses).
    pub(crate) fn found_number_without_text(&self) -> bool {
        self.checks.number_without_text
    }

    /// Ready for the second walk, which words the paths of the places found.
    pub(crate) fn locate(&mut self) {
        let checks = &mut self.checks;
        (checks.entered, checks.depth) = (0, 0);
        self.path.clear();
        checks.locating = true;
        checks.locate("");
    }

    /// The places with their paths, in body order, once the second walk is done.
    pub(crate) fn located(self) -> Vec<Ambiguity> {
        self.checks.found
    }
}

impl Mode for Checks {
    const CHECKS: bool = true;

    fn enter(&mut self, segment: Segment<'_>, path: &mut String) {
        self.entered += 1;
        self.depth += 1;
        if self.locating {
            if self.depth > 1 {
                path.push('.');
            }
            match segment {
                Segment::Key(key) => path.push_str(key),
                Segment::Index(index) => push_index(path, index),
            }
            self.locate(path);
        } else if let Segment::Key(key) = segment {
            if let Some(rule) = ambiguity::key_rule(key, self.depth) {
                self.report(rule);
            }
        }
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn leaf(&mut self, leaf: Leaf<'_>) {
        match (self.locating, leaf) {
            (false, Leaf::String(text)) => {
                if let Some(rule) = ambiguity::text_rule(text) {
                    self.report(rule);
                }
            }
            (false, Leaf::Number(text)) => self.note_number(text),
            _ => {}
        }
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
        checked_bound(self.own, self.bound)
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
    fn index_digits() {
        for index in [0, 7, 9, 10, 99, 100, 123_456, usize::MAX] {
            let mut out = String::from("x");
            push_index(&mut out, index);
            assert_eq!(out, format!("x{index}"));
            assert_eq!(index_len(index), out.len() - 1);
        }
    }

    #[test]
    fn leaf_text_in_every_variant() {
        for options in CanonicalOptions::all_variants() {
            let none = options.falsy == Falsy::None;
            let text = |leaf| text_of(leaf, &options).map(Cow::into_owned);
            assert_eq!(text(Leaf::Null).as_deref(), Some(NONE));
            assert_eq!(text(Leaf::String("")).as_deref(), Some(if none { NONE } else { "" }));
            assert_eq!(text(Leaf::Number("-0")).as_deref(), Some(if none { NONE } else { "0" }));
            let js = options.numbers == Numbers::Js;
            assert_eq!(
                text(Leaf::Number("0.0")).as_deref(),
                Some(if none {
                    NONE
                } else if js {
                    "0"
                } else {
                    "0.0"
                })
            );
            assert_eq!(text(Leaf::Number("1.0")).as_deref(), Some(if js { "1" } else { "1.0" }));
            assert_eq!(text(Leaf::Number("1e21")).as_deref(), Some("1e+21"));
            assert_eq!(text(Leaf::Number("1e16")).as_deref(), Some(if js { "10000000000000000" } else { "1e+16" }));
            assert_eq!(text(Leaf::Number("1e400")), None);
            let (t, f) = match options.booleans {
                Booleans::Python => ("True", "False"),
                Booleans::Lower => ("true", "false"),
                Booleans::Digit => ("1", "0"),
            };
            assert_eq!(text(Leaf::Bool(true)).as_deref(), Some(t));
            assert_eq!(text(Leaf::Bool(false)).as_deref(), Some(if none { NONE } else { f }));
        }
    }

    #[test]
    fn writes_none_for_falsy_leaves_and_the_text_none() {
        let none =
            |text: &str, falsy| writes_none(&crate::json::parse_value(text, &Default::default()).unwrap(), falsy);
        for text in ["null", "\"None\"", "\"\"", "0", "-0.0", "false"] {
            assert!(none(text, Falsy::None), "{text}");
        }
        for text in ["\"\"", "0", "false", "true", "1", "\"x\"", "1e400", "{}", "[]"] {
            assert!(!none(text, Falsy::Null), "{text}");
        }
        assert!(none("null", Falsy::Null) && none("\"None\"", Falsy::Null));
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
