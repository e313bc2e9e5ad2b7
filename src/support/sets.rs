//! The hash sets support scoring compares against: a source's terms, word pairs and
//! 5-grams ([`Members`], gathered by a [`Collector`]), and the vocabulary of the claims
//! a scorer is built for ([`Vocabulary`]).

/// A set of (well-mixed) hashes: open addressing with linear probing in a power-of-two
/// table. Building it is one pass with no sort; a lookup is a probe or two.
#[derive(Clone, Debug)]
pub(super) struct HashList {
    /// Slots hold `hash | 1`-style non-zero keys; 0 marks an empty slot.
    slots: Vec<u64>,
}

impl HashList {
    /// The set of `items`, in a table at most half full.
    pub(super) fn from(items: Vec<u64>) -> HashList {
        let mut set = HashList::with_room(items.len());
        for item in items {
            set.insert(item);
        }
        set
    }

    /// An empty set with room for `items` items (the table never grows).
    pub(super) fn with_room(items: usize) -> HashList {
        HashList {
            slots: vec![0; (items * 2).next_power_of_two().max(8)],
        }
    }

    /// The non-zero key stored for `item` (0 is the empty marker).
    #[inline(always)]
    fn key(item: u64) -> u64 {
        if item == 0 { 1 } else { item }
    }

    /// Adds `item`; false when it was there already. The table never fills up: it is
    /// sized for all items at creation.
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

    #[inline(always)]
    pub(super) fn contains(&self, item: &u64) -> bool {
        self.position(*item).is_some()
    }

    /// The slot holding `item`: a number below `slots.len()` that no other item has.
    #[inline(always)]
    fn position(&self, item: u64) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let key = HashList::key(item);
        let mask = self.slots.len() - 1;
        let mut at = (key as usize) & mask;
        while self.slots[at] != 0 {
            if self.slots[at] == key {
                return Some(at);
            }
            at = (at + 1) & mask;
        }
        None
    }
}

/// The key of a hash no source can hold (not in a scorer's vocabulary).
pub(super) const ABSENT: u64 = u64::MAX;

/// The hashes of one kind (terms, pairs or 5-grams) a source holds: all of them, or —
/// for a scorer built for known claims — those of its [`Vocabulary`], as one bit per
/// vocabulary slot. Asked by key: the hash itself, or its slot (`ABSENT` when none).
#[derive(Clone, Debug)]
pub(super) enum Members {
    Hashes(HashList),
    Slots(Vec<u64>),
}

impl Members {
    #[inline(always)]
    pub(super) fn contains(&self, key: u64) -> bool {
        match self {
            Members::Hashes(set) => set.contains(&key),
            Members::Slots(bits) => usize::try_from(key / 64)
                .ok()
                .and_then(|word| bits.get(word))
                .is_some_and(|word| word & 1 << (key % 64) != 0),
        }
    }
}

/// Gathers one kind of hashes of a text into [`Members`].
pub(super) enum Collector<'v> {
    Hashes(Vec<u64>),
    Slots(&'v Vocabulary, Vec<u64>),
}

impl<'v> Collector<'v> {
    pub(super) fn new(keep: Option<&'v Vocabulary>) -> Collector<'v> {
        match keep {
            None => Collector::Hashes(Vec::new()),
            Some(v) => Collector::Slots(v, vec![0; v.set.slots.len().div_ceil(64)]),
        }
    }

    /// Records `h`; true when it is kept (always without a vocabulary).
    #[inline(always)]
    pub(super) fn add(&mut self, h: u64) -> bool {
        match self {
            Collector::Hashes(hashes) => {
                hashes.push(h);
                true
            }
            Collector::Slots(vocabulary, bits) => {
                let slot = vocabulary.slot(h);
                if let Some(slot) = slot {
                    bits[slot / 64] |= 1 << (slot % 64);
                }
                slot.is_some()
            }
        }
    }

    pub(super) fn finish(self) -> Members {
        match self {
            Collector::Hashes(hashes) => Members::Hashes(HashList::from(hashes)),
            Collector::Slots(_, bits) => Members::Slots(bits),
        }
    }
}

/// The hashes a scorer will be asked about, with a one-bit-per-slot filter in front:
/// most hashes of a source are not in it, and one bit test (in a table that fits the
/// L1 cache) turns them away without probing the set.
#[derive(Clone, Debug)]
pub(super) struct Vocabulary {
    set: HashList,
    bits: Vec<u64>,
}

impl Vocabulary {
    /// Filter bits per hash in the set (false positives ≈ 1 in this many).
    const BITS_PER_ITEM: usize = 32;

    pub(super) fn new(hashes: Vec<u64>) -> Vocabulary {
        let words = (hashes.len() * Vocabulary::BITS_PER_ITEM / 64)
            .next_power_of_two()
            .max(1);
        let mut bits = vec![0u64; words];
        for &h in &hashes {
            let bit = Vocabulary::bit(h, words);
            bits[bit / 64] |= 1 << (bit % 64);
        }
        Vocabulary {
            set: HashList::from(hashes),
            bits,
        }
    }

    /// The filter bit of `h`: from its high bits (the set's slots use the low ones).
    #[inline(always)]
    fn bit(h: u64, words: usize) -> usize {
        (h >> 40) as usize & (words * 64 - 1)
    }

    /// The slot of `h` in the set (a small number unique to it), if `h` is in it.
    #[inline(always)]
    pub(super) fn slot(&self, h: u64) -> Option<usize> {
        let bit = Vocabulary::bit(h, self.bits.len());
        if self.bits[bit / 64] & (1 << (bit % 64)) == 0 {
            return None;
        }
        self.set.position(h)
    }
}
