//! Position keys and the transposition table: Zobrist hashing of a board, and a
//! fixed-size table of search results indexed by key, sized in megabytes.

use crate::engine::eval::MATE;
use crate::judge::board::Board;
use crate::judge::piece::{Color, Piece, Square, SQUARE_SLOTS};
use crate::judge::rules::Move;

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
}

const EMPTY: Entry = Entry {
    key: 0,
    best: None,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
};

/// The smallest and largest table sizes in megabytes.
pub const MIN_MB: usize = 1;
/// See [`MIN_MB`]: a UCI client cannot make the engine take more memory than this.
pub const MAX_MB: usize = 4096;
/// The default table size in megabytes.
pub const DEFAULT_MB: usize = 16;

/// The transposition table: a power-of-two number of entries, always-replace.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of about `mb` megabytes (clamped to [`MIN_MB`]..=[`MAX_MB`], rounded
    /// down to a power of two entries).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.clamp(MIN_MB, MAX_MB) << 20;
        let wanted = bytes / std::mem::size_of::<Entry>();
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            entries: vec![EMPTY; count],
            mask: count - 1,
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entries (never: there is at least one).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = EMPTY);
    }

    /// The entry for `key`, if one is stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key).then_some(e)
    }

    /// Stores a result for `key`, keeping a deeper result for the same position.
    #[inline]
    pub fn store(&mut self, key: u64, entry: Entry) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key && slot.depth > entry.depth + 2 && entry.bound != Bound::Exact {
            return;
        }
        *slot = Entry { key, ..entry };
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
        assert!(t.len() * std::mem::size_of::<Entry>() <= 1 << 20);
        assert!(t.len() * std::mem::size_of::<Entry>() > 1 << 19);
        assert_eq!(Table::new(0).len(), t.len(), "clamped to the minimum");
    }

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for score in [MATE - 3, -(MATE - 5), 120, -40] {
            assert_eq!(from_tt(to_tt(score, 7), 7), score);
        }
        assert_eq!(from_tt(to_tt(MATE - 3, 2), 5), MATE - 6);
    }
}
