//! Position keys and the transposition table: Zobrist hashing of a board, and a
//! fixed-size table of search results indexed by key, sized in megabytes, that the
//! threads of one search share without a lock.

use crate::engine::eval::MATE;
use crate::judge::board::Board;
use crate::judge::piece::{Color, Piece, Square, SQUARE_SLOTS};
use crate::judge::rules::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// The deepest the search ever goes, extensions and quiescence included.
pub const MAX_PLY: usize = 96;
/// Scores at least this large in magnitude are wins or losses, not material.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 2;

// Zobrist keys for (colour, kind, square) and the side to move, fixed at compile time
// so that hashes are the same in every run.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

static ZOBRIST: [[u64; SQUARE_SLOTS]; 14] = {
    let mut table = [[0u64; SQUARE_SLOTS]; 14];
    let mut i = 0;
    while i < 14 {
        let mut s = 0;
        while s < SQUARE_SLOTS {
            table[i][s] =
                splitmix(((i * SQUARE_SLOTS + s) as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
            s += 1;
        }
        i += 1;
    }
    table
};

/// The key toggled when the side to move changes.
pub const ZOBRIST_BLUE: u64 = splitmix(0xB1BE);

/// The key of `piece` standing on `square`.
#[inline]
pub fn piece_key(piece: Piece, square: Square) -> u64 {
    ZOBRIST[piece.color.index() * 7 + piece.kind.index()][square.index()]
}

/// The Zobrist hash of a position (placement and side to move).
pub fn hash_of(board: &Board) -> u64 {
    let mut h = board.pieces().fold(0, |h, (s, p)| h ^ piece_key(p, s));
    if board.side_to_move() == Color::Blue {
        h ^= ZOBRIST_BLUE;
    }
    h
}

/// Bound kinds of a stored score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The full key of the position (0 for an empty slot).
    pub key: u64,
    /// The best move found, if any.
    pub best: Option<Move>,
    /// The score, mate scores relative to the node (see [`to_tt`]).
    pub score: i32,
    /// The remaining depth it was searched to.
    pub depth: u8,
    /// What kind of bound `score` is.
    pub bound: Bound,
    /// The static evaluation of the position, if it was computed ([`NO_EVAL`] if not):
    /// kept so that a revisited position need not be evaluated again.
    pub eval: i32,
}

/// The [`Entry::eval`] of a position whose static evaluation is not stored.
pub const NO_EVAL: i32 = i16::MIN as i32;

/// The unpacked form of one slot's data word (see [`Slot`]).
#[derive(Clone, Copy)]
struct Data {
    score: i16,
    eval: i16,
    /// The best move's squares as board bits; `from == NO_SQUARE` when there is none.
    from: u8,
    to: u8,
    depth: u8,
    /// The bound (two low bits) and the search generation that stored it (the rest).
    meta: u8,
}

const NO_SQUARE: u8 = u8::MAX;

const EMPTY: Data = Data {
    score: 0,
    eval: NO_EVAL as i16,
    from: NO_SQUARE,
    to: NO_SQUARE,
    depth: 0,
    meta: 0,
};

/// Entries per bucket: a position may be stored in any slot of the bucket its key
/// selects, so a deep result is not pushed out by the next shallow one.
const BUCKET: usize = 4;
/// Generations are counted in the six high bits of `meta`.
const GENERATIONS: u8 = 64;

impl Data {
    fn pack(self) -> u64 {
        u64::from(self.score as u16)
            | u64::from(self.eval as u16) << 16
            | u64::from(self.from) << 32
            | u64::from(self.to) << 40
            | u64::from(self.depth) << 48
            | u64::from(self.meta) << 56
    }

    fn unpack(word: u64) -> Data {
        Data {
            score: word as u16 as i16,
            eval: (word >> 16) as u16 as i16,
            from: (word >> 32) as u8,
            to: (word >> 40) as u8,
            depth: (word >> 48) as u8,
            meta: (word >> 56) as u8,
        }
    }

    fn bound(self) -> Bound {
        match self.meta & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        }
    }

    fn generation(self) -> u8 {
        self.meta >> 2
    }

    fn entry(self, key: u64) -> Entry {
        let best = (self.from != NO_SQUARE).then(|| Move {
            from: Square::from_bit(self.from as u32),
            to: Square::from_bit(self.to as u32),
        });
        Entry {
            key,
            best,
            score: self.score as i32,
            depth: self.depth,
            bound: self.bound(),
            eval: self.eval as i32,
        }
    }
}

