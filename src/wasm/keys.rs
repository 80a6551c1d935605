//! Keys: the glue classes `SigningKey` and `VerifyingKey` (which the JS
//! wrappers wrap in the package's own classes, `pkg-template/keys.mjs`), the
//! HMAC secrets (kept here, in wasm memory, under a number the package's
//! `HmacKey` holds privately), and the verifying keys a caller gives: PEM
//! text, the package's key objects (resolved by the wrappers' `keyPem`,
//! without calling into them), or any object with `publicKeyPem()`; one, or
//! an array for key rotation, RSA and HMAC mixed.

use std::cell::{Cell, RefCell};

use js_sys::Function;
use wasm_bindgen::prelude::*;

use super::cache::Cache;
use super::gateway::{
    bytes_arg, canonical_options, is_array, member, method_text, own_array_items, string_arg, OwnItemsError,
};
use super::js::{answer, js_error, wipe, Answer, Request};
use super::options::{whole_number_member, THROWS};
use super::JsResult;
use crate::callback::keys::CallbackKey;
use crate::error::Error;
use crate::hmac::HmacKey;
use crate::rsa::keys;

/// The token of `key` in the encoding and padding the options give (the spec's: PEM, padded).
fn token_of(key: &keys::VerifyingKey, options: &JsValue) -> Result<String, Error> {
    let profile = canonical_options(options)?;
    let token = key.token_in(profile.token);
    Ok(if profile.canonical.padding { token } else { token.trim_end_matches('=') }.to_owned())
}

/// An RSA private key that signs requests.
#[cfg(feature = "full-api")]
#[wasm_bindgen]
pub struct SigningKey(pub(super) keys::SigningKey);

#[cfg(feature = "full-api")]
#[wasm_bindgen]
impl SigningKey {
    /// Reads a PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM of 2048 to 4096 bits.
    #[wasm_bindgen(js_name = fromPem)]
    pub fn from_pem(#[wasm_bindgen(unchecked_param_type = "string")] pem: JsValue) -> JsResult<SigningKey> {
        let pem = string_arg(&pem, "pem").map_err(js_error)?;
        let key = keys::SigningKey::from_pem(&pem);
        // Our copy of the PEM is wiped, key or not; the key itself is zeroized on drop by `rsa`.
        wipe(pem);
        key.map(SigningKey).map_err(js_error)
    }

    /// Generates a key pair (2048 bits unless told): for tests and debugging.
    pub fn generate(
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] bits: JsValue,
    ) -> JsResult<SigningKey> {
        let bits = match member(bits) {
            member if member.is_absent() => 2048,
            member => whole_number_member("bits", &member, u32::MAX.into()).map_err(js_error)? as usize,
        };
        keys::SigningKey::generate(bits).map(SigningKey).map_err(js_error)
    }

    /// The `x-access-token` header value for this key, in the options' `token`
    /// encoding and `padding` (PEM, padded, unless told).
    pub fn token(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "CanonicalOptions")] options: JsValue,
    ) -> JsResult<String> {
        token_of(self.0.verifying_key(), &options).map_err(js_error)
    }

    /// The public key as SubjectPublicKeyInfo PEM.
    #[wasm_bindgen(js_name = publicKeyPem)]
    pub fn public_key_pem(&self) -> String {
        self.0.verifying_key().public_key_pem().to_owned()
    }

    /// The private key as PKCS#8 PEM.
    #[wasm_bindgen(js_name = privateKeyPem, unchecked_return_type = "string")]
    pub fn private_key_pem(&self) -> JsResult<JsValue> {
        // Made into a JS string here so that the wasm copy can be wiped (a `String`
        // return would be copied out by the glue and freed as it is).
        let pem = self.0.private_key_pem().map_err(js_error)?;
        let js = JsValue::from_str(&pem);
        wipe(pem);
        Ok(js)
    }

    /// The matching public key.
    #[wasm_bindgen(js_name = verifyingKey)]
    pub fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey(self.0.verifying_key().clone())
    }

    /// Modulus size in bits.
    #[wasm_bindgen(getter)]
    pub fn bits(&self) -> u32 {
        self.0.bits() as u32
    }

    /// The public half of this key as the members `n` and `e` of its JWK (base64url,
    /// unpadded), joined by `.`: what node:crypto's `export({ format: 'jwk' })` of the same
    /// key gives, a cheaper check than encoding SubjectPublicKeyInfo there
    /// (`pkg-template/node-crypto.mjs`). `key.__publicJwk()`: the key, `this`, is the whole
    /// request; the answer's value is the text.
    #[wasm_bindgen(js_name = __publicJwk, skip_typescript)]
    pub fn public_jwk(&self) -> Answer {
        let (mut n, e) = self.0.verifying_key().jwk_members();
        n.push('.');
        n.push_str(&e);
        answer(Ok(n.into()))
    }
}

