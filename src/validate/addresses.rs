//! Checks of the address values: absolute https URLs (a strict, small check,
//! hand-written because the `url` crate would add a lot to the wasm size), an
//! `http://` URL to a loopback host (accepted by a local sandbox only), IP
//! addresses and e-mail addresses.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UrlProblem {
    NotHttps,
    Invalid(&'static str),
}

/// A strict, small check of an absolute https URL: scheme `https`, a host of
/// letters, digits, hyphens and dots (or a bracketed IPv6 address), an
/// optional port 1..=65535, no whitespace or control characters anywhere.
/// Hand-written because the `url` crate would add a lot to the wasm size.
pub(crate) fn check_https_url(text: &str) -> Result<(), UrlProblem> {
    use UrlProblem::Invalid;
    // ASCII (the usual URL) byte by byte: its whitespace and controls are 0..=0x20 and 0x7F.
    let spaced = if text.is_ascii() {
        text.bytes().any(|b| b <= b' ' || b == 0x7F)
    } else {
        text.chars().any(|c| c.is_whitespace() || c.is_control())
    };
    if spaced {
        return Err(Invalid("it contains spaces or control characters"));
    }
    // `split_once("://")` without setting up a substring searcher for three bytes.
    let Some(at) = text.as_bytes().windows(3).position(|three| three == b"://") else {
        return Err(Invalid("it has no scheme; write https://host/…"));
    };
    let (scheme, rest) = (&text[..at], &text[at + 3..]);
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Err(Invalid("its scheme is malformed; write https://host/…"));
    }
    if !scheme.eq_ignore_ascii_case("https") {
        return Err(UrlProblem::NotHttps);
    }
    let authority = authority_of(rest);
    // Credentials before '@' are allowed by URL syntax; only the host is checked.
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let (host, port) = if let Some(bracketed) = host_port.strip_prefix('[') {
        let Some((inner, after)) = bracketed.split_once(']') else {
            return Err(Invalid("its IPv6 host has no closing ']'"));
        };
        if Ipv6Addr::from_str(inner).is_err() {
            return Err(Invalid("its IPv6 host is malformed"));
        }
        match after {
            "" => (inner, None),
            _ => match after.strip_prefix(':') {
                Some(port) => (inner, Some(port)),
                None => return Err(Invalid("text follows its IPv6 host")),
            },
        }
    } else {
        match host_port.rsplit_once(':') {
            Some((host, port)) => {
                check_host_name(host)?;
                (host, Some(port))
            }
            None => {
                check_host_name(host_port)?;
                (host_port, None)
            }
        }
    };
    if host.is_empty() {
        return Err(Invalid("it has no host"));
    }
    if let Some(port) = port {
        let valid = !port.is_empty() && port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit());
        if !valid || !(1..=65535).contains(&port.parse::<u32>().unwrap_or(0)) {
            return Err(Invalid("its port is not a number from 1 to 65535"));
        }
    }
    Ok(())
}

/// For an `http://` URL to a loopback host (127.0.0.0/8, `[::1]`, `localhost`):
/// `Some` with the check of the rest of the URL as [`check_https_url`] makes it.
/// `None` for any other scheme or host.
pub(crate) fn loopback_http_url(text: &str) -> Option<Result<(), UrlProblem>> {
    let scheme = text.get(..7)?;
    if !scheme.eq_ignore_ascii_case("http://") {
        return None;
    }
    let rest = &text[7..];
    let authority = authority_of(rest);
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let loopback = match host_port.strip_prefix('[') {
        Some(bracketed) => bracketed
            .split_once(']')
            .is_some_and(|(inner, _)| Ipv6Addr::from_str(inner).is_ok_and(|ip| ip.is_loopback())),
        None => {
            let host = host_port.rsplit_once(':').map_or(host_port, |(host, _)| host);
            host.eq_ignore_ascii_case("localhost") || Ipv4Addr::from_str(host).is_ok_and(|ip| ip.is_loopback())
        }
    };
    loopback.then(|| check_https_url(&format!("https://{rest}")))
}

/// What follows `scheme://` up to the first `/`, `?` or `#` (ASCII, never inside
/// a multi-byte character).
fn authority_of(rest: &str) -> &str {
    rest.bytes().position(|b| matches!(b, b'/' | b'?' | b'#')).map_or(rest, |end| &rest[..end])
}

