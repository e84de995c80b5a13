//! The front ends: the ways people and programs play with the engine. The UCI protocol
//! ([`uci`], with the squares and FEN of [`notation`]), play at the terminal
//! ([`terminal`], which reads a move in every notation the project prints: [`written`])
//! and its saved-game format ([`saved`]), the playing strengths from a
//! beginner to the full engine ([`level`]), the review of a game for people ([`review`]:
//! each position searched on its own, each move's loss and grade; `duckchess analyze`
//! and the browser board show it), games between computer players ([`arena`]) and
//! matches between UCI engines ([`matchrun`], through the engine client of
//! [`uciclient`]).
//!
//! The terminal board is drawn by [`crate::show`]; the engines `match` runs live in
//! process groups of [`crate::sys`], on its pipes.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::sandbox`],
//! [`crate::show`], [`crate::engine`].

pub mod arena;
pub mod level;
pub mod matchrun;
pub mod notation;
pub mod review;
pub mod saved;
pub mod terminal;
pub mod uci;
pub mod uciclient;
pub mod written;
