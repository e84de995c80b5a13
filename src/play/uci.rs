//! `duckchess uci`: the Universal Chess Interface as Fairy-Stockfish speaks it for
//! variants, so GUIs, match runners and scripts can talk to the engine as to any other.
//!
//! The search runs in its own thread, so `isready` and `stop` are answered while it
//! thinks. Bad input (an unknown command, a bad FEN, an illegal move in a `position`
//! list, an overlong line) is answered with `info string ...` and never ends the
//! session. Not on the judge path.

use crate::cli::{self};
use crate::engine::clock::{self, Clock};
use crate::engine::eval;
use crate::engine::nnue::{self, Evaluation};
use crate::engine::search::{
    self, Context, Engine, Info, Limits, Report, DEPTH_NODE_CAP, MAX_DEPTH, MOVE_LIMIT,
};
use crate::engine::tt;
use crate::engine::tunables::{self, Tunables};
use crate::judge::board::Board;
use crate::judge::piece::Color;
use crate::judge::rules;
use crate::play::level::{self, Strength, UciStrength};
use crate::play::notation::{self, move_name};
use crate::sys::lines;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The longest input line read; the rest of a longer line is skipped (a `position`
/// with the moves of a whole 300-move game takes under 2,000 bytes).
pub const MAX_LINE: usize = 1 << 16;
/// The default and largest `Move Overhead`, in milliseconds.
pub const DEFAULT_OVERHEAD_MS: u64 = 10;
const MAX_OVERHEAD_MS: u64 = 5000;
/// The variant name, as `UCI_Variant` offers it.
pub const VARIANT: &str = "duckchess";

/// Writes one line to standard output and flushes it. The client has gone when that
/// fails: the session ends there (quietly for a closed pipe).
fn send(line: &str) {
    let mut out = io::stdout().lock();
    let result = writeln!(out, "{line}").and_then(|()| out.flush());
    if let Err(e) = result {
        std::process::exit(i32::from(cli::output_status("uci", Err(e))));
    }
}

/// The game the client set up: where it started, the positions since, and the current one.
struct ClientGame {
    board: Board,
    history: Vec<Board>,
    moves_played: u32,
}

impl ClientGame {
    fn start() -> ClientGame {
        ClientGame {
            board: Board::start(),
            history: Vec::new(),
            moves_played: 0,
        }
    }
}

/// A running search: its thread, its stop flag, and what it waits for.
struct Running {
    /// Which search this is: its [`Event::Answered`] names it.
    id: u64,
    thread: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    /// `go infinite`, or a `go` that names no limit: the answer waits for `stop`.
    endless: bool,
    /// `go ponder`: the answer waits for `stop` or `ponderhit`.
    ponder: bool,
    /// Raised by `ponderhit`: from then on the search runs on the clock `go` gave.
    ponderhit: Arc<AtomicBool>,
}

impl Running {
    /// Whether the search waits for a command to end (`stop`, or a `ponderhit` to come).
    fn waits_for_a_command(&self) -> bool {
        self.endless || self.ponder && !self.ponderhit.load(Ordering::Relaxed)
    }

    /// Tells the search to stop and answer now.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the search was told to stop (its answer is on its way).
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// What the session hears: the input, from the thread that reads it, and the end of
/// each search, from the search's thread.
enum Event {
    /// One line (without its end), and whether it was longer than [`MAX_LINE`] (then
    /// only its start is there).
    Line(Vec<u8>, bool),
    /// The end of the input.
    End,
    /// Reading the input failed.
    Failed(io::Error),
    /// The search with this id has given its `bestmove`.
    Answered(u64),
}

/// Lines read but not yet taken by the session: beyond, the reader waits, so a flood
/// of input costs no memory. (A search's answer never waits.)
const BACKLOG: usize = 64;
/// The most bytes of commands that may wait for a search to end; beyond, the search is
/// stopped, so that a flood of commands during a search costs no memory.
const MAX_PENDING: usize = 1 << 20;
/// How long, after `quit`, the session waits for a search it stopped to answer.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// The state of one UCI session.
struct Session {
    engine: Arc<Mutex<Engine>>,
    position: ClientGame,
    overhead: Duration,
    running: Option<Running>,
    strength: UciStrength,
    /// The evaluation weights and search parameters the options set, for this
    /// session's searches only.
    tunables: Tunables,
    /// What this session's searches evaluate with (`Use NNUE`, `EvalFile`).
    evaluation: Evaluation,
    /// Commands read but not carried out yet, in order: they wait for the search in
    /// progress to end.
    pending: VecDeque<String>,
    /// The bytes of `pending`.
    pending_bytes: usize,
    /// Whether the input has ended (or `quit` came: nothing more is read).
    ended: bool,
    /// Whether `quit` came: every search stops at once.
    quitting: bool,
    /// Where each search says that it has answered.
    events: Sender<Event>,
    /// The lines read and not taken yet.
    backlog: Arc<Backlog>,
    /// The id of the last search started.
    searches: u64,
    /// Whether the evaluation's weights and the search's knobs are offered as options
    /// (`duckchess uci --tuning`, for tuning by self-play).
    tuning: bool,
}

/// A count of the lines the reader has sent and the session not yet taken: the reader
/// waits while it is [`BACKLOG`].
#[derive(Default)]
struct Backlog {
    lines: Mutex<usize>,
    room: Condvar,
}

impl Backlog {
    /// Waits for room for one more line, and takes it.
    fn add(&self) {
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        while *lines >= BACKLOG {
            lines = self.room.wait(lines).unwrap_or_else(|e| e.into_inner());
        }
        *lines += 1;
    }

    /// One line was taken.
    fn take(&self) {
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        *lines = lines.saturating_sub(1);
        self.room.notify_one();
    }
}

/// The name of a command line (its first word), `""` for an empty line.
fn command_name(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Whether a command waits for the search in progress to end before it is carried
/// out. `isready`, `stop` and `ponderhit` do not: they act on the search itself.
fn waits_for_the_search(name: &str) -> bool {
    !matches!(name, "isready" | "stop" | "ponderhit" | "quit" | "")
}

/// Serves one UCI session on `input` until `quit` or the end of input.
///
/// One thread reads the input and never waits for a search: `stop`, `isready`,
/// `ponderhit` and `quit` act at once, whatever the engine is doing. Other commands are
/// carried out in order once the search in progress has ended; one that arrives while
/// a search waits for `stop` (`go infinite`, or pondering) stops it. The end of the
/// input lets a bounded search finish and stops one that would wait for `stop`;
/// `quit` stops every search.
/// With `tuning`, the evaluation's weights and the search's knobs are options too.
pub fn serve<R: BufRead + Send + 'static>(input: R, hash_mb: usize, tuning: bool) -> u8 {
    let mut engine = start_engine(hash_mb);
    engine.warm();
    let (events, inbox) = mpsc::channel();
    let backlog = Arc::new(Backlog::default());
    let (reader, count) = (events.clone(), Arc::clone(&backlog));
    let started = thread::Builder::new()
        .name("uci-input".to_string())
        .spawn(move || read_input(input, &reader, &count));
    if let Err(e) = started {
        return cli::fail("uci", &format!("cannot start reading the input: {e}"));
    }
    let mut session = Session {
        engine: Arc::new(Mutex::new(engine)),
        position: ClientGame::start(),
        overhead: Duration::from_millis(DEFAULT_OVERHEAD_MS),
        running: None,
        strength: UciStrength::default(),
        tunables: Tunables::default(),
        evaluation: Evaluation::default(),
        pending: VecDeque::new(),
        pending_bytes: 0,
        ended: false,
        quitting: false,
        events,
        backlog,
        searches: 0,
        tuning,
    };
    let mut failed = None;
    loop {
        session.run_pending();
        if session.ended && session.pending.is_empty() && session.running.is_none() {
            break;
        }
        session.stop_what_waits_in_vain();
        // The session holds a sender itself: the channel never closes under it. After
        // 'quit', an answer stuck on a client that does not read is not waited for.
        let event = match session.quitting {
            false => inbox.recv().ok(),
            true => inbox.recv_timeout(QUIT_GRACE).ok(),
        };
        let Some(event) = event else { break };
        match event {
            Event::Line(line, too_long) => {
                session.backlog.take();
                if session.quitting {
                    continue;
                }
                if too_long {
                    send(&format!(
                        "info string line longer than {MAX_LINE} bytes ignored"
                    ));
                    continue;
                }
                let text = String::from_utf8_lossy(&line).trim().to_string();
                session.receive(text);
            }
            Event::End => session.ended = true,
            Event::Failed(e) => {
                failed = Some(e);
                session.quit();
            }
            Event::Answered(id) => session.answered(id),
        }
    }
    match failed {
        Some(e) => cli::fail("uci", &format!("cannot read the input: {e}")),
        None => cli::EXIT_OK,
    }
}

/// Reads `input` line by line into `events` until its end (the reader's thread),
/// never more than [`BACKLOG`] lines ahead of the session.
fn read_input(mut input: impl BufRead, events: &Sender<Event>, backlog: &Backlog) {
    loop {
        let event = match lines::read_line(&mut input, MAX_LINE) {
            Ok(None) => Event::End,
            Ok(Some(line)) => {
                backlog.add();
                Event::Line(line.bytes, line.overlong)
            }
            Err(e) => Event::Failed(e),
        };
        let last = !matches!(event, Event::Line(..));
        // The session has gone: nothing more to read for.
        if events.send(event).is_err() || last {
            return;
        }
    }
}

/// An engine with a table of `hash_mb` megabytes; when the system cannot give that
/// much memory, one line on standard error and the default size (or the smallest),
/// never an abort.
fn start_engine(hash_mb: usize) -> Engine {
    let mut engine = Engine::with_hash(tt::MIN_MB);
    if let Err(e) = engine.set_hash(hash_mb) {
        let using = if hash_mb > tt::DEFAULT_MB && engine.set_hash(tt::DEFAULT_MB).is_ok() {
            tt::DEFAULT_MB
        } else {
            e.kept
        };
        cli::say(
            "uci",
            &format!("cannot allocate {hash_mb} MB for the hash table; using {using} MB"),
        );
    }
    engine
}

impl Session {
    /// Takes a command as it arrives: `isready`, `stop` and `ponderhit` act at once
    /// when no command waits before them (`isready` also waits for the answer of a
    /// search just stopped); every other command waits its turn.
    fn receive(&mut self, line: String) {
        let name = command_name(&line);
        if name.is_empty() {
            return;
        }
        if name == "quit" {
            return self.quit();
        }
        if self.pending.is_empty() {
            match name {
                // 'readyok' comes at once, also during a search; after a 'stop', it
                // follows the stopped search's 'bestmove'.
                "isready" if !self.running.as_ref().is_some_and(Running::stopping) => {
                    return send("readyok");
                }
                "stop" | "ponderhit" => return self.execute(&line),
                _ => {}
            }
        } else if name == "stop" {
            // 'stop' ends every search asked for before it: the one in progress now,
            // and those still waiting when their turn comes.
            if let Some(r) = &self.running {
                r.stop();
            }
        }
        self.pending_bytes += line.len();
        self.pending.push_back(line);
        // A flood of commands during a search: the search gives way, and the input
        // waits until they are carried out.
        while self.pending_bytes > MAX_PENDING && self.running.is_some() {
            self.finish();
            self.run_pending();
        }
    }

    /// Carries out the waiting commands whose turn has come: all of them up to the
    /// first that must wait for a search in progress.
    fn run_pending(&mut self) {
        while let Some(line) = self.pending.front() {
            let name = command_name(line);
            let searching = self.running.as_ref();
            if searching.is_some() && waits_for_the_search(name)
                || name == "isready" && searching.is_some_and(Running::stopping)
            {
                return;
            }
            let line = self.pending.pop_front().unwrap_or_default();
            self.pending_bytes -= line.len();
            self.execute(&line);
        }
    }

    /// Stops a search that waits for a command when none can come to end it (the
    /// input has ended, or a command waits for it), and any search after `quit`.
    fn stop_what_waits_in_vain(&mut self) {
        let Some(r) = &self.running else { return };
        let waiting = self
            .pending
            .iter()
            .any(|l| waits_for_the_search(command_name(l)));
        if self.quitting || r.waits_for_a_command() && (self.ended || waiting) {
            r.stop();
        }
    }

    /// The search `id` has answered: it is over.
    fn answered(&mut self, id: u64) {
        if self.running.as_ref().is_some_and(|r| r.id == id) {
            self.settle();
        }
    }

    /// `quit`: every search asked for so far stops at once, the other commands before
    /// the `quit` are carried out, and nothing after it is read.
    fn quit(&mut self) {
        self.quitting = true;
        self.ended = true;
        if let Some(r) = &self.running {
            r.stop();
        }
    }

    /// Carries out one command.
    fn execute(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else {
            return;
        };
        let rest: Vec<&str> = words.collect();
        match name {
            "isready" => send("readyok"),
            "stop" => {
                if let Some(r) = &self.running {
                    r.stop();
                }
            }
            // The move pondered on was played: the search goes on, now on the clock.
            "ponderhit" => {
                if let Some(r) = self.running.as_ref().filter(|r| r.ponder) {
                    r.ponderhit.store(true, Ordering::Relaxed);
                }
            }
            "uci" => identify(self.tuning),
            "ucinewgame" => self.engine().clear(),
            "setoption" => self.set_option(&rest),
            "position" => self.set_position(&rest),
            "go" => self.go(&rest),
            "d" => {
                send(&format!("info string position {}", self.position.board));
                send(&format!(
                    "info string fen {}",
                    notation::fen(&self.position.board)
                ));
            }
            _ => send(&format!("info string unknown command {name:?}")),
        }
    }

    fn engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        // A search thread that panicked leaves the engine usable: its tables are plain data.
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the search in progress, if any, and waits for its `bestmove`.
    fn finish(&mut self) {
        if let Some(r) = &self.running {
            r.stop();
        }
        self.settle();
    }

    /// Waits for the search in progress, if any, to end and give its `bestmove`.
    fn settle(&mut self) {
        if let Some(r) = self.running.take() {
            if r.thread.join().is_err() {
                send("info string the search failed");
            }
        }
    }

    fn set_option(&mut self, words: &[&str]) {
        // setoption name NAME [value VALUE]; names may have spaces.
        // The name has at least one word, which may itself be "Value" (Value Car).
        let value_at = words
            .iter()
            .skip(2)
            .position(|w| w.eq_ignore_ascii_case("value"))
            .map(|i| i + 2);
        let name_end = value_at.unwrap_or(words.len());
        if words
            .first()
            .is_none_or(|w| !w.eq_ignore_ascii_case("name"))
            || name_end < 2
        {
            send("info string setoption: expected 'name NAME [value VALUE]'");
            return;
        }
        let name = words[1..name_end].join(" ").to_ascii_lowercase();
        let value = value_at
            .map(|i| words[i + 1..].join(" "))
            .unwrap_or_default();
        // Signed: the evaluation's weights may be negative.
        let number = |min: i64, max: i64| -> Option<i64> {
            match value.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Some(n),
                _ => {
                    send(&format!(
                        "info string setoption {name}: expected a number {min} to {max}, found {value:?}"
                    ));
                    None
                }
            }
        };
        if let Some(result) = self.strength.set(&name, &value) {
            if let Err(e) = result {
                send(&format!("info string {e}"));
            }
            return;
        }
        match name.as_str() {
            "hash" => {
                if let Some(mb) = number(tt::MIN_MB as i64, tt::MAX_MB as i64) {
                    if let Err(e) = self.engine().set_hash(mb as usize) {
                        send(&format!("info string setoption hash: {e}"));
                    }
                }
            }
            "threads" => {
                if let Some(n) = number(1, search::MAX_THREADS as i64) {
                    if let Err(e) = self.engine().set_threads(n as usize) {
                        send(&format!("info string setoption threads: {e}"));
                    }
                }
            }
            "move overhead" => {
                if let Some(ms) = number(0, MAX_OVERHEAD_MS as i64) {
                    self.overhead = Duration::from_millis(ms as u64);
                }
            }
            // Pondering is driven by 'go ponder' itself; the option only tells the GUI
            // that the engine can.
            "ponder" => {
                if !["true", "false"].contains(&value.to_ascii_lowercase().as_str()) {
                    send(&format!(
                        "info string setoption ponder: expected true or false, found {value:?}"
                    ));
                }
            }
            "uci_variant" => {
                if !value.eq_ignore_ascii_case(VARIANT) {
                    send(&format!(
                        "info string unsupported variant {value:?}: only {VARIANT}"
                    ));
                }
            }
            "clear hash" => self.engine().clear(),
            "use nnue" => match value.to_ascii_lowercase().as_str() {
                "true" => self.evaluation.classic = false,
                "false" => self.evaluation.classic = true,
                _ => send(&format!(
                    "info string setoption use nnue: expected true or false, found {value:?}"
                )),
            },
            "evalfile" => {
                // On an error the network in use stays.
                match nnue::read_file(&value) {
                    Ok(file) => self.evaluation.file = file,
                    Err(e) => send(&format!("info string setoption evalfile: {e}")),
                }
            }
            _ => match Tunables::find(&name) {
                Some(w) if self.tuning => {
                    if let Some(n) = number(w.min.into(), w.max.into()) {
                        self.tunables.set(&name, n as i32);
                    }
                }
                Some(_) => send(&format!(
                    "info string {name:?} is a tuning option: start the engine with \
                     'duckchess uci --tuning' to set it"
                )),
                None => send(&format!("info string unknown option {name:?}")),
            },
        }
    }

    fn set_position(&mut self, words: &[&str]) {
        let moves_at = words.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let mut position = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => ClientGame::start(),
            Some(&"fen") => match notation::parse_fen(&setup[1..].join(" ")) {
                Ok(f) => ClientGame {
                    board: f.board,
                    history: Vec::new(),
                    moves_played: f.moves_played,
                },
                Err(e) => {
                    send(&format!(
                        "info string bad fen: {e}; the position is unchanged"
                    ));
                    return;
                }
            },
            _ => {
                send("info string position: expected 'startpos' or 'fen FEN', then 'moves ...'");
                return;
            }
        };
        for (i, text) in moves.iter().enumerate() {
            let problem = match notation::parse_move(text) {
                Err(e) => Some(e.to_string()),
                Ok(m) if !rules::legal_moves(&position.board).contains(&m) => {
                    Some(format!("{text} is not a legal move in {}", position.board))
                }
                Ok(m) => {
                    position.history.push(position.board.clone());
                    position.board.make_move(m.from, m.to);
                    position.moves_played += 1;
                    None
                }
            };
            if let Some(p) = problem {
                send(&format!(
                    "info string move {} of the list: {p}; the position is set before it",
                    i + 1
                ));
                break;
            }
        }
        self.position = position;
    }

    fn go(&mut self, words: &[&str]) {
        let (request, notes) = parse_go(words);
        for note in notes {
            send(&format!("info string go: {note}"));
        }
        let p = &self.position;
        let legal = rules::legal_moves(&p.board);
        let mut root_moves = Vec::new();
        for text in &request.searchmoves {
            match notation::parse_move(text) {
                Ok(m) if legal.contains(&m) => root_moves.push(m),
                _ => send(&format!(
                    "info string go: searchmoves: {text} is not a legal move here; ignored"
                )),
            }
        }
        if !request.searchmoves.is_empty() && root_moves.is_empty() && !legal.is_empty() {
            send("info string go: searchmoves: no legal move given; searching them all");
        }
        let side = p.board.side_to_move();
        if let Some(note) = request.default_clock(side) {
            send(&format!("info string go: {note}"));
        }
        let limits = request.limits(side, p.moves_played, self.overhead);
        let board = p.board.clone();
        let history = p.history.clone();
        let moves_played = p.moves_played;
        let (endless, ponder) = (request.endless(), request.ponder);
        // A weakened level's choices are seeded by the position alone: the same game
        // brings the same answers.
        let strength = Strength {
            level: self.strength.level(),
            seed: 0,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let ponderhit = Arc::new(AtomicBool::new(false));
        let (flag, hit) = (Arc::clone(&stop), Arc::clone(&ponderhit));
        let engine = Arc::clone(&self.engine);
        let tunables = self.tunables;
        let evaluation = self.evaluation.clone();
        // The answer of a search that fails: a legal move, if there is one.
        let fallback = root_moves.first().or(legal.first()).copied();
        self.searches += 1;
        let id = self.searches;
        // Said when the thread ends, however it ends.
        let answered = Answered(self.events.clone(), id);
        let spawned = thread::Builder::new()
            .name("uci-search".to_string())
            .spawn(move || {
                let _answered = answered;
                let started = Instant::now();
                let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                let mut last = None;
                let mut show = |info: &Info| {
                    send(&info_line(&info.report, info.elapsed, &info.pv));
                    last = Some(info.report);
                };
                let context = Context {
                    history: &history,
                    moves_played,
                    stop: Some(&flag),
                    on_iteration: Some(&mut show),
                    root_moves: &root_moves,
                    ponderhit: ponder.then_some(&*hit),
                    tunables: Some(&tunables),
                    evaluation: Some(&evaluation),
                };
                // A search that fails still answers: with a legal move if there is one.
                let searched = panic::catch_unwind(AssertUnwindSafe(|| {
                    let report = level::search(&mut engine, &board, strength, limits, context);
                    // A weakened level searches apart from the engine: its line is its move.
                    let line = if strength.level.is_full() {
                        engine.line().to_vec()
                    } else {
                        report.best.into_iter().collect()
                    };
                    (report, line)
                }));
                let (mut report, line) = match searched {
                    Ok(found) => found,
                    Err(_) => {
                        send("info string the search failed");
                        let best = fallback;
                        let report = Report {
                            best,
                            score: 0,
                            depth: 0,
                            nodes: 0,
                            seldepth: 0,
                        };
                        (report, best.into_iter().collect())
                    }
                };
                if report.best.is_none() {
                    // No move: the game is decided (mate 0), or the side is stuck (a draw).
                    report.score = match board.winner() {
                        Some(w) if w == board.side_to_move() => search::MATE,
                        Some(_) => -search::MATE,
                        None => 0,
                    };
                    send(&format!("info string {}", no_move(&board)));
                }
                if last != Some(report) {
                    send(&info_line(&report, started.elapsed(), &line));
                }
                // UCI: after 'go infinite' the answer waits for 'stop'; after 'go ponder',
                // for 'stop' or 'ponderhit'.
                while (endless || ponder && !hit.load(Ordering::Relaxed))
                    && !flag.load(Ordering::Relaxed)
                {
                    thread::sleep(Duration::from_millis(1));
                }
                send(&match report.best {
                    Some(m) => format!("bestmove {}", move_name(m)),
                    None => "bestmove 0000".to_string(),
                });
                // The next search's first chore, done while the client thinks.
                engine.prepare();
            });
        match spawned {
            Ok(thread) => {
                self.running = Some(Running {
                    id,
                    thread,
                    stop,
                    endless,
                    ponder,
                    ponderhit,
                })
            }
            // No thread for the search: an answer all the same.
            Err(e) => {
                send(&format!("info string cannot start the search: {e}"));
                send(&match fallback {
                    Some(m) => format!("bestmove {}", move_name(m)),
                    None => "bestmove 0000".to_string(),
                });
            }
        }
    }
}

/// Tells the session, when dropped, that the search with this id has answered.
struct Answered(Sender<Event>, u64);

impl Drop for Answered {
    fn drop(&mut self) {
        // The session has gone only when the process is ending.
        let _ = self.0.send(Event::Answered(self.1));
    }
}

/// Why the side to move of `board` has no move, in words.
fn no_move(board: &Board) -> String {
    let side = board.side_to_move();
    match board.winner() {
        Some(w) => format!(
            "no legal move: the game is over, {w} captured {}'s captain",
            w.opponent()
        ),
        None if board.is_over() => "no legal move: the game is over".to_string(),
        None => format!("no legal move: {side} is stuck, a draw"),
    }
}

/// The answer to `uci`; with `tuning`, the tuning options too.
fn identify(tuning: bool) {
    send(concat!("id name duckchess ", env!("CARGO_PKG_VERSION")));
    send("id author the duckchess developers");
    send(&format!(
        "option name Hash type spin default {} min {} max {}",
        tt::DEFAULT_MB,
        tt::MIN_MB,
        tt::MAX_MB
    ));
    send(&format!(
        "option name Threads type spin default 1 min 1 max {}",
        search::MAX_THREADS
    ));
    send(&format!(
        "option name UCI_Variant type combo default {VARIANT} var {VARIANT}"
    ));
    send(&format!(
        "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
    ));
    send("option name Clear Hash type button");
    send("option name Ponder type check default false");
    send(&format!(
        "option name Use NNUE type check default {}",
        !Evaluation::default().classic
    ));
    send("option name EvalFile type string default <built-in>");
    for line in UciStrength::options() {
        send(&line);
    }
    // The evaluation weights and search parameters, for tuning by self-play: a GUI
    // shows a player none of them.
    let knobs = eval::WEIGHTS.iter().skip(1).chain(&tunables::KNOBS);
    for w in knobs.filter(|_| tuning) {
        send(&format!(
            "option name {} type spin default {} min {} max {}",
            w.name, w.default, w.min, w.max
        ));
    }
    send("uciok");
}

/// An `info` line for a search result.
fn info_line(r: &Report, elapsed: Duration, pv: &[crate::judge::rules::Move]) -> String {
    let score = uci_score(r);
    let ms = elapsed.as_millis() as u64;
    let nps = r.nodes * 1000 / ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {ms}",
        r.depth, r.seldepth, r.nodes
    );
    if !pv.is_empty() {
        line.push_str(" pv");
        for &m in pv {
            line.push(' ');
            line.push_str(&move_name(m));
        }
    }
    line
}

