//! Which tests of a set are needed: a smallest set of tests that together show
//! everything the whole set shows, found greedily, and the others, which are redundant.
//!
//! What a test shows is a set of *findings* (for `audit`: the mistakes it kills, the
//! cells of the statement's model and of the move table's map it reaches), kept as bits
//! in a few families, each family's distinct sets stored once ([`Sets`]): a test costs
//! an index a family, whatever it shows, and a test set of many alike tests stays small.
//!
//! The cover is the greedy one (the classic approximation of the smallest set cover,
//! within a factor of about ln n of the smallest): again and again the test that adds
//! the most findings not yet covered (the earliest on a tie), until every finding of
//! the set is covered; then, last chosen first, each chosen test that adds nothing the
//! other chosen tests lack is dropped. So every test that alone shows a finding is in
//! the cover, and keeping only the cover loses no finding.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Bit sets of one family, each distinct set stored once, and which set each test has.
#[derive(Clone, Debug, Default)]
pub struct Sets {
    /// The distinct sets, a bit a finding (finding `i` is bit `i % 64` of word `i / 64`).
    distinct: Vec<Vec<u64>>,
    /// The index of each distinct set in `distinct`.
    index: HashMap<Vec<u64>, u32>,
    /// For each test, in order, the index of its set.
    of_test: Vec<u32>,
}

impl Sets {
    /// No test yet.
    pub fn new() -> Sets {
        Sets::default()
    }

    /// Adds the next test's set (trailing zero words make no difference).
    pub fn push(&mut self, mut bits: Vec<u64>) {
        while bits.last() == Some(&0) {
            bits.pop();
        }
        let next = self.distinct.len() as u32;
        let id = *self.index.entry(bits.clone()).or_insert(next);
        if id == next {
            self.distinct.push(bits);
        }
        self.of_test.push(id);
    }

    /// The tests added.
    pub fn len(&self) -> usize {
        self.of_test.len()
    }

    /// Whether no test was added.
    pub fn is_empty(&self) -> bool {
        self.of_test.is_empty()
    }

    /// Test `j`'s set.
    fn of(&self, j: usize) -> &[u64] {
        &self.distinct[self.of_test[j] as usize]
    }
}

/// The findings of `bits` not in `covered`.
fn new_in(bits: &[u64], covered: &[u64]) -> u64 {
    bits.iter()
        .enumerate()
        .map(|(i, &w)| u64::from((w & !covered.get(i).copied().unwrap_or(0)).count_ones()))
        .sum()
}

/// Adds `bits` to `covered`.
fn cover_with(covered: &mut Vec<u64>, bits: &[u64]) {
    if covered.len() < bits.len() {
        covered.resize(bits.len(), 0);
    }
    for (c, &w) in covered.iter_mut().zip(bits) {
        *c |= w;
    }
}

/// The greedy cover of the tests of `families` (each family holding every test, in
/// the same order): the indices of the tests it keeps, in order. Every finding some
/// test shows is shown by a kept test, and no kept test could be left out alone.
pub fn greedy(families: &[&Sets]) -> Vec<usize> {
    let tests = families.iter().map(|f| f.len()).min().unwrap_or(0);
    let mut covered: Vec<Vec<u64>> = vec![Vec::new(); families.len()];
    let gain = |j: usize, covered: &[Vec<u64>]| -> u64 {
        families
            .iter()
            .zip(covered)
            .map(|(f, c)| new_in(f.of(j), c))
            .sum()
    };
    // Lazy greedy: a test's gain only falls as the cover grows, so a gain computed
    // earlier bounds it; the top of the heap, once its gain is current, is the best
    // (the earliest of the best, as `Reverse` orders ties).
    let mut heap: BinaryHeap<(u64, Reverse<usize>)> = (0..tests)
        .map(|j| (gain(j, &covered), Reverse(j)))
        .filter(|&(g, _)| g > 0)
        .collect();
    let mut chosen = Vec::new();
    while let Some((stale, Reverse(j))) = heap.pop() {
        let now = gain(j, &covered);
        if now == stale {
            for (f, c) in families.iter().zip(covered.iter_mut()) {
                cover_with(c, f.of(j));
            }
            chosen.push(j);
        } else if now > 0 {
            heap.push((now, Reverse(j)));
        }
    }
    prune(families, chosen)
}

