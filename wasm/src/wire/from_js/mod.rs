//! JS → Rust: the input tape (`input_tape.rs` decodes what `js/input.js` walks), the
//! field-by-field reader of options and small arguments (`read.rs`, over `fields.rs`;
//! `option_fields.rs`, generated from the contract, reads `validate`'s options with it),
//! and JS strings as UTF-8 (`text.rs`).

mod fields;
pub mod input_names;
pub mod input_tape;
mod option_fields;
pub mod options;
pub mod read;
#[cfg(feature = "edge")]
pub mod report_view;
pub mod text;