/// A report's score as UCI says it: `cp N`, or `mate N` in moves (negative when the side
/// to move loses); a game already decided is `mate 0`, as Stockfish says it.
fn uci_score(r: &Report) -> String {
    match search::mate_in(r.score) {
        Some(p) if p > 0 => format!("mate {}", (p + 1) / 2),
        Some(0) => "mate 0".to_string(),
        Some(p) => format!("mate -{}", (-p + 1) / 2),
        None => format!("cp {}", r.score),
    }
}

/// What a `go` command asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Go {
    movetime: Option<u64>,
    time: [Option<u64>; 2],
    inc: [Option<u64>; 2],
    moves_to_go: Option<u64>,
    depth: Option<u64>,
    nodes: Option<u64>,
    infinite: bool,
    ponder: bool,
    /// The moves of `searchmoves`, as given (checked against the position later).
    searchmoves: Vec<String>,
    /// Whether it names a limit (a time, a clock, a depth, nodes, mate), readable or not.
    limited: bool,
    /// Whether it names a clock (`wtime`, `btime`, `winc`, `binc`, `movestogo`),
    /// readable or not.
    clock: bool,
}

/// The words a `go` command knows; `searchmoves` takes the words up to the next one.
/// (The help and docs/engine.md name every one; a test holds them to it.)
pub const GO_WORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// The largest time in milliseconds a `go` may give (about 11.6 days); more is
/// clamped to it.
const MAX_GO_MS: u64 = 1_000_000_000;

