//! The shared vector tests in a real browser: `wasm-pack test --headless --chrome`.
#![cfg(target_arch = "wasm32")]

mod common;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

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

// The request-model tables run in the browser too, as modules of this binary.
#[path = "validation_table.rs"]
mod validation_table;

#[path = "callback_shapes.rs"]
mod callback_shapes;
