//! The JS shapes of core values: camelCase, spans in the caller's unit.

use serde::Serialize;

use crate::model::{Marker, MarkerKind, Refs};
use crate::offsets::{OffsetMap, Unit};

/// A span in the unit the caller asked for.
#[derive(Serialize)]
pub struct SpanDto {
    start: usize,
    end: usize,
}

impl SpanDto {
    /// Converts a byte span; the core only produces spans on char boundaries.
    pub fn new(span: crate::model::Span, map: &OffsetMap<'_>, unit: Unit) -> SpanDto {
        let convert = |byte: usize| map.to_unit(byte, unit).unwrap_or(byte);
        SpanDto {
            start: convert(span.start),
            end: convert(span.end),
        }
    }
}

/// `number[]` for labels, `string[]` for ids.
#[derive(Serialize)]
#[serde(untagged)]
pub enum RefsDto<'t> {
    Numbers(Vec<u32>),
    Ids(Vec<&'t str>),
}

/// A marker as JS sees it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MarkerDto<'t> {
    span: SpanDto,
    refs: RefsDto<'t>,
    kind: MarkerKind,
    raw: &'t str,
    #[serde(skip_serializing_if = "Option::is_none")]
    chapter: Option<&'t str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    section: Option<u32>,
}

impl<'t> MarkerDto<'t> {
    /// Converts `marker`, whose span indexes the text `map` was built from.
    pub fn new(marker: &Marker<'t>, map: &OffsetMap<'_>, unit: Unit) -> MarkerDto<'t> {
        let (refs, chapter, section) = match &marker.refs {
            Refs::Numbers(numbers) => (RefsDto::Numbers(numbers.clone()), None, None),
            Refs::Ids(ids) => (RefsDto::Ids(ids.clone()), None, None),
            Refs::Section { chapter, section } => {
                (RefsDto::Ids(Vec::new()), Some(*chapter), Some(*section))
            }
        };
        MarkerDto {
            span: SpanDto::new(marker.span, map, unit),
            refs,
            kind: marker.kind,
            raw: marker.raw,
            chapter,
            section,
        }
    }
}