/// The clock of a side to move that a time-managed `go` gives none (`go btime 100`
/// with red to move, `go wtime 1.5`, `go movetime abc`): a second, so the answer comes
/// in about a tenth of it.
pub const DEFAULT_CLOCK_MS: u64 = 1000;

/// A number as a `go` gives it, before its range is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Number {
    /// A whole number that fits in 64 bits.
    Whole(u64),
    /// Below zero (some clients send a negative time left once the flag has fallen).
    Negative,
    /// Too large for 64 bits.
    Huge,
}

/// A whole number as a `go` gives it (an optional sign, then digits); `None` for
/// anything else (`1.5`, `ten`, `1e9`).
fn whole_number(text: &str) -> Option<Number> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits.parse::<u64>() {
        Ok(0) => Number::Whole(0),
        _ if negative => Number::Negative,
        Ok(n) => Number::Whole(n),
        Err(_) => Number::Huge,
    })
}

/// Reads the words after `go`. Never fails: every `go` is answered. What cannot be read
/// is skipped, what is out of range is clamped, and each such thing gets a note (for
/// an `info string`).
fn parse_go(words: &[&str]) -> (Go, Vec<String>) {
    let mut go = Go::default();
    let mut notes = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        i += 1;
        let (slot, min, max) = match key {
            "infinite" => {
                go.infinite = true;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                continue;
            }
            "searchmoves" => {
                while i < words.len() && !GO_WORDS.contains(&words[i]) {
                    go.searchmoves.push(words[i].to_string());
                    i += 1;
                }
                continue;
            }
            "movetime" => (&mut go.movetime, 0, MAX_GO_MS),
            "wtime" => (&mut go.time[0], 0, MAX_GO_MS),
            "btime" => (&mut go.time[1], 0, MAX_GO_MS),
            "winc" => (&mut go.inc[0], 0, MAX_GO_MS),
            "binc" => (&mut go.inc[1], 0, MAX_GO_MS),
            "movestogo" => (&mut go.moves_to_go, 1, 1000),
            "depth" => (&mut go.depth, 1, u64::from(MAX_DEPTH)),
            "nodes" => (&mut go.nodes, 1, u64::MAX),
            "mate" => (&mut go.depth, 1, u64::from(MAX_DEPTH) / 2),
            other => {
                notes.push(format!("unknown parameter {other:?} ignored"));
                continue;
            }
        };
        go.limited = true;
        go.clock |= matches!(key, "wtime" | "btime" | "winc" | "binc" | "movestogo");
        let text = match words.get(i) {
            Some(w) if !GO_WORDS.contains(w) => *w,
            _ => {
                notes.push(format!("{key}: missing a number; ignored"));
                continue;
            }
        };
        i += 1;
        let n = match whole_number(text) {
            None => {
                notes.push(format!("{key}: {text:?} is not a whole number; ignored"));
                continue;
            }
            Some(Number::Whole(n)) if (min..=max).contains(&n) => n,
            Some(Number::Whole(n)) if n > max => clamped(&mut notes, key, text, max),
            Some(Number::Huge) => clamped(&mut notes, key, text, max),
            Some(_) => clamped(&mut notes, key, text, min),
        };
        // 'mate N' is a search of N moves of the side to move: 2N plies.
        *slot = Some(if key == "mate" { n * 2 } else { n });
    }
    (go, notes)
}

