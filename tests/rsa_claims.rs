//! The claims of SECURITY.md ("Which claim holds on which path") that a test can
//! hold, natively, through the public API:
//!
//! - our CRT signing gives the very signature the `rsa` crate gives (PKCS#1 v1.5 is
//!   deterministic), on every test key size, and our verification agrees with
//!   `rsa`'s on good, altered and out-of-range signatures;
//! - keys with more than two primes are refused, so the `rsa` fallback in
//!   `sign_message` is not reachable from a PEM;
//! - dropping a `CrtKey` or a `SigningKey` wipes every copy of a secret it holds,
//!   checked by an allocator that looks into each buffer as it is freed.
//!
//! Blinding, the fault check and the operation count of the constant-time
//! exponentiation need test-only seams: they are unit tests in `src/rsa/pkcs1v15.rs`
//! and `src/rsa/hazmat/tests.rs`. `CrtKey` here is `__private`'s opaque test seam
//! (`src/rsa/mod.rs`): it can be made and dropped, and holds its secrets privately.
//!
//! Native only (files, a global allocator); in wasm the same CRT code is held by
//! the shared signature vectors (`tests/common`, run by `wasm-pack test`).
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use base64::engine::general_purpose::URL_SAFE;
use base64::Engine;
use payment_intake::__private::CrtKey;
use payment_intake::{sign_message, verify_message, SigningKey, VerifyingKey};
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs1v15::Pkcs1v15Sign;
use rsa::pkcs8::DecodePrivateKey;
use rsa::traits::{PrivateKeyParts, PublicKeyParts};
use rsa::{BigUint, RsaPrivateKey};
use sha2::{Digest, Sha256};

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The `rsa` crate's reading of the same PEM.
fn rsa_key(pem: &str) -> RsaPrivateKey {
    RsaPrivateKey::from_pkcs8_pem(pem).or_else(|_| RsaPrivateKey::from_pkcs1_pem(pem)).unwrap()
}

fn rsa_signature(key: &RsaPrivateKey, message: &str) -> Vec<u8> {
    key.sign(Pkcs1v15Sign::new::<Sha256>(), &Sha256::digest(message.as_bytes())).unwrap()
}

const MESSAGES: [&str; 5] = [
    "",
    "1700000000",
    "amount:100;currency:EUR;merchant:m-1;order:A-17;1700000000",
    "description:Grüße, 北京 & emoji 🎉;1700000000",
    "x",
];

fn check_against_rsa(name: &str, pem: &str) {
    let ours = SigningKey::from_pem(pem).unwrap();
    let theirs = rsa_key(pem);
    for message in MESSAGES {
        let expected = rsa_signature(&theirs, message);
        let signed = sign_message(message, &ours, payment_intake::Digest::Single).unwrap();
        assert_eq!(URL_SAFE.decode(&signed).unwrap(), expected, "{name}: {message:?}");
    }
}

#[test]
fn crt_signatures_equal_the_rsa_crate_signatures() {
    for name in ["rsa2048", "rsa3072", "rsa4096", "attacker2048"] {
        for form in ["pkcs8", "pkcs1"] {
            check_against_rsa(&format!("{name}.{form}"), &read(&format!("vectors/keys/{name}.{form}.pem")));
        }
    }
    // Public exponent 3 (pow_public with a 2-bit exponent).
    check_against_rsa("rsa2048e3", &read("fixtures/keys/rsa2048e3.pkcs8.pem"));
    // A size that is not a multiple of 32 bits: p and q do not fill their top limb.
    let generated = SigningKey::generate(2056).unwrap();
    check_against_rsa("generated 2056", &generated.private_key_pem().unwrap());
}

#[test]
fn verification_agrees_with_the_rsa_crate() {
    let pem = read("vectors/keys/rsa2048.pkcs8.pem");
    let private = rsa_key(&pem);
    let public = private.to_public_key();
    let key = VerifyingKey::from_pem(&read("vectors/keys/rsa2048.public.pem")).unwrap();
    let n = public.n();
    let size = public.size();
    // A message whose signature s has s + n below 2^2048 too: the same residue, not reduced.
    let (message, good) = (0..64)
        .map(|i| format!("amount:{i};currency:EUR1700000000"))
        .map(|message| {
            let good = rsa_signature(&private, &message);
            (message, good)
        })
        .find(|(_, good)| (BigUint::from_bytes_be(good) + n).bits() <= 8 * size)
        .expect("one in 64 signatures is small enough");
    let message = message.as_str();
    let digest = Sha256::digest(message.as_bytes());
    let fixed = |value: &BigUint| {
        let bytes = value.to_bytes_be();
        let mut out = vec![0u8; size - bytes.len().min(size)];
        out.extend_from_slice(&bytes);
        out
    };
    let mut candidates = vec![("good", good.clone())];
    for bit in [0, 7, 100, 1000, 8 * size - 1] {
        let mut altered = good.clone();
        altered[bit / 8] ^= 1 << (bit % 8);
        candidates.push(("one bit flipped", altered));
    }
    candidates.push(("zero", vec![0u8; size]));
    candidates.push(("one", fixed(&BigUint::from(1u32))));
    candidates.push(("n - 1", fixed(&(n - 1u32))));
    candidates.push(("n", fixed(n)));
    candidates.push(("good + n", fixed(&(BigUint::from_bytes_be(&good) + n))));
    candidates.push(("all ones", vec![0xff; size]));
    candidates.push(("other message", rsa_signature(&private, "amount:101;currency:EUR1700000000")));
    let mut accepted = 0;
    for (name, signature) in candidates {
        let theirs = public.verify(Pkcs1v15Sign::new::<Sha256>(), &digest, &signature).is_ok();
        let ours = verify_message(message, &URL_SAFE.encode(&signature), &key, payment_intake::Digest::Single);
        assert_eq!(ours.is_ok(), theirs, "{name}: ours {ours:?}, rsa {theirs}");
        if let Err(error) = ours {
            assert_eq!(error.code(), "INVALID_SIGNATURE", "{name}");
        }
        accepted += usize::from(theirs);
    }
    assert_eq!(accepted, 1, "only the good signature verifies");
}