/// One entry as the threads of a search share it: 16 bytes, four to a 64-byte bucket.
/// The data word is stored as it is and the key XOR-ed with it, each with a relaxed
/// atomic access and no lock. Two threads writing the same slot at once may leave one's
/// key beside the other's data: the key read back (`check ^ data`) then matches
/// neither position, and the slot reads as another position's: a miss, never a wrong
/// hit (but for the one chance in 2^64 that any key collision has).
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    fn empty() -> Slot {
        let data = EMPTY.pack();
        Slot {
            check: AtomicU64::new(data),
            data: AtomicU64::new(data),
        }
    }

    /// The key and the data as stored (the key is garbage after a torn write).
    #[inline]
    fn load(&self) -> (u64, Data) {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.check.load(Ordering::Relaxed) ^ data;
        (key, Data::unpack(data))
    }

    #[inline]
    fn save(&self, key: u64, data: Data) {
        let data = data.pack();
        self.check.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

/// The smallest and largest table sizes in megabytes.
pub const MIN_MB: usize = 1;
/// See [`MIN_MB`]: a UCI client cannot make the engine take more memory than this.
pub const MAX_MB: usize = 4096;
/// The default table size in megabytes.
pub const DEFAULT_MB: usize = 16;

/// A table size the system could not give memory for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashError {
    /// The size asked for, in megabytes.
    pub wanted: usize,
    /// The size of the table kept, in megabytes.
    pub kept: usize,
}

impl std::fmt::Display for HashError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate {} MB for the hash table; keeping the {} MB one",
            self.wanted, self.kept
        )
    }
}

impl std::error::Error for HashError {}

