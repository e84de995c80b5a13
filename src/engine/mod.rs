//! The game engine and what plays with it: the static evaluation (the learnt network
//! of [`nnue`], trained by [`train`] on the games of [`selfplay`]; and the hand-written
//! one of [`eval`], counting moves with [`mobility`], which also generates the search's
//! moves), the search
//! ([`search`] drives iterative deepening over [`alphabeta`], which orders moves with
//! [`ordering`] and [`history`], stops when [`watch`] says and is tuned by the value of
//! [`tunables`], with the transposition table of [`tt`] and the exchange evaluation of
//! [`see`]; [`stats`] profiles its tree in a build made with the feature `stats`), perft ([`perft`]), games
//! between computer players ([`arena`]), terminal play ([`play`]) and its saved-game
//! format ([`saved`]), playing strengths from a beginner to the full engine
//! ([`level`]); the UCI protocol ([`uci`], with the notation of [`notation`] and
//! the time allocation of [`clock`]), and matches between UCI engines ([`matchrun`],
//! through [`uciclient`]), whose records fit the piece values ([`fit`]); the analysis
//! of a game for people ([`analysis`], which the browser board uses too, and
//! `duckchess analyze`, [`analyze`]).
//!
//! Moves come from the judge's rules table; the terminal board is drawn by
//! [`crate::show`]; the engines `match` runs live in process groups of [`crate::sys`];
//! the unit tests start from random positions played with the judge's rules.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`].

pub mod alphabeta;
pub mod analysis;

pub mod arena;
pub mod clock;
pub mod eval;
pub mod fit;
pub mod history;
pub mod level;
pub mod matchrun;
pub mod mobility;
pub mod nnue;
pub mod notation;
pub mod ordering;
pub mod perft;
pub mod play;
pub mod saved;
pub mod search;
pub mod see;
pub mod selfplay;
pub mod stats;
pub mod train;
pub mod tt;
pub mod tunables;
pub mod uci;
pub mod uciclient;
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
