//! Checking a program or a test set: running a program under a clock (nothing it starts
//! outlives the run or stretches it), finding a test set's files, the strict input
//! format, and the verdict of a run. `test`, `stress`, `validate` and `audit` are front
//! ends over it.
//!
//! - [`process`]: running a solution, the built-in judge in process or a program with
//!   its input on stdin, its output streamed to a sink, under a wall-clock limit.
//! - [`cases`]: a test set's files, each `X.in` with its answer.
//! - [`mod@format`]: the strict official input format, testlib style.
//! - [`verdict`]: one case run and judged: AC, WA, RE or TLE.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`].

pub mod cases;
pub mod format;
pub mod process;
pub mod verdict;
