//! The one walk of the field checks: a [`Sink`] of the JSON reader's events,
//! fed by the one-pass reader straight from the body's text (no tree is built),
//! or by a tree's replay (`json::tree::replay`) when the body is a tree; both
//! give the same events, so both give the same report. It keeps the path of
//! the value being read, and a frame per open object or array saying what its
//! members are checked against (`fields::Contents`): a schema, the Limits
//! table only, or nothing. The checks themselves are `fields`' (a schema's
//! fields, `operations`) and `limits`' (the table).
//!
//! A schema object reports its unknown members first, in their order, then its
//! fields in the schema's order; read in one pass, the issues are found in the
//! body's order, so each is given its place ([`Findings::order`]) and the report
//! is put in that order at the end.
//!
//! Read from text, the walk also keeps the members the cross-field rules read
//! (`cross_field::READS`), as a small tree of only them, to run those rules on.

use super::cross_field;
use super::cross_field::Members;
use super::fields::{check_absent, check_field, warn_unknown, Contents};
use super::operations::Field;
use super::rules::Value;
use super::{limits, Findings};
use crate::canonical::entry::{push_index, EntryWriter};
use crate::json::reader::{read, starts_object, Segment, Sink, Tee};
use crate::json::tree::{number_as_serde_writes_it, replay};
use crate::json::{Json, Leaf, Limits};
use crate::spec::limits::field_limit;
use crate::spec::operations::Operation;

/// Checks a body (an object) against `schema` (`None`: the Limits table only);
/// with the members the cross-field rules read, when `keeping`.
pub(super) fn check_tree(
    schema: Option<&'static [Field]>,
    keeping: bool,
    body: &Json,
    findings: &mut Findings,
) -> Members {
    let mut walk = Walk::new(schema, findings, keeping);
    // The walk never stops a replay.
    let _ = replay(body, &mut walk);
    walk.read
}

/// The Limits table's checks of a body, as for an operation whose body the spec does not show.
#[cfg(test)]
pub(super) fn check_limits_only(body: &Json, findings: &mut Findings) {
    check_tree(None, false, body, findings);
}

/// The field and cross-field checks of `operation` on a body given as text, read
/// once without a tree, into `findings`; with what the canonical check-only writer
/// found in the same reading. `None` when the text is not read here: not plain
/// JSON text of an object within the default limits (the tree path reports why),
/// or a body where the check-only writer found something (ambiguous, or a number
/// with no canonical text), which the tree path locates. `findings` is then to
/// be dropped.
pub(super) fn check_text(operation: Operation, text: &str, findings: &mut Findings) -> Option<()> {
    if !starts_object(text) {
        return None;
    }
    let mut checks = EntryWriter::checks_only(usize::MAX);
    let keeping = cross_field::has_rules(operation);
    let mut walk = Walk::new(operation.schema(), findings, keeping);
    read(text, &Limits::default(), &mut Tee(&mut walk, &mut checks))?;
    if checks.found_any() || checks.found_number_without_text() {
        return None;
    }
    if keeping {
        let read = std::mem::take(&mut walk.read);
        cross_field::check_operation(operation, &read, walk.findings);
    }
    Some(())
}

/// What the members or items of an open container are checked against.
#[derive(Clone, Copy)]
enum Frame {
    /// An object's fields (`level` 0 for the body, 1 for an object field of
    /// it...): the fields met so far, and how many members.
    Schema { fields: &'static [Field], name: Option<&'static str>, level: u32, met: u64, members: usize, likely: usize },
    /// The Limits table; the name its members' rows are found under.
    Limits(Option<&'static str>),
    /// Nothing.
    Skip,
}

/// What the value that comes next is.
#[derive(Clone, Copy)]
enum Next {
    /// The body, an object of `Contents`.
    Body(Contents),
    /// The value of a schema field, a member of the object named `parent`.
    Field { field: &'static Field, parent: Option<&'static str> },
    /// A value held to the Limits table: its row (if any), and the name of its members' rows.
    Limited { limit: Option<&'static crate::spec::limits::FieldLimit>, children: Option<&'static str> },
    /// Not checked.
    Skip,
}

struct Walk<'f> {
    findings: &'f mut Findings,
    /// The path of the value being read, its segments joined with `.`.
    path: String,
    frames: Vec<Frame>,
    next: Next,
    /// Whether to keep what the cross-field rules read (in `read`).
    keeping: bool,
    /// The place in `read` of the value that comes next, if the rules read it.
    keep: Option<usize>,
    /// The section of the body being read, if the rules read members of it.
    section: Option<(usize, &'static [&'static str])>,
    read: Members,
}

/// Bits of an order key per schema level: a phase bit (unknown members 0, fields
/// 1), then the member's or the field's index.
const LEVEL_BITS: u32 = 32;
const FIELD_PHASE: u64 = 1 << (LEVEL_BITS - 1);
/// Schema objects nest at most this deep (the body, an object field of it).
const LEVELS: u32 = 2;

