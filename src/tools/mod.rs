//! The tools for contestants and problem setters, one module per subcommand (`judge`,
//! `gen`, `validate`, `test`, `trace`, `bundle`), and what they share: running a
//! solution (`process`), judging and explaining its output (`diagnose`), verdicts in
//! words (`explain`), board diagrams (`render`) and the seeded generator (`rng`).
//!
//! May use [`crate::judge`] and [`crate::cli`]; nothing here is on the judge path, and
//! nothing here uses the engine or the chase solver.

pub mod bundle;
pub mod diagnose;
pub mod explain;
pub mod gen;
pub mod judge;
pub mod process;
pub mod render;
pub mod rng;
pub mod test;
pub mod trace;
pub mod validate;
