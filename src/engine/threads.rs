//! The threads of a parallel search (Lazy SMP, as Stockfish does it): every thread runs
//! its own iterative deepening on the same position with its own move-ordering
//! history, and they share only the transposition table, so that what one finds
//! orders and cuts the others' trees. This module holds what the threads need beyond
//! [`crate::engine::search`]: the helpers' histories, which depths a helper skips so
//! that the threads do not all search the same iteration, the vote that picks the
//! move among them, and the flag that stops the helpers once the main thread is done.
//! Not on the judge path.

use crate::engine::history::HISTORY_LEN;
use crate::engine::tt::MATE_BOUND;
use crate::judge::rules::Move;
use crate::sys::os;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most threads a search may use. Each thread beyond the first costs about
/// 3.5 MB (its history tables and its search's working state), so that the largest
/// count stays within about 900 MB besides the shared table.
pub const MAX_THREADS: usize = 256;

/// A thread count the system could not give memory for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadsError {
    /// The count asked for.
    pub wanted: usize,
    /// The count kept.
    pub kept: usize,
}

impl std::fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate the memory of {} threads; keeping {}",
            self.wanted, self.kept
        )
    }
}

impl std::error::Error for ThreadsError {}

/// The move-ordering histories of the helper threads (every thread but the first),
/// kept from one search to the next as the first thread's is.
#[derive(Default)]
pub(crate) struct Helpers {
    histories: Vec<Vec<i16>>,
    /// Whether a search ran since the histories were last aged (or zeroed): the next
    /// one must age them first.
    stale: bool,
}

impl Helpers {
    /// The number of helper threads.
    pub fn len(&self) -> usize {
        self.histories.len()
    }

    /// Keeps `count` helper histories: drops those beyond it (their memory goes back
    /// at once), or adds empty ones. When the memory cannot be had, keeps the ones
    /// there were and says so.
    pub fn set_len(&mut self, count: usize) -> Result<(), ThreadsError> {
        if count <= self.histories.len() {
            let fewer = count < self.histories.len();
            self.histories.truncate(count);
            self.histories.shrink_to_fit();
            if fewer {
                // The allocator may keep the freed tables in its heap (after a larger
                // block was freed, it serves blocks of this size from there).
                os::trim_allocator();
            }
            return Ok(());
        }
        let kept = self.histories.len();
        let error = ThreadsError {
            wanted: count + 1,
            kept: kept + 1,
        };
        let mut added = Vec::new();
        added.try_reserve_exact(count - kept).map_err(|_| error)?;
        for _ in kept..count {
            let mut history = Vec::new();
            history.try_reserve_exact(HISTORY_LEN).map_err(|_| error)?;
            history.resize(HISTORY_LEN, 0);
            added.push(history);
        }
        self.histories
            .try_reserve_exact(added.len())
            .map_err(|_| error)?;
        self.histories.append(&mut added);
        Ok(())
    }

    /// Forgets what the helpers learnt (a new game).
    pub fn clear(&mut self) {
        for h in &mut self.histories {
            h.iter_mut().for_each(|x| *x = 0);
        }
        self.stale = false;
    }

    /// The histories for a search, with whether each helper must age its own first
    /// (it does so in its own thread, out of the first thread's time). The next
    /// search will have to age them again.
    pub fn take_for_search(&mut self) -> (&mut [Vec<i16>], bool) {
        let age_first = std::mem::replace(&mut self.stale, true);
        (&mut self.histories, age_first)
    }
}

/// Ages a history between searches, so that one game's old statistics do not dominate.
pub(crate) fn age(history: &mut [i16]) {
    history.iter_mut().for_each(|h| *h /= 8);
}

/// Whether helper thread `index` (1 and up) skips the iteration of `depth` plies in
/// a game `moves_played` moves old: Stockfish's pattern, by which half the helpers
/// skip every other depth, a third of the rest two depths in three, and so on, each
/// in its own phase; so at any time the helpers spread over the next few depths
/// instead of all searching the main thread's.
pub(crate) fn skips(index: usize, depth: u32, moves_played: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    if index == 0 {
        return false;
    }
    let i = (index - 1) % SIZE.len();
    (depth + moves_played + PHASE[i]) / SIZE[i] % 2 == 1
}

/// One thread's answer: the best move of its deepest completed iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub best: Move,
    pub score: i32,
    pub depth: u32,
}

