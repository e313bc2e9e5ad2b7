//! The hash sets support scoring compares against: a source's terms and word pairs
//! ([`Members`], gathered by a [`Collector`]; its terms become the keys of a
//! [`Postings`] to the sentences holding each), which sources hold each term
//! ([`Postings`] again), and the vocabulary of the claims a scorer is built for
//! ([`Vocabulary`]).
//!
//! The probes are `#[inline]`, a hint and not `always`: the full module (opt-level 2)
//! still inlines most of them, the size-built browser core keeps them as calls, 0.7 KB
//! gzip smaller. Only what the scan of a source calls for every word (the vocabulary
//! filter and the collector) is `always`: as calls, the core's `validate`
//! with support took about 5 % longer (docs/perf-log.md, issue 35).

/// A set of (well-mixed) hashes: open addressing with linear probing in a power-of-two
/// table. Building it is one pass with no sort; a lookup is a probe or two. The default
/// set has no slots: it holds nothing and takes no item until
/// [`HashList::clear_with_room`] sizes it.
#[derive(Clone, Debug, Default)]
pub(super) struct HashList {
    /// Slots hold the items (the item 0 as 1, see [`HashList::key`]); 0 marks an empty slot.
    slots: Vec<u64>,
}

impl HashList {
    /// The set of `items`, in a table with room for `room` items (see
    /// [`HashList::with_room`]; `room` at least the number of items).
    pub(super) fn from(items: &[u64], room: usize) -> HashList {
        let mut set = HashList::with_room(room);
        for &item in items {
            set.insert(item);
        }
        set
    }

    /// An empty set with room for `items` items (the table never grows): a power of two
    /// of slots, at least 1.5 per item. (Two per item zeroed more than the shorter
    /// probes saved: +12 K instructions on a typical request, docs/perf-log.md.)
    pub(super) fn with_room(items: usize) -> HashList {
        HashList {
            slots: vec![0; HashList::slots_for(items)],
        }
    }

    /// The slots of a table with room for `items` items.
    fn slots_for(items: usize) -> usize {
        (items + items / 2).next_power_of_two().max(8)
    }

    /// Empties the set, with room for `items` items as [`HashList::with_room`] gives:
    /// a table of that size is kept, so a set emptied for each of many texts of a size
    /// is not allocated again for each.
    pub(super) fn clear_with_room(&mut self, items: usize) {
        let slots = HashList::slots_for(items);
        if self.slots.len() == slots {
            self.slots.fill(0);
        } else {
            self.slots = vec![0; slots];
        }
    }

    /// The non-zero key stored for `item` (0 is the empty marker).
    #[inline]
    fn key(item: u64) -> u64 {
        if item == 0 { 1 } else { item }
    }

    /// The set of `items`, repeats allowed, in a table at most half full of the
    /// distinct ones: it doubles as it fills, so a list repeating a few items many
    /// times (every claim's "value") is kept in a table sized by what is distinct. Sized
    /// by the count with repeats, the vocabulary of 4,000 claims of a template (issue
    /// 35's storm: 170,890 hashes, 21,558 distinct) took 4 MB, whose probes left the
    /// cache, so the time per claim grew with the request. It starts with room for
    /// `room` items (see [`HashList::with_room`]): a quarter of the items for the
    /// sources holding each term. When each source's term set was built this way, a
    /// quarter grew it once or twice, where growing from nothing took a typical request
    /// 8.6 % longer (docs/perf-log.md).
    pub(super) fn distinct(items: impl Iterator<Item = u64>, room: usize) -> HashList {
        let mut set = HashList::with_room(room);
        let mut len = 0;
        for item in items {
            if set.insert(item) {
                len += 1;
                if len * 2 > set.slots.len() {
                    let grown = vec![0; set.slots.len() * 2];
                    let old = std::mem::replace(&mut set.slots, grown);
                    for key in old.into_iter().filter(|&k| k != 0) {
                        set.insert(key);
                    }
                }
            }
        }
        set
    }

    /// Adds `item`; false when it was there already. The table never fills up: it is
    /// sized for all items at creation (or grown before, by [`HashList::distinct`]).
    pub(super) fn insert(&mut self, item: u64) -> bool {
        let key = HashList::key(item);
        let mask = self.slots.len() - 1;
        let mut at = (key as usize) & mask;
        while self.slots[at] != 0 && self.slots[at] != key {
            at = (at + 1) & mask;
        }
        let new = self.slots[at] == 0;
        self.slots[at] = key;
        new
    }

