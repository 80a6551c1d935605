//! RSA keys: reading PEM (PKCS#8, PKCS#1, SubjectPublicKeyInfo), refusing
//! anything that is not a sane 2048 to 4096-bit RSA key, generating test keys,
//! and the `x-access-token` form of a public key.

use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use rsa::pkcs1::{DecodeRsaPrivateKey, DecodeRsaPublicKey};

use rsa::pkcs1::UintRef;
use rsa::pkcs8::der::pem::PemLabel;
use rsa::pkcs8::der::{pem, Document, Encode};
use rsa::pkcs8::{
    DecodePublicKey, EncodePublicKey, LineEnding, ObjectIdentifier, PrivateKeyInfo, SubjectPublicKeyInfoRef,
};
use std::sync::{Arc, OnceLock};

use rsa::traits::{PrivateKeyParts, PublicKeyParts};
use rsa::{BigUint, RsaPrivateKey, RsaPublicKey};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, Result};
use crate::rsa::hazmat::{from_limbs, limbs_from_be, CrtKey, Modulus};

/// What the `x-access-token` header carries: base64url of the public key's
/// SubjectPublicKeyInfo as PEM text (the spec's reading, the default) or as DER
/// bytes (the public JavaScript client). Both name the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TokenEncoding {
    /// base64url of the PEM text (the default).
    #[default]
    Pem,
    /// base64url of the DER bytes.
    Der,
}

/// Smallest accepted modulus, in bits.
pub const MIN_BITS: usize = 2048;
/// Largest accepted modulus, in bits.
pub const MAX_BITS: usize = 4096;

/// A private key that signs requests. Its material is zeroized on drop: the
/// PKCS#1 DER it was read from (or encoded into, for a generated key), the
/// `rsa::RsaPrivateKey` made from it when one is needed, which zeroizes its
/// private exponent, primes and CRT values when dropped (so does every clone),
/// and the `CrtKey` made for signing, which wipes its copies when the last clone
/// of the key drops it (`tests/rsa_claims.rs` checks them with an inspecting
/// allocator).
#[derive(Clone)]
pub struct SigningKey {
    /// The two-prime PKCS#1 `RSAPrivateKey` DER, checked consistent when read
    /// ([`check_private`]).
    pkcs1: Arc<Zeroizing<Vec<u8>>>,
    verifying: VerifyingKey,
    /// `rsa`'s form, made when first asked for (a generated key has it from the
    /// start): reading a PEM skips its precomputation (a modular inverse that was
    /// most of a cold `fromPem`), which signing by our CRT never uses.
    private: OnceLock<Option<RsaPrivateKey>>,
    /// The CRT form for our own arithmetic, made on the first signature in wasm (a
    /// native backend never needs it) from the DER's primes, exponents and coefficient.
    crt: OnceLock<Option<Arc<CrtKey>>>,
}

/// Marker: every secret in a `SigningKey` is wiped when it is dropped.
impl ZeroizeOnDrop for SigningKey {}

/// A public key that verifies callbacks, with its PEM and token precomputed.
/// Shared: a clone (as every verification takes from the key cache) copies a pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyingKey(Arc<PublicParts>);

#[derive(Debug)]
struct PublicParts {
    public: RsaPublicKey,
    pem: String,
    /// base64url (padded) of the PEM text.
    token: String,
    /// base64url (padded) of the SubjectPublicKeyInfo DER bytes.
    token_der: String,
    /// The SubjectPublicKeyInfo DER bytes.
    der: Vec<u8>,
    /// The modulus with its Montgomery constants, computed when our arithmetic
    /// first needs them (a product and a division of 4096 bits that were most of
    /// a cold `fromPem`; node:crypto and WebCrypto never use them).
    modulus: OnceLock<Option<Modulus>>,
    /// The public exponent (the policy keeps it below 2^32).
    exponent: u32,
}

/// The same key: everything else in the parts follows from n and e.
impl PartialEq for PublicParts {
    fn eq(&self, other: &Self) -> bool {
        self.public == other.public
    }
}

