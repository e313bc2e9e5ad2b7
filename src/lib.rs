//! citeproof checks the citations in an LLM answer against the sources that were
//! actually retrieved for it.
//!
//! [`parse`](mod@parse) finds citation markers (`[1]`, `[^2^]`, `【3】`, `[doc1]`, `(Source 4)`,
//! `Chapter 2, Section 3`, …) with exact byte spans while respecting markdown (code,
//! links, URLs); [`validate`] checks them against the retrieved sources and gives a
//! [`Report`](model::Report) with findings, a gate and a cleaned answer; [`stream`] does
//! the same for an answer arriving token by token; [`offsets`] converts spans to the
//! UTF-16 indices JavaScript uses. This crate is plain Rust; the JS binding of the npm
//! package `citeproof` is its own crate (`wasm/`, `citeproof-wasm`) and the only code
//! that knows about JavaScript.
//!
//! ```
//! use citeproof::offsets::{OffsetMap, Unit};
//! let answer = "東京は日本の首都です【1】。";
//! let markers = citeproof::parse::parse(answer);
//! let map = OffsetMap::new(answer);
//! let start = map.to_unit(markers[0].span.start, Unit::Utf16).unwrap();
//! assert_eq!(start, 10); // what `answer.indexOf("【")` gives in JavaScript
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![cfg_attr(not(test), warn(clippy::string_slice))]

#[cfg(feature = "edge")]
pub mod audit;
mod byteset;
mod casefold;
pub mod claims;
pub mod error;
pub mod locate;
#[cfg(feature = "edge")]
pub mod metrics;
pub mod model;
pub mod offsets;
pub mod parse;
#[cfg(feature = "edge")]
pub mod prompt;
#[cfg(feature = "providers")]
pub mod providers;
mod rewrite;
pub mod stream;
mod substr;
pub mod support;
pub mod validate;

pub use error::{Error, ErrorCode};
pub use model::{Marker, MarkerKind, Refs, Span};
pub use parse::{Parser, parse};
