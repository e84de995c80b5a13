//! duckchess: the rules, the judge and the tools for THUPC 2019 "Duck Chess" (Luogu
//! P5380), and a solver for CQOI 2013 "board game".
//!
//! The folders are the layers. A folder may use only the folders its module doc names
//! after "May use" (all on lower floors), never one above it or beside it, and no two
//! files import each other in a circle; `tests/all/architecture.rs` holds the code to that.
//!
//! 1. [`judge`]: the judge path (pieces, board, move rules, game driver, judge I/O).
//!    Only `std`, Rust 1.63; it is what `duckchess bundle` ships.
//! 1. [`cli`]: the command-line manners every subcommand shares (options, help layout,
//!    messages, exit status, JSON). Only `std`.
//! 1. [`sys`]: the operating-system services `std` lacks, and the seeded random
//!    generator. Only `std`.
//! 2. [`show`]: words and pictures for people: board diagrams, verdicts and their
//!    reasons, how an output differs from its answer.
//! 2. [`generate`]: every generator of judge inputs, in one list.
//! 2. [`chase`]: the CQOI 2013 problem; shares nothing with the game.
//! 2. [`engine`]: what chooses a move: the evaluation, the move generator, the search.
//! 3. [`harness`]: running a program under a clock and a memory limit, a test set's
//!    files, the strict format, the verdict of a run.
//! 3. [`shrink`]: the shrinker of failing inputs and the parallel search it runs on.
//! 3. [`play`]: the engine's front ends: UCI, terminal play, levels, reviews, matches.
//! 3. [`catalogue`]: the catalogue of plausible mistakes and the mutant judge that makes
//!    each one.
//! 3. [`model`]: what a test set shows of the rules, whatever the mistake: the
//!    statement's model and the move table's map.
//! 4. [`suite`]: the test files `gen --suite` writes, searched against the catalogue and
//!    for the model, and the witnesses of mistakes.
//! 4. [`export`]: a test set packaged for an online judge (Luogu, HydroOJ, UOJ,
//!    Polygon) as a zip archive, with a testlib validator and checker.
//! 4. [`lab`]: what makes and measures the engine: selfplay, training, the fit.
//! 4. [`web`]: `duckchess serve`, the board in a browser.
//! 5. [`commands`]: every subcommand's command line and entry point, one file each.
//!
//! `src/main.rs` only picks the subcommand.

pub mod catalogue;
pub mod chase;
pub mod cli;
pub mod commands;
pub mod engine;
pub mod export;
pub mod generate;
pub mod harness;
pub mod judge;
pub mod lab;
pub mod model;
pub mod play;
pub mod sandbox;
pub mod show;
pub mod shrink;
pub mod suite;
pub mod sys;
pub mod web;
