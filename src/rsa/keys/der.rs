//! A small reader and writer of the few DER and PEM forms of an RSA key, for the
//! builds without the `wasm-rsa` feature (the lean and receiver `.wasm`), where the
//! `der`/`pkcs8`/`spki`/`pkcs1` stack is left out: only what the key policy, the
//! token and WebCrypto's import need (the modulus, the exponent, lengths), read
//! with limits and answered by `Result`, never a panic. Compiled in every build, so
//! its unit tests hold it equal to the `rsa` crate's reading and writing
//! (`der_tests.rs`).
//!
//! Read: a PEM block (its label and its base64 body, into a buffer wiped on drop),
//! SubjectPublicKeyInfo, PKCS#1 `RSAPublicKey`, PKCS#8 `PrivateKeyInfo` and PKCS#1
//! `RSAPrivateKey` (two primes). Written: SubjectPublicKeyInfo, PKCS#8 around a PKCS#1
//! key, and PEM (64-character lines, LF), as `rsa` writes them.

#![cfg_attr(feature = "wasm-rsa", allow(dead_code))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use zeroize::Zeroizing;

use crate::error::{Error, Result};

const SEQUENCE: u8 = 0x30;
const INTEGER: u8 = 0x02;
const BIT_STRING: u8 = 0x03;
const OCTET_STRING: u8 = 0x04;
const NULL: u8 = 0x05;
const OID: u8 = 0x06;

/// The content bytes of the OID rsaEncryption, 1.2.840.113549.1.1.1.
pub(super) const RSA_ENCRYPTION: [u8; 9] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

/// The largest PEM text and DER document read: a 4096-bit private key is about 2.4 KB of DER.
pub(super) const MAX_PEM_BYTES: usize = 64 * 1024;
const MAX_DER_BYTES: usize = 16 * 1024;

fn malformed(what: &str) -> Error {
    Error::InvalidKey { reason: format!("malformed DER: {what}") }
}

/// A DER reader over one level of TLVs.
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes }
    }

    /// The next element's tag, if any.
    fn peek(&self) -> Option<u8> {
        self.bytes.first().copied()
    }

    /// The next element (any tag): its tag and contents. Definite lengths of at most
    /// two bytes, minimally encoded (DER), inside what is left.
    fn any(&mut self) -> Result<(u8, &'a [u8])> {
        let [tag, first, rest @ ..] = self.bytes else { return Err(malformed("it ends inside an element")) };
        let (len, rest) = if *first < 0x80 {
            (usize::from(*first), rest)
        } else {
            let count = usize::from(first & 0x7f);
            if count == 0 || count > 2 {
                return Err(malformed("a length is indefinite or too long"));
            }
            let (digits, rest) = rest.split_at_checked(count).ok_or_else(|| malformed("it ends inside a length"))?;
            let len = digits.iter().fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
            if digits.first() == Some(&0) || len < 0x80 {
                return Err(malformed("a length is not minimally encoded"));
            }
            (len, rest)
        };
        let (contents, rest) = rest.split_at_checked(len).ok_or_else(|| malformed("an element runs past the end"))?;
        self.bytes = rest;
        Ok((*tag, contents))
    }

    /// The next element, which must have tag `tag`: its contents.
    fn read(&mut self, tag: u8, what: &str) -> Result<&'a [u8]> {
        match self.any()? {
            (found, contents) if found == tag => Ok(contents),
            _ => Err(malformed(&format!("{what} is missing or of the wrong type"))),
        }
    }

    /// A non-negative INTEGER: its magnitude, big-endian, without the sign's zero byte.
    fn unsigned(&mut self, what: &str) -> Result<&'a [u8]> {
        let contents = self.read(INTEGER, what)?;
        match contents {
            [] => Err(malformed(&format!("{what} is empty"))),
            [first, ..] if first & 0x80 != 0 => Err(malformed(&format!("{what} is negative"))),
            [0, second, ..] if second & 0x80 == 0 => Err(malformed(&format!("{what} is not minimally encoded"))),
            [0, rest @ ..] if !rest.is_empty() => Ok(rest),
            _ => Ok(contents),
        }
    }

    /// Nothing may follow.
    fn finish(&self, what: &str) -> Result<()> {
        if self.bytes.is_empty() {
            Ok(())
        } else {
            Err(malformed(&format!("bytes follow {what}")))
        }
    }
}

/// A public key's numbers, big-endian without leading zeros.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PublicNumbers {
    pub(crate) n: Vec<u8>,
    pub(crate) e: Vec<u8>,
}

/// The one element of a document: the reader over the SEQUENCE's contents.
fn document<'a>(der: &'a [u8], what: &str) -> Result<Reader<'a>> {
    if der.len() > MAX_DER_BYTES {
        return Err(malformed("the document is too large for a key"));
    }
    let mut outer = Reader::new(der);
    let contents = outer.read(SEQUENCE, what)?;
    outer.finish(what)?;
    Ok(Reader::new(contents))
}

