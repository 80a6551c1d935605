//! No import circles in `src/`: reads every `use crate::…`, `use super::…` and
//! `use self::…` of `src/**/*.rs` (outside `#[cfg(test)]` modules), resolves each
//! path to the file that defines the name (following the `pub use` re-exports of
//! `mod.rs` and `lib.rs`), and fails on any cycle among those files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every `.rs` file under `dir`, by its path relative to `src/`.
fn read_tree(dir: &Path, prefix: &str, into: &mut BTreeMap<String, String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { panic!("cannot read {}", dir.display()) };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            read_tree(&path, &format!("{prefix}{name}/"), into);
        } else if name.ends_with(".rs") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            into.insert(format!("{prefix}{name}"), without_test_modules(&text));
        }
    }
}

/// The text without the `#[cfg(test)] mod … { … }` blocks (their imports are the tests').
fn without_test_modules(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let next = lines.get(at + 1).map(|l| l.trim_start()).unwrap_or("");
        let opens_module = (next.starts_with("mod ") || next.starts_with("pub(crate) mod ")) && next.ends_with('{');
        if is_test_cfg(lines[at]) && opens_module {
            at += 1;
            let mut depth = 0i64;
            while at < lines.len() {
                depth += lines[at].matches('{').count() as i64 - lines[at].matches('}').count() as i64;
                at += 1;
                if depth <= 0 {
                    break;
                }
            }
            continue;
        }
        kept.push(lines[at]);
        at += 1;
    }
    kept.join("\n")
}

/// The module path of a file: `canonical/text.rs` is `[canonical, text]`, `json/mod.rs` is `[json]`.
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(str::to_owned).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// `a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e` (whitespace removed).
fn expand(path: &str) -> Vec<String> {
    let path: String = path.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = path.find('{') else { return vec![path] };
    let (prefix, inner) = (&path[..open], &path[open + 1..path.len() - 1]);
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items.into_iter().filter(|item| !item.is_empty()).flat_map(expand).map(|tail| format!("{prefix}{tail}")).collect()
}

/// One `use` of a file: whether it is a re-export, and the absolute path it names.
struct Use {
    public: bool,
    path: Vec<String>,
}

fn uses_of(file: &str, text: &str) -> Vec<Use> {
    let me = module_of(file);
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("use ") {
        let line_start = rest[..at].rfind('\n').map_or(0, |n| n + 1);
        let before = rest[line_start..at].trim();
        let after = &rest[at + 4..];
        let is_use = before.is_empty() || before.starts_with("pub");
        let Some(end) = after.find(';') else { break };
        let statement = &after[..end];
        rest = &after[end..];
        if !is_use || !["crate::", "super::", "self::"].iter().any(|p| statement.starts_with(p)) {
            continue;
        }
        let statement = statement.split_whitespace().collect::<Vec<_>>().join(" ").replace(" as ", "@");
        for path in expand(&statement) {
            let segments: Vec<&str> = path.split("::").map(|s| s.split('@').next().unwrap_or(s)).collect();
            let mut absolute: Vec<String> = if segments[0] == "crate" { Vec::new() } else { me.clone() };
            for segment in &segments[1..] {
                absolute.push((*segment).to_owned());
            }
            if segments[0] == "super" {
                absolute = me.clone();
                for segment in &segments {
                    if *segment == "super" {
                        absolute.pop();
                    } else {
                        absolute.push((*segment).to_owned());
                    }
                }
            }
            absolute.retain(|segment| segment != "self" && segment != "*");
            found.push(Use { public: before.starts_with("pub"), path: absolute });
        }
    }
    found
}

struct Crate {
    modules: BTreeMap<Vec<String>, String>,
    uses: BTreeMap<String, Vec<Use>>,
}

