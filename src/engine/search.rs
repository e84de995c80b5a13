//! The computer opponent: iterative deepening over the alpha-beta search of
//! [`crate::engine::alphabeta`], with hard limits (depth, nodes, a deadline, an outside
//! stop flag), a report of each completed iteration, and an [`Engine`] that keeps its
//! transposition table from one move of a game to the next and searches on as many
//! threads as it is asked (Lazy SMP: see [`crate::engine::threads`]).
//!
//! Every search answers: a safe move is picked before the first iteration starts, and
//! an iteration cut short by a limit still contributes the best root move it finished.
//! Not on the judge path.

pub use crate::engine::alphabeta::MOVE_LIMIT;
pub use crate::engine::eval::MATE;
pub use crate::engine::threads::{ThreadsError, MAX_THREADS};
pub use crate::engine::tt::MAX_PLY;

use crate::engine::alphabeta::{Search, Setup};
use crate::engine::eval::eval_mut;
use crate::engine::history::HISTORY_LEN;
use crate::engine::nnue::{self, Evaluation};
use crate::engine::stats;
use crate::engine::threads::{self, Candidate, Halt, Helpers};
use crate::engine::tt::{self, Table, MATE_BOUND};
use crate::engine::tunables::{Tunables, X_ASP};
use crate::engine::watch::Watch;
use crate::judge::board::Board;
use crate::judge::piece::{Piece, PieceKind};
use crate::judge::rules::{self, Move};
use crate::sys::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

/// The deepest iteration a search may ask for.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 / 2;

/// The node cap of a search bounded by depth alone ([`Limits::depth`]): a few seconds
/// of work, so that no depth asked for can run for ever on a wild position, while the
/// answer stays the same on every machine.
pub const DEPTH_NODE_CAP: u64 = 8_000_000;

/// The table size of [`Engine::new`] in megabytes (2^18 entries, as the engine always
/// had): small enough for a fresh engine per search, as the browser board makes.
pub const NEW_MB: usize = 8;

/// How a search is bounded. Whichever limit is reached first ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration (plies of full-width search, before quiescence).
    pub depth: u32,
    /// The hard deadline, counted from the start of the search: the search returns
    /// within it (plus the time to notice, well under a millisecond), whatever the
    /// position. `None`: no clock.
    pub time: Option<Duration>,
    /// The soft deadline: no new iteration starts after it. `None`: only `time` counts.
    pub soft: Option<Duration>,
    /// The most positions to visit. `None`: no node cap.
    pub nodes: Option<u64>,
}

impl Limits {
    /// `depth` plies, capped at [`DEPTH_NODE_CAP`] nodes, no clock: the same answer on
    /// every machine (for tests and reproducible games).
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth,
            time: None,
            soft: None,
            nodes: Some(DEPTH_NODE_CAP),
        }
    }

    /// As deep as `time` allows; the whole of `time` is used unless a forced result is
    /// found first.
    pub fn time(time: Duration) -> Limits {
        Limits {
            depth: MAX_DEPTH,
            time: Some(time),
            soft: None,
            nodes: None,
        }
    }

    /// At most `nodes` positions, as deep as they allow.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            depth: MAX_DEPTH,
            time: None,
            soft: None,
            nodes: Some(nodes),
        }
    }

    /// The same limits with a hard deadline of `time` (the earlier one if there is one).
    pub fn with_time(self, time: Duration) -> Limits {
        Limits {
            time: Some(self.time.map_or(time, |t| t.min(time))),
            ..self
        }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// The move to play, or `None` when the side to move has none (the game is over, or
    /// every piece is stuck).
    pub best: Option<Move>,
    /// Its score for the side to move: centipawns, or `MATE - n` for a win in `n` plies
    /// (negative for a loss).
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The deepest ply reached, extensions and quiescence included.
    pub seldepth: u32,
}

impl Report {
    /// The number of plies to a forced captain capture (positive when the side to move
    /// wins, negative when it loses), or `None` when the score is not a forced result.
    pub fn mate_in(&self) -> Option<i32> {
        mate_in(self.score)
    }
}

