//! The held-out measurement of `gen --suite`, as benchmarks: a test target that `cargo
//! test` leaves out (`test = false` in `Cargo.toml`: they take many minutes and print
//! figures); `scripts/bench-heldout.sh` runs them in release mode and prints the figures
//! docs/test-data-internals.md reports.
//!
//! - `held_out_kill_rates`: for each way of building the suite (the weights of its
//!   greedy search), suites built against part of the catalogue and measured on the
//!   rest: random halves over `HELDOUT_SEEDS` seeds (default 8), then each group of the
//!   catalogue held out in turn.
//! - `held_out_families`: each family of the catalogue held out whole in turn, suites
//!   of the default way built against the rest for seeds 1..=`FAMILY_SEEDS` (default
//!   20), one row of the table in docs/test-data-internals.md for each family.

use duckchess::catalogue::for_suite::killed_by;
use duckchess::catalogue::list::Mistake;
use duckchess::suite::build::suite;
use duckchess::suite::held_out::{self, percent, Split, SplitScore, Summary};
use duckchess::suite::plan::{Plan, Weights, DEFAULT_FILES, WEIGHTS};
use std::time::Instant;

fn jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The ways of building compared: the chosen weights and variations of them.
fn strategies() -> Vec<(&'static str, Weights)> {
    let w = WEIGHTS;
    let all = vec![
        ("chosen", w),
        ("kills only", Weights { cell: 0, ..w }),
        (
            "one kill each",
            Weights {
                second_kill: 0,
                cell: 0,
                ..w
            },
        ),
        (
            "coverage only",
            Weights {
                first_kill: 0,
                second_kill: 0,
                ..w
            },
        ),
        (
            "no second kill",
            Weights {
                second_kill: 0,
                ..w
            },
        ),
        ("cells once", Weights { hits: 1, ..w }),
        ("cells 5 times", Weights { hits: 5, ..w }),
        ("floor 14", Weights { floor: 14, ..w }),
        ("floor 26", Weights { floor: 26, ..w }),
    ];
    let wanted = std::env::var("HELDOUT_STRATEGIES").unwrap_or_default();
    all.into_iter()
        .filter(|(name, _)| wanted.is_empty() || wanted.split(',').any(|w| w == *name))
        .collect()
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn held_out_kill_rates() {
    let seeds = env_number("HELDOUT_SEEDS", 8);
    let what = std::env::var("HELDOUT_WHAT").unwrap_or_else(|_| "both".into());
    println!(
        "{} mistakes; {} files a suite; {} threads",
        Mistake::all().len(),
        DEFAULT_FILES,
        jobs()
    );
    if what != "groups" {
        println!("\nrandom halves held out, seeds 1..={seeds}: held-out kill rate (mean +- sd, min), killed by two files, training mistakes missed, seconds a suite");
        for (name, w) in strategies() {
            let outcomes: Vec<SplitScore> = (1..=seeds)
                .map(|s| held_out::measure(&held_out::halves(s), s, DEFAULT_FILES, w, jobs()))
                .collect();
            report(name, &outcomes);
        }
    }
    if what != "halves" {
        let groups = held_out::groups();
        println!("\neach of the {} groups held out in turn (pooled): held-out kill rate, killed by two files, training mistakes missed, seconds a suite; the weakest groups", groups.len());
        for (name, w) in strategies() {
            let outcomes: Vec<(String, SplitScore)> = groups
                .iter()
                .enumerate()
                .map(|(i, g): (usize, &Split)| {
                    let o = held_out::measure(g, 100 + i as u64, DEFAULT_FILES, w, jobs());
                    (g.name.clone(), o)
                })
                .collect();
            let held: usize = outcomes.iter().map(|(_, o)| o.held).sum();
            let killed: usize = outcomes.iter().map(|(_, o)| o.killed).sum();
            let twice: usize = outcomes.iter().map(|(_, o)| o.twice).sum();
            let missed: usize = outcomes.iter().map(|(_, o)| o.missed).sum();
            let seconds: f64 = outcomes.iter().map(|(_, o)| o.seconds).sum::<f64>();
            let mut weakest: Vec<&(String, SplitScore)> = outcomes.iter().collect();
            weakest.sort_by(|a, b| {
                percent(a.1.killed, a.1.held).total_cmp(&percent(b.1.killed, b.1.held))
            });
            println!(
                "  {name:<15} {:6.2}% ({killed}/{held})  twice {:6.2}%  missed {missed}  {:.1} s",
                percent(killed, held),
                percent(twice, held),
                seconds / outcomes.len() as f64
            );
            for (g, o) in weakest.iter().take(3) {
                println!("      {:6.2}% {g}", percent(o.killed, o.held));
            }
        }
    }
}

fn report(name: &str, outcomes: &[SplitScore]) {
    let s = Summary::of(outcomes);
    println!(
        "  {name:<15} {:6.2}% +- {:4.2} (min {:6.2}%)  twice {:6.2}%  missed {}  {:.1} s",
        s.mean, s.sd, s.min, s.twice, s.missed, s.seconds
    );
}

#[test]
fn held_out_families() {
    let seeds = env_number("FAMILY_SEEDS", 20);
    let families = held_out::families();
    println!(
        "{} mistakes in {} families; {} files a suite; seeds 1..={seeds}; {} threads\n",
        Mistake::all().len(),
        families.len(),
        DEFAULT_FILES,
        jobs()
    );
    println!("{}", Summary::HEADER);
    let mut seconds = 0.0;
    for family in &families {
        let outcomes: Vec<SplitScore> = (1..=seeds)
            .map(|s| held_out::measure(family, s, DEFAULT_FILES, WEIGHTS, jobs()))
            .collect();
        let summary = Summary::of(&outcomes);
        seconds += summary.seconds;
        println!("{}", summary.row(&family.name));
    }
    println!(
        "\n{:.1} s a suite on average",
        seconds / families.len().max(1) as f64
    );
}
