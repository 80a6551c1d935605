//! Signing requests: the private `__signRequest` (RSA, a method of the glue's `SigningKey`,
//! which is the key) and `__signRequestHmac`, behind the JS core's `signRequest`,
//! `signRequestAsync` and `prepareRequest` (`pkg-template/requests.mjs`). Each takes one
//! request object the core makes and answers `{ ok: true, value }` or `{ ok: false, error }`
//! ([`answer`]).

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

use super::super::body::body_from_js;
use super::super::gateway::{members, nested_canonical_options, text_from_js};
use super::super::js::{answer, js_error, now_seconds, object, to_js_with, Answer, Request};
use super::super::keys::{hmac_key, requested_key, SigningKey};
use super::super::options::{native_chosen, sign_fields, timestamp_text, Member, NativeRsa};
use super::super::shapes::{PreparedOut, SignedOut};
use crate::error::Error;
use crate::json::{Json, Limits};
use crate::profile::Profile;
use crate::request::signing::{self, RequestBody, RequestKey, Signer};
use crate::rsa::pkcs1v15;

#[wasm_bindgen]
impl SigningKey {
    /// Signs a body with this key, or prepares it for the caller's native RSA:
    /// `key.__signRequest({ body, options, native, prepare })` (the key is `this`: a glue
    /// object cannot be read out of a request's member without JS giving it up). `native`:
    /// the core offers a native RSA now (the `backend` option decides whether it runs);
    /// `prepare`: sign nothing (`prepareRequest`). The value is `{ signed }` (what
    /// `signRequest` returns) when the wasm signed, else `{ prepared, data }`: what
    /// `prepareRequest` returns, and the bytes a native RSA-SHA256 signs (the message, or
    /// its SHA-256 digest under `digest: 'double'`). The JS core never reads the options.
    #[wasm_bindgen(js_name = __signRequest, skip_typescript)]
    pub fn sign_request(&self, request: Request) -> Answer {
        let rsa = if request.prepare() {
            NativeRsa::Prepare
        } else if request.native() {
            NativeRsa::Available
        } else {
            NativeRsa::Absent
        };
        answer(sign_rsa(&self.0, &request, rsa))
    }
}

fn sign_rsa(key: &crate::rsa::keys::SigningKey, request: &Request, rsa: NativeRsa) -> Result<JsValue, JsValue> {
    let (options, native) = sign_options(&request.options(), rsa).map_err(js_error)?;
    let body = request.body();
    let (text, prepared) = prepare(&body, Signer::Rsa(key.verifying_key()), &options).map_err(js_error)?;
    if native {
        let data = Uint8Array::from(pkcs1v15::native_input(&prepared.message, prepared.digest).as_ref());
        return Ok(object(&[("prepared", &prepared_js(PreparedOut::new(&text, &prepared))?), ("data", &data)]));
    }
    let headers = prepared.sign(RequestKey::Rsa(key)).map_err(js_error)?;
    Ok(object(&[("signed", &signed_js(SignedOut::new(&text, &headers))?)]))
}

/// Signs a body with an HMAC key (always here: there is no native HMAC to wait for):
/// `__signRequestHmac({ body, key, options, prepare })`, `key` the number of the secret
/// (`__hmacKeyFromSecret`). The value is `{ signed }`, or `{ prepared }` under `prepare`.
#[wasm_bindgen(js_name = __signRequestHmac, skip_typescript)]
pub fn sign_request_hmac(request: Request) -> Answer {
    answer(sign_hmac(&request))
}

fn sign_hmac(request: &Request) -> Result<JsValue, JsValue> {
    let prepare_only = request.prepare();
    // No native HMAC: a `backend` of 'native' is not refused for it.
    let mode = if prepare_only { NativeRsa::Prepare } else { NativeRsa::Available };
    let (options, _) = sign_options(&request.options(), mode).map_err(js_error)?;
    let key = hmac_key(requested_key(request)).map_err(js_error)?;
    let body = request.body();
    let (text, prepared) = prepare(&body, Signer::Hmac(&options.algorithm_header), &options).map_err(js_error)?;
    if prepare_only {
        return Ok(object(&[("prepared", &prepared_js(PreparedOut::new(&text, &prepared))?)]));
    }
    let headers = prepared.sign(RequestKey::Hmac(&key, &options.algorithm_header)).map_err(js_error)?;
    Ok(object(&[("signed", &signed_js(SignedOut::new(&text, &headers))?)]))
}

/// The body's exact text and everything of its signature but the signature itself.
fn prepare(
    body: &JsValue,
    signer: Signer<'_>,
    options: &SignOptions,
) -> Result<(String, signing::PreparedRequest), Error> {
    let (text, tree) = body_to_sign(body)?;
    let body = tree.as_ref().map_or(RequestBody::Text(&text), RequestBody::Tree);
    let limits = Limits::default();
    let prepared = signing::prepare_body(
        body,
        signer,
        &options.merchant_id,
        &options.timestamp,
        &options.profile,
        options.strict,
        &limits,
    )?;
    Ok((text, prepared))
}

/// The body's exact text, and its tree when it was given as a JS object.
fn body_to_sign(body: &JsValue) -> Result<(String, Option<Json<'static>>), Error> {
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
    profile: Profile,
    strict: bool,
    algorithm_header: String,
}

/// The options, and whether the `backend` option chose the caller's native RSA.
fn sign_options(options: &JsValue, rsa: NativeRsa) -> Result<(SignOptions, bool), Error> {
    let fields = sign_fields(members(options))?;
    let native = native_chosen(fields.backend.as_deref(), rsa)?;
    let profile = nested_canonical_options(&fields.options)?;
    let timestamp = match fields.timestamp {
        Member::Undefined => now_seconds().to_string(),
        stamp => timestamp_text(&stamp)?,
    };
    let options = SignOptions {
        merchant_id: fields.merchant_id,
        timestamp,
        profile,
        strict: fields.strict,
        algorithm_header: fields.algorithm_header,
    };
    Ok((options, native))
}

/// What `prepareRequest` returns, as a JS object (its body and message set as strings).
fn prepared_js(out: PreparedOut) -> Result<JsValue, JsValue> {
    let (out, texts) = out.split_texts();
    to_js_with(&out, &texts)
}

/// What `signRequest` returns, as a JS object (its body set as a string).
fn signed_js(out: SignedOut) -> Result<JsValue, JsValue> {
    let (out, texts) = out.split_texts();
    to_js_with(&out, &texts)
}