/// Which of the threads' answers to play (an index into `answers`, the main thread's
/// first): a proven win, the fastest one; otherwise the move with the most votes,
/// each thread voting for its move with its depth times how far its score is above
/// the lowest (plus a little, so every completed thread counts), and among the threads
/// that chose it the deepest. Ties go to the earlier thread, the main one first.
///
/// A deeper iteration is worth more than a shallower one, and a move that several
/// threads found at similar depths is safer than one thread's outlier.
pub(crate) fn vote(answers: &[Candidate]) -> usize {
    let win = (0..answers.len())
        .filter(|&i| answers[i].score >= MATE_BOUND)
        .min_by_key(|&i| (-answers[i].score, i));
    if let Some(i) = win {
        return i;
    }
    let lowest = answers.iter().map(|a| a.score).min().unwrap_or(0);
    let weight = |a: &Candidate| i64::from(a.score - lowest + 14) * i64::from(a.depth);
    let votes = |m: Move| -> i64 { answers.iter().filter(|a| a.best == m).map(weight).sum() };
    let mut chosen = 0;
    for (i, a) in answers.iter().enumerate().skip(1) {
        let best = &answers[chosen];
        let (mine, theirs) = (votes(a.best), votes(best.best));
        if mine > theirs || mine == theirs && a.best == best.best && a.depth > best.depth {
            chosen = i;
        }
    }
    chosen
}

/// Raises the helpers' stop flag when dropped: when the main thread's search ends,
/// however it ends (a panic included), so that no helper outlives it.
pub(crate) struct Halt<'a>(pub &'a AtomicBool);

impl Drop for Halt<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::piece::Square;

    fn go(a: u32, b: u32) -> Move {
        Move {
            from: Square::from_bit(a),
            to: Square::from_bit(b),
        }
    }

    #[test]
    fn the_first_helper_searches_every_other_depth_and_the_main_thread_all() {
        let searched =
            |index, played| -> Vec<u32> { (1..=8).filter(|&d| !skips(index, d, played)).collect() };
        assert_eq!(searched(0, 0), [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(searched(1, 0), [2, 4, 6, 8]);
        assert_eq!(searched(2, 0), [1, 3, 5, 7]);
        assert_eq!(
            searched(1, 1),
            [1, 3, 5, 7],
            "the phase moves with the game"
        );
        assert_eq!(searched(3, 0), [1, 4, 5, 8]);
        // The 21st helper takes up the first's pattern again.
        assert_eq!(searched(21, 0), searched(1, 0));
    }

    #[test]
    fn the_vote_weighs_depth_and_score() {
        let (a, b) = (go(1, 2), go(3, 4));
        let c = |best, score, depth| Candidate { best, score, depth };
        // Alone, the main thread wins.
        assert_eq!(vote(&[c(a, 10, 9)]), 0);
        // A helper one iteration deeper with a better score outvotes it...
        assert_eq!(vote(&[c(a, 20, 10), c(b, 30, 11)]), 1);
        // ...but not a shallower one with a worse score.
        assert_eq!(vote(&[c(a, 30, 10), c(b, 20, 9)]), 0);
        // Two threads that agree outvote a third; the deeper of the two is chosen.
        assert_eq!(vote(&[c(a, 20, 10), c(b, 25, 10), c(a, 20, 11)]), 2);
        // A proven win beats any vote, and the faster one the slower.
        let mate = crate::engine::eval::MATE;
        assert_eq!(vote(&[c(a, 50, 12), c(b, mate - 9, 5)]), 1);
        assert_eq!(
            vote(&[c(a, mate - 7, 8), c(b, mate - 5, 6), c(a, mate - 5, 7)]),
            1
        );
    }

    #[test]
    fn helpers_grow_shrink_and_give_back_their_memory() {
        let mut h = Helpers::default();
        h.set_len(3).unwrap();
        assert_eq!(h.len(), 3);
        assert!(h.histories.iter().all(|x| x.len() == HISTORY_LEN));
        h.histories[0][5] = 80;
        let (_, age_first) = h.take_for_search();
        assert!(!age_first, "a fresh set is not aged");
        let (_, age_first) = h.take_for_search();
        assert!(age_first, "after a search: each helper ages its own");
        h.set_len(0).unwrap();
        assert_eq!(h.histories.capacity(), 0);
        let stop = AtomicBool::new(false);
        drop(Halt(&stop));
        assert!(stop.load(Ordering::Relaxed));
    }
}
