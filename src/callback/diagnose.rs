//! Diagnosing a callback that does not verify: which rules the sender used
//! (every combination of the canonical options, and the digest for RSA or
//! the signature encoding for HMAC), or, when none matches, why: the key is
//! wrong, else the body was changed, else the sender uses a rule we do not
//! know.
//!
//! Each distinct message is built once. An RSA signature is opened once per
//! key (`s^e mod n`) and the digest inside is compared with each message's
//! single and double SHA-256, so trying every combination costs one public
//! RSA operation per key and a few hashes per message.

use sha2::{Digest as _, Sha256};

use super::keys::{match_token, token_encoding, CallbackKey, ConfiguredKey};
use super::{verify_callback, ReceivedHeaders, VerifyOptions};
use crate::canonical::{check_callback_timestamp, encode_message, joined_entries, CanonicalOptions};
use crate::error::{Error, Result};
use crate::hmac;
use crate::json::{read_body, Limits};
use crate::profile::{distance_from_spec, Profile, PROFILES};
use crate::rsa::keys::TokenEncoding;
use crate::rsa::pkcs1v15::{decode_signature, open_signature, Digest, Opened};

/// Why no combination matched, the first that the evidence does not rule out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The signature was not made with a configured key (an RSA signature does
    /// not open to a PKCS#1 v1.5 encoding under any of them; or no HMAC secret matches).
    Key,
    /// A configured RSA key signed a SHA-256 digest, but of no message any
    /// combination builds from this body and timestamp: they were changed after
    /// signing (or the sender builds the message by a rule we do not know). Also when
    /// the signature matches under some combination but the body does not read under
    /// any of them ([`Diagnosis::body_error`] says why, [`Diagnosis::field`] where).
    Body,
    /// A configured RSA key signed, but not a SHA-256 DigestInfo (another hash,
    /// or none): the sender uses a rule we do not know.
    Rule,
}

impl Cause {
    /// As JS spells it: `key`, `body` or `rule`.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // read by the wasm layer
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Cause::Key => "key",
            Cause::Body => "body",
            Cause::Rule => "rule",
        }
    }
}

/// What [`diagnose_callback`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    /// Verifying the body with `options` returns a model: the signature matches under
    /// them and the body reads under them. Never on the signature alone.
    pub matched: bool,
    /// The combination to pass to `verifyCallback`, which returns a model with it: a
    /// named profile when one does, otherwise the one closest to the spec's defaults.
    /// `None` unless `matched`.
    pub options: Option<Profile>,
    /// Every combination under which the signature matches (several when the body has
    /// no leaf they treat differently); the body need not read under each.
    pub matching: Vec<Profile>,
    /// The configured key `options` verifies with; when the signature matches but the body
    /// does not read, the key that made the signature (`signature_options`'s).
    pub key_index: Option<usize>,
    /// A configured key's signature matches under some combination (`matching` is not
    /// empty), whether or not the body reads under it.
    pub signature_matched: bool,
    /// When the signature matches but the body reads under none of those combinations:
    /// the one it matches under that `options` would have named.
    pub signature_options: Option<Profile>,
    /// What `verifyCallback` with `signature_options` reports (`INVALID_CALLBACK`,
    /// `AMBIGUOUS_CALLBACK`, …): the body was changed after signing, or is not a callback.
    pub body_error: Option<Error>,
    /// The body path `body_error` names (the first ambiguity's for `AMBIGUOUS_CALLBACK`;
    /// empty for the whole body).
    pub field: Option<String>,
    /// The encoding of the token the sender sent, when it carries an RSA key.
    pub token: Option<TokenEncoding>,
    /// What plain verification with default options reports, or `None` when it passes.
    pub default_error: Option<Error>,
    /// The token names a configured RSA key.
    pub token_matches_key: bool,
    /// How many distinct messages were built and checked.
    pub messages_tried: usize,
    /// Why nothing matched; `None` when something did.
    pub cause: Option<Cause>,
    /// What to do, in one sentence.
    pub hint: String,
}

