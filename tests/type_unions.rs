//! The TypeScript unions of the package, as their sources write them, equal
//! the Rust lists: `ErrorCode` is [`ErrorCode::ALL`], `IssueCode` is
//! [`ISSUE_CODES`] (its own codes plus `ErrorCode`). `OperationPath` is written by
//! the build from `operationTable()` (scripts/build/operation-types.mjs), so the
//! sources hold only its placeholder, and no path; the JS tests
//! `tests/js/type-unions.test.mjs` and `tests/js/operation-table.test.mjs` hold the
//! built `.d.ts` to the runtime lists.
//!
//! The declarations are looked for in every file under `src/wasm/` and
//! `pkg-template/` (wherever they live now or later); each must be declared
//! at least once, and every declaration of a name alike.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use payment_intake::{ErrorCode, Operation, ISSUE_CODES};

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs" || ext == "ts" || ext == "mts") {
            out.push(path);
        }
    }
    out
}

/// Drops `/* … */` comments (TS doc comments) so their text is not read as members.
fn without_block_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        match rest[start..].find("*/") {
            Some(end) => rest = &rest[start + end + 2..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The members of `export type <name> = a | b | …;`: (string literals, type names).
fn union(name: &str) -> (Vec<String>, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let marker = format!("export type {name} =");
    let mut found: Vec<(PathBuf, Vec<String>, Vec<String>)> = Vec::new();
    for file in [root.join("src/wasm"), root.join("pkg-template")].iter().flat_map(|dir| files_under(dir)) {
        let text = without_block_comments(&std::fs::read_to_string(&file).unwrap());
        let mut rest = text.as_str();
        while let Some(start) = rest.find(&marker) {
            let body = &rest[start + marker.len()..];
            let end = body.find(';').unwrap_or_else(|| panic!("{}: {name} has no ';'", file.display()));
            let (mut literals, mut names) = (Vec::new(), Vec::new());
            for member in body[..end].split('|').map(str::trim).filter(|m| !m.is_empty()) {
                if let Some(literal) = member.strip_prefix('\'').and_then(|m| m.strip_suffix('\'')) {
                    literals.push(literal.to_owned());
                } else if member.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    names.push(member.to_owned());
                } else {
                    panic!("{}: {name} has a member that is neither a literal nor a name: {member}", file.display());
                }
            }
            found.push((file.clone(), literals, names));
            rest = &body[end..];
        }
    }
    let Some((first_file, literals, names)) = found.first().cloned() else {
        panic!("no file under src/wasm/ or pkg-template/ declares `{marker}`");
    };
    for (file, other_literals, other_names) in &found[1..] {
        assert_eq!(
            (other_literals, other_names),
            (&literals, &names),
            "{name}: {} and {} differ",
            first_file.display(),
            file.display()
        );
    }
    (literals, names)
}

/// The members as a set, refusing a repeated one.
fn once<'a>(members: impl IntoIterator<Item = &'a str>, what: &str) -> BTreeSet<&'a str> {
    let mut set = BTreeSet::new();
    for member in members {
        assert!(set.insert(member), "{what} lists {member} twice");
    }
    set
}

#[test]
fn error_code_union_is_error_code_all() {
    let (literals, names) = union("ErrorCode");
    assert!(names.is_empty(), "{names:?}");
    let ours = once(ErrorCode::ALL.iter().map(|code| code.as_str()), "ErrorCode::ALL");
    assert_eq!(once(literals.iter().map(String::as_str), "ErrorCode"), ours);
}

#[test]
fn issue_code_union_is_issue_codes() {
    let (literals, names) = union("IssueCode");
    assert_eq!(names, ["ErrorCode"]);
    let listed = once(ISSUE_CODES.iter().map(|(code, _)| *code), "ISSUE_CODES");
    let own: BTreeSet<&str> = listed.iter().copied().filter(|code| ErrorCode::from_text(code).is_none()).collect();
    assert_eq!(once(literals.iter().map(String::as_str), "IssueCode"), own);
}

#[test]
fn operation_path_union_is_the_builds() {
    let (literals, names) = union("OperationPath");
    assert!(literals.is_empty(), "OperationPath is written by the build, not by hand: {literals:?}");
    assert_eq!(names, ["string"]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [root.join("src/wasm"), root.join("pkg-template")].iter().flat_map(|dir| files_under(dir)) {
        let text = std::fs::read_to_string(&file).unwrap();
        for operation in Operation::ALL {
            assert!(!text.contains(&format!("'{}'", operation.path())), "{}: {operation:?}'s path", file.display());
        }
    }
}
