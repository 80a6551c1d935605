//! A member of an option object as the gateway read it once ([`Member`]), why an object
//! or one of its members was refused ([`ShapeError`]), and the checked members of one
//! object ([`Members`]).

use crate::error::Error;
use crate::options::{names, Group};

/// A member's value as read once by the gateway.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Member<O> {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    /// A BigInt, object, function or symbol, with what it is in words (as `type_name` says).
    Other(&'static str, O),
}

impl<O> Member<O> {
    /// What the value is, for messages.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Member::Undefined => "undefined",
            Member::Null => "null",
            Member::Bool(_) => "a boolean",
            Member::Number(_) => "a number",
            Member::Text(_) => "a string",
            Member::Other(name, _) => name,
        }
    }

    /// Whether the member counts as left out (`undefined` or `null`).
    pub(crate) fn is_absent(&self) -> bool {
        matches!(self, Member::Undefined | Member::Null)
    }

    /// An object, function or symbol: what serde-style readers refuse in a member that is read as data.
    pub(crate) fn is_structured(&self) -> bool {
        matches!(self, Member::Other(name, _) if *name != "a BigInt")
    }
}

/// Why an option object was refused as a whole, or one of its members by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ShapeError {
    /// Not a plain object (an array, a Date, a Map, a class instance, a primitive).
    NotObject,
    /// Reading it ran caller code that threw (a getter, a Proxy, a revoked Proxy).
    Throws,
    /// A member that is not one of the known names.
    Unknown(String),
    /// A member read as data that holds an object, function or symbol.
    NotPrimitive(String, &'static str),
}

/// What a getter or a Proxy does when read, in messages.
pub(crate) const THROWS: &str = "throws when read (a getter, a Proxy or a revoked Proxy)";

impl ShapeError {
    /// As `INVALID_ARGUMENT` for the argument `what` (the sign and verify options, builder input).
    pub(crate) fn into_argument_error(self, what: &str, known: &[&str]) -> Error {
        let reason = match self {
            ShapeError::NotObject => "must be a plain object".to_owned(),
            ShapeError::Throws => format!("has a member that {THROWS}"),
            ShapeError::Unknown(name) => format!("has an unknown member '{name}'; known: {}", known.join(", ")),
            ShapeError::NotPrimitive(name, found) => {
                format!("member '{name}' must be a string, number or boolean, not {found}")
            }
        };
        Error::InvalidArgument { name: what.into(), reason }
    }

    /// As `INVALID_OPTION`, for the canonical options.
    pub(super) fn into_option_error(self) -> Error {
        match self {
            ShapeError::NotObject => Error::InvalidOption {
                name: "options".into(),
                reason: "must be a plain object such as { booleans: 'lower' }".into(),
            },
            ShapeError::Throws => {
                Error::InvalidOption { name: "options".into(), reason: format!("have a member that {THROWS}") }
            }
            ShapeError::Unknown(name) => Error::InvalidOption {
                name,
                reason: format!("does not exist; the options are {}", names(Group::Canonical).join(", ")),
            },
            ShapeError::NotPrimitive(name, found) => {
                Error::InvalidOption { name, reason: format!("must be a string or boolean, not {found}") }
            }
        }
    }
}

/// The members of one option object, every name known.
pub(crate) struct Members<O> {
    list: Vec<(String, Member<O>)>,
}

impl<O> Members<O> {
    /// Checks the members in the order read: each name must be in `known`, and each
    /// member not in `structured` (which readers take further) must not be an object.
    pub(crate) fn new(list: Vec<(String, Member<O>)>, known: &[&str], structured: &[&str]) -> Result<Self, ShapeError> {
        for (name, member) in &list {
            if !known.contains(&name.as_str()) {
                return Err(ShapeError::Unknown(name.clone()));
            }
            if member.is_structured() && !structured.contains(&name.as_str()) {
                return Err(ShapeError::NotPrimitive(name.clone(), member.type_name()));
            }
        }
        Ok(Members { list })
    }

    /// The member named `name` (`undefined` when there is none).
    pub(super) fn take(&mut self, name: &str) -> Member<O> {
        match self.list.iter().position(|(n, _)| n == name) {
            Some(at) => self.list.swap_remove(at).1,
            None => Member::Undefined,
        }
    }
}
