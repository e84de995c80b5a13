//! The lab: what makes and measures the engine. The engine's games against itself as
//! positions to train on ([`selfplay`]), the training of the evaluation network on them
//! ([`train`]), and the fit of the hand-written evaluation's weights on recorded games
//! ([`fit`]).
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`],
//! [`crate::engine`], [`crate::play`].

pub mod fit;
pub mod selfplay;
pub mod train;