/// The `rsa` fallback of `sign_message` (keys without our CRT form) would sign in
/// variable time; no key that reaches it can be made: a PEM with more than two
/// primes is refused, and generated keys have two.
#[test]
fn multi_prime_keys_are_refused() {
    for form in ["pkcs8", "pkcs1"] {
        let pem = read(&format!("fixtures/keys/rsa2048.3prime.{form}.pem"));
        let error = SigningKey::from_pem(&pem).unwrap_err();
        assert_eq!(error.code(), "INVALID_KEY", "3-prime {form}: {error}");
    }
}

// ---------------------------------------------------------------------------
// Zeroization: an allocator that, while a thread watches, looks into every
// buffer that thread frees for a copy of a known secret.

struct Inspecting;

thread_local! {
    static WATCHING: Cell<bool> = const { Cell::new(false) };
}

/// The 16-byte pieces of secrets to look for, little- and big-endian.
static PATTERNS: Mutex<Vec<[u8; 16]>> = Mutex::new(Vec::new());
/// Freed buffers that held a pattern, and their sizes (the first few).
static HITS: AtomicUsize = AtomicUsize::new(0);
static HIT_SIZES: [AtomicUsize; 8] = [const { AtomicUsize::new(0) }; 8];
/// One watching test at a time (they share PATTERNS).
static SERIAL: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Inspecting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if WATCHING.with(Cell::get) {
            let bytes = std::slice::from_raw_parts(ptr, layout.size());
            let patterns = PATTERNS.lock().unwrap_or_else(|e| e.into_inner());
            if bytes.windows(16).any(|window| patterns.iter().any(|p| p[..] == *window)) {
                let hit = HITS.fetch_add(1, Ordering::SeqCst);
                if let Some(slot) = HIT_SIZES.get(hit) {
                    slot.store(layout.size(), Ordering::SeqCst);
                }
            }
        }
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Inspecting = Inspecting;

/// Sets the secrets to look for (every 16-byte piece of each, both byte orders).
fn look_for(secrets: &[BigUint]) {
    let mut patterns = Vec::new();
    for secret in secrets {
        for bytes in [secret.to_bytes_le(), secret.to_bytes_be()] {
            for chunk in bytes.chunks_exact(16) {
                patterns.push(chunk.try_into().unwrap());
            }
        }
    }
    *PATTERNS.lock().unwrap() = patterns;
}

/// How many buffers freed by `f` on this thread held a piece of a secret, and their sizes.
fn unwiped_frees(f: impl FnOnce()) -> (usize, Vec<usize>) {
    HITS.store(0, Ordering::SeqCst);
    WATCHING.with(|w| w.set(true));
    f();
    WATCHING.with(|w| w.set(false));
    let hits = HITS.load(Ordering::SeqCst);
    let sizes = HIT_SIZES.iter().take(hits).map(|s| s.load(Ordering::SeqCst)).collect();
    (hits, sizes)
}

/// The secrets of a two-prime key and of its Montgomery form: p, q, d, dp, dq,
/// q^-1 mod p, and R mod p, R^2 mod p (and for q), R = 2^(32 * limbs).
fn secrets_of(key: &RsaPrivateKey) -> Vec<BigUint> {
    let [p, q] = key.primes() else { panic!("two primes") };
    let mut secrets = vec![p.clone(), q.clone(), key.d().clone(), key.dp().unwrap().clone(), key.dq().unwrap().clone()];
    secrets.push(key.crt_coefficient().unwrap());
    for prime in [p, q] {
        let r = BigUint::from(1u32) << (32 * prime.bits().div_ceil(32));
        secrets.push(&r % prime);
        secrets.push((&r * &r) % prime);
    }
    secrets
}

