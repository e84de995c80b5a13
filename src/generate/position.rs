//! Squares and positions drawn at random, and the targets a piece's own rule allows:
//! what every generator builds its commands from.

use crate::judge::board::Board;
use crate::judge::piece::{Square, COLS, ROWS};
use crate::judge::rules;
use crate::sys::rng::Rng;

/// A square drawn uniformly from the board.
pub fn random_square(rng: &mut Rng) -> Square {
    let x = rng.below(ROWS as u64) as i64;
    let y = rng.below(COLS as u64) as i64;
    // Both are in range by construction.
    Square::new(x, y).unwrap_or_else(|| unreachable!())
}

/// The position after up to `max_plies - 1` random legal moves from the start (fewer
/// when a side has none left): a game in some random state, for tests and benchmarks.
pub fn random_position(rng: &mut Rng, max_plies: u64) -> Board {
    let mut board = Board::start();
    for _ in 0..rng.below(max_plies) {
        match rng.pick(&rules::legal_moves(&board)) {
            Some(m) => {
                board.make_move(m.from, m.to);
            }
            None => break,
        }
    }
    board
}

/// The squares a piece on `from` may move to by its own rule (blocking squares
/// included, not onto its own side), whoever is to move and whether or not the game is
/// over: what a careless solution might accept.
pub fn rule_targets(board: &Board, from: Square) -> Vec<Square> {
    let piece = match board.piece_at(from) {
        Some(p) => p,
        None => return Vec::new(),
    };
    Square::all()
        .filter(|&to| {
            rules::check_path(board, piece.kind, from, to).is_ok()
                && board.piece_at(to).map(|p| p.color) != Some(piece.color)
        })
        .collect()
}