/// An RSA public key that verifies callbacks.
#[wasm_bindgen]
pub struct VerifyingKey(keys::VerifyingKey);

#[wasm_bindgen]
impl VerifyingKey {
    /// Reads a SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 (`RSA PUBLIC KEY`) PEM.
    #[wasm_bindgen(js_name = fromPem)]
    pub fn from_pem(#[wasm_bindgen(unchecked_param_type = "string")] pem: JsValue) -> JsResult<VerifyingKey> {
        let pem = string_arg(&pem, "pem").map_err(js_error)?;
        keys::VerifyingKey::from_pem(&pem).map(VerifyingKey).map_err(js_error)
    }

    /// The `x-access-token` value the service sends with this key, in the
    /// options' `token` encoding and `padding` (PEM, padded, unless told).
    pub fn token(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "CanonicalOptions")] options: JsValue,
    ) -> JsResult<String> {
        token_of(&self.0, &options).map_err(js_error)
    }

    /// The key as SubjectPublicKeyInfo PEM.
    #[wasm_bindgen(js_name = publicKeyPem)]
    pub fn public_key_pem(&self) -> String {
        self.0.public_key_pem().to_owned()
    }

    /// Modulus size in bits.
    #[wasm_bindgen(getter)]
    pub fn bits(&self) -> u32 {
        self.0.bits() as u32
    }
}

thread_local! {
    /// The HMAC secrets, by the number the package's `HmacKey`s hold. Each is
    /// wiped when its last holder lets it go (`__hmacKeyFree`), as its `Zeroizing` buffer drops.
    static HMAC_KEYS: RefCell<Vec<HeldHmac>> = const { RefCell::new(Vec::new()) };
    /// The next number for an HMAC key; numbers are never reused.
    static NEXT_HMAC: Cell<u32> = const { Cell::new(1) };
    /// Parsed verifying keys by PEM, so that repeated calls skip parsing.
    static KEY_CACHE: RefCell<Cache<String, keys::VerifyingKey, 16>> = const { RefCell::new(Cache::new()) };
    /// The same by the PEM's JS string (a `VerifyingKey` gives the same one each
    /// time), compared in JS, so that a key seen before is not copied in again.
    static JS_KEY_CACHE: RefCell<Cache<JsValue, keys::VerifyingKey, 16>> = const { RefCell::new(Cache::new()) };
}

/// Most HMAC keys alive at once: more is a leak (keys made and never freed).
const MAX_HMAC_KEYS: usize = 4096;

/// Reads an HMAC secret (a string, or bytes) into wasm memory:
/// `__hmacKeyFromSecret({ secret })`, whose value is the secret's number (what the requests'
/// `key` names); the caller's bytes are not kept. The JS core's `HmacKey.fromSecret`.
#[wasm_bindgen(js_name = __hmacKeyFromSecret, skip_typescript)]
pub fn hmac_key_from_secret(request: Request) -> Answer {
    answer(hmac_key_of(request.secret()).map(JsValue::from))
}