impl<'f> Walk<'f> {
    fn new(schema: Option<&'static [Field]>, findings: &'f mut Findings, keeping: bool) -> Self {
        let contents = match schema {
            Some(fields) => Contents::Schema(fields, None),
            None => Contents::Limits(None),
        };
        Walk {
            findings,
            path: String::with_capacity(64),
            frames: Vec::with_capacity(8),
            next: Next::Body(contents),
            keeping,
            keep: None,
            section: None,
            read: Members::with_room(keeping),
        }
    }

    /// Issues found from now on go at `index` (with its phase) of the object at
    /// `level`: after what the outer levels' keys put before them.
    fn place(&mut self, level: u32, index: u64) {
        if level >= LEVELS {
            return;
        }
        let shift = LEVEL_BITS * (LEVELS - 1 - level);
        let outer = match level {
            0 => 0,
            _ => self.findings.order >> (shift + LEVEL_BITS) << (shift + LEVEL_BITS),
        };
        self.findings.order = outer | (index << shift);
    }

    /// The frame of a container whose members are checked against `contents`.
    fn frame(&self, contents: Contents) -> Frame {
        match contents {
            Contents::Schema(fields, name) => {
                // A schema object is the body or a member of one.
                let level = match self.frames.last() {
                    Some(Frame::Schema { level, .. }) => level + 1,
                    _ => 0,
                };
                Frame::Schema { fields, name, level, met: 0, members: 0, likely: 0 }
            }
            Contents::Limits(name) => Frame::Limits(name),
            Contents::Skip => Frame::Skip,
        }
    }

    /// Keeps a value of a member the cross-field rules read, when one comes next.
    fn keep(&mut self, value: Value<'_>) {
        if let Some(place) = self.keep.take() {
            self.read.keep(place, value);
        }
    }
}

