//! Finds citation markers in an answer (docs/architecture.md §3).
//!
//! A [`Parser`] holds the compiled options (extra marker patterns); [`Parser::find_iter`]
//! walks one text and yields its [`Marker`]s in order. Markdown context is respected:
//! nothing in code, links, definition lines, URLs or HTML comments is a marker.
//!
//! ```
//! use citeproof::parse::Parser;
//! use citeproof::model::{MarkerKind, Refs};
//!
//! let parser = Parser::new();
//! let text = "Water boils at 100 °C [1][2], see `arr[0]` and [3-4].";
//! let markers: Vec<_> = parser.find_iter(text, &[]).collect();
//! assert_eq!(markers.len(), 3);
//! assert_eq!(markers[0].raw, "[1]");
//! assert_eq!(markers[2].refs, Refs::Numbers(vec![3, 4].into()));
//! assert_eq!(markers[2].kind, MarkerKind::Numeric);
//! assert_eq!(&text[markers[2].span.range()], "[3-4]");
//! ```

mod bracket;
mod bytes;
mod definitions;
mod html;
mod html_block;
mod html_start;
mod link;
mod markdown;
#[cfg(not(feature = "patterns"))]
mod no_patterns;
mod scanner;

#[cfg(not(feature = "patterns"))]
use no_patterns::Regex;
#[cfg(feature = "patterns")]
use regex_lite::Regex;

pub(crate) use definitions::DefinitionReader;
pub(crate) use html::Verbatim;
pub(crate) use html_start::Closer;
pub use scanner::Markers;
pub(crate) use scanner::{Resume, Undecided, closes};

use crate::error::{Error, ErrorCode};
use crate::model::Marker;

/// A marker parser with its options compiled once; cheap to reuse across texts.
#[derive(Clone, Debug, Default)]
pub struct Parser {
    patterns: Vec<Regex>,
}

impl Parser {
    /// A parser for the built-in marker syntaxes.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// A parser that also recognises `patterns` (regex syntax of the `regex-lite` crate).
    /// Each pattern must have a named group `refs` holding the source label(s): digits
    /// lists such as `2, 5` become numbers, anything else one source id.
    ///
    /// ```
    /// use citeproof::parse::Parser;
    /// use citeproof::model::Refs;
    /// let parser = Parser::with_patterns(&[r"\{\{cite:(?P<refs>[^}]+)\}\}"]).unwrap();
    /// let markers: Vec<_> = parser.find_iter("Fact {{cite:2}}.", &[]).collect();
    /// assert_eq!(markers[0].refs, Refs::Numbers(vec![2].into()));
    /// assert!(Parser::with_patterns(&["(unclosed"]).is_err());
    /// ```
    pub fn with_patterns<S: AsRef<str>>(patterns: &[S]) -> Result<Parser, Error> {
        let patterns = patterns
            .iter()
            .enumerate()
            .map(|(i, pattern)| compile_pattern(i, pattern.as_ref()))
            .collect::<Result<_, _>>()?;
        Ok(Parser { patterns })
    }

    /// The markers of `text`, in order. `source_ids` are the ids of the retrieved
    /// sources: `[abc123]` is a marker exactly when `abc123` is one of them.
    pub fn find_iter<'p, 't>(
        &'p self,
        text: &'t str,
        source_ids: &'p [&'p str],
    ) -> Markers<'p, 't> {
        Markers::new(self, text, source_ids)
    }
}

/// The markers of `text` with the built-in syntaxes, collected.
///
/// ```
/// let markers = citeproof::parse::parse("See [1] and 【2†source】.");
/// assert_eq!(markers.len(), 2);
/// ```
pub fn parse(text: &str) -> Vec<Marker<'_>> {
    Parser::new().find_iter(text, &[]).collect()
}

#[cfg(feature = "patterns")]
fn compile_pattern(i: usize, pattern: &str) -> Result<Regex, Error> {
    let path = format!("markerPatterns[{i}]");
    let regex = Regex::new(pattern)
        .map_err(|e| Error::new(ErrorCode::InvalidOption, path.clone(), e.to_string()))?;
    if !regex.capture_names().any(|name| name == Some("refs")) {
        return Err(Error::new(
            ErrorCode::InvalidOption,
            path,
            "the pattern needs a named group `refs`, e.g. (?P<refs>\\d+)",
        ));
    }
    Ok(regex)
}

/// Without the `patterns` feature (the npm package's browser core), every pattern is
/// refused, naming the entry that has them.
#[cfg(not(feature = "patterns"))]
fn compile_pattern(i: usize, _pattern: &str) -> Result<Regex, Error> {
    Err(Error::new(
        ErrorCode::InvalidOption,
        format!("markerPatterns[{i}]"),
        "this build has no markerPatterns (the crate's `patterns` feature; in a browser, \
         import from citeproof/patterns)",
    ))
}
