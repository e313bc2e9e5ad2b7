//! The caller's own marker syntaxes (`markerPatterns`), as the scanner uses them: a
//! leftmost-first search from a byte offset, and the span of a match's group `refs`.
//!
//! The crate's feature `patterns` compiles them with regex-lite ([`Parser::with_patterns`]).
//! An engine outside the crate can run them instead ([`Parser::with_marker_patterns`]):
//! the npm package's browser core, which has no regex-lite (its size budget), runs them
//! with a JS engine that `citeproof/patterns` registers (docs/architecture.md §9).
//!
//! [`Parser::with_patterns`]: super::Parser::with_patterns
//! [`Parser::with_marker_patterns`]: super::Parser::with_marker_patterns

use std::ops::Range;

use crate::error::{Error, ErrorCode};

/// Compiled marker patterns, in the caller's order, from whichever engine compiled them.
/// (No `Debug` bound: a trait object's vtable would keep the formatting code in the
/// browser core, 1.3 KB gzip that nothing calls.)
///
/// ```
/// use std::ops::Range;
/// use std::sync::Arc;
/// use citeproof::parse::{MarkerPatterns, Parser, PatternSearch};
/// use citeproof::model::Refs;
///
/// /// One pattern: `<<digits>>`, searched by hand.
/// struct Angles;
/// impl MarkerPatterns for Angles {
///     fn search<'s>(&'s self, _text: &str) -> Box<dyn PatternSearch + 's> {
///         Box::new(AnglesSearch(0..0))
///     }
/// }
/// /// A scan: the digits of the last match.
/// struct AnglesSearch(Range<usize>);
/// impl PatternSearch for AnglesSearch {
///     fn next_match(&mut self, text: &str, at: usize) -> Option<Range<usize>> {
///         let mut from = at;
///         while let Some(found) = text[from..].find("<<") {
///             let start = from + found;
///             let digits = text[start + 2..].bytes().take_while(u8::is_ascii_digit).count();
///             let end = start + 2 + digits;
///             if digits > 0 && text[end..].starts_with(">>") {
///                 self.0 = start + 2..end;
///                 return Some(start..end + 2);
///             }
///             from = start + 1;
///         }
///         None
///     }
///     fn refs(&mut self, _text: &str) -> Option<Range<usize>> {
///         Some(self.0.clone())
///     }
/// }
/// let parser = Parser::with_marker_patterns(Arc::new(Angles));
/// let markers: Vec<_> = parser.find_iter("Fact <<2>>, `<<3>>`.", &[]).collect();
/// assert_eq!(markers.len(), 1);
/// assert_eq!(markers[0].refs, Refs::Numbers(vec![2].into()));
/// ```
pub trait MarkerPatterns: Send + Sync {
    /// The searches of one scan of `text` (an engine that keeps its own copy of the text
    /// makes it here, once per scan; each later call gets the same `text`).
    fn search<'s>(&'s self, text: &str) -> Box<dyn PatternSearch + 's>;
}

/// The searches of one scan, from [`MarkerPatterns::search`]. Offsets are byte offsets
/// into the scan's text; the scanner checks that they fall on `char` boundaries.
pub trait PatternSearch {
    /// The earliest non-empty match at or after `at` of any pattern (on a tie, the
    /// first pattern's), where each pattern's match is its leftmost-first one that
    /// starts at or after `at` and is not empty, as `regex_lite::Regex::find_at` finds
    /// them (anchors and word boundaries see the text before `at`; an empty match is
    /// passed over by one `char`). `at` never decreases within a scan, so an engine may
    /// keep each pattern's last match while it still starts at or after `at`.
    fn next_match(&mut self, text: &str, at: usize) -> Option<Range<usize>>;

    /// The group `refs` of the match [`PatternSearch::next_match`] returned last, its
    /// pattern matched against the match's text alone (as if nothing stood around it),
    /// as a range of `text`; `None` if the pattern does not match there or the group
    /// takes no part.
    fn refs(&mut self, text: &str) -> Option<Range<usize>>;
}

/// Why an engine refused a pattern: the same error, whichever engine compiled it.
#[derive(Clone, Copy, Debug)]
pub enum PatternFault<'a> {
    /// The pattern does not compile; the engine's message.
    Syntax(&'a str),
    /// It compiles but has no group named `refs`.
    NoRefsGroup,
    /// This build has no engine for patterns.
    NoEngine,
}

impl PatternFault<'_> {
    /// The error for the `i`-th pattern: `invalid_option` at `markerPatterns[i]`.
    ///
    /// ```
    /// use citeproof::parse::PatternFault;
    /// let error = PatternFault::NoRefsGroup.at(2);
    /// assert_eq!(error.path, "markerPatterns[2]");
    /// assert_eq!(error.code.as_str(), "invalid_option");
    /// ```
    pub fn at(self, i: usize) -> Error {
        let message = match self {
            PatternFault::Syntax(message) => message,
            PatternFault::NoRefsGroup => {
                "the pattern needs a named group `refs`, e.g. (?P<refs>\\d+)"
            }
            PatternFault::NoEngine => {
                "this build has no markerPatterns (the crate's `patterns` feature; in a \
                 browser, import from citeproof/patterns)"
            }
        };
        Error::new(
            ErrorCode::InvalidOption,
            format!("markerPatterns[{i}]"),
            message,
        )
    }
}

/// The feature `patterns`' engine: regex-lite.
#[cfg(feature = "patterns")]
pub(super) mod regex_lite_engine {
    use std::ops::Range;

    use regex_lite::Regex;

    use crate::substr::Substr;

