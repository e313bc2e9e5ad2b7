//! Markers cross to JS as one flat `Uint32Array`, turned into objects by `markers.js`.
//!
//! Layout: `[count, marker × count, refs…]`. Each marker is 8 words: the UTF-16 start
//! and end (for slicing `raw` out of the JS string), the start and end in the caller's
//! unit, the kind index ([`MarkerKind::ALL`]), the refs kind (0 numbers, 1 ids, 2 a
//! section), and two words whose meaning depends on it: numbers → (offset into refs,
//! count); ids → (offset, count) of UTF-16 `(start, end)` pairs; a section → (offset of
//! the chapter's UTF-16 pair, section number).

use wasm_bindgen::prelude::*;

use crate::model::{Marker, MarkerKind, Refs};
use crate::offsets::{Cursor, Unit};

#[wasm_bindgen(module = "/src/wasm/markers.js")]
extern "C" {
    #[wasm_bindgen(js_name = buildMarkers)]
    fn build_markers(text: &JsValue, flat: &[u32], kinds: &JsValue) -> JsValue;
}

thread_local! {
    /// `MarkerKind::ALL` as a JS array of names, made once.
    static KIND_NAMES: JsValue = MarkerKind::ALL
        .iter()
        .map(|k| JsValue::from_str(k.name()))
        .collect::<js_sys::Array>()
        .into();
}

/// Converts `markers` of `text` (whose JS string is `js_text`) into JS marker objects.
pub fn markers_to_js<'t>(
    js_text: &JsValue,
    text: &'t str,
    markers: impl Iterator<Item = Marker<'t>>,
    unit: Unit,
) -> JsValue {
    // Offsets are converted in text order (start, ids, end, next marker …) by one forward
    // walk. Spans come from the parser and lie on char boundaries, so a failed conversion
    // cannot happen; it would show as a 0 rather than a trap.
    let mut cursor = Cursor::new(text);
    let mut convert = |byte: usize| {
        let utf16 = cursor.to_unit(byte, Unit::Utf16).unwrap_or(0) as u32;
        let in_unit = if unit == Unit::Utf16 {
            utf16
        } else {
            cursor.to_unit(byte, unit).unwrap_or(0) as u32
        };
        (utf16, in_unit)
    };
    let offset_in_text = |part: &str| part.as_ptr() as usize - text.as_ptr() as usize;

    let mut flat = Vec::with_capacity(1 + 8 * 16);
    flat.push(0); // the count, set below
    let mut refs = Vec::new();
    for marker in markers {
        flat[0] += 1;
        let (start16, start) = convert(marker.span.start);
        let (ref_kind, a, b) = match &marker.refs {
            Refs::Numbers(numbers) => {
                let at = refs.len() as u32;
                refs.extend_from_slice(numbers);
                (0, at, numbers.len() as u32)
            }
            Refs::Ids(ids) => {
                let at = refs.len() as u32;
                for id in ids {
                    let id_start = offset_in_text(id);
                    refs.extend([convert(id_start).0, convert(id_start + id.len()).0]);
                }
                (1, at, ids.len() as u32)
            }
            Refs::Section { chapter, section } => {
                let at = refs.len() as u32;
                let chapter_start = offset_in_text(chapter);
                refs.extend([
                    convert(chapter_start).0,
                    convert(chapter_start + chapter.len()).0,
                ]);
                (2, at, *section)
            }
        };
        let (end16, end) = convert(marker.span.end);
        flat.extend([
            start16,
            end16,
            start,
            end,
            marker.kind as u32,
            ref_kind,
            a,
            b,
        ]);
    }
    flat.extend(refs);
    KIND_NAMES.with(|kinds| build_markers(js_text, &flat, kinds))
}
