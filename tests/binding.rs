//! The callback model is bound to the signed message: for random realistic
//! callbacks, every other body with the same signed message is refused or
//! reads as the same callback (README, "Why a verified callback means what
//! it says"), under every canonical variant (`CanonicalOptions::all_variants`).
//! Rewrites are made from the joined entries, as an attacker would: re-split
//! at `;`, move the key/value boundary at `:`, read digit segments as array
//! indices or keys, swap each leaf for any other JSON value the variant writes
//! with the same text (null and the falsy values for `None`, booleans for
//! their texts and digits, numbers for other number texts and for strings of
//! their text), and add empty containers. Only rewrites whose message under
//! the variant is byte-for-byte the genuine one are checked, so the signature
//! would verify for every one of them.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;

use payment_intake::__private::PreparedCallback;
use payment_intake::{
    canonical_entries, canonical_message, parse_body, Booleans, CanonicalOptions, Error, Falsy, Json, Limits, Numbers,
};
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

/// Text values a callback carries: plain, with `:` (URLs, times) and with plain
/// `;`, and texts some variant also writes for a boolean or a number.
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
    "1",
    "True",
    "true",
    "false",
    "1.5",
    "12345678901234567000",
];

/// Numbers that are not integers (or not safe ones), for members read free-form and unread ones.
const OTHER_NUMBERS: &[&str] =
    &["1.5", "0.1", "1.0", "1e0", "100.0", "-0.0", "0.0", "1e21", "2.5e-7", "12345678901234567890", "-0"];

fn text(rng: &mut Rng) -> Json<'static> {
    Json::String((*rng.pick(TEXTS)).to_owned().into())
}

/// Any leaf: text, boolean, integer or another number.
fn any_leaf(rng: &mut Rng) -> Json<'static> {
    match rng.below(4) {
        0 => text(rng),
        1 => Json::Bool(rng.chance(50)),
        2 => integer(rng),
        _ => Json::Number(rng.pick(OTHER_NUMBERS).to_string().into()),
    }
}

/// Mostly `make`; sometimes null, and now and then another falsy value (absent under
/// `falsy: 'none'`, a wrong type under `falsy: 'null'`).
fn maybe_null(rng: &mut Rng, make: impl FnOnce(&mut Rng) -> Json<'static>) -> Json<'static> {
    if rng.chance(15) {
        Json::Null
    } else if rng.chance(4) {
        rng.pick(&[
            Json::Bool(false),
            Json::Number("0".into()),
            Json::Number("0.0".into()),
            Json::String(String::new().into()),
        ])
        .clone()
    } else {
        make(rng)
    }
}

fn integer(rng: &mut Rng) -> Json<'static> {
    Json::Number(rng.pick(&["0", "-0", "1", "150000", "1700000600", "99900000", "-5"]).to_string().into())
}

