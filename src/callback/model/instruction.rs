//! The payment instruction made from `display_data` ([`PaymentInstruction`]):
//! one field per title the spec lists, items of other titles kept as
//! [`DisplayItem`]s. `data` is "string or integer" in the spec: a text title's
//! integer reads as the message writes it, a numeric title's digit string as
//! its integer.

use serde::Serialize;

use super::parts::CARD_HOLDER_PLACEHOLDER;
use super::reader::{integer_of, Reader, Source};
use crate::error::Error;
use crate::json::Json;

/// The payment instruction carried as `display_data` items, one field per
/// title the spec lists. Items with other titles are kept in `other`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentInstruction {
    /// `recipient_pan`: card or phone number, or QR link.
    pub pan: Option<String>,
    /// `recipient_card_holder`; `None` for the placeholder `---`.
    pub card_holder: Option<String>,
    /// `recipient_phone`.
    pub phone: Option<String>,
    /// Minor units.
    pub amount: Option<i64>,
    /// `currency`: ISO 4217 alpha-3.
    pub currency: Option<String>,
    /// Unix timestamp (UTC).
    pub valid_until: Option<i64>,
    /// Seconds.
    pub lifetime: Option<i64>,
    /// `bank_name`.
    pub bank_name: Option<String>,
    /// `bank_country`.
    pub bank_country: Option<String>,
    /// `confirm_url`: where the user confirms having paid.
    pub confirm_url: Option<String>,
    /// `reject_url`: where the user refuses.
    pub reject_url: Option<String>,
    /// Items of titles the spec does not list, in order.
    pub other: Vec<DisplayItem>,
}

/// A `display_data` item whose title the spec does not list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DisplayItem {
    /// The item's `type`.
    #[serde(rename = "type")]
    pub item_type: Option<String>,
    /// The item's `title`.
    pub title: String,
    /// The value as the message writes it (an integer as its digits); `None` when absent.
    pub data: Option<String>,
}

/// `None` for absent, null or empty `display_data`. `data` is "string or
/// integer" in the spec, so numeric titles accept digit strings too, and text
/// titles accept integers as their text. The first item of a title wins.
pub(crate) fn instruction(source: Source, items: &Json, path: &str) -> Result<Option<PaymentInstruction>, Error> {
    if source.absent(items) {
        return Ok(None);
    }
    let items = match items {
        Json::Array(items) if items.is_empty() => return Ok(None),
        Json::Array(items) => items,
        other => return Err(source.error(path, format!("must be an array, found {}", other.kind()))),
    };
    let mut out = PaymentInstruction::default();
    for (index, item) in items.iter().enumerate() {
        let reader = Reader { source, object: item, prefix: path, index: Some(index) };
        let Json::Object(_) = item else {
            return Err(source.error(&reader.own_path(), format!("must be an object, found {}", item.kind())));
        };
        let title = reader.required_text("title")?;
        let data = item.get("data").unwrap_or(&Json::Null);
        // Paths are written only for an error.
        let data_path = || reader.path("data");
        let text = || data_text(source, data, &data_path);
        let number = || data_integer(source, data, &data_path);
        match title.as_str() {
            "recipient_pan" => set(&mut out.pan, text()?),
            "recipient_card_holder" => set(&mut out.card_holder, text()?.filter(|n| n != CARD_HOLDER_PLACEHOLDER)),
            "recipient_phone" => set(&mut out.phone, text()?),
            "amount" => set(&mut out.amount, number()?),
            "currency" => set(&mut out.currency, text()?),
            "valid_until" => set(&mut out.valid_until, number()?),
            "lifetime" => set(&mut out.lifetime, number()?),
            "bank_name" => set(&mut out.bank_name, text()?),
            "bank_country" => set(&mut out.bank_country, text()?),
            "confirm_url" => set(&mut out.confirm_url, text()?),
            "reject_url" => set(&mut out.reject_url, text()?),
            _ => out.other.push(DisplayItem {
                item_type: reader.text("type")?,
                title,
                data: free_text(source, data, &data_path)?,
            }),
        }
    }
    Ok(Some(out))
}

fn set<T>(slot: &mut Option<T>, value: Option<T>) {
    if slot.is_none() {
        *slot = value;
    }
}

/// A free-form leaf as the message writes it; containers are refused.
fn free_text(source: Source, data: &Json, path: &dyn Fn() -> String) -> Result<Option<String>, Error> {
    match data {
        _ if source.absent(data) => Ok(None),
        Json::Object(_) | Json::Array(_) => {
            Err(source.error(&path(), format!("must be a string or integer, found {}", data.kind())))
        }
        leaf => source.leaf_text(leaf).map(Some),
    }
}

/// A text title's data: a string as sent, an integer as the message writes it
/// (its digits; `-0` as `0`, which every variant writes for both, so that `-0`,
/// `0` and `"0"` under `falsy: 'null'` read alike as they are signed alike).
fn data_text(source: Source, data: &Json, path: &dyn Fn() -> String) -> Result<Option<String>, Error> {
    match data {
        _ if source.absent(data) => Ok(None),
        Json::String(text) => Ok(Some(text.clone().into_owned())),
        Json::Number(_) => match integer_of(data) {
            Some(integer) => Ok(Some(integer.to_string())),
            None => Err(source.error(&path(), "must be a string or integer, found number")),
        },
        other => Err(source.error(&path(), format!("must be a string or integer, found {}", other.kind()))),
    }
}

fn data_integer(source: Source, data: &Json, path: &dyn Fn() -> String) -> Result<Option<i64>, Error> {
    let parsed = match data {
        _ if source.absent(data) => return Ok(None),
        Json::String(text) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
            integer_of(&Json::Number(text.clone()))
        }
        other => integer_of(other),
    };
    parsed.map(Some).ok_or_else(|| source.error(&path(), "must be an integer (or a string of digits)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::{CanonicalOptions, Falsy};

    /// Regression (tests/binding.rs under `falsy: 'null'`): `-0` and `0` write the same
    /// entry, `…:data:0`, so a text title's data read `"-0"` from one and `"0"` from the
    /// other: two callbacks under one signature.
    #[test]
    fn a_text_title_reads_an_integer_as_the_message_writes_it() {
        for options in CanonicalOptions::all_variants() {
            let source = Source::Callback(options);
            let read = |data: &str| {
                let items = crate::json::parse_value(
                    &format!(r#"[{{"title":"recipient_pan","data":{data}}}]"#),
                    &Default::default(),
                )
                .unwrap();
                instruction(source, &items, "additional_info.display_data").unwrap().and_then(|i| i.pan)
            };
            // Under `falsy: 'none'` both numbers are written `None` (absent); under `'null'`
            // both are written `0`, as the string "0" is in every variant.
            let zero = if options.falsy == Falsy::Null { Some("0".to_owned()) } else { None };
            for data in ["-0", "0"] {
                assert_eq!(read(data), zero, "{options:?} {data}");
            }
            assert_eq!(read(r#""0""#).as_deref(), Some("0"));
            assert_eq!(read("-5").as_deref(), Some("-5"));
            assert_eq!(read("4000123412341234").as_deref(), Some("4000123412341234"));
        }
    }
}
