//! Signing requests: the private `__signRequest` behind the JS core's
//! `signRequest`, `signRequestAsync` and `prepareRequest`.

use wasm_bindgen::prelude::*;

use super::super::body::body_from_js;
use super::super::gateway::{members, nested_canonical_options, text_from_js};
use super::super::js::{js_error, now_seconds, object, to_js};
use super::super::keys::SigningKey;
use super::super::options::{native_chosen, sign_fields, timestamp_text, Member, NativeRsa};
use super::super::shapes::{PreparedOut, SignedOut};
use super::super::JsResult;
use super::Rsa;
use crate::canonical::CanonicalOptions;
use crate::error::Error;
use crate::json::{Json, Limits};
use crate::request::signing::{self, RequestBody};
use crate::rsa::pkcs1v15;

/// Signs a body, or prepares it for the caller's native RSA: `{ signed }` (what
/// `signRequest` returns) when the `backend` option chose the wasm, `{ prepared }`
/// (what `prepareRequest` returns) otherwise. The JS core never reads the options.
#[wasm_bindgen(js_name = __signRequest, skip_typescript)]
pub fn sign_request(body: JsValue, signing_key: &SigningKey, options: JsValue, rsa: Rsa) -> JsResult<JsValue> {
    let (options, native) = sign_options(&options, rsa.into()).map_err(js_error)?;
    let (text, tree) = body_to_sign(&body).map_err(js_error)?;
    let body = tree.as_ref().map_or(RequestBody::Text(&text), RequestBody::Tree);
    let (merchant_id, timestamp, canonical) = (&options.merchant_id, &options.timestamp, &options.canonical);
    let key = signing_key.0.verifying_key();
    let limits = Limits::default();
    let prepared = signing::prepare_body(body, key, merchant_id, timestamp, canonical, options.strict, &limits)
        .map_err(js_error)?;
    if native {
        return Ok(object(&[("prepared", &to_js(&PreparedOut::new(&text, &prepared))?)]));
    }
    let signature = pkcs1v15::sign_message(&prepared.message, &signing_key.0).map_err(js_error)?;
    Ok(object(&[("signed", &to_js(&SignedOut::new(&text, &prepared.into_headers(&signature)))?)]))
}

/// The body's exact text, and its tree when it was given as a JS object.
fn body_to_sign(body: &JsValue) -> Result<(String, Option<Json>), Error> {
    let limits = Limits::default();
    match text_from_js(body, limits.max_bytes)? {
        Some(text) => Ok((text, None)),
        None => body_from_js(body, &limits).map(|body| (body.text, Some(body.json))),
    }
}

/// The checked options of a signature.
struct SignOptions {
    merchant_id: String,
    timestamp: String,
    canonical: CanonicalOptions,
    strict: bool,
}

/// The options, and whether the `backend` option chose the caller's native RSA.
fn sign_options(options: &JsValue, rsa: NativeRsa) -> Result<(SignOptions, bool), Error> {
    let fields = sign_fields(members(options))?;
    let native = native_chosen(fields.backend.as_deref(), rsa)?;
    let canonical = nested_canonical_options(&fields.options)?;
    let timestamp = match fields.timestamp {
        Member::Undefined => now_seconds().to_string(),
        stamp => timestamp_text(&stamp)?,
    };
    let options = SignOptions { merchant_id: fields.merchant_id, timestamp, canonical, strict: fields.strict };
    Ok((options, native))
}