/// The plies to a forced result that `score` stands for (see [`Report::mate_in`]).
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// One completed iteration, as reported while the search goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The report so far (best move, score, depth, nodes, seldepth).
    pub report: Report,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The expected line of play, starting with the best move.
    pub pv: Vec<Move>,
}

/// What a search knows of the game around the position, and how it is watched.
#[derive(Default)]
pub struct Context<'a> {
    /// The earlier positions of the game, oldest first: a position that repeats one of
    /// them scores as a draw, which keeps a winning side from going round in circles.
    pub history: &'a [Board],
    /// Moves already played in the game (both sides), for the [`MOVE_LIMIT`] draw.
    pub moves_played: u32,
    /// Set from another thread to stop the search at once.
    pub stop: Option<&'a AtomicBool>,
    /// Called after each completed iteration.
    pub on_iteration: Option<&'a mut dyn FnMut(&Info)>,
    /// The root moves to choose among (UCI `searchmoves`); empty for every legal move.
    /// Moves that are not legal are left out.
    pub root_moves: &'a [Move],
    /// Pondering (UCI `go ponder`): while this flag is down the search ignores its time
    /// limits; once it is raised (`ponderhit`) they count from that moment.
    pub ponderhit: Option<&'a AtomicBool>,
    /// The evaluation weights and search parameters to search with (a UCI session's
    /// options); `None` for the built-in values.
    pub tunables: Option<&'a Tunables>,
    /// What to evaluate with (a UCI session's `Use NNUE` and `EvalFile`); `None` for
    /// the built-in network.
    pub evaluation: Option<&'a Evaluation>,
}

/// Searches `board` to `depth` plies (node-capped) with a fresh engine: deterministic.
pub fn search_depth(board: &Board, depth: u32) -> Report {
    Engine::new().search(board, Limits::depth(depth))
}

/// Searches `board` for about `time` with a fresh engine.
pub fn search_time(board: &Board, time: Duration) -> Report {
    Engine::new().search(board, Limits::time(time))
}

/// A searcher that keeps what it learnt (transposition table, move-ordering statistics)
/// from one move to the next of a game. Create one per game and call
/// [`Engine::search`] (or [`Engine::search_in`]) for each move.
///
/// It searches on one thread unless [`Engine::set_threads`] asks for more: then the
/// calling thread runs the search as on one, and helper threads search the same
/// position beside it, sharing its transposition table (see
/// [`crate::engine::threads`]).
pub struct Engine {
    tt: Table,
    history: Vec<i16>,
    /// Whether `history` is ready for the next search: aged since the last one, or
    /// all zero (new or cleared), so that the next search need not touch its pages.
    history_ready: bool,
    /// The helper threads' histories: none for a search on one thread.
    helpers: Helpers,
    /// The expected line of the last search (see [`Engine::line`]).
    line: Vec<Move>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

/// What a helper thread found: its deepest completed iteration's answer and line, if
/// it completed one, and its counts.
#[derive(Default)]
struct Helped {
    answer: Option<Candidate>,
    line: Vec<Move>,
    seldepth: u32,
    nodes: u64,
}

/// Search threads at most a core runs at once: more only share the same core, and each
/// then waits its turn for a look at the clock.
pub const RUNNING_PER_CORE: usize = 2;

/// How many helper threads may search at once on this machine: [`RUNNING_PER_CORE`]
/// a core, the first thread included.
fn running_helpers() -> usize {
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    (cores * RUNNING_PER_CORE).saturating_sub(1)
}

impl Engine {
    /// An engine with an empty transposition table of [`NEW_MB`] megabytes.
    pub fn new() -> Engine {
        Engine::with_hash(NEW_MB)
    }

    /// An engine whose transposition table takes about `mb` megabytes (clamped to
    /// [`tt::MIN_MB`]..=[`tt::MAX_MB`]).
    pub fn with_hash(mb: usize) -> Engine {
        Engine {
            tt: Table::new(mb),
            history: vec![0; HISTORY_LEN],
            history_ready: true,
            helpers: Helpers::default(),
            line: Vec::new(),
        }
    }

