//! How the typed parts read a body's objects: [`Source`], the kind of body
//! (its errors' code, and which values read as absent), and [`Reader`], the
//! members of one object, refusing values of the wrong type with their path.
//!
//! A callback is read as its signed message writes it ([`Source::Callback`]):
//! a leaf the message writes `None` (null, `""`, `0`, `false`, `"None"`) is
//! absent whatever its JSON type, and so is an object or array with no leaf
//! below it (it writes no entry). Every value the model takes is then the
//! text of the one entry at its path, so the model is a function of the
//! signed entries (see `crate::canonical::ambiguity`).

use crate::canonical::{self, CanonicalOptions};
use crate::error::Error;
use crate::json::{Json, MAX_SAFE_INTEGER};

/// Which kind of body is read, so errors carry the right code and values are
/// read the right way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// A (signed) callback, read as the message of these canonical options writes it.
    Callback(CanonicalOptions),
    /// An API response, read as plain JSON: only null is absent.
    Response,
}

impl Source {
    pub(crate) fn error(self, path: &str, reason: impl Into<String>) -> Error {
        let (path, reason) = (path.to_owned(), reason.into());
        match self {
            Source::Callback(_) => Error::InvalidCallback { path, reason, verified: None },
            Source::Response => Error::InvalidResponse { path, reason },
        }
    }

    /// Whether a present member reads as absent (see the module header).
    pub(crate) fn absent(self, value: &Json) -> bool {
        match self {
            Source::Response => *value == Json::Null,
            Source::Callback(options) => match value {
                Json::Object(_) | Json::Array(_) => !has_leaf(value),
                leaf => canonical::writes_none(leaf, options.falsy),
            },
        }
    }

    /// The text the message writes for a leaf that is not absent, for values the
    /// spec leaves free-form (`display_data` items of unlisted titles).
    pub(super) fn leaf_text(self, leaf: &Json) -> Result<String, Error> {
        let options = match self {
            Source::Callback(options) => options,
            Source::Response => CanonicalOptions::DEFAULT,
        };
        canonical::leaf_text(leaf, &options)
    }
}

/// Whether any leaf (null included) lies below a value: an empty object or
/// array, however nested, writes no entry.
fn has_leaf(value: &Json) -> bool {
    match value {
        Json::Object(members) => members.iter().any(|(_, child)| has_leaf(child)),
        Json::Array(items) => items.iter().any(has_leaf),
        _ => true,
    }
}

/// Reads the members of one object, refusing values of the wrong type.
#[derive(Clone, Copy)]
pub(crate) struct Reader<'a> {
    pub source: Source,
    pub object: &'a Json<'a>,
    /// The object's path; with `index`, the path of the array it is an item of.
    pub prefix: &'a str,
    /// The item's index in the array at `prefix`: its path is written only for an error.
    pub index: Option<usize>,
}

impl<'a> Reader<'a> {
    /// A reader of the object at `prefix`.
    pub(crate) fn new(source: Source, object: &'a Json<'a>, prefix: &'a str) -> Self {
        Reader { source, object, prefix, index: None }
    }

    /// The object's own path.
    pub(crate) fn own_path(&self) -> String {
        match self.index {
            Some(index) => format!("{}.{index}", self.prefix),
            None => self.prefix.to_owned(),
        }
    }

    pub(crate) fn path(&self, key: &str) -> String {
        match self.own_path() {
            own if own.is_empty() => key.to_owned(),
            own => format!("{own}.{key}"),
        }
    }

    /// The member, unless it reads as absent (null; for a callback, see [`Source::absent`]).
    pub(crate) fn value(&self, key: &str) -> Option<&'a Json<'a>> {
        self.object.get(key).filter(|value| !self.source.absent(value))
    }

    pub(crate) fn text(&self, key: &str) -> Result<Option<String>, Error> {
        match self.value(key) {
            None => Ok(None),
            Some(Json::String(text)) => Ok(Some(text.clone().into_owned())),
            Some(other) => Err(self.source.error(&self.path(key), format!("must be a string, found {}", other.kind()))),
        }
    }

    pub(crate) fn required_text(&self, key: &str) -> Result<String, Error> {
        self.text(key)?.ok_or_else(|| self.source.error(&self.path(key), "is required"))
    }

    pub(crate) fn integer(&self, key: &str) -> Result<Option<i64>, Error> {
        match self.value(key) {
            None => Ok(None),
            Some(value) => {
                integer_of(value).map(Some).ok_or_else(|| self.source.error(&self.path(key), integer_reason(value)))
            }
        }
    }

    /// A method code: null and the text "null" (seen in a decline callback) are both absent.
    pub(crate) fn method(&self, key: &str) -> Result<Option<String>, Error> {
        Ok(self.text(key)?.filter(|text| text != "null"))
    }

    /// The member as an object reader, or `None` when absent or null.
    pub(crate) fn object(&self, key: &str, path: &'a str) -> Result<Option<Reader<'a>>, Error> {
        match self.value(key) {
            None => Ok(None),
            Some(object @ Json::Object(_)) => Ok(Some(Reader::new(self.source, object, path))),
            Some(other) => Err(self.source.error(path, format!("must be an object, found {}", other.kind()))),
        }
    }
}

/// A JSON integer a JS number holds exactly.
pub(super) fn integer_of(value: &Json) -> Option<i64> {
    match value {
        Json::Number(text) => text.parse::<i64>().ok().filter(|n| n.unsigned_abs() <= MAX_SAFE_INTEGER.unsigned_abs()),
        _ => None,
    }
}

fn integer_reason(value: &Json) -> String {
    match value {
        Json::Number(text) => {
            format!("must be an integer within ±(2^53-1), found {}", text.chars().take(40).collect::<String>())
        }
        other => format!("must be an integer, found {}", other.kind()),
    }
}
