//! The game engine and what plays with it: the alpha-beta search ([`search`]), perft
//! ([`perft`]), games between computer players ([`arena`]) and terminal play ([`play`]).
//!
//! May use [`crate::judge`] (moves come from its rules table), [`crate::cli`], and the
//! drawing and describing parts of [`crate::tools`] (`render`, `explain`, `rng`).

pub mod alphabeta;
pub mod arena;
pub mod clock;
pub mod eval;
pub mod matchrun;
pub mod notation;
pub mod perft;
pub mod play;
pub mod saved;
pub mod search;
pub mod tt;
pub mod uci;
pub mod uciclient;