/// Largest body [`diagnose_callback`] reads: it builds up to 48 messages, and a
/// callback is about 1 KB.
pub const DIAGNOSE_MAX_BYTES: usize = Limits::CALLBACK_MAX_BYTES;

/// A distinct message and the canonical options that build it.
struct Candidate {
    message: String,
    variants: Vec<CanonicalOptions>,
}

/// Every distinct message the canonical variants build from `body`.
fn candidates(body: &crate::json::Json, timestamp: &str) -> Result<Vec<Candidate>> {
    let mut joined: Vec<(CanonicalOptions, String)> = Vec::new();
    let mut out: Vec<Candidate> = Vec::new();
    for variant in CanonicalOptions::all_variants() {
        // Padding only changes the encoding: the entries are joined once per the other options.
        let entries_of = CanonicalOptions { padding: true, ..variant };
        let text = match joined.iter().position(|(options, _)| *options == entries_of) {
            Some(at) => &joined[at].1,
            None => {
                joined.push((entries_of, joined_entries(body, &entries_of)?));
                &joined[joined.len() - 1].1
            }
        };
        let message = encode_message(text, timestamp, variant.padding)?;
        match out.iter_mut().find(|candidate| candidate.message == message) {
            Some(candidate) => candidate.variants.push(variant),
            None => out.push(Candidate { message, variants: vec![variant] }),
        }
    }
    Ok(out)
}

