//! Words and pictures for people: what a position looks like, what a command did and
//! why, and how an output differs from its answer. Nothing here runs a program or
//! searches; `trace`, `test`, `stress`, `play` and `serve` all speak through it, so a
//! verdict reads the same everywhere.
//!
//! - [`render`]: board diagrams for the terminal (colour only where it is wanted).
//! - [`explain`]: a command's verdict and its reason in words, and why a position is
//!   check or not.
//! - [`compare`]: an output compared with its answer as it streams: the first
//!   difference, the lines around it, whitespace told apart from content.
//! - [`differs`]: what differs between an answer line and the expected one.
//! - [`diff`]: an output beside its answer, line by line, bounded (`test --diff`).
//! - [`mod@format`]: whether an input is written exactly in the official format
//!   (testlib style), and where it is not: `validate`, `audit` and the page's check.
//! - [`diagnose`]: a verdict in words, and a wrong answer explained in terms of the
//!   game, with the boards around the command.
//! - [`record`]: a result as one JSON object (`--json` of `test`, `stress` and
//!   `diagnose`), and its schema's version.
//! - [`fault`]: the kind of a failure (the verdict; for a wrong answer the answer that
//!   differs, the rule and the piece), to tell two failures of one program apart.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::sandbox`].

pub mod compare;
pub mod diagnose;
pub mod diff;
pub mod differs;
pub mod explain;
pub mod fault;
pub mod format;
pub mod record;
pub mod render;
