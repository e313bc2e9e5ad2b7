//! The wasm suite (`tests/wasm_suite/`) in a browser: `wasm-pack test --headless
//! --chrome` and `--firefox`. Under `wasm-pack test --node`, the test runner skips this
//! target (it is configured for browsers) and runs `tests/wasm.rs`.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod wasm_suite;
