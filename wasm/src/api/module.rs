//! The module itself: its memory, and (test builds only) a forced trap.

use wasm_bindgen::prelude::*;

/// Bytes of linear memory the module holds. Wasm memory grows and never shrinks, so a
/// long-lived worker can watch this for leaks (`benches/memory.mjs` records the curve).
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    let pages = core::arch::wasm32::memory_size(0);
    // Natively (clippy, `cargo check`) there is no linear memory.
    #[cfg(not(target_arch = "wasm32"))]
    let pages = 0;
    (pages * 65536) as f64
}

/// Test-only (feature `test-trap`): panics inside the module, which traps the instance
/// the way a bug would; the package's wrapper must then recreate it.
#[cfg(feature = "test-trap")]
#[wasm_bindgen(js_name = "__trap")]
pub fn trap() {
    crate::runtime::enter();
    panic!("forced trap (feature test-trap)");
}
