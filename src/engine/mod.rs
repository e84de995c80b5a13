//! The game engine and what plays with it: the static evaluation ([`eval`]), the
//! alpha-beta search ([`search`]), perft ([`perft`]), games between computer players
//! ([`arena`]), terminal play ([`play`]) and its saved-game format ([`saved`]).
//!
//! May use [`crate::judge`] (moves come from its rules table), [`crate::cli`], and the
//! describing and drawing parts of [`crate::tools`] (`render`, `explain`, `rng`).

pub mod arena;
pub mod eval;
pub mod perft;
pub mod play;
pub mod saved;
pub mod search;
