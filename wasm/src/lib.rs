//! The JavaScript binding of citeproof: the wasm module of the npm package `citeproof`,
//! and the only code that names `wasm_bindgen`, `js_sys` or `JsValue` (the core crate,
//! `citeproof`, is plain Rust; docs/architecture.md §1).
//!
//! Floors, each using only the ones below it:
//! - this file: the exports, gathered from `api`;
//! - `api`: one file per export group; each reads its JS arguments, calls the core and
//!   writes its answer;
//! - `runtime`: the instance's own state (panic hook, the compiled-pattern cache and,
//!   in the browser core, the bridge to the JS pattern engine, the clock, the allocator);
//! - `wire`: the codecs between JS values and the core's types, named by direction:
//!   `wire::from_js` (the input tape, the field reader, the argument strings) and
//!   `wire::to_js` (the output tape), and the JS errors both raise.
//!
//! Its JS halves (`js/`: the input walk, the tape reader) are loaded by the glue from
//! `#[wasm_bindgen(module = "/js/…")]`; the plain-JS exports (`js/render.js`,
//! `js/transform.js`) sit beside them in each entry (scripts/build-pkg.mjs); `js/schema.mjs` is the contract that
//! generates the tables both languages share (scripts/gen-schema.mjs).
#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![cfg_attr(not(test), warn(clippy::string_slice))] // std's slicing panic escapes chars with Unicode tables (src/substr.rs)

mod api;
mod runtime;
mod wire;

#[cfg(feature = "edge")]
pub use api::edge::{
    Metrics, audit_record, citation_schema, format_context, rejection_response, repair_prompt,
    validate_request,
};
pub use api::embed::validate_async;
pub use api::locate::locate_quote;
pub use api::module::memory_bytes;
#[cfg(feature = "test-trap")]
pub use api::module::trap;
pub use api::parse::{CitationParser, ParseOptionsArg, parse_citations};
#[cfg(feature = "providers")]
pub use api::providers::{
    from_anthropic, from_any, from_cohere, from_gemini, from_openai, from_perplexity,
    from_vercel_ai,
};
pub use api::stream::{CitationStream, StreamOptionsArg};
pub use api::validate::{
    CitationValidator, InputArg, ValidateOptionsArg, validate, validate_batch,
};

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("../js/types.d.ts");