impl Eq for PublicParts {}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey").field("bits", &self.bits()).finish_non_exhaustive()
    }
}

impl SigningKey {
    /// Reads a PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM.
    pub fn from_pem(pem: &str) -> Result<Self> {
        let pem = pem.trim();
        let label = pem_label(pem)?;
        match label {
            "PRIVATE KEY" | "RSA PRIVATE KEY" => {}
            "ENCRYPTED PRIVATE KEY" => return Err(Error::KeyEncrypted),
            "PUBLIC KEY" | "RSA PUBLIC KEY" => {
                return Err(invalid("this is a public key; signing needs the private key".into()))
            }
            other => return Err(unsupported_label(other)),
        }
        let der = secret_der(pem)?;
        let pkcs1_der = if label == "PRIVATE KEY" {
            let info = PrivateKeyInfo::try_from(der.as_slice()).map_err(|e| invalid(e.to_string()))?;
            require_rsa(info.algorithm.oid)?;
            info.private_key
        } else {
            der.as_slice()
        };
        let fields = rsa::pkcs1::RsaPrivateKey::try_from(pkcs1_der).map_err(|e| invalid(e.to_string()))?;
        check_policy(fields.modulus.as_bytes(), fields.public_exponent.as_bytes())?;
        let public = check_private(&fields)?;
        let mut copy = Zeroizing::new(vec![0u8; pkcs1_der.len()]);
        copy.copy_from_slice(pkcs1_der);
        Ok(SigningKey {
            pkcs1: Arc::new(copy),
            verifying: VerifyingKey::from_public(public)?,
            private: OnceLock::new(),
            crt: OnceLock::new(),
        })
    }

    /// Generates a fresh key: for tests and the debugger page, not production.
    pub fn generate(bits: usize) -> Result<Self> {
        if !(MIN_BITS..=MAX_BITS).contains(&bits) || bits % 8 != 0 {
            return Err(Error::KeySizeUnsupported { bits, min_bits: MIN_BITS, max_bits: MAX_BITS });
        }
        let private = RsaPrivateKey::new(&mut rand_core::OsRng, bits)
            .map_err(|e| Error::CryptoFailure { reason: e.to_string() })?;
        private.validate().map_err(|e| invalid(e.to_string()))?;
        let pkcs1 = pkcs1_of(&private)?;
        let verifying = VerifyingKey::from_public(private.to_public_key())?;
        Ok(SigningKey {
            pkcs1: Arc::new(pkcs1),
            verifying,
            private: OnceLock::from(Some(private)),
            crt: OnceLock::new(),
        })
    }

    /// The matching public key.
    pub fn verifying_key(&self) -> &VerifyingKey {
        &self.verifying
    }

    /// Modulus size in bits.
    pub fn bits(&self) -> usize {
        self.verifying.bits()
    }

    /// The private key as PKCS#8 PEM, wiped from memory when dropped.
    ///
    /// Encoded here rather than by `rsa`'s `to_pkcs8_pem`, which leaves the secret
    /// parts in freed heap memory (wasm memory is never returned, and freed bytes
    /// stay readable until reused): every buffer that holds a secret is allocated
    /// once at its exact size and wiped on drop, and the PKCS#1 part is the DER the
    /// key holds.
    pub fn private_key_pem_zeroizing(&self) -> Result<Zeroizing<String>> {
        let failed = |reason: String| Error::CryptoFailure { reason: format!("private key encoding failed: {reason}") };
        let info = PrivateKeyInfo::new(rsa::pkcs1::ALGORITHM_ID, &self.pkcs1);
        let der = der_zeroizing(&info).map_err(|e| failed(e.to_string()))?;
        let label = PrivateKeyInfo::PEM_LABEL;
        let len = pem::encoded_len(label, LineEnding::LF, &der).map_err(|e| failed(e.to_string()))?;
        let mut text = Zeroizing::new(vec![0u8; len]);
        let written = pem::encode(label, LineEnding::LF, &der, &mut text).map_err(|e| failed(e.to_string()))?.len();
        if written != len {
            return Err(failed(format!("PEM of {written} bytes, {len} expected")));
        }
        // Moves the bytes (no copy); base64 and the boundaries are ASCII, so this cannot fail,
        // and if it did the bytes would be wiped with the error's buffer.
        match String::from_utf8(std::mem::take(&mut *text)) {
            Ok(pem) => Ok(Zeroizing::new(pem)),
            Err(error) => {
                drop(Zeroizing::new(error.into_bytes()));
                Err(failed("the PEM is not UTF-8".into()))
            }
        }
    }

