//! Typed parts shared by callbacks and info responses: payment info,
//! integration links, and recipient and sender requisites. Present values of
//! the wrong JSON type are refused with their path; absent values become `None`
//! (how a body is read: `reader.rs`; the payment instruction from
//! `display_data`: `instruction.rs`).

use serde::Serialize;

use super::reader::{Reader, Source};
use crate::error::Error;
use crate::json::Json;

/// The placeholder the service sends as `card_holder` when the name is absent.
pub const CARD_HOLDER_PLACEHOLDER: &str = "---";

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::{CanonicalOptions, Falsy};

    fn read(source: Source, text: &str) -> Result<Option<Requisites>, Error> {
        let object = crate::json::parse_body(text, &Default::default()).unwrap();
        requisites(Reader::new(source, &object, "recipient_requisites"))
    }

    fn sources() -> [Source; 3] {
        let null_only = CanonicalOptions { falsy: Falsy::Null, ..CanonicalOptions::DEFAULT };
        [Source::Response, Source::Callback(CanonicalOptions::DEFAULT), Source::Callback(null_only)]
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