fn object(members: Vec<(&str, Json<'static>)>) -> Json<'static> {
    Json::Object(members.into_iter().map(|(k, v)| (k.to_owned().into(), v)).collect())
}

/// Adds, now and then, members the model does not read (booleans and numbers of every
/// kind among them). None sorts right after a field that identifies the payment.
fn with_unread(mut object: Json<'static>, rng: &mut Rng, keys: &[&str]) -> Json<'static> {
    if let Json::Object(members) = &mut object {
        for key in keys {
            if rng.chance(35) {
                members.push(((*key).to_owned().into(), any_leaf(rng)));
            }
        }
    }
    object
}

/// A callback shaped like the spec's, with random values.
fn genuine(rng: &mut Rng) -> Json<'static> {
    let status = *rng.pick(&["success", "decline", "processing", "dispute"]);
    let general = object(vec![("payment_id", text(rng)), ("request_id", maybe_null(rng, text))]);
    let mut members = vec![
        ("project_id", Json::String("prj_8f2c".into())),
        ("general", general),
        (
            "status",
            with_unread(
                object(vec![
                    ("status", Json::String(status.into())),
                    (
                        "sub_status",
                        maybe_null(rng, |r| {
                            Json::String(r.pick(&["paid", "new", "awaiting_confirm"]).to_string().into())
                        }),
                    ),
                    ("status_description", maybe_null(rng, text)),
                ]),
                rng,
                &["final", "code"],
            ),
        ),
        (
            "payment_info",
            with_unread(
                object(vec![
                    ("amount", maybe_null(rng, integer)),
                    ("currency", maybe_null(rng, text)),
                    ("method", maybe_null(rng, |_| Json::String("card-p2p".into()))),
                    ("expiration_date", maybe_null(rng, integer)),
                ]),
                rng,
                &["fee", "is_test", "rate"],
            ),
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
                let title =
                    *rng.pick(&["recipient_pan", "recipient_card_holder", "amount", "confirm_url", "qr", "note"]);
                let data = match title {
                    // Read as an integer (or a string of digits).
                    "amount" => integer(rng),
                    // Titles the spec does not list: read free-form, any leaf as the message writes it.
                    "qr" | "note" => any_leaf(rng),
                    // Read as text, an integer as its text.
                    _ if rng.chance(20) => integer(rng),
                    _ => text(rng),
                };
                object(vec![
                    ("type", Json::String("add_info".into())),
                    ("title", Json::String(title.into())),
                    ("data", data),
                ])
            })
            .collect();
        members.push(("additional_info", object(vec![("display_data", Json::Array(items))])));
    }
    with_unread(object(members), rng, &["test", "score", "zz_big"])
}

/// One random re-reading of the joined entries as a body, or `None` when it
/// does not form a tree (a path both leaf and object, a repeated key…).
/// `wild`: also re-split and move boundaries; otherwise only swap equivalent values
/// and add empty containers.
fn reread(rng: &mut Rng, entries: &[String], wild: bool, leaves: &mut Leaves) -> Option<Json<'static>> {
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
        let value = leaves.pick(rng, &entry[at + 1..]);
        insert(rng, &mut tree, &segments, value, wild)?;
    }
    if rng.chance(30) {
        add_empty(rng, &mut tree);
    }
    Some(tree)
}

/// The leaves a variant writes with a given text, found once per text.
struct Leaves {
    variant: CanonicalOptions,
    known: HashMap<String, Vec<Json<'static>>>,
}

impl Leaves {
    fn new(variant: CanonicalOptions) -> Self {
        Leaves { variant, known: HashMap::new() }
    }

    /// A random leaf whose canonical text under the variant is `text` (the string
    /// `text` itself when no other leaf writes it, or when it is the only one).
    fn pick(&mut self, rng: &mut Rng, text: &str) -> Json<'static> {
        let variant = self.variant;
        let all = self.known.entry(text.to_owned()).or_insert_with(|| equivalents(text, &variant));
        if all.is_empty() {
            Json::String(text.to_owned().into())
        } else {
            rng.pick(all).clone()
        }
    }
}

/// The genuine tree with a few leaves swapped for equivalents (and now and then an
/// empty container added): rewrites that differ in one or two types only.
fn swap_some(
    rng: &mut Rng,
    original: &Json<'static>,
    leaves: &mut Leaves,
    variant: &CanonicalOptions,
) -> Json<'static> {
    fn walk(rng: &mut Rng, value: &Json<'static>, leaves: &mut Leaves, variant: &CanonicalOptions) -> Json<'static> {
        match value {
            Json::Object(members) => {
                Json::Object(members.iter().map(|(k, v)| (k.clone(), walk(rng, v, leaves, variant))).collect())
            }
            Json::Array(items) => Json::Array(items.iter().map(|v| walk(rng, v, leaves, variant)).collect()),
            leaf => match text_of(leaf, variant) {
                Some(text) if rng.chance(15) => leaves.pick(rng, &text),
                _ => leaf.clone(),
            },
        }
    }
    let mut tree = walk(rng, original, leaves, variant);
    if rng.chance(20) {
        add_empty(rng, &mut tree);
    }
    tree
}

