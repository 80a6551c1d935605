//! Vector-driven tests of the core: natively (`cargo test`) and as wasm in
//! Node (`wasm-pack test --node`). `browser.rs` runs the same in Chromium.

mod common;

every_shared_test!();

/// The copy in tests/vectors must equal ../shared/vectors wherever that folder exists.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn vector_copy_matches_shared_vectors() {
    use std::path::{Path, PathBuf};
    fn files(root: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("readable") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    out.push(path.strip_prefix(root).expect("inside").to_path_buf());
                }
            }
        }
        out.sort();
        out
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = manifest.join("../shared/vectors");
    if !shared.is_dir() {
        eprintln!("../shared/vectors is absent; drift check skipped");
        return;
    }
    let copy = manifest.join("tests/vectors");
    let (shared_files, copied_files) = (files(&shared), files(&copy));
    assert_eq!(copied_files, shared_files, "file lists differ; run scripts/sync-vectors.sh");
    for file in shared_files {
        let a = std::fs::read(shared.join(&file)).expect("read");
        let b = std::fs::read(copy.join(&file)).expect("read");
        assert!(a == b, "{} differs; run scripts/sync-vectors.sh", file.display());
    }
}
