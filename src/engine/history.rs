//! What the search learns about quiet moves as it goes, to try the good ones first:
//! the history of each move (from-to, and continuation: how well it answered the
//! move before), two killers a ply (quiet moves that refuted a sibling) and the
//! countermove of each move (the reply that last refuted it). Not on the judge path.

use crate::engine::tt::MAX_PLY;
use crate::judge::board::Board;
use crate::judge::piece::{Piece, Square, SQUARE_SLOTS};
use crate::judge::rules::Move;

/// History scores stay within plus or minus this (twice it below the countermove's
/// order).
pub(crate) const HISTORY_MAX: i32 = 1 << 14;

/// The history tables share one array of 16-bit scores (they stay within
/// [`HISTORY_MAX`]: half the memory of 32-bit ones, which matters with a table for each
/// thread of a search): the from-to history first, then the
/// continuation history, indexed by the piece and target square of the move before
/// and of the move itself (how well a move has answered that reply).
const FROM_TO: usize = SQUARE_SLOTS * SQUARE_SLOTS;
const PIECE_SQUARES: usize = 14 * 90;
/// The length of the history array a search works with.
pub(crate) const HISTORY_LEN: usize = FROM_TO + PIECE_SQUARES * PIECE_SQUARES;

/// The index of a move in the from-to tables (history, countermoves).
#[inline]
fn slot(m: Move) -> usize {
    m.from.index() * SQUARE_SLOTS + m.to.index()
}

/// The continuation-history row of `piece` arriving on `to`.
#[inline]
fn piece_square(piece: Piece, to: Square) -> usize {
    (piece.color.index() * 7 + piece.kind.index()) * 90 + to.bit() as usize
}

/// One search's move-ordering memory. The history array is borrowed: it outlives the
/// search (an engine keeps it from one move of a game to the next); the killers and
/// countermoves are the search's own.
pub(crate) struct History<'a> {
    table: &'a mut [i16],
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    countermoves: Vec<Option<Move>>,
}

impl<'a> History<'a> {
    /// Ordering memory over `table` ([`HISTORY_LEN`] long), with no killers or
    /// countermoves yet.
    pub fn new(table: &'a mut [i16]) -> History<'a> {
        History {
            table,
            killers: [[None; 2]; MAX_PLY + 1],
            countermoves: vec![None; SQUARE_SLOTS * SQUARE_SLOTS],
        }
    }

    /// The killers of the node at `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// The countermove of `prev`, the move that led to the node (`None` for a pass or
    /// the root).
    #[inline]
    pub fn counter(&self, prev: Option<Move>) -> Option<Move> {
        prev.and_then(|p| self.countermoves[slot(p)])
    }

    /// The continuation-history row of the node on `board` that `prev` led to, if any.
    #[inline]
    pub fn cont_row(board: &Board, prev: Option<Move>) -> Option<usize> {
        let prev = prev?;
        let before = board.piece_at(prev.to)?;
        Some(FROM_TO + piece_square(before, prev.to) * PIECE_SQUARES)
    }

    /// The ordering history of quiet move `m` by `mover` in the row `cont_row` (see
    /// [`History::cont_row`]): from-to plus continuation.
    #[inline]
    pub fn ordering(&self, cont_row: Option<usize>, mover: Option<Piece>, m: Move) -> i32 {
        let cont = match (cont_row, mover) {
            (Some(row), Some(p)) => i32::from(self.table[row + piece_square(p, m.to)]),
            _ => 0,
        };
        i32::from(self.table[slot(m)]) + cont
    }

    /// The continuation-history index of `m` on `board`, after `prev` (none at the root
    /// or after a pass).
    #[inline]
    fn cont_index(board: &Board, prev: Option<Move>, m: Move) -> Option<usize> {
        let prev = prev?;
        let before = board.piece_at(prev.to)?;
        let piece = board.piece_at(m.from)?;
        Some(FROM_TO + piece_square(before, prev.to) * PIECE_SQUARES + piece_square(piece, m.to))
    }

    /// The history of quiet move `m` on `board`, after `prev`: from-to and continuation,
    /// each within [`HISTORY_MAX`].
    #[inline]
    pub fn quiet(&self, board: &Board, prev: Option<Move>, m: Move) -> i32 {
        i32::from(self.table[slot(m)])
            + Self::cont_index(board, prev, m).map_or(0, |i| i32::from(self.table[i]))
    }

    /// Moves the history scores of `m` on `board` after `prev` by `bonus`, less the
    /// more extreme they already are, so that they stay within [`HISTORY_MAX`].
    fn update(&mut self, board: &Board, prev: Option<Move>, m: Move, bonus: i32) {
        let cont = Self::cont_index(board, prev, m);
        for i in std::iter::once(slot(m)).chain(cont) {
            let h = i32::from(self.table[i]);
            let h = h + bonus * 32 - h * bonus.abs() * 32 / HISTORY_MAX;
            self.table[i] = h.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
        }
    }

    /// Learns from quiet move `m` that failed high at `depth` at the node of `ply` on
    /// `board`, reached by `prev`: it becomes a killer and the countermove of `prev`,
    /// its history rises, and that of the quiet moves `tried` before it falls.
    pub fn cutoff(
        &mut self,
        board: &Board,
        ply: usize,
        prev: Option<Move>,
        m: Move,
        depth: i32,
        tried: &[Option<Move>],
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if let Some(prev) = prev {
            self.countermoves[slot(prev)] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        self.update(board, prev, m, bonus);
        for q in tried.iter().flatten() {
            self.update(board, prev, *q, -bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cutoff_makes_a_killer_and_a_countermove_and_moves_the_history() {
        let board = Board::start();
        let moves = crate::judge::rules::legal_moves(&board);
        let (m, other, prev) = (moves[0], moves[1], moves[2]);
        let mut table = vec![0; HISTORY_LEN];
        let mut h = History::new(&mut table);
        h.cutoff(&board, 3, Some(prev), m, 5, &[Some(other), None]);
        assert_eq!(h.killers(3), [Some(m), None]);
        assert_eq!(h.counter(Some(prev)), Some(m));
        assert_eq!(h.counter(None), None);
        assert!(h.quiet(&board, None, m) > 0);
        assert!(h.quiet(&board, None, other) < 0);
        // Many cutoffs keep the scores within bounds.
        for _ in 0..1000 {
            h.cutoff(&board, 3, None, m, 30, &[Some(other)]);
        }
        assert_eq!(h.quiet(&board, None, m), HISTORY_MAX);
        assert_eq!(h.quiet(&board, None, other), -HISTORY_MAX);
        // The same killer twice stays one.
        assert_eq!(h.killers(3), [Some(m), None]);
    }
}