    /// The private key as PKCS#8 PEM. Handle with care: the returned `String`
    /// is the caller's copy and is not wiped on drop; from Rust prefer
    /// [`SigningKey::private_key_pem_zeroizing`].
    pub fn private_key_pem(&self) -> Result<String> {
        self.private_key_pem_zeroizing().map(|pem| pem.as_str().to_owned())
    }

    /// `rsa`'s form of the key, made from the DER the first time (with its
    /// precomputed CRT values).
    pub(crate) fn rsa(&self) -> Result<&RsaPrivateKey> {
        self.private
            .get_or_init(|| RsaPrivateKey::from_pkcs1_der(&self.pkcs1).ok())
            .as_ref()
            .ok_or_else(|| Error::CryptoFailure { reason: "the private key could not be read again".into() })
    }

    pub(crate) fn crt(&self) -> Option<&CrtKey> {
        self.crt
            .get_or_init(|| {
                let fields = rsa::pkcs1::RsaPrivateKey::try_from(self.pkcs1.as_slice()).ok()?;
                let mut parts = [fields.prime1, fields.prime2, fields.exponent1, fields.exponent2, fields.coefficient]
                    .map(secret_int);
                let [p, q, dp, dq, qinv] = &parts;
                let crt = CrtKey::new(p, q, dp, dq, qinv).map(Arc::new);
                parts.iter_mut().for_each(Zeroize::zeroize);
                crt
            })
            .as_deref()
    }
}

/// The checks `rsa` makes of a private key (n = pq, de = 1 mod p - 1 and mod
/// q - 1), and that the DER's CRT values are the ones these imply (dp = d mod
/// p - 1, dq = d mod q - 1, q * qinv = 1 mod p with qinv < p): node:crypto signs
/// with the DER's own. Only two-prime keys are read (our CRT; `rsa` signs
/// others in variable time). Returns the public half.
fn check_private(fields: &rsa::pkcs1::RsaPrivateKey<'_>) -> Result<RsaPublicKey> {
    if fields.other_prime_infos.is_some() {
        return Err(invalid("keys of more than two primes are not supported".into()));
    }
    let n = secret_int(fields.modulus);
    let e = secret_int(fields.public_exponent);
    let mut secrets =
        [fields.private_exponent, fields.prime1, fields.prime2, fields.exponent1, fields.exponent2, fields.coefficient]
            .map(secret_int);
    let [d, p, q, dp, dq, qinv] = &secrets;
    let one = BigUint::from(1u32);
    let reason = if *p <= one || *q <= one || p * q != n {
        Some("its primes do not multiply to its modulus")
    } else {
        let mut p1 = p - &one;
        let mut q1 = q - &one;
        let mut de = d * &e;
        let mut q_qinv = q * qinv;
        let mut checks = [&de % &p1, &de % &q1, d % &p1, d % &q1, &q_qinv % p];
        let reason = if checks[0] != one || checks[1] != one {
            Some("its private exponent does not match its public exponent")
        } else if checks[2] != *dp || checks[3] != *dq || checks[4] != one || qinv >= p {
            Some("its CRT exponents or coefficient do not match its primes")
        } else {
            None
        };
        for value in checks.iter_mut().chain([&mut p1, &mut q1, &mut de, &mut q_qinv]) {
            value.zeroize();
        }
        reason
    };
    secrets.iter_mut().for_each(Zeroize::zeroize);
    match reason {
        Some(reason) => Err(invalid(format!("the key is inconsistent: {reason}"))),
        None => RsaPublicKey::new(n, e).map_err(|e| invalid(e.to_string())),
    }
}

