//! Plausible mistakes of a solution, and the data that catches them: the catalogue (the
//! mistakes written by hand, their variants, and the slips grown from the move table), a
//! mutant judge that makes any one of them, a witness input for each, the matrix of
//! which test kills which mistake, and the suite that kills them all. `audit` and `gen
//! --suite` are front ends over it.
//!
//! - [`written`]: the mistakes written by hand, with their witness fixtures.
//! - [`variant`]: their variants, for one side, one kind or one situation.
//! - [`grown`]: the slips grown from each row of the move table.
//! - [`shaped`]: the mistakes that follow a solution's shape: one starting piece, the
//!   order invalid commands are judged in, each side's bookkeeping.
//! - [`heldout`]: a suite measured on mistakes it was not built against.
//! - [`catalogue`]: all of them, each listed once, and why the others are not.
//! - [`coverage`]: the coverage map: what a test set exercises of the rules.
//! - [`mutant`]: the mutant judge that plays them.
//! - [`ghost`]: games that expose a piece kept alive when taken.
//! - [`lone`]: games that give a check by one chosen piece alone.
//! - [`matrix`]: every mistake played on every test.
//! - [`mission`]: candidates aimed at coverage cells random play rarely reaches.
//! - [`model`]: the statement's coverage model: what the rules and the output can show.
//! - [`witness`]: finding and shrinking a witness for a mistake.
//! - [`cover`]: files built to reach the cells of the statement's model.
//! - [`suite`]: a small test set built for coverage and redundancy.
//! - [`suitedir`]: the suite written into a folder, with what it kills and reaches.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`],
//! [`crate::generate`], [`crate::shrink`].

pub mod catalogue;
pub mod cover;
pub mod coverage;
pub mod ghost;
pub mod grown;
pub mod heldout;
pub mod lone;
pub mod matrix;
pub mod mission;
pub mod model;
pub mod mutant;
pub mod shaped;
pub mod suite;
pub mod suitedir;
pub mod variant;
pub mod witness;
pub mod written;
