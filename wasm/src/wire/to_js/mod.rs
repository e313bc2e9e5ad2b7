//! Rust → JS: one tape (`tape.rs`, read back by `js/tape.js`) carries every answer: a
//! report (its writers generated into `report_fields.rs`), markers, stream events, a
//! batch, or any serde value (`serde_values.rs`).

mod report_fields;
pub mod serde_values;
pub mod tape;
