//! A wrong solution of another shape than the judge's, held out from the suite's making:
//! `tests/fixtures/shapes/pieces.cpp` keeps the 32 pieces in an array by id, names them
//! from a table per id, looks for check in one copy per colour and judges a command in
//! another order. Compiled as is it answers as the judge (generated inputs of every
//! mode, the samples, the official cases); each `BUG_` switch plants one slip of that
//! shape that still answers the statement's sample right, and the suite of seed 1 kills
//! each of them. Needs g++ (ignored where build.rs found none).
//! `scripts/bench-shapes.sh` measures the suites of seeds 1..20 and the official cases
//! against them (figures in docs/test-data-internals.md).

use crate::common;
use crate::official;

use duckchess::generate::case::Case;
use duckchess::generate::recipe::{self, Recipe};
use duckchess::judge;
use duckchess::suite::build::suite;
use duckchess::suite::plan::{Plan, DEFAULT_FILES};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const SOURCE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/shapes/pieces.cpp"
);

/// The `BUG_` switches the source's header lists.
fn bugs() -> Vec<String> {
    let text = fs::read_to_string(SOURCE).expect("the source");
    text.lines()
        .filter_map(|l| l.strip_prefix("//   BUG_"))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// The programs, compiled once per test run (`correct` and one per switch).
fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let mut names = vec!["correct".to_string()];
        names.extend(bugs());
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        common::compiled(SOURCE, "shapes", &names)
    })
}

/// What `program` writes for `input`.
fn output(program: &Path, input: &[u8]) -> Vec<u8> {
    common::run_program(program, &[], input).stdout
}

/// The judge's output for `input`.
fn judged(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    judge::run(input, &mut out).expect("a valid input");
    out
}

#[test]
fn the_header_lists_at_least_fifteen_slips() {
    let bugs = bugs();
    assert!(bugs.len() >= 15, "{bugs:?}");
    let text = fs::read_to_string(SOURCE).expect("the source");
    for b in &bugs {
        assert!(
            text.contains(&format!("defined(BUG_{b})"))
                || text.contains(&format!("def BUG_{b}\n"))
                || text.contains(&format!("ndef BUG_{b}\n")),
            "BUG_{b} is listed but never planted"
        );
    }
}

/// The correct program answers as the judge on generated inputs of every mode, the
/// samples and the official cases; every planted one passes the statement's sample.
#[test]
#[cfg_attr(
    any(lacks_gxx, lacks_official),
    ignore = "needs g++ and the official cases (one was absent when the tests were built)"
)]
fn the_piece_array_solution_answers_as_the_judge() {
    let dir = programs();
    let correct = dir.join("correct");
    let recipe = Recipe {
        seed: 47,
        mode: None,
        max_q: 1000,
        messy: false,
        counts: false,
    };
    for index in 0..300 {
        let (case, mode) = recipe::case(&recipe, index);
        let input = case.to_bytes();
        assert!(
            output(&correct, &input) == judged(&input),
            "case {index} ({mode}) of seed 47"
        );
    }
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut sets = vec![(samples, "out")];
    sets.push((official::cases(), "ans"));
    for (set, ext) in sets {
        for entry in fs::read_dir(&set).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.extension().is_none_or(|e| e != "in") {
                continue;
            }
            let input = fs::read(&path).expect("an input");
            let answer = fs::read(path.with_extension(ext)).expect("its answer");
            assert!(output(&correct, &input) == answer, "{}", path.display());
        }
    }
    let statement = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/statement");
    let input = fs::read(statement.with_extension("in")).expect("the sample");
    let answer = fs::read(statement.with_extension("out")).expect("its answer");
    for b in bugs() {
        assert!(
            output(&dir.join(&b), &input) == answer,
            "BUG_{b} fails the statement's sample"
        );
    }
}

/// The suite of seed 1, built without these programs, kills every one of them.
#[test]
#[ignore = "slow (about 17 s: a whole suite): the full tier runs it"]
fn the_suite_of_seed_1_kills_every_planted_slip() {
    let dir = programs();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let files = suite(&Plan::new(1, DEFAULT_FILES, jobs));
    let inputs: Vec<Vec<u8>> = files.iter().map(|f| Case::of(&f.cmds).to_bytes()).collect();
    let answers: Vec<Vec<u8>> = inputs.iter().map(|i| judged(i)).collect();
    let correct = dir.join("correct");
    for (input, answer) in inputs.iter().zip(&answers) {
        assert!(
            output(&correct, input) == *answer,
            "the correct program fails"
        );
    }
    let survivors: Vec<String> = bugs()
        .into_iter()
        .filter(|b| {
            let program = dir.join(b);
            inputs
                .iter()
                .zip(&answers)
                .all(|(input, answer)| output(&program, input) == *answer)
        })
        .collect();
    assert!(survivors.is_empty(), "survive seed 1: {survivors:?}");
}
