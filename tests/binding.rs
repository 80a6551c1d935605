//! The callback model is bound to the signed message: for random realistic
//! callbacks, every other body with the same signed message is refused or
//! reads as the same callback (README, "Why a verified callback means what
//! it says"). Rewrites are made from the joined entries, as an attacker would:
//! re-split at `;`, move the key/value boundary at `:`, read digit segments as
//! array indices or keys, swap the values written `None` (and numbers and
//! `True` for their texts), and add empty containers. Only rewrites whose
//! message is byte-for-byte the genuine one are checked, so the signature
//! would verify for every one of them.
#![cfg(not(target_arch = "wasm32"))]

use payment_intake::__private::PreparedCallback;
use payment_intake::{canonical_entries, canonical_message, parse_body, CanonicalOptions, Error, Json, Limits};
use payment_intake::{VerifiedCallback, VerifyOptions};

const TIMESTAMP: &str = "1700000000";

/// xorshift32: deterministic, seeded by `BINDING_SEED` when set.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n.max(1)
    }
    fn chance(&mut self, percent: u32) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn seed() -> u32 {
    std::env::var("BINDING_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(20_261_124)
}

/// Text values a callback carries: plain, with `:` (URLs, times) and with plain `;`.
const TEXTS: &[&str] = &[
    "order-10045",
    "https://shop.example/done?x=1;y=2",
    "https://shop.example:8443/back",
    "Declined by issuer; code 05",
    "IVAN IVANOV",
    "12:30",
    "a;b;c",
    "RUB",
    "None",
    "",
    "0",
    "True",
    "1.5",
];

fn text(rng: &mut Rng) -> Json {
    Json::String((*rng.pick(TEXTS)).to_owned())
}

fn maybe_null(rng: &mut Rng, make: impl FnOnce(&mut Rng) -> Json) -> Json {
    if rng.chance(15) {
        Json::Null
    } else {
        make(rng)
    }
}

fn integer(rng: &mut Rng) -> Json {
    Json::Number(rng.pick(&["0", "1", "150000", "1700000600", "99900000", "-5"]).to_string())
}

fn object(members: Vec<(&str, Json)>) -> Json {
    Json::Object(members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// A callback shaped like the spec's, with random values.
fn genuine(rng: &mut Rng) -> Json {
    let status = *rng.pick(&["success", "decline", "processing", "dispute"]);
    let mut members = vec![
        ("project_id", Json::String("prj_8f2c".into())),
        ("general", object(vec![("payment_id", text(rng)), ("request_id", maybe_null(rng, text))])),
        (
            "status",
            object(vec![
                ("status", Json::String(status.into())),
                (
                    "sub_status",
                    maybe_null(rng, |r| Json::String(r.pick(&["paid", "new", "awaiting_confirm"]).to_string())),
                ),
                ("status_description", maybe_null(rng, text)),
            ]),
        ),
        (
            "payment_info",
            object(vec![
                ("amount", integer(rng)),
                ("currency", maybe_null(rng, text)),
                ("method", maybe_null(rng, |_| Json::String("card-p2p".into()))),
                ("expiration_date", maybe_null(rng, integer)),
            ]),
        ),
        ("integration", object(vec![("form_url", text(rng)), ("redirect_url", maybe_null(rng, text))])),
    ];
    members.push((
        "recipient_requisites",
        if rng.chance(50) {
            Json::Null
        } else {
            object(vec![("pan", text(rng)), ("card_holder", text(rng)), ("bank_name", maybe_null(rng, text))])
        },
    ));
    if rng.chance(50) {
        let items = (0..1 + rng.below(12))
            .map(|_| {
                let title = *rng.pick(&["recipient_pan", "recipient_card_holder", "amount", "confirm_url", "qr"]);
                let data = if title == "amount" { integer(rng) } else { text(rng) };
                object(vec![
                    ("type", Json::String("add_info".into())),
                    ("title", Json::String(title.into())),
                    ("data", data),
                ])
            })
            .collect();
        members.push(("additional_info", object(vec![("display_data", Json::Array(items))])));
    }
    object(members)
}

/// One random re-reading of the joined entries as a body, or `None` when it
/// does not form a tree (a path both leaf and object, a repeated key…).
/// `wild`: also re-split and move boundaries; otherwise only swap equivalent values
/// and add empty containers.
fn reread(rng: &mut Rng, entries: &[String], wild: bool) -> Option<Json> {
    let joined = entries.join(";");
    // Re-split: a piece with `:` may start an entry or continue the one before.
    let mut read: Vec<String> = Vec::new();
    for piece in joined.split(';') {
        match read.last_mut() {
            Some(last) if !piece.contains(':') || (wild && rng.chance(10)) => {
                last.push(';');
                last.push_str(piece);
            }
            _ => read.push(piece.to_owned()),
        }
    }
    let mut tree = Json::Object(Vec::new());
    for entry in &read {
        // Move the key/value boundary: any `:` of the entry (most often the last before the value).
        let colons: Vec<usize> = entry.match_indices(':').map(|(i, _)| i).collect();
        let at = if !wild || rng.chance(70) {
            // The first `:` after which the rest has no `;`-free `:`: the usual reading.
            *colons
                .iter()
                .find(|&&i| !entry[i + 1..].split(';').next().unwrap_or("").contains(':'))
                .unwrap_or(colons.last()?)
        } else {
            *rng.pick(&colons)
        };
        let segments: Vec<&str> = if at == 0 { vec![""] } else { entry[..at].split(':').collect() };
        let value = leaf(rng, &entry[at + 1..]);
        insert(rng, &mut tree, &segments, value, wild)?;
    }
    if rng.chance(30) {
        add_empty(rng, &mut tree);
    }
    Some(tree)
}

/// A leaf whose canonical text (default options) is `text`.
fn leaf(rng: &mut Rng, text: &str) -> Json {
    let s = Json::String(text.to_owned());
    match text {
        "None" => {
            rng.pick(&[Json::Null, Json::String(String::new()), Json::Number("0".into()), Json::Bool(false), s]).clone()
        }
        "True" if rng.chance(50) => Json::Bool(true),
        _ if rng.chance(50) && is_integer(text) => Json::Number(text.to_owned()),
        "1.5" if rng.chance(50) => Json::Number("1.5".into()),
        _ => s,
    }
}

fn is_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && (digits == "0" || !digits.starts_with('0'))
}

/// Puts `value` at `segments`, digit segments as array indices or keys at random.
fn insert(rng: &mut Rng, node: &mut Json, segments: &[&str], value: Json, wild: bool) -> Option<()> {
    let (first, rest) = segments.split_first()?;
    match node {
        Json::Object(members) => {
            let position = members.iter().position(|(key, _)| key == first);
            match (position, rest.is_empty()) {
                (Some(_), true) => None,
                (Some(at), false) => insert(rng, &mut members[at].1, rest, value, wild),
                (None, true) => {
                    members.push(((*first).to_owned(), value));
                    Some(())
                }
                (None, false) => {
                    let digits = rest[0].bytes().all(|b| b.is_ascii_digit()) && !rest[0].is_empty();
                    let as_array = digits && (!wild || rng.chance(80));
                    let mut child = if as_array { Json::Array(Vec::new()) } else { Json::Object(Vec::new()) };
                    insert(rng, &mut child, rest, value, wild)?;
                    members.push(((*first).to_owned(), child));
                    Some(())
                }
            }
        }
        Json::Array(items) => {
            let index: usize = first.parse().ok().filter(|_| !first.starts_with('0') || *first == "0")?;
            if index == items.len() && rest.is_empty() {
                items.push(value);
                Some(())
            } else if index == items.len() {
                let mut child = Json::Object(Vec::new());
                insert(rng, &mut child, rest, value, wild)?;
                items.push(child);
                Some(())
            } else if index < items.len() && !rest.is_empty() {
                insert(rng, &mut items[index], rest, value, wild)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Adds an empty `{}` or `[]` (which writes no entry) somewhere among the objects.
fn add_empty(rng: &mut Rng, node: &mut Json) {
    if let Json::Object(members) = node {
        if !members.is_empty() && rng.chance(60) {
            let at = rng.below(members.len());
            return add_empty(rng, &mut members[at].1);
        }
        let key = rng.pick(&["extra", "payment_info", "display_data", "zz", "general"]).to_string();
        if !members.iter().any(|(k, _)| *k == key) {
            let empty = if rng.chance(50) { Json::Object(Vec::new()) } else { Json::Array(Vec::new()) };
            members.push((key, empty));
        }
    }
}

/// The value with every object's members in key order: equal for bodies that differ only in order.
fn sorted(value: &Json) -> Json {
    match value {
        Json::Object(members) => {
            let mut members: Vec<(String, Json)> = members.iter().map(|(k, v)| (k.clone(), sorted(v))).collect();
            members.sort_by(|a, b| a.0.cmp(&b.0));
            Json::Object(members)
        }
        Json::Array(items) => Json::Array(items.iter().map(sorted).collect()),
        leaf => leaf.clone(),
    }
}

fn bind(body: &Json, text: &str) -> Result<VerifiedCallback, Error> {
    let prepared = PreparedCallback {
        body: body.clone(),
        timestamp: 1_700_000_000,
        merchant_id: "merchant-1".into(),
        key_index: 0,
        message: String::new(),
        signature: Vec::new(),
        digest: Default::default(),
        rsa_pending: false,
    };
    prepared.finish(text, &VerifyOptions::default())
}

#[test]
fn no_body_with_the_same_message_reads_as_another_callback() {
    let mut rng = Rng(seed());
    let limits = Limits::default();
    let (mut same_message, mut other_tree, mut accepted_other_tree, mut refused) = (0, 0, 0, 0);
    for round in 0..150 {
        let original = genuine(&mut rng);
        let original_text = original.to_json_text();
        let original = parse_body(&original_text, &limits).unwrap();
        let Ok(expected) = bind(&original, &original_text) else {
            continue; // a genuine body its own message does not determine is refused; nothing to compare
        };
        let message = canonical_message(&original, TIMESTAMP, &CanonicalOptions::DEFAULT).unwrap();
        let entries = canonical_entries(&original, &CanonicalOptions::DEFAULT).unwrap();
        for _ in 0..400 {
            let wild = rng.chance(50);
            let Some(rewrite) = reread(&mut rng, &entries, wild) else { continue };
            let text = rewrite.to_json_text();
            let Ok(rewrite) = parse_body(&text, &limits) else { continue };
            if canonical_message(&rewrite, TIMESTAMP, &CanonicalOptions::DEFAULT).ok().as_ref() != Some(&message) {
                continue;
            }
            same_message += 1;
            let different_tree = sorted(&rewrite) != sorted(&original);
            other_tree += usize::from(different_tree);
            match bind(&rewrite, &text) {
                Ok(read) => {
                    assert_eq!(
                        read.callback, expected.callback,
                        "round {round}: {text}\nreads differently from the genuine\n{original_text}"
                    );
                    accepted_other_tree += usize::from(different_tree);
                }
                Err(_) => refused += 1,
            }
        }
    }
    eprintln!("{same_message} rewrites with the genuine message: {other_tree} other trees, {accepted_other_tree} of them accepted (as the genuine), {refused} refused");
    // The test explores: many rewrites differ from the genuine tree, and some of those
    // are accepted (None equivalents, digits as numbers), all reading as the genuine.
    assert!(other_tree > 1000, "{other_tree}");
    assert!(accepted_other_tree > 100, "{accepted_other_tree}");
    assert!(refused > 100, "{refused}");
}

/// The replays of one captured success, with every value written `None` swapped
/// for its equivalents, all carry one idempotency key.
#[test]
fn replays_of_one_success_give_one_idempotency_key() {
    let text = r#"{"project_id":"prj","general":{"payment_id":"o-1","request_id":"r"},"status":{"status":"success","sub_status":null,"status_description":null},"payment_info":{"amount":100}}"#;
    let mut keys = Vec::new();
    for none in ["null", r#""""#, "0", "false", r#""None""#, "0.0", "{}", "[]"] {
        let replay = text.replace("\"sub_status\":null", &format!("\"sub_status\":{none}"));
        let body = parse_body(&replay, &Limits::default()).unwrap();
        if let Ok(read) = bind(&body, &replay) {
            keys.push(read.callback.idempotency_key);
        }
    }
    assert_eq!(keys.len(), 8);
    keys.dedup();
    assert_eq!(keys, ["prj:o-1:success:"]);
}

/// The service signed a `payment_id` holding customer text: that callback is
/// refused, and so is its rewrite that cuts the id at the `;` (naming another
/// payment) and adds the rest as a member the model does not read.
#[test]
fn a_cut_payment_id_cannot_name_another_payment() {
    let genuine = r#"{"project_id":"prj","general":{"payment_id":"order-7;general:q:1","request_id":"r-1"},"status":{"status":"success","sub_status":null}}"#;
    let rewrite = r#"{"project_id":"prj","general":{"payment_id":"order-7","q":"1","request_id":"r-1"},"status":{"status":"success","sub_status":null}}"#;
    let (genuine_body, rewrite_body) =
        (parse_body(genuine, &Limits::default()).unwrap(), parse_body(rewrite, &Limits::default()).unwrap());
    let message = |body: &Json| canonical_message(body, TIMESTAMP, &CanonicalOptions::DEFAULT).unwrap();
    assert_eq!(message(&genuine_body), message(&rewrite_body), "the same signature covers both");
    let rule = |result: Result<VerifiedCallback, Error>| match result {
        Err(Error::AmbiguousCallback { ambiguities, .. }) => ambiguities[0].rule,
        other => panic!("not refused as ambiguous: {other:?}"),
    };
    assert_eq!(rule(bind(&genuine_body, genuine)), "VALUE_ENTRY_TEXT");
    assert_eq!(rule(bind(&rewrite_body, rewrite)), "UNREAD_AFTER_TEXT");
}

/// Members the model does not read are accepted where no identifying text
/// precedes them: a service that adds fields does not lose its callbacks.
#[test]
fn unread_members_elsewhere_are_accepted() {
    let body = r#"{"project_id":"prj","general":{"payment_id":"order-7","request_id":"r-1"},"status":{"status":"decline","sub_status":null,"status_description":"Canceled by client"},"payment_info":{"amount":100,"currency":"RUB","description":"new field"},"customer":{"id":"c-1"},"zz":1}"#;
    let read = bind(&parse_body(body, &Limits::default()).unwrap(), body).expect("accepted");
    assert_eq!(read.callback.payment_id, "order-7");
    assert!(read.ambiguities.is_empty());
}

/// A widget callback's masked card holder held `;recipient_requisites:pan:…`
/// (the recipient's own text): the rewrite that cuts it and adds a plain `pan`
/// (which sorts right after) would show another card number. A callback with
/// both pairs is refused.
#[test]
fn a_cut_masked_card_holder_cannot_add_a_card_number() {
    let genuine = r#"{"project_id":"prj","general":{"payment_id":"o-1"},"status":{"status":"processing","sub_status":"awaiting_confirm"},"recipient_requisites":{"bank_name":"Bank","card_holder_hidden":"I*** I***;recipient_requisites:pan:4000123412341234","pan_hidden":"220070******5678"}}"#;
    let rewrite = r#"{"project_id":"prj","general":{"payment_id":"o-1"},"status":{"status":"processing","sub_status":"awaiting_confirm"},"recipient_requisites":{"bank_name":"Bank","card_holder_hidden":"I*** I***","pan":"4000123412341234","pan_hidden":"220070******5678"}}"#;
    let (genuine_body, rewrite_body) =
        (parse_body(genuine, &Limits::default()).unwrap(), parse_body(rewrite, &Limits::default()).unwrap());
    let message = |body: &Json| canonical_message(body, TIMESTAMP, &CanonicalOptions::DEFAULT).unwrap();
    assert_eq!(message(&genuine_body), message(&rewrite_body), "the same signature covers both");
    assert!(matches!(bind(&genuine_body, genuine), Err(Error::AmbiguousCallback { .. })));
    match bind(&rewrite_body, rewrite) {
        Err(Error::InvalidCallback { path, .. }) => assert_eq!(path, "recipient_requisites"),
        other => panic!("a rewrite with both pairs was not refused: {other:?}"),
    }
}