    #[inline]
    pub(super) fn contains(&self, item: &u64) -> bool {
        self.position(*item).is_some()
    }

    /// The slot holding `item`: a number below `slots.len()` that no other item has
    /// (items 0 and 1 share key 1, see [`HashList::key`]). One branch per slot read, on
    /// "this slot decides" (it holds the item or is empty): for an item found, and for
    /// most missing ones in a sparse table, the first slot does, so the branch is
    /// mostly predicted; whether the item is there is a value, not a branch. Two
    /// branches per slot (empty? the item?) went each way as often as the claims' hashes
    /// are found in a source, which no predictor guesses: this form took claim support
    /// on real answers 0.959-0.970x the time (docs/perf-log.md, "A sieve for the
    /// sources' 5-grams", whose 5-grams are gone since).
    #[inline]
    fn position(&self, item: u64) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let key = HashList::key(item);
        let mut at = (key as usize) & mask;
        loop {
            let slot = self.slots[at];
            if slot == key || slot == 0 {
                return (slot == key).then_some(at);
            }
            at = (at + 1) & mask;
        }
    }
}

/// The hashes of one kind (terms or pairs) a source holds — for a scorer
/// built for known claims, only those in their vocabulary. A set sized by what the
/// source holds, so profiling many sources costs their text, never sources ×
/// vocabulary.
pub(super) type Members = HashList;

impl HashList {
    /// The items stored, each once (the item 0 reads as 1, see [`HashList::key`]).
    pub(super) fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots.iter().copied().filter(|&k| k != 0)
    }
}

/// Gathers one kind of hashes of a text into [`Members`], keeping only the hashes of
/// the vocabulary when there is one. The hashes gather in a buffer the caller keeps
/// from text to text (cleared here), so profiling many sources does not grow a list
/// per source.
pub(super) struct Collector<'v, 'b> {
    keep: Option<&'v Vocabulary>,
    hashes: &'b mut Vec<u64>,
}

impl<'v, 'b> Collector<'v, 'b> {
    pub(super) fn new(keep: Option<&'v Vocabulary>, hashes: &'b mut Vec<u64>) -> Collector<'v, 'b> {
        hashes.clear();
        Collector { keep, hashes }
    }

    /// Records `h`; true when it is kept (always without a vocabulary).
    #[inline(always)]
    pub(super) fn add(&mut self, h: u64) -> bool {
        self.add_if(h, || true)
    }

    /// Records `h` when it is kept and `wanted()` (asked only then: most hashes of a
    /// source are not in the vocabulary); true when recorded.
    #[inline(always)]
    pub(super) fn add_if(&mut self, h: u64, wanted: impl FnOnce() -> bool) -> bool {
        let kept = self.keep.is_none_or(|vocabulary| vocabulary.holds(h)) && wanted();
        if kept {
            self.hashes.push(h);
        }
        kept
    }

    /// The set of the hashes recorded. Kept by a vocabulary, more than 64 of them get
    /// room for twice their number (a table at most a third full, not two thirds): the
    /// claims probe a source's sets with each of their hashes, most of which it lacks,
    /// and a sparser table ends a miss sooner. On the 153 ExpertQA answers with their
    /// sources, support took 0.955–0.960× the time; the typical request's sources keep fewer
    /// (its sentences share little with them), and a request of many short sources (the
    /// storm's) keeps its memory. Without a vocabulary a source keeps every hash, and
    /// tables that large cost more to clear and to cache than their misses save.
    pub(super) fn finish(self) -> Members {
        let kept = self.hashes.len();
        let room = if self.keep.is_some() && kept > 64 {
            2 * kept
        } else {
            kept
        };
        HashList::from(self.hashes, room)
    }
}

/// Key → the items (sources, or sentences of a source) holding it, in the order they
/// were given: a compressed table built in three linear passes, with no sort and no
/// general-purpose hash map.
#[derive(Clone, Debug)]
pub(super) struct Postings {
    keys: HashList,
    /// `items[offsets[slot]..offsets[slot + 1]]` for the key in `slot`.
    offsets: Vec<u32>,
    items: Vec<u32>,
}

