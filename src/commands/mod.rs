//! Every subcommand, one file each, named for it (and `runs`, the options the
//! subcommands that run a contestant's program share): its command line (`SPEC`, the options
//! and help that the parser and the help renderer both read) and its entry point (`cli`),
//! which reads the options and hands the work to the layer that does it. The contest
//! tools (`judge`, `gen`, `validate`, `test`, `stress`, `audit`, `trace`, `bundle`,
//! `export`, and the samples built into the binary that `test` runs) hold their front-end logic here
//! too; the engine's, the lab's, the server's and the CQOI solver's subcommands are thin
//! over their rooms. Nothing below this floor uses it.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::sandbox`], [`crate::show`],
//! [`crate::generate`], [`crate::harness`], [`crate::shrink`], [`crate::catalogue`], [`crate::model`], [`crate::suite`],
//! [`crate::export`], [`crate::engine`], [`crate::play`], [`crate::lab`], [`crate::web`], [`crate::chase`].

pub mod analyze;
pub mod arena;
pub mod audit;
pub mod bundle;
pub mod chase;
pub mod diagnose;
pub mod export;
pub mod fit;
pub mod gen;
pub mod judge;
pub mod r#match;
pub mod perft;
pub mod play;
pub mod runs;
pub mod samples;
pub mod selfplay;
pub mod serve;
pub mod stress;
pub mod test;
pub mod trace;
pub mod train;
pub mod uci;
pub mod validate;
