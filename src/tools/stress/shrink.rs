//! Shrinking a failing case while it fails the same way (the same verdict; for a wrong
//! answer, any disagreement): cut everything after the first differing line, drop the
//! invalid commands, replace the game before the failing command by a shorter route to
//! what matters ([`super::route`]), then delta debugging (Zeller's ddmin, removing ever
//! smaller runs of commands) and pairs of commands (one move of each side, so the side to
//! move is kept). Rounds repeat until none shrinks; the last ddmin pass tries every
//! single command, so the result is 1-minimal unless the budget ran out first.
//!
//! Candidates are tried in parallel through [`run::first`], which always settles on the
//! lowest failing one, so a seeded run shrinks to the same case whatever the jobs.

use crate::tools::diagnose::Kind;
use crate::tools::stress::case::{Case, Line};
use crate::tools::stress::route;
use crate::tools::stress::run::{self, Budget, Oracle, Trial};

/// A shrunk case.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The case.
    pub case: Case,
    /// How it fails.
    pub trial: Trial,
    /// Removing any one command makes it pass (or fail differently).
    pub minimal: bool,
}

/// Shrinks failing cases against one program.
pub struct Shrinker<'a> {
    /// The program.
    pub oracle: &'a Oracle,
    /// Parallel runs.
    pub jobs: usize,
    /// When to stop.
    pub budget: Budget,
    /// At most this many runs of the program in all (the oracle's count).
    pub max_runs: u64,
}

impl Shrinker<'_> {
    fn exhausted(&self) -> bool {
        self.budget.spent() || self.oracle.runs() >= self.max_runs
    }

    /// The lowest index among `count` candidates made by `make` that fails like `like`,
    /// with the case and its trial.
    fn first_failing(
        &self,
        count: usize,
        like: &Trial,
        make: impl Fn(usize) -> Option<Case> + Sync,
    ) -> Option<(usize, Case, Trial)> {
        if self.exhausted() || count == 0 {
            return None;
        }
        let found = run::first(
            self.jobs,
            count as u64,
            self.budget,
            |i| {
                if self.oracle.runs() >= self.max_runs {
                    return None;
                }
                let case = make(i as usize)?;
                let trial = self.oracle.trial(&case)?;
                trial.fails_like(like).then_some((case, trial))
            },
            |_| {},
        );
        found
            .first
            .map(|(i, (case, trial))| (i as usize, case, trial))
    }

    /// Whether `case` fails like `like`; its trial if so.
    fn fails(&self, case: &Case, like: &Trial) -> Option<Trial> {
        let c = case.clone();
        self.first_failing(1, like, move |_| Some(c.clone()))
            .map(|(_, _, t)| t)
    }

    /// A wrong answer cut after its first differing line, when that still fails.
    fn cut(&self, case: Case, trial: Trial) -> (Case, Trial) {
        if let (Kind::WrongAnswer, Some(line)) = (trial.kind, trial.line) {
            let n = line as usize + 1;
            if n < case.len() {
                let shorter = case.prefix(n);
                if let Some(t) = self.fails(&shorter, &trial) {
                    return (shorter, t);
                }
            }
        }
        (case, trial)
    }

    /// Shrinks `case`, which fails as `trial` says.
    pub fn shrink(&self, case: Case, trial: Trial) -> Shrunk {
        let (mut case, mut trial) = self.cut(case, trial);
        let mut minimal = false;
        while !self.exhausted() {
            let before = case.len();
            (case, trial) = self.drop_invalid(case, trial);
            if trial.kind == Kind::WrongAnswer {
                (case, trial) = self.reroute(case, trial);
            }
            let complete;
            (case, trial, complete) = self.ddmin(case, trial);
            (case, trial) = self.pairs(case, trial);
            if case.len() >= before {
                minimal = complete && !self.exhausted();
                break;
            }
        }
        Shrunk {
            case,
            trial,
            minimal,
        }
    }

    /// Every invalid command but the last command dropped at once.
    fn drop_invalid(&self, case: Case, trial: Trial) -> (Case, Trial) {
        let valid = case.validity();
        let last = case.len().saturating_sub(1);
        let shorter = case.without(|i| i < last && !valid[i]);
        if shorter.len() < case.len() {
            if let Some(t) = self.fails(&shorter, &trial) {
                return self.cut(shorter, t);
            }
        }
        (case, trial)
    }

    /// The game before the last command replaced by a short route to the events that
    /// matter: first all of them, then without each one that the failure does not need.
    fn reroute(&self, case: Case, trial: Trial) -> (Case, Trial) {
        let Some((&last, before)) = case.lines.split_last() else {
            return (case, trial);
        };
        let cmds: Vec<_> = before.iter().map(|l| l.cmd).collect();
        let story = route::story(&cmds);
        if story.events.is_empty() {
            return (case, trial);
        }
        let build = |events: &[route::Event]| -> Option<Case> {
            let mut lines: Vec<Line> = route::realize(events, story.side)?
                .into_iter()
                .map(Line::plain)
                .collect();
            lines.push(last);
            Some(Case { lines })
        };
        let mut best = (case, trial);
        let mut kept = story.events.clone();
        if let Some(full) = build(&kept) {
            if full.len() < best.0.len() {
                if let Some(t) = self.fails(&full, &trial) {
                    best = self.cut(full, t);
                }
            }
        }
        for _pass in 0..3 {
            let mut dropped = false;
            let mut start = 0;
            while start < kept.len() && !self.exhausted() {
                let found = self.first_failing(kept.len() - start, &trial, |i| {
                    let mut events = kept.clone();
                    events.remove(start + i);
                    build(&events)
                });
                let Some((i, candidate, t)) = found else {
                    break;
                };
                kept.remove(start + i);
                start += i;
                dropped = true;
                if candidate.len() < best.0.len() {
                    best = self.cut(candidate, t);
                }
            }
            if !dropped {
                break;
            }
        }
        best
    }

    /// Delta debugging by complements: remove one of `n` runs of commands while that
    /// fails; when none does, halve the runs. Returns whether it ended by trying every
    /// single command.
    fn ddmin(&self, mut case: Case, mut trial: Trial) -> (Case, Trial, bool) {
        let mut n = 2;
        while case.len() >= 2 {
            if self.exhausted() {
                return (case, trial, false);
            }
            let len = case.len();
            let bounds = |k: usize| k * len / n;
            let current = &case;
            let found = self.first_failing(n, &trial, |k| {
                let (a, b) = (bounds(k), bounds(k + 1));
                Some(current.without(|i| i >= a && i < b))
            });
            match found {
                Some((_, shorter, t)) => {
                    (case, trial) = self.cut(shorter, t);
                    n = (n - 1).max(2);
                }
                None if n >= len => return (case, trial, !self.exhausted()),
                None => n = (n * 2).min(len),
            }
        }
        (case, trial, !self.exhausted())
    }

    /// Removes two neighbouring commands at once while that fails.
    fn pairs(&self, mut case: Case, mut trial: Trial) -> (Case, Trial) {
        let mut start = 0;
        while start + 1 < case.len() {
            let current = &case;
            let found = self.first_failing(case.len() - 1 - start, &trial, |k| {
                let i = start + k;
                Some(current.without(|j| j == i || j == i + 1))
            });
            match found {
                Some((k, shorter, t)) => {
                    start += k;
                    (case, trial) = self.cut(shorter, t);
                }
                None => break,
            }
        }
        (case, trial)
    }
}
