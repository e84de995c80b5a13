//! duckchess: the rules, the judge and the tools for THUPC 2019 "Duck Chess" (Luogu
//! P5380), and a solver for CQOI 2013 "board game".
//!
//! The folders are the layers; a module may use the layers below it, never one above:
//!
//! 1. [`judge`]: the judge path (pieces, board, move rules, game driver, judge I/O).
//!    Only `std`, Rust 1.63; it is what `duckchess bundle` ships.
//! 1. [`cli`]: the command-line manners every subcommand shares (options, help layout,
//!    messages, exit status). Only `std`.
//! 2. [`tools`]: the subcommands for contestants and setters, and what they share to
//!    describe and draw a game for people. Uses `judge` and `cli`.
//! 2. [`chase`]: the CQOI 2013 problem; shares nothing with the game. Uses `cli`.
//! 3. [`engine`]: move search, perft, the arena and terminal play. Uses `judge`, `cli`
//!    and the drawing and describing parts of `tools`.
//! 4. [`web`]: `duckchess serve`, the board in a browser: a small HTTP server, its JSON
//!    API and the page. Uses `engine`, `tools`, `judge` and `cli`.
//!
//! `src/main.rs` only picks the subcommand.

pub mod chase;
pub mod check;
pub mod cli;
pub mod engine;
pub mod generate;
pub mod judge;
pub mod mistakes;
pub mod show;
pub mod shrink;
pub mod sys;
pub mod tools;
pub mod web;
