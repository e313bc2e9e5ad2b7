//! Finding the first byte of a small set in text, sixteen bytes per step. In wasm the
//! comparisons are written with simd128 (`core::arch::wasm32`), so they stay vector
//! code whatever the optimisation level: the browser core is built for size
//! (`opt-level = "z"`, docs/architecture.md §9), at which LLVM does not vectorise a plain
//! loop. Natively they are plain code that LLVM turns into SSE2. The scanner skips to its
//! next interesting byte with it, the claim splitter to its next sentence terminator.

/// A set of at most a few bytes, with a lookup table for the byte-at-a-time tail.
pub(crate) struct ByteSet<const N: usize> {
    bytes: [u8; N],
    table: [bool; 256],
}

impl<const N: usize> ByteSet<N> {
    /// The set of `bytes`.
    pub(crate) const fn new(bytes: [u8; N]) -> ByteSet<N> {
        let mut table = [false; 256];
        let mut i = 0;
        while i < N {
            table[bytes[i] as usize] = true;
            i += 1;
        }
        ByteSet { bytes, table }
    }

    /// Whether `byte` is in the set.
    #[inline]
    pub(crate) fn contains(&self, byte: u8) -> bool {
        self.table[byte as usize]
    }

    /// The first position in `from..stop` whose byte is in the set, or `stop`.
    #[inline]
    pub(crate) fn find(&self, bytes: &[u8], from: usize, stop: usize) -> usize {
        let mut pos = from;
        while pos + 16 <= stop {
            let block: &[u8; 16] = match bytes[pos..pos + 16].try_into() {
                Ok(block) => block,
                Err(_) => break,
            };
            if let Some(at) = self.first_in(block) {
                return pos + at;
            }
            pos += 16;
        }
        while pos < stop && !self.contains(bytes[pos]) {
            pos += 1;
        }
        pos
    }

    /// The position of the first member in `block`, if any: one compare per member over
    /// all sixteen lanes, and the lanes that matched as a bit mask.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn first_in(&self, block: &[u8; 16]) -> Option<usize> {
        use core::arch::wasm32::{u8x16, u8x16_bitmask, u8x16_eq, u8x16_splat, v128_or};
        let b = block;
        let lanes = u8x16(
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
            b[14], b[15],
        );
        let mut hits = u8x16_splat(0);
        for &c in &self.bytes {
            hits = v128_or(hits, u8x16_eq(lanes, u8x16_splat(c)));
        }
        let mask = u8x16_bitmask(hits);
        (mask != 0).then(|| mask.trailing_zeros() as usize)
    }

    /// The position of the first member in `block`, if any (LLVM vectorises the
    /// comparisons; the position is then found byte by byte).
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    #[inline]
    fn first_in(&self, block: &[u8; 16]) -> Option<usize> {
        let mut any = 0u8;
        for &b in block {
            for &c in &self.bytes {
                any |= u8::from(b == c);
            }
        }
        if any == 0 {
            return None;
        }
        block.iter().position(|&b| self.contains(b))
    }
}

/// The lines of `text`, each with its line break: `str::split_inclusive('\n')` with the
/// line breaks found sixteen bytes at a time (the std search goes a word at a time, which
/// is four bytes in wasm32).
pub(crate) fn lines(text: &str) -> impl Iterator<Item = &str> {
    const NEWLINE: ByteSet<1> = ByteSet::new([b'\n']);
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let end = (NEWLINE.find(text.as_bytes(), start, text.len()) + 1).min(text.len());
        let line = text.get(start..end)?;
        start = end;
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use super::{ByteSet, lines};

    #[test]
    fn lines_are_split_inclusive() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "\n\nb",
            "one\r\ntwo\n\nthree 😀\n",
            &"x\n".repeat(40),
        ] {
            let expected: Vec<&str> = text.split_inclusive('\n').collect();
            assert_eq!(lines(text).collect::<Vec<_>>(), expected, "{text:?}");
        }
    }

    // Native only; the wasm suite's `a_marker_is_found_after_any_length_of_plain_text`
    // checks the simd128 code the same way, through the JS API.
    #[test]
    fn finds_the_first_member_at_every_position_and_alignment() {
        const SET: ByteSet<3> = ByteSet::new([b'.', b'?', 0xE3]);
        for len in 0..70 {
            for hit in 0..=len {
                let mut text = vec![b'a'; len];
                if hit < len {
                    text[hit] = if hit % 2 == 0 { b'?' } else { 0xE3 };
                }
                for from in 0..=hit.min(len) {
                    assert_eq!(SET.find(&text, from, len), hit, "len {len}, from {from}");
                }
                // `stop` bounds the search.
                assert_eq!(SET.find(&text, 0, hit), hit);
            }
        }
        assert!(SET.contains(b'.') && !SET.contains(b','));
    }
}
