//! Numbered pieces of work run on several threads, their results handed over in the
//! order of their numbers: what `selfplay` and `match` play side by side and still
//! write as one thread would. Each thread keeps a state of its own (an engine, the
//! engines' processes) from one piece to the next, and takes the lowest number not yet
//! taken; a result that ends before the ones below it waits, and no thread runs more
//! than a bounded number of pieces ahead of the last one handed over, so the results
//! waiting never take more memory than that many pieces. The caller's thread hands the
//! results over, so what it writes to needs no lock.
//!
//! [`on_threads`] is the simple case: a function of each item of a slice, on a few
//! threads that each take every so many items, the results in the items' order (the
//! suite's searches score their candidates so).

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;

/// What the threads share: the next number to take, the next to hand over, and
/// whether to take no more.
struct Gate {
    taken: u64,
    handed: u64,
    stop: bool,
}

/// The gate and the condition its waiters wait on.
struct Shared {
    gate: Mutex<Gate>,
    moved: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Gate> {
        // A thread that panicked leaves the numbers consistent: each change is one
        // assignment.
        self.gate.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next number for a thread to work on, once it is at most `ahead` past the
    /// last one handed over; `None` when all are taken or the run stops. The wait
    /// ends when the piece being handed over next is done, which another thread works
    /// on already.
    fn take(&self, count: u64, ahead: u64) -> Option<u64> {
        let mut gate = self.lock();
        loop {
            if gate.stop || gate.taken >= count {
                return None;
            }
            if gate.taken < gate.handed + ahead {
                gate.taken += 1;
                return Some(gate.taken - 1);
            }
            gate = self.moved.wait(gate).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn stop(&self) {
        self.lock().stop = true;
        self.moved.notify_all();
    }
}

/// Stops the run when a thread's work panics, so that the other threads do not wait
/// for its result for ever; the panic then reaches the caller.
struct StopOnPanic<'a>(&'a Shared);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.stop();
        }
    }
}

/// Runs `work` on the numbers `0..count` on `jobs` threads (at least one, at most
/// `count`), each thread with its own `state()`, and calls `deliver` on the caller's
/// thread with each result in the order of the numbers. At most `ahead` numbers (at
/// least one) are taken and not yet delivered at any time. When `deliver` fails, no
/// new number is taken, the pieces under way finish, and the error is returned; what
/// was delivered before stays delivered.
pub fn in_order<S, T, E>(
    count: u64,
    jobs: usize,
    ahead: usize,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, u64) -> T + Sync,
    mut deliver: impl FnMut(u64, T) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
{
    let ahead = ahead.max(1) as u64;
    let threads = (jobs.max(1) as u64).min(count);
    let shared = Shared {
        gate: Mutex::new(Gate {
            taken: 0,
            handed: 0,
            stop: false,
        }),
        moved: Condvar::new(),
    };
    let (sender, results) = mpsc::channel::<(u64, T)>();
    thread::scope(|scope| {
        let mut started = 0;
        for _ in 0..threads {
            let sender = sender.clone();
            let (shared, state, work) = (&shared, &state, &work);
            let spawned = thread::Builder::new().spawn_scoped(scope, move || {
                let _guard = StopOnPanic(shared);
                let mut own = state();
                while let Some(i) = shared.take(count, ahead) {
                    if sender.send((i, work(&mut own, i))).is_err() {
                        break;
                    }
                }
            });
            // A machine that cannot start another thread (its process table full) goes
            // on with the threads there are.
            started += usize::from(spawned.is_ok());
        }
        if started == 0 {
            drop(sender);
            return alone(count, &state, &work, &mut deliver);
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        // Ends when every thread has ended (all numbers done, or the run stopped).
        for (i, result) in results.iter() {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&next) {
                if let Err(e) = deliver(next, result) {
                    shared.stop();
                    return Err(e);
                }
                next += 1;
                shared.lock().handed = next;
                shared.moved.notify_all();
            }
        }
        Ok(())
    })
}

/// `f` of each of `items`, in their order, on up to `jobs` threads (each taking every
/// `jobs`th item): the same results whatever the number of threads.
pub fn on_threads<T: Sync, R: Send + Clone + Default>(
    jobs: usize,
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let jobs = jobs.clamp(1, items.len().max(1));
    if jobs <= 1 {
        return items.iter().map(&f).collect();
    }
    let mut out = vec![R::default(); items.len()];
    let f = &f;
    let stride = |j: usize| {
        (j..items.len())
            .step_by(jobs)
            .map(|i| (i, f(&items[i])))
            .collect::<Vec<_>>()
    };
    thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                thread::Builder::new()
                    .spawn_scoped(scope, move || stride(j))
                    .map_err(|_| j)
            })
            .collect();
        for h in handles {
            // A stride whose thread could not start (the process table full) is
            // worked on here; a scoring thread only plays games, it does not panic.
            let part = match h {
                Ok(h) => h.join().unwrap_or_default(),
                Err(j) => stride(j),
            };
            for (i, r) in part {
                out[i] = r;
            }
        }
    });
    out
}

