//! What the key readers of every build share: the common mistakes of a text given as
//! PEM, named with what to pass instead; the other key types a label or an
//! algorithm names; and [`invalid`], the error of a key refused as malformed or
//! inconsistent.

use super::der::RSA_ENCRYPTION;
use crate::error::{Error, Result};

/// What common mistake a text given as PEM (already trimmed) is, and what to pass instead:
/// an empty string, a file path, a PEM whose line breaks are the two characters `\n`, or
/// base64 without its PEM armour.
pub(super) fn not_pem_text(pem: &str) -> Option<&'static str> {
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

pub(super) fn unsupported_label(label: &str) -> Error {
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

/// The algorithms a key of another kind most often is, by their OIDs' content bytes.
const OTHER_ALGORITHMS: [(&[u8], &str); 5] = [
    (&[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01], "an EC key"), // 1.2.840.10045.2.1
    (&[0x2b, 0x65, 0x70], "an Ed25519 key"),                    // 1.3.101.112
    (&[0x2b, 0x65, 0x71], "an Ed448 key"),                      // 1.3.101.113
    (&[0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01], "a DSA key"), // 1.2.840.10040.4.1
    // 1.2.840.113549.1.1.10
    (&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a], "an RSA-PSS key (only PKCS#1 v1.5 RSA is used)"),
];

/// A PKCS#8 or SPKI document that holds another algorithm (`oid`: its OID's content
/// bytes) is named, not just refused; `dotted` writes an OID of no known name
/// (`1.2.3.4`), or says it is malformed (`None`). (The full build's `der` writes it,
/// the lean builds' `der.rs`: one formatter in each build.)
pub(super) fn require_rsa_oid(oid: &[u8], dotted: impl FnOnce() -> Option<String>) -> Result<()> {
    if oid == RSA_ENCRYPTION {
        return Ok(());
    }
    let found = match OTHER_ALGORITHMS.iter().find(|(known, _)| *known == oid) {
        Some((_, name)) => (*name).to_owned(),
        None => match dotted() {
            Some(dotted) => format!("a key of algorithm {dotted}"),
            None => return Err(invalid("the algorithm's OID is malformed".into())),
        },
    };
    Err(Error::KeyTypeUnsupported { found })
}

/// The error of a key refused as malformed or inconsistent.
pub(super) fn invalid(reason: String) -> Error {
    Error::InvalidKey { reason }
}
