//! Citation markers: where they are, what form they have, what they point at.

use serde::Serialize;

use super::Span;

/// Which written form a marker has. The JS API spells these in snake_case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum MarkerKind {
    /// `[1]`, `[1, 2]`, `[1-3]`, `［3］`, also inside `<sup>…</sup>`.
    Numeric,
    /// `[^1]` and `[^1^]`.
    Footnote,
    /// `【1】` and `【3†source】`.
    Cjk,
    /// `【4:0†source】`: the provider (OpenAI Assistants) form; its refs are resolved by
    /// the provider adapter, so the parser reports none.
    Provider,
    /// A numeric marker with a word: `[doc1]`, `[Source 3]`, `[Sources: 2, 5]`,
    /// `[ref 1]`, `[citation:1]`.
    Labeled,
    /// `[1](url)` and `[[1]](url)`: one marker spanning the whole link.
    Link,
    /// `(Source 3)`, `(Sources 2, 5)`.
    Parenthetical,
    /// `Chapter X, Section N` (spec 000).
    Section,
    /// A source id in brackets: `[chunk:abc123]`, or `[abc123]` when `abc123` is a
    /// known source id (spec 003).
    Named,
    /// A match of a user-supplied marker pattern.
    Custom,
    /// OpenAI's private-use-area citation token, `U+E200 cite U+E202 turn0search0
    /// U+E201`, with one or more source ids and an optional line range (`L8-L13`)
    /// after the last id; its refs are the ids.
    PrivateUse,
}

impl MarkerKind {
    /// Every kind, in declaration order (`kind as usize` indexes this array).
    pub const ALL: [MarkerKind; 11] = [
        MarkerKind::Numeric,
        MarkerKind::Footnote,
        MarkerKind::Cjk,
        MarkerKind::Provider,
        MarkerKind::Labeled,
        MarkerKind::Link,
        MarkerKind::Parenthetical,
        MarkerKind::Section,
        MarkerKind::Named,
        MarkerKind::Custom,
        MarkerKind::PrivateUse,
    ];

    /// The name the JS API and serde use: `"numeric"`, `"footnote"`, …
    pub const fn name(self) -> &'static str {
        match self {
            MarkerKind::Numeric => "numeric",
            MarkerKind::Footnote => "footnote",
            MarkerKind::Cjk => "cjk",
            MarkerKind::Provider => "provider",
            MarkerKind::Labeled => "labeled",
            MarkerKind::Link => "link",
            MarkerKind::Parenthetical => "parenthetical",
            MarkerKind::Section => "section",
            MarkerKind::Named => "named",
            MarkerKind::Custom => "custom",
            MarkerKind::PrivateUse => "private_use",
        }
    }
}

/// The source labels of one marker, in written order. Up to [`Labels::INLINE`] labels
/// are stored inline, so the common marker costs no allocation.
///
/// ```
/// use citeproof::model::Labels;
/// let labels = Labels::from(&[3, 1, 3][..]);
/// assert_eq!(&labels[..], &[3, 1, 3]);
/// assert_eq!(labels, Labels::from(vec![3, 1, 3]));
/// ```
#[derive(Clone)]
pub struct Labels(LabelStore);

#[derive(Clone)]
enum LabelStore {
    Inline {
        len: u8,
        items: [u32; Labels::INLINE],
    },
    Heap(Vec<u32>),
}

impl Labels {
    /// How many labels fit without allocating.
    pub const INLINE: usize = 6;

    /// No labels.
    pub const fn new() -> Labels {
        Labels(LabelStore::Inline {
            len: 0,
            items: [0; Labels::INLINE],
        })
    }

    /// Appends `label`.
    pub fn push(&mut self, label: u32) {
        match &mut self.0 {
            LabelStore::Inline { len, items } if (*len as usize) < Labels::INLINE => {
                items[*len as usize] = label;
                *len += 1;
            }
            LabelStore::Inline { len, items } => {
                let mut heap = items[..*len as usize].to_vec();
                heap.push(label);
                self.0 = LabelStore::Heap(heap);
            }
            LabelStore::Heap(heap) => heap.push(label),
        }
    }
}

impl Default for Labels {
    fn default() -> Labels {
        Labels::new()
    }
}

impl std::ops::Deref for Labels {
    type Target = [u32];

    // Inline across crates: the JS binding reads every marker's labels through it.
    #[inline]
    fn deref(&self) -> &[u32] {
        match &self.0 {
            LabelStore::Inline { len, items } => &items[..*len as usize],
            LabelStore::Heap(heap) => heap,
        }
    }
}

impl PartialEq for Labels {
    fn eq(&self, other: &Labels) -> bool {
        self[..] == other[..]
    }
}

impl Eq for Labels {}

impl std::fmt::Debug for Labels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<&[u32]> for Labels {
    fn from(labels: &[u32]) -> Labels {
        let mut out = Labels::new();
        labels.iter().for_each(|&l| out.push(l));
        out
    }
}

impl From<Vec<u32>> for Labels {
    fn from(labels: Vec<u32>) -> Labels {
        Labels::from(&labels[..])
    }
}

/// What a marker points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refs<'t> {
    /// Source labels in written order, duplicates kept, ranges expanded.
    Numbers(Labels),
    /// Source ids in written order (named markers and non-numeric custom patterns).
    Ids(Vec<&'t str>),
    /// A chapter and section number (spec 000's `Chapter X, Section N`).
    Section {
        /// The chapter as written (`\w+`).
        chapter: &'t str,
        /// The section number.
        section: u32,
    },
}

impl Refs<'_> {
    /// Number of sources referred to (a section reference counts as one).
    pub fn len(&self) -> usize {
        match self {
            Refs::Numbers(n) => n.len(),
            Refs::Ids(ids) => ids.len(),
            Refs::Section { .. } => 1,
        }
    }

    /// True when the marker refers to nothing the parser could resolve
    /// (the provider form `【4:0†source】`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One citation marker found in a text. Serialises as the JS API shows it:
/// `{ span, refs, kind, raw }`, refs as numbers or strings, and `chapter`/`section` for
/// section references.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker<'t> {
    /// Where the marker is, in bytes of the parsed text.
    pub span: Span,
    /// What it points at.
    pub refs: Refs<'t>,
    /// Its written form.
    pub kind: MarkerKind,
    /// The marker as written: `&text[span.range()]`.
    pub raw: &'t str,
}

impl Serialize for Marker<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let section = matches!(self.refs, Refs::Section { .. });
        let mut out = s.serialize_struct("Marker", if section { 6 } else { 4 })?;
        out.serialize_field("span", &self.span)?;
        match &self.refs {
            Refs::Numbers(labels) => out.serialize_field("refs", &labels[..])?,
            Refs::Ids(ids) => out.serialize_field("refs", ids)?,
            Refs::Section { .. } => out.serialize_field("refs", &[0u32; 0])?,
        }
        out.serialize_field("kind", &self.kind)?;
        out.serialize_field("raw", self.raw)?;
        if let Refs::Section { chapter, section } = &self.refs {
            out.serialize_field("chapter", chapter)?;
            out.serialize_field("section", section)?;
        }
        out.end()
    }
}