fn check_host_name(host: &str) -> Result<(), UrlProblem> {
    if host.is_empty() {
        return Err(UrlProblem::Invalid("it has no host"));
    }
    // An ASCII host (the usual one) split byte by byte.
    let labels_ok = match host.is_ascii() {
        true => host.as_bytes().split(|&b| b == b'.').all(is_ascii_dns_label),
        false => host.split('.').all(is_dns_label),
    };
    if !labels_ok {
        return Err(UrlProblem::Invalid("its host is not a domain name or IP address"));
    }
    Ok(())
}

/// A domain label: 1..=63 letters (any script), digits or inner hyphens.
fn is_dns_label(label: &str) -> bool {
    // An ASCII label (the usual one) byte by byte: the same test without decoding characters.
    if label.is_ascii() {
        return is_ascii_dns_label(label.as_bytes());
    }
    (1..=63).contains(&label.chars().count())
        && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        && !label.starts_with('-')
        && !label.ends_with('-')
}

/// [`is_dns_label`] of an ASCII label.
fn is_ascii_dns_label(bytes: &[u8]) -> bool {
    (1..=63).contains(&bytes.len())
        && bytes.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'-')
        && bytes.first() != Some(&b'-')
        && bytes.last() != Some(&b'-')
}

/// IPv4 (dotted quad, no leading zeros) or IPv6, as `std::net` reads them.
pub(crate) fn is_ip_address(text: &str) -> bool {
    IpAddr::from_str(text).is_ok()
}

/// A reasonable e-mail check, not full RFC 5322: `local@domain`, where the
/// local part is 1..=64 characters of letters, digits and `!#$%&'*+/=?^_`{|}~-`
/// with single inner dots (no quoted forms), and the domain has at least two
/// labels (letters of any script, digits, inner hyphens) and a non-numeric top level.
pub(crate) fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    let local_ok = (1..=64).contains(&local.chars().count())
        && local.split('.').all(|part| {
            !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c))
        });
    let labels: Vec<&str> = domain.split('.').collect();
    let top_level_ok = labels.last().is_some_and(|tld| !tld.chars().all(|c| c.is_ascii_digit()));
    local_ok && labels.len() >= 2 && labels.iter().all(|label| is_dns_label(label)) && top_level_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_urls() {
        for ok in [
            "https://example.com",
            "HTTPS://shop.example.com:8443/cb?x=1#f",
            "https://user:pw@пример.рф/путь",
            "https://[2001:db8::1]:443/cb",
            "https://127.0.0.1/cb",
        ] {
            assert_eq!(check_https_url(ok), Ok(()), "{ok}");
        }
        assert_eq!(check_https_url("http://example.com"), Err(UrlProblem::NotHttps));
        assert_eq!(check_https_url("ftp://example.com"), Err(UrlProblem::NotHttps));
        for bad in [
            "https://",
            "https:///path",
            "https://exa mple.com",
            "https://example.com/a b",
            "example.com",
            "https://-bad.com",
            "https://a..b",
            "https://example.com:0",
            "https://example.com:65536",
            "https://example.com:",
            "https://[::1",
            "https://[zz]/",
            "1https://x.com",
            "https://exa_mple.com",
        ] {
            assert!(matches!(check_https_url(bad), Err(UrlProblem::Invalid(_))), "{bad}");
        }
    }

    #[test]
    fn ip_and_email() {
        for ok in ["192.168.0.1", "::1", "2001:db8::8a2e:370:7334", "::ffff:10.0.0.1"] {
            assert!(is_ip_address(ok), "{ok}");
        }
        for bad in ["256.1.1.1", "01.2.3.4", "1.2.3", "localhost", "fe80::1%eth0", " 1.2.3.4", ""] {
            assert!(!is_ip_address(bad), "{bad}");
        }
        for ok in ["a@b.co", "first.last+tag@mail.example.com", "иван@почта.рф", "o'neil@x.io"] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in
            ["", "a", "a@", "@b.com", "a@b", "a@@b.com", "a..b@c.com", ".a@c.com", "a b@c.com", "a@-b.com", "a@b.123"]
        {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
