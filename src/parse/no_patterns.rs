//! What the scanner asks of a compiled pattern, for a build without the `patterns`
//! feature: a type with no values, so the pattern code compiles and is never run.

/// A pattern that cannot exist.
#[derive(Clone, Debug)]
pub enum Regex {}

/// A match of a pattern that cannot exist.
pub struct Found(Regex);

/// The groups of a match that cannot exist.
pub struct Groups(Regex);

impl Regex {
    pub fn find_at(&self, _text: &str, _at: usize) -> Option<Found> {
        match *self {}
    }

    pub fn captures(&self, _text: &str) -> Option<Groups> {
        match *self {}
    }
}

impl Found {
    pub fn start(&self) -> usize {
        match self.0 {}
    }

    pub fn end(&self) -> usize {
        match self.0 {}
    }

    pub fn as_str<'t>(&self) -> &'t str {
        match self.0 {}
    }
}

impl Groups {
    pub fn name(&self, _name: &str) -> Option<Found> {
        match self.0 {}
    }
}
