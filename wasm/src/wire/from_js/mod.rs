//! JS → Rust: the input tape (`input_tape.rs` decodes what `js/input.js` walks), the
//! field-by-field reader of options and small arguments (`read.rs`, over `fields.rs`),
//! and JS strings as UTF-8 (`text.rs`).

mod fields;
pub mod input_names;
pub mod input_tape;
pub mod options;
pub mod read;
#[cfg(feature = "edge")]
pub mod report_view;
pub mod text;
