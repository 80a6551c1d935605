//! Vector-driven tests of the core: natively (`cargo test`) and as wasm in
//! Node (`wasm-pack test --node`). `browser.rs` runs the same in Chromium.

mod common;

shared_tests!(
    canonical_vectors,
    signature_vectors,
    callback_vectors,
    python_reference_bodies,
    python_float_repr,
    every_key_form_reads_and_agrees,
    refused_keys_have_codes,
    rotated_keys_and_padding,
    token_in_other_pem_layouts_is_the_same_key,
    tolerance_window,
    diagnose_finds_the_sender_variant,
    malformed_callbacks_have_codes,
    unicode_separators_and_big_integers,
    random_bodies_keep_properties,
    generated_keys_sign_and_verify,
);

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