/// Tries every combination of rules against every configured key, to tell the
/// merchant which one the sender used, or why none matches. Bodies over
/// [`DIAGNOSE_MAX_BYTES`] (or `limits`, if smaller) are refused.
pub fn diagnose_callback<K: ConfiguredKey>(
    raw_body: &str,
    headers: &ReceivedHeaders,
    keys: &[K],
    limits: &Limits,
) -> Result<Diagnosis> {
    if keys.is_empty() {
        return Err(Error::NoVerifyingKey);
    }
    check_callback_timestamp(&headers.timestamp)?;
    let limits = Limits { max_bytes: limits.max_bytes.min(DIAGNOSE_MAX_BYTES), ..*limits };
    let body = read_body(raw_body, &limits)?;
    let default_options = VerifyOptions { limits, ..VerifyOptions::default() };
    let token = headers.token.as_deref();
    let token_matches_key = token.is_some_and(|token| match_token(token, keys).is_ok());
    let token_seen = token.and_then(token_encoding);

    let candidates = candidates(&body, &headers.timestamp)?;
    let mut found: Vec<(usize, Profile)> = Vec::new();
    let mut opened_sha256 = false;
    let mut other_rule: Option<&'static str> = None;
    let hmac_encoding = hmac::encoding_of(&headers.signature);
    for (index, key) in keys.iter().enumerate() {
        let key = match (key.rsa(), key.hmac()) {
            (Some(rsa), _) => CallbackKey::Rsa(rsa.clone()),
            (None, Some(hmac)) => CallbackKey::Hmac(hmac.clone()),
            (None, None) => continue,
        };
        match &key {
            CallbackKey::Rsa(key) => {
                let Ok(signature) = decode_signature(&headers.signature, key) else { continue };
                match open_signature(&signature, key)? {
                    Opened::Sha256(digest) => {
                        opened_sha256 = true;
                        for candidate in &candidates {
                            let once: [u8; 32] = Sha256::digest(candidate.message.as_bytes()).into();
                            let twice: [u8; 32] = Sha256::digest(once).into();
                            for (hash, rule) in [(once, Digest::Single), (twice, Digest::Double)] {
                                if hash == digest {
                                    for canonical in &candidate.variants {
                                        let profile = Profile {
                                            canonical: *canonical,
                                            digest: rule,
                                            token: token_seen.unwrap_or_default(),
                                            ..Profile::SPEC
                                        };
                                        found.push((index, profile));
                                    }
                                }
                            }
                        }
                    }
                    Opened::Other(rule) => other_rule = other_rule.or(Some(rule)),
                    Opened::NotThisKey => {}
                }
            }
            CallbackKey::Hmac(key) => {
                let Some(encoding) = hmac_encoding else { continue };
                let Some(signature) = hmac::decode_signature(&headers.signature, encoding) else { continue };
                for candidate in &candidates {
                    if key.verify_bytes(&candidate.message, &signature)? {
                        for canonical in &candidate.variants {
                            let profile =
                                Profile { canonical: *canonical, signature_encoding: encoding, ..Profile::SPEC };
                            found.push((index, profile));
                        }
                    }
                }
            }
        }
    }

    // Verifying: with the default options first (for `default_error`), then with each
    // combination in the order `options` names them until one returns a model. One call
    // site, so the verification is in the code once.
    let is_rsa_key = |index: usize| keys[index].rsa().is_some();
    let mut remaining = found.clone();
    let mut default_error: Option<Error> = None;
    let mut first_refusal: Option<((usize, Profile), Error)> = None;
    let mut best: Option<(usize, Profile)> = None;
    let mut attempt: Option<(usize, Profile)> = None;
    loop {
        let profile = attempt.map_or(Profile::SPEC, |(_, profile)| profile);
        let options = VerifyOptions { limits, ..VerifyOptions::with_profile(&profile) };
        let as_default = attempt.is_some()
            && default_error.is_none()
            && options.canonical == default_options.canonical
            && options.digest == default_options.digest
            && options.signature_encoding == default_options.signature_encoding;
        let verified = if as_default {
            // The default options, which verified above.
            Ok(usize::MAX)
        } else {
            verify_callback(raw_body, headers, keys, &options).map(|verified| verified.key_index)
        };
        match (attempt, verified) {
            (None, Ok(_)) => {}
            (None, Err(error)) => default_error = Some(error),
            (Some((index, profile)), Ok(key_index)) => {
                best = Some((if key_index == usize::MAX { index } else { key_index }, profile));
                break;
            }
            (Some(tried), Err(error)) => {
                if first_refusal.is_none() {
                    first_refusal = Some((tried, error));
                }
            }
        }
        attempt = best_match(&remaining, &is_rsa_key);
        match attempt {
            Some(next) => remaining.retain(|entry| *entry != next),
            None => break,
        }
    }
    let refused = if best.is_none() { first_refusal } else { None };
    let cause = match best {
        Some(_) => None,
        None if opened_sha256 || refused.is_some() => Some(Cause::Body),
        None if other_rule.is_some() => Some(Cause::Rule),
        None => Some(Cause::Key),
    };
    let field = refused.as_ref().map(|(_, error)| field_of(error));
    let is_rsa = best.is_some_and(|(index, _)| keys[index].rsa().is_some());
    let hint = match &refused {
        Some((_, error)) => body_hint(error, field.as_deref().unwrap_or_default()),
        None => hint(best.map(|(_, profile)| profile), cause, is_rsa, token_matches_key, other_rule, candidates.len()),
    };
    Ok(Diagnosis {
        matched: best.is_some(),
        options: best.map(|(_, profile)| profile),
        matching: found.iter().map(|(_, profile)| *profile).collect(),
        key_index: best.or(refused.as_ref().map(|(tried, _)| *tried)).map(|(index, _)| index),
        signature_matched: !found.is_empty(),
        signature_options: refused.as_ref().map(|((_, profile), _)| *profile),
        body_error: refused.map(|(_, error)| error),
        field,
        token: token_seen,
        default_error,
        token_matches_key,
        messages_tried: candidates.len(),
        cause,
        hint,
    })
}

/// Where an error of verifying a body whose signature matched puts the fault.
fn field_of(error: &Error) -> String {
    match error {
        Error::InvalidCallback { path, .. } => path.clone(),
        Error::AmbiguousCallback { ambiguities, .. } => {
            ambiguities.first().map(|ambiguity| ambiguity.path.clone()).unwrap_or_default()
        }
        _ => String::new(),
    }
}

