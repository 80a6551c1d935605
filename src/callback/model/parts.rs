//! Typed parts shared by callbacks and info responses: payment info,
//! integration links, recipient and sender requisites, and the payment
//! instruction made from `display_data`. Present values of the wrong JSON
//! type are refused with their path; absent values become `None`.
//!
//! A callback is read as its signed message writes it ([`Source::Callback`]):
//! a leaf the message writes `None` (null, `""`, `0`, `false`, `"None"`) is
//! absent whatever its JSON type, and so is an object or array with no leaf
//! below it (it writes no entry). Every value the model takes is then the
//! text of the one entry at its path, so the model is a function of the
//! signed entries (see `crate::canonical::ambiguity`).

use serde::Serialize;

use crate::canonical::{self, CanonicalOptions};
use crate::error::Error;
use crate::json::{Json, MAX_SAFE_INTEGER};

/// The placeholder the service sends as `card_holder` when the name is absent.
pub const CARD_HOLDER_PLACEHOLDER: &str = "---";

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
    fn leaf_text(self, leaf: &Json) -> Result<String, Error> {
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
fn integer_of(value: &Json) -> Option<i64> {
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

/// `payment_info` of a callback or info response.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentInfo {
    /// Current amount, minor units; after an appeal, the amount received.
    pub amount: Option<i64>,
    /// Amount before the appeal; equal to `amount` when unchanged.
    pub old_amount: Option<i64>,
    /// Amount given at creation; never changes.
    pub initial_amount: Option<i64>,
    /// ISO 4217 alpha-3.
    pub currency: Option<String>,
    /// Request lifetime, seconds.
    pub lifetime: Option<i64>,
    /// Unix time until which the request is valid.
    pub expiration_date: Option<i64>,
    /// Unix time of the last change.
    pub updated_date: Option<i64>,
    /// Unix time of creation.
    pub created_date: Option<i64>,
    /// `None` for null and for the text "null".
    pub method: Option<String>,
    /// The widget (H2C) page method; `None` for null and for the text "null".
    pub widget_method: Option<String>,
    /// `type`: `payin` or `payout`.
    #[serde(rename = "type")]
    pub payment_type: Option<String>,
    /// `payment_system` (null in the spec's examples).
    pub payment_system: Option<String>,
}

pub(crate) fn payment_info(reader: Reader<'_>) -> Result<PaymentInfo, Error> {
    Ok(PaymentInfo {
        amount: reader.integer("amount")?,
        old_amount: reader.integer("old_amount")?,
        initial_amount: reader.integer("initial_amount")?,
        currency: reader.text("currency")?,
        lifetime: reader.integer("lifetime")?,
        expiration_date: reader.integer("expiration_date")?,
        updated_date: reader.integer("updated_date")?,
        created_date: reader.integer("created_date")?,
        method: reader.method("method")?,
        widget_method: reader.method("widget_method")?,
        payment_type: reader.text("type")?,
        payment_system: reader.text("payment_system")?,
    })
}

/// `integration` links.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationLinks {
    /// The payment page to send the user to.
    pub form_url: Option<String>,
    /// Where the payment page sends the user back.
    pub redirect_url: Option<String>,
}

pub(crate) fn integration(reader: Reader<'_>) -> Result<IntegrationLinks, Error> {
    Ok(IntegrationLinks { form_url: reader.text("form_url")?, redirect_url: reader.text("redirect_url")? })
}

/// Recipient requisites, from whichever pair the body carried.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Requisites {
    /// `pan`, or `pan_hidden` when `masked`.
    pub pan: Option<String>,
    /// `card_holder` (or `card_holder_hidden` when `masked`); `None` for the placeholder `---`.
    pub card_holder: Option<String>,
    /// True when the masked pair (`pan_hidden`/`card_holder_hidden`) was read.
    pub masked: bool,
    /// `bank_name`.
    pub bank_name: Option<String>,
    /// `bank_country`.
    pub bank_country: Option<String>,
    /// `currency`: ISO 4217 alpha-3.
    pub currency: Option<String>,
}

