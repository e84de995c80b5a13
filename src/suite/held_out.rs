//! Measuring a suite on mistakes it was not built against. A suite built to kill a list
//! is tuned to that list; what a setter wants to know is how it does on the mistakes
//! nobody listed. So part of the catalogue is held out: the suite is built against the
//! rest, and its kill rate is measured on the part held out. Two ways of holding out:
//!
//! - [`halves`]: a random half of the catalogue, drawn anew for each seed;
//! - [`groups`]: each group of the catalogue in turn (one row of one piece's table in
//!   one use, or one topic of the hand-written mistakes), the suite built against all
//!   the others: the harder test, since nothing next to the held-out mistakes is seen.
//! - [`families`]: each family in turn, every group of it at once (the hand-written
//!   mistakes with their variants, the slips grown from the move table, and each family
//!   that follows a solution's shape): the hardest, since the suite is built as if
//!   nobody had thought of that kind of mistake at all.
//!
//! `scripts/bench-heldout.sh` runs them over many seeds and compares ways of building
//! the suite; docs/test-data-internals.md reports the figures, in the rows [`Summary::row`]
//! writes.

use super::build::suite;
use super::plan::{Plan, Weights};
use crate::catalogue::for_suite::{killed_by, Group, Mistake};
use crate::sys::rng::Rng;
use std::time::Instant;

/// A part of the catalogue to build against and a part held out.
#[derive(Clone, Debug)]
pub struct Split {
    /// What is held out, in words.
    pub name: String,
    /// The mistakes the suite is built against.
    pub train: Vec<Mistake>,
    /// The mistakes held out.
    pub held: Vec<Mistake>,
}

/// A random half of the catalogue held out, drawn from `seed`.
pub fn halves(seed: u64) -> Split {
    let mut all = Mistake::all().to_vec();
    // "heldout", then Fisher-Yates.
    let mut rng = Rng::new(seed ^ 0x0068_656C_646F_7574);
    for i in (1..all.len()).rev() {
        let j = rng.index(i + 1);
        all.swap(i, j);
    }
    let held = all.split_off(all.len() / 2);
    Split {
        name: format!("random half {seed}"),
        train: all,
        held,
    }
}

/// Each group of the catalogue held out in turn.
pub fn groups() -> Vec<Split> {
    Group::all()
        .into_iter()
        .map(|g| {
            let (held, train): (Vec<Mistake>, Vec<Mistake>) =
                Mistake::all().iter().partition(|m| m.group() == g);
            Split {
                name: g.title(),
                train,
                held,
            }
        })
        .filter(|s| !s.held.is_empty())
        .collect()
}

/// The family of `group`: where its mistakes come from, in words.
pub fn family_of(group: Group) -> String {
    match group {
        Group::Topic(_) => "written by hand, and their variants".to_string(),
        Group::Rows(..) => "grown from the move table".to_string(),
        Group::Family(f) => f.title().to_string(),
    }
}

/// Each family of the catalogue held out in turn, in catalogue order.
pub fn families() -> Vec<Split> {
    let mut names: Vec<String> = Vec::new();
    for g in Group::all() {
        let name = family_of(g);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let (held, train): (Vec<Mistake>, Vec<Mistake>) = Mistake::all()
                .iter()
                .partition(|m| family_of(m.group()) == name);
            Split { name, train, held }
        })
        .collect()
}

/// How a suite built against a split's training part does.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SplitScore {
    /// Mistakes held out.
    pub held: usize,
    /// Of them, killed by some file.
    pub killed: usize,
    /// Of them, killed by two files or more.
    pub twice: usize,
    /// Mistakes of the training part no file kills.
    pub missed: usize,
    /// Seconds the suite took to build.
    pub seconds: f64,
}

/// Builds a suite of `files` files from `seed` with `weights` against `split.train` and
/// measures it on both parts.
pub fn measure(
    split: &Split,
    seed: u64,
    files: usize,
    weights: Weights,
    jobs: usize,
) -> SplitScore {
    let plan = Plan {
        seed,
        files,
        total: files,
        mistakes: &split.train,
        weights,
        jobs,
    };
    let start = Instant::now();
    let built = suite(&plan);
    let seconds = start.elapsed().as_secs_f64();
    let mut held_kills = vec![0usize; split.held.len()];
    let mut train_killed = vec![false; split.train.len()];
    for f in &built {
        let killed = killed_by(&f.cmds, &split.held);
        for (n, m) in held_kills.iter_mut().zip(&split.held) {
            *n += usize::from(killed.contains(m));
        }
        let killed = killed_by(&f.cmds, &split.train);
        for (k, m) in train_killed.iter_mut().zip(&split.train) {
            *k |= killed.contains(m);
        }
    }
    SplitScore {
        held: split.held.len(),
        killed: held_kills.iter().filter(|&&n| n > 0).count(),
        twice: held_kills.iter().filter(|&&n| n > 1).count(),
        missed: train_killed.iter().filter(|&&k| !k).count(),
        seconds,
    }
}

