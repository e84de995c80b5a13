//! The program under test as a [`Tester`]: one fresh process per case through
//! [`crate::harness::process`], judged against the built-in judge as the output streams
//! ([`Comparator`], [`verdict::classify`]).

use crate::generate::case::Case;
use crate::harness::process::{self, Feed, Run, Stderr};
use crate::harness::verdict;
use crate::sandbox::group;
use crate::show::compare::{Comparator, Compared};
use crate::show::diagnose::Kind;
use crate::show::fault::Fault;
use crate::shrink::search::{Tester, Trial};
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
    /// Its memory limit per case, in bytes.
    pub memory: u64,
    /// Compare byte for byte, rather than as the online judge does by default.
    pub exact: bool,
    /// Runs so far.
    runs: AtomicU64,
    /// The program could not be started: the reason, once.
    broken: Mutex<Option<String>>,
}

impl Oracle {
    /// An oracle for `argv`.
    pub fn new(argv: Vec<String>, timeout: Duration, memory: u64, exact: bool) -> Oracle {
        Oracle {
            argv,
            timeout,
            memory,
            exact,
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
        let mut comparator = Comparator::new(&answer[..]).strict(self.exact);
        let run = process::run_program_with(
            &self.argv,
            &input,
            self.timeout,
            self.memory,
            &mut comparator,
            stderr,
        )?;
        // What a summary on Ctrl-C counts.
        group::count_for_signal_note(1);
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
                let kind = verdict::classify(&run, &compared, self.exact);
                let line = match kind {
                    Kind::WrongAnswer => compared.difference.as_ref().map(|d| d.line),
                    _ => None,
                };
                let fault = match (kind, &compared.difference) {
                    (Kind::WrongAnswer, Some(d)) => Some(Fault::of_wrong_answer(&case.cmds(), d)),
                    // Any other verdict, or whitespace alone differing under `--exact`.
                    _ => Fault::of_verdict(kind),
                };
                let trial = Trial {
                    kind,
                    line,
                    elapsed: run.elapsed(),
                    fault,
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
                    b.get_or_insert_with(|| process::cannot_run(&self.argv, &e));
                }
                None
            }
        }
    }
}
