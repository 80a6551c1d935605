//! Property checks on random bodies from a small seeded generator: the
//! entries are the leaves, sorted by code point, the message decodes back to
//! them, and writing a body out and reading it back changes nothing.

use base64::engine::general_purpose::URL_SAFE;
use base64::Engine;
use payment_intake::{canonical_entries, canonical_message, parse_body, CanonicalOptions, Json, Limits, Order};

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn text(&mut self) -> String {
        const PIECES: [&str; 14] = ["a", "Z", "0", ":", ";", "_", " ", "é", "Ж", "～", "😀", "\"", "\\", "\u{7f}"];
        (0..self.below(6)).map(|_| PIECES[self.below(PIECES.len() as u64) as usize]).collect()
    }

    fn leaf(&mut self) -> Json<'static> {
        match self.below(7) {
            0 => Json::Null,
            1 => Json::Bool(self.below(2) == 1),
            2 => Json::Number((self.next() as i64 >> self.below(60)).to_string().into()),
            3 => Json::Number(format!("{}.{}", self.below(1000), self.below(1000)).into()),
            _ => Json::String(self.text().into()),
        }
    }

    fn value(&mut self, depth: usize) -> Json<'static> {
        match if depth >= 5 { 0 } else { self.below(4) } {
            0 | 1 => self.leaf(),
            2 => Json::Array((0..self.below(4)).map(|_| self.value(depth + 1)).collect()),
            _ => self.object(depth + 1),
        }
    }

    fn object(&mut self, depth: usize) -> Json<'static> {
        let mut members: Vec<(String, Json<'static>)> = Vec::new();
        for _ in 0..self.below(5) {
            let key = self.text();
            if !members.iter().any(|(k, _)| *k == key) {
                let value = self.value(depth);
                members.push((key, value));
            }
        }
        Json::Object(members.into_iter().map(|(key, value)| (key.into(), value)).collect())
    }
}

fn count_leaves(value: &Json) -> usize {
    match value {
        Json::Object(members) => members.iter().map(|(_, v)| count_leaves(v)).sum(),
        Json::Array(items) => items.iter().map(count_leaves).sum(),
        _ => 1,
    }
}

pub fn check_random_bodies(count: usize) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..count {
        let body = rng.object(1);
        let text = body.to_json_text();
        let reparsed = parse_body(&text, &Limits::default()).expect("our JSON text parses");
        assert_eq!(reparsed, body, "round trip of {text}");

        let entries = canonical_entries(&body, &CanonicalOptions::DEFAULT).expect("entries");
        assert_eq!(entries.len(), count_leaves(&body), "one entry per leaf in {text}");
        assert!(entries.windows(2).all(|w| w[0] <= w[1]), "sorted by code point: {entries:?}");
        let chars: Vec<Vec<char>> = entries.iter().map(|e| e.chars().collect()).collect();
        assert!(chars.windows(2).all(|w| w[0] <= w[1]), "byte order is code point order");

        let message = canonical_message(&body, "1700000000", &CanonicalOptions::DEFAULT).expect("message");
        let encoded = message.strip_suffix("1700000000").expect("timestamp appended");
        let decoded = URL_SAFE.decode(encoded).expect("padded base64url");
        assert_eq!(String::from_utf8(decoded).expect("UTF-8"), entries.join(";"));

        let utf16 = CanonicalOptions { order: Order::Utf16, ..CanonicalOptions::DEFAULT };
        let mut by_utf16 = canonical_entries(&body, &utf16).expect("entries");
        let units: Vec<Vec<u16>> = by_utf16.iter().map(|e| e.encode_utf16().collect()).collect();
        assert!(units.windows(2).all(|w| w[0] <= w[1]), "sorted by UTF-16 unit");
        by_utf16.sort();
        assert_eq!(by_utf16, entries, "same entries in either order");
    }
}