/// Notes that `key`'s `text` was clamped to `to`, and gives `to`.
fn clamped(notes: &mut Vec<String>, key: &str, text: &str, to: u64) -> u64 {
    notes.push(format!("{key}: {text} clamped to {to}"));
    to
}

impl Go {
    /// Whether the answer waits for `stop`: `go infinite`, and a `go` that names no
    /// limit at all (`go`, `go searchmoves ...`, `go ponder`).
    fn endless(&self) -> bool {
        self.infinite || !self.limited
    }

    /// Whether the search runs on a clock: the `go` names one, or names limits of which
    /// none could be read.
    fn managed(&self) -> bool {
        self.clock
            || self.limited
                && self.movetime.is_none()
                && self.depth.is_none()
                && self.nodes.is_none()
    }

    /// Why `side` thinks on [`DEFAULT_CLOCK_MS`], if it does: a note for an
    /// `info string`.
    fn default_clock(&self, side: Color) -> Option<String> {
        if !self.managed() || self.time[side.index()].is_some() {
            return None;
        }
        let why = if self.clock {
            format!("no time left given for {side}")
        } else {
            "no limit could be read".to_string()
        };
        Some(format!(
            "{why}; thinking as with {DEFAULT_CLOCK_MS} ms on its clock"
        ))
    }