/// An AlgorithmIdentifier: its OID's content bytes (its parameters, if any, unread).
fn algorithm<'a>(reader: &mut Reader<'a>) -> Result<&'a [u8]> {
    let mut inner = Reader::new(reader.read(SEQUENCE, "the algorithm")?);
    let oid = inner.read(OID, "the algorithm's OID")?;
    if oid.is_empty() {
        return Err(malformed("the algorithm's OID is empty"));
    }
    if inner.peek().is_some() {
        inner.any()?;
    }
    inner.finish("the algorithm's parameters")?;
    Ok(oid)
}

/// SubjectPublicKeyInfo: the algorithm's OID and the subject public key's bytes.
pub(super) fn spki(der: &[u8]) -> Result<(&[u8], &[u8])> {
    let mut info = document(der, "the SubjectPublicKeyInfo")?;
    let oid = algorithm(&mut info)?;
    let bits = info.read(BIT_STRING, "the subject public key")?;
    info.finish("the subject public key")?;
    match bits {
        [0, key @ ..] => Ok((oid, key)),
        _ => Err(malformed("the subject public key is not whole bytes")),
    }
}

/// PKCS#1 `RSAPublicKey`: the modulus and the exponent.
pub(super) fn rsa_public(der: &[u8]) -> Result<PublicNumbers> {
    let mut key = document(der, "the RSAPublicKey")?;
    let n = key.unsigned("the modulus")?.to_vec();
    let e = key.unsigned("the public exponent")?.to_vec();
    key.finish("the public exponent")?;
    Ok(PublicNumbers { n, e })
}

/// PKCS#8 `PrivateKeyInfo` (version 1 or 2): the algorithm's OID and the private key's bytes.
pub(super) fn pkcs8(der: &[u8]) -> Result<(&[u8], &[u8])> {
    let mut info = document(der, "the PrivateKeyInfo")?;
    match info.unsigned("the version")? {
        [0] | [1] => {}
        _ => return Err(malformed("the PrivateKeyInfo's version is neither 1 nor 2")),
    }
    let oid = algorithm(&mut info)?;
    let key = info.read(OCTET_STRING, "the private key")?;
    // [0] attributes and [1] the public key (version 2) are not needed.
    while info.peek().is_some_and(|tag| tag & 0xc0 == 0x80) {
        info.any()?;
    }
    info.finish("the private key")?;
    Ok((oid, key))
}

/// PKCS#1 `RSAPrivateKey` of two primes: its public numbers (the private ones are
/// checked to be there, and left in the DER, which WebCrypto reads).
pub(super) fn rsa_private(der: &[u8]) -> Result<PublicNumbers> {
    let mut key = document(der, "the RSAPrivateKey")?;
    match key.unsigned("the version")? {
        [0] => {}
        [1] => return Err(Error::InvalidKey { reason: "keys of more than two primes are not supported".into() }),
        _ => return Err(malformed("the RSAPrivateKey's version is unknown")),
    }
    let n = key.unsigned("the modulus")?.to_vec();
    let e = key.unsigned("the public exponent")?.to_vec();
    for what in ["the private exponent", "prime 1", "prime 2", "exponent 1", "exponent 2", "the coefficient"] {
        key.unsigned(what)?;
    }
    key.finish("the coefficient")?;
    Ok(PublicNumbers { n, e })
}

/// A tag and its length, DER.
fn header(tag: u8, len: usize, out: &mut Vec<u8>) {
    out.push(tag);
    match len {
        0..=0x7f => out.push(len as u8),
        0x80..=0xff => out.extend([0x81, len as u8]),
        _ => out.extend([0x82, (len >> 8) as u8, len as u8]),
    }
}

/// The length of a header for `len` bytes of contents.
fn header_len(len: usize) -> usize {
    match len {
        0..=0x7f => 2,
        0x80..=0xff => 3,
        _ => 4,
    }
}

/// An INTEGER of a non-negative big-endian magnitude (no leading zeros given).
fn integer(magnitude: &[u8], out: &mut Vec<u8>) {
    let pad = magnitude.first().map_or(true, |b| b & 0x80 != 0);
    header(INTEGER, magnitude.len() + usize::from(pad), out);
    if pad {
        out.push(0);
    }
    out.extend_from_slice(magnitude);
}

fn integer_len(magnitude: &[u8]) -> usize {
    let len = magnitude.len() + usize::from(magnitude.first().map_or(true, |b| b & 0x80 != 0));
    header_len(len) + len
}

/// AlgorithmIdentifier rsaEncryption with NULL parameters.
fn rsa_algorithm(out: &mut Vec<u8>) {
    header(SEQUENCE, 2 + RSA_ENCRYPTION.len() + 2, out);
    header(OID, RSA_ENCRYPTION.len(), out);
    out.extend_from_slice(&RSA_ENCRYPTION);
    header(NULL, 0, out);
}

const RSA_ALGORITHM_LEN: usize = 2 + 2 + RSA_ENCRYPTION.len() + 2;

