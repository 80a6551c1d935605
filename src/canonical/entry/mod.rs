//! The one writer of canonical entries, `path:value`, and every rule of their
//! text. Both walkers feed it the same events (a member or item begins and ends,
//! a leaf): the tree walk (`json::tree::replay`) and the one-pass text reader
//! (`canonical::text`); neither holds a rule of its own.
//!
//! - `writer`: [`EntryWriter`], a `json::reader::Sink`: the path join (`:`
//!   between segments, none after an empty path), each leaf's entry, the walk
//!   stopped past the bound;
//! - `leaf`: the leaf text (`None` for the falsy leaves, the booleans, numbers
//!   as Python or JavaScript writes them) and the array index digits;
//! - `bound`: the bound on quadratic expansion, counted as entries are written
//!   and measured over a tree before ([`measure`]);
//! - `flat`: the entries as written ([`Flat`]), their sort and their join;
//! - `checks`: where the ambiguity rules apply, in a check-only writer
//!   ([`EntryWriter::checks_only`], which writes no entry).

mod bound;
mod checks;
mod flat;
mod leaf;
mod writer;

pub(crate) use self::bound::{measure, MAX_CANONICAL_BYTES};
pub(crate) use self::flat::Flat;
pub(crate) use self::leaf::{invalid_number, leaf_text, push_index, writes_none};
pub(crate) use self::writer::EntryWriter;