/// The hint when the signature matches but the body does not read under those rules.
fn body_hint(error: &Error, field: &str) -> String {
    let at = if field.is_empty() { "the body".to_owned() } else { format!("`{field}`") };
    format!(
        "the signature matches under the rules in `signatureOptions`, but the body does not read under them \
         ({}: {error}): {at} was changed after signing, or the body is not a callback; do not loosen \
         verifyCallback's options for it",
        error.code()
    )
}

/// The match to name: a named profile if one matched (in their order), else
/// the one with the fewest rules apart from the spec's (the first of those).
fn best_match(found: &[(usize, Profile)], is_rsa: &impl Fn(usize) -> bool) -> Option<(usize, Profile)> {
    let named = PROFILES
        .iter()
        .find_map(|named| found.iter().find(|(index, profile)| same_rules(profile, &named.profile, is_rsa(*index))));
    named.or_else(|| found.iter().min_by_key(|(_, profile)| distance_from_spec(profile))).copied()
}

/// The same rules, in the parts that apply to the key's algorithm: the digest
/// and token for RSA, the signature encoding for HMAC.
fn same_rules(found: &Profile, named: &Profile, is_rsa: bool) -> bool {
    found.canonical == named.canonical
        && if is_rsa {
            found.digest == named.digest && found.token == named.token
        } else {
            found.signature_encoding == named.signature_encoding
        }
}