/// [`in_order`] on the caller's thread alone, when no thread could be started.
fn alone<S, T, E>(
    count: u64,
    state: impl Fn() -> S,
    work: impl Fn(&mut S, u64) -> T,
    mut deliver: impl FnMut(u64, T) -> Result<(), E>,
) -> Result<(), E> {
    let mut own = state();
    for i in 0..count {
        deliver(i, work(&mut own, i))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    /// Work that takes longer for some numbers than for later ones, so that results
    /// end out of order.
    fn uneven(i: u64) -> u64 {
        thread::sleep(Duration::from_millis((7 * i + 3) % 5));
        i * i
    }

    #[test]
    fn results_come_in_order_whatever_the_threads() {
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let done: Result<(), ()> = in_order(
                20,
                jobs,
                jobs,
                || (),
                |_, i| uneven(i),
                |i, r| {
                    seen.push((i, r));
                    Ok(())
                },
            );
            assert_eq!(done, Ok(()));
            let expected: Vec<(u64, u64)> = (0..20).map(|i| (i, i * i)).collect();
            assert_eq!(seen, expected, "{jobs} jobs");
        }
    }

    #[test]
    fn no_thread_runs_further_ahead_than_allowed() {
        let delivered = AtomicU64::new(0);
        let worst = AtomicU64::new(0);
        let started = AtomicU64::new(0);
        let done: Result<(), ()> = in_order(
            30,
            4,
            3,
            || (),
            |_, i| {
                started.fetch_add(1, Ordering::SeqCst);
                let behind = i - delivered.load(Ordering::SeqCst);
                worst.fetch_max(behind, Ordering::SeqCst);
                uneven(i)
            },
            |i, _| {
                delivered.store(i + 1, Ordering::SeqCst);
                Ok(())
            },
        );
        assert_eq!(done, Ok(()));
        assert_eq!(started.load(Ordering::SeqCst), 30);
        // Number i starts only once i - 3 has been delivered.
        assert!(worst.load(Ordering::SeqCst) < 3, "{worst:?}");
    }

    #[test]
    fn each_thread_keeps_its_own_state() {
        let made = AtomicU64::new(0);
        let done: Result<(), ()> = in_order(
            12,
            3,
            6,
            || made.fetch_add(1, Ordering::SeqCst),
            |own, i| (*own, i),
            |_, _| Ok(()),
        );
        assert_eq!(done, Ok(()));
        assert_eq!(made.load(Ordering::SeqCst), 3);
        // Fewer pieces than threads: no idle thread is started.
        made.store(0, Ordering::SeqCst);
        let done: Result<(), ()> = in_order(
            2,
            8,
            8,
            || made.fetch_add(1, Ordering::SeqCst),
            |_, i| i,
            |_, _| Ok(()),
        );
        assert_eq!(done, Ok(()));
        assert_eq!(made.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_failed_delivery_stops_the_run() {
        let started = AtomicU64::new(0);
        let mut seen = Vec::new();
        let done = in_order(
            1000,
            2,
            2,
            || (),
            |_, i| {
                started.fetch_add(1, Ordering::SeqCst);
                i
            },
            |i, _| {
                seen.push(i);
                if i == 5 {
                    Err("full")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(done, Err("full"));
        assert_eq!(seen, [0, 1, 2, 3, 4, 5]);
        // At most the window past the failure was started.
        assert!(started.load(Ordering::SeqCst) <= 8, "{started:?}");
    }

    #[test]
    fn nothing_to_do_is_done_at_once() {
        let done: Result<(), ()> = in_order(0, 4, 4, || (), |_, i| i, |_, _| Err(()));
        assert_eq!(done, Ok(()));
    }

    #[test]
    fn a_panic_in_the_work_reaches_the_caller() {
        let outcome = std::panic::catch_unwind(|| {
            let _: Result<(), ()> = in_order(
                10,
                2,
                2,
                || (),
                |_, i| {
                    assert!(i != 3, "piece 3 fails");
                    i
                },
                |_, _| Ok(()),
            );
        });
        assert!(outcome.is_err());
    }
}