/// The integer of a DER part, through limbs that are wiped (`BigUint::from_bytes_be`
/// would free an unwiped reversed copy of the bytes).
fn secret_int(part: UintRef<'_>) -> BigUint {
    let bytes = part.as_bytes();
    let mut limbs = limbs_from_be(bytes, bytes.len().div_ceil(4)).unwrap_or_default();
    let value = from_limbs(&limbs);
    limbs.zeroize();
    value
}

/// The PKCS#1 DER of a (generated, two-prime) key in a buffer wiped on drop;
/// dp, dq and qinv are the values `rsa` precomputed (and wipes).
fn pkcs1_of(key: &RsaPrivateKey) -> Result<Zeroizing<Vec<u8>>> {
    let failed = |reason: String| Error::CryptoFailure { reason: format!("private key encoding failed: {reason}") };
    let ([p, q], Some(dp), Some(dq), Some(qinv)) = (key.primes(), key.dp(), key.dq(), key.qinv()) else {
        return Err(failed("not a two-prime key with precomputed CRT values".into()));
    };
    let (sign, qinv) = qinv.to_bytes_be();
    let qinv = Zeroizing::new(qinv);
    if sign == num_bigint_dig::Sign::Minus {
        return Err(failed("negative CRT coefficient".into()));
    }
    // `to_bytes_be` fills a buffer of the exact size and reverses it in place.
    let n = key.n().to_bytes_be();
    let e = key.e().to_bytes_be();
    let [d, p, q, dp, dq] = [key.d(), p, q, dp, dq].map(|x| Zeroizing::new(x.to_bytes_be()));
    fn uint(bytes: &[u8]) -> Result<UintRef<'_>> {
        UintRef::new(bytes).map_err(|e| Error::CryptoFailure { reason: format!("private key encoding failed: {e}") })
    }
    let pkcs1 = rsa::pkcs1::RsaPrivateKey {
        modulus: uint(&n)?,
        public_exponent: uint(&e)?,
        private_exponent: uint(&d)?,
        prime1: uint(&p)?,
        prime2: uint(&q)?,
        exponent1: uint(&dp)?,
        exponent2: uint(&dq)?,
        coefficient: uint(&qinv)?,
        other_prime_infos: None,
    };
    der_zeroizing(&pkcs1).map_err(|e| failed(e.to_string()))
}

impl VerifyingKey {
    /// Reads a SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 (`RSA PUBLIC KEY`) PEM.
    pub fn from_pem(pem: &str) -> Result<Self> {
        let pem = pem.trim();
        let label = pem_label(pem)?;
        match label {
            "PUBLIC KEY" | "RSA PUBLIC KEY" => {}
            "PRIVATE KEY" | "RSA PRIVATE KEY" | "ENCRYPTED PRIVATE KEY" => {
                return Err(invalid("this is a private key; configure the project's public key for verifying".into()))
            }
            other => return Err(unsupported_label(other)),
        }
        let (_, der) = Document::from_pem(pem).map_err(|e| invalid(e.to_string()))?;
        let pkcs1_der = if label == "PUBLIC KEY" {
            let info = SubjectPublicKeyInfoRef::try_from(der.as_bytes()).map_err(|e| invalid(e.to_string()))?;
            require_rsa(info.algorithm.oid)?;
            info.subject_public_key.raw_bytes()
        } else {
            der.as_bytes()
        };
        let fields = rsa::pkcs1::RsaPublicKey::try_from(pkcs1_der).map_err(|e| invalid(e.to_string()))?;
        check_policy(fields.modulus.as_bytes(), fields.public_exponent.as_bytes())?;
        let public = RsaPublicKey::from_pkcs1_der(pkcs1_der).map_err(|e| invalid(e.to_string()))?;
        Self::from_public(public)
    }

