//! Which mistake each test kills: every mistake played on every test by its mutant
//! judge, in process and in parallel, tallied in memory of a few bytes a test. A test
//! set of any size is tallied as its tests come ([`Running`]), a batch at a time, so
//! that only a batch of tests is held, never the whole set.

use super::list::Mistake;
use super::mutant::{self, Answer};
use crate::generate::case::Cmd;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

/// One input of the test set, checked and judged.
#[derive(Clone, Debug)]
pub struct Test {
    /// The input's path as shown in reports.
    pub name: String,
    /// Its commands.
    pub cmds: Vec<Cmd>,
    /// The judge's answers to them.
    pub expected: Vec<Answer>,
}

impl Test {
    /// A test of `cmds` named `name`.
    pub fn new(name: String, cmds: Vec<Cmd>) -> Test {
        let expected = mutant::judge_answers(&cmds);
        Test {
            name,
            cmds,
            expected,
        }
    }
}

/// What a test set kills, kept in memory that does not grow with the tests beyond a
/// few bytes each: for each mistake how many tests kill it and the first that does,
/// for each test how many mistakes it kills, and (only when asked for) the matrix of
/// which test kills which, one bit a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// For each mistake: the number of tests that kill it, and the first of them.
    pub killers: Vec<(u32, Option<u32>)>,
    /// For each test: the number of mistakes it kills.
    pub kills: Vec<u32>,
    /// For each mistake, a bit a test (test `j` is bit `j % 64` of word `j / 64`):
    /// set where the test kills it. Empty unless asked for.
    pub rows: Vec<Vec<u64>>,
}

impl Tally {
    /// Whether test `j` kills mistake `i` (the matrix must have been asked for).
    pub fn kills(&self, i: usize, j: usize) -> bool {
        self.rows[i][j / 64] >> (j % 64) & 1 == 1
    }

    /// For each test, how many mistakes it alone kills.
    pub fn alone(&self) -> Vec<u32> {
        let mut alone = vec![0; self.kills.len()];
        for &(count, first) in &self.killers {
            if let (1, Some(j)) = (count, first) {
                alone[j as usize] += 1;
            }
        }
        alone
    }
}

/// What `mutex` holds, even if a thread panicked holding it.
fn into<T>(mutex: Mutex<T>) -> T {
    mutex.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Plays each of `mistakes` on each of `tests` and tallies what kills what (the
/// matrix too when `with_rows`). Mistakes are shared out among `jobs` threads; the
/// result does not depend on them.
pub fn tally(tests: &[Test], mistakes: &[Mistake], jobs: usize, with_rows: bool) -> Tally {
    let words = tests.len().div_ceil(64);
    // One mistake's row: its count and first killer, its bits, and the test kills it
    // adds to `kills`.
    let row = |m: Mistake, kills: &mut [u32]| -> ((u32, Option<u32>), Vec<u64>) {
        let mut bits = if with_rows {
            vec![0u64; words]
        } else {
            Vec::new()
        };
        let (mut count, mut first) = (0u32, None);
        for (j, t) in tests.iter().enumerate() {
            if mutant::first_difference(m, &t.cmds, &t.expected).is_some() {
                count += 1;
                first = first.or(Some(j as u32));
                kills[j] += 1;
                if with_rows {
                    bits[j / 64] |= 1 << (j % 64);
                }
            }
        }
        ((count, first), bits)
    };
    let jobs = jobs.clamp(1, mistakes.len().max(1));
    let next = AtomicUsize::new(0);
    let killers: Mutex<Vec<(u32, Option<u32>)>> = Mutex::new(vec![(0, None); mistakes.len()]);
    let rows: Mutex<Vec<Vec<u64>>> = Mutex::new(vec![Vec::new(); mistakes.len()]);
    let totals: Mutex<Vec<u32>> = Mutex::new(vec![0; tests.len()]);
    let work = || {
        let mut kills = vec![0u32; tests.len()];
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&m) = mistakes.get(i) else { break };
            let (killer, bits) = row(m, &mut kills);
            if let Ok(mut k) = killers.lock() {
                k[i] = killer;
            }
            if let Ok(mut r) = rows.lock() {
                r[i] = bits;
            }
        }
        if let Ok(mut t) = totals.lock() {
            for (total, k) in t.iter_mut().zip(kills) {
                *total += k;
            }
        }
    };
    if jobs == 1 {
        work();
    } else {
        thread::scope(|scope| {
            for _ in 0..jobs {
                scope.spawn(work);
            }
        });
    }
    Tally {
        killers: into(killers),
        kills: into(totals),
        rows: if with_rows { into(rows) } else { Vec::new() },
    }
}

/// The most tests a batch of [`Running`] holds.
const BATCH_TESTS: usize = 256;
/// The most commands a batch of [`Running`] holds (some hundreds of kilobytes).
const BATCH_COMMANDS: usize = 16_384;

/// A tally kept as the tests come: each batch of tests is played by every mistake (in
/// parallel) and dropped, and only the [`Tally`] grows, by a few bytes a test (a bit a
/// cell more with the matrix).
pub struct Running<'a> {
    mistakes: &'a [Mistake],
    jobs: usize,
    with_rows: bool,
    /// What the batches played so far kill.
    tally: Tally,
    /// The tests not played yet.
    batch: Vec<Test>,
    /// Their commands.
    batch_commands: usize,
    /// The most tests and commands a batch holds.
    limits: (usize, usize),
    /// For each test played and not yet taken ([`Running::take_sets`]), the mistakes
    /// it kills, a bit each (mistake `i` is bit `i % 64` of word `i / 64`).
    sets: Vec<Vec<u64>>,
}

