//! Offset conversion between the three units a text position can be given in.
//!
//! Rust slices strings by UTF-8 byte; JavaScript indexes strings by UTF-16 code unit;
//! people (and some providers) count code points. [`OffsetMap`] is built in one pass over
//! a text and then converts any position between the three units: O(1) for ASCII text,
//! otherwise a block lookup plus a scan of at most [`BLOCK`] bytes (byte → other units)
//! or a binary search over the blocks (other units → byte).
//!
//! ```
//! use citeproof::offsets::{OffsetMap, Unit};
//! let text = "😀 [1]";
//! let map = OffsetMap::new(text);
//! let byte = text.find('[').unwrap();
//! assert_eq!(byte, 5);
//! assert_eq!(map.to_unit(byte, Unit::Utf16), Some(3)); // "😀" is a surrogate pair
//! assert_eq!(map.to_unit(byte, Unit::CodePoint), Some(2));
//! assert_eq!(map.to_byte(3, Unit::Utf16), Some(5));
//! ```

use crate::model::Span;

/// Bytes per block: each block stores the UTF-16 and code-point counts before it.
pub const BLOCK: usize = 64;

/// A unit in which a position in a text can be expressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Unit {
    /// UTF-16 code units: a JavaScript string index (the JS API's default).
    #[default]
    Utf16,
    /// UTF-8 bytes: a Rust string index (the Rust API's unit).
    Utf8,
    /// Unicode scalar values (code points): Python's `str` index.
    CodePoint,
}

impl Unit {
    /// The one of the three offsets of a position that is in this unit.
    fn pick(self, utf8: usize, utf16: usize, code_points: usize) -> usize {
        match self {
            Unit::Utf8 => utf8,
            Unit::Utf16 => utf16,
            Unit::CodePoint => code_points,
        }
    }

    /// Parses the JS option spelling: `"utf16"`, `"utf8"` or `"codepoint"`.
    pub fn from_name(name: &str) -> Option<Unit> {
        match name {
            "utf16" => Some(Unit::Utf16),
            "utf8" => Some(Unit::Utf8),
            "codepoint" => Some(Unit::CodePoint),
            _ => None,
        }
    }
}

/// Counts of UTF-16 units and code points of the characters that start before a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    utf16: u32,
    code_points: u32,
}

/// Converts positions in one text between UTF-8 bytes, UTF-16 units and code points.
///
/// Positions must fall on character boundaries in their own unit; a position inside a
/// character (or inside a surrogate pair, or past the end) converts to `None`.
#[derive(Clone, Debug)]
pub struct OffsetMap<'t> {
    text: &'t [u8],
    /// `blocks[i]` counts the characters starting in `text[..i * BLOCK]`.
    /// Empty when the text is ASCII: every unit is then the byte offset.
    blocks: Vec<Counts>,
    total: Counts,
}

