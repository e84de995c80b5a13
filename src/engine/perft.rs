//! Perft: counts the move sequences of a given length from a position, the test chess
//! programmers trust most for a move generator. The numbers in the tests were computed
//! by two independent engines, so a match says the rules table and the generator agree
//! with them on millions of positions.
//!
//! Moves come from [`rules::for_each_move`], the generator every tool uses, so perft
//! tests exactly the moves the judge would accept. Not on the judge path.

use crate::judge::board::Board;
use crate::judge::rules::{self, Move};

/// The deepest perft the command accepts: depth 5 already counts 152 million leaves and
/// every ply multiplies that by about 44, so anything beyond this would never finish.
pub const MAX_DEPTH: u32 = 32;

/// The number of move sequences of length `depth` from `board` (1 at depth 0). A game
/// that is over has no moves, so a captain capture ends its branch: it counts as a leaf
/// at the last ply and contributes nothing deeper. `board` is restored before returning.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // Bulk counting: the leaves one ply away are the moves themselves, so they are
        // counted without being made.
        1 => {
            let mut count = 0;
            rules::for_each_move(board, |_| count += 1);
            count
        }
        _ => {
            let mut total = 0;
            for m in rules::legal_moves(board) {
                let captured = board.make_move(m.from, m.to);
                total += perft(board, depth - 1);
                board.unmake_move(m.from, m.to, captured);
            }
            total
        }
    }
}

/// Perft split by first move: each legal move with the number of sequences of length
/// `depth` that start with it, in generation order. Empty at depth 0.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    rules::legal_moves(board)
        .into_iter()
        .map(|m| {
            let captured = board.make_move(m.from, m.to);
            let count = perft(board, depth - 1);
            board.unmake_move(m.from, m.to, captured);
            (m, count)
        })
        .collect()
}