impl<'a> Running<'a> {
    /// An empty tally of `mistakes` (see [`tally`] for `jobs` and `with_rows`).
    pub fn new(mistakes: &'a [Mistake], jobs: usize, with_rows: bool) -> Running<'a> {
        Running {
            mistakes,
            jobs,
            with_rows,
            tally: Tally {
                killers: vec![(0, None); mistakes.len()],
                kills: Vec::new(),
                rows: if with_rows {
                    vec![Vec::new(); mistakes.len()]
                } else {
                    Vec::new()
                },
            },
            batch: Vec::new(),
            batch_commands: 0,
            limits: (BATCH_TESTS, BATCH_COMMANDS),
            sets: Vec::new(),
        }
    }

    /// Adds the next test (its index is the number of tests added before it).
    pub fn add(&mut self, test: Test) {
        self.batch_commands += test.cmds.len();
        self.batch.push(test);
        if self.batch.len() >= self.limits.0 || self.batch_commands >= self.limits.1 {
            self.play();
        }
    }

    /// Plays the tests added and not played yet (a batch plays by itself when full)
    /// and folds them into the tally.
    pub fn play(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        // The batch's own matrix, for the sets of what each test kills.
        let part = tally(&self.batch, self.mistakes, self.jobs, true);
        let words = self.mistakes.len().div_ceil(64);
        for j in 0..self.batch.len() {
            let mut set = vec![0u64; words];
            for (i, word) in (0..self.mistakes.len()).map(|i| (i, i / 64)) {
                if part.kills(i, j) {
                    set[word] |= 1 << (i % 64);
                }
            }
            self.sets.push(set);
        }
        let offset = self.tally.kills.len();
        for (total, (count, first)) in self.tally.killers.iter_mut().zip(&part.killers) {
            total.0 += count;
            total.1 = total.1.or(first.map(|j| j + offset as u32));
        }
        if self.with_rows {
            let words = (offset + self.batch.len()).div_ceil(64);
            for (i, row) in self.tally.rows.iter_mut().enumerate() {
                row.resize(words, 0);
                for j in (0..self.batch.len()).filter(|&j| part.kills(i, j)) {
                    let at = offset + j;
                    row[at / 64] |= 1 << (at % 64);
                }
            }
        }
        self.tally.kills.extend(part.kills);
        self.batch.clear();
        self.batch_commands = 0;
    }

    /// What each test played since the last call kills, in order: a set of bits for
    /// each, mistake `i` bit `i % 64` of word `i / 64`. Taken as the tests come, they
    /// are held no longer than a batch.
    pub fn take_sets(&mut self) -> Vec<Vec<u64>> {
        std::mem::take(&mut self.sets)
    }

    /// The tally of every test added.
    pub fn finish(mut self) -> Tally {
        self.play();
        self.tally
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tally_is_the_same_on_any_number_of_threads() {
        let tests: Vec<Test> = [
            vec![[0, 0, 1, 0]],
            vec![[3, 0, 4, 0], [6, 0, 5, 0], [0, 0, 2, 0]],
            vec![[0, 1, 2, 2], [9, 1, 7, 2]],
        ]
        .into_iter()
        .enumerate()
        .map(|(i, cmds)| Test::new(format!("{i}.in"), cmds))
        .collect();
        let mistakes = Mistake::all();
        let one = tally(&tests, mistakes, 1, true);
        assert_eq!(tally(&tests, mistakes, 3, true), one);
        let plain = tally(&tests, mistakes, 2, false);
        assert_eq!((&plain.killers, &plain.kills), (&one.killers, &one.kills));
        assert!(plain.rows.is_empty());
        for (i, &m) in mistakes.iter().enumerate() {
            let killers: Vec<usize> = (0..tests.len())
                .filter(|&j| {
                    mutant::first_difference(m, &tests[j].cmds, &tests[j].expected).is_some()
                })
                .collect();
            assert_eq!(one.killers[i].0 as usize, killers.len());
            assert_eq!(one.killers[i].1, killers.first().map(|&j| j as u32));
            for j in 0..tests.len() {
                assert_eq!(one.kills(i, j), killers.contains(&j));
            }
        }
        assert!(one.kills.iter().sum::<u32>() > 0);
    }

    #[test]
    fn a_running_tally_over_many_batches_is_the_tally_of_the_whole() {
        // Past several batches, of tests and of commands, with tests that kill
        // different mistakes at different places.
        let shapes = [
            vec![[0, 0, 1, 0]],
            vec![[3, 0, 4, 0], [6, 0, 5, 0], [0, 0, 2, 0]],
            vec![[0, 1, 2, 2], [9, 1, 7, 2]],
            vec![[0, 4, 1, 4]; 12],
        ];
        let tests: Vec<Test> = (0..150)
            .map(|i| Test::new(format!("{i}.in"), shapes[(i * 7 / 5) % 4].clone()))
            .collect();
        let mistakes = Mistake::all();
        for with_rows in [false, true] {
            let whole = tally(&tests, mistakes, 2, with_rows);
            let mut running = Running::new(mistakes, 2, with_rows);
            running.limits = (40, 50);
            let mut sets = Vec::new();
            for t in &tests {
                running.add(t.clone());
                sets.extend(running.take_sets());
            }
            running.play();
            sets.extend(running.take_sets());
            assert_eq!(running.finish(), whole);
            // Each test's set holds exactly the mistakes it kills.
            let full = tally(&tests, mistakes, 1, true);
            assert_eq!(sets.len(), tests.len());
            for (j, set) in sets.iter().enumerate() {
                for i in 0..mistakes.len() {
                    assert_eq!(set[i / 64] >> (i % 64) & 1 == 1, full.kills(i, j));
                }
            }
        }
    }
}
