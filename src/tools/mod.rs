//! The tools for contestants and problem setters, one module per subcommand (`gen`,
//! `test`, `stress`, `trace`, `validate`, `bundle`), and what they share to describe and
//! draw a game for people (`render`, `explain`), to make inputs (`rng`), to run and judge
//! a solution (`process`, `compare`, `diagnose`, `differs`) and the built-in `samples`.
//! `test` and `stress` run programs through the one runner and explain wrong answers
//! through the one diagnosis.
//!
//! May use [`crate::judge`] and [`crate::cli`]; nothing here is on the judge path, and
//! nothing here uses the engine.

pub mod bundle;
pub mod compare;
pub mod diagnose;
pub mod differs;
pub mod explain;
pub mod gen;
pub mod judge;
pub mod process;
pub mod render;
pub mod rng;
pub mod samples;
pub mod stress;
pub mod test;
pub mod trace;
pub mod validate;