    /// The search limits for `side` to move after `moves_played` moves.
    fn limits(&self, side: Color, moves_played: u32, overhead: Duration) -> Limits {
        let mut limits = Limits {
            depth: MAX_DEPTH,
            time: None,
            soft: None,
            nodes: None,
        };
        if let Some(d) = self.depth {
            limits.depth = d.clamp(1, u64::from(MAX_DEPTH)) as u32;
            limits.nodes = Some(DEPTH_NODE_CAP);
        }
        if let Some(n) = self.nodes {
            limits.nodes = Some(n.max(1));
        }
        let ms = Duration::from_millis;
        if let Some(t) = self.movetime {
            let b = clock::per_move(ms(t), overhead);
            limits = limits.with_time(b.hard);
        }
        if self.managed() {
            let i = side.index();
            let c = Clock {
                left: ms(self.time[i].unwrap_or(DEFAULT_CLOCK_MS)),
                increment: ms(self.inc[i].unwrap_or(0)),
                moves_to_go: self.moves_to_go.map(|n| n.clamp(1, 1000) as u32),
            };
            let moves_left = MOVE_LIMIT.saturating_sub(moves_played).div_ceil(2);
            let b = clock::allocate(c, moves_left, overhead);
            limits = limits.with_time(b.hard);
            limits.soft = Some(limits.soft.map_or(b.soft, |s| s.min(b.soft)));
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_every_parameter() {
        let (go, notes) = parse_go(&[
            "wtime",
            "1000",
            "btime",
            "-5",
            "winc",
            "10",
            "binc",
            "20",
            "movestogo",
            "7",
        ]);
        assert_eq!(go.time, [Some(1000), Some(0)]);
        assert_eq!(go.inc, [Some(10), Some(20)]);
        assert_eq!(go.moves_to_go, Some(7));
        assert_eq!(notes, ["btime: -5 clamped to 0"]);
        assert!(go.clock && go.limited && !go.endless());
        assert!(parse_go(&["infinite"]).0.infinite);
    }

    #[test]
    fn go_skips_what_it_cannot_read_and_clamps_what_is_too_large() {
        let read = |words: &str| {
            let words: Vec<&str> = words.split_whitespace().collect();
            parse_go(&words)
        };
        for (words, note) in [
            ("depth", "depth: missing a number; ignored"),
            ("depth x", "depth: \"x\" is not a whole number; ignored"),
            ("wtime 1.5", "wtime: \"1.5\" is not a whole number; ignored"),
            ("sideways", "unknown parameter \"sideways\" ignored"),
            ("depth movetime 5", "depth: missing a number; ignored"),
        ] {
            let (_, notes) = read(words);
            assert_eq!(notes, [note], "{words}");
        }
        // 'depth' without its number does not take the next word's.
        assert_eq!(read("depth movetime 5").0.movetime, Some(5));
        let (go, notes) = read("movetime 18446744073709551615 nodes 99999999999999999999999");
        assert_eq!(go.movetime, Some(MAX_GO_MS));
        assert_eq!(go.nodes, Some(u64::MAX));
        assert_eq!(
            notes,
            [
                "movetime: 18446744073709551615 clamped to 1000000000",
                "nodes: 99999999999999999999999 clamped to 18446744073709551615"
            ]
        );
        // Below the range: a negative number of any size, a depth or node count of 0.
        for (words, note) in [
            ("depth -1", "depth: -1 clamped to 1"),
            ("depth 0", "depth: 0 clamped to 1"),
            ("movetime -1", "movetime: -1 clamped to 0"),
            ("winc -5", "winc: -5 clamped to 0"),
            (
                "wtime -99999999999999999999",
                "wtime: -99999999999999999999 clamped to 0",
            ),
            ("nodes 0", "nodes: 0 clamped to 1"),
            ("mate 0", "mate: 0 clamped to 1"),
            ("movestogo 0", "movestogo: 0 clamped to 1"),
        ] {
            assert_eq!(read(words).1, [note], "{words}");
        }
        assert!(read("movetime -0 wtime +0").1.is_empty());
        let (go, notes) = read("mate 99999999999 depth 0");
        assert_eq!(go.depth, Some(1));
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert_eq!(read("mate 99999999999").0.depth, Some(u64::from(MAX_DEPTH)));
        let (go, notes) = read("searchmoves e4e5 zz a1a1 infinite");
        assert_eq!(go.searchmoves, ["e4e5", "zz", "a1a1"]);
        assert!(go.infinite && notes.is_empty());
    }

    #[test]
    fn go_limits() {
        let o = Duration::from_millis(10);
        let l = parse_go(&["depth", "5"]).0.limits(Color::Red, 0, o);
        assert_eq!((l.depth, l.nodes, l.time), (5, Some(DEPTH_NODE_CAP), None));
        let l = parse_go(&["movetime", "100"]).0.limits(Color::Red, 0, o);
        assert_eq!(l.time, Some(Duration::from_millis(90)));
        let l = parse_go(&["wtime", "100000", "btime", "1000"])
            .0
            .limits(Color::Blue, 0, o);
        assert!(l.time.unwrap() <= Duration::from_millis(330), "{l:?}");
        assert!(l.soft.unwrap() <= l.time.unwrap());
        let l = parse_go(&["infinite"]).0.limits(Color::Red, 0, o);
        assert_eq!((l.time, l.nodes), (None, None));
    }

    #[test]
    fn only_infinite_and_a_bare_go_wait_for_stop() {
        let go = |words: &str| {
            let words: Vec<&str> = words.split_whitespace().collect();
            parse_go(&words).0
        };
        for words in [
            "",
            "infinite",
            "infinite depth 3",
            "searchmoves a1a2",
            "ponder",
            "x",
        ] {
            assert!(go(words).endless(), "{words:?}");
        }
        let o = Duration::from_millis(10);
        let second = Duration::from_millis(DEFAULT_CLOCK_MS);
        // A clock named, readable or not, for either side: the side to move's clock, or
        // a second when it has none.
        for words in [
            "btime 100",
            "wtime 1.5",
            "wtime",
            "winc 10",
            "movestogo 5",
            "movetime abc",
            "depth x nodes -",
            "mate",
        ] {
            let g = go(words);
            assert!(!g.endless(), "{words:?}");
            let l = g.limits(Color::Red, 0, o);
            assert!(l.time.is_some_and(|t| t < second), "{words:?}: {l:?}");
            assert!(g.default_clock(Color::Red).is_some(), "{words:?}");
        }
        // A readable limit: no clock made up.
        for words in ["depth 3", "nodes 100", "movetime 50", "wtime 100 winc x"] {
            assert_eq!(go(words).default_clock(Color::Red), None, "{words:?}");
        }
        assert_eq!(go("depth 3").limits(Color::Red, 0, o).time, None);
        assert!(go("btime 100").default_clock(Color::Blue).is_none());
    }

    #[test]
    fn long_lines_are_cut() {
        let mut text = vec![b'x'; MAX_LINE + 10];
        text.extend_from_slice(b"\nisready\nlast");
        let mut input = &text[..];
        let mut read = || lines::read_line(&mut input, MAX_LINE).unwrap();
        assert!(read().unwrap().overlong);
        let line = read().unwrap();
        assert!(!line.overlong);
        assert_eq!(line.bytes, b"isready");
        let line = read().unwrap();
        assert!(!line.overlong);
        assert_eq!(line.bytes, b"last");
        assert_eq!(read(), None);
    }
}