impl Postings {
    /// The table of `pairs` (key, item).
    pub(super) fn new(pairs: &[(u64, u32)]) -> Postings {
        let keys = HashList::distinct(pairs.iter().map(|&(key, _)| key), pairs.len() / 4);
        Postings::with_keys(keys, pairs)
    }

    /// The table of `pairs` over `keys`, a set holding every pair's key: a source's
    /// content terms, for the sentences holding each, with no second set of the same
    /// keys built (and grown as it filled) for them (docs/perf-log.md, "One set for a
    /// source's terms").
    pub(super) fn with_keys(keys: HashList, pairs: &[(u64, u32)]) -> Postings {
        // A counting sort in place: `offsets[slot]` counts the slot's items, then ends
        // its run, then (filled from the back) starts it.
        let mut offsets = vec![0u32; keys.slots.len() + 1];
        for &(key, _) in pairs {
            if let Some(at) = keys.position(key) {
                offsets[at] += 1;
            }
        }
        for at in 1..offsets.len() {
            offsets[at] += offsets[at - 1];
        }
        debug_assert_eq!(
            offsets.last().copied(),
            Some(pairs.len() as u32),
            "a key is missing"
        );
        let mut items = vec![0u32; pairs.len()];
        for &(key, item) in pairs.iter().rev() {
            if let Some(at) = keys.position(key) {
                offsets[at] -= 1;
                items[offsets[at] as usize] = item;
            }
        }
        Postings {
            keys,
            offsets,
            items,
        }
    }

    /// Whether some item holds `key`.
    #[inline]
    pub(super) fn contains(&self, key: &u64) -> bool {
        self.keys.contains(key)
    }

    /// The keys held, each once (the key 0 reads back as 1, see [`HashList::key`]).
    pub(super) fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.keys.keys()
    }

    /// The items holding `key` (none when no item does).
    #[inline]
    pub(super) fn get(&self, key: u64) -> &[u32] {
        match self.keys.position(key) {
            Some(at) => &self.items[self.offsets[at] as usize..self.offsets[at + 1] as usize],
            None => &[],
        }
    }
}

/// The hashes a scorer will be asked about, with a one-bit-per-slot filter in front:
/// most hashes of a source are not in it, and one bit test (in a table that fits the
/// L1 cache) turns them away without probing the set. In front of that, a filter of the
/// claims' leads ([`LeadKey`]: their content terms' first bytes, `words::lead`, and
/// those of their word pairs' two words): a source's word none of whose keys it holds
/// is not stemmed or hashed at all.
#[derive(Debug)]
pub(super) struct Vocabulary {
    set: HashList,
    bits: Bits,
    leads: LeadFilter,
}

impl Vocabulary {
    /// Filter bits per hash in the set (false positives ≈ 1 in this many).
    const BITS_PER_ITEM: usize = 32;

    /// Hashes the table has room for before it grows, at most (see [`Vocabulary::new`]).
    const ROOM: usize = 8192;

    /// The vocabulary of `hashes`, the terms and word pairs of claims whose content
    /// terms and word pairs have the lead keys `leads`.
    pub(super) fn new(hashes: Vec<u64>, leads: &[LeadKey]) -> Vocabulary {
        // Room for as many distinct hashes as there are hashes (a typical request's
        // claims repeat few), up to [`Vocabulary::ROOM`]: the table, kept at most half
        // full, grows at most once for claims that repeat nothing, and by what is
        // distinct for claims repeating a template.
        let room = hashes.len().min(Vocabulary::ROOM);
        let set = HashList::distinct(hashes.iter().copied(), room);
        // Half the table's slots bound the distinct hashes from above.
        let words = (set.slots.len() / 2 * Vocabulary::BITS_PER_ITEM / 64)
            .next_power_of_two()
            .max(1);
        let mut bits = Bits::new(words * 64);
        for &h in &hashes {
            bits.set(Vocabulary::bit(h, words * 64 - 1));
        }
        Vocabulary {
            set,
            bits,
            leads: LeadFilter::new(leads),
        }
    }

    /// Whether a word with this lead may have a content term of the vocabulary (false:
    /// no claim's content term has its lead, so none is its term).
    #[inline(always)]
    pub(super) fn may_term(&self, lead: u32) -> bool {
        self.leads.holds(LeadKey::term(lead))
    }

