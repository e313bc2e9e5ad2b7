//! The options of `parseCitations` / `new CitationParser`.

use wasm_bindgen::JsValue;

use super::read::{LIST_CEILING, MAX_LIST_ITEMS, MAX_MARKER_PATTERNS, Obj, read_unit};
use citeproof::offsets::Unit;

/// The options of `parseCitations` / `new CitationParser`.
#[derive(Debug, Default)]
pub struct ParseOptions {
    /// The unit of returned spans.
    pub offsets: Unit,
    /// Extra marker regexes, each with a `refs` group.
    pub marker_patterns: Vec<String>,
    /// Ids that `[id]` may name: `sourceIds` plus `sources[].id`.
    pub source_ids: Vec<String>,
}

impl ParseOptions {
    /// Reads `value` (an object, `undefined` or `null`) found at `path`.
    pub fn read(value: Option<&JsValue>, path: &str) -> Result<ParseOptions, JsValue> {
        let Some(obj) = Obj::optional(value, path, "invalid_option")? else {
            return Ok(ParseOptions::default());
        };
        let mut source_ids = obj
            .strings(&["sourceIds"], (MAX_LIST_ITEMS, LIST_CEILING))?
            .unwrap_or_default();
        for (source, source_path) in obj.array(&["sources"])?.unwrap_or_default() {
            if let Some(id) = Obj::new(&source, &source_path, "invalid_option")?.string(&["id"])? {
                source_ids.push(id);
            }
        }
        let options = ParseOptions {
            offsets: read_unit(&obj)?,
            marker_patterns: obj
                .strings(&["markerPatterns"], MAX_MARKER_PATTERNS)?
                .unwrap_or_default(),
            source_ids,
        };
        obj.reject_unknown(&[])?;
        Ok(options)
    }
}
