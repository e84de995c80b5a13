//! The computer's searches for the server (its moves, and the analysis of a game), with
//! limits no client can lift: the thinking time is capped, at most a few searches run
//! at once (503 beyond), and each runs on a thread of its own while the request waits
//! with a hard deadline. Should a search ever overrun its clock, the client still gets
//! an answer in time, the late search is told to stop, and it keeps its slot until it
//! ends, so overruns cannot pile up. A search that ends frees its slot before its
//! answer goes out, so one client asking again and again never finds the computer
//! busy.

use super::state::ApiError;
use crate::engine::level::{self, Strength};
use crate::engine::search::{Context, Engine, Limits, Report};
use crate::judge::board::Board;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;

/// The longest the computer may think for one move, whatever a client asks.
pub const MAX_THINK: Duration = Duration::from_secs(5);
/// The shortest: the engine needs a moment to find any move at all.
pub const MIN_THINK: Duration = Duration::from_millis(10);
/// How long past its thinking time a search may take before the request gives up.
pub const GRACE: Duration = Duration::from_secs(1);

/// Why no move came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkError {
    /// Every search slot is taken.
    Busy,
    /// The search did not answer within its time and the grace.
    Late(Duration),
    /// The search could not start or failed.
    Failed,
}

impl fmt::Display for ThinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThinkError::Busy => write!(f, "the computer is busy with other games; try again"),
            ThinkError::Late(d) => {
                write!(f, "the computer did not answer within {} ms", d.as_millis())
            }
            ThinkError::Failed => write!(f, "the computer could not search this position"),
        }
    }
}

/// The answer to a request whose search could not run or answer: 503 when the
/// computer is busy or late (the client may ask again), 500 when it failed.
pub fn refusal(e: ThinkError) -> ApiError {
    ApiError {
        status: match e {
            ThinkError::Failed => 500,
            ThinkError::Busy | ThinkError::Late(_) => 503,
        },
        message: e.to_string(),
    }
}

/// A search: the position, the time it may take, and how strong it plays.
pub type SearchFn = fn(&Board, Duration, Strength) -> Report;

/// The real search: a fresh engine per request, so no request sees another's game. A
/// weakened level plays by its node budget, not by the clock, so that the same seed
/// brings the same game however busy the server is; the deadline of
/// [`Thinker::think`] still bounds it.
pub fn engine_search(board: &Board, time: Duration, strength: Strength) -> Report {
    if strength.level.is_full() {
        return Engine::new().search(board, Limits::time(time));
    }
    let mut engine = Engine::with_hash(1);
    let limits = Limits::nodes(u64::MAX);
    level::search(&mut engine, board, strength, limits, Context::default())
}

/// Runs searches under the limits.
pub struct Thinker {
    running: Arc<AtomicUsize>,
    slots: usize,
    grace: Duration,
    search: SearchFn,
}

