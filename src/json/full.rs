//! The full path of JSON text: serde_json reads it (with `arbitrary_precision`,
//! so numbers keep their text) into the [`Json`] tree, refusing duplicate
//! keys and bounding depth as it goes, and words every error exactly. The
//! one-pass reader (`reader`) gives up on anything unusual and leaves it here.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::error::{Error, Result};
use crate::json::rules::{is_json_number, KeyCheck};
use crate::json::value::{Json, Limits};

/// Parses any JSON value within the limits.
pub fn parse_value(text: &str, limits: &Limits) -> Result<Json<'static>> {
    if text.len() > limits.max_bytes {
        return Err(Error::BodyTooLarge { limit: limits.max_bytes, actual: text.len() });
    }
    let failure = RefCell::new(None);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let seed = NodeSeed { depth: 0, limits, path: &PathNode::Root, failure: &failure };
    let parsed = seed.deserialize(&mut deserializer).and_then(|v| deserializer.end().map(|_| v));
    match parsed {
        Ok(value) => Ok(value),
        Err(json_error) => {
            Err(failure.into_inner().unwrap_or_else(|| Error::InvalidJson { message: json_error.to_string() }))
        }
    }
}

/// A position in the tree, kept on the stack while parsing and rendered only
/// when an error needs it.
pub(crate) enum PathNode<'a> {
    Root,
    Key(&'a PathNode<'a>, &'a str),
    Index(&'a PathNode<'a>, usize),
}

impl fmt::Display for PathNode<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathNode::Root => Ok(()),
            PathNode::Key(parent, key) => write_segment(f, parent, key),
            PathNode::Index(parent, index) => write_segment(f, parent, index),
        }
    }
}

fn write_segment(f: &mut fmt::Formatter<'_>, parent: &PathNode<'_>, segment: &dyn fmt::Display) -> fmt::Result {
    if matches!(parent, PathNode::Root) {
        write!(f, "{segment}")
    } else {
        write!(f, "{parent}.{segment}")
    }
}

/// serde_json's `arbitrary_precision` feature hands numbers to visitors as a
/// one-member map under this key; `serde_json::Value` relies on the same.
pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

struct NodeSeed<'a> {
    depth: usize,
    limits: &'a Limits,
    path: &'a PathNode<'a>,
    failure: &'a RefCell<Option<Error>>,
}

impl NodeSeed<'_> {
    fn fail<E: de::Error>(&self, error: Error) -> E {
        let message = error.to_string();
        *self.failure.borrow_mut() = Some(error);
        E::custom(message)
    }

    fn nested<E: de::Error>(&self) -> std::result::Result<usize, E> {
        let depth = self.depth + 1;
        if depth > self.limits.max_depth {
            Err(self.fail(Error::BodyTooDeep { limit: self.limits.max_depth }))
        } else {
            Ok(depth)
        }
    }
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_> {
    type Value = Json<'static>;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> std::result::Result<Json<'static>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NodeSeed<'_> {
    type Value = Json<'static>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<Json<'static>, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Json<'static>, E> {
        Ok(Json::Bool(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Json<'static>, E> {
        Ok(Json::String(v.to_owned().into()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Json<'static>, E> {
        Ok(Json::String(v.into()))
    }

    // Only reached without `arbitrary_precision`; kept exact all the same.
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Json<'static>, E> {
        Ok(Json::Number(v.to_string().into()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Json<'static>, E> {
        Ok(Json::Number(v.to_string().into()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Json<'static>, A::Error> {
        let depth = self.nested()?;
        let mut items = Vec::new();
        loop {
            let path = PathNode::Index(self.path, items.len());
            let seed = NodeSeed { depth, limits: self.limits, path: &path, failure: self.failure };
            match seq.next_element_seed(seed)? {
                Some(item) => items.push(item),
                None => return Ok(Json::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Json<'static>, A::Error> {
        // Keys and values apart, so that the duplicate check sees the keys as a slice.
        let mut keys: Vec<String> = Vec::new();
        let mut values: Vec<Json<'static>> = Vec::new();
        let mut check = KeyCheck::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let key = match key {
                Key::Member(key) => key,
                Key::NumberMarker => {
                    let text: String = map.next_value()?;
                    if !keys.is_empty() || !is_json_number(&text) {
                        return Err(de::Error::custom("malformed number from the JSON reader"));
                    }
                    return Ok(Json::Number(text.into()));
                }
            };
            let depth = self.nested()?;
            let path = PathNode::Key(self.path, &key);
            if check.repeats(&keys, &key) {
                return Err(self.fail(Error::DuplicateKey { path: path.to_string() }));
            }
            let value =
                map.next_value_seed(NodeSeed { depth, limits: self.limits, path: &path, failure: self.failure })?;
            keys.push(key);
            values.push(value);
        }
        // An empty object still counts as a level.
        self.nested()?;
        Ok(Json::Object(keys.into_iter().map(Cow::Owned).zip(values).collect()))
    }
}

/// An object key as serde_json hands it over: a member name, or the marker of a number.
enum Key {
    Member(String),
    NumberMarker,
}

/// Tells a real member key from the number marker, even when the JSON text
/// has a member spelled like the marker: serde_json answers `deserialize_option`
/// on a real key with `visit_some`, but on the marker with the bare string.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> std::result::Result<Key, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_some<D: de::Deserializer<'de>>(self, deserializer: D) -> std::result::Result<Key, D::Error> {
        <String as de::Deserialize>::deserialize(deserializer).map(Key::Member)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Key, E> {
        if v == NUMBER_TOKEN {
            Ok(Key::NumberMarker)
        } else {
            Err(E::custom("unexpected object key form"))
        }
    }
}