    /// Replaces the transposition table by an empty one of about `mb` megabytes; when
    /// the memory cannot be had, keeps the old one and says so (see [`Table::resize`]).
    pub fn set_hash(&mut self, mb: usize) -> Result<(), tt::HashError> {
        self.tt.resize(mb)
    }

    /// Searches on `threads` threads from the next search on (clamped to
    /// 1..=[`MAX_THREADS`]; the table stays one, shared). Fewer threads give back the
    /// memory of those dropped at once; when the memory of more cannot be had, keeps
    /// the count there was and says so.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), ThreadsError> {
        self.helpers.set_len(threads.clamp(1, MAX_THREADS) - 1)
    }

    /// The number of threads a search uses.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.history_ready = true;
        self.helpers.clear();
    }

    /// Does now what the next search would do first: ages the move-ordering history
    /// (a pass over its 3 MB; each helper thread ages its own as it starts), so that one game's
    /// old statistics do not dominate. Called between searches (the UCI front end
    /// does, once it has answered), it keeps that work out of the next search's time;
    /// a search does it itself otherwise (each helper thread its own).
    /// Nothing to do after a new engine or [`Engine::clear`]: whose pages a first
    /// search would otherwise touch all at once (a few ms of page faults).
    pub fn prepare(&mut self) {
        // The helpers age their own tables as they start, each in its own thread: done
        // here, the tables of 255 threads (900 MB) would hold the engine from the next
        // search for most of a second.
        self.prepare_main();
    }

    /// The first thread's part of [`Engine::prepare`].
    fn prepare_main(&mut self) {
        if !self.history_ready {
            threads::age(&mut self.history);
            self.history_ready = true;
        }
    }

    /// Touches every page of the move-ordering history now, so that no search pays for
    /// faulting them in (a fresh array is zeroed lazily by the system, page by page).
    /// A long-lived engine (UCI) does this once at start-up; one made per search need
    /// not.
    pub fn warm(&mut self) {
        // One write a page; the value is opaque so that the stores of zero into memory
        // known to be zero are not optimised away.
        for h in self.history.iter_mut().step_by(2048) {
            *h = std::hint::black_box(0);
        }
    }

    /// The expected line of play of the last search, starting with its best move: the
    /// principal variation of its last completed iteration, or, when an iteration cut
    /// short found a better move, that move's line from the table. Empty when there
    /// was no move.
    pub fn line(&self) -> &[Move] {
        &self.line
    }

    /// Finds a move for the side to move of `board` within `limits`, knowing nothing of
    /// the game before it.
    pub fn search(&mut self, board: &Board, limits: Limits) -> Report {
        self.search_in(board, limits, Context::default())
    }

    /// Finds a move for the side to move of `board` within `limits`, in the game and
    /// under the watch that `context` describes.
    ///
    /// A captain that can be taken is taken at once. Otherwise a safe move is chosen
    /// first (one that does not hand over the captain, if there is one), then iterative
    /// deepening runs from depth 1 until a limit is reached. With several threads, the
    /// helpers run their own iterative deepening beside it until it ends, and the
    /// move is chosen by [`threads::vote`] among the threads' deepest completed
    /// iterations.
    pub fn search_in(&mut self, board: &Board, limits: Limits, context: Context) -> Report {
        let started = Instant::now();
        let Context {
            history,
            moves_played,
            stop,
            on_iteration,
            root_moves,
            ponderhit,
            tunables,
            evaluation,
        } = context;
        let tunables = tunables.copied().unwrap_or_default();
        self.line.clear();
        let mut moves = rules::legal_moves(board);
        if moves.iter().any(|m| root_moves.contains(m)) {
            moves.retain(|m| root_moves.contains(m));
        }
        let mut report = Report {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            seldepth: 0,
        };
        if moves.is_empty() {
            report.score = eval_mut(&mut board.clone(), tunables.weights());
            return report;
        }
        let side = board.side_to_move();
        let captain = Some(Piece::new(side.opponent(), PieceKind::Captain));
        if let Some(&win) = moves.iter().find(|m| board.piece_at(m.to) == captain) {
            report.best = Some(win);
            report.score = MATE - 1;
            self.line.push(win);
            return report;
        }
        report.best = Some(fallback(board, &moves, &tunables));

        self.prepare_main();
        self.history_ready = false;
        self.tt.new_search();
        let pieces = board.pieces().count();
        let setup = Setup {
            keys: history.iter().map(tt::hash_of).collect(),
            quiet_run: history
                .iter()
                .rev()
                .take_while(|b| b.pieces().count() == pieces)
                .count(),
            moves_played,
            root_moves: if moves.len() < rules::legal_moves(board).len() {
                moves.clone()
            } else {
                Vec::new()
            },
            watch: Watch::new(started, limits.nodes, limits.time, stop, ponderhit),
            net: evaluation.map_or_else(|| Some(nnue::built_in()), Evaluation::network),
            tunables,
        };
        let Engine {
            tt,
            history,
            helpers,
            ..
        } = self;
        let tt = &*tt;
        let (histories, age_first) = helpers.take_for_search();
        // More threads than the cores can run only share them and gain nothing, while
        // every clock then waits for threads that get no core: at most
        // [`RUNNING_PER_CORE`] a core search at once (the others' tables stay kept).
        let running = histories.len().min(running_helpers());
        let histories = &mut histories[..running];
        // Each thread's node count, published at its looks at the clock: the node cap
        // is on their sum. None with one thread, whose search is then exactly the
        // search of a single-threaded engine.
        let counts: Vec<AtomicU64> = match histories.len() {
            0 => Vec::new(),
            n => (0..=n).map(|_| AtomicU64::new(0)).collect(),
        };
        // Raised when the main thread is done, or when a helper completed the deepest
        // iteration asked for: every thread stops.
        let halt = AtomicBool::new(false);
        let (mut line, found) = thread::scope(|scope| {
            // From here on, however the main thread leaves (a panic included), the
            // helpers are stopped before the scope waits for them.
            let guard = Halt(&halt);
            let mut handles = Vec::new();
            for (i, table) in histories.iter_mut().enumerate() {
                let index = i + 1;
                // The helper stops when the search ends (see `halt`), or on the node
                // cap itself (the main thread may wait for a core while it runs).
                let mut watch = Watch::unlimited().with_pool(&counts, index, &halt);
                watch.cap_at(limits.nodes.unwrap_or(u64::MAX));
                let setup = Setup {
                    watch,
                    ..setup.clone()
                };
                let (depth, counts, halt) = (limits.depth, &counts, &halt);
                let spawned = thread::Builder::new()
                    .name(format!("search-{index}"))
                    .spawn_scoped(scope, move || {
                        // A helper that starts after the search ended does nothing.
                        if halt.load(Ordering::Relaxed) {
                            return Helped::default();
                        }
                        if age_first {
                            threads::age(table);
                        }
                        let s = Search::new(board, setup, tt, table);
                        helper(s, index, depth, moves_played, (counts, halt))
                    });
                // A thread the system cannot start is a helper fewer.
                handles.extend(spawned.ok());
                // No helper starts after the clock ran out: starting them counts too.
                if limits.time.is_some_and(|t| started.elapsed() >= t) {
                    break;
                }
            }
            let setup = match counts.is_empty() {
                true => setup,
                false => Setup {
                    watch: setup.watch.with_pool(&counts, 0, &halt),
                    ..setup
                },
            };
            let mut s = Search::new(board, setup, tt, history);
            let line = deepen(&mut s, limits, &mut report, on_iteration, started, &counts);
            drop(guard);
            let found: Vec<Helped> = handles.into_iter().filter_map(|h| h.join().ok()).collect();
            (line, found)
        });
        for h in &found {
            report.nodes += h.nodes;
            report.seldepth = report.seldepth.max(h.seldepth);
        }
        if let Some(main) = report.best {
            let mut answers = vec![Candidate {
                best: main,
                score: report.score,
                depth: report.depth,
            }];
            let mut lines = vec![&line];
            for h in &found {
                if let Some(answer) = h.answer {
                    answers.push(answer);
                    lines.push(&h.line);
                }
            }
            let chosen = threads::vote(&answers);
            if chosen > 0 {
                let a = answers[chosen];
                (report.best, report.score, report.depth) = (Some(a.best), a.score, a.depth);
                line = lines[chosen].clone();
            }
        }
        self.line = line;
        report
    }
}

