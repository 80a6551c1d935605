//! The four authentication headers ("Authentication"), lower case as the spec
//! writes them, in the spec's order.

/// `x-access-timestamp`: Unix seconds of the message; part of the signed text.
pub const HEADER_TIMESTAMP: &str = "x-access-timestamp";
/// `x-access-merchant-id`: the merchant's (project's) account; not signed.
pub const HEADER_MERCHANT_ID: &str = "x-access-merchant-id";
/// `x-access-signature`: URL-safe base64 of the RSA signature.
pub const HEADER_SIGNATURE: &str = "x-access-signature";
/// `x-access-token`: URL-safe base64 of the signer's public key PEM.
pub const HEADER_TOKEN: &str = "x-access-token";

/// `x-access-merchant-algorithm`: the algorithm of a request signed with HMAC
/// (the service's documentation names the header; the spec does not).
pub const HEADER_ALGORITHM: &str = "x-access-merchant-algorithm";

/// The four names in the spec's order.
pub const HEADERS: [&str; 4] = [HEADER_TIMESTAMP, HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_TOKEN];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::spec_text::{spec, table};

    #[test]
    fn headers_are_the_spec_table() {
        let Some(spec) = spec() else { return };
        let rows = table(&spec, "## Authentication");
        let listed: Vec<&str> = rows.iter().map(|row| row[0].as_str()).collect();
        assert_eq!(listed, HEADERS);
    }
}
