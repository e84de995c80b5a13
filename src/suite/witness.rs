//! Witnesses: for each mistake, a small input on which its mutant answers differently
//! from the judge. Found by playing `stress`'s generated cases (every mode, short ones
//! first) against the mutant in process, then shrunk by `stress`'s own shrinker (cut
//! after the first difference, a shorter route to what matters, delta debugging) with
//! the mutant standing in for the program under test.
//!
//! The witnesses are kept as fixtures (`tests/fixtures/witness/NAME.in` with the judge's
//! `NAME.ans`); [`find`] is how a maintainer makes them again:
//! `UPDATE_WITNESSES=1 cargo test --test all audit::every_witness` finds and shrinks every
//! witness, writes both files, and removes those of mistakes no longer in the catalogue
//! (a new mistake needs an empty `NAME.in` first, since the binary builds them in).

use super::build::exposing;
use crate::catalogue::for_suite::{first_difference, judge_answers, Mistake};
use crate::generate::case::Case;
use crate::generate::case::Cmd;
use crate::generate::recipe::{self, Recipe};
use crate::show::diagnose::Kind;
use crate::shrink::search::{self, Budget, Tester, Trial};
use crate::shrink::shrinker::Shrinker;
use std::sync::atomic::{AtomicU64, Ordering};

/// The mutant of one mistake as the program under test: a wrong answer at its first
/// difference from the judge.
pub struct MutantTester {
    /// The mistake it makes.
    pub mistake: Mistake,
    runs: AtomicU64,
}

impl MutantTester {
    /// A tester for `mistake`.
    pub fn new(mistake: Mistake) -> MutantTester {
        MutantTester {
            mistake,
            runs: AtomicU64::new(0),
        }
    }

    /// The first command (from 0) the mutant answers differently, if any.
    pub fn difference(&self, cmds: &[Cmd]) -> Option<usize> {
        first_difference(self.mistake, cmds, &judge_answers(cmds))
    }
}

impl Tester for MutantTester {
    fn trial(&self, case: &Case) -> Option<Trial> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        Some(Trial::instant(self.difference(&case.cmds())))
    }

    fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }
}

/// How hard [`find`] tries.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// The seed of the generated cases.
    pub seed: u64,
    /// At most this many generated cases are tried.
    pub cases: u64,
    /// At most this many runs of the mutant while shrinking.
    pub shrink_runs: u64,
    /// Parallel runs.
    pub jobs: usize,
}

impl Default for Effort {
    fn default() -> Effort {
        Effort {
            seed: 1,
            cases: 200_000,
            shrink_runs: 20_000,
            jobs: 2,
        }
    }
}

/// A shrunk input that exposes `mistake`, and the number of generated cases tried
/// before one did; `None` when none of them did. Deterministic for a seed, whatever
/// the jobs.
pub fn find(mistake: Mistake, effort: Effort) -> Option<(Case, u64)> {
    let tester = MutantTester::new(mistake);
    let recipe = Recipe {
        seed: effort.seed,
        mode: None,
        max_q: 1000,
        messy: false,
        counts: false,
    };
    let budget = Budget { deadline: None };
    let found = search::first(
        effort.jobs,
        effort.cases,
        budget,
        |i| {
            let (case, _) = recipe::case(&recipe, i);
            let trial = tester.trial(&case)?;
            (trial.kind == Kind::WrongAnswer).then_some((case, trial))
        },
        None,
    );
    let (index, (case, trial)) = found.first?;
    let shrinker = Shrinker::new(
        &tester,
        effort.jobs,
        budget,
        tester.runs() + effort.shrink_runs,
        true,
    );
    Some((shrinker.shrink(case, trial).case, index + 1))
}

/// The witness of `mistake` as an input file: its fixture when the mistake was written
/// by hand; for the others, found now by the suite's search against it alone and shrunk
/// like a `stress` failure (the same every time). `None` when none was found.
pub fn of(mistake: Mistake, jobs: usize) -> Option<String> {
    if let Some(fixture) = mistake.fixture() {
        return Some(fixture.to_string());
    }
    // The search of one seed may miss a rare mistake; a few more seeds find it. One
    // that is found only late in a long game may shrink no further than that game's
    // route to it; the next seeds' games are shrunk too, and the shortest is kept.
    let mut best: Option<Case> = None;
    for seed in 1..=SEEDS {
        if best.as_ref().is_some_and(|b| b.len() <= SHORT) {
            break;
        }
        let Some(cmds) = exposing(mistake, seed) else {
            continue;
        };
        let shrunk = shrunk(mistake, Case::of(&cmds), jobs)?;
        if best.as_ref().is_none_or(|b| shrunk.len() < b.len()) {
            best = Some(shrunk);
        }
    }
    Some(String::from_utf8_lossy(&best?.to_bytes()).into_owned())
}

/// `case`, which exposes `mistake`, shrunk like a `stress` failure.
fn shrunk(mistake: Mistake, case: Case, jobs: usize) -> Option<Case> {
    let tester = MutantTester::new(mistake);
    let trial = tester.trial(&case)?;
    let budget = Budget { deadline: None };
    let shrinker = Shrinker::new(&tester, jobs, budget, SHRINK_RUNS, true);
    Some(shrinker.shrink(case, trial).case)
}

/// A witness this short is kept without trying the next seeds.
const SHORT: usize = 60;
/// Seeds of the search tried, at most.
const SEEDS: u64 = 8;
/// Runs of the mutant a witness is shrunk with, at most.
const SHRINK_RUNS: u64 = 20_000;