fn crt_key_of(key: &RsaPrivateKey) -> CrtKey {
    let [p, q] = key.primes() else { panic!("two primes") };
    CrtKey::new(p, q, key.dp().unwrap(), key.dq().unwrap(), &key.crt_coefficient().unwrap()).unwrap()
}

#[test]
fn dropping_a_crt_key_wipes_its_copies() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for name in ["rsa2048", "rsa4096"] {
        let private = rsa_key(&read(&format!("vectors/keys/{name}.pkcs8.pem")));
        look_for(&secrets_of(&private));
        // The detector sees an unwiped copy of a prime (so a pass below means something).
        let copy = private.primes()[0].to_bytes_le();
        assert_eq!(unwiped_frees(|| drop(copy)).0, 1, "{name}: the detector missed a copy of p");
        let crt = crt_key_of(&private);
        let (hits, sizes) = unwiped_frees(|| drop(crt));
        assert_eq!(hits, 0, "{name}: a CrtKey freed {hits} buffers holding a secret (sizes {sizes:?})");
    }
}

#[test]
fn dropping_a_signing_key_wipes_its_secrets() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let pem = read("vectors/keys/rsa2048.pkcs8.pem");
    look_for(&secrets_of(&rsa_key(&pem)));
    let key = SigningKey::from_pem(&pem).unwrap();
    // The first signature makes the CRT form, which the key then holds too.
    sign_message("1700000000", &key, payment_intake::Digest::Single).unwrap();
    let (hits, sizes) = unwiped_frees(|| drop(key));
    assert_eq!(hits, 0, "a SigningKey freed {hits} buffers holding a secret (sizes {sizes:?})");
}

/// Known weakness (SECURITY.md, "Zeroization"): making the CRT form and signing
/// free unwiped temporaries, some of which are copies of p, q, dp, dq or q^-1 mod p
/// (and others residues mod p or q that reveal a prime as well, which this test
/// cannot recognize). Run with `--ignored` to see it fail.
#[test]
#[ignore = "known weakness: signing frees unwiped copies of secrets (SECURITY.md, Zeroization)"]
fn signing_frees_no_unwiped_copy_of_a_secret() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let pem = read("vectors/keys/rsa2048.pkcs8.pem");
    look_for(&secrets_of(&rsa_key(&pem)));
    let key = SigningKey::from_pem(&pem).unwrap();
    let (first, first_sizes) =
        unwiped_frees(|| drop(sign_message("1700000000", &key, payment_intake::Digest::Single).unwrap()));
    let (later, later_sizes) =
        unwiped_frees(|| drop(sign_message("1700000001", &key, payment_intake::Digest::Single).unwrap()));
    assert_eq!(
        (first, later),
        (0, 0),
        "unwiped secret copies freed: first signature {first} (sizes {first_sizes:?}), next {later} \
         (sizes {later_sizes:?})"
    );
}

/// An HMAC secret is wiped when its key drops (the JS `free()` drops it), and the
/// detector sees an unwiped copy of the same bytes (so a pass means something).
#[test]
fn dropping_an_hmac_key_wipes_its_secret() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let secret = "test-only-hmac-secret-0123456789abcdef";
    *PATTERNS.lock().unwrap() = vec![secret.as_bytes()[..16].try_into().unwrap()];
    let copy = secret.as_bytes().to_vec();
    assert_eq!(unwiped_frees(|| drop(copy)).0, 1, "the detector missed a copy of the secret");
    let key = payment_intake::HmacKey::from_text(secret).unwrap();
    key.sign("YTox1700000000", payment_intake::SignatureEncoding::Base64Url, true).unwrap();
    let (hits, sizes) = unwiped_frees(|| drop(key));
    assert_eq!(hits, 0, "an HmacKey freed {hits} buffers holding its secret (sizes {sizes:?})");
}

/// Known weakness (SECURITY.md, "Reading a private key"): reading a private-key
/// PEM checks the key with `num-bigint-dig`, whose divisions free unwiped
/// normalized copies of d, p - 1 and q - 1 (7 buffers with this key; 27 when
/// `rsa` validated and precomputed the key). The DER, the integers read from it
/// and the checks' own results and products are wiped. Run with `--ignored` to see it fail.
#[test]
#[ignore = "known weakness: the key checks' divisions free unwiped copies (SECURITY.md)"]
fn reading_a_private_key_frees_no_unwiped_copy_of_a_secret() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for form in ["pkcs8", "pkcs1"] {
        let pem = read(&format!("vectors/keys/rsa2048.{form}.pem"));
        look_for(&secrets_of(&rsa_key(&pem)));
        let mut key = None;
        let (hits, sizes) = unwiped_frees(|| key = Some(SigningKey::from_pem(&pem).unwrap()));
        assert!(key.is_some());
        assert_eq!(hits, 0, "{form}: reading freed {hits} buffers holding a secret (sizes {sizes:?})");
    }
}
