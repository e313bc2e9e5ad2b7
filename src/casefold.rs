//! Lower-casing for text comparison (quote location, support scoring) with a small
//! table: the runs of Unicode's simple lowercase mapping, 185 runs instead of the
//! standard library's per-character table (about 10 KB less in the .wasm).

/// Runs of the lowercase mapping for non-ASCII characters, as three columns: every
/// `STEP[i]`-th character from `FIRST[i]` to `FIRST[i] + LENGTH[i]` lowercases to itself
/// plus `DELTA[i]`. Generated from `char::to_lowercase` (the test below regenerates and
/// compares). Columns rather than rows of four `u32`s: 1.9 KB instead of 3 KB, with
/// alike bytes next to each other, which gzip packs better.
#[rustfmt::skip]
const FIRST: [u32; 185] = [
    0x000c0, 0x000d8, 0x00100, 0x00130, 0x00132, 0x00139, 0x0014a, 0x00178,
    0x00179, 0x00181, 0x00182, 0x00186, 0x00187, 0x00189, 0x0018b, 0x0018e,
    0x0018f, 0x00190, 0x00191, 0x00193, 0x00194, 0x00196, 0x00197, 0x00198,
    0x0019c, 0x0019d, 0x0019f, 0x001a0, 0x001a6, 0x001a7, 0x001a9, 0x001ac,
    0x001ae, 0x001af, 0x001b1, 0x001b3, 0x001b7, 0x001b8, 0x001bc, 0x001c4,
    0x001c5, 0x001c7, 0x001c8, 0x001ca, 0x001cb, 0x001de, 0x001f1, 0x001f2,
    0x001f6, 0x001f7, 0x001f8, 0x00220, 0x00222, 0x0023a, 0x0023b, 0x0023d,
    0x0023e, 0x00241, 0x00243, 0x00244, 0x00245, 0x00246, 0x00370, 0x00376,
    0x0037f, 0x00386, 0x00388, 0x0038c, 0x0038e, 0x00391, 0x003a3, 0x003cf,
    0x003d8, 0x003f4, 0x003f7, 0x003f9, 0x003fa, 0x003fd, 0x00400, 0x00410,
    0x00460, 0x0048a, 0x004c0, 0x004c1, 0x004d0, 0x00531, 0x010a0, 0x010c7,
    0x010cd, 0x013a0, 0x013f0, 0x01c89, 0x01c90, 0x01cbd, 0x01e00, 0x01e9e,
    0x01ea0, 0x01f08, 0x01f18, 0x01f28, 0x01f38, 0x01f48, 0x01f59, 0x01f68,
    0x01f88, 0x01f98, 0x01fa8, 0x01fb8, 0x01fba, 0x01fbc, 0x01fc8, 0x01fcc,
    0x01fd8, 0x01fda, 0x01fe8, 0x01fea, 0x01fec, 0x01ff8, 0x01ffa, 0x01ffc,
    0x02126, 0x0212a, 0x0212b, 0x02132, 0x02160, 0x02183, 0x024b6, 0x02c00,
    0x02c60, 0x02c62, 0x02c63, 0x02c64, 0x02c67, 0x02c6d, 0x02c6e, 0x02c6f,
    0x02c70, 0x02c72, 0x02c75, 0x02c7e, 0x02c80, 0x02ceb, 0x02cf2, 0x0a640,
    0x0a680, 0x0a722, 0x0a732, 0x0a779, 0x0a77d, 0x0a77e, 0x0a78b, 0x0a78d,
    0x0a790, 0x0a796, 0x0a7aa, 0x0a7ab, 0x0a7ac, 0x0a7ad, 0x0a7ae, 0x0a7b0,
    0x0a7b1, 0x0a7b2, 0x0a7b3, 0x0a7b4, 0x0a7c4, 0x0a7c5, 0x0a7c6, 0x0a7c7,
    0x0a7cb, 0x0a7cc, 0x0a7dc, 0x0a7f5, 0x0ff21, 0x10400, 0x104b0, 0x10570,
    0x1057c, 0x1058c, 0x10594, 0x10c80, 0x10d50, 0x118a0, 0x16e40, 0x16ea0,
    0x1e900,
];
/// `last − first` of each run (at most 148).
#[rustfmt::skip]
const LENGTH: [u8; 185] = [
    22, 6, 46, 0, 4, 14, 44, 0, 4, 0, 2, 0, 0, 1, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0,
    0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 16, 16, 0, 2,
    0, 0, 38, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 8, 2, 0,
    0, 0, 2, 0, 1, 16, 8, 0, 22, 0, 0, 0, 0, 2, 15, 31,
    32, 52, 0, 12, 94, 37, 37, 0, 0, 79, 5, 0, 42, 2, 148, 0,
    94, 7, 5, 7, 7, 5, 6, 7, 7, 7, 7, 1, 1, 0, 3, 0,
    1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 15, 0, 25, 47,
    0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 1, 98, 2, 0, 44,
    26, 12, 60, 2, 0, 8, 0, 0, 2, 18, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 14, 0, 0, 0, 2, 0, 14, 0, 0, 25, 39, 35, 10,
    14, 6, 1, 50, 21, 31, 31, 24, 33,
];
/// 1 or 2.
#[rustfmt::skip]
const STEP: [u8; 185] = [
    1, 1, 2, 1, 2, 2, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 2,
    1, 1, 2, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    2, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1,
    2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 2,
    2, 2, 2, 2, 1, 2, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 2,
    1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
];
#[rustfmt::skip]
const DELTA: [i32; 185] = [
    32, 32, 1, -199, 1, 1, 1, -121, 1, 210, 1, 206,
    1, 205, 1, 79, 202, 203, 1, 205, 207, 211, 209, 1,
    211, 213, 214, 1, 218, 1, 218, 1, 218, 1, 217, 1,
    219, 1, 1, 2, 1, 2, 1, 2, 1, 1, 2, 1,
    -97, -56, 1, -130, 1, 10795, 1, -163, 10792, 1, -195, 69,
    71, 1, 1, 1, 116, 38, 37, 64, 63, 32, 32, 8,
    1, -60, 1, -7, 1, -130, 80, 32, 1, 1, 15, 1,
    1, 48, 7264, 7264, 7264, 38864, 8, 1, -3008, -3008, 1, -7615,
    1, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8,
    -74, -9, -86, -9, -8, -100, -8, -112, -7, -128, -126, -9,
    -7517, -8383, -8262, 28, 16, 1, 26, 48, 1, -10743, -3814, -10727,
    1, -10780, -10749, -10783, -10782, 1, 1, -10815, 1, 1, 1, 1,
    1, 1, 1, 1, -35332, 1, 1, -42280, 1, 1, -42308, -42319,
    -42315, -42305, -42308, -42258, -42282, -42261, 928, 1, -48, -42307, -35384, 1,
    -42343, 1, -42561, 1, 32, 40, 40, 39, 39, 39, 39, 64,
    32, 32, 32, 27, 34,
];

