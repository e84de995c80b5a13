//! The C++ reference solution that `export` packages (`src/export/reference.cpp`),
//! written apart from the Rust judge from the statement alone: built with `g++ -O2
//! -std=c++17 -Wall -Wextra` without a warning, and agreeing with the judge byte for
//! byte on the official cases, the statement's sample, inputs at the edges of the
//! format, and generated games of every `gen` mode (a sample of seeds in the quick
//! tier, many in the full tier). The full tier's every-seed test of `audit.rs` also runs
//! it on every file of the suites of seeds 1 to 20 ([`differs`]).

use crate::common;
use crate::official;
use duckchess::generate::{self, mode::Mode};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The reference, built once with every warning the issue asks for.
pub fn built() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reference");
        std::fs::create_dir_all(&dir).unwrap();
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/export/reference.cpp");
        // Written aside and moved in whole: another test binary may be running it.
        let part = dir.join(format!("reference.part{}", std::process::id()));
        common::gxx_strict(&source, &part);
        let program = dir.join("reference");
        std::fs::rename(&part, &program).unwrap();
        program
    })
}

/// Where the reference and the judge differ on `input`: the first line that differs,
/// with both; `None` when they agree byte for byte.
pub fn differs(input: &[u8]) -> Option<String> {
    let run = common::run_program(built(), &[], input);
    let mut judge = Vec::new();
    let judged = duckchess::judge::run::run(input, &mut judge);
    if judged.is_ok() != run.status.success() {
        return Some(format!(
            "the judge {} and the reference {}",
            if judged.is_ok() { "answers" } else { "refuses" },
            run.status
        ));
    }
    if run.stdout == judge {
        return None;
    }
    let (ours, theirs) = (String::from_utf8_lossy(&judge), common::stdout(&run));
    let line = ours
        .lines()
        .zip(theirs.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| ours.lines().count().min(theirs.lines().count()));
    Some(format!(
        "line {}: the judge says {:?}, the reference {:?}",
        line + 1,
        ours.lines().nth(line).unwrap_or("(nothing)"),
        theirs.lines().nth(line).unwrap_or("(nothing)")
    ))
}

/// Asserts that the reference agrees on `input`, named `name` in the message.
fn agrees(name: &str, input: &[u8]) {
    if let Some(difference) = differs(input) {
        panic!("{name}: {difference}");
    }
}

/// Generated games: every mode, seeds `1..=seeds`, each at a few lengths.
fn games(seeds: u64) -> usize {
    let mut n = 0;
    for mode in Mode::ALL {
        for seed in 1..=seeds {
            for q in [seed % 7, 37 * seed % 300, 1000] {
                let mut input = Vec::new();
                generate::input(seed, q, mode, &mut input).unwrap();
                agrees(
                    &format!("gen --mode {} --seed {seed} --q {q}", mode.name()),
                    &input,
                );
                n += 1;
            }
        }
    }
    n
}

/// Inputs at the edges of what the judge reads: no command, the largest count, every
/// corner to every corner, coordinates past the board, the lenient layouts of the
/// statement's contract (spaces, tabs, CR, blank lines, no final newline).
const EDGES: &[&str] = &[
    "0\n",
    "0",
    "1\n0 0 0 0\n",
    "4\n0 0 9 8\n9 8 0 0\n0 8 9 0\n9 0 0 8\n",
    "3\n0 0 10 0\n3 0 4 0\n9 9 9 9\n",
    "2\n3  0 4 0\n\t6 0 5 0  \n",
    "2\r\n3 0 4 0\r\n6 0 5 0\r\n",
    "2\n\n3 0\n4 0\n6 0 5 0",
];

#[test]
#[cfg_attr(
    lacks_gxx,
    ignore = "needs g++ (none was found when the tests were built)"
)]
fn the_reference_agrees_with_the_judge_on_edges_and_games() {
    for (i, input) in EDGES.iter().enumerate() {
        agrees(&format!("edge {i}"), input.as_bytes());
    }
    let sample = include_bytes!("../../samples/statement.in");
    agrees("the statement's sample", sample);
    let full: Vec<u8> = b"1000\n"
        .iter()
        .chain(&b"3 0 4 0\n".repeat(1000))
        .copied()
        .collect();
    agrees("1000 commands", &full);
    assert_eq!(games(2), 66);
}

#[test]
#[cfg_attr(
    any(lacks_official, lacks_gxx),
    ignore = "needs the official cases (scripts/fetch-official.sh) and g++"
)]
fn the_reference_agrees_with_the_judge_on_the_official_cases() {
    let dir = official::cases();
    for i in 1..=4 {
        let input = std::fs::read(dir.join(format!("{i}.in"))).unwrap();
        agrees(&format!("official case {i}"), &input);
        let answer = std::fs::read(dir.join(format!("{i}.ans"))).unwrap();
        assert_eq!(
            common::run_program(built(), &[], &input).stdout,
            answer,
            "official case {i}: the reference's output is the official answer"
        );
    }
}

#[test]
#[cfg_attr(
    lacks_gxx,
    ignore = "needs g++ (none was found when the tests were built)"
)]
#[cfg_attr(
    not(lacks_gxx),
    ignore = "slow (about 20 s: 1650 generated games): the full tier runs it"
)]
fn the_reference_agrees_with_the_judge_on_many_games() {
    assert_eq!(games(50), 1650);
}
