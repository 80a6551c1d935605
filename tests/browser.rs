//! The shared vector tests in a real browser: `wasm-pack test --headless --chrome`.
#![cfg(target_arch = "wasm32")]

mod common;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

every_shared_test!();

// The request-model tables run in the browser too, as modules of this binary.
#[path = "validation_table.rs"]
mod validation_table;

#[path = "callback_shapes.rs"]
mod callback_shapes;