/// The canonical text of one leaf under `variant`, as its entry writes it.
fn text_of(leaf: &Json<'static>, variant: &CanonicalOptions) -> Option<String> {
    let entries = canonical_entries(&Json::Object(vec![("k".into(), leaf.clone())]), variant).ok()?;
    match entries.as_slice() {
        [entry] => entry.strip_prefix("k:").map(str::to_owned),
        _ => None,
    }
}

/// Every candidate leaf (null, booleans, the falsy values, the string, other texts of
/// the same number) that `variant` writes as `text`.
fn equivalents(text: &str, variant: &CanonicalOptions) -> Vec<Json<'static>> {
    let mut candidates = vec![
        Json::Null,
        Json::Bool(true),
        Json::Bool(false),
        Json::String(text.to_owned().into()),
        Json::String(String::new().into()),
    ];
    for zero in ["0", "-0", "0.0", "-0.0", "0e0", "1e-400"] {
        candidates.push(Json::Number(zero.into()));
    }
    for number in number_texts(text) {
        candidates.push(Json::Number(number.into()));
    }
    candidates.retain(|leaf| text_of(leaf, variant).as_deref() == Some(text));
    candidates.dedup();
    candidates
}

/// Whether `text` is a JSON number.
fn is_json_number(text: &str) -> bool {
    let rest = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let (integer, fraction) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let exponent_ok = exponent.map_or(true, |e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    digits(integer) && (integer == "0" || !integer.starts_with('0')) && fraction.map_or(true, digits) && exponent_ok
}

/// JSON number texts that may write `text`: itself, with `.0`, with an exponent,
/// its digits shifted against the exponent, and (for long integers) its neighbours.
fn number_texts(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], text[at + 1..].parse::<i32>().ok()),
        None => (text, Some(0)),
    };
    let Some(exponent) = exponent else { return out };
    out.push(text.to_owned());
    out.push(format!("{mantissa}e{exponent}"));
    out.push(format!("{mantissa}E+{exponent}"));
    let (sign, unsigned) = mantissa.strip_prefix('-').map_or(("", mantissa), |m| ("-", m));
    let (integer, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = format!("{integer}{fraction}");
    let shift = exponent - fraction.len() as i32;
    out.push(format!("{sign}{digits}e{shift}"));
    out.push(format!("{sign}{digits}0e{}", shift - 1));
    out.push(format!(
        "{sign}{}.{}e{}",
        &digits[..1.min(digits.len())],
        &digits[1.min(digits.len())..],
        shift + digits.len() as i32 - 1
    ));
    if fraction.is_empty() && exponent == 0 {
        out.push(format!("{mantissa}.0"));
        out.push(format!("{mantissa}.000"));
        if unsigned.len() >= 17 {
            // Integers past 2^53 share their nearest double with their neighbours.
            let head = &unsigned[..unsigned.len() - 3];
            for tail in ["000", "001", "499", "500", "890", "891", "999"] {
                out.push(format!("{sign}{head}{tail}"));
            }
        }
    }
    out.retain(|number| is_json_number(number));
    out
}

