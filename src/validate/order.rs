//! A stable order by key for the validator's findings and spans, in one small function.

/// The indices of `keys` in ascending key order, equal keys in their original order: a
/// bottom-up merge sort. It stands in for std's `sort_by_key`, which the validator used
/// for findings and spans: each std instantiation of a stable sort adds ≈ 5 KB to the
/// wasm module, this one function serves every caller (docs/perf-log.md, size).
pub(super) fn stable_order(keys: &[(usize, usize)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    if keys.is_sorted() {
        return order;
    }
    let mut merged = order.clone();
    let mut width = 1;
    while width < order.len() {
        for (start, out) in (0..order.len())
            .step_by(2 * width)
            .zip(merged.chunks_mut(2 * width))
        {
            let run = &order[start..start + out.len()];
            let (left, right) = run.split_at(width.min(run.len()));
            let (mut l, mut r) = (0, 0);
            for slot in out {
                // Take from the left run on ties: that keeps equal keys in order.
                let take_left =
                    r == right.len() || (l < left.len() && keys[left[l]] <= keys[right[r]]);
                if take_left {
                    *slot = left[l];
                    l += 1;
                } else {
                    *slot = right[r];
                    r += 1;
                }
            }
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// `items` rearranged so that the `i`th item is the one at `order[i]` (`order` holds
/// every index once, as [`stable_order`] returns it).
pub(super) fn arrange<T>(items: Vec<T>, order: &[usize]) -> Vec<T> {
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    order.iter().filter_map(|&i| slots[i].take()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys with many ties (so stability shows), from a fixed xorshift sequence.
    fn keys(count: usize, seed: u32) -> Vec<(usize, usize)> {
        let mut state = seed;
        (0..count)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                ((state % 7) as usize, (state / 7 % 3) as usize)
            })
            .collect()
    }

    #[test]
    fn stable_order_is_std_stable_sort() {
        for count in [0, 1, 2, 3, 5, 8, 13, 64, 100, 1000] {
            for seed in [1, 7, 0x9e37_79b9] {
                let keys = keys(count, seed);
                let mut expected: Vec<usize> = (0..count).collect();
                expected.sort_by_key(|&i| keys[i]);
                assert_eq!(stable_order(&keys), expected, "{count} keys, seed {seed}");
            }
        }
    }

    #[test]
    fn arrange_moves_every_item_to_its_place() {
        let items = vec!["a".to_string(), "b".into(), "c".into(), "d".into()];
        assert_eq!(arrange(items, &[2, 0, 3, 1]), ["c", "a", "d", "b"]);
    }
}
