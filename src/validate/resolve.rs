//! Which retrieved source does each citation mean? Membership in *this* request's
//! retrieved set: labels, ids, chunk and doc ids, titles, chapter + section.

use crate::substr::Substr;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::model::{
    AddFinding, DeclaredCitation, Finding, FindingCode, Loose, Marker, MarkerKind, Refs, Severity,
    Source, SourceRef, Span, decimal,
};

/// A source position, or why there is none (the finding code and its message).
pub type Resolution = Result<usize, (FindingCode, String)>;

/// Lookup tables over the retrieved sources.
pub(crate) struct SourceIndex<'a> {
    sources: &'a [Source],
    by_label: HashMap<u32, usize>,
    by_name: HashMap<&'a str, usize>,
    by_chunk: HashMap<&'a str, usize>,
    by_doc: HashMap<&'a str, usize>,
    by_section: HashMap<String, usize>,
    given_labels: Option<GivenLabels>,
    first_repeat: Option<[usize; 2]>,
    repeats: usize,
}

impl<'a> SourceIndex<'a> {
    /// Indexes `sources` by label, name, chunk id, doc id and chapter + section (first
    /// one wins).
    pub fn new(sources: &'a [Source]) -> SourceIndex<'a> {
        let mut index = SourceIndex {
            sources,
            by_label: HashMap::with_capacity(sources.len()),
            by_name: HashMap::new(),
            by_chunk: HashMap::new(),
            by_doc: HashMap::new(),
            by_section: HashMap::new(),
            given_labels: None,
            first_repeat: None,
            repeats: 0,
        };
        let mut lowest_highest = (u32::MAX, 0);
        let mut relabelled = false;
        for (i, source) in sources.iter().enumerate() {
            let label = source.label(i);
            lowest_highest = (lowest_highest.0.min(label), lowest_highest.1.max(label));
            relabelled |= label as usize != i + 1;
            match index.by_label.entry(label) {
                Entry::Occupied(first) => {
                    index.first_repeat.get_or_insert([*first.get(), i]);
                    index.repeats += 1;
                }
                Entry::Vacant(slot) => {
                    slot.insert(i);
                }
            }
            for name in [&source.id, &source.chunk_id, &source.doc_id, &source.title]
                .into_iter()
                .flatten()
            {
                index.by_name.entry(name.as_str()).or_insert(i);
            }
            if let Some(chunk) = &source.chunk_id {
                index.by_chunk.entry(chunk.as_str()).or_insert(i);
            }
            if let Some(doc) = &source.doc_id {
                index.by_doc.entry(doc.as_str()).or_insert(i);
            }
        }
        // In reverse, so that the first source of a chapter and section is kept.
        for (i, source) in sources.iter().enumerate().rev() {
            if let (Some(chapter), Some(section)) = (&source.chapter, source.section) {
                index.by_section.insert(section_key(chapter, section), i);
            }
        }
        if relabelled {
            index.given_labels = Some(GivenLabels {
                lowest: lowest_highest.0,
                highest: lowest_highest.1,
                distinct: index.by_label.len(),
            });
        }
        index
    }

    /// The first source whose label an earlier source has, as the positions of the first
    /// source with that label and its own (citations of the label name the first), and
    /// how many sources repeat a label.
    pub fn repeated_labels(&self) -> Option<([usize; 2], usize)> {
        self.first_repeat.map(|pair| (pair, self.repeats))
    }

    /// The ids a bracketed `[id]` marker may name.
    pub fn marker_ids(&self) -> Vec<&'a str> {
        self.sources
            .iter()
            .flat_map(|s| [&s.id, &s.chunk_id, &s.doc_id])
            .flatten()
            .map(String::as_str)
            .collect()
    }

    /// The label of the source at position `i` (its `index`, or `i + 1`).
    pub fn label(&self, i: usize) -> u32 {
        self.sources[i].label(i)
    }

    /// The source at position `i`.
    pub fn source(&self, i: usize) -> &'a Source {
        &self.sources[i]
    }

    /// Number of sources.
    pub fn len(&self) -> usize {
        self.sources.len()
    }
}

