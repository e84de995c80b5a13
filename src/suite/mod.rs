//! The suite: the test files `gen --suite` writes, and how they are searched for. The
//! first files are built against the catalogue of mistakes (a greedy search that plays
//! every candidate on the judge and on the mutant judges, [`against_catalogue`]), then
//! repaired when a mistake survives them all; the rest are built for the statement's
//! model, reaching the cells no earlier file reaches ([`for_model`]). Some mistakes are
//! shown only by games built for them: a piece kept alive when taken
//! ([`kept_after_capture`]), a piece left out of the look for check ([`lone_checks`]).
//!
//! - [`plan`]: what a suite is built from: its seed, its files, its mistakes, what the
//!   search values.
//! - [`build`]: the suite of a plan, file by file, repaired; and the games that expose
//!   chosen mistakes.
//! - [`against_catalogue`]: the greedy search that writes a file against the catalogue.
//! - [`for_model`]: the greedy search that writes a file for the statement's model.
//! - [`missions`]: candidates aimed at cells random play rarely reaches.
//! - [`kept_after_capture`]: games that expose a piece a solution keeps alive when
//!   taken.
//! - [`lone_checks`]: games that give a check by one chosen piece alone.
//! - [`staging`]: a game steered to a chosen position, for the cells no search comes
//!   near.
//! - [`witness`]: a short input that exposes one mistake, found and shrunk.
//! - [`held_out`]: a suite measured on the mistakes it was not built against.
//! - [`folder`]: the suite written into a folder, with what it kills and reaches.
//!
//! The suite sees the catalogue through [`crate::catalogue::for_suite`] only.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`],
//! [`crate::generate`], [`crate::shrink`], [`crate::catalogue`], [`crate::model`].

pub mod against_catalogue;
pub mod build;
pub mod capacity;
pub mod folder;
pub mod for_model;
pub mod held_out;
pub mod kept_after_capture;
pub mod lone_checks;
pub mod missions;
pub mod plan;
pub mod staging;
pub mod witness;
