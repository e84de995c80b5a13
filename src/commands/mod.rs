//! The subcommands for contestants and problem setters, each a front end that reads its
//! options and hands the work to the layer that does it: `judge`, `gen`, `validate`,
//! `test`, `stress`, `audit`, `trace` and `bundle`, and the samples built into the
//! binary that `test` runs. Nothing here is on the judge path, and nothing below uses it.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`],
//! [`crate::generate`], [`crate::check`], [`crate::shrink`], [`crate::mistakes`].

pub mod audit;
pub mod bundle;
pub mod gen;
pub mod judge;
pub mod samples;
pub mod stress;
pub mod test;
pub mod trace;
pub mod validate;
