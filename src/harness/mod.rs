//! Checking a program or a test set: running a program under a clock (nothing it starts
//! outlives the run or stretches it), finding a test set's files, and the verdict of a
//! run. `test`, `stress` and `audit` are front ends over it (the strict input format
//! they check files against is [`crate::show::format`]).
//!
//! - [`process`]: running a solution, the built-in judge in process or a program with
//!   its input on stdin, its output streamed to a sink, under a wall-clock limit.
//! - [`cases`]: a test set's files, each `X.in` with its answer.
//! - [`verdict`]: one case run and judged: AC, WA, RE or TLE.
//! - [`cover`]: which tests of a set are needed to show all it shows, found greedily.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::sandbox`],
//! [`crate::show`].

pub mod cases;
pub mod cover;
pub mod process;
pub mod verdict;
