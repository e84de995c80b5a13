//! The search's time management: when it must stop (a node cap, a hard deadline, an
//! outside stop flag), when no new iteration should start (the soft deadline), and
//! pondering, whose clock starts only at the `ponderhit`. How much time a move gets
//! is [`crate::engine::clock`]'s business. With several threads searching, the node
//! cap counts the nodes of all of them. Not on the judge path.

use crate::sys::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// What stops one search, and when its clock started.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watch<'a> {
    /// When the search started (the hard and soft limits count from it unless it
    /// ponders).
    started: Instant,
    deadline: Option<Instant>,
    node_cap: u64,
    stop: Option<&'a AtomicBool>,
    /// While pondering: the `ponderhit` flag, and the hard time limit that starts when
    /// it is raised; `deadline` is unset until then.
    ponder: Option<(&'a AtomicBool, Option<Duration>)>,
    /// Whether the search pondered when it started.
    pondering: bool,
    /// When the `ponderhit` was seen, once it was.
    hit_at: Option<Instant>,
    /// With several threads: each thread's node count, as it published it at its last
    /// look, and the index of this thread's (the node cap is on their sum); and the
    /// flag that stops them all (the main thread is done, or a helper completed the
    /// last iteration).
    pool: Option<(&'a [AtomicU64], usize, &'a AtomicBool)>,
}