    use super::{MarkerPatterns, PatternFault, PatternSearch};
    use crate::error::Error;

    /// Patterns compiled with regex-lite.
    pub struct RegexLitePatterns(Vec<Regex>);

    impl RegexLitePatterns {
        /// Compiles `patterns`; the first that fails is the error.
        pub fn new<S: AsRef<str>>(patterns: &[S]) -> Result<Self, Error> {
            let compile = |(i, pattern): (usize, &S)| {
                let regex = Regex::new(pattern.as_ref())
                    .map_err(|e| PatternFault::Syntax(&e.to_string()).at(i))?;
                if !regex.capture_names().any(|name| name == Some("refs")) {
                    return Err(PatternFault::NoRefsGroup.at(i));
                }
                Ok(regex)
            };
            Ok(Self(
                patterns
                    .iter()
                    .enumerate()
                    .map(compile)
                    .collect::<Result<_, _>>()?,
            ))
        }
    }

    impl MarkerPatterns for RegexLitePatterns {
        fn search<'s>(&'s self, _text: &str) -> Box<dyn PatternSearch + 's> {
            Box::new(RegexLiteSearch {
                patterns: &self.0,
                next: vec![Next::Unknown; self.0.len()],
                last: 0,
            })
        }
    }

    /// What a scan knows of a pattern's next match.
    #[derive(Clone)]
    enum Next {
        /// Not searched yet.
        Unknown,
        /// Its leftmost non-empty match from the last search.
        At(Range<usize>),
        /// No match from the last search on, so none later either.
        Never,
    }

    /// One scan with regex-lite: each pattern's next match, kept while it is ahead.
    struct RegexLiteSearch<'s> {
        patterns: &'s [Regex],
        next: Vec<Next>,
        /// The pattern of the match `next_match` returned last.
        last: usize,
    }

    /// The leftmost non-empty match of `regex` at or after `at`.
    fn non_empty(regex: &Regex, text: &str, mut at: usize) -> Option<Range<usize>> {
        while at <= text.len() {
            let found = regex.find_at(text, at)?;
            if !found.is_empty() {
                return Some(found.range());
            }
            at = found.end()
                + text
                    .sub(found.end()..)
                    .chars()
                    .next()
                    .map_or(1, char::len_utf8);
        }
        None
    }

    impl PatternSearch for RegexLiteSearch<'_> {
        fn next_match(&mut self, text: &str, at: usize) -> Option<Range<usize>> {
            let mut best: Option<(Range<usize>, usize)> = None;
            for (pattern, next) in self.next.iter_mut().enumerate() {
                let stale = match next {
                    Next::Unknown => true,
                    Next::At(span) => span.start < at,
                    Next::Never => false,
                };
                if stale {
                    *next =
                        non_empty(&self.patterns[pattern], text, at).map_or(Next::Never, Next::At);
                }
                if let Next::At(span) = next {
                    if best.as_ref().is_none_or(|(b, _)| span.start < b.start) {
                        best = Some((span.clone(), pattern));
                    }
                }
            }
            let (span, pattern) = best?;
            self.last = pattern;
            Some(span)
        }

        fn refs(&mut self, text: &str) -> Option<Range<usize>> {
            let Next::At(span) = self.next[self.last].clone() else {
                return None;
            };
            let regex = &self.patterns[self.last];
            let refs = regex
                .captures(text.sub(span.clone()))?
                .name("refs")?
                .range();
            Some(span.start + refs.start..span.start + refs.end)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Range;
    use std::sync::Arc;

    use super::{MarkerPatterns, PatternSearch};
    use crate::parse::Parser;

    /// An engine that answers `answers` in turn, whatever it is asked.
    struct Lying(Vec<Range<usize>>);

    struct LyingSearch(Vec<Range<usize>>);

    impl MarkerPatterns for Lying {
        fn search<'s>(&'s self, _text: &str) -> Box<dyn PatternSearch + 's> {
            Box::new(LyingSearch(self.0.iter().rev().cloned().collect()))
        }
    }

    impl PatternSearch for LyingSearch {
        fn next_match(&mut self, _text: &str, _at: usize) -> Option<Range<usize>> {
            self.0.pop()
        }

        fn refs(&mut self, _text: &str) -> Option<Range<usize>> {
            Some(1..2) // inside the emoji below: not a `char` boundary
        }
    }

    fn markers(answers: Vec<Range<usize>>, text: &str) -> Vec<String> {
        let parser = Parser::with_marker_patterns(Arc::new(Lying(answers)));
        parser
            .find_iter(text, &[])
            .map(|m| m.raw.to_string())
            .collect()
    }

    #[test]
    fn an_engine_offset_off_a_char_boundary_ends_its_matches_without_a_panic() {
        assert_eq!(markers(vec![1..3, 0..4], "😀 [1]"), ["[1]"]);
    }

    #[test]
    fn an_engine_match_behind_the_scan_or_empty_ends_its_matches_without_a_loop() {
        assert_eq!(markers(vec![2..2, 2..4], "ab <<1>> [2]"), ["[2]"]);
        assert_eq!(
            markers(vec![3..8, 0..2, 3..8], "ab <<1>> [2]"),
            ["<<1>>", "[2]"]
        );
    }

    #[test]
    fn a_refs_range_off_a_char_boundary_falls_back_to_the_whole_match() {
        let answers = vec![Range { start: 0, end: 4 }];
        let parser = Parser::with_marker_patterns(Arc::new(Lying(answers)));
        let found: Vec<_> = parser.find_iter("😀 [1]", &[]).collect();
        assert_eq!(found[0].raw, "😀");
        assert_eq!(found[1].raw, "[1]");
    }
}
