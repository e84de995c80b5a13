//! Plausible mistakes of a solution, and the data that catches them: the catalogue, a
//! mutant judge that makes any one of them, a witness input for each, the matrix of
//! which test kills which mistake, and the suite that kills them all. `audit` and `gen
//! --suite` are front ends over it.
//!
//! - [`catalogue`]: the mistakes, their sentences, rules and witnesses.
//! - [`mutant`]: the mutant judge that plays them.
//! - [`matrix`]: every mistake played on every test.
//! - [`witness`]: finding and shrinking a witness for a mistake.
//! - [`suite`]: a compact test set that kills them all.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`],
//! [`crate::generate`], [`crate::shrink`].

pub mod catalogue;
pub mod matrix;
pub mod mutant;
pub mod suite;
pub mod witness;
