//! Which mistake each test kills: every mistake played on every test by its mutant
//! judge, in process and in parallel, and the first command where it answers
//! differently from the judge.

use super::catalogue::Mistake;
use super::mutant::{self, Answer, Cmd};
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

/// For each of `mistakes` (rows) and each test (columns), the first command (from 0) on
/// which the mistake answers differently from the judge, if any. Mistakes are shared out
/// among `jobs` threads; the result does not depend on them.
pub fn matrix(tests: &[Test], mistakes: &[Mistake], jobs: usize) -> Vec<Vec<Option<usize>>> {
    let row = |m: Mistake| -> Vec<Option<usize>> {
        tests
            .iter()
            .map(|t| mutant::first_difference(m, &t.cmds, &t.expected))
            .collect()
    };
    let jobs = jobs.clamp(1, mistakes.len().max(1));
    if jobs == 1 {
        return mistakes.iter().map(|&m| row(m)).collect();
    }
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<Vec<Option<usize>>>> = Mutex::new(vec![Vec::new(); mistakes.len()]);
    thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&m) = mistakes.get(i) else { break };
                let r = row(m);
                if let Ok(mut rows) = rows.lock() {
                    rows[i] = r;
                }
            });
        }
    });
    rows.into_inner().unwrap_or_default()
}
