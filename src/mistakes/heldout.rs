//! Measuring a suite on mistakes it was not built against. A suite built to kill a list
//! is tuned to that list; what a setter wants to know is how it does on the mistakes
//! nobody listed. So part of the catalogue is held out: the suite is built against the
//! rest, and its kill rate is measured on the part held out. Two ways of holding out:
//!
//! - [`halves`]: a random half of the catalogue, drawn anew for each seed;
//! - [`groups`]: each group of the catalogue in turn (one row of one piece's table in
//!   one use, or one topic of the hand-written mistakes), the suite built against all
//!   the others: the harder test, since nothing next to the held-out mistakes is seen.
//!
//! `scripts/bench-heldout.sh` runs both over many seeds and compares ways of building
//! the suite; the setters' guide reports the figures.

use super::catalogue::{Group, Mistake};
use super::suite::{killed_by, suite, Plan, Weights};
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
    }
}
