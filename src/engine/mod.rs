//! The game engine and what plays with it: the static evaluation ([`eval`], counting
//! moves with [`mobility`], which also generates the search's moves), the search
//! ([`search`] drives iterative deepening over [`alphabeta`], with the transposition
//! table of [`tt`] and the exchange evaluation of [`see`]), perft ([`perft`]), games
//! between computer players ([`arena`]), terminal play ([`play`]) and its saved-game
//! format ([`saved`]), playing strengths from a beginner to the full engine
//! ([`level`]); the UCI protocol ([`uci`], with the notation of [`notation`] and
//! the time allocation of [`clock`]), and matches between UCI engines ([`matchrun`],
//! through [`uciclient`]), whose records fit the piece values ([`fit`]); the analysis
//! of a game for people ([`analysis`], which the browser board uses too, and
//! `duckchess analyze`, [`analyze`]).
//!
//! May use [`crate::judge`] (moves come from its rules table), [`crate::cli`], and the
//! describing and drawing parts of [`crate::tools`] (`render`, `explain`, `rng`), and
//! its process groups (`group`) for the engines that `match` runs.

pub mod alphabeta;
pub mod analysis;
pub mod analyze;
pub mod arena;
pub mod clock;
pub mod eval;
pub mod fit;
pub mod level;
pub mod matchrun;
pub mod mobility;
pub mod notation;
pub mod perft;
pub mod play;
pub mod saved;
pub mod search;
pub mod see;
pub mod tt;
pub mod uci;
pub mod uciclient;

/// `count` positions reached by up to 150 random legal moves from the start (seeded):
/// the unit tests hold the engine's tables and shortcuts against the judge's rules on
/// them.
#[cfg(test)]
pub(crate) fn random_positions(seed: u64, count: usize) -> Vec<crate::judge::board::Board> {
    let mut rng = crate::tools::rng::Rng::new(seed);
    (0..count)
        .map(|_| crate::tools::gen::random_position(&mut rng, 150))
        .collect()
}