/// Each of `moves` with its score for the side to move (the quick look of a weakened
/// level, `crate::play::level`): at `depth` 1 the position right
/// after the move as it stands, deeper a search of `depth - 1` plies from there
/// (within `node_cap` nodes a move). A move that leaves the mover's captain to be taken
/// scores as lost. Also returns the nodes visited.
pub fn look(
    board: &Board,
    moves: &[Move],
    depth: u32,
    node_cap: u64,
    deadline: Option<Instant>,
    context: &Context,
) -> (Vec<(Move, i32)>, u64) {
    let side = board.side_to_move();
    let table = Table::new(1);
    let mut history = vec![0; HISTORY_LEN];
    let t = context.tunables.copied().unwrap_or_default();
    let setup = Setup {
        moves_played: context.moves_played,
        watch: Watch::unlimited()
            .with_stop(context.stop)
            .with_deadline(deadline),
        net: context
            .evaluation
            .map_or_else(|| Some(nnue::built_in()), Evaluation::network),
        tunables: t,
        ..Setup::new()
    };
    let mut s = Search::new(board, setup, &table, &mut history);
    // Once the clock or the stop flag has ended a search, the moves left are only
    // looked at, not searched.
    let mut hurry = false;
    let mut scored = Vec::with_capacity(moves.len());
    for &m in moves {
        let undo = s.make(m);
        let after = s.board();
        let hangs = after
            .captain(side)
            .is_none_or(|c| rules::is_attacked(after, c, side.opponent()));
        let score = if hangs {
            -(MATE - 1)
        } else {
            let mut score = -eval_mut(&mut after.clone(), t.weights());
            if depth > 1 && !hurry {
                s.allow(node_cap);
                for d in 1..depth {
                    let v = -s.negamax(d as i32, 1, -MATE - 1, MATE + 1, true);
                    if s.stopped() {
                        hurry = s.below_cap();
                        break;
                    }
                    score = v;
                }
            }
            score
        };
        s.unmake(m, undo);
        s.count_node();
        scored.push((m, score));
    }
    (scored, s.nodes())
}

