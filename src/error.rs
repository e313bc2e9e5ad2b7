//! The error for input that cannot be read (docs/architecture.md §8). Bad *citations* are never
//! errors: they are findings in the report.

use std::fmt;

/// A stable, machine-readable error code; the JS binding puts it in `Error.code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// A wrong type or a malformed value in the input.
    InvalidInput,
    /// The input exceeds a configured limit (answer length, number of sources).
    TooLarge,
    /// A wrong type or a malformed value in the options.
    InvalidOption,
    /// A response no provider adapter recognises (`fromAny`).
    UnknownProviderFormat,
}

impl ErrorCode {
    /// Every code, in declaration order (the JS binding's wire contract lists their
    /// names, checked against this by `tests/wire_contract.rs`).
    pub const ALL: [ErrorCode; 4] = [
        ErrorCode::InvalidInput,
        ErrorCode::TooLarge,
        ErrorCode::InvalidOption,
        ErrorCode::UnknownProviderFormat,
    ];

    /// The code as the JS API spells it: `invalid_input`, `too_large`, `invalid_option`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::InvalidOption => "invalid_option",
            ErrorCode::UnknownProviderFormat => "unknown_provider_format",
        }
    }
}

/// Input or options that cannot be used, with the path of the offending field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of problem.
    pub code: ErrorCode,
    /// The field at fault, as a JS-style path: `options.markerPatterns[1]`.
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

impl Error {
    /// Creates an error for the field at `path`.
    pub fn new(code: ErrorCode, path: impl Into<String>, message: impl Into<String>) -> Error {
        Error {
            code,
            path: path.into(),
            message: message.into(),
        }
    }
}

impl Error {
    /// The same error with its path nested under `parent`: `markerPatterns[0]` becomes
    /// `options.markerPatterns[0]`.
    pub fn under(&self, parent: &str) -> Error {
        Error {
            path: format!("{parent}.{}", self.path),
            ..self.clone()
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({})",
            self.path,
            self.message,
            self.code.as_str()
        )
    }
}

impl std::error::Error for Error {}