/// Frees a slot when its search thread ends, however it ends.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Thinker {
    /// At most `slots` searches at once, each answered within its time plus [`GRACE`].
    pub fn new(slots: usize) -> Thinker {
        Thinker::with_search(slots, GRACE, engine_search)
    }

    /// The same with another search and grace (for tests).
    pub fn with_search(slots: usize, grace: Duration, search: SearchFn) -> Thinker {
        Thinker {
            running: Arc::new(AtomicUsize::new(0)),
            slots: slots.max(1),
            grace,
            search,
        }
    }

    /// `time` clamped to what the server allows.
    pub fn clamp(time: Duration) -> Duration {
        time.clamp(MIN_THINK, MAX_THINK)
    }

    /// Searches `board` for `time` (clamped) at `strength` and returns the report, or
    /// why not.
    pub fn think(
        &self,
        board: &Board,
        time: Duration,
        strength: Strength,
    ) -> Result<Report, ThinkError> {
        let time = Thinker::clamp(time);
        let (board, search) = (board.clone(), self.search);
        self.run(time, 0, move |_| search(&board, time, strength))
    }

    /// Runs `job`, a search expected to take `time`, in one of the slots, on a thread
    /// of its own, and returns its answer, or why not: no slot is free, or the job did
    /// not answer within `time` and the grace (then the flag it was given is raised, to
    /// stop it, and it keeps its slot until it ends). The job takes a slot only if
    /// `leave` more stay free (of a pool of two or more): work that can wait, such as
    /// an analysis, never takes the last slot from the computer's moves.
    pub fn run<T, F>(&self, time: Duration, leave: usize, job: F) -> Result<T, ThinkError>
    where
        T: Send + 'static,
        F: FnOnce(&AtomicBool) -> T + Send + 'static,
    {
        let cap = self.slots - leave.min(self.slots - 1);
        let taken = self
            .running
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < cap).then_some(n + 1)
            });
        if taken.is_err() {
            return Err(ThinkError::Busy);
        }
        let slot = Slot(Arc::clone(&self.running));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let flag = Arc::clone(&stop);
        let spawned = thread::Builder::new()
            .name("serve-think".to_string())
            .spawn(move || {
                // The slot is given back before the answer is sent (and by the guard if
                // the job panics): a client that asks again as soon as it has its
                // answer must find it free.
                let answer = job(&flag);
                drop(slot);
                let _ = tx.send(answer);
            });
        if spawned.is_err() {
            return Err(ThinkError::Failed);
        }
        let limit = time + self.grace;
        match rx.recv_timeout(limit) {
            Ok(answer) => Ok(answer),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                stop.store(true, Ordering::SeqCst);
                Err(ThinkError::Late(limit))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(ThinkError::Failed),
        }
    }

    /// Searches running now (late ones included).
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn a_real_search_answers() {
        let thinker = Thinker::new(1);
        let report = thinker
            .think(&Board::start(), Duration::from_millis(20), Strength::FULL)
            .expect("a move");
        assert!(report.best.is_some());
        assert_eq!(Thinker::clamp(Duration::from_secs(999)), MAX_THINK);
        assert_eq!(Thinker::clamp(Duration::ZERO), MIN_THINK);
    }

    /// A search that ends at once, as one does when a captain can be taken.
    fn instant(_: &Board, _: Duration, _: Strength) -> Report {
        Report {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            seldepth: 0,
        }
    }

    #[test]
    fn a_late_job_is_told_to_stop() {
        let thinker = Thinker::with_search(1, Duration::from_millis(20), instant);
        let (seen, told) = mpsc::channel();
        let answer = thinker.run(Duration::ZERO, 0, move |stop: &AtomicBool| {
            // Waits (boundedly) for the flag, as a search polls its stop flag.
            for _ in 0..1000 {
                if stop.load(Ordering::SeqCst) {
                    let _ = seen.send(());
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
        });
        assert!(matches!(answer, Err(ThinkError::Late(_))));
        assert!(told.recv_timeout(Duration::from_secs(5)).is_ok());
    }

    #[test]
    fn work_that_can_wait_leaves_a_slot_free() {
        let thinker = Thinker::with_search(2, GRACE, instant);
        let (release, gate) = mpsc::channel::<()>();
        let (started, running) = mpsc::channel();
        let held = std::thread::scope(|scope| {
            let waiting = scope.spawn(|| {
                thinker.run(Duration::from_secs(5), 1, move |_: &AtomicBool| {
                    let _ = started.send(());
                    let _ = gate.recv_timeout(Duration::from_secs(5));
                })
            });
            running.recv_timeout(Duration::from_secs(5)).unwrap();
            // A second job that can wait finds no slot; the computer's move finds one.
            let second = thinker.run(Duration::from_secs(1), 1, |_: &AtomicBool| ());
            let board = Board::start();
            let computer = thinker.think(&board, Duration::ZERO, Strength::FULL);
            release.send(()).unwrap();
            (second, computer.is_ok(), waiting.join().unwrap())
        });
        assert_eq!(held.0, Err(ThinkError::Busy));
        assert!(held.1);
        assert_eq!(held.2, Ok(()));
        // A pool of one lends its only slot to such work when it is free.
        let one = Thinker::with_search(1, GRACE, instant);
        assert_eq!(one.run(Duration::ZERO, 1, |_: &AtomicBool| 7), Ok(7));
    }

    #[test]
    fn a_finished_search_frees_its_slot_before_it_answers() {
        let thinker = Thinker::with_search(1, GRACE, instant);
        for i in 0..2000 {
            let answer = thinker.think(&Board::start(), Duration::ZERO, Strength::FULL);
            assert!(answer.is_ok(), "request {i}: {answer:?}");
        }
    }

    // A search that never returns until the test lets it: stands for an engine whose
    // clock failed. The gate is global because a `SearchFn` is a plain function.
    static GATE: Mutex<Option<mpsc::Receiver<()>>> = Mutex::new(None);

    fn stuck(board: &Board, _: Duration, strength: Strength) -> Report {
        if let Some(rx) = GATE.lock().unwrap().take() {
            let _ = rx.recv();
        }
        engine_search(board, MIN_THINK, strength)
    }

    #[test]
    fn a_late_search_is_abandoned_and_keeps_its_slot() {
        let (release, gate) = mpsc::channel();
        *GATE.lock().unwrap() = Some(gate);
        let thinker = Thinker::with_search(1, Duration::from_millis(50), stuck);
        let board = Board::start();
        assert!(matches!(
            thinker.think(&board, Duration::ZERO, Strength::FULL),
            Err(ThinkError::Late(_))
        ));
        // The stuck search still holds the only slot.
        assert_eq!(thinker.running(), 1);
        assert_eq!(
            thinker.think(&board, Duration::ZERO, Strength::FULL),
            Err(ThinkError::Busy)
        );
        release.send(()).unwrap();
        // Once it ends, the slot is free again (bounded wait: the thread only has a
        // 10 ms search left).
        for _ in 0..1000 {
            if thinker.running() == 0 {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(thinker.running(), 0);
    }
}