    fn from_public(public: RsaPublicKey) -> Result<Self> {
        check_policy(&public.n().to_bytes_be(), &public.e().to_bytes_be())?;
        let pem =
            public.to_public_key_pem(LineEnding::LF).map_err(|e| Error::CryptoFailure { reason: e.to_string() })?;
        let token = URL_SAFE.encode(pem.as_bytes());
        let der =
            public.to_public_key_der().map_err(|e| Error::CryptoFailure { reason: e.to_string() })?.as_bytes().to_vec();
        let token_der = URL_SAFE.encode(&der);
        if !public.n().to_bytes_le().first().is_some_and(|low| low & 1 == 1) {
            return Err(invalid("the modulus is even".into()));
        }
        let modulus = OnceLock::new();
        let e_bytes = public.e().to_bytes_be();
        let exponent = (e_bytes.len() <= 4)
            .then(|| e_bytes.iter().fold(0u32, |acc, b| (acc << 8) | u32::from(*b)))
            .ok_or_else(|| Error::KeyExponentUnsupported { exponent: public.e().to_string() })?;
        Ok(VerifyingKey(Arc::new(PublicParts { public, pem, token, token_der, der, modulus, exponent })))
    }

    /// The `x-access-token` value: base64url of the SubjectPublicKeyInfo PEM bytes.
    pub fn token(&self) -> &str {
        &self.0.token
    }

    /// The `x-access-token` value in `encoding` (padded base64url).
    pub fn token_in(&self, encoding: TokenEncoding) -> &str {
        match encoding {
            TokenEncoding::Pem => &self.0.token,
            TokenEncoding::Der => &self.0.token_der,
        }
    }

    /// The SubjectPublicKeyInfo DER bytes.
    pub fn public_key_der(&self) -> &[u8] {
        &self.0.der
    }

    /// The SubjectPublicKeyInfo PEM, LF line endings.
    pub fn public_key_pem(&self) -> &str {
        &self.0.pem
    }

    /// Modulus size in bits.
    pub fn bits(&self) -> usize {
        self.0.public.n().bits()
    }

    /// Modulus size in bytes: the length of every signature.
    pub fn signature_len(&self) -> usize {
        self.0.public.size()
    }

    /// The modulus for our arithmetic (odd and of 2048 to 4096 bits, checked when
    /// the key was read, so `Modulus::new` takes it).
    pub(crate) fn modulus(&self) -> Result<&Modulus> {
        self.0
            .modulus
            .get_or_init(|| Modulus::new(self.0.public.n()))
            .as_ref()
            .ok_or_else(|| invalid("the modulus is even".into()))
    }

    pub(crate) fn modulus_value(&self) -> &BigUint {
        self.0.public.n()
    }

    pub(crate) fn exponent(&self) -> u32 {
        self.0.exponent
    }

    /// The JWK members `n` and `e`: base64url (unpadded) of the big-endian modulus and
    /// exponent, without leading zeros (the JS core's check of node:crypto's key).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn jwk_members(&self) -> (String, String) {
        let public = &self.0.public;
        (URL_SAFE_NO_PAD.encode(public.n().to_bytes_be()), URL_SAFE_NO_PAD.encode(public.e().to_bytes_be()))
    }

    /// Same modulus and exponent.
    pub fn same_key(&self, other: &RsaPublicKey) -> bool {
        self.0.public.n() == other.n() && self.0.public.e() == other.e()
    }

    /// Reads a public key in either PEM form, without the size and exponent policy
    /// (used to describe a token that carries some other key).
    pub(crate) fn parse_any_public(pem: &str) -> Option<RsaPublicKey> {
        let pem = pem.trim();
        RsaPublicKey::from_public_key_pem(pem).ok().or_else(|| RsaPublicKey::from_pkcs1_pem(pem).ok())
    }

    /// Reads a public key from DER bytes, SubjectPublicKeyInfo or PKCS#1, without the policy.
    pub(crate) fn parse_any_public_der(der: &[u8]) -> Option<RsaPublicKey> {
        RsaPublicKey::from_public_key_der(der).ok().or_else(|| RsaPublicKey::from_pkcs1_der(der).ok())
    }
}

