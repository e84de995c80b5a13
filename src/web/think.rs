//! The computer's searches for the server (its moves, and the analysis of a game), with
//! limits no client can lift: the thinking time is capped, at most a few searches run
//! at once (503 beyond), and each runs on a thread of its own while the request waits
//! with a hard deadline. The computer's moves and the analyses have slots of their
//! own ([`Pool`]), so that analyses, however many, never keep the computer from moving.
//! Should a search ever overrun its clock, the client still gets an answer in time,
//! the late search is told to stop, and it keeps its slot until it ends, so overruns
//! cannot pile up. A search whose client has gone is told to stop at once. A search
//! that ends frees its slot before its answer goes out, so one client asking again
//! and again never finds the computer busy.

use super::state::ApiError;
use crate::engine::search::{Context, Engine, Limits, Report};
use crate::judge::board::Board;
use crate::play::level::{self, Strength};
use crate::sys::clock::Instant;
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
/// Whether this is WebAssembly in a browser, where `std` starts no thread.
const IN_BROWSER: bool = cfg!(all(target_family = "wasm", target_os = "unknown"));
/// How often a request waiting for its search looks whether its client has gone.
const WATCH: Duration = Duration::from_millis(10);

/// The slots a search runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pool {
    /// The computer's moves.
    Moves,
    /// Analyses: work that can wait, which never takes a slot of the moves.
    Analyses,
}

/// Why no move came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkError {
    /// Every search slot is taken.
    Busy,
    /// The search did not answer within its time and the grace.
    Late(Duration),
    /// The client has gone: the search was stopped.
    Gone,
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
            ThinkError::Gone => write!(f, "the client has gone"),
        }
    }
}

/// The answer to a request whose search could not run or answer: 503 when the
/// computer is busy or late (the client may ask again), 500 when it failed.
pub fn refusal(e: ThinkError) -> ApiError {
    ApiError {
        status: match e {
            ThinkError::Failed => 500,
            ThinkError::Busy | ThinkError::Late(_) | ThinkError::Gone => 503,
        },
        message: e.to_string(),
    }
}

/// A search: the position, the time it may take, how strong it plays, and the flag
/// that stops it.
pub type SearchFn = fn(&Board, Duration, Strength, &AtomicBool) -> Report;

/// The real search: a fresh engine per request, so no request sees another's game. A
/// weakened level plays by its node budget, not by the clock, so that the same seed
/// brings the same game however busy the server is; the deadline of
/// [`Thinker::think`] still bounds it.
pub fn engine_search(
    board: &Board,
    time: Duration,
    strength: Strength,
    stop: &AtomicBool,
) -> Report {
    let context = Context {
        stop: Some(stop),
        ..Context::default()
    };
    if strength.level.is_full() {
        return Engine::new().search_in(board, Limits::time(time), context);
    }
    let mut engine = Engine::with_hash(1);
    let limits = Limits::nodes(u64::MAX);
    level::search(&mut engine, board, strength, limits, context)
}

/// Runs searches under the limits.
pub struct Thinker {
    /// The searches running in each pool ([`Pool::Moves`], [`Pool::Analyses`]).
    running: [Arc<AtomicUsize>; 2],
    /// The slots of each pool.
    slots: [usize; 2],
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
    /// At most `moves` searches for the computer's moves and `analyses` analyses at
    /// once, each answered within its time plus [`GRACE`].
    pub fn new(moves: usize, analyses: usize) -> Thinker {
        Thinker::with_search([moves, analyses], GRACE, engine_search)
    }

    /// The same with another search and grace (for tests).
    pub fn with_search(slots: [usize; 2], grace: Duration, search: SearchFn) -> Thinker {
        Thinker {
            running: Default::default(),
            slots: slots.map(|n| n.max(1)),
            grace,
            search,
        }
    }

    /// `time` clamped to what the server allows.
    pub fn clamp(time: Duration) -> Duration {
        time.clamp(MIN_THINK, MAX_THINK)
    }

