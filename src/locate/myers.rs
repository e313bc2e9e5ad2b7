//! Myers' bit-parallel edit distance (Myers 1999) in Hyyrö's block form (Hyyrö 2003):
//! the pattern is split into 64-row blocks, so patterns of any length work, and each text
//! character costs O(⌈m / 64⌉) word operations. Patterns of up to three blocks (192
//! characters, nearly every quote) run with their vectors in registers.

/// The pattern compiled for Myers' algorithm: per character, a bit mask per 64-row block
/// of the rows where it occurs. ASCII characters index a flat table; others (rare in
/// quotes) are searched in a short list.
pub(super) struct BitPattern {
    len: usize,
    blocks: usize,
    /// `ascii[c * blocks + b]`: rows of block `b` holding ASCII character `c`.
    ascii: Vec<u64>,
    other: Vec<(char, Vec<u64>)>,
    zero: Vec<u64>,
}

impl BitPattern {
    pub(super) fn new(pattern: impl Iterator<Item = char> + Clone) -> BitPattern {
        let len = pattern.clone().count();
        let blocks = len.div_ceil(64);
        let mut ascii = vec![0u64; 128 * blocks];
        let mut other: Vec<(char, Vec<u64>)> = Vec::new();
        for (row, c) in pattern.enumerate() {
            let bit = 1 << (row % 64);
            if c.is_ascii() {
                ascii[c as usize * blocks + row / 64] |= bit;
            } else {
                match other.iter_mut().find(|(o, _)| *o == c) {
                    Some((_, masks)) => masks[row / 64] |= bit,
                    None => {
                        let mut masks = vec![0; blocks];
                        masks[row / 64] = bit;
                        other.push((c, masks));
                    }
                }
            }
        }
        BitPattern {
            len,
            blocks,
            ascii,
            other,
            zero: vec![0; blocks],
        }
    }

    /// The block masks of character `c`.
    fn masks(&self, c: char) -> &[u64] {
        if c.is_ascii() {
            let at = c as usize * self.blocks;
            &self.ascii[at..at + self.blocks]
        } else {
            self.other
                .iter()
                .find(|(o, _)| *o == c)
                .map_or(&self.zero, |(_, m)| m)
        }
    }

    /// Runs the columns of `text`. `anchored`: the alignment must start at text position
    /// 0 (the top row grows by one per column) instead of anywhere (top row all zero).
    /// Calls `column(j, score)` with the edit distance of the whole pattern ending
    /// after text character `j`; stops when it returns false. Patterns of up to three
    /// blocks (nearly every quote) keep their vectors in arrays of that length, so they
    /// live in registers and the block loop is unrolled; longer ones in vectors.
    fn run(&self, text: &[char], anchored: bool, column: impl FnMut(usize, usize) -> bool) {
        match self.blocks {
            1 => self.run_in([(!0, 0); 1], text, anchored, column),
            2 => self.run_in([(!0, 0); 2], text, anchored, column),
            3 => self.run_in([(!0, 0); 3], text, anchored, column),
            n => self.run_in(vec![(!0, 0); n], text, anchored, column),
        }
    }

    /// [`run`](Self::run) with the vertical +1 and −1 deltas of each block held in
    /// `deltas` (one pair of words per block, starting all +1 and all 0).
    fn run_in(
        &self,
        mut deltas: impl AsMut<[(u64, u64)]>,
        text: &[char],
        anchored: bool,
        mut column: impl FnMut(usize, usize) -> bool,
    ) {
        let deltas = deltas.as_mut();
        let blocks = deltas.len();
        let last_bit = (self.len - 1) % 64;
        let mut score = self.len as isize;
        for (j, &c) in text.iter().enumerate() {
            let eqs = self.masks(c);
            let mut carry = i32::from(anchored);
            for (b, (plus, minus)) in deltas.iter_mut().enumerate() {
                let out_bit = if b + 1 == blocks { last_bit } else { 63 };
                carry = advance_block(plus, minus, eqs[b], carry, out_bit);
            }
            score += carry as isize;
            if !column(j, score.max(0) as usize) {
                return;
            }
        }
    }

    /// The least distance over all end positions, and the first end (exclusive) where
    /// it occurs. Stops at the first exact end: nothing can beat it.
    pub(super) fn search(&self, text: &[char], anchored: bool) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize)> = None;
        self.run(text, anchored, |j, score| {
            if best.is_none_or(|(d, _)| score < d) {
                best = Some((score, j + 1));
            }
            score > 0
        });
        best
    }

    /// The shortest text prefix the pattern aligns to (anchored) with `distance` edits
    /// or fewer.
    pub(super) fn first_end_with(&self, text: &[char], distance: usize) -> Option<usize> {
        if self.len <= distance {
            return Some(0);
        }
        let mut found = None;
        self.run(text, true, |j, score| {
            if score <= distance {
                found = Some(j + 1);
                false
            } else {
                true
            }
        });
        found
    }
}

/// One 64-row block of one column (Myers 1999, Hyyrö 2003). `carry` is the horizontal
/// delta entering at the block's top row; returns the delta leaving at row `out_bit`.
fn advance_block(plus: &mut u64, minus: &mut u64, eq: u64, carry: i32, out_bit: usize) -> i32 {
    let (pv, mv) = (*plus, *minus);
    let eq = eq | u64::from(carry < 0);
    let xv = eq | mv;
    let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
    let mut ph = mv | !(xh | pv);
    let mut mh = pv & xh;
    let out = ((ph >> out_bit) & 1) as i32 - ((mh >> out_bit) & 1) as i32;
    ph <<= 1;
    mh <<= 1;
    if carry < 0 {
        mh |= 1;
    } else if carry > 0 {
        ph |= 1;
    }
    *plus = mh | !(xv | ph);
    *minus = ph & xv;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain dynamic programming: the reference for the bit-parallel search.
    fn reference_distance(pattern: &[char], text: &[char]) -> usize {
        let mut row: Vec<usize> = (0..=pattern.len()).collect();
        let mut best = row[pattern.len()];
        for &c in text {
            let mut diag = row[0];
            row[0] = 0;
            for i in 1..=pattern.len() {
                let up = row[i];
                row[i] = (diag + usize::from(pattern[i - 1] != c))
                    .min(row[i - 1] + 1)
                    .min(up + 1);
                diag = up;
            }
            best = best.min(row[pattern.len()]);
        }
        best
    }

    #[test]
    fn bit_parallel_distance_matches_dynamic_programming_across_block_sizes() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for &m in &[1usize, 5, 63, 64, 65, 130, 200] {
            for _ in 0..20 {
                let pattern: Vec<char> = (0..m)
                    .map(|_| (b'a' + (next() % 4) as u8) as char)
                    .collect();
                let text: Vec<char> = (0..(m + 40))
                    .map(|_| (b'a' + (next() % 4) as u8) as char)
                    .collect();
                let bits = BitPattern::new(pattern.iter().copied())
                    .search(&text, false)
                    .unwrap()
                    .0;
                assert_eq!(bits, reference_distance(&pattern, &text), "m = {m}");
            }
        }
    }
}
