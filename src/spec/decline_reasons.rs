//! The `status_description` values the spec lists for `decline` ("Errors"),
//! each with the stable code this library gives it. The spec calls them
//! additive: new texts may come, listed ones never change.

/// (`status_description` as the spec writes it, our code).
pub const DECLINE_REASONS: &[(&str, &str)] = &[
    ("Canceled by client", "CANCELED_BY_CLIENT"),
    ("Declined by anti-fraud", "DECLINED_BY_ANTI_FRAUD"),
    ("Requisites not found", "REQUISITES_NOT_FOUND"),
    ("Order cancelled by timeout", "CANCELLED_BY_TIMEOUT"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::spec_text::{spec, table};

    #[test]
    fn texts_are_the_spec_table() {
        let Some(spec) = spec() else { return };
        let rows = table(&spec, "## Errors");
        assert!(rows.iter().all(|row| row[0] == "decline"));
        let listed: Vec<&str> = rows.iter().map(|row| row[1].as_str()).collect();
        let ours: Vec<&str> = DECLINE_REASONS.iter().map(|(text, _)| *text).collect();
        assert_eq!(ours, listed);
    }

    #[test]
    fn codes_are_unique_and_shaped_like_codes() {
        let mut codes: Vec<&str> = DECLINE_REASONS.iter().map(|(_, code)| *code).collect();
        assert!(codes.iter().all(|code| code.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')));
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), DECLINE_REASONS.len());
    }

    /// The code literals of the TS member `code: 'A' | 'B' …;` in the interface `name`.
    fn code_union(ts: &str, name: &str) -> Vec<String> {
        let start = ts.find(&format!("export interface {name} {{")).unwrap_or_else(|| panic!("no {name}"));
        let from = start + ts[start..].find("code: ").unwrap() + "code: ".len();
        let to = from + ts[from..].find(';').unwrap();
        ts[from..to].split('|').map(|member| member.trim().trim_matches('\'').to_owned()).collect()
    }

    /// The TypeScript's decline codes are this table's (the model's `DeclineReason` adds
    /// the codes for a text the spec does not list and for none).
    #[test]
    fn the_typescript_codes_are_the_table() {
        use crate::callback::model::{DECLINE_OTHER, DECLINE_UNSPECIFIED};
        let ours: Vec<String> = DECLINE_REASONS.iter().map(|(_, code)| (*code).to_owned()).collect();
        let model: Vec<String> =
            ours.iter().cloned().chain([DECLINE_OTHER.to_owned(), DECLINE_UNSPECIFIED.to_owned()]).collect();
        // Wherever under src/wasm/ the TypeScript declares them.
        let mut dirs = vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src/wasm"))];
        let mut found = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                for (name, codes) in [("SpecDeclineReason", &ours), ("DeclineReason", &model)] {
                    if text.contains(&format!("export interface {name} {{")) {
                        assert_eq!(&code_union(&text, name), codes, "{name} in {}", path.display());
                        found += 1;
                    }
                }
            }
        }
        assert!(found >= 2, "both interfaces are declared");
    }
}