/// Our key policy, on the big-endian modulus and exponent: 2048 to 4096 bits,
/// and an odd exponent from 3 to 2^32 - 1 (65537 in practice).
fn check_policy(modulus: &[u8], exponent: &[u8]) -> Result<()> {
    let bits = big_endian_bits(modulus);
    if !(MIN_BITS..=MAX_BITS).contains(&bits) {
        return Err(Error::KeySizeUnsupported { bits, min_bits: MIN_BITS, max_bits: MAX_BITS });
    }
    let significant: Vec<u8> = exponent.iter().copied().skip_while(|b| *b == 0).collect();
    let value = (significant.len() <= 4).then(|| significant.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b)));
    match value {
        Some(e) if e >= 3 && e % 2 == 1 => Ok(()),
        _ => Err(Error::KeyExponentUnsupported { exponent: BigUint::from_bytes_be(exponent).to_string() }),
    }
}

/// The DER of `value` in one buffer of exactly its encoded length (no growth, so no
/// unwiped earlier copy), wiped on drop.
fn der_zeroizing(value: &impl Encode) -> std::result::Result<Zeroizing<Vec<u8>>, rsa::pkcs8::der::Error> {
    let len = usize::try_from(value.encoded_len()?)?;
    let mut der = Zeroizing::new(vec![0u8; len]);
    let written = value.encode_to_slice(&mut der)?.len();
    if written != len {
        return Err(rsa::pkcs8::der::ErrorKind::Incomplete {
            expected_len: len.try_into()?,
            actual_len: written.try_into()?,
        }
        .into());
    }
    Ok(der)
}

fn big_endian_bits(bytes: &[u8]) -> usize {
    let significant: Vec<&u8> = bytes.iter().skip_while(|b| **b == 0).collect();
    match significant.first() {
        Some(first) => (significant.len() - 1) * 8 + (8 - first.leading_zeros() as usize),
        None => 0,
    }
}

/// The DER of a private-key PEM, decoded straight into a buffer that is wiped
/// on drop. (`SecretDocument::from_pem` decodes into a plain `Vec` first and
/// drops it unwiped when the DER inside is malformed, e.g. a truncated key.)
fn secret_der(pem: &str) -> Result<Zeroizing<Vec<u8>>> {
    let mut decoder = pem::Decoder::new(pem.as_bytes()).map_err(|e| invalid(e.to_string()))?;
    let mut der = Zeroizing::new(Vec::with_capacity(decoder.remaining_len()));
    decoder.decode_to_end(&mut der).map_err(|e| invalid(e.to_string()))?;
    Ok(der)
}

/// The label of the (first) PEM block, e.g. `PRIVATE KEY`.
fn pem_label(pem: &str) -> Result<&str> {
    if let Some(reason) = not_pem_text(pem) {
        return Err(invalid(reason.into()));
    }
    pem::decode_label(pem.as_bytes()).map_err(|e| invalid(format!("not a PEM block ({e})")))
}