    /// Whether two words in a row with these leads may make a word pair of the
    /// vocabulary (false: no claim's word pair has their leads, so theirs is none).
    #[inline(always)]
    pub(super) fn may_pair(&self, first: u32, second: u32) -> bool {
        self.leads.holds(LeadKey::pair(first, second))
    }

    /// The filter bit of `h` among `mask + 1`: from its high bits (the set's slots use
    /// the low ones).
    #[inline(always)]
    fn bit(h: u64, mask: usize) -> usize {
        (h >> 40) as usize & mask
    }

    /// Whether `h` is in the vocabulary: one filter bit turns most hashes away, the
    /// others probe the set.
    #[inline(always)]
    pub(super) fn holds(&self, h: u64) -> bool {
        self.bits.get(Vocabulary::bit(h, self.bits.len() - 1)) && self.set.contains(&h)
    }
}

/// What the lead filter holds of a claim: the lead of a content term, or the leads of
/// the two words of a word pair. A source's word is read in full only when its lead is
/// a content term's, or makes a pair's with the word before it or the word after it
/// (then read when that word comes). Most of a source's words are stopwords ("the",
/// "of") whose leads the claims' stopwords have: when any claim word's lead let a word
/// through, 45 % of the typical request's source words were read; with these keys, 17 %
/// when met and 4 % more for the word after (docs/perf-log.md, "Leads of word pairs").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LeadKey(u64);

impl LeadKey {
    /// The key of a content term with `lead`. A lead is below 2^26 (three bytes and
    /// their count, `words::lead`), so the bit 31 set here is set in no pair's key's
    /// low half, and the two kinds never share a key.
    #[inline(always)]
    pub(super) fn term(lead: u32) -> LeadKey {
        LeadKey(u64::from(lead) | 1 << 31)
    }

    /// The key of a word pair whose first word has the lead `first`, its second `second`.
    #[inline(always)]
    pub(super) fn pair(first: u32, second: u32) -> LeadKey {
        LeadKey(u64::from(first) << 32 | u64::from(second))
    }
}

/// A set of [`LeadKey`]s as one bit each in a table of 64 bits per key given, from
/// 1,024 to at most 131,072 bits (16 KB): a key not in the set finds its bit clear but
/// for about one in 64 or fewer. Each word not wanted for its term is tested twice (its
/// term, its pair with the word before): at 16 bits a key, the typical request's
/// sources had 481 words read where they have 325 at 64. More keys than the largest
/// table holds that well (the claims of a storm) only let more words through.
#[derive(Debug)]
struct LeadFilter {
    bits: Bits,
    /// 64 less the table's bits in log 2: a key's bit is the top bits of its product
    /// with an odd constant.
    shift: u32,
}

impl LeadFilter {
    fn new(keys: &[LeadKey]) -> LeadFilter {
        let size = (keys.len() * 64)
            .clamp(1 << 10, 1 << 17)
            .next_power_of_two();
        let mut filter = LeadFilter {
            bits: Bits::new(size),
            shift: 64 - size.trailing_zeros(),
        };
        for &key in keys {
            filter.bits.set(filter.bit(key));
        }
        filter
    }