impl<'t> OffsetMap<'t> {
    /// Builds the map in one pass over `text`.
    pub fn new(text: &'t str) -> OffsetMap<'t> {
        let bytes = text.as_bytes();
        if bytes.is_ascii() {
            let n = bytes.len() as u32;
            return OffsetMap {
                text: bytes,
                blocks: Vec::new(),
                total: Counts {
                    utf16: n,
                    code_points: n,
                },
            };
        }
        let mut blocks = Vec::with_capacity(bytes.len() / BLOCK + 1);
        let mut counts = Counts::default();
        for chunk in bytes.chunks(BLOCK) {
            blocks.push(counts);
            counts = add_chunk(counts, chunk);
        }
        OffsetMap {
            text: bytes,
            blocks,
            total: counts,
        }
    }

    /// Length of the text in `unit`.
    pub fn len(&self, unit: Unit) -> usize {
        match unit {
            Unit::Utf8 => self.text.len(),
            Unit::Utf16 => self.total.utf16 as usize,
            Unit::CodePoint => self.total.code_points as usize,
        }
    }

    /// True when the text is empty.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Converts a UTF-8 byte offset to `unit`; `None` when `byte` is not a char boundary.
    pub fn to_unit(&self, byte: usize, unit: Unit) -> Option<usize> {
        if byte > self.text.len() || !is_boundary(self.text, byte) {
            return None;
        }
        if unit == Unit::Utf8 || self.blocks.is_empty() {
            return Some(byte);
        }
        if byte == self.text.len() {
            return Some(self.len(unit));
        }
        let block = byte / BLOCK;
        let counts = add_chunk(self.blocks[block], &self.text[block * BLOCK..byte]);
        Some(match unit {
            Unit::Utf16 => counts.utf16 as usize,
            _ => counts.code_points as usize,
        })
    }

    /// Converts the byte span `span` to `unit`. The core only makes spans on character
    /// boundaries; an offset that is not one is left as it is.
    pub fn span_to_unit(&self, span: Span, unit: Unit) -> Span {
        Span::new(
            self.to_unit(span.start, unit).unwrap_or(span.start),
            self.to_unit(span.end, unit).unwrap_or(span.end),
        )
    }

    /// Converts an offset in `unit` to a UTF-8 byte offset; `None` when it does not fall
    /// on a character boundary (e.g. between the halves of a surrogate pair) or is past
    /// the end.
    pub fn to_byte(&self, offset: usize, unit: Unit) -> Option<usize> {
        if unit == Unit::Utf8 {
            return (offset <= self.text.len() && is_boundary(self.text, offset)).then_some(offset);
        }
        if offset > self.len(unit) {
            return None;
        }
        if self.blocks.is_empty() {
            return Some(offset);
        }
        let key = |c: &Counts| match unit {
            Unit::Utf16 => c.utf16 as usize,
            _ => c.code_points as usize,
        };
        // The last block whose starting count is <= offset.
        let block = self.blocks.partition_point(|c| key(c) <= offset) - 1;
        let mut count = key(&self.blocks[block]);
        let mut pos = block * BLOCK;
        while pos < self.text.len() {
            let b = self.text[pos];
            if !is_continuation(b) {
                if count == offset {
                    return Some(pos);
                }
                count += if unit == Unit::Utf16 { utf16_len(b) } else { 1 };
                if count > offset {
                    return None;
                }
            }
            pos += 1;
        }
        (count == offset).then_some(pos)
    }
}

/// Converts a non-decreasing sequence of byte offsets into one text to UTF-16 units and
/// code points in a single forward walk: no table, no allocation. For spans emitted in
/// text order (markers), this is cheaper than building an [`OffsetMap`].
///
/// ```
/// use citeproof::offsets::Cursor;
/// let mut cursor = Cursor::new("😀 [1] é [2]");
/// assert_eq!(cursor.advance(5), Some((3, 2)));
/// assert_eq!(cursor.advance(13), Some((10, 9)));
/// assert_eq!(cursor.advance(1), None); // inside the emoji
/// ```
#[derive(Clone, Debug)]
pub struct Cursor<'t> {
    text: &'t str,
    tally: Tally,
}

impl<'t> Cursor<'t> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'t str) -> Cursor<'t> {
        Cursor {
            text,
            tally: Tally::default(),
        }
    }

    /// `(utf16, code_points)` at `byte`; `None` when `byte` is not a char boundary.
    /// An offset before the previous one restarts the walk from the beginning.
    pub fn advance(&mut self, byte: usize) -> Option<(usize, usize)> {
        if byte < self.tally.byte {
            self.tally = Tally::default();
        }
        self.tally.advance(self.text, byte)
    }

    /// The offset of `byte` in `unit` (see [`Cursor::advance`]).
    // Inline across crates: the JS binding converts every span it writes through it.
    #[inline]
    pub fn to_unit(&mut self, byte: usize, unit: Unit) -> Option<usize> {
        let (utf16, code_points) = self.advance(byte)?;
        Some(unit.pick(byte, utf16, code_points))
    }
}

/// A forward-only offset converter over a text that keeps growing at its end (a stream):
/// it holds no reference to the text, which is passed to each call.
///
/// ```
/// use citeproof::offsets::{Tally, Unit};
/// let mut text = String::from("😀 [1]");
/// let mut tally = Tally::default();
/// assert_eq!(tally.to_unit(&text, 5, Unit::Utf16), Some(3));
/// text.push_str(" é [2]");
/// assert_eq!(tally.to_unit(&text, 13, Unit::Utf16), Some(10));
/// assert_eq!(tally.to_unit(&text, 5, Unit::Utf16), None); // backwards
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    byte: usize,
    counts: Counts,
}