/// What common mistake a text given as PEM (already trimmed) is, and what to pass instead:
/// an empty string, a file path, a PEM whose line breaks are the two characters `\n`, or
/// base64 without its PEM armour.
fn not_pem_text(pem: &str) -> Option<&'static str> {
    if pem.is_empty() {
        return Some("the text is empty: pass the key file's contents, e.g. fs.readFileSync(path, 'utf8')");
    }
    let armoured = pem.contains("-----BEGIN ");
    if armoured && pem.contains("\\n") && !pem.contains('\n') {
        return Some(
            "the PEM holds the two characters \\n where its line breaks should be (as an environment \
             variable often does): turn them into line breaks, e.g. pem.replace(/\\\\n/g, '\\n')",
        );
    }
    if armoured {
        return None;
    }
    let one_word = !pem.chars().any(char::is_whitespace);
    let path_like = pem.contains('/') || pem.contains('\\') || pem.starts_with('.');
    let named_like_a_file = [".pem", ".key", ".pub", ".crt", ".der", ".txt"].iter().any(|ext| pem.ends_with(ext));
    if one_word && pem.len() < 4096 && (named_like_a_file || (path_like && pem.contains('.'))) {
        return Some("this looks like a file path: pass the file's contents, e.g. fs.readFileSync(path, 'utf8')");
    }
    let base64 = pem.bytes().all(|b| b.is_ascii_alphanumeric() || b"+/-_=\r\n".contains(&b));
    if base64 && pem.len() >= 64 {
        return Some(
            "this looks like base64 without its PEM armour (a DER key, or an x-access-token, which is the \
             PEM encoded once more): pass the PEM text with its -----BEGIN and -----END lines",
        );
    }
    None
}

fn unsupported_label(label: &str) -> Error {
    let found = match label {
        "EC PRIVATE KEY" => "an EC key",
        "DSA PRIVATE KEY" => "a DSA key",
        "OPENSSH PRIVATE KEY" => "an OpenSSH key",
        "CERTIFICATE" => "a certificate",
        "CERTIFICATE REQUEST" => "a certificate request",
        _ => return invalid(format!("unexpected PEM label '{label}'")),
    };
    Error::KeyTypeUnsupported { found: found.into() }
}

/// rsaEncryption, the algorithm of every RSA PKCS#8 and SPKI document.
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

/// A PKCS#8 or SPKI document that holds another algorithm is named, not just refused.
fn require_rsa(oid: ObjectIdentifier) -> Result<()> {
    if oid == RSA_ENCRYPTION {
        return Ok(());
    }
    let found = match oid.to_string().as_str() {
        "1.2.840.10045.2.1" => "an EC key".to_owned(),
        "1.3.101.112" => "an Ed25519 key".to_owned(),
        "1.3.101.113" => "an Ed448 key".to_owned(),
        "1.2.840.10040.4.1" => "a DSA key".to_owned(),
        "1.2.840.113549.1.1.10" => "an RSA-PSS key (only PKCS#1 v1.5 RSA is used)".to_owned(),
        other => format!("a key of algorithm {other}"),
    };
    Err(Error::KeyTypeUnsupported { found })
}