    /// Searches `board` for `time` (clamped) at `strength` for a client that may go
    /// (`gone`), and returns the report, or why not.
    pub fn think(
        &self,
        board: &Board,
        time: Duration,
        strength: Strength,
        gone: &AtomicBool,
    ) -> Result<Report, ThinkError> {
        let time = Thinker::clamp(time);
        let (board, search) = (board.clone(), self.search);
        self.run(time, Pool::Moves, gone, move |stop| {
            search(&board, time, strength, stop)
        })
    }

    /// Runs `job`, a search expected to take `time`, in one of the slots of `pool`, on
    /// a thread of its own, and returns its answer, or why not: no slot is free, the
    /// job did not answer within `time` and the grace, or the client went (`gone` was
    /// raised). In the last two cases the flag the job was given is raised, to stop
    /// it, and it keeps its slot until it ends.
    pub fn run<T, F>(
        &self,
        time: Duration,
        pool: Pool,
        gone: &AtomicBool,
        job: F,
    ) -> Result<T, ThinkError>
    where
        T: Send + 'static,
        F: FnOnce(&AtomicBool) -> T + Send + 'static,
    {
        if gone.load(Ordering::SeqCst) {
            return Err(ThinkError::Gone);
        }
        let (running, cap) = (&self.running[pool as usize], self.slots[pool as usize]);
        let taken = running.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < cap).then_some(n + 1)
        });
        if taken.is_err() {
            return Err(ThinkError::Busy);
        }
        let slot = Slot(Arc::clone(running));
        let stop = Arc::new(AtomicBool::new(false));
        if IN_BROWSER {
            // No thread can start here: the job runs on this one, bounded by its own
            // clock, and the page ends the worker it runs in should it overrun its
            // time and the grace (the hard deadline the thread gives natively).
            let answer = job(&stop);
            drop(slot);
            return Ok(answer);
        }
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
        let started = Instant::now();
        loop {
            let left = limit.saturating_sub(started.elapsed());
            match rx.recv_timeout(left.min(WATCH)) {
                Ok(answer) => return Ok(answer),
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(ThinkError::Failed),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let why = if gone.load(Ordering::SeqCst) {
                        ThinkError::Gone
                    } else if started.elapsed() >= limit {
                        ThinkError::Late(limit)
                    } else {
                        continue;
                    };
                    stop.store(true, Ordering::SeqCst);
                    return Err(why);
                }
            }
        }
    }

    /// Searches running now in both pools (late ones included).
    pub fn running(&self) -> usize {
        self.running.iter().map(|r| r.load(Ordering::SeqCst)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// The flag of a client that stays.
    static HERE: AtomicBool = AtomicBool::new(false);

    #[test]
    fn a_real_search_answers() {
        let thinker = Thinker::new(1, 1);
        let report = thinker
            .think(
                &Board::start(),
                Duration::from_millis(20),
                Strength::FULL,
                &HERE,
            )
            .expect("a move");
        assert!(report.best.is_some());
        assert_eq!(Thinker::clamp(Duration::from_secs(999)), MAX_THINK);
        assert_eq!(Thinker::clamp(Duration::ZERO), MIN_THINK);
    }

    /// A search that ends at once, as one does when a captain can be taken.
    fn instant(_: &Board, _: Duration, _: Strength, _: &AtomicBool) -> Report {
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
        let thinker = Thinker::with_search([1, 1], Duration::from_millis(20), instant);
        let (seen, told) = mpsc::channel();
        let answer = thinker.run(
            Duration::ZERO,
            Pool::Moves,
            &HERE,
            move |stop: &AtomicBool| {
                // Waits (boundedly) for the flag, as a search polls its stop flag.
                for _ in 0..1000 {
                    if stop.load(Ordering::SeqCst) {
                        let _ = seen.send(());
                        return;
                    }
                    thread::sleep(Duration::from_millis(5));
                }
            },
        );
        assert!(matches!(answer, Err(ThinkError::Late(_))));
        assert!(told.recv_timeout(Duration::from_secs(5)).is_ok());
    }

    #[test]
    fn analyses_have_slots_of_their_own() {
        let thinker = Thinker::with_search([1, 1], GRACE, instant);
        let (release, gate) = mpsc::channel::<()>();
        let (started, running) = mpsc::channel();
        let held = std::thread::scope(|scope| {
            let waiting = scope.spawn(|| {
                thinker.run(
                    Duration::from_secs(5),
                    Pool::Analyses,
                    &HERE,
                    move |_: &AtomicBool| {
                        let _ = started.send(());
                        let _ = gate.recv_timeout(Duration::from_secs(5));
                    },
                )
            });
            running.recv_timeout(Duration::from_secs(5)).unwrap();
            // A second analysis finds no slot; the computer's moves find theirs, again
            // and again.
            let second = thinker.run(
                Duration::from_secs(1),
                Pool::Analyses,
                &HERE,
                |_: &AtomicBool| (),
            );
            let board = Board::start();
            let moves = (0..50).all(|_| {
                thinker
                    .think(&board, Duration::ZERO, Strength::FULL, &HERE)
                    .is_ok()
            });
            release.send(()).unwrap();
            (second, moves, waiting.join().unwrap())
        });
        assert_eq!(held.0, Err(ThinkError::Busy));
        assert!(held.1);
        assert_eq!(held.2, Ok(()));
    }

    #[test]
    fn a_client_that_goes_stops_its_search_and_frees_its_slot() {
        let thinker = Thinker::with_search([1, 1], GRACE, instant);
        let gone = Arc::new(AtomicBool::new(false));
        let raise = Arc::clone(&gone);
        let raiser = thread::spawn(move || {
            thread::sleep(Duration::from_millis(50));
            raise.store(true, Ordering::SeqCst);
        });
        let start = Instant::now();
        // A job that runs until it is told to stop, as a search polls its flag.
        let answer = thinker.run(MAX_THINK, Pool::Moves, &gone, |stop: &AtomicBool| {
            while !stop.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_millis(1));
            }
        });
        raiser.join().unwrap();
        assert_eq!(answer, Err(ThinkError::Gone));
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
        for _ in 0..1000 {
            if thinker.running() == 0 {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(thinker.running(), 0);
        // A client gone before its turn takes no slot at all.
        assert_eq!(
            thinker.think(&Board::start(), Duration::ZERO, Strength::FULL, &gone),
            Err(ThinkError::Gone)
        );
        // The real search stops on its flag, well before its time.
        let stop = AtomicBool::new(true);
        let start = Instant::now();
        engine_search(&Board::start(), MAX_THINK, Strength::FULL, &stop);
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_finished_search_frees_its_slot_before_it_answers() {
        let thinker = Thinker::with_search([1, 1], GRACE, instant);
        for i in 0..2000 {
            let answer = thinker.think(&Board::start(), Duration::ZERO, Strength::FULL, &HERE);
            assert!(answer.is_ok(), "request {i}: {answer:?}");
        }
    }

    // A search that never returns until the test lets it: stands for an engine whose
    // clock failed. The gate is global because a `SearchFn` is a plain function.
    static GATE: Mutex<Option<mpsc::Receiver<()>>> = Mutex::new(None);

    fn stuck(board: &Board, _: Duration, strength: Strength, stop: &AtomicBool) -> Report {
        if let Some(rx) = GATE.lock().unwrap().take() {
            let _ = rx.recv();
        }
        engine_search(board, MIN_THINK, strength, stop)
    }

    #[test]
    fn a_late_search_is_abandoned_and_keeps_its_slot() {
        let (release, gate) = mpsc::channel();
        *GATE.lock().unwrap() = Some(gate);
        let thinker = Thinker::with_search([1, 1], Duration::from_millis(50), stuck);
        let board = Board::start();
        assert!(matches!(
            thinker.think(&board, Duration::ZERO, Strength::FULL, &HERE),
            Err(ThinkError::Late(_))
        ));
        // The stuck search still holds the only slot.
        assert_eq!(thinker.running(), 1);
        assert_eq!(
            thinker.think(&board, Duration::ZERO, Strength::FULL, &HERE),
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