impl Lookup for SourceIndex<'_> {
    fn sources(&self) -> &[Source] {
        self.sources
    }

    fn position_of_label(&self, n: u32) -> Option<usize> {
        self.by_label.get(&n).copied()
    }

    fn position_of_name(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    fn position_of_section(&self, key: &str) -> Option<usize> {
        self.by_section.get(key).copied()
    }

    fn given_labels(&self) -> Option<&GivenLabels> {
        self.given_labels.as_ref()
    }
}

/// The key of a chapter and section in the index: `"{section} {chapter}"` (the section's
/// digits end at the first space, so two pairs never share a key).
fn section_key(chapter: &str, section: u32) -> String {
    let mut key = section.to_string();
    key.push(' ');
    key.push_str(chapter);
    key
}

/// A [`SourceIndex`] that owns its keys, for a stream to keep across pushes; used with
/// the sources it was built from ([`OwnedIndex::with`]).
#[derive(Debug)]
pub(crate) struct OwnedIndex {
    by_label: HashMap<u32, usize>,
    by_name: HashMap<String, usize>,
    by_section: HashMap<String, usize>,
    ids: HashSet<String>,
    given_labels: Option<GivenLabels>,
}

impl OwnedIndex {
    /// Indexes `sources` as [`SourceIndex::new`] does.
    pub fn new(sources: &[Source]) -> OwnedIndex {
        let index = SourceIndex::new(sources);
        OwnedIndex {
            by_label: index.by_label.clone(),
            by_name: index
                .by_name
                .iter()
                .map(|(name, &i)| (name.to_string(), i))
                .collect(),
            ids: index.marker_ids().into_iter().map(String::from).collect(),
            by_section: index.by_section,
            given_labels: index.given_labels,
        }
    }

    /// The ids a bracketed `[id]` marker may name.
    pub fn ids(&self) -> &HashSet<String> {
        &self.ids
    }

    /// The lookups over `sources`, the ones this index was built from.
    pub fn with<'a>(&'a self, sources: &'a [Source]) -> impl Lookup + 'a {
        OwnedLookup {
            sources,
            index: self,
        }
    }
}

struct OwnedLookup<'a> {
    sources: &'a [Source],
    index: &'a OwnedIndex,
}

impl Lookup for OwnedLookup<'_> {
    fn sources(&self) -> &[Source] {
        self.sources
    }

    fn position_of_label(&self, n: u32) -> Option<usize> {
        self.index.by_label.get(&n).copied()
    }

    fn position_of_name(&self, name: &str) -> Option<usize> {
        self.index.by_name.get(name).copied()
    }

    fn position_of_section(&self, key: &str) -> Option<usize> {
        self.index.by_section.get(key).copied()
    }

    fn given_labels(&self) -> Option<&GivenLabels> {
        self.index.given_labels.as_ref()
    }
}

/// Finds retrieved sources by label and by name (id, chunk id, doc id, title; the first
/// source wins). Implemented by the request's [`SourceIndex`] and by the owned index a
/// [`CitationStream`](crate::stream::CitationStream) keeps across pushes.
pub(crate) trait Lookup {
    /// The retrieved sources.
    fn sources(&self) -> &[Source];
    /// The position of the source labelled `n`.
    fn position_of_label(&self, n: u32) -> Option<usize>;
    /// The position of the source named `name`.
    fn position_of_name(&self, name: &str) -> Option<usize>;
    /// The position of the source of a chapter and section, by its [`section_key`].
    fn position_of_section(&self, key: &str) -> Option<usize>;
    /// The sources' labels, when a source's `index` is not its position + 1 (`None` when
    /// every label is).
    fn given_labels(&self) -> Option<&GivenLabels>;

    /// The source labelled `n`, or why there is none. Labels start at 1 unless a
    /// source says it is 0 (`index: 0`, as retrieval code counting from 0 labels them).
    fn by_number(&self, n: u32) -> Resolution {
        self.position_of_label(n).ok_or_else(|| {
            let given = self.given_labels();
            if n == 0 && given.is_none() {
                return (
                    FindingCode::ZeroIndex,
                    "source labels start at 1; [0] names no source".into(),
                );
            }
            let code = match n {
                0 => FindingCode::ZeroIndex,
                _ => FindingCode::OutOfRange,
            };
            let message = format!(
                "source {n} does not exist: {}",
                retrieved(self.sources().len(), given)
            );
            (code, message)
        })
    }