/// `chosen` without the tests that add nothing the others lack, the last chosen looked
/// at first; sorted.
fn prune(families: &[&Sets], mut chosen: Vec<usize>) -> Vec<usize> {
    // How many chosen tests show each finding, family by family.
    let mut counts: Vec<Vec<u32>> = vec![Vec::new(); families.len()];
    let bits = |bits: &[u64]| -> Vec<usize> {
        (0..bits.len() * 64)
            .filter(|&i| bits[i / 64] >> (i % 64) & 1 == 1)
            .collect()
    };
    for &j in &chosen {
        for (f, c) in families.iter().zip(counts.iter_mut()) {
            for i in bits(f.of(j)) {
                if c.len() <= i {
                    c.resize(i + 1, 0);
                }
                c[i] += 1;
            }
        }
    }
    for at in (0..chosen.len()).rev() {
        let j = chosen[at];
        let needed = families
            .iter()
            .zip(&counts)
            .any(|(f, c)| bits(f.of(j)).into_iter().any(|i| c[i] == 1));
        if !needed {
            for (f, c) in families.iter().zip(counts.iter_mut()) {
                for i in bits(f.of(j)) {
                    c[i] -= 1;
                }
            }
            chosen.remove(at);
        }
    }
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A family of the sets `sets`, each a list of findings.
    fn family(sets: &[&[usize]]) -> Sets {
        let mut f = Sets::new();
        for s in sets {
            let mut bits = vec![0u64; 2];
            for &i in *s {
                bits[i / 64] |= 1 << (i % 64);
            }
            f.push(bits);
        }
        f
    }

    /// Whether the tests `kept` show every finding all of `families` show.
    fn covers(families: &[&Sets], kept: &[usize]) -> bool {
        families.iter().all(|f| {
            let mut all = Vec::new();
            let mut some = Vec::new();
            for j in 0..f.len() {
                cover_with(&mut all, f.of(j));
                if kept.contains(&j) {
                    cover_with(&mut some, f.of(j));
                }
            }
            new_in(&all, &some) == 0
        })
    }

    #[test]
    fn a_duplicate_is_redundant_and_a_lone_finder_is_kept() {
        // Test 1 repeats test 0; test 2 alone shows finding 70 (in the second family).
        let kills = family(&[&[1, 2, 3], &[1, 2, 3], &[3]]);
        let cells = family(&[&[5], &[5], &[5, 70]]);
        let kept = greedy(&[&kills, &cells]);
        assert_eq!(kept, vec![0, 2]);
        assert!(covers(&[&kills, &cells], &kept));
        // The same set is stored once.
        assert_eq!(kills.distinct.len(), 2);
    }

    #[test]
    fn the_greedy_choice_takes_the_biggest_first_and_prunes_what_it_then_lacks_nothing_of() {
        // 0 = {0..3}, 1 = {0, 1}, 2 = {2, 3}, 3 = {4}: greedy takes 0, then 3; 1 and 2
        // are redundant. Where the first choice ends up useless: 0 = {1, 2, 3, 4},
        // 1 = {0, 1, 2, 5}, 2 = {3, 4, 6}: greedy takes 0 (four new, the earliest of
        // two), then 1 (0 and 5), then 2 (6); 0 then adds nothing the others lack.
        let f = family(&[&[0, 1, 2, 3], &[0, 1], &[2, 3], &[4]]);
        assert_eq!(greedy(&[&f]), vec![0, 3]);
        let g = family(&[&[1, 2, 3, 4], &[0, 1, 2, 5], &[3, 4, 6]]);
        let kept = greedy(&[&g]);
        assert_eq!(kept, vec![1, 2]);
        assert!(covers(&[&g], &kept));
    }

    #[test]
    fn tests_that_show_nothing_are_never_kept() {
        let f = family(&[&[], &[], &[]]);
        assert_eq!(greedy(&[&f]), Vec::<usize>::new());
        assert_eq!(greedy(&[]), Vec::<usize>::new());
    }

    #[test]
    fn random_sets_are_covered_and_no_kept_test_can_go_alone() {
        let mut seed = 7u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..50 {
            let sets: Vec<Vec<usize>> = (0..12)
                .map(|_| (0..128).filter(|_| next() % 9 == 0).collect())
                .collect();
            let refs: Vec<&[usize]> = sets.iter().map(|s| &s[..]).collect();
            let f = family(&refs);
            let kept = greedy(&[&f]);
            assert!(covers(&[&f], &kept));
            for &j in &kept {
                let without: Vec<usize> = kept.iter().copied().filter(|&k| k != j).collect();
                assert!(!covers(&[&f], &without), "{j} of {kept:?} could go");
            }
        }
    }
}