/// `None` for absent, null or `{}` requisites. A callback carries one pair (the
/// spec: masked for widgets, plain in the NG example), and one with both is
/// refused: a rewrite of a masked callback whose card holder text held
/// `;recipient_requisites:pan:…` would otherwise read as plain requisites with
/// another card number. In an info response the plain pair wins; the masked
/// pair is read only when neither `pan` nor `card_holder` is given. An empty
/// string gives nothing (no card number, no name), so it counts as absent here
/// as it does in a callback's message: an empty `pan`/`card_holder` pair never
/// hides a filled masked pair.
pub(crate) fn requisites(reader: Reader<'_>) -> Result<Option<Requisites>, Error> {
    if matches!(reader.object, Json::Object(members) if members.is_empty()) {
        return Ok(None);
    }
    let given = |key| Ok::<_, Error>(reader.text(key)?.filter(|text| !text.is_empty()));
    let (pan, holder) = (given("pan")?, given("card_holder")?);
    let (pan_hidden, holder_hidden) = (given("pan_hidden")?, given("card_holder_hidden")?);
    let both = (pan.is_some() || holder.is_some()) && (pan_hidden.is_some() || holder_hidden.is_some());
    if both && matches!(reader.source, Source::Callback(_)) {
        return Err(reader
            .source
            .error(&reader.own_path(), "carries both pan/card_holder and pan_hidden/card_holder_hidden"));
    }
    let masked = pan.is_none() && holder.is_none() && (pan_hidden.is_some() || holder_hidden.is_some());
    let (pan, holder) = if masked { (pan_hidden, holder_hidden) } else { (pan, holder) };
    Ok(Some(Requisites {
        pan,
        card_holder: holder.filter(|name| name != CARD_HOLDER_PLACEHOLDER),
        masked,
        bank_name: reader.text("bank_name")?,
        bank_country: reader.text("bank_country")?,
        currency: reader.text("currency")?,
    }))
}

/// Masked sender requisites of a P2P info response.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SenderRequisites {
    /// The masked card or phone number.
    pub pan_hidden: Option<String>,
    /// The masked card holder.
    pub card_holder_hidden: Option<String>,
}

pub(crate) fn sender(reader: Reader<'_>) -> Result<SenderRequisites, Error> {
    Ok(SenderRequisites {
        pan_hidden: reader.text("pan_hidden")?,
        card_holder_hidden: reader.text("card_holder_hidden")?,
    })
}

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
    use crate::canonical::Falsy;

    fn read(source: Source, text: &str) -> Result<Option<Requisites>, Error> {
        let object = crate::json::parse_body(text, &Default::default()).unwrap();
        requisites(Reader::new(source, &object, "recipient_requisites"))
    }

    fn sources() -> [Source; 3] {
        let null_only = CanonicalOptions { falsy: Falsy::Null, ..CanonicalOptions::DEFAULT };
        [Source::Response, Source::Callback(CanonicalOptions::DEFAULT), Source::Callback(null_only)]
    }

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

    #[test]
    fn an_empty_plain_pair_does_not_hide_the_masked_pair() {
        let masked = r#""pan_hidden":"2200 70** **** 5678","card_holder_hidden":"IVAN I.","currency":"RUB""#;
        for source in sources() {
            for plain in [r#""pan":"","card_holder":"","#, r#""pan":"","#, r#""card_holder":"","#] {
                let found = read(source, &format!("{{{plain}{masked}}}")).unwrap().unwrap();
                assert_eq!(found.pan.as_deref(), Some("2200 70** **** 5678"), "{source:?} {plain}");
                assert_eq!(found.card_holder.as_deref(), Some("IVAN I."));
                assert!(found.masked);
            }
        }
    }

    #[test]
    fn empty_values_read_as_absent_and_two_filled_pairs_stay_as_before() {
        for source in sources() {
            let found = read(source, r#"{"pan":"","card_holder":"","currency":"RUB"}"#).unwrap().unwrap();
            assert_eq!((found.pan, found.card_holder, found.masked), (None, None, false), "{source:?}");
            let found = read(source, r#"{"pan":"4400","card_holder":"","pan_hidden":""}"#).unwrap().unwrap();
            assert_eq!((found.pan.as_deref(), found.masked), (Some("4400"), false));
        }
        let both = r#"{"pan":"4400","card_holder":"IVAN","pan_hidden":"44**","card_holder_hidden":"I."}"#;
        let found = read(Source::Response, both).unwrap().unwrap();
        assert_eq!((found.pan.as_deref(), found.masked), (Some("4400"), false), "a response: the plain pair wins");
        for source in &sources()[1..] {
            assert!(matches!(read(*source, both), Err(Error::InvalidCallback { .. })), "{source:?}");
        }
        let one_each = r#"{"pan":"","card_holder":"IVAN","pan_hidden":"44**"}"#;
        assert!(matches!(read(sources()[2], one_each), Err(Error::InvalidCallback { .. })));
    }
}