fn hint(
    best: Option<Profile>,
    cause: Option<Cause>,
    is_rsa: bool,
    token_matches_key: bool,
    other_rule: Option<&str>,
    tried: usize,
) -> String {
    match (best, cause) {
        (Some(found), _) if found == Profile::SPEC && (token_matches_key || !is_rsa) => {
            "the callback verifies with the default options".to_owned()
        }
        (Some(_), _) if is_rsa && !token_matches_key => {
            "the signature is good for a configured key, but x-access-token does not carry a configured key".to_owned()
        }
        (Some(_), _) => "the sender uses the rules in `options`; pass them to verifyCallback as they are".to_owned(),
        (None, Some(Cause::Body)) => format!(
            "a configured key signed this callback, but none of the {tried} messages built from this body and \
             timestamp: they were changed after signing, or else the sender builds the message by a rule we do not know"
        ),
        (None, Some(Cause::Rule)) => format!(
            "a configured key signed this callback, but over {} instead of SHA-256: the sender uses a rule we do not know",
            other_rule.unwrap_or("something else")
        ),
        (None, _) => "no configured key made this signature: check the key (or secret) against the merchant admin \
                      panel; otherwise the body was changed, or the sender uses a rule we do not know"
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hmac::{HmacKey, SignatureEncoding};
    use crate::json::parse_body;
    use crate::profile::profile_named;
    use crate::request::signing::{sign_body, RequestKey};
    use crate::rsa::keys::SigningKey;

    fn signing_key(name: &str) -> SigningKey {
        let path = format!("{}/tests/vectors/keys/{name}.pkcs8.pem", env!("CARGO_MANIFEST_DIR"));
        SigningKey::from_pem(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// A body on which every rule makes a difference.
    const BODY: &str = r#"{"a":1.0,"b":true,"c":0,"d":"","k😀":"x","k～":"y"}"#;
    /// A callback (from tests/vectors/dialects.json) with a few leaves the rules write differently.
    const CALLBACK: &str = r#"{"project_id":"prj_8f2c","general":{"request_id":"req_1","payment_id":"order-10045"},"status":{"status":"success","sub_status":null,"status_description":null},"payment_info":{"amount":150050,"old_amount":150050,"initial_amount":150050,"currency":"RUB","lifetime":600,"expiration_date":1700000600,"method":"card-p2p","type":"payin","payment_system":null},"recipient_requisites":null,"integration":{"form_url":"https://pay.example/f/1","redirect_url":""},"flag":true,"k😀":0,"k～":false}"#;

    fn signed(key: RequestKey<'_>, profile: &Profile) -> ReceivedHeaders {
        signed_body(BODY, key, profile)
    }

    fn signed_body(text: &str, key: RequestKey<'_>, profile: &Profile) -> ReceivedHeaders {
        let body = parse_body(text, &Limits::default()).unwrap();
        let headers = sign_body(&body, key, "merchant-1", "1700000000", profile).unwrap();
        ReceivedHeaders::from_pairs(headers.pairs()).unwrap()
    }

    #[test]
    fn names_the_public_js_client_and_its_options_verify() {
        let key = signing_key("rsa2048");
        let js = profile_named("public-js-client").unwrap();
        let headers = signed(RequestKey::Rsa(&key), &js);
        let keys = [CallbackKey::Rsa(key.verifying_key().clone())];
        let diagnosis = diagnose_callback(BODY, &headers, &keys, &Limits::callback()).unwrap();
        // BODY is not a callback: the signature matches under `js`, but nothing reads the body.
        assert!(!diagnosis.matched && diagnosis.signature_matched);
        assert_eq!(diagnosis.signature_options, Some(js));
        assert_eq!(diagnosis.token, Some(TokenEncoding::Der));
        let body = parse_body(BODY, &Limits::default()).unwrap();
        let mut distinct: Vec<String> = CanonicalOptions::all_variants()
            .iter()
            .map(|options| crate::canonical::canonical_message(&body, "1700000000", options).unwrap())
            .collect();
        distinct.sort();
        distinct.dedup();
        assert_eq!(diagnosis.messages_tried, distinct.len(), "each distinct message is tried once");
        assert!(distinct.len() > 24);
        assert_eq!(diagnosis.default_error.as_ref().map(Error::code), Some("INVALID_SIGNATURE"));
        // A callback signed so is named the same way, and its options verify it.
        let headers = signed_body(CALLBACK, RequestKey::Rsa(&key), &js);
        let diagnosis = diagnose_callback(CALLBACK, &headers, &keys, &Limits::callback()).unwrap();
        assert_eq!(diagnosis.options, Some(js));
        let options = VerifyOptions::with_profile(&js);
        assert!(verify_callback(CALLBACK, &headers, &keys, &options).is_ok());
        assert_eq!(
            verify_callback(CALLBACK, &headers, &keys, &VerifyOptions::default()).unwrap_err().code(),
            "INVALID_SIGNATURE"
        );
    }

    #[test]
    fn every_single_dimension_is_named() {
        let key = signing_key("rsa2048");
        let keys = [CallbackKey::Rsa(key.verifying_key().clone())];
        let spec = Profile::SPEC;
        let c = CanonicalOptions::DEFAULT;
        use crate::canonical::{Booleans, Falsy, Numbers, Order};
        for profile in [
            spec,
            Profile { digest: Digest::Double, ..spec },
            Profile { token: TokenEncoding::Der, ..spec },
            Profile { canonical: CanonicalOptions { numbers: Numbers::Js, ..c }, ..spec },
            Profile { canonical: CanonicalOptions { order: Order::Utf16, ..c }, ..spec },
            Profile { canonical: CanonicalOptions { falsy: Falsy::Null, ..c }, ..spec },
            Profile { canonical: CanonicalOptions { booleans: Booleans::Lower, ..c }, ..spec },
            Profile { canonical: CanonicalOptions { padding: false, ..c }, ..spec },
        ] {
            let headers = signed(RequestKey::Rsa(&key), &profile);
            let diagnosis = diagnose_callback(BODY, &headers, &keys, &Limits::callback()).unwrap();
            // BODY is not a callback: the signature matches, nothing reads the body.
            assert_eq!(diagnosis.signature_options, Some(profile), "{profile:?}");
            assert_eq!((diagnosis.matched, diagnosis.cause), (false, Some(Cause::Body)));
        }
    }

    #[test]
    fn hmac_callbacks_are_named_with_their_encoding_in_a_mixed_list() {
        let rsa = signing_key("rsa2048");
        let secret = HmacKey::from_text("test-only-hmac-secret-0123456789abcdef").unwrap();
        let keys = [CallbackKey::Rsa(rsa.verifying_key().clone()), CallbackKey::Hmac(secret.clone())];
        let hex = Profile {
            canonical: CanonicalOptions { padding: false, ..CanonicalOptions::DEFAULT },
            signature_encoding: SignatureEncoding::Hex,
            ..Profile::SPEC
        };
        let headers = signed_body(CALLBACK, RequestKey::Hmac(&secret, "HMAC-SHA512"), &hex);
        let diagnosis = diagnose_callback(CALLBACK, &headers, &keys, &Limits::callback()).unwrap();
        assert_eq!((diagnosis.options, diagnosis.key_index), (Some(hex), Some(1)));
        let verified = verify_callback(CALLBACK, &headers, &keys, &VerifyOptions::with_profile(&hex));
        assert_eq!(verified.map(|v| v.key_index), Ok(1));
        let wrong = HmacKey::from_text("another-test-only-secret-0123456789").unwrap();
        let diagnosis =
            diagnose_callback(CALLBACK, &headers, &[CallbackKey::Hmac(wrong)], &Limits::callback()).unwrap();
        assert_eq!((diagnosis.matched, diagnosis.cause), (false, Some(Cause::Key)));
    }

    #[test]
    #[cfg(feature = "wasm-rsa")]
    fn causes_in_order_key_then_body_then_rule() {
        let key = signing_key("rsa2048");
        let keys = [CallbackKey::Rsa(key.verifying_key().clone())];
        let headers = signed(RequestKey::Rsa(&key), &Profile::SPEC);
        // The body changed after signing.
        let changed = BODY.replace("\"x\"", "\"z\"");
        let diagnosis = diagnose_callback(&changed, &headers, &keys, &Limits::callback()).unwrap();
        assert_eq!((diagnosis.matched, diagnosis.cause), (false, Some(Cause::Body)));
        // Another key signed.
        let attacker = signing_key("attacker2048");
        let forged = signed(RequestKey::Rsa(&attacker), &Profile::SPEC);
        let forged = ReceivedHeaders { token: headers.token.clone(), ..forged };
        let diagnosis = diagnose_callback(BODY, &forged, &keys, &Limits::callback()).unwrap();
        assert_eq!(diagnosis.cause, Some(Cause::Key));
        // The configured key signed with SHA-512: a rule we do not know.
        use rsa::pkcs1v15::Pkcs1v15Sign;
        let body = parse_body(BODY, &Limits::default()).unwrap();
        let message = crate::canonical::canonical_message(&body, "1700000000", &CanonicalOptions::DEFAULT).unwrap();
        let digest = sha2::Sha512::digest(message.as_bytes());
        let bytes = key.rsa().unwrap().sign(Pkcs1v15Sign::new::<sha2::Sha512>(), &digest).unwrap();
        use base64::Engine;
        let sha512 =
            ReceivedHeaders { signature: base64::engine::general_purpose::URL_SAFE.encode(bytes), ..headers.clone() };
        let diagnosis = diagnose_callback(BODY, &sha512, &keys, &Limits::callback()).unwrap();
        assert_eq!(diagnosis.cause, Some(Cause::Rule));
        assert!(diagnosis.hint.contains("SHA-512"), "{}", diagnosis.hint);
    }

    /// A genuine callback whose amount is `amount`, signed with `profile`.
    fn genuine(amount: &str, key: &SigningKey, profile: &Profile) -> (String, ReceivedHeaders) {
        // Without the fixture's extra booleans, which `booleans` would tell apart.
        let text = CALLBACK.replace(r#","flag":true,"k😀":0,"k～":false"#, "");
        let text = text.replace("\"amount\":150050", &format!("\"amount\":{amount}"));
        let headers = signed_body(&text, RequestKey::Rsa(key), profile);
        (text, headers)
    }

    /// Issue 28's attack: a body rewritten after signing so that its message stays the
    /// same under some combination (`150000` → `"150000"` or `150000.0`, `1` → `true`).
    /// Diagnose said `matched` with those looser options although verifyCallback with them
    /// refuses the body; now it says the signature matches but the body does not read under
    /// them, and names the field.
    #[test]
    fn a_body_rewritten_after_signing_is_not_matched_and_its_field_is_named() {
        let key = signing_key("rsa2048");
        let keys = [CallbackKey::Rsa(key.verifying_key().clone())];
        let js = profile_named("public-js-client").unwrap();
        for profile in [Profile::SPEC, js] {
            for (amount, rewritten) in [("150000", "\"150000\""), ("150000", "150000.0"), ("1", "true")] {
                let (text, headers) = genuine(amount, &key, &profile);
                let verified = verify_callback(&text, &headers, &keys, &VerifyOptions::with_profile(&profile));
                assert!(verified.is_ok(), "the genuine body verifies");
                let forged = text.replace(&format!("\"amount\":{amount}"), &format!("\"amount\":{rewritten}"));
                assert_ne!(forged, text);
                let d = diagnose_callback(&forged, &headers, &keys, &Limits::callback()).unwrap();
                let case = format!("{rewritten} under {profile:?}");
                assert!(!d.matched, "{case}: {}", d.hint);
                assert_eq!((d.options, d.key_index, d.cause), (None, Some(0), Some(Cause::Body)), "{case}");
                assert!(d.signature_matched && !d.matching.is_empty(), "{case}: the signature does match");
                let signature_options = d.signature_options.unwrap();
                assert!(d.matching.contains(&signature_options), "{case}");
                assert_eq!(d.field.as_deref(), Some("payment_info.amount"), "{case}");
                assert_eq!(d.body_error.as_ref().map(Error::code), Some("INVALID_CALLBACK"), "{case}");
                assert!(d.hint.contains("`payment_info.amount`") && d.hint.contains("signatureOptions"), "{}", d.hint);
                // No combination the signature matches under returns a model for this body.
                for options in &d.matching {
                    let verified = verify_callback(&forged, &headers, &keys, &VerifyOptions::with_profile(options));
                    assert!(verified.is_err(), "{case}: {options:?} reads it");
                }
            }
        }
    }

    /// `matched` always means verifyCallback with `options` returns a model.
    #[test]
    fn matched_options_verify_and_a_signed_non_callback_is_not_matched() {
        let key = signing_key("rsa2048");
        let keys = [CallbackKey::Rsa(key.verifying_key().clone())];
        let digit = Profile {
            canonical: CanonicalOptions { booleans: crate::canonical::Booleans::Digit, ..CanonicalOptions::DEFAULT },
            ..Profile::SPEC
        };
        for profile in [Profile::SPEC, digit, profile_named("public-js-client").unwrap()] {
            let headers = signed_body(CALLBACK, RequestKey::Rsa(&key), &profile);
            let d = diagnose_callback(CALLBACK, &headers, &keys, &Limits::callback()).unwrap();
            assert!(d.matched && d.signature_matched, "{profile:?}: {}", d.hint);
            assert_eq!((d.signature_options, d.body_error.clone(), d.field.clone()), (None, None, None));
            let options = VerifyOptions::with_profile(&d.options.unwrap());
            assert_eq!(verify_callback(CALLBACK, &headers, &keys, &options).map(|v| v.key_index), Ok(0));
        }
        // A body signed by the configured key that is not a callback: the signature matches,
        // nothing reads it (the whole body is at fault).
        let headers = signed_body("{}", RequestKey::Rsa(&key), &Profile::SPEC);
        let d = diagnose_callback("{}", &headers, &keys, &Limits::callback()).unwrap();
        assert!(!d.matched && d.signature_matched);
        assert_eq!(d.signature_options, Some(Profile::SPEC));
        assert_eq!(d.body_error, d.default_error);
        assert!(d.field.is_some());
    }
}
