//! Keys: the glue classes `SigningKey` and `VerifyingKey` (which the JS
//! wrappers wrap in the package's own classes, `pkg-template/core.mjs`), and
//! the verifying keys a caller gives: PEM text, the package's key objects
//! (resolved by the wrappers' `keyPem`, without calling into them), or any
//! object with `publicKeyPem()`; one, or an array for key rotation.

use std::cell::RefCell;

use js_sys::Function;
use wasm_bindgen::prelude::*;

use super::cache::TextCache;
use super::gateway::{array_items, is_array, member, method_text, string_arg, ItemsError};
use super::js::{js_error, wipe};
use super::options::{whole_number_member, THROWS};
use super::JsResult;
use crate::error::Error;
use crate::rsa::keys;

/// An RSA private key that signs requests.
#[wasm_bindgen]
pub struct SigningKey(pub(super) keys::SigningKey);

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

    /// The `x-access-token` header value for this key.
    pub fn token(&self) -> String {
        self.0.verifying_key().token().to_owned()
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

    /// The `x-access-token` value the service sends with this key.
    pub fn token(&self) -> String {
        self.0.token().to_owned()
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
    /// Parsed verifying keys by PEM, so that repeated calls skip parsing.
    static KEY_CACHE: RefCell<TextCache<keys::VerifyingKey, 16>> = const { RefCell::new(TextCache::new()) };
}

/// Most verifying keys accepted at once (the current key and a few during rotation).
const MAX_VERIFYING_KEYS: usize = 64;

/// Why a key object that was freed is refused; the JS wrappers (`pkg-template/core.mjs`)
/// say the same of a freed SigningKey.
const FREED_KEY: &str = "is a key that was freed (free() was called on it)";

/// Verifying keys from one key or an array of them. `key_pem` is the wrappers'
/// resolver of their own key objects: the PEM of a live one, `null` for a freed one,
/// `undefined` for anything else; it runs no caller code and never throws.
pub(super) fn verifying_keys(value: &JsValue, key_pem: &Function) -> Result<Vec<keys::VerifyingKey>, Error> {
    let refused = |reason: String| Error::InvalidArgument { name: "verifyingKey".into(), reason };
    let throws = || refused(THROWS.into());
    let items: Vec<JsValue> = if is_array(value).map_err(|_| throws())? {
        array_items(value, MAX_VERIFYING_KEYS).map_err(|e| match e {
            ItemsError::Throws | ItemsError::NotIterable => throws(),
            ItemsError::TooLong(n) => refused(format!("is an array of {n} keys, more than {MAX_VERIFYING_KEYS}")),
        })?
    } else {
        vec![value.clone()]
    };
    items.iter().map(|item| verifying_key(item, key_pem)).collect()
}

fn verifying_key(value: &JsValue, key_pem: &Function) -> Result<keys::VerifyingKey, Error> {
    let refused = |reason: &str| Error::InvalidArgument { name: "verifyingKey".into(), reason: reason.into() };
    let not_a_key = || refused("must be a VerifyingKey, a PEM string, or an array of them");
    let pem = match value.as_string() {
        Some(pem) => pem,
        None if !value.is_object() && !value.is_function() => return Err(not_a_key()),
        None => match key_pem.call1(&JsValue::UNDEFINED, value) {
            Ok(pem) if pem.is_string() => pem.as_string().ok_or_else(not_a_key)?,
            Ok(freed) if freed.is_null() => return Err(refused(FREED_KEY)),
            // Anything else with publicKeyPem(); a getter or method that throws is caught.
            _ => method_text(value, "publicKeyPem").ok_or_else(not_a_key)?,
        },
    };
    if let Some(key) = KEY_CACHE.with(|cache| cache.borrow().get(&pem)) {
        return Ok(key);
    }
    let key = keys::VerifyingKey::from_pem(&pem)?;
    KEY_CACHE.with(|cache| cache.borrow_mut().insert(pem, key.clone()));
    Ok(key)
}
