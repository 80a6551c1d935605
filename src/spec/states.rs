//! The spec's states table ("States and transitions"): every (status,
//! sub_status) pair and whether it is final.

/// The states table: (status, sub_status, final). `None` is the spec's "none".
pub const STATES: &[(&str, Option<&str>, bool)] = &[
    ("error", None, false),
    ("processing", Some("new"), false),
    ("processing", Some("requisites"), false),
    ("processing", Some("awaiting_confirm"), false),
    ("processing", Some("paid"), false),
    ("dispute", Some("no_payment"), false),
    ("dispute", Some("different_amount"), false),
    ("dispute", Some("confirm_timeout"), false),
    ("decline", None, true),
    ("success", None, true),
];

/// Whether a status is final. Only `decline` and `success` are, whatever the sub-status.
pub fn is_final_status(status: &str) -> bool {
    STATES.iter().any(|(known, _, is_final)| *is_final && *known == status)
}

/// Whether the (status, sub_status) pair is a row of the states table.
pub fn is_known_state(status: &str, sub_status: Option<&str>) -> bool {
    STATES.iter().any(|(known, known_sub, _)| *known == status && *known_sub == sub_status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::spec_text::{spec, table};

    #[test]
    fn states() {
        assert!(is_final_status("decline") && is_final_status("success"));
        assert!(!is_final_status("processing") && !is_final_status("dispute") && !is_final_status("error"));
        assert!(is_known_state("processing", Some("paid")));
        assert!(!is_known_state("processing", None));
        assert!(!is_known_state("decline", Some("paid")));
    }

    #[test]
    fn states_are_the_spec_table() {
        let Some(spec) = spec() else { return };
        let rows = table(&spec, "## States and transitions");
        let listed: Vec<(&str, Option<&str>, bool)> = rows
            .iter()
            .map(|row| {
                let sub = (row[1] != "none").then_some(row[1].as_str());
                assert!(["final", "intermediate"].contains(&row[3].as_str()), "{row:?}");
                (row[0].as_str(), sub, row[3] == "final")
            })
            .collect();
        assert_eq!(STATES, listed);
    }
}
