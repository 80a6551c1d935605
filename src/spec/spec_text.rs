//! Test helper: the spec's markdown, when it is at hand, and its tables.

/// The spec's text: the file `PAYMENT_INTAKE_SPEC` names, else
/// `../shared/spec/interface.md` beside the repository. `None` (and a line
/// saying that the check is skipped) when neither exists, e.g. in a clean clone.
pub(crate) fn spec() -> Option<String> {
    let path = std::env::var("PAYMENT_INTAKE_SPEC")
        .unwrap_or_else(|_| format!("{}/../shared/spec/interface.md", env!("CARGO_MANIFEST_DIR")));
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            println!("skipped: the spec is not at {path} (set PAYMENT_INTAKE_SPEC to its interface.md)");
            None
        }
    }
}

/// The rows of the first markdown table after the line `marker` (a heading or
/// a sentence that introduces the table), header and separator left out, each
/// cell trimmed. Empty when the marker or the table is missing.
pub(crate) fn table(spec: &str, marker: &str) -> Vec<Vec<String>> {
    let Some(start) = spec.lines().position(|line| line.trim() == marker) else {
        return Vec::new();
    };
    spec.lines()
        .skip(start + 1)
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .map(|line| line.trim().trim_matches('|').split('|').map(|cell| cell.trim().to_owned()).collect())
        .collect()
}

/// The `code` spans of a cell, in order.
pub(crate) fn code_spans(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_and_spans() {
        let text = "# T\n\nIntro:\n\n| a | b |\n|---|---|\n| 1 | `x`, `y` |\n| 2 | z |\n\nafter\n| c |\n";
        assert_eq!(table(text, "Intro:"), [vec!["1", "`x`, `y`"], vec!["2", "z"]]);
        assert!(table(text, "Missing:").is_empty());
        assert_eq!(code_spans("`x`, `y`"), ["x", "y"]);
        assert!(code_spans("z").is_empty());
    }
}
