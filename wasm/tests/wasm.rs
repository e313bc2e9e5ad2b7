//! The wasm suite (`tests/wasm_suite/`) in Node: `wasm-pack test --node`. Under
//! `wasm-pack test --headless`, the test runner skips this target (no browser
//! configuration) and runs `tests/browser.rs`.
#![cfg(target_arch = "wasm32")]

mod wasm_suite;