/// SubjectPublicKeyInfo of an RSA public key (as `rsa` writes it).
pub(super) fn spki_of(key: &PublicNumbers) -> Vec<u8> {
    let pkcs1_len = integer_len(&key.n) + integer_len(&key.e);
    let bits_len = 1 + header_len(pkcs1_len) + pkcs1_len;
    let info_len = RSA_ALGORITHM_LEN + header_len(bits_len) + bits_len;
    let mut out = Vec::with_capacity(header_len(info_len) + info_len);
    header(SEQUENCE, info_len, &mut out);
    rsa_algorithm(&mut out);
    header(BIT_STRING, bits_len, &mut out);
    out.push(0);
    header(SEQUENCE, pkcs1_len, &mut out);
    integer(&key.n, &mut out);
    integer(&key.e, &mut out);
    out
}

/// PKCS#8 (version 1, rsaEncryption) around a PKCS#1 private key, in one buffer of
/// exactly its size, wiped on drop.
pub(super) fn pkcs8_of(pkcs1: &[u8]) -> Zeroizing<Vec<u8>> {
    let key_len = header_len(pkcs1.len()) + pkcs1.len();
    let info_len = 3 + RSA_ALGORITHM_LEN + key_len;
    let mut out = Zeroizing::new(Vec::with_capacity(header_len(info_len) + info_len));
    header(SEQUENCE, info_len, &mut out);
    integer(&[0], &mut out);
    rsa_algorithm(&mut out);
    header(OCTET_STRING, pkcs1.len(), &mut out);
    out.extend_from_slice(pkcs1);
    out
}

/// PEM of `der` under `label`: 64-character lines, LF, a final LF; in one buffer of
/// exactly its size, wiped on drop (a private key's PEM is a secret).
pub(super) fn pem_of(label: &str, der: &[u8]) -> Zeroizing<String> {
    let base64 = Zeroizing::new(STANDARD.encode(der));
    let lines = base64.len().div_ceil(64);
    let len = 2 * (16 + label.len()) + 4 + base64.len() + lines;
    let mut out = Zeroizing::new(String::with_capacity(len));
    out.push_str("-----BEGIN ");
    out.push_str(label);
    out.push_str("-----\n");
    for line in base64.as_bytes().chunks(64) {
        // base64 is ASCII, so every chunk is whole characters.
        out.push_str(std::str::from_utf8(line).unwrap_or_default());
        out.push('\n');
    }
    out.push_str("-----END ");
    out.push_str(label);
    out.push_str("-----\n");
    out
}

/// A PEM block (already trimmed): its label and its DER, decoded into a buffer wiped on
/// drop. One block, nothing after it; its body base64 with padding, in lines of any width.
pub(super) fn pem_decode(pem: &str) -> Result<(&str, Zeroizing<Vec<u8>>)> {
    let invalid = |what: &str| Error::InvalidKey { reason: format!("not a PEM block ({what})") };
    if pem.len() > MAX_PEM_BYTES {
        return Err(invalid("too large for a key"));
    }
    let rest = pem.strip_prefix("-----BEGIN ").ok_or_else(|| invalid("no -----BEGIN line at the start"))?;
    let (label, rest) = rest.split_once("-----").ok_or_else(|| invalid("the -----BEGIN line does not end"))?;
    if label.contains(['\n', '\r']) {
        return Err(invalid("the -----BEGIN line does not end"));
    }
    let end = format!("-----END {label}-----");
    let body = rest.strip_suffix(end.as_str()).ok_or_else(|| invalid("no matching -----END line at the end"))?;
    if body.contains("-----") {
        return Err(invalid("more than one block"));
    }
    let text: Zeroizing<Vec<u8>> = Zeroizing::new(body.bytes().filter(|b| !b.is_ascii_whitespace()).collect());
    let mut der = Zeroizing::new(vec![0u8; text.len() / 4 * 3]);
    let written = STANDARD.decode_slice(&*text, &mut der).map_err(|_| invalid("its body is not base64"))?;
    der.truncate(written);
    Ok((label, der))
}

/// An OID's dotted text (e.g. `1.2.840.10045.2.1`) from its content bytes; `None` when malformed.
pub(super) fn oid_text(oid: &[u8]) -> Option<String> {
    let mut arcs: Vec<u64> = Vec::new();
    let mut value: u64 = 0;
    for (at, byte) in oid.iter().enumerate() {
        if value == 0 && *byte == 0x80 || value > u64::MAX >> 7 {
            return None;
        }
        value = (value << 7) | u64::from(byte & 0x7f);
        if byte & 0x80 == 0 {
            arcs.push(value);
            value = 0;
        } else if at + 1 == oid.len() {
            return None;
        }
    }
    let first = *arcs.first()?;
    let (a, b) = match first {
        0..=39 => (0, first),
        40..=79 => (1, first - 40),
        _ => (2, first - 80),
    };
    let mut text = format!("{a}.{b}");
    for arc in &arcs[1..] {
        text.push('.');
        text.push_str(&arc.to_string());
    }
    Some(text)
}

#[cfg(test)]
#[path = "der_tests.rs"]
mod tests;
