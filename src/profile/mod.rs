//! A sender's whole rule set: the canonical options (`crate::canonical`),
//! what the RSA signature covers (`Digest`), what the token carries
//! (`TokenEncoding`) and how an HMAC signature is written
//! (`SignatureEncoding`). The spec leaves each of these open; [`Profile::SPEC`]
//! reads it with its Python origin, and [`PROFILES`] names the rule sets of
//! the senders we know of, so a merchant passes `{ profile: name }` instead
//! of guessing among the combinations.

use crate::canonical::{Booleans, CanonicalOptions, Falsy, Numbers, Order};
use crate::hmac::SignatureEncoding;
use crate::rsa::keys::TokenEncoding;
use crate::rsa::pkcs1v15::Digest;

/// Every rule of how a sender builds and signs a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// How the canonical message is built.
    pub canonical: CanonicalOptions,
    /// What an RSA signature covers.
    pub digest: Digest,
    /// What `x-access-token` carries (RSA).
    pub token: TokenEncoding,
    /// How an HMAC signature is written.
    pub signature_encoding: SignatureEncoding,
}

impl Profile {
    /// The spec read with its Python origin: every default.
    pub const SPEC: Profile = Profile {
        canonical: CanonicalOptions::DEFAULT,
        digest: Digest::Single,
        token: TokenEncoding::Pem,
        signature_encoding: SignatureEncoding::Base64Url,
    };
}

impl From<CanonicalOptions> for Profile {
    /// The spec's rules with these canonical options.
    fn from(canonical: CanonicalOptions) -> Self {
        Profile { canonical, ..Profile::SPEC }
    }
}

impl From<&CanonicalOptions> for Profile {
    fn from(canonical: &CanonicalOptions) -> Self {
        Profile::from(*canonical)
    }
}

impl From<&Profile> for Profile {
    fn from(profile: &Profile) -> Self {
        *profile
    }
}

impl Default for Profile {
    fn default() -> Self {
        Self::SPEC
    }
}

/// A profile with its name and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamedProfile {
    /// What `{ profile: name }` takes.
    pub name: &'static str,
    /// Whose rules these are, in one sentence.
    pub description: &'static str,
    /// The rules.
    pub profile: Profile,
}

/// The named profiles, `spec` first.
pub const PROFILES: [NamedProfile; 3] = [
    NamedProfile {
        name: "spec",
        description: "the spec read with its Python origin: every default",
        profile: Profile::SPEC,
    },
    NamedProfile {
        name: "public-js-client",
        description: "the public JavaScript client of the service: String() of every leaf (only null is None), \
                      sort() order, no padding, RSA over SHA-256 of the SHA-256 digest, a DER token",
        profile: Profile {
            canonical: CanonicalOptions {
                falsy: Falsy::Null,
                booleans: Booleans::Lower,
                padding: false,
                order: Order::Utf16,
                numbers: Numbers::Js,
            },
            digest: Digest::Double,
            token: TokenEncoding::Der,
            signature_encoding: SignatureEncoding::Base64Url,
        },
    },
    NamedProfile {
        name: "callback-docs",
        description: "the service's callback documentation: the spec's rules, with booleans written 1 and 0",
        profile: Profile {
            canonical: CanonicalOptions { booleans: Booleans::Digit, ..CanonicalOptions::DEFAULT },
            ..Profile::SPEC
        },
    },
];

/// The profile named `name`.
pub fn profile_named(name: &str) -> Option<Profile> {
    PROFILES.iter().find(|named| named.name == name).map(|named| named.profile)
}

/// How many of the rules differ from the spec's: the diagnosis prefers the fewest.
pub(crate) fn distance_from_spec(profile: &Profile) -> usize {
    let (c, d) = (profile.canonical, CanonicalOptions::DEFAULT);
    [
        c.falsy != d.falsy,
        c.booleans != d.booleans,
        c.padding != d.padding,
        c.order != d.order,
        c.numbers != d.numbers,
        profile.digest != Digest::Single,
        profile.token != TokenEncoding::Pem,
        profile.signature_encoding != SignatureEncoding::Base64Url,
    ]
    .into_iter()
    .filter(|differs| *differs)
    .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_spec_is_the_default() {
        assert_eq!(PROFILES[0].profile, Profile::default());
        for (i, a) in PROFILES.iter().enumerate() {
            assert!(PROFILES[i + 1..].iter().all(|b| b.name != a.name && b.profile != a.profile), "{}", a.name);
            assert_eq!(profile_named(a.name), Some(a.profile));
        }
        assert_eq!(profile_named("python"), None);
        assert_eq!(distance_from_spec(&Profile::SPEC), 0);
        assert_eq!(distance_from_spec(&PROFILES[1].profile), 7);
        assert_eq!(distance_from_spec(&PROFILES[2].profile), 1);
    }
}