fn hmac_key_of(secret: JsValue) -> Result<u32, JsValue> {
    // Refused before it is copied into wasm memory, which never shrinks: a string's
    // UTF-8 length is at least its UTF-16 length.
    if let Some(text) = secret.dyn_ref::<js_sys::JsString>() {
        if text.length() as usize > crate::hmac::MAX_SECRET_BYTES {
            let reason = format!("is longer than {} bytes", crate::hmac::MAX_SECRET_BYTES);
            return Err(js_error(Error::InvalidSecret { reason: format!("the secret {reason}") }));
        }
        // A lone surrogate has no UTF-8 form: read as U+FFFD, two different secrets would be one key.
        if !text.is_valid_utf16() {
            let reason = "the secret holds a lone UTF-16 surrogate, which has no UTF-8 form".into();
            return Err(js_error(Error::InvalidSecret { reason }));
        }
    }
    let key = match secret.as_string() {
        Some(text) => {
            let key = HmacKey::from_text(&text);
            wipe(text);
            key
        }
        None => match bytes_arg(&secret) {
            Some(mut bytes) => {
                let key = HmacKey::from_bytes(&bytes);
                zeroize::Zeroize::zeroize(&mut bytes);
                key
            }
            None => Err(Error::InvalidArgument {
                name: "secret".into(),
                reason: "must be the secret as a string or bytes (Uint8Array, Buffer, ArrayBuffer)".into(),
            }),
        },
    }
    .map_err(js_error)?;
    // The same secret read again (a handler that reads its secret per request, without
    // free()) is the key already held: one more holder, not one more key, so keys dropped
    // without free() count against the limit only once per secret until they are collected.
    let identity = key.sign_bytes(KEY_IDENTITY).map_err(js_error)?;
    HMAC_KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        if let Some(held) = keys.iter_mut().find(|held| crate::hmac::constant_time_eq(&held.identity, &identity)) {
            held.holders = held.holders.saturating_add(1);
            return Ok(held.id);
        }
        if keys.len() >= MAX_HMAC_KEYS {
            return Err(js_error(Error::InvalidArgument {
                name: "secret".into(),
                reason: format!(
                    "would be the {}th live HMAC key; free() the keys you no longer use",
                    MAX_HMAC_KEYS + 1
                ),
            }));
        }
        let id = NEXT_HMAC.with(|next| next.replace(next.get().wrapping_add(1)));
        keys.push(HeldHmac { id, key, identity, holders: 1 });
        Ok(id)
    })
}

/// What a secret is known by among the held ones: its HMAC of this text, which no
/// canonical message can be (they are base64url and digits). Two secrets with the same
/// one sign every message alike (HMAC pads a short secret with zeros), so they are one key.
const KEY_IDENTITY: &str = "payment-intake: the identity of an HMAC key";

/// A secret held in wasm memory, under the number the package's `HmacKey`s hold, by as
/// many of them as `holders` (one per `fromSecret` of the secret not yet freed).
struct HeldHmac {
    id: u32,
    key: HmacKey,
    identity: [u8; crate::hmac::SIGNATURE_BYTES],
    holders: u32,
}

/// One holder of the HMAC key numbered `key` lets it go: `__hmacKeyFree({ key })`; the
/// last one wipes and forgets it (nothing if there is none). The value is `undefined`.
#[wasm_bindgen(js_name = __hmacKeyFree, skip_typescript)]
pub fn hmac_key_free(request: Request) -> Answer {
    let id = requested_key(&request);
    // Dropped outside the borrow; the secret is wiped when the last clone drops.
    let removed = HMAC_KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        let at = keys.iter().position(|held| held.id == id)?;
        keys[at].holders = keys[at].holders.saturating_sub(1);
        (keys[at].holders == 0).then(|| keys.swap_remove(at))
    });
    drop(removed);
    answer(Ok(JsValue::UNDEFINED))
}

/// A request's `key`: the number of an HMAC secret (0, which no secret has, for anything else).
pub(super) fn requested_key(request: &Request) -> u32 {
    request.key().as_f64().map_or(0, |id| id as u32)
}

/// The HMAC key with this number, or the error of a freed key.
pub(super) fn hmac_key(id: u32) -> Result<HmacKey, Error> {
    HMAC_KEYS
        .with(|keys| keys.borrow().iter().find(|held| held.id == id).map(|held| held.key.clone()))
        .ok_or_else(|| Error::InvalidArgument { name: "key".into(), reason: FREED_KEY.into() })
}

/// Most verifying keys accepted at once (the current key and a few during rotation).
const MAX_VERIFYING_KEYS: usize = 64;

/// Why a key object that was freed is refused; the JS core says the same of a freed
/// SigningKey, from `__constants().freedKey`.
pub(super) const FREED_KEY: &str = "is a key that was freed (free() was called on it)";

