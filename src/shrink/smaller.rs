//! Smaller than 1-minimal: a 1-minimal case can still be long (no single command can go,
//! yet a game of a dozen moves would show the same mistake where the random game took a
//! hundred). So once the first failure is shrunk, the search starts again from short
//! games aimed at the same kind of difference (the caller's candidates, round by round:
//! shorter games of the same generator, or of others), shrinks each new failure the same
//! way, and keeps the smallest case. A round that finds no failure counts as one that
//! found nothing smaller. It stops after a few rounds, sooner when rounds stop helping or the
//! case is already tiny, and always within the budget.
//!
//! Every round settles on the lowest failing candidate ([`search::first`]) and shrinks it
//! deterministically, so a seeded run ends on the same case whatever the jobs.

use super::search;
use super::shrinker::{Shrinker, Shrunk};
use crate::generate::case::Case;

/// How hard to look for a smaller case.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// At most this many new failures are shrunk.
    pub rounds: usize,
    /// Stop after this many rounds in a row that found nothing smaller.
    pub patience: usize,
    /// Candidates a round tries at most to find a failure.
    pub candidates: u64,
    /// A case of at most this many commands is small enough: no more rounds.
    pub enough: usize,
    /// No round starts once this many candidates have been tried (counted as
    /// [`Smaller::tries`] counts them, so the same for any number of jobs).
    pub max_tries: u64,
}

/// What the search for a smaller case did.
#[derive(Clone, Debug)]
pub struct Smaller {
    /// The smallest case found (the first one when nothing smaller was).
    pub best: Shrunk,
    /// The size of the first shrunk case.
    pub first: usize,
    /// New failures found and shrunk.
    pub rounds: usize,
    /// Candidates tried on the way, counted as one job runs them (the same for any
    /// number of jobs): those searched and those the shrinking tried.
    pub tries: u64,
}

/// Looks for a case smaller than `first` (a shrunk case) among the failures like its
/// own of `candidate(round, index)` (round from 0; `None` skips an index), each shrunk
/// as `with` shrinks (its program, jobs, budget and most runs).
pub fn smaller(
    with: &Shrinker,
    first: Shrunk,
    effort: Effort,
    candidate: impl Fn(usize, u64) -> Option<Case> + Sync,
) -> Smaller {
    let (tester, jobs, budget, max_runs) = (with.oracle, with.jobs, with.budget, with.max_runs);
    let like = first.trial;
    let mut out = Smaller {
        first: first.case.len(),
        best: first,
        rounds: 0,
        tries: 0,
    };
    let mut idle = 0;
    for round in 0..effort.rounds {
        let spent = with.exhausted();
        let tired = idle >= effort.patience || out.tries >= effort.max_tries;
        if spent || tired || out.best.case.len() <= effort.enough {
            break;
        }
        let best_len = out.best.case.len();
        let found = search::first(
            jobs,
            effort.candidates.min(effort.max_tries - out.tries),
            budget,
            |i| {
                if tester.runs() >= max_runs {
                    return None;
                }
                let case = candidate(round, i)?;
                let trial = tester.trial(&case)?;
                trial.fails_like(&like).then_some((case, trial))
            },
            None,
        );
        // A round without a failure only counts as one that found nothing smaller: the
        // next may draw other games.
        let Some((index, (case, trial))) = found.first else {
            out.tries += found.tested;
            idle += 1;
            continue;
        };
        out.tries += index + 1;
        out.rounds += 1;
        // A shrinker of its own, so that its count of tries is this round's alone.
        let shrinker = Shrinker::new(tester, jobs, budget, max_runs, with.reroute);
        let shrunk = shrinker.shrink(case, trial);
        out.tries += shrunk.tries;
        // A case cut short by the budget counts only if it is smaller all the same.
        if shrunk.case.len() < best_len {
            out.best = shrunk;
            idle = 0;
        } else {
            idle += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::case::Cmd;
    use crate::shrink::search::{Budget, Tester, Trial};
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Fails in two ways: a command `[5, 5, 5, 5]` after a command `[1, 1, 1, 1]` (two
    /// commands at least), or six commands `[2, _, 2, _]` (six at least).
    struct Pair(AtomicU64);

    impl Tester for Pair {
        fn trial(&self, case: &Case) -> Option<Trial> {
            self.0.fetch_add(1, Ordering::Relaxed);
            let cmds = case.cmds();
            let a = cmds.iter().position(|&c| c == [1, 1, 1, 1]);
            let b = cmds.iter().rposition(|&c| c == [5, 5, 5, 5]);
            let fillers: Vec<usize> = (0..cmds.len())
                .filter(|&i| cmds[i][0] == 2 && cmds[i][2] == 2)
                .collect();
            let line = match (a, b) {
                (Some(a), Some(b)) if a < b => Some(b),
                _ => fillers.get(5).copied(),
            };
            Some(Trial::instant(line))
        }

        fn runs(&self) -> u64 {
            self.0.load(Ordering::Relaxed)
        }
    }

    const EFFORT: Effort = Effort {
        rounds: 4,
        patience: 2,
        candidates: 100,
        enough: 2,
        max_tries: 10_000,
    };

    #[test]
    fn a_smaller_failure_from_a_later_round_replaces_the_first() {
        let tester = Pair(AtomicU64::new(0));
        let fillers = |n: i64| -> Vec<Cmd> { (0..n).map(|i| [2, i, 2, i]).collect() };
        let long = Case::of(&fillers(10));
        let first = Shrunk {
            trial: tester.trial(&long).expect("runs"),
            case: long,
            minimal: false,
            tries: 0,
        };
        let with = Shrinker::new(&tester, 2, Budget { deadline: None }, 10_000, true);
        // Round 0 finds (at index 7) only the failure that needs six commands, round 1
        // (at index 3) the one that needs two.
        let found = smaller(&with, first, EFFORT, |round, i| {
            let cmds: Vec<Cmd> = match (round, i) {
                (0, 7) => fillers(8),
                (1, 3) => vec![[0, 0, 0, 0], [1, 1, 1, 1], [5, 5, 5, 5]],
                _ => vec![[0, 0, 0, 0]],
            };
            Some(Case::of(&cmds))
        });
        assert_eq!(found.first, 10);
        assert_eq!(found.best.case.cmds(), vec![[1, 1, 1, 1], [5, 5, 5, 5]]);
        assert!(found.best.minimal);
        assert_eq!(found.rounds, 2, "stops once the case is small enough");
        // Each round counts the candidates up to its failure, and its shrinking.
        assert!(found.tries > 8 + 4, "{}", found.tries);
    }

    #[test]
    fn rounds_that_find_nothing_smaller_stop_the_search() {
        let tester = Pair(AtomicU64::new(0));
        let case = Case::of(&[[1, 1, 1, 1], [0, 0, 0, 0], [5, 5, 5, 5]]);
        let first = Shrunk {
            trial: tester.trial(&case).expect("runs"),
            case: case.clone(),
            minimal: false,
            tries: 0,
        };
        let effort = Effort {
            enough: 1,
            ..EFFORT
        };
        let with = Shrinker::new(&tester, 1, Budget { deadline: None }, 10_000, true);
        // Every round finds the same failure at once, and it shrinks to two commands:
        // smaller once, then nothing smaller twice.
        let found = smaller(&with, first, effort, |_, _| Some(case.clone()));
        assert_eq!(found.best.case.len(), 2);
        assert_eq!(found.rounds, 3);
        assert_eq!(found.first, 3);
    }
}
