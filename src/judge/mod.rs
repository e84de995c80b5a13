//! The judge path: everything the THUPC judge needs, and nothing else. This folder is
//! exactly what `duckchess bundle` stitches into one file for online judges, so it uses
//! only `std`, nothing newer than Rust 1.63, no other module of the crate, and refers to
//! its siblings as `super::x` (which works both here and at the root of the bundle).
//!
//! - [`piece`]: squares, sides, piece kinds and their names.
//! - [`board`]: where the pieces stand, and the position notation.
//! - [`rules`]: the one move table, read forwards (validation, move generation) and
//!   backwards (attacks).
//! - [`game`]: one command in, one verdict out (with the reason for an invalid one).
//! - [`scan`]: the lenient, streaming reader of `Q` and the commands.
//! - [`run`]: the judge itself, input to output lines, and the stdin/stdout program.

pub mod board;
pub mod game;
pub mod piece;
pub mod rules;
pub mod run;
pub mod scan;

pub use run::{note, run, serve, verdict_line, Summary};
pub use scan::{Count, Expected, Found, InputError, JudgeError, LineCol, Scanner, Written};