    /// The source named `name`, or why there is none.
    fn by_name(&self, name: &str) -> Resolution {
        self.position_of_name(name).ok_or_else(|| {
            (
                FindingCode::UnknownSource,
                format!("\"{name}\" is not among the retrieved sources"),
            )
        })
    }

    /// The source of `Chapter chapter, Section section`, or why there is none.
    fn by_section(&self, chapter: &str, section: u32) -> Resolution {
        self.position_of_section(&section_key(chapter, section))
            .ok_or_else(|| {
                (
                    FindingCode::UnknownSource,
                    format!(
                        "Chapter {chapter}, Section {section} is not among the retrieved sources"
                    ),
                )
            })
    }

    /// Each ref of `marker` as written, with the source it resolves to.
    fn resolve_marker(&self, marker: &Marker<'_>) -> Vec<(String, Resolution)> {
        match &marker.refs {
            Refs::Numbers(numbers) if numbers.is_empty() => vec![(
                marker.raw.to_string(),
                Err((
                    FindingCode::UnknownSource,
                    format!(
                        "{} is a provider marker; convert the response with its adapter (fromOpenAI) first",
                        marker.raw
                    ),
                )),
            )],
            Refs::Numbers(numbers) => numbers
                .iter()
                .map(|&n| (n.to_string(), self.by_number(n)))
                .collect(),
            Refs::Ids(ids) => ids
                .iter()
                .map(|id| (id.to_string(), self.by_name(id)))
                .collect(),
            Refs::Section { chapter, section } => {
                vec![(marker.raw.to_string(), self.by_section(chapter, *section))]
            }
        }
    }
}

/// One cited source use, before checks: where it came from and what it resolved to.
pub struct Use {
    pub label: String,
    pub resolved: Resolution,
    pub marker: Option<usize>,
    pub span: Option<Span>,
    pub declared: Option<usize>,
    /// A marker a declared citation at the same span resolves, not its own label: a
    /// provider marker (`【4:0†source】`, which nothing else resolves), or a link marker
    /// (`[[2]](url)`), whose label is the provider's own number when a provider annotated
    /// the link (xAI), not a position in the source list.
    pub provider_marker: bool,
    /// Findings found while resolving (duplicates, invalid fields).
    pub findings: Vec<Finding>,
}

