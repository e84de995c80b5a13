//! The engine: what chooses a move. The static evaluation (the learnt network of
//! [`nnue`], and the hand-written one of [`eval`]), the move generator of [`movegen`]
//! (tables built from the judge's rules table; it also counts moves for the
//! evaluation), the search ([`search`] drives iterative deepening over [`alphabeta`],
//! which orders moves with [`ordering`] and [`history`], stops when [`watch`] says and
//! is tuned by the value of [`tunables`], with the transposition table of [`tt`], the
//! exchange evaluation of [`see`] and the time allocation of [`clock`], on as many
//! threads as asked with [`threads`]; [`stats`]
//! profiles its tree in a build made with the feature `stats`), and [`perft`], which
//! counts move sequences to check the generator.
//!
//! Nothing here knows who asks for a move: the front ends (UCI, terminal play, levels,
//! reviews, matches) are in [`crate::play`], the lab that trains and measures the
//! engine in [`crate::lab`]. The unit tests start from random positions played with the
//! judge's rules.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`].

pub mod alphabeta;
pub mod clock;
pub mod eval;
pub mod history;
pub mod movegen;
pub mod nnue;
pub mod ordering;
pub mod perft;
pub mod search;
pub mod see;
pub mod stats;
pub mod threads;
pub mod tt;
pub mod tunables;
pub mod watch;

/// `count` positions reached by up to 150 random legal moves from the start (seeded):
/// the unit tests hold the engine's tables and shortcuts against the judge's rules on
/// them.
#[cfg(test)]
pub(crate) fn random_positions(seed: u64, count: usize) -> Vec<crate::judge::board::Board> {
    use crate::judge::{board::Board, rules};
    let mut rng = crate::sys::rng::Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut board = Board::start();
            for _ in 0..rng.below(150) {
                match rng.pick(&rules::legal_moves(&board)) {
                    Some(m) => {
                        board.make_move(m.from, m.to);
                    }
                    None => break,
                }
            }
            board
        })
        .collect()
}
