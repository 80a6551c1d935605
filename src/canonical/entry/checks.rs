//! What a writer does besides writing ([`Mode`]): nothing (`()`), or, in a
//! check-only writer, apply the ambiguity rules (`canonical::ambiguity_rules`; why
//! they are the rules: `canonical::ambiguity`) to each key as it enters it and to
//! each text leaf as it meets it ([`Checks`]), fed by the tree walk or the one-pass
//! reader alike.

use super::leaf::push_index;
use crate::canonical::ambiguity_rules as ambiguity;
use crate::canonical::number;
use crate::error::Ambiguity;
use crate::json::reader::Segment;
use crate::json::Leaf;

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
    /// Records the first `max` places (a check-only writer's).
    pub(super) fn record_at_most(&mut self, max: usize) {
        self.max = max;
    }

    /// Whether the walk found a place.
    pub(super) fn found_any(&self) -> bool {
        !self.found.is_empty()
    }

    /// Whether the walk met a number with no canonical text under the spec's reading.
    pub(super) fn number_without_text(&self) -> bool {
        self.number_without_text
    }

    /// Back at the start of the body, for the second walk (the writer's path
    /// starts empty again).
    pub(super) fn restart(&mut self) {
        (self.entered, self.depth) = (0, 0);
    }

    /// The second walk begins: it words the paths of the places found.
    pub(super) fn start_locating(&mut self) {
        self.locating = true;
        self.locate("");
    }

    /// The places with their paths, in body order, once the second walk is done.
    pub(super) fn into_found(self) -> Vec<Ambiguity> {
        self.found
    }

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