impl Tally {
    /// `(utf16, code_points)` at `byte` of `text`; `None` when `byte` is before the
    /// previous offset or not a char boundary of `text`.
    pub fn advance(&mut self, text: &str, byte: usize) -> Option<(usize, usize)> {
        let bytes = text.as_bytes();
        if byte < self.byte || byte > bytes.len() || !is_boundary(bytes, byte) {
            return None;
        }
        self.counts = add_chunk(self.counts, &bytes[self.byte..byte]);
        self.byte = byte;
        Some((self.counts.utf16 as usize, self.counts.code_points as usize))
    }

    /// The offset of `byte` in `unit` (see [`Tally::advance`]).
    // Inline across crates: the JS binding converts every span it writes through it.
    #[inline]
    pub fn to_unit(&mut self, text: &str, byte: usize, unit: Unit) -> Option<usize> {
        let (utf16, code_points) = self.advance(text, byte)?;
        Some(unit.pick(byte, utf16, code_points))
    }
}

fn add_chunk(mut counts: Counts, chunk: &[u8]) -> Counts {
    // Eight bytes at a time while they are ASCII (one unit and one code point each).
    let mut words = chunk.chunks_exact(8);
    let mut rest: &[u8] = &[];
    for (i, word) in words.by_ref().enumerate() {
        let bits = u64::from_le_bytes([
            word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
        ]);
        if bits & 0x8080_8080_8080_8080 != 0 {
            rest = &chunk[i * 8..];
            break;
        }
        counts.code_points += 8;
        counts.utf16 += 8;
    }
    if rest.is_empty() {
        rest = words.remainder();
    }
    // Branch-free: the counts of one byte are 0 or 1 each.
    for &b in rest {
        let starts_char = u32::from(!is_continuation(b));
        counts.code_points += starts_char;
        counts.utf16 += starts_char + u32::from(b >= 0xF0);
    }
    counts
}

/// UTF-16 units of the character whose UTF-8 encoding starts with `lead`.
fn utf16_len(lead: u8) -> usize {
    if lead >= 0xF0 { 2 } else { 1 }
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

fn is_boundary(text: &[u8], byte: usize) -> bool {
    byte == text.len() || (byte < text.len() && !is_continuation(text[byte]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_text_maps_every_unit_to_the_byte_offset() {
        let map = OffsetMap::new("abc [1]");
        for i in 0..=7 {
            assert_eq!(map.to_unit(i, Unit::Utf16), Some(i));
            assert_eq!(map.to_byte(i, Unit::CodePoint), Some(i));
        }
        assert_eq!(map.to_unit(8, Unit::Utf16), None);
    }

    #[test]
    fn positions_inside_a_character_are_rejected() {
        let text = "a😀b";
        let map = OffsetMap::new(text);
        assert_eq!(map.to_unit(2, Unit::Utf16), None);
        assert_eq!(
            map.to_byte(2, Unit::Utf16),
            None,
            "between surrogate halves"
        );
        assert_eq!(map.to_byte(3, Unit::Utf16), Some(5));
        assert_eq!(map.to_byte(2, Unit::CodePoint), Some(5));
        assert_eq!(map.len(Unit::Utf16), 4);
        assert_eq!(map.len(Unit::CodePoint), 3);
    }

    #[test]
    fn long_multibyte_text_crosses_block_boundaries() {
        let text = "日本語😀e\u{301}\r\n".repeat(50);
        let map = OffsetMap::new(&text);
        let mut utf16 = 0;
        for (cps, (byte, ch)) in text.char_indices().enumerate() {
            assert_eq!(map.to_unit(byte, Unit::Utf16), Some(utf16));
            assert_eq!(map.to_unit(byte, Unit::CodePoint), Some(cps));
            assert_eq!(map.to_byte(utf16, Unit::Utf16), Some(byte));
            assert_eq!(map.to_byte(cps, Unit::CodePoint), Some(byte));
            utf16 += ch.len_utf16();
        }
        assert_eq!(map.to_unit(text.len(), Unit::Utf16), Some(utf16));
        assert_eq!(map.to_byte(utf16, Unit::Utf16), Some(text.len()));
    }
}
