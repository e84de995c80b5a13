//! Running cases against the program under test, one fresh process per case through
//! [`crate::tools::process`], and judging them against the built-in judge as the output
//! streams ([`Comparator`], [`diagnose::classify`]); and the parallel search for the
//! first failing candidate of a list, shared by the search and the shrinker.
//!
//! The parallel search gives the same answer whatever the number of jobs and however
//! the threads are scheduled: candidates are claimed in order, and once one fails, only
//! the candidates before it are still run, so the lowest failing index is the answer.

use crate::generate::case::Case;
use crate::show::compare::{Comparator, Compared};
use crate::show::diagnose::{self, Kind};
use crate::tools::process::{self, Feed, Run, Stderr};
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
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
}

impl Trial {
    /// Whether this trial fails the way `like` did: the same verdict (for a wrong answer,
    /// any disagreement).
    pub fn fails_like(&self, like: &Trial) -> bool {
        self.kind != Kind::Accepted && self.kind == like.kind
    }
}

/// Something that tries cases: the program under test, or a stand-in in the tests.
pub trait Tester: Sync {
    /// Runs `case` and judges it; `None` when it cannot be run at all.
    fn trial(&self, case: &Case) -> Option<Trial>;
    /// How many runs so far.
    fn runs(&self) -> u64;
}

impl Tester for Oracle {
    fn trial(&self, case: &Case) -> Option<Trial> {
        Oracle::trial(self, case)
    }

    fn runs(&self) -> u64 {
        Oracle::runs(self)
    }
}

/// A judged run, with what a report needs.
#[derive(Debug)]
pub struct Judged {
    /// The verdict.
    pub trial: Trial,
    /// How the program ended.
    pub run: Run,
    /// How its output compared.
    pub compared: Compared,
    /// Its input.
    pub input: Feed,
}

/// The program under test and how it is judged.
#[derive(Debug)]
pub struct Oracle {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// Its time limit per case.
    pub timeout: Duration,
    /// Accept differences in whitespace that Luogu ignores.
    pub ignore_whitespace: bool,
    /// Runs so far.
    runs: AtomicU64,
    /// The program could not be started: the reason, once.
    broken: Mutex<Option<String>>,
}

impl Oracle {
    /// An oracle for `argv`.
    pub fn new(argv: Vec<String>, timeout: Duration, ignore_whitespace: bool) -> Oracle {
        Oracle {
            argv,
            timeout,
            ignore_whitespace,
            runs: AtomicU64::new(0),
            broken: Mutex::new(None),
        }
    }

    /// How many runs so far.
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// Why the program could not be run, if it could not.
    pub fn broken(&self) -> Option<String> {
        self.broken.lock().ok().and_then(|b| b.clone())
    }

    /// Runs `case` and keeps everything a report needs (standard error only when asked:
    /// the runs of the search and the shrinking only need the verdict).
    pub fn run(&self, case: &Case, stderr: Stderr) -> io::Result<(Run, Compared, Feed)> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let answer = case.answer();
        let input = Feed::Bytes(Arc::from(case.to_bytes()));
        let mut comparator = Comparator::new(&answer[..]);
        let run =
            process::run_program_with(&self.argv, &input, self.timeout, &mut comparator, stderr)?;
        Ok((run, comparator.finish(), input))
    }

    /// Runs `case` and judges it; `None` when the program cannot be started (the reason
    /// is kept, see [`Oracle::broken`]).
    pub fn trial(&self, case: &Case) -> Option<Trial> {
        self.judged(case, Stderr::Discard).map(|j| j.trial)
    }

    /// Runs `case` and judges it, keeping the run for a report.
    pub fn judged(&self, case: &Case, stderr: Stderr) -> Option<Judged> {
        match self.run(case, stderr) {
            Ok((run, compared, input)) => {
                let kind = diagnose::classify(&run, &compared, self.ignore_whitespace);
                let line = match kind {
                    Kind::WrongAnswer => compared.difference.as_ref().map(|d| d.line),
                    _ => None,
                };
                let trial = Trial {
                    kind,
                    line,
                    elapsed: run.elapsed(),
                };
                Some(Judged {
                    trial,
                    run,
                    compared,
                    input,
                })
            }
            Err(e) => {
                if let Ok(mut b) = self.broken.lock() {
                    b.get_or_insert_with(|| format!("cannot run {:?}: {e}", self.argv.join(" ")));
                }
                None
            }
        }
    }
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