impl Sink for Walk<'_> {
    /// The length of the path before the member's or item's segment.
    type Mark = usize;

    fn open(&mut self, array: bool) -> Option<()> {
        let contents = match std::mem::replace(&mut self.next, Next::Skip) {
            Next::Body(contents) if !array => contents,
            Next::Body(_) | Next::Skip => Contents::Skip,
            Next::Field { field, parent } => {
                check_field(field, parent, Value::Container(array), &self.path, self.findings)
            }
            Next::Limited { children, .. } => Contents::Limits(children),
        };
        if self.keeping {
            self.keep(Value::Container(array));
            // The sections the rules read are object fields of the body's schema.
            if self.frames.len() == 1 {
                self.section = match contents {
                    Contents::Schema(_, Some(name)) => Members::section(name),
                    _ => None,
                };
            }
        }
        let frame = self.frame(contents);
        self.frames.push(frame);
        Some(())
    }

    fn enter(&mut self, segment: Segment<'_>) -> Option<usize> {
        let restore = self.path.len();
        if restore > 0 {
            self.path.push('.');
        }
        match segment {
            Segment::Key(key) => self.path.push_str(key),
            Segment::Index(index) => push_index(&mut self.path, index),
        }
        // A member held to the Limits table: the name of its object.
        let mut limited = None;
        self.next = match (self.frames.last_mut(), segment) {
            (Some(Frame::Schema { fields, name, level, met, members, likely }), Segment::Key(key)) => {
                let (fields, name, level, member) = (*fields, *name, *level, *members);
                *members += 1;
                let field = Field::find(fields, key, *likely).filter(|&index| index < 64);
                let first = field.is_some_and(|index| *met & (1 << index) == 0);
                if let Some(index) = field {
                    *likely = index + 1;
                    *met |= 1 << index;
                }
                match field {
                    Some(index) if first => {
                        self.place(level, FIELD_PHASE | index as u64);
                        Next::Field { field: &fields[index], parent: name }
                    }
                    // A field met again (a tree of duplicate keys): the first counts.
                    Some(_) => Next::Skip,
                    None => {
                        self.place(level, member as u64);
                        warn_unknown(fields, key, &self.path[..restore], self.findings);
                        limited = Some((name, key));
                        Next::Skip
                    }
                }
            }
            (Some(Frame::Limits(name)), Segment::Key(key)) => {
                limited = Some((*name, key));
                Next::Skip
            }
            (Some(Frame::Limits(name)), Segment::Index(_)) => Next::Limited { limit: None, children: *name },
            _ => Next::Skip,
        };
        if let Some((parent, key)) = limited {
            self.next = Next::Limited { limit: field_limit(parent, key), children: limits::parent_name(key) };
        }
        if self.keeping {
            // The sections the rules read are object fields of the body's schema.
            self.keep = match (self.frames.len(), self.section, segment) {
                (2, Some(section), Segment::Key(key)) => Members::place(section, key),
                _ => None,
            };
        }
        Some(restore)
    }

    fn leave(&mut self, restore: usize) {
        self.path.truncate(restore);
    }

    fn close(&mut self) -> Option<()> {
        if let Some(Frame::Schema { fields, level, met, .. }) = self.frames.pop() {
            for (index, field) in fields.iter().enumerate() {
                if index < 64 && met & (1 << index) != 0 {
                    continue;
                }
                self.place(level, FIELD_PHASE | index as u64);
                check_absent(field, &self.path, self.findings);
            }
        }
        Some(())
    }

    fn leaf(&mut self, leaf: Leaf<'_>) -> Option<()> {
        // Number text as the tree holds it (`1E2` is `1e+2`), as messages show it.
        let written;
        let leaf = match leaf {
            Leaf::Number(text) if text.bytes().any(|b| b == b'e' || b == b'E') => {
                written = number_as_serde_writes_it(text);
                Leaf::Number(&written)
            }
            leaf => leaf,
        };
        match std::mem::replace(&mut self.next, Next::Skip) {
            Next::Field { field, parent } => {
                check_field(field, parent, Value::Leaf(leaf), &self.path, self.findings);
            }
            Next::Limited { limit, .. } => limits::check_leaf(limit, leaf, &self.path, self.findings),
            Next::Body(_) | Next::Skip => {}
        }
        if self.keeping {
            self.keep(Value::Leaf(leaf));
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_body;
    use crate::validate::{validate_request_text, validate_request_with, ValidateOptions};

    /// An object's unknown members first, in their order, then its fields in the
    /// schema's order, whatever the order of the text (the order the tree walk of
    /// the build before this walk gave), read from text and from the tree alike.
    #[test]
    fn issues_come_in_the_report_order() {
        let long = "x".repeat(300);
        let body = format!(
            r#"{{"zz":{{"payment_id":"{long}"}},"payment":{{"amount":"1","currncy":"RUB","lifetime":1.5}},"general":{{"payment_id":"","project_id":null,"redirect_url":"http://x","a":[{{"amount":0}}]}},"customer":[],"amout":5}}"#
        );
        let payin = (
            vec![
                ("zz.payment_id", "TOO_LONG"),
                ("general.a.0.amount", "OUT_OF_RANGE"),
                ("general.project_id", "REQUIRED"),
                ("general.payment_id", "TOO_SHORT"),
                ("general.redirect_url", "NOT_HTTPS"),
                ("payment.method", "REQUIRED"),
                ("payment.amount", "WRONG_TYPE"),
                ("payment.currency", "REQUIRED"),
                ("payment.lifetime", "WRONG_TYPE"),
                ("customer", "WRONG_TYPE"),
            ],
            vec![
                ("zz", "UNKNOWN_FIELD"),
                ("amout", "UNKNOWN_FIELD"),
                ("general.a", "UNKNOWN_FIELD"),
                ("payment.currncy", "UNKNOWN_FIELD"),
            ],
        );
        let payout = (
            vec![
                ("zz.payment_id", "TOO_LONG"),
                ("general.a.0.amount", "OUT_OF_RANGE"),
                ("general.project_id", "REQUIRED"),
                ("general.payment_id", "TOO_SHORT"),
                ("payment.lifetime", "LIFETIME_OUT_OF_RANGE"),
            ],
            vec![
                ("zz", "UNKNOWN_FIELD"),
                ("amout", "UNKNOWN_FIELD"),
                ("general.redirect_url", "UNKNOWN_FIELD"),
                ("general.a", "UNKNOWN_FIELD"),
            ],
        );
        let tree = parse_body(&body, &Limits::default()).unwrap();
        for (operation, (errors, warnings)) in
            [(Operation::P2pPayinCreate, payin), (Operation::P2pPayoutCreate, payout)]
        {
            for report in [
                validate_request_text(operation.path(), &body),
                validate_request_with(operation.path(), &tree, ValidateOptions::default()),
            ] {
                let found = |issues: &[crate::validate::Issue]| -> Vec<(String, &str)> {
                    issues.iter().map(|issue| (issue.path.clone(), issue.code)).collect()
                };
                let expected = |list: &[(&str, &'static str)]| -> Vec<(String, &str)> {
                    list.iter().map(|&(path, code)| (path.to_owned(), code)).collect()
                };
                assert_eq!(found(&report.errors), expected(&errors), "{operation:?}");
                assert_eq!(found(&report.warnings), expected(&warnings), "{operation:?}");
            }
        }
    }

    /// Plain JSON text of an object is checked as it is read; anything else goes to the tree.
    #[test]
    fn plain_text_is_read_without_a_tree() {
        let payin = r#"{"general":{"project_id":"p","payment_id":"o"},"payment":{"method":"card-p2p","amount":1,"currency":"RUB"},"customer":{"id":"c","ip_address":"::1","country":"RU"}}"#;
        let read = |text: &str| check_text(Operation::P2pPayinCreate, text, &mut Findings::default());
        assert_eq!(read(payin), Some(()));
        assert_eq!(read(r#"{"general":5,"x":[{"y":"z"}]}"#), Some(()));
        for other in [
            "",
            "[]",
            "{",
            r#"{"a":1,"a":2}"#,
            r#"{"a:b":1}"#,
            r#"{"a":"x;y:z"}"#,
            r#"{"a":1e400}"#,
            r#"{"a":{"$serde_json::private::Number":"1"}}"#,
        ] {
            assert_eq!(read(other), None, "{other}");
        }
    }
}
