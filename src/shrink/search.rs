//! The parallel search for the first failing candidate of a list, shared by `stress`'s
//! search for a failing case and by the shrinker; and what it tries candidates with: a
//! [`Tester`] (the program under test, or a mutant judge standing in for one) that
//! gives a [`Trial`] for each case.
//!
//! The search gives the same answer whatever the number of jobs and however the threads
//! are scheduled: candidates are claimed in order, and once one fails, only the
//! candidates before it are still run, so the lowest failing index is the answer.

use crate::generate::case::Case;
use crate::show::diagnose::Kind;
use crate::show::fault::Fault;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// One run of one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trial {
    /// The verdict.
    pub kind: Kind,
    /// For a wrong answer: the index (from 0) of the first differing line, when it is
    /// not only whitespace that differs.
    pub line: Option<u64>,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// For a failure, its kind, where the tester tells it ([`Fault`]).
    pub fault: Option<Fault>,
}

impl Trial {
    /// The trial of a run judged in no time (a stand-in judged in process): a wrong
    /// answer on line `line` (from 0), or accepted without one.
    pub fn instant(line: Option<usize>) -> Trial {
        Trial {
            kind: if line.is_some() {
                Kind::WrongAnswer
            } else {
                Kind::Accepted
            },
            line: line.map(|l| l as u64),
            elapsed: Duration::ZERO,
            fault: None,
        }
    }

    /// Whether this trial fails the way `like` did: the same verdict, and the same kind
    /// of failure where `like` has one (without one, any disagreement is a wrong answer
    /// like another).
    pub fn fails_like(&self, like: &Trial) -> bool {
        self.kind != Kind::Accepted
            && self.kind == like.kind
            && match (like.fault, self.fault) {
                (None, _) => true,
                (Some(like), Some(this)) => like.same_kind(&this),
                (Some(_), None) => false,
            }
    }

    /// This trial with no kind of failure: what fails like it is any failure of its
    /// verdict.
    pub fn loosely(self) -> Trial {
        Trial {
            fault: None,
            ..self
        }
    }
}

/// Something that tries cases: the program under test, or a stand-in in the tests.
pub trait Tester: Sync {
    /// Runs `case` and judges it; `None` when it cannot be run at all.
    fn trial(&self, case: &Case) -> Option<Trial>;
    /// How many runs so far.
    fn runs(&self) -> u64;
}

/// When a search must stop claiming candidates.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// The run's deadline, if it has one.
    pub deadline: Option<Instant>,
}

impl Budget {
    /// Whether the time is up.
    pub fn spent(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// What a parallel search found.
#[derive(Debug)]
pub struct Found<T> {
    /// The lowest index whose test gave a result, with that result.
    pub first: Option<(u64, T)>,
    /// How many candidates were tested.
    pub tested: u64,
}

/// Tests candidates `0..count` with `test` on `jobs` threads and returns the lowest
/// index whose test gives `Some` (every lower index has been tested), unless the budget
/// runs out first. `progress`, when given, is called about every quarter second on the
/// calling thread with the number tested so far.
pub fn first<T: Send>(
    jobs: usize,
    count: u64,
    budget: Budget,
    test: impl Fn(u64) -> Option<T> + Sync,
    progress: Option<&mut dyn FnMut(u64)>,
) -> Found<T> {
    let next = AtomicU64::new(0);
    let best = AtomicU64::new(u64::MAX);
    let tested = AtomicU64::new(0);
    let result: Mutex<Option<(u64, T)>> = Mutex::new(None);
    let workers = (jobs.max(1) as u64).min(count.max(1)) as usize;
    let running = AtomicU64::new(workers as u64);
    let work = || {
        loop {
            if budget.spent() {
                break;
            }
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= count || i > best.load(Ordering::SeqCst) {
                break;
            }
            let found = test(i);
            tested.fetch_add(1, Ordering::Relaxed);
            if let Some(t) = found {
                if let Ok(mut r) = result.lock() {
                    if r.as_ref().is_none_or(|(j, _)| i < *j) {
                        *r = Some((i, t));
                        best.store(i, Ordering::SeqCst);
                    }
                }
            }
        }
        running.fetch_sub(1, Ordering::SeqCst);
    };
    match progress {
        // One worker and nobody to tell: no thread at all.
        None if workers == 1 => work(),
        None => thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(work);
            }
        }),
        Some(progress) => thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(work);
            }
            let mut pause = Duration::from_millis(1);
            let mut last = Instant::now();
            while running.load(Ordering::SeqCst) > 0 {
                thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
                if last.elapsed() >= Duration::from_millis(250) {
                    progress(tested.load(Ordering::Relaxed));
                    last = Instant::now();
                }
            }
        }),
    }
    Found {
        first: result.into_inner().ok().flatten(),
        tested: tested.load(Ordering::Relaxed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lowest_failing_index_wins_whatever_the_jobs() {
        let budget = Budget { deadline: None };
        for jobs in [1, 2, 3, 8] {
            let found = first(
                jobs,
                1000,
                budget,
                |i| (i % 97 == 41 || i == 500).then_some(i * 2),
                None,
            );
            assert_eq!(found.first, Some((41, 82)), "{jobs} jobs");
            assert!(found.tested >= 42 && found.tested <= 42 + jobs as u64);
        }
        let mut calls = 0;
        let none = first(2, 50, budget, |_| None::<()>, Some(&mut |_| calls += 1));
        assert_eq!((none.first, none.tested), (None, 50));
    }
}