/// Puts `value` at `segments`, digit segments as array indices or keys at random.
fn insert(rng: &mut Rng, node: &mut Json<'static>, segments: &[&str], value: Json<'static>, wild: bool) -> Option<()> {
    let (first, rest) = segments.split_first()?;
    match node {
        Json::Object(members) => {
            let position = members.iter().position(|(key, _)| key == first);
            match (position, rest.is_empty()) {
                (Some(_), true) => None,
                (Some(at), false) => insert(rng, &mut members[at].1, rest, value, wild),
                (None, true) => {
                    members.push(((*first).to_owned().into(), value));
                    Some(())
                }
                (None, false) => {
                    let digits = rest[0].bytes().all(|b| b.is_ascii_digit()) && !rest[0].is_empty();
                    let as_array = digits && (!wild || rng.chance(80));
                    let mut child = if as_array { Json::Array(Vec::new()) } else { Json::Object(Vec::new()) };
                    insert(rng, &mut child, rest, value, wild)?;
                    members.push(((*first).to_owned().into(), child));
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
fn add_empty(rng: &mut Rng, node: &mut Json<'static>) {
    if let Json::Object(members) = node {
        if !members.is_empty() && rng.chance(60) {
            let at = rng.below(members.len());
            return add_empty(rng, &mut members[at].1);
        }
        let key = rng.pick(&["extra", "payment_info", "display_data", "zz", "general"]).to_string();
        if !members.iter().any(|(k, _)| *k == key) {
            let empty = if rng.chance(50) { Json::Object(Vec::new()) } else { Json::Array(Vec::new()) };
            members.push((key.into(), empty));
        }
    }
}

/// The value with every object's members in key order: equal for bodies that differ only in order.
fn sorted(value: &Json<'static>) -> Json<'static> {
    match value {
        Json::Object(members) => {
            let mut members: Vec<(std::borrow::Cow<'static, str>, Json<'static>)> =
                members.iter().map(|(k, v)| (k.clone(), sorted(v))).collect();
            members.sort_by(|a, b| a.0.cmp(&b.0));
            Json::Object(members)
        }
        Json::Array(items) => Json::Array(items.iter().map(sorted).collect()),
        leaf => leaf.clone(),
    }
}

fn bind(body: &Json<'static>, text: &str, variant: &CanonicalOptions) -> Result<VerifiedCallback, Error> {
    let prepared = PreparedCallback {
        raw_body: text.to_owned(),
        body: Some(body.clone()),
        limits: Limits::default(),
        timestamp: 1_700_000_000,
        merchant_id: "merchant-1".into(),
        key_index: 0,
        message: String::new(),
        signature: Vec::new(),
        digest: Default::default(),
        rsa_pending: false,
    };
    prepared.finish(&VerifyOptions { canonical: *variant, ..VerifyOptions::default() })
}

/// Genuine callbacks per variant, and rewrites tried per genuine callback.
const ROUNDS_PER_VARIANT: usize = 100;
const REWRITES_PER_ROUND: usize = 250;

/// What one variant's run found.
#[derive(Default, Debug)]
struct Tally {
    genuine: usize,
    same_message: usize,
    other_tree: usize,
    accepted_other_tree: usize,
    refused: usize,
}

fn explore(variant: &CanonicalOptions, rng: &mut Rng) -> Tally {
    let limits = Limits::default();
    let mut leaves = Leaves::new(*variant);
    let mut tally = Tally::default();
    for round in 0..ROUNDS_PER_VARIANT {
        let original = genuine(rng);
        let original_text = original.to_json_text();
        let original = parse_body(&original_text, &limits).unwrap();
        let Ok(expected) = bind(&original, &original_text, variant) else {
            continue; // a genuine body its own message does not determine is refused; nothing to compare
        };
        tally.genuine += 1;
        let message = canonical_message(&original, TIMESTAMP, variant).unwrap();
        let entries = canonical_entries(&original, variant).unwrap();
        for _ in 0..REWRITES_PER_ROUND {
            let rewrite = match rng.below(3) {
                0 => swap_some(rng, &original, &mut leaves, variant),
                mode => {
                    let Some(rewrite) = reread(rng, &entries, mode == 2, &mut leaves) else { continue };
                    rewrite
                }
            };
            let text = rewrite.to_json_text();
            let Ok(rewrite) = parse_body(&text, &limits) else { continue };
            if canonical_message(&rewrite, TIMESTAMP, variant).ok().as_ref() != Some(&message) {
                continue;
            }
            tally.same_message += 1;
            let different_tree = sorted(&rewrite) != sorted(&original);
            tally.other_tree += usize::from(different_tree);
            match bind(&rewrite, &text, variant) {
                Ok(read) => {
                    assert_eq!(
                        read.callback, expected.callback,
                        "{variant:?}, round {round}: {text}\nreads differently from the genuine\n{original_text}"
                    );
                    tally.accepted_other_tree += usize::from(different_tree);
                }
                Err(_) => tally.refused += 1,
            }
        }
    }
    tally
}

#[test]
fn no_body_with_the_same_message_reads_as_another_callback() {
    let mut rng = Rng(seed());
    let mut total = Tally::default();
    for variant in CanonicalOptions::all_variants() {
        let tally = explore(&variant, &mut rng);
        // Every variant is explored: genuine callbacks are accepted, and rewrites
        // other than the genuine tree share their message.
        assert!(tally.genuine > ROUNDS_PER_VARIANT / 4, "{variant:?}: {tally:?}");
        assert!(tally.other_tree > 100, "{variant:?}: {tally:?}");
        assert!(tally.refused > 10, "{variant:?}: {tally:?}");
        total.genuine += tally.genuine;
        total.same_message += tally.same_message;
        total.other_tree += tally.other_tree;
        total.accepted_other_tree += tally.accepted_other_tree;
        total.refused += tally.refused;
    }
    eprintln!(
        "{} variants, {} accepted genuine callbacks; {} rewrites with the genuine message: {} other trees, {} of them accepted (as the genuine), {} refused",
        CanonicalOptions::all_variants().len(),
        total.genuine,
        total.same_message,
        total.other_tree,
        total.accepted_other_tree,
        total.refused
    );
    // The test explores: many rewrites differ from the genuine tree, and some of those
    // are accepted (None equivalents, digits as numbers, other number texts), all reading as the genuine.
    assert!(total.other_tree > 20_000, "{total:?}");
    assert!(total.accepted_other_tree > 2_000, "{total:?}");
    assert!(total.refused > 2_000, "{total:?}");
}

/// The generator knows each variant's equivalences, checked against the entry writer.
#[test]
fn the_generator_swaps_leaves_for_their_equivalents() {
    let js_digit_null = CanonicalOptions {
        falsy: Falsy::Null,
        booleans: Booleans::Digit,
        numbers: Numbers::Js,
        ..CanonicalOptions::DEFAULT
    };
    let lower = CanonicalOptions { falsy: Falsy::Null, booleans: Booleans::Lower, ..CanonicalOptions::DEFAULT };
    let number = |text: &'static str| Json::Number(text.into());
    let string = |text: &'static str| Json::String(text.into());
    let cases = [
        (CanonicalOptions::DEFAULT, "True", vec![Json::Bool(true), string("True")]),
        (lower, "false", vec![Json::Bool(false), string("false")]),
        (
            js_digit_null,
            "1",
            vec![Json::Bool(true), string("1"), number("1"), number("1.0"), number("1e0"), number("10e-1")],
        ),
        (js_digit_null, "0", vec![Json::Bool(false), string("0"), number("0"), number("-0"), number("0.0")]),
        (
            js_digit_null,
            "12345678901234567000",
            vec![string("12345678901234567000"), number("12345678901234567890"), number("12345678901234567891")],
        ),
        (js_digit_null, "None", vec![Json::Null, string("None")]),
    ];
    for (variant, text, expected) in cases {
        let found = equivalents(text, &variant);
        for leaf in &expected {
            assert!(found.contains(leaf), "{variant:?} {text}: {leaf:?} not in {found:?}");
        }
        for leaf in &found {
            assert_eq!(text_of(leaf, &variant).as_deref(), Some(text), "{variant:?}: {leaf:?}");
        }
    }
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
        if let Ok(read) = bind(&body, &replay, &CanonicalOptions::DEFAULT) {
            keys.push(read.callback.idempotency_key);
        }
    }
    assert_eq!(keys.len(), 8);
    keys.dedup();
    assert_eq!(keys, ["prj:o-1:success:"]);
}

/// Under every variant, the replays whose message is the one signed (every value the
/// variant writes `None`, and the booleans and numbers it writes as the signed text)
/// are all accepted with one idempotency key.
#[test]
fn replays_in_every_variant_give_one_idempotency_key() {
    let text = r#"{"project_id":"prj","general":{"payment_id":"o-1","request_id":"r"},"status":{"status":"success","sub_status":null,"status_description":null},"payment_info":{"amount":100},"extra":{"flag":true,"rate":1.0}}"#;
    let replays = [
        ("\"sub_status\":null", &["null", r#""""#, "0", "-0", "false", r#""None""#, "0.0", "-0.0"][..]),
        ("\"flag\":true", &["true", r#""True""#, r#""true""#, "1", r#""1""#, "1.0", "1e0"][..]),
        ("\"rate\":1.0", &["1.0", "1", "1e0", "10e-1", r#""1""#, r#""1.0""#, "true", r#""True""#][..]),
    ];
    for variant in CanonicalOptions::all_variants() {
        let signed = canonical_message(&parse_body(text, &Limits::default()).unwrap(), TIMESTAMP, &variant).unwrap();
        let expected = bind(&parse_body(text, &Limits::default()).unwrap(), text, &variant).unwrap().callback;
        let mut same_message = 0;
        for (member, values) in replays {
            let name = &member[..member.find(':').unwrap_or(0)];
            for value in values {
                let replay = text.replace(member, &format!("{name}:{value}"));
                let body = parse_body(&replay, &Limits::default()).unwrap();
                if canonical_message(&body, TIMESTAMP, &variant).unwrap() != signed {
                    continue;
                }
                same_message += 1;
                let read = bind(&body, &replay, &variant).unwrap_or_else(|e| panic!("{variant:?} {replay}: {e}"));
                assert_eq!(read.callback, expected, "{variant:?} {replay}");
                assert_eq!(read.callback.idempotency_key, "prj:o-1:success:");
            }
        }
        // At least null and "None", the flag and its text, and the rate as written.
        assert!(same_message >= 5, "{variant:?}: {same_message}");
    }
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
    for variant in CanonicalOptions::all_variants() {
        let message = |body: &Json<'static>| canonical_message(body, TIMESTAMP, &variant).unwrap();
        assert_eq!(message(&genuine_body), message(&rewrite_body), "{variant:?}: the same signature covers both");
        let rule = |result: Result<VerifiedCallback, Error>| match result {
            Err(Error::AmbiguousCallback { ambiguities, .. }) => ambiguities[0].rule,
            other => panic!("{variant:?}: not refused as ambiguous: {other:?}"),
        };
        assert_eq!(rule(bind(&genuine_body, genuine, &variant)), "VALUE_ENTRY_TEXT");
        assert_eq!(rule(bind(&rewrite_body, rewrite, &variant)), "UNREAD_AFTER_TEXT");
    }
}

/// Members the model does not read are accepted where no identifying text
/// precedes them: a service that adds fields does not lose its callbacks.
#[test]
fn unread_members_elsewhere_are_accepted() {
    let body = r#"{"project_id":"prj","general":{"payment_id":"order-7","request_id":"r-1"},"status":{"status":"decline","sub_status":null,"status_description":"Canceled by client"},"payment_info":{"amount":100,"currency":"RUB","description":"new field"},"customer":{"id":"c-1"},"zz":1}"#;
    for variant in CanonicalOptions::all_variants() {
        let read = bind(&parse_body(body, &Limits::default()).unwrap(), body, &variant).expect("accepted");
        assert_eq!(read.callback.payment_id, "order-7", "{variant:?}");
        assert!(read.ambiguities.is_empty(), "{variant:?}");
    }
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
    for variant in CanonicalOptions::all_variants() {
        let message = |body: &Json<'static>| canonical_message(body, TIMESTAMP, &variant).unwrap();
        assert_eq!(message(&genuine_body), message(&rewrite_body), "{variant:?}: the same signature covers both");
        assert!(matches!(bind(&genuine_body, genuine, &variant), Err(Error::AmbiguousCallback { .. })));
        match bind(&rewrite_body, rewrite, &variant) {
            Err(Error::InvalidCallback { path, .. }) => assert_eq!(path, "recipient_requisites", "{variant:?}"),
            other => panic!("{variant:?}: a rewrite with both pairs was not refused: {other:?}"),
        }
    }
}
