//! Property tests: every offset conversion round-trips and agrees with what the
//! standard library says about UTF-16 and code points.
#![cfg(not(target_arch = "wasm32"))]

use citeproof::offsets::{Cursor, OffsetMap, Unit};
use proptest::prelude::*;

/// Characters that break naive offset code: emoji (surrogate pairs), a ZWJ sequence,
/// skin-tone modifiers, CJK, combining marks, CRLF, NBSP, BOM, and plain ASCII.
fn tricky_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a",
        " ",
        "[1]",
        "😀",
        "👩‍👩‍👧",
        "👍🏽",
        "東京",
        "【2】",
        "e\u{301}",
        "\r\n",
        "\n",
        "\u{a0}",
        "\u{feff}",
        "é",
        "𝔘",
        "ß",
        "]",
        "[",
    ]);
    prop_oneof![
        prop::collection::vec(pieces, 0..80).prop_map(|v| v.concat()),
        any::<String>(),
    ]
}

proptest! {
    #[test]
    fn every_char_boundary_round_trips_through_every_unit(text in tricky_text()) {
        let map = OffsetMap::new(&text);
        let (mut utf16, mut cps) = (0, 0);
        let boundaries = text.char_indices().map(|(i, c)| (i, Some(c))).chain([(text.len(), None)]);
        for (byte, ch) in boundaries {
            prop_assert_eq!(map.to_unit(byte, Unit::Utf16), Some(utf16));
            prop_assert_eq!(map.to_unit(byte, Unit::CodePoint), Some(cps));
            prop_assert_eq!(map.to_unit(byte, Unit::Utf8), Some(byte));
            prop_assert_eq!(map.to_byte(utf16, Unit::Utf16), Some(byte));
            prop_assert_eq!(map.to_byte(cps, Unit::CodePoint), Some(byte));
            if let Some(ch) = ch {
                for inside in 1..ch.len_utf8() {
                    prop_assert_eq!(map.to_unit(byte + inside, Unit::Utf16), None);
                }
                if ch.len_utf16() == 2 {
                    prop_assert_eq!(map.to_byte(utf16 + 1, Unit::Utf16), None);
                }
                utf16 += ch.len_utf16();
                cps += 1;
            }
        }
        prop_assert_eq!(map.len(Unit::Utf16), utf16);
        prop_assert_eq!(map.to_byte(utf16 + 1, Unit::Utf16), None);
    }

    #[test]
    fn cursor_agrees_with_the_map_forward_and_after_a_restart(text in tricky_text(), back in 0usize..50) {
        let map = OffsetMap::new(&text);
        let mut cursor = Cursor::new(&text);
        let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let again = boundaries.iter().rev().take(back.min(boundaries.len()));
        for &byte in boundaries.iter().chain(again) {
            let expected = (map.to_unit(byte, Unit::Utf16).unwrap(), map.to_unit(byte, Unit::CodePoint).unwrap());
            prop_assert_eq!(cursor.advance(byte), Some(expected));
        }
        if let Some((i, ch)) = text.char_indices().find(|(_, c)| c.len_utf8() > 1) {
            prop_assert_eq!(cursor.advance(i + 1), None, "inside {:?}", ch);
        }
    }

    #[test]
    fn parser_never_panics_and_spans_slice_to_raw(text in tricky_text()) {
        for marker in citeproof::parse::parse(&text) {
            prop_assert_eq!(&text[marker.span.range()], marker.raw);
        }
    }
}