fn invalid(reason: String) -> Error {
    Error::InvalidKey { reason }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_mistakes_are_named_with_what_to_pass_instead() {
        let reason = |text: &str| match VerifyingKey::from_pem(text) {
            Err(Error::InvalidKey { reason }) => reason,
            other => panic!("{text}: {other:?}"),
        };
        assert!(reason("").contains("empty"));
        assert!(reason("   ").contains("empty"));
        assert!(reason("./keys/service-public.pem").contains("file path"));
        assert!(reason("/etc/keys/public.key").contains("file path"));
        assert!(reason("C:\\keys\\public.pem").contains("file path"));
        let escaped = "-----BEGIN PUBLIC KEY-----\\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\\n-----END PUBLIC KEY-----";
        assert!(reason(escaped).contains("line breaks"));
        let token = "LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUlJQklqQU5CZ2txaGtpRzl3MEJBUUVGQUFPQ0FROEFNSUlCQ2dLQ0FRRUE";
        assert!(reason(token).contains("PEM armour"));
        assert!(SigningKey::from_pem("private.pem").is_err_and(|e| e.to_string().contains("file path")));
    }

    #[test]
    fn private_material_is_zeroized_on_drop() {
        fn zeroize_on_drop<T: ZeroizeOnDrop>() {}
        zeroize_on_drop::<RsaPrivateKey>();
        zeroize_on_drop::<SigningKey>();
        zeroize_on_drop::<Zeroizing<String>>();
    }

    #[test]
    fn private_key_pem_is_the_encoding_rsa_gives() {
        use rsa::pkcs8::EncodePrivateKey;
        for name in ["rsa2048", "rsa3072", "rsa4096", "attacker2048"] {
            for form in ["pkcs8", "pkcs1"] {
                let path = format!("{}/tests/vectors/keys/{name}.{form}.pem", env!("CARGO_MANIFEST_DIR"));
                let key = SigningKey::from_pem(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let ours = key.private_key_pem_zeroizing().unwrap();
                assert_eq!(*ours, *key.rsa().unwrap().to_pkcs8_pem(LineEnding::LF).unwrap(), "{name}.{form}");
                let again = SigningKey::from_pem(&ours).unwrap();
                assert_eq!(again.rsa().unwrap(), key.rsa().unwrap(), "{name}.{form} reads back");
                assert_eq!(key.private_key_pem().unwrap(), *ours);
            }
        }
    }

    /// A PEM whose every part is well formed but one is changed is refused: the
    /// checks `rsa` made (n = pq, de = 1) and the DER's CRT values node:crypto uses.
    #[test]
    fn an_inconsistent_private_key_is_refused() {
        let path = format!("{}/tests/vectors/keys/rsa2048.pkcs1.pem", env!("CARGO_MANIFEST_DIR"));
        let (_, der) = Document::from_pem(&std::fs::read_to_string(path).unwrap()).unwrap();
        let good = rsa::pkcs1::RsaPrivateKey::try_from(der.as_bytes()).unwrap();
        // The same integer plus 2 (still odd when it was odd; the last byte is never 0xfe or 0xff here).
        let plus_two = |part: UintRef<'_>| {
            let mut bytes = part.as_bytes().to_vec();
            let last = bytes.len() - 1;
            bytes[last] = bytes[last].checked_add(2).unwrap();
            bytes
        };
        let pem_of = |key: &rsa::pkcs1::RsaPrivateKey<'_>| {
            pem::encode_string("RSA PRIVATE KEY", LineEnding::LF, &key.to_der().unwrap()).unwrap()
        };
        assert!(SigningKey::from_pem(&pem_of(&good)).is_ok(), "the unchanged key is read");
        for (name, expected) in
            [("d", "private exponent"), ("p", "primes"), ("dp", "CRT"), ("dq", "CRT"), ("qinv", "CRT")]
        {
            let mut key = good.clone();
            let field = match name {
                "d" => &mut key.private_exponent,
                "p" => &mut key.prime1,
                "dp" => &mut key.exponent1,
                "dq" => &mut key.exponent2,
                _ => &mut key.coefficient,
            };
            let changed = plus_two(*field);
            *field = UintRef::new(&changed).unwrap();
            match SigningKey::from_pem(&pem_of(&key)) {
                Err(Error::InvalidKey { reason }) => assert!(reason.contains(expected), "{name}: {reason}"),
                other => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn policy_bounds() {
        let modulus = |bits: usize| {
            let mut m = vec![0u8; bits.div_ceil(8)];
            m[0] = 1 << ((bits - 1) % 8);
            m
        };
        assert!(check_policy(&modulus(2048), &[1, 0, 1]).is_ok());
        assert!(check_policy(&modulus(4096), &[3]).is_ok());
        assert_eq!(check_policy(&modulus(2047), &[1, 0, 1]).unwrap_err().code(), "KEY_SIZE_UNSUPPORTED");
        assert_eq!(check_policy(&modulus(4097), &[1, 0, 1]).unwrap_err().code(), "KEY_SIZE_UNSUPPORTED");
        for exponent in [&[1u8][..], &[2], &[0, 0, 1, 0, 0], &[1, 0, 0, 0, 1]] {
            assert_eq!(check_policy(&modulus(2048), exponent).unwrap_err().code(), "KEY_EXPONENT_UNSUPPORTED");
        }
        assert!(check_policy(&modulus(2048), &[0, 0xff, 0xff, 0xff, 0xff]).is_ok());
    }
}
