//! What a suite is built from: its seed, how many files are built against the mistakes
//! and how many in all, the mistakes, what the greedy search values, and the threads.

use crate::catalogue::for_suite::Mistake;
use crate::generate::case::Cmd;
use crate::judge::game::Game;

/// Commands per file: the official maximum.
pub const Q: usize = 1000;
/// The number of files built against the catalogue.
pub const DEFAULT_FILES: usize = 3;
/// The default number of files in all: the usual number of test points on Chinese
/// online judges (20), and the three files that take the counts a solution keeps to
/// their most, none of which can hold anything else (1000 invalid commands in a row;
/// 1000 moves without a capture, each to a new position; the longest answer).
pub const DEFAULT_TOTAL: usize = 24;

/// What the greedy search values: kills of the mistakes, hits of the coverage map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A kill of a mistake that no earlier file kills.
    pub first_kill: u64,
    /// A kill of a mistake that one earlier file kills.
    pub second_kill: u64,
    /// A hit of a coverage cell reached fewer than `hits` times so far.
    pub cell: u64,
    /// How often each coverage cell should be reached in the whole suite.
    pub hits: u64,
    /// What a capture costs with all 32 pieces on the board; with fewer, it costs more
    /// in proportion (pieces are what every later test needs).
    pub capture: u64,
    /// While a file grows, captures stop when this many pieces are left (the end needs
    /// some, and every blocked move and stopped check needs them).
    pub floor: usize,
}

/// The weights `gen --suite` uses: chosen by the held-out measurement of
/// `scripts/bench-heldout.sh` (docs/test-data-internals.md says how).
pub const WEIGHTS: Weights = Weights {
    first_kill: 100,
    second_kill: 40,
    cell: 10,
    hits: 3,
    capture: 8,
    floor: 20,
};

/// What a suite is built from.
#[derive(Clone, Copy, Debug)]
pub struct Plan<'a> {
    /// The seed: the same seed, the same bytes.
    pub seed: u64,
    /// How many files are built against the mistakes.
    pub files: usize,
    /// How many files in all, at most: the files after the first `files` are built for
    /// the statement's model ([`super::for_model`]), while its cells or endings are left.
    pub total: usize,
    /// The mistakes it is built against (the whole catalogue, or part of it when the
    /// rest is held out to measure it).
    pub mistakes: &'a [Mistake],
    /// What the search values.
    pub weights: Weights,
    /// Parallel threads (the result does not depend on them).
    pub jobs: usize,
}

impl Plan<'static> {
    /// The plan of `gen --suite` of `total` files at most: the first
    /// [`DEFAULT_FILES`] against the whole catalogue with the chosen weights, the
    /// others for the statement's model.
    pub fn new(seed: u64, total: usize, jobs: usize) -> Plan<'static> {
        Plan {
            seed,
            files: total.min(DEFAULT_FILES),
            total,
            mistakes: Mistake::all(),
            weights: WEIGHTS,
            jobs,
        }
    }
}

/// One file of the suite: its commands and what it has besides its kills.
#[derive(Clone, Debug)]
pub struct SuiteFile {
    /// The commands.
    pub cmds: Vec<Cmd>,
    /// What else it has, in words.
    pub features: Vec<String>,
}

/// The seed of the `k`th file (from 1) of a suite of `seed`; the repairs' seeds follow
/// those of the files.
pub fn salt(seed: u64, k: u64) -> u64 {
    seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Where the game of `cmds` ended, in words.
pub fn ending(cmds: &[Cmd]) -> Option<String> {
    let mut game = Game::new();
    let at = cmds.iter().position(|c| {
        let _ = game.play(c[0], c[1], c[2], c[3]);
        game.board().is_over()
    })?;
    let winner = game.board().winner()?;
    Some(format!(
        "the game ends at command {} ({winner} takes the captain); {} commands follow",
        at + 1,
        cmds.len() - at - 1
    ))
}
