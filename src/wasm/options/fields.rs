//! The member names serde expects for a struct (a builder's input), as renamed.

use serde::Deserialize;

/// The member names serde expects for a struct, as renamed (e.g. camelCase): read
/// from the struct's own `Deserialize` impl.
pub(crate) fn struct_fields<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldCapture(&mut fields));
    fields
}

struct FieldCapture<'a>(&'a mut &'static [&'static str]);

/// Ends the capture as soon as the fields are known.
#[derive(Debug)]
struct CaptureDone;

impl std::fmt::Display for CaptureDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field capture")
    }
}

impl std::error::Error for CaptureDone {}

impl serde::de::Error for CaptureDone {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        CaptureDone
    }
}

impl<'de> serde::Deserializer<'de> for FieldCapture<'_> {
    type Error = CaptureDone;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, CaptureDone> {
        Err(CaptureDone)
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, CaptureDone> {
        *self.0 = fields;
        Err(CaptureDone)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}