/// The verifying keys a caller gave, each read once: the keys, and for each the value the
/// JS core finds its native public key by (`source`): the PEM string given, the package's
/// own key object (the core reads its PEM from its private fields), or the PEM a foreign
/// object's `publicKeyPem()` answered, the one time it is called. The core never reads the
/// caller's keys again: a getter, a Proxy or a method answering differently the second
/// time cannot name another key than the one chosen here.
pub(super) struct ReadKeys {
    pub(super) keys: Vec<CallbackKey>,
    pub(super) sources: Vec<JsValue>,
}

/// Verifying keys from one key or an array of them. `key_pem` is the wrappers'
/// resolver of their own key objects: the PEM of a live RSA one, the number of
/// a live `HmacKey`, `null` for a freed one, `undefined` for anything else; it
/// runs no caller code and never throws. An array's items are its own properties:
/// a hole is refused, never filled from a prototype.
pub(super) fn verifying_keys(value: &JsValue, key_pem: &Function) -> Result<ReadKeys, Error> {
    let refused = |reason: String| Error::InvalidArgument { name: "verifyingKey".into(), reason };
    let throws = || refused(THROWS.into());
    let items: Vec<JsValue> = if is_array(value).map_err(|_| throws())? {
        own_array_items(value, MAX_VERIFYING_KEYS).map_err(|e| match e {
            OwnItemsError::Throws => throws(),
            OwnItemsError::TooLong(n) => refused(format!("is an array of {n} keys, more than {MAX_VERIFYING_KEYS}")),
            OwnItemsError::Hole(index) => refused(format!(
                "is an array with no key at index {index} (a hole, which is not read from a prototype): \
                 give an array of keys without holes"
            )),
        })?
    } else {
        vec![value.clone()]
    };
    let mut read = ReadKeys { keys: Vec::with_capacity(items.len()), sources: Vec::with_capacity(items.len()) };
    for item in items {
        let (key, source) = verifying_key(item, key_pem)?;
        read.keys.push(key);
        read.sources.push(source);
    }
    Ok(read)
}

fn verifying_key(value: JsValue, key_pem: &Function) -> Result<(CallbackKey, JsValue), Error> {
    let refused = |reason: &str| Error::InvalidArgument { name: "verifyingKey".into(), reason: reason.into() };
    let not_a_key = || refused("must be a VerifyingKey, an HmacKey, a PEM string, or an array of them");
    let pem = if value.is_string() {
        value.clone()
    } else if !value.is_object() && !value.is_function() {
        return Err(not_a_key());
    } else {
        match key_pem.call1(&JsValue::UNDEFINED, &value) {
            Ok(pem) if pem.is_string() => pem,
            Ok(id) if id.as_f64().is_some() => {
                let id = id.as_f64().map_or(0, |id| id as u32);
                return hmac_key(id)
                    .map(|key| (CallbackKey::Hmac(key), JsValue::UNDEFINED))
                    .map_err(|_| refused(FREED_KEY));
            }
            Ok(freed) if freed.is_null() => return Err(refused(FREED_KEY)),
            // Anything else with publicKeyPem(), called this once; a getter or method that throws is caught.
            _ => {
                let pem = method_text(&value, "publicKeyPem").ok_or_else(not_a_key)?;
                let key = key_of_pem(String::from(&pem))?;
                return Ok((CallbackKey::Rsa(key), pem.into()));
            }
        }
    };
    // A PEM string is its own source; a key of the package's, the key object.
    if let Some(key) = JS_KEY_CACHE.with(|cache| cache.borrow().get(&pem)) {
        return Ok((CallbackKey::Rsa(key), value));
    }
    let key = key_of_pem(pem.as_string().ok_or_else(not_a_key)?)?;
    JS_KEY_CACHE.with(|cache| cache.borrow_mut().insert(pem, key.clone()));
    Ok((CallbackKey::Rsa(key), value))
}

/// The RSA verifying key of a PEM text, parsed once for each text seen lately.
fn key_of_pem(pem: String) -> Result<keys::VerifyingKey, Error> {
    if let Some(key) = KEY_CACHE.with(|cache| cache.borrow().get(pem.as_str())) {
        return Ok(key);
    }
    let key = keys::VerifyingKey::from_pem(&pem)?;
    KEY_CACHE.with(|cache| cache.borrow_mut().insert(pem, key.clone()));
    Ok(key)
}
