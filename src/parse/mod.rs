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
mod patterns;
mod scanner;

pub use patterns::{MarkerPatterns, PatternFault, PatternSearch};

pub(crate) use bytes::run_length;
pub(crate) use definitions::DefinitionReader;
pub(crate) use html::Verbatim;
pub(crate) use html_start::Closer;
pub use scanner::Markers;
pub(crate) use scanner::{Resume, Undecided, closes};

use std::fmt;
use std::sync::Arc;

use crate::error::Error;
use crate::model::Marker;

/// A marker parser with its options compiled once; cheap to reuse across texts.
#[derive(Clone, Default)]
pub struct Parser {
    /// The caller's own marker patterns, if any.
    patterns: Option<Arc<dyn MarkerPatterns>>,
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
    ///
    /// Without the feature `patterns` every pattern is refused
    /// ([`PatternFault::NoEngine`]); [`Parser::with_marker_patterns`] takes patterns
    /// another engine compiled.
    pub fn with_patterns<S: AsRef<str>>(patterns: &[S]) -> Result<Parser, Error> {
        if patterns.is_empty() {
            return Ok(Parser::new());
        }
        #[cfg(feature = "patterns")]
        {
            let compiled = patterns::regex_lite_engine::RegexLitePatterns::new(patterns)?;
            Ok(Parser::with_marker_patterns(Arc::new(compiled)))
        }
        #[cfg(not(feature = "patterns"))]
        Err(PatternFault::NoEngine.at(0))
    }

    /// A parser that also recognises patterns compiled by an engine outside the crate
    /// (see [`MarkerPatterns`]). Each scan asks them for matches, so for no patterns
    /// take [`Parser::new`].
    pub fn with_marker_patterns(patterns: Arc<dyn MarkerPatterns>) -> Parser {
        Parser {
            patterns: Some(patterns),
        }
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

/// Shows whether the parser has patterns of the caller's.
impl fmt::Debug for Parser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parser")
            .field("patterns", &self.patterns.is_some())
            .finish()
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
