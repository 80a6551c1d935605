//! No file of `src/wasm/` or `pkg-template/` over 400 lines, tests aside (a `tests.rs`):
//! each is meant to be read at once (CONTRIBUTING.md, Layout).

use std::fs;
use std::path::Path;

const MAX_LINES: usize = 400;

fn oversized(dir: &Path, found: &mut Vec<String>) {
    for entry in fs::read_dir(dir).expect("a folder of the repository") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            oversized(&path, found);
        } else if path.file_name().is_some_and(|name| name != "tests.rs") {
            let Ok(text) = fs::read_to_string(&path) else { continue };
            let lines = text.lines().count();
            if lines > MAX_LINES {
                found.push(format!("{} ({lines} lines)", path.display()));
            }
        }
    }
}

#[test]
fn no_file_of_src_wasm_or_pkg_template_is_over_400_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in ["src/wasm", "pkg-template"] {
        oversized(&root.join(dir), &mut found);
    }
    assert!(found.is_empty(), "over {MAX_LINES} lines: {}", found.join(", "));
}