impl Crate {
    /// The file that defines what `path` names: the longest module prefix, through the
    /// re-exports of a `mod.rs` or `lib.rs`.
    fn resolve(&self, path: &[String], depth: usize) -> Option<String> {
        let at = (0..=path.len()).rev().find(|at| self.modules.contains_key(&path[..*at]))?;
        let file = self.modules.get(&path[..at])?;
        if let (Some(name), true) = (path.get(at), depth < 8 && (file.ends_with("mod.rs") || file.ends_with("lib.rs")))
        {
            let re_export = self.uses.get(file).and_then(|uses| {
                uses.iter().find(|u| u.public && u.path.last() == Some(name) && u.path.as_slice() != path)
            });
            if let Some(re_export) = re_export {
                return self.resolve(&re_export.path, depth + 1);
            }
        }
        Some(file.clone())
    }
}

/// The imports between files of `src/`, each file to the files it imports from.
fn import_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = BTreeMap::new();
    read_tree(src, "", &mut files);
    let modules = files.keys().map(|file| (module_of(file), file.clone())).collect();
    let uses = files.iter().map(|(file, text)| (file.clone(), uses_of(file, text))).collect();
    let krate = Crate { modules, uses };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, uses) in &krate.uses {
        let targets = graph.entry(file.clone()).or_default();
        for u in uses {
            if let Some(target) = krate.resolve(&u.path, 0) {
                if &target != file {
                    targets.insert(target);
                }
            }
        }
    }
    graph
}

/// One cycle of `graph`, as the files in order, if there is any.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_owned(), 1);
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|n| n == next).unwrap_or(0);
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(cycle) = visit(next, graph, state, stack) {
                        return Some(cycle);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node).copied().unwrap_or(0) == 0 {
            if let Some(cycle) = visit(node, graph, &mut state, &mut Vec::new()) {
                return Some(cycle);
            }
        }
    }
    None
}

#[test]
fn no_import_cycle_between_files_of_src() {
    let graph = import_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(graph.len() > 50, "read {} files", graph.len());
    // The reader sees the imports it must: the graph is not empty by a parsing slip.
    let signing = graph.get("request/signing.rs").cloned().unwrap_or_default();
    assert!(signing.contains("canonical/ambiguity.rs") && signing.contains("error/variants.rs"), "{signing:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import cycle in src/: {}", cycle.join(" -> "));
    }
}

#[test]
fn the_reader_finds_a_cycle_and_follows_re_exports() {
    let mut graph = BTreeMap::new();
    graph.insert("a.rs".to_owned(), BTreeSet::from(["b.rs".to_owned()]));
    graph.insert("b.rs".to_owned(), BTreeSet::from(["c.rs".to_owned()]));
    graph.insert("c.rs".to_owned(), BTreeSet::from(["a.rs".to_owned()]));
    assert_eq!(find_cycle(&graph).map(|c| c.len()), Some(4));
    graph.insert("c.rs".to_owned(), BTreeSet::new());
    assert_eq!(find_cycle(&graph), None);
    let uses =
        uses_of("x/y.rs", "use super::{z::A, w::{B, C as D}};\npub(crate) use crate::q::E;\nfn f() { let use_x = 1; }");
    let paths: Vec<String> = uses.iter().map(|u| u.path.join("::")).collect();
    assert_eq!(paths, ["x::z::A", "x::w::B", "x::w::C", "q::E"]);
    assert_eq!(uses.iter().map(|u| u.public).collect::<Vec<_>>(), [false, false, false, true]);
    let test_block = "use crate::a::B;\n#[cfg(test)]\nmod tests {\n    use crate::c::D;\n}\nuse crate::e::F;";
    let outside: Vec<String> =
        uses_of("m.rs", &without_test_modules(test_block)).iter().map(|u| u.path.join("::")).collect();
    assert_eq!(outside, ["a::B", "e::F"]);
}

/// `#[cfg(test)]`, or `#[cfg(all(test, …))]` (a test module for some features only).
fn is_test_cfg(line: &str) -> bool {
    let line = line.trim();
    line == "#[cfg(test)]" || (line.starts_with("#[cfg(all(test, ") && line.ends_with("))]"))
}
