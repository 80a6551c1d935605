//! No source file of `src/`, `pkg-template/`, `www/` or `scripts/` (`.rs`, `.mjs`,
//! `.cjs`, `.js`, `.py`) over 400 lines, tests aside: each is meant to be read at
//! once (CONTRIBUTING.md, Layout). A file's lines are counted up to its unit-test
//! module, the first `#[cfg(test)]` line followed by an inline `mod … {` (a
//! `#[cfg(test)]` on anything else, e.g. a test-only helper or `mod tests;`,
//! counts like any line); a unit-test file (`tests.rs`, `*_tests.rs`) is not
//! counted. A file whose whole text passes about 600 lines moves its tests to a
//! sibling `tests.rs`.

use std::fs;
use std::path::Path;

const MAX_LINES: usize = 400;
const FOLDERS: [&str; 4] = ["src", "pkg-template", "www", "scripts"];
const EXTENSIONS: [&str; 5] = ["rs", "mjs", "cjs", "js", "py"];

/// The lines of `text` before its inline unit-test module (all of them when it has none).
fn lines_before_tests(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let opens_module = |line: &str| {
        let line = line.trim_start();
        let line = line.strip_prefix("pub(crate) ").or_else(|| line.strip_prefix("pub ")).unwrap_or(line);
        line.starts_with("mod ") && line.trim_end().ends_with('{')
    };
    (0..lines.len())
        .find(|&at| is_test_cfg(lines[at]) && lines.get(at + 1).is_some_and(|next| opens_module(next)))
        .unwrap_or(lines.len())
}

/// Whether `path` is a source file this test counts.
fn is_counted_source(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else { return false };
    let unit_tests = name == "tests.rs" || name.ends_with("_tests.rs");
    let source = path.extension().and_then(|ext| ext.to_str()).is_some_and(|ext| EXTENSIONS.contains(&ext));
    source && !unit_tests
}

fn oversized(root: &Path, dir: &Path, found: &mut Vec<String>) {
    for entry in fs::read_dir(dir).expect("a folder of the repository") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            oversized(root, &path, found);
        } else if is_counted_source(&path) {
            let text = fs::read_to_string(&path).expect("a source file in UTF-8");
            let lines = lines_before_tests(&text);
            if lines > MAX_LINES {
                let shown = path.strip_prefix(root).unwrap_or(&path);
                found.push(format!("{} ({lines} lines)", shown.display()));
            }
        }
    }
}

#[test]
fn no_source_file_of_src_pkg_template_www_or_scripts_is_over_400_lines_before_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in FOLDERS {
        oversized(root, &root.join(dir), &mut found);
    }
    found.sort();
    assert!(found.is_empty(), "over {MAX_LINES} lines before their tests: {}", found.join(", "));
}

#[test]
fn the_count_stops_at_the_inline_test_module_only() {
    let file = "fn a() {}\n#[cfg(test)]\nfn helper() {}\n#[cfg(test)]\nmod corpus;\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n";
    assert_eq!(lines_before_tests(file), 6);
    assert_eq!(lines_before_tests("a\nb\n#[cfg(test)]\nmod tests;\n"), 4);
    assert_eq!(lines_before_tests("a\n#[cfg(test)]\npub(crate) mod tests {\n}\n"), 1);
    assert!(is_counted_source(Path::new("src/json/reader.rs")));
    assert!(is_counted_source(Path::new("scripts/forgery/main.py")));
    assert!(!is_counted_source(Path::new("src/options/tests.rs")));
    assert!(!is_counted_source(Path::new("src/request/fields_tests.rs")));
    assert!(!is_counted_source(Path::new("pkg-template/index.d.ts")));
}

/// `#[cfg(test)]`, or `#[cfg(all(test, …))]` (a test module for some features only).
fn is_test_cfg(line: &str) -> bool {
    let line = line.trim();
    line == "#[cfg(test)]" || (line.starts_with("#[cfg(all(test, ") && line.ends_with("))]"))
}