/// The transposition table: a power-of-two number of buckets of four entries. A new
/// result replaces the same position's, else the shallowest entry of its bucket or one
/// left from an earlier search.
///
/// Probes and stores take `&self`: the threads of one search share the table without
/// a lock (see [`Slot`]). Only what happens between searches (a new size, a clear, the
/// next generation) needs it alone.
pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of about `mb` megabytes (clamped to [`MIN_MB`]..=[`MAX_MB`], rounded
    /// down to a power of two entries).
    pub fn new(mb: usize) -> Table {
        let count = Table::count(mb);
        Table {
            slots: (0..count).map(|_| Slot::empty()).collect(),
            mask: (count - 1) & !(BUCKET - 1),
            generation: 0,
        }
    }

    /// The number of entries of a table of about `mb` megabytes.
    fn count(mb: usize) -> usize {
        let bytes = mb.clamp(MIN_MB, MAX_MB) << 20;
        let wanted = bytes / std::mem::size_of::<Slot>();
        1usize << (usize::BITS - 1 - wanted.leading_zeros())
    }

    /// The size of the table in megabytes (rounded down).
    pub fn megabytes(&self) -> usize {
        (self.slots.len() * std::mem::size_of::<Slot>()) >> 20
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no entries (never: there is at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The size of one entry in bytes.
    pub fn entry_bytes() -> usize {
        std::mem::size_of::<Slot>()
    }

    /// Becomes an empty table of about `mb` megabytes, as [`Table::new`] makes; or, when
    /// the system cannot give that much memory (a `ulimit -v`, an address space too
    /// small), stays as it is, entries and all, and says so with an error: a client's
    /// option never aborts the process.
    ///
    /// The new memory is only reserved while the old table lives (reserving touches no
    /// page); the old entries are freed before the new ones are written, so the two are
    /// never resident at once.
    pub fn resize(&mut self, mb: usize) -> Result<(), HashError> {
        let count = Table::count(mb);
        let mut slots = Vec::new();
        if slots.try_reserve_exact(count).is_err() {
            return Err(HashError {
                wanted: mb,
                kept: self.megabytes(),
            });
        }
        self.slots = Vec::new();
        slots.extend((0..count).map(|_| Slot::empty()));
        *self = Table {
            slots,
            mask: (count - 1) & !(BUCKET - 1),
            generation: 0,
        };
        Ok(())
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|e| *e = Slot::empty());
        self.generation = 0;
    }

    /// Marks the start of a new search: entries of earlier searches are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    /// The index of the first slot of `key`'s bucket.
    #[inline]
    fn bucket_start(&self, key: u64) -> usize {
        key as usize & self.mask
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot] {
        let b = self.bucket_start(key);
        &self.slots[b..b + BUCKET]
    }

    /// The entry for `key`, if one is stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|s| {
            let (k, data) = s.load();
            (k == key).then(|| data.entry(key))
        })
    }

    /// Stores a result for `key`, keeping a deeper result for the same position.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation;
        let bucket = self.bucket(key);
        let mut seen = [(0, EMPTY); BUCKET];
        for (seen, slot) in seen.iter_mut().zip(bucket) {
            *seen = slot.load();
        }
        // The same position, else the entry worth least: shallow, or from long ago.
        let worth = |d: &Data| {
            let age = (GENERATIONS + generation - d.generation()) % GENERATIONS;
            d.depth as i32 - 8 * age as i32
        };
        let i = match seen.iter().position(|&(k, _)| k == key) {
            Some(i) => {
                let s = seen[i].1;
                if s.depth > entry.depth + 2
                    && entry.bound != Bound::Exact
                    && s.generation() == generation
                {
                    return;
                }
                i
            }
            None => (0..BUCKET).min_by_key(|&i| worth(&seen[i].1)).unwrap_or(0),
        };
        let (old_key, old) = seen[i];
        let (from, to) = match entry.best {
            Some(m) => (m.from.bit() as u8, m.to.bit() as u8),
            // Keep the move known for this position when the new result has none.
            None if old_key == key => (old.from, old.to),
            None => (NO_SQUARE, NO_SQUARE),
        };
        let eval = if entry.eval == NO_EVAL && old_key == key {
            old.eval
        } else {
            entry.eval.clamp(NO_EVAL, i16::MAX as i32) as i16
        };
        let bound = match entry.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let data = Data {
            score: entry.score.clamp(-(i16::MAX as i32), i16::MAX as i32) as i16,
            eval,
            from,
            to,
            depth: entry.depth,
            meta: bound | generation << 2,
        };
        bucket[i].save(key, data);
    }
}