    #[inline(always)]
    fn bit(&self, key: LeadKey) -> usize {
        (key.0.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    #[inline(always)]
    fn holds(&self, key: LeadKey) -> bool {
        self.bits.get(self.bit(key))
    }
}

/// A table of bits, a multiple of 64 of them, all clear at first: the filters in front
/// of the vocabulary, and the common words' fingerprints (`stopwords::CommonTerms`).
#[derive(Debug, PartialEq)]
pub(super) struct Bits(Vec<u64>);

impl Bits {
    pub(super) fn new(bits: usize) -> Bits {
        Bits(vec![0; bits.div_ceil(64)])
    }

    /// How many bits the table holds.
    fn len(&self) -> usize {
        self.0.len() * 64
    }

    pub(super) fn set(&mut self, bit: usize) {
        self.0[bit / 64] |= 1 << (bit % 64);
    }

    /// Whether `bit` is set (false past the table's end).
    #[inline(always)]
    pub(super) fn get(&self, bit: usize) -> bool {
        self.0
            .get(bit / 64)
            .is_some_and(|word| word & (1 << (bit % 64)) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_of_repeated_items_is_sized_by_a_quarter_of_them_or_the_distinct_ones() {
        // 3 distinct of 10,000: room for a quarter (2,500 at 1.5 slots each), a quarter
        // of the table sized by the count with repeats.
        let items: Vec<u64> = (0..10_000).map(|i| [0, 7, u64::MAX][i % 3]).collect();
        let set = HashList::distinct(items.iter().copied(), items.len() / 4);
        assert_eq!(set.slots.len(), 4_096);
        assert_eq!(HashList::from(&items, items.len()).slots.len(), 16_384);
        assert!([0, 7, u64::MAX].iter().all(|h| set.contains(h)));
        assert!(!set.contains(&8));
        // 1,000 distinct: grown from 512 slots to stay at most half full.
        let spread = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let many: Vec<u64> = (0..1_000).map(spread).collect();
        let set = HashList::distinct(many.iter().copied(), many.len() / 4);
        assert_eq!(set.slots.len(), 2_048);
        assert!(many.iter().all(|h| set.contains(h)));
    }

    #[test]
    fn a_source_set_is_sparser_only_when_a_vocabulary_kept_more_than_64_hashes() {
        let spread = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let hashes: Vec<u64> = (1..=200).map(spread).collect();
        let vocabulary = Vocabulary::new(hashes.clone(), &[]);
        let slots = |keep: Option<&Vocabulary>, n: usize| {
            let mut buffer = Vec::new();
            let mut collector = Collector::new(keep, &mut buffer);
            for &h in &hashes[..n] {
                assert!(collector.add(h));
            }
            let set = collector.finish();
            assert!(hashes[..n].iter().all(|h| set.contains(h)));
            set.slots.len()
        };
        // 100 kept by a vocabulary: room for 200 (a table at most a third full).
        assert_eq!(slots(Some(&vocabulary), 100), 512);
        // 64 or fewer, or no vocabulary: room for their number, as any set.
        assert_eq!(slots(Some(&vocabulary), 64), 128);
        assert_eq!(slots(None, 100), 256);
    }

    #[test]
    fn a_lookup_follows_a_chain_of_collisions_around_the_end_of_the_table() {
        // 8 slots: 7, 15 and 23 all start at the last slot and fill 7, 0 and 1.
        let set = HashList::from(&[7, 15, 23], 4);
        assert_eq!(set.slots.len(), 8);
        assert_eq!(set.slots[..2], [15, 23]);
        assert!([7, 15, 23].iter().all(|h| set.contains(h)));
        // Absent, starting in the chain: found missing at the empty slot 2.
        assert!(!set.contains(&31));
        assert!(!set.contains(&8));
        // Absent, starting at an empty slot.
        assert!(!set.contains(&3));
        assert!(!HashList { slots: Vec::new() }.contains(&7));
    }

    #[test]
    fn postings_over_a_given_set_read_its_keys() {
        // A source's terms (10, 11, 0) and the sentences holding them, once per
        // occurrence: the table reads the set it is given, which it keeps.
        let terms = HashList::from(&[10, 11, 0, 10], 4);
        let postings = Postings::with_keys(terms.clone(), &[(10, 0), (11, 1), (10, 2), (0, 2)]);
        assert_eq!(postings.keys.slots, terms.slots);
        assert_eq!(postings.get(10), [0, 2]);
        assert_eq!((postings.get(11), postings.get(0)), (&[1][..], &[2][..]));
        assert!(postings.contains(&0) && !postings.contains(&12));
        let mut keys: Vec<u64> = postings.keys().collect();
        keys.sort_unstable();
        assert_eq!(keys, [1, 10, 11], "0 is stored as 1");
    }

    #[test]
    fn postings_of_repeated_keys_keep_every_item() {
        let pairs: Vec<(u64, u32)> = (0..1_000u32).map(|i| (u64::from(i % 4) + 10, i)).collect();
        let postings = Postings::new(&pairs);
        assert_eq!(
            postings.keys.slots.len(),
            512,
            "room for a quarter of 1,000"
        );
        let tens: Vec<u32> = (0..1_000).filter(|i| i % 4 == 0).collect();
        assert_eq!(postings.get(10), tens);
        assert_eq!(postings.get(9), &[] as &[u32]);
    }
}
