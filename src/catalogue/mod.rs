//! The catalogue of plausible mistakes, and the mutant judge that makes any one of them.
//! A mistake is a slip a solution of the problem may have; the catalogue names each one
//! once, says in one sentence what the solution does and which rule it breaks, and the
//! mutant judge plays it: the judge with that one slip. What a test set must show of the
//! rules whatever the mistake is not here (that is [`crate::model`]), nor how test files
//! are written to kill the mistakes (that is `crate::suite`, which sees this room through
//! [`for_suite`] only).
//!
//! - [`handwritten`]: the mistakes written by hand, clause by clause from the rules.
//! - [`variants`]: their variants, for one side, one kind or one situation.
//! - [`slips`]: the slips grown from each row of the judge's move table.
//! - [`solution_shapes`]: the mistakes that follow a solution's shape: one starting
//!   piece of a table by id, the order invalid commands are judged in, each side's
//!   bookkeeping.
//! - [`list`]: all of them, each listed once, and why the others are not.
//! - [`mutant`]: the mutant judge that plays them.
//! - [`kills`]: which test kills which mistake: every mistake played on every test.
//! - [`for_suite`]: what the suite's searches may ask of the catalogue.
//! - [`witnesses`]: a kept witness for every listed mistake.
//! - [`likeness`]: which mistakes a program's answers on the witnesses look like.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`],
//! [`crate::generate`].

pub mod for_suite;
pub mod handwritten;
pub mod kills;
pub mod likeness;
pub mod list;
pub mod mutant;
pub mod slips;
pub mod solution_shapes;
pub mod variants;
pub mod witnesses;