impl<'a> Watch<'a> {
    /// No limit at all, started now.
    pub fn unlimited() -> Watch<'a> {
        Watch {
            started: Instant::now(),
            deadline: None,
            node_cap: u64::MAX,
            stop: None,
            ponder: None,
            pondering: false,
            hit_at: None,
            pool: None,
        }
    }

    /// The watch of a search that started at `started` within `nodes` nodes and a
    /// hard limit of `time` (`None`: no such limit), stopped by `stop` when it is
    /// raised; with a `ponderhit` flag that is not raised yet, the clock waits for it.
    pub fn new(
        started: Instant,
        nodes: Option<u64>,
        time: Option<Duration>,
        stop: Option<&'a AtomicBool>,
        ponderhit: Option<&'a AtomicBool>,
    ) -> Watch<'a> {
        let mut watch = Watch {
            started,
            node_cap: nodes.unwrap_or(u64::MAX),
            stop,
            ..Watch::unlimited()
        };
        match ponderhit {
            Some(flag) if !flag.load(Ordering::Relaxed) => {
                watch.ponder = Some((flag, time));
                watch.pondering = true;
            }
            _ => watch.deadline = time.and_then(|t| started.checked_add(t)),
        }
        watch
    }

    /// The same watch, stopped by `stop` when it is raised.
    pub fn with_stop(self, stop: Option<&'a AtomicBool>) -> Watch<'a> {
        Watch { stop, ..self }
    }

    /// The same watch for thread `index` of a search whose threads publish their node
    /// counts in `counts` (the node cap is on their sum), and stop when `halt` is
    /// raised.
    pub fn with_pool(
        self,
        counts: &'a [AtomicU64],
        index: usize,
        halt: &'a AtomicBool,
    ) -> Watch<'a> {
        Watch {
            pool: Some((counts, index, halt)),
            ..self
        }
    }

    /// The same watch with a hard deadline at `deadline` (none: no clock).
    pub fn with_deadline(self, deadline: Option<Instant>) -> Watch<'a> {
        Watch { deadline, ..self }
    }

    /// Whether the search must stop after `nodes` nodes of this thread: the node cap,
    /// the deadline or the stop flag says so.
    pub fn expired(&mut self, nodes: u64) -> bool {
        if self.ponder.is_some() {
            self.poll_ponderhit();
        }
        self.publish(nodes);
        self.total(nodes) >= self.node_cap
            || self
                .pool
                .is_some_and(|(_, _, halt)| halt.load(Ordering::Relaxed))
            || self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether `nodes` of this thread leave the search short of the node cap (a stop
    /// at that count came from the clock or the flag).
    pub fn below_cap(&self, nodes: u64) -> bool {
        self.total(nodes) < self.node_cap
    }

    /// Publishes this thread's node count to the others. Sequentially consistent, as
    /// are the loads of [`Watch::total`]: the last thread to look before the cap stops
    /// them all sees every other thread's last count, which bounds how far they pass
    /// the cap together (see [`Watch::look_every`]).
    fn publish(&self, nodes: u64) {
        if let Some((counts, me, _)) = self.pool {
            counts[me].store(nodes, Ordering::SeqCst);
        }
    }

    /// The nodes of every thread of the search, this one's being `nodes`.
    fn total(&self, nodes: u64) -> u64 {
        match self.pool {
            None => nodes,
            Some((counts, me, _)) => counts
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if i == me {
                        nodes
                    } else {
                        c.load(Ordering::SeqCst)
                    }
                })
                .sum(),
        }
    }

    /// Sets the node cap to `nodes`.
    pub fn cap_at(&mut self, nodes: u64) {
        self.node_cap = nodes;
    }

    /// How many nodes a thread searches between two looks at this watch, a power of
    /// two: `every` without a node cap or alone; under a node cap shared by `n`
    /// threads, `every / n` (at least 1), so that all of them together pass the cap by
    /// fewer than `every` nodes however many they are. (Each stops at a look, counting
    /// no node after it. Of the looks before the last, the latest saw every other
    /// thread's count at most one share short of its end, and the sum under the cap: so
    /// the sum at the end is under the cap plus `n` shares, at most `every`.)
    pub fn look_every(&self, every: u64) -> u64 {
        let threads = self.pool.map_or(1, |(counts, _, _)| counts.len() as u64);
        if self.node_cap == u64::MAX || threads <= 1 {
            return every;
        }
        let share = (every / threads).max(1);
        // The largest power of two not above the share.
        1 << (63 - share.leading_zeros())
    }

    /// While pondering, looks whether the `ponderhit` came: if so, arms the deadline
    /// from now. Returns when the `ponderhit` was seen; `None` while pondering goes on.
    pub fn poll_ponderhit(&mut self) -> Option<Instant> {
        if let Some((flag, hard)) = self.ponder {
            if flag.load(Ordering::Relaxed) {
                let now = Instant::now();
                self.ponder = None;
                self.deadline = hard.and_then(|t| now.checked_add(t));
                self.hit_at = Some(now);
            }
        }
        self.hit_at
    }

    /// Whether the soft limit `soft` has passed: no new iteration starts after it. It
    /// counts from the start, or from the ponderhit once it came (never while
    /// pondering).
    pub fn soft_passed(&mut self, soft: Option<Duration>) -> bool {
        let clock_from = if self.pondering {
            self.poll_ponderhit()
        } else {
            Some(self.started)
        };
        let soft = clock_from.and_then(|from| soft.and_then(|t| from.checked_add(t)));
        soft.is_some_and(|t| Instant::now() >= t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_cap_and_the_flag_stop_the_search() {
        let stop = AtomicBool::new(false);
        let mut w = Watch::new(Instant::now(), Some(100), None, Some(&stop), None);
        assert!(!w.expired(99));
        assert!(w.expired(100));
        assert!(w.below_cap(99) && !w.below_cap(100));
        stop.store(true, Ordering::Relaxed);
        assert!(w.expired(0));
        w.cap_at(5);
        assert!(!w.below_cap(5));
    }

    #[test]
    fn under_a_node_cap_many_threads_look_more_often() {
        let counts: Vec<AtomicU64> = (0..64).map(|_| AtomicU64::new(0)).collect();
        let halt = AtomicBool::new(false);
        let capped = Watch::new(Instant::now(), Some(1), None, None, None);
        assert_eq!(capped.look_every(256), 256);
        for (n, every) in [(1, 256), (2, 128), (3, 64), (5, 32), (64, 4)] {
            let w = capped.with_pool(&counts[..n], 0, &halt);
            assert_eq!(w.look_every(256), every, "{n} threads");
            assert!(every * n as u64 <= 256);
        }
        let free = Watch::unlimited().with_pool(&counts, 0, &halt);
        assert_eq!(free.look_every(256), 256);
    }

    #[test]
    fn the_node_cap_counts_every_thread() {
        let counts = [AtomicU64::new(0), AtomicU64::new(0)];
        let halt = AtomicBool::new(false);
        let mut main =
            Watch::new(Instant::now(), Some(100), None, None, None).with_pool(&counts, 0, &halt);
        let mut helper = Watch::unlimited().with_pool(&counts, 1, &halt);
        assert!(!main.expired(60));
        assert!(!helper.expired(39), "a helper has no cap of its own");
        assert_eq!(counts[1].load(Ordering::Relaxed), 39);
        assert!(main.below_cap(60));
        assert!(main.expired(61), "60 + 39 is short of 100, 61 + 39 is not");
        assert!(!main.below_cap(61));
        halt.store(true, Ordering::Relaxed);
        assert!(helper.expired(40), "the pool's flag stops every thread");
    }

    #[test]
    fn a_pondering_clock_starts_at_the_ponderhit() {
        let hit = AtomicBool::new(false);
        let zero = Some(Duration::ZERO);
        let past = Instant::now() - Duration::from_secs(1);
        let mut w = Watch::new(past, None, zero, None, Some(&hit));
        // Long past the time limit, but pondering: no stop.
        assert!(!w.expired(0));
        assert!(!w.soft_passed(Some(Duration::ZERO)));
        assert_eq!(w.poll_ponderhit(), None);
        hit.store(true, Ordering::Relaxed);
        assert!(
            w.expired(0),
            "the hard limit of 0 counts from the ponderhit"
        );
        assert!(w.poll_ponderhit().is_some());
        assert!(w.soft_passed(Some(Duration::ZERO)));
        // Without pondering, the deadline counts from the start.
        let mut w = Watch::new(past, None, zero, None, None);
        assert!(w.expired(0));
        assert!(w.soft_passed(Some(Duration::from_millis(500))));
        assert!(!w.soft_passed(Some(Duration::from_secs(3600))));
    }
}