/// Percent of `whole` that `part` is.
pub fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// One split's scores over many seeds, summed up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Mistakes held out (those of the first seed's split).
    pub held: usize,
    /// The held-out kill rate in percent: its mean over the seeds.
    pub mean: f64,
    /// Its sample standard deviation.
    pub sd: f64,
    /// Its lowest.
    pub min: f64,
    /// The mean rate of held-out mistakes killed by two files or more, in percent.
    pub twice: f64,
    /// Mistakes of the training parts no file kills, over all seeds.
    pub missed: usize,
    /// Seconds a suite took to build, on average.
    pub seconds: f64,
}

impl Summary {
    /// The summary of `scores` (at least one).
    pub fn of(scores: &[SplitScore]) -> Summary {
        let rates: Vec<f64> = scores.iter().map(|o| percent(o.killed, o.held)).collect();
        let twice: Vec<f64> = scores.iter().map(|o| percent(o.twice, o.held)).collect();
        let n = scores.len().max(1) as f64;
        let mean = rates.iter().sum::<f64>() / n;
        let var = rates.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        Summary {
            held: scores.first().map_or(0, |o| o.held),
            mean,
            sd: var.sqrt(),
            min: rates.iter().copied().fold(f64::INFINITY, f64::min),
            twice: twice.iter().sum::<f64>() / n,
            missed: scores.iter().map(|o| o.missed).sum(),
            seconds: scores.iter().map(|o| o.seconds).sum::<f64>() / n,
        }
    }

    /// The header of the table [`Summary::row`] writes rows of, in Markdown.
    pub const HEADER: &'static str = "| family held out | mistakes | held out killed: mean (sd) | the worst seed | killed by two files | listed mistakes left alive |\n|---|---:|---:|---:|---:|---:|";

    /// The row of the family `name` in the table of held-out families, in Markdown.
    pub fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {:.2}% ({:.2}) | {:.2}% | {:.2}% | {} |",
            self.held, self.mean, self.sd, self.min, self.twice, self.missed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_cover_the_catalogue_once() {
        let all = Mistake::all().len();
        let h = halves(3);
        assert_eq!(h.train.len() + h.held.len(), all);
        assert!(h.held.iter().all(|m| !h.train.contains(m)));
        assert_ne!(halves(4).held, h.held);
        let g = groups();
        assert_eq!(g.iter().map(|s| s.held.len()).sum::<usize>(), all);
        for s in &g {
            assert_eq!(s.train.len() + s.held.len(), all, "{}", s.name);
        }
        let f = families();
        assert_eq!(f.iter().map(|s| s.held.len()).sum::<usize>(), all);
        let names: Vec<&str> = f.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names[..2],
            [
                "written by hand, and their variants",
                "grown from the move table"
            ]
        );
        for s in &f {
            assert!(!s.held.is_empty(), "{}", s.name);
            assert_eq!(s.train.len() + s.held.len(), all, "{}", s.name);
            // A family is whole groups: no group is split between the two parts.
            assert!(s
                .held
                .iter()
                .all(|h| s.train.iter().all(|t| t.group() != h.group())));
        }
        for family in crate::catalogue::for_suite::Family::ALL {
            assert!(names.contains(&family.title()), "{}", family.title());
        }
    }

    #[test]
    fn summaries_and_their_rows() {
        let score = |killed, twice, missed| SplitScore {
            held: 20,
            killed,
            twice,
            missed,
            seconds: 2.0,
        };
        let s = Summary::of(&[score(20, 18, 0), score(18, 10, 1)]);
        assert_eq!(s.held, 20);
        assert!((s.mean - 95.0).abs() < 1e-9);
        assert!((s.sd - 50f64.sqrt()).abs() < 1e-9);
        assert!((s.min - 90.0).abs() < 1e-9 && (s.twice - 70.0).abs() < 1e-9);
        assert_eq!(s.missed, 1);
        assert_eq!(
            s.row("x"),
            "| x | 20 | 95.00% (7.07) | 90.00% | 70.00% | 1 |"
        );
        let columns = |line: &str| line.matches('|').count();
        for line in Summary::HEADER.lines() {
            assert_eq!(columns(line), columns(&s.row("x")));
        }
    }
}