/// The first thread's iterative deepening on `s`, from depth 1 until a limit is
/// reached: fills `report` (its nodes counting the other threads' `counts` too) and
/// gives the expected line.
fn deepen(
    s: &mut Search,
    limits: Limits,
    report: &mut Report,
    mut on_iteration: Option<&mut dyn FnMut(&Info)>,
    started: Instant,
    counts: &[AtomicU64],
) -> Vec<Move> {
    // The nodes of the helper threads, as they published them.
    let others = || -> u64 {
        counts
            .iter()
            .skip(1)
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    };
    let mut line = Vec::new();
    let mut iterations = Vec::new();
    for depth in 1..=limits.depth.clamp(1, MAX_DEPTH) {
        s.start_iteration();
        let score = aspiration(s, depth as i32, report.score);
        if s.stopped() {
            // A root move searched in full is trustworthy; a losing one is no
            // better than the safe fallback.
            if let Some((m, sc)) = s.root_best() {
                if report.depth > 0 || sc > -MATE_BOUND {
                    report.best = Some(m);
                    if report.depth == 0 {
                        report.score = sc;
                    }
                }
            }
            break;
        }
        if let Some((m, _)) = s.root_best() {
            report.best = Some(m);
        }
        report.score = score;
        report.depth = depth;
        report.seldepth = report.seldepth.max(s.seldepth() as u32);
        report.nodes = s.nodes() + others();
        if stats::ON {
            iterations.push(format!("{depth}:{}", s.nodes()));
        }
        if let Some(best) = report.best {
            line = s.pv(best, depth as usize + 4);
            if let Some(notify) = on_iteration.as_mut() {
                notify(&Info {
                    report: *report,
                    elapsed: started.elapsed(),
                    pv: line.clone(),
                });
            }
        }
        if score.abs() >= MATE_BOUND && MATE - score.abs() <= depth as i32 {
            break; // a forced result within the horizon: deeper adds nothing
        }
        if s.soft_passed(limits.soft) {
            break;
        }
    }
    // The helpers' own counts are added once they are done.
    report.nodes = s.nodes();
    if let Some(best) = report.best {
        if line.first() != Some(&best) {
            line = s.pv(best, report.depth as usize + 4);
        }
    }
    if stats::ON {
        eprintln!("stats: iterations {}", iterations.join(" "));
        eprintln!("stats: {}", stats::report().replace('\n', "\nstats: "));
    }
    line
}