/// The uses of the answer's markers, one per ref, in text order.
pub fn marker_uses(markers: &[Marker<'_>], index: &SourceIndex<'_>, answer: &str) -> Vec<Use> {
    let mut uses: Vec<Use> = Vec::new();
    // The end of the last marker and the range of its uses in `uses`.
    let mut previous: Option<(usize, Range<usize>)> = None;
    for (mi, marker) in markers.iter().enumerate() {
        let first_use = uses.len();
        let adjacent = previous
            .filter(|(end, _)| answer.sub(*end..marker.span.start).trim().is_empty())
            .map_or(0..0, |(_, uses)| uses);
        for (label, resolved) in index.resolve_marker(marker) {
            let mut findings = Vec::new();
            let repeated = uses[first_use..]
                .iter()
                .chain(&uses[adjacent.clone()])
                .any(|earlier| earlier.label == label);
            if repeated {
                findings.add(Finding {
                    code: FindingCode::DuplicateMarker,
                    severity: Severity::Warning,
                    message: format!("source {label} is cited twice in a row"),
                    citation: None,
                    span: Some(marker.span),
                });
            }
            uses.push(Use {
                label,
                resolved,
                marker: Some(mi),
                span: Some(marker.span),
                declared: None,
                provider_marker: matches!(marker.kind, MarkerKind::Provider | MarkerKind::Link),
                findings,
            });
        }
        previous = Some((marker.span.end, first_use..uses.len()));
    }
    uses
}

/// The use a declared citation makes of a source.
pub fn declared_use(
    di: usize,
    citation: &DeclaredCitation,
    index: &SourceIndex<'_>,
    answer: &str,
) -> Use {
    let mut findings = Vec::new();
    let span = match &citation.span {
        Some(Loose::Valid(span))
            if span.start <= span.end && answer.get(span.range()).is_some() =>
        {
            Some(*span)
        }
        Some(Loose::Valid(_) | Loose::Invalid("span")) => {
            findings.add(invalid_field(
                "span",
                "not inside the answer or not on its character boundaries",
            ));
            None
        }
        Some(Loose::Invalid(kind)) => {
            findings.add(invalid_field(
                "span",
                &format!("expected {{ start, end }}, got {kind}"),
            ));
            None
        }
        None => None,
    };
    let mut attempts: Vec<(String, Resolution)> = Vec::new();
    match &citation.source {
        Some(Loose::Valid(SourceRef::Number(n))) => {
            if n.fract() == 0.0 && *n >= 0.0 && *n <= f64::from(u32::MAX) {
                attempts.push(((*n as u32).to_string(), index.by_number(*n as u32)));
            } else {
                findings.add(invalid_field(
                    "source",
                    &format!("{} is not a source label", decimal(*n)),
                ));
            }
        }
        Some(Loose::Valid(SourceRef::Name(name))) if name.trim().is_empty() => {
            findings.add(invalid_field("source", "must not be empty"));
        }
        Some(Loose::Valid(SourceRef::Name(name))) => {
            attempts.push((name.clone(), index.by_name(name)))
        }
        Some(Loose::Invalid(kind)) => findings.add(invalid_field(
            "source",
            &format!("expected a number or a string, got {kind}"),
        )),
        None => {}
    }
    for (field, value, table) in [
        ("chunkId", &citation.chunk_id, &index.by_chunk),
        ("docId", &citation.doc_id, &index.by_doc),
    ] {
        match value {
            Some(Loose::Valid(id)) => attempts.push((
                id.clone(),
                table.get(id.as_str()).copied().ok_or_else(|| {
                    (
                        FindingCode::UnknownSource,
                        format!("{field} \"{id}\" was not retrieved for this request"),
                    )
                }),
            )),
            Some(Loose::Invalid(kind)) => findings.add(invalid_field(
                field,
                &format!("expected a string, got {kind}"),
            )),
            None => {}
        }
    }
    // The first identification that resolves wins; otherwise the first failure stands.
    let chosen = attempts
        .iter()
        .position(|(_, r)| r.is_ok())
        .or(if attempts.is_empty() { None } else { Some(0) });
    let (label, resolved) = match chosen {
        Some(i) => attempts.swap_remove(i),
        None => (
            format!("citation {di}"),
            Err((
                FindingCode::MissingField,
                "nothing identifies the source (no source, chunkId or docId)".into(),
            )),
        ),
    };
    Use {
        label,
        resolved,
        marker: None,
        span,
        declared: Some(di),
        provider_marker: false,
        findings,
    }
}

/// An `invalid_field` error for `field`. Out of line: an error path inlined at a dozen
/// places otherwise, each copy costing wasm bytes.
#[inline(never)]
pub fn invalid_field(field: &str, problem: &str) -> Finding {
    Finding {
        code: FindingCode::InvalidField,
        severity: Severity::Error,
        message: format!("{field}: {problem}"),
        citation: None,
        span: None,
    }
}

/// Merges each declared use into the first unmatched marker use of the same source
/// (docs/architecture.md §5). A declared use with a span (from a provider adapter) merges only
/// with a marker at exactly that span; a provider marker (`【4:0†source】`, no refs of
/// its own) takes the declared use's source.
///
/// Marker uses are looked up, not scanned for (a scan of every marker use per declared
/// one made n declared citations of n markers cost n²): by span with a binary search
/// (marker uses are in text order; one marker's refs, at most
/// [`MAX_REFS`](crate::parse::bracket::MAX_REFS), share its span), and by the source
/// they name through a chain per source of the uses naming it, in text order, whose
/// head moves past the matched ones. Uses naming no source are scanned for by label,
/// within a limit ([`UNRESOLVED_STEPS`]); a declared use past it stays apart (its own
/// finding, not merged into its marker's).
pub fn merge(marker_uses: Vec<Use>, declared_uses: Vec<Use>) -> Vec<Use> {
    let mut merged = marker_uses;
    if declared_uses.is_empty() {
        return merged;
    }
    let positions = merged
        .iter()
        .filter_map(|u| u.resolved.as_ref().ok())
        .max()
        .map_or(0, |p| p + 1);
    let mut heads = vec![usize::MAX; positions];
    let mut next = vec![usize::MAX; merged.len()];
    let mut unresolved = Vec::new();
    for (i, u) in merged.iter().enumerate().rev() {
        match u.resolved {
            Ok(position) => next[i] = std::mem::replace(&mut heads[position], i),
            Err(_) => unresolved.push(i),
        }
    }
    unresolved.reverse();
    let mut unresolved = unresolved.as_slice();
    let mut steps = UNRESOLVED_STEPS
        .saturating_mul(merged.len() + declared_uses.len())
        .saturating_add(UNRESOLVED_ALLOWANCE);
    let mut leftovers = Vec::new();
    for declared in declared_uses {
        let same = |u: &Use| match (&u.resolved, &declared.resolved) {
            (Ok(a), Ok(b)) => a == b,
            (Err(_), Err(_)) => u.label == declared.label,
            _ => false,
        };
        let target = match (declared.span, &declared.resolved) {
            (Some(span), _) => {
                let first = merged.partition_point(|u| u.span.is_some_and(|s| s < span));
                (first..merged.len())
                    .take_while(|&i| merged[i].span == Some(span))
                    .find(|&i| {
                        let u = &merged[i];
                        u.declared.is_none() && (u.provider_marker || same(u))
                    })
            }
            (None, &Ok(position)) if position < positions => {
                let head = &mut heads[position];
                // Matched uses stay matched: the head moves past them for good.
                while merged.get(*head).is_some_and(|u| u.declared.is_some()) {
                    *head = next[*head];
                }
                (*head < merged.len()).then_some(*head)
            }
            (None, Ok(_)) => None,
            (None, Err(_)) => {
                // The matched ones first in the list are left behind for good.
                while unresolved
                    .first()
                    .is_some_and(|&i| merged[i].declared.is_some())
                {
                    unresolved = &unresolved[1..];
                }
                let mut found = None;
                for &i in unresolved {
                    if steps == 0 {
                        break;
                    }
                    steps -= 1;
                    if merged[i].declared.is_none() && same(&merged[i]) {
                        found = Some(i);
                        break;
                    }
                }
                found
            }
        };
        match target {
            Some(i) => {
                let target = &mut merged[i];
                if target.provider_marker {
                    target.label = declared.label;
                    target.resolved = declared.resolved;
                }
                target.declared = declared.declared;
                target.findings.extend(declared.findings);
            }
            None => leftovers.push(declared),
        }
    }
    merged.extend(leftovers);
    merged
}

/// Marker uses naming no source that [`merge`] reads in its scans for declared uses'
/// labels: [`UNRESOLVED_ALLOWANCE`] and this many per use (marker or declared) of the
/// request.
pub const UNRESOLVED_STEPS: usize = 16;

/// Marker uses naming no source that [`merge`] reads whatever the request's size: 256
/// declared uses naming none, each read against 256 such markers, merge whole.
pub const UNRESOLVED_ALLOWANCE: usize = 65_536;

/// How many sources there were, as an `out_of_range` message says it, with their
/// labels when they are not the positions + 1 (`given`).
fn retrieved(count: usize, given: Option<&GivenLabels>) -> String {
    let count = match count {
        0 => "no sources were retrieved".to_string(),
        1 => "only 1 source was retrieved".to_string(),
        n => format!("{n} sources were retrieved"),
    };
    match given {
        Some(labels) => format!("{count}, labelled {}", labels.said()),
        None => count,
    }
}

/// The labels of a request's sources, for messages, when a source's `index` is not its
/// position + 1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GivenLabels {
    lowest: u32,
    highest: u32,
    /// How many distinct labels there are.
    distinct: usize,
}

impl GivenLabels {
    /// The labels as a message says them: "4", "1 to 40", or "3 to 9 (not every number
    /// between)".
    fn said(&self) -> String {
        let (lowest, highest) = (self.lowest, self.highest);
        if lowest == highest {
            lowest.to_string()
        } else if self.distinct as u64 == u64::from(highest - lowest) + 1 {
            format!("{lowest} to {highest}")
        } else {
            format!("{lowest} to {highest} (not every number between)")
        }
    }
}
