//! Shrinking a failing input while it fails the same way, and the parallel search that
//! both the hunt for a failure and the shrinking run on. What is tried is a
//! [`search::Tester`]: the program under test (`stress`), or a mutant judge standing in
//! for one (the witnesses of [`crate::mistakes`] are shrunk the same way).
//!
//! - [`search`]: testers and their trials, the time budget, and the lowest failing
//!   candidate of a list, found on several threads with the answer of one.
//! - [`shrinker`]: cutting after the first difference, shorter routes, delta
//!   debugging, pairs of commands.
//! - [`route`]: a shorter legal game to the same events.
//! - [`relocate`]: the pieces that matter, shifted elsewhere on the board.
//! - [`smaller`]: smaller than 1-minimal: new failures from short games, each shrunk,
//!   the smallest kept.
//!
//! May use: [`crate::judge`], [`crate::sys`], [`crate::generate`], [`crate::show`].

pub mod relocate;
pub mod route;
pub mod search;
pub mod shrinker;
pub mod smaller;