/// Helper thread `index`'s iterative deepening on `s`, up to `max_depth`, skipping
/// the depths [`threads::skips`] says, until the search's `halt` flag or the node cap
/// of all the threads stops it. Completing `max_depth` itself, it raises `halt`: the
/// search has its answer at the depth asked for. Its node count goes to `counts` once
/// it is done.
fn helper(
    mut s: Search,
    index: usize,
    max_depth: u32,
    moves_played: u32,
    (counts, halt): (&[AtomicU64], &AtomicBool),
) -> Helped {
    let mut answer: Option<Candidate> = None;
    let mut seldepth = 0;
    for depth in 1..=max_depth.clamp(1, MAX_DEPTH) {
        // The deepest iteration asked for is never skipped: completing it first ends
        // the search.
        if depth < max_depth && threads::skips(index, depth, moves_played) {
            continue;
        }
        s.start_iteration();
        let previous = answer.map_or(0, |a| a.score);
        let score = aspiration(&mut s, depth as i32, previous);
        if s.stopped() {
            break;
        }
        seldepth = seldepth.max(s.seldepth() as u32);
        if let Some((best, _)) = s.root_best() {
            answer = Some(Candidate { best, score, depth });
        }
        if depth >= max_depth {
            halt.store(true, Ordering::Relaxed);
        }
        if score.abs() >= MATE_BOUND && MATE - score.abs() <= depth as i32 {
            break;
        }
    }
    counts[index].store(s.nodes(), Ordering::Relaxed);
    let line = answer.map_or_else(Vec::new, |a| s.pv(a.best, a.depth as usize + 4));
    Helped {
        answer,
        line,
        seldepth,
        nodes: s.nodes(),
    }
}

/// One iteration at `depth`, in a narrow window around the previous score first and
/// widened on failure.
fn aspiration(s: &mut Search, depth: i32, previous: i32) -> i32 {
    let full = (-MATE - 1, MATE + 1);
    if depth < 5 || previous.abs() >= MATE_BOUND {
        return s.negamax(depth, 0, full.0, full.1, true);
    }
    let mut delta = s.tunables().knob(X_ASP);
    let (mut alpha, mut beta) = (previous - delta, previous + delta);
    loop {
        let score = s.negamax(depth, 0, alpha, beta, true);
        if s.stopped() {
            return score;
        }
        if score <= alpha {
            alpha = (alpha - delta).max(full.0);
        } else if score >= beta {
            beta = (beta + delta).min(full.1);
        } else {
            return score;
        }
        delta *= 3;
        if delta > 1000 {
            (alpha, beta) = full;
        }
    }
}

/// A move to fall back on before any search finishes: one that does not leave the
/// captain to be taken at once if there is one, the most valuable capture among those.
fn fallback(board: &Board, moves: &[Move], t: &Tunables) -> Move {
    let side = board.side_to_move();
    let mut b = board.clone();
    let mut best = (i32::MIN, moves[0]);
    for &m in moves {
        let captured = b.make_move(m.from, m.to);
        let safe = b
            .captain(side)
            .is_some_and(|c| !rules::is_attacked(&b, c, side.opponent()));
        b.unmake_move(m.from, m.to, captured);
        let score = i32::from(safe) * 100_000 + captured.map_or(0, |p| t.value(p.kind));
        if score > best.0 {
            best = (score, m);
        }
    }
    best.1
}