/// Mate scores are stored relative to the node, so a table hit at another ply reads
/// the right distance.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_size_follows_megabytes() {
        let t = Table::new(1);
        assert!(t.len().is_power_of_two());
        assert_eq!(Table::entry_bytes(), 16);
        assert!(t.len() * Table::entry_bytes() <= 1 << 20);
        assert!(t.len() * Table::entry_bytes() > 1 << 19);
        assert_eq!(Table::new(0).len(), t.len(), "clamped to the minimum");
    }

    fn entry(depth: u8, best: Option<Move>, eval: i32) -> Entry {
        Entry {
            key: 0,
            best,
            score: 10 * depth as i32,
            depth,
            bound: Bound::Lower,
            eval,
        }
    }

    /// `n` keys that select the same bucket of `t`.
    fn same_bucket(t: &Table, n: usize) -> Vec<u64> {
        let step = (t.mask as u64 + BUCKET as u64).next_power_of_two();
        (1..=n as u64).map(|i| i * step + 1).collect()
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_or_oldest_entry() {
        let t = Table::new(1);
        let keys = same_bucket(&t, 6);
        assert!(keys
            .iter()
            .all(|&k| t.bucket_start(k) == t.bucket_start(keys[0])));
        // Four entries fill the bucket; a fifth pushes out the shallowest (depth 2).
        for (&k, depth) in keys.iter().zip([9, 2, 7, 5]) {
            t.store(k, entry(depth, None, NO_EVAL));
        }
        t.store(keys[4], entry(3, None, NO_EVAL));
        let depths: Vec<Option<u8>> = keys[..5]
            .iter()
            .map(|&k| t.probe(k).map(|e| e.depth))
            .collect();
        assert_eq!(depths, [Some(9), None, Some(7), Some(5), Some(3)]);
        // Two searches later a depth-9 entry counts for less than fresh shallow ones.
        let mut t = Table::new(1);
        t.store(keys[0], entry(9, None, NO_EVAL));
        t.new_search();
        t.new_search();
        for &k in &keys[1..5] {
            t.store(k, entry(1, None, NO_EVAL));
        }
        assert!(
            t.probe(keys[0]).is_none(),
            "the old depth-9 entry was replaced"
        );
        assert!(keys[1..5].iter().all(|&k| t.probe(k).is_some()));
    }

    #[test]
    fn a_new_result_keeps_what_it_does_not_know() {
        let mut t = Table::new(1);
        let m = Move {
            from: Square::from_bit(3),
            to: Square::from_bit(12),
        };
        t.store(77, entry(4, Some(m), 35));
        // A later result without a move or an evaluation keeps the stored ones.
        t.store(77, entry(5, None, NO_EVAL));
        let e = t.probe(77).unwrap();
        assert_eq!((e.depth, e.best, e.eval), (5, Some(m), 35));
        // A shallow bound does not replace a much deeper result of the same search...
        t.store(77, entry(1, None, NO_EVAL));
        assert_eq!(t.probe(77).unwrap().depth, 5);
        // ...but does once that result is from an earlier search.
        t.new_search();
        t.store(77, entry(1, None, NO_EVAL));
        assert_eq!(t.probe(77).unwrap().depth, 1);
        // Scores and evaluations beyond 16 bits are clamped, not wrapped.
        t.store(
            78,
            Entry {
                score: 100_000,
                ..entry(2, None, -100_000)
            },
        );
        let e = t.probe(78).unwrap();
        assert_eq!((e.score, e.eval), (i16::MAX as i32, NO_EVAL));
    }

    #[test]
    fn a_torn_write_reads_as_a_miss() {
        let t = Table::new(1);
        let (a, b) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        t.store(a, entry(6, None, 11));
        t.store(b, entry(3, None, 22));
        assert_eq!(t.probe(a).map(|e| e.depth), Some(6));
        // A slot whose key word is one write's and data word another's: as if two
        // threads had stored into it at once.
        let sa = t.bucket(a).iter().find(|s| s.load().0 == a).unwrap();
        let sb = t.bucket(b).iter().find(|s| s.load().0 == b).unwrap();
        let torn = sb.data.load(Ordering::Relaxed);
        sa.data.store(torn, Ordering::Relaxed);
        assert!(
            t.probe(a).is_none(),
            "a's key with b's data is no entry of a"
        );
        assert_eq!(t.probe(b).map(|e| e.depth), Some(3));
    }

    #[test]
    fn threads_storing_and_probing_at_once_read_only_whole_entries() {
        // Every thread stores entries whose fields all follow from the key, into a
        // table small enough that they overwrite each other's all the time, and checks
        // every entry it reads back.
        let t = Table::new(1);
        let fields = |key: u64| ((key % 200) as u8, (key % 9000) as i32 - 4500);
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let (t, hits) = (&t, &hits);
                scope.spawn(move || {
                    for i in 0..200_000u64 {
                        let key = splitmix(i % 50_000 + thread * 7);
                        let (depth, score) = fields(key);
                        if i % 3 == 0 {
                            t.store(
                                key,
                                Entry {
                                    score,
                                    eval: score / 2,
                                    ..entry(depth, None, NO_EVAL)
                                },
                            );
                        } else if let Some(e) = t.probe(key) {
                            assert_eq!((e.key, e.depth, e.score), (key, depth, score));
                            assert_eq!(e.eval, score / 2);
                            hits.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(
            hits.load(Ordering::Relaxed) > 1000,
            "the threads shared entries"
        );
    }

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for score in [MATE - 3, -(MATE - 5), 120, -40] {
            assert_eq!(from_tt(to_tt(score, 7), 7), score);
        }
        assert_eq!(from_tt(to_tt(MATE - 3, 2), 5), MATE - 6);
    }
}