/// `c` in lower case: Unicode's lowercase mapping, reduced to its first character where
/// it has several (only `İ` U+0130, which becomes `i`).
pub(crate) fn fold_case(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let cp = c as u32;
    let Some(i) = FIRST.partition_point(|&first| first <= cp).checked_sub(1) else {
        return c;
    };
    let offset = cp - FIRST[i];
    if offset > u32::from(LENGTH[i]) || offset % u32::from(STEP[i]) != 0 {
        return c;
    }
    char::from_u32(cp.wrapping_add_signed(DELTA[i])).unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs as `char::to_lowercase` gives them today.
    fn runs_from_std() -> Vec<(u32, u32, u32, i32)> {
        let mut runs: Vec<(u32, u32, u32, i32)> = Vec::new();
        for c in (0x80..=0x10FFFF).filter_map(char::from_u32) {
            let lower = c.to_lowercase().next().unwrap_or(c);
            if lower == c {
                continue;
            }
            let (cp, delta) = (c as u32, lower as i32 - c as i32);
            if let Some(run) = runs.last_mut() {
                let (first, last, step, d) = *run;
                let gap = cp - last;
                if d == delta && (first == last && gap <= 2 || first != last && gap == step) {
                    *run = (first, cp, gap, d);
                    continue;
                }
            }
            runs.push((cp, cp, 1, delta));
        }
        runs
    }

    #[test]
    fn the_table_is_the_standard_mapping() {
        let runs = runs_from_std();
        let table: Vec<(u32, u32, u32, i32)> = (0..FIRST.len())
            .map(|i| {
                let (first, length) = (FIRST[i], u32::from(LENGTH[i]));
                (first, first + length, u32::from(STEP[i]), DELTA[i])
            })
            .collect();
        assert_eq!(table, runs, "regenerate the columns from runs_from_std()");
    }

    #[test]
    fn every_character_folds_like_the_standard_library() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let expected = c.to_lowercase().next().unwrap_or(c);
            assert_eq!(fold_case(c), expected, "{:#x}", c as u32);
        }
    }
}
