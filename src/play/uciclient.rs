//! The other end of UCI: starts an engine program, does the handshake, sets options,
//! and asks for moves with a deadline, reading its `info` lines on the way. Used by the
//! `match` subcommand. Not on the judge path.
//!
//! The engine is not trusted, and is served as the runner serves a program under test
//! ([`crate::sys::pipes`]): its output is read only when a line is wanted (so a flood
//! of output waits in the engine's pipe, not in our memory) and cut into lines of
//! bounded length ([`crate::sys::lines`]), a line longer than [`MAX_LINE`] being a
//! protocol error; its input is queued and written as it reads (so an engine that stops
//! reading cannot block us). Every wait has a deadline that no amount of output
//! extends: the handshake's `uciok` and each `readyok` within [`HANDSHAKE`], a
//! `bestmove` within the time the caller gives. The engine runs as a program under test
//! does ([`crate::sandbox::contain`]): in a process group of its own, on Linux in a control
//! group of its own and under a supervisor that is the subreaper of its processes
//! alone, so that a daemon it starts in a session of its own is its still. Dropped, the
//! client says `quit`, waits [`GRACE`] for the engine to end, then kills every process
//! of it that is left; an interrupt ends them too, so nothing it started outlives the
//! match.

use crate::sandbox::contain::{self, Contained};
use crate::sys::lines::Lines;
use crate::sys::pipes::{Event, Pipes, Refused, Stream};
use crate::sys::program;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` with `uciok`, or `isready` with
/// `readyok`, however much else it prints meanwhile.
pub const HANDSHAKE: Duration = Duration::from_secs(5);
/// The longest line an engine may print, its end included: a longer one is a protocol
/// error (a `pv` of a hundred moves takes under 1,000 bytes).
pub const MAX_LINE: usize = 1 << 16;
/// How long an engine has to end after `quit` before all of it is killed.
pub const GRACE: Duration = Duration::from_millis(500);
/// The memory an engine's processes may hold before the control group's limit: no
/// limit in practice (an engine's hash is its own affair), but a group all the same.
const ENGINE_MEMORY: u64 = 1 << 40;
/// Bytes queued for an engine that does not read them yet (256 lines of 4 KiB); past
/// that it is stuck.
const WRITE_AHEAD: usize = 1 << 20;

/// A running engine program.
pub struct Client {
    /// The engine's `id name`, or its command when it gave none.
    pub name: String,
    /// The options the engine offered, by name.
    pub options: Vec<String>,
    /// The engine's processes.
    run: Contained,
    /// The engine's input and output.
    pipes: Pipes,
    /// The line being read.
    lines: Lines,
    /// The output read and not yet cut into lines, from `at` on: at most one read.
    unread: Vec<u8>,
    at: usize,
    /// Whether the engine's output has ended.
    ended: bool,
}

/// The most options kept from the handshake, and the longest name kept of each: enough
/// for any real engine, and a bound on what a hostile one makes us hold.
const MAX_OPTIONS: usize = 1024;
const MAX_NAME: usize = 128;

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The command is empty.
    NoCommand,
    /// The program did not start.
    Start(String),
    /// The engine closed its input or ended.
    Ended,
    /// The engine did not read its input: more than [`WRITE_AHEAD`] bytes wait.
    NotReading,
    /// No `expected` line within `within`.
    Timeout {
        expected: &'static str,
        within: Duration,
    },
    /// A line longer than [`MAX_LINE`].
    TooLong,
}

/// An engine's fault, with the engine's name (or command).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientError {
    /// The engine.
    pub engine: String,
    /// What it did.
    pub fault: Fault,
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.engine)?;
        match &self.fault {
            Fault::NoCommand => write!(f, "empty engine command"),
            Fault::Start(e) => write!(f, "cannot start: {e}"),
            Fault::Ended => write!(f, "the engine ended"),
            Fault::NotReading => write!(f, "the engine does not read its input"),
            Fault::Timeout { expected, within } => {
                let ms = within.as_millis();
                if ms % 1000 == 0 {
                    write!(f, "no {expected} within {} s", ms / 1000)
                } else {
                    write!(f, "no {expected} within {ms} ms")
                }
            }
            Fault::TooLong => write!(f, "a line longer than {MAX_LINE} bytes"),
        }
    }
}

impl std::error::Error for ClientError {}

/// One answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The text after `bestmove`, up to the next space.
    pub best: String,
    /// The last `info ... depth D` seen.
    pub depth: Option<u32>,
    /// The last `info ... nodes N` seen.
    pub nodes: Option<u64>,
    /// The last `info ... time T` (milliseconds) seen.
    pub time_ms: Option<u64>,
    /// The time from `go` to `bestmove`, as measured here.
    pub elapsed: Duration,
}

/// The value after `key` in a whitespace-separated line.
fn field<T: std::str::FromStr>(words: &[&str], key: &str) -> Option<T> {
    let i = words.iter().position(|w| *w == key)?;
    words.get(i + 1)?.parse().ok()
}

/// At most `max` bytes of `text`, cut at a character boundary.
fn clipped(text: &str, max: usize) -> String {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

impl Client {
    /// Starts `command` (a program and its arguments, separated by spaces) in a process
    /// group of its own, does the UCI handshake, selects the variant when the engine
    /// offers `UCI_Variant`, and sets `options` (name, value), then waits for `readyok`.
    pub fn start(command: &str, options: &[(String, String)]) -> Result<Client, ClientError> {
        let fail = |fault| ClientError {
            engine: command.to_string(),
            fault,
        };
        let argv: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        let Some(program) = argv.first() else {
            return Err(fail(Fault::NoCommand));
        };
        let make = || {
            let mut spawn = Command::new(program::locate(program));
            spawn
                .args(&argv[1..])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null());
            spawn
        };
        let mut run = contain::start(&argv, &make, ENGINE_MEMORY)
            .map_err(|e| fail(Fault::Start(e.to_string())))?;
        let child = run.child_mut();
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            run.end(&[], false);
            return Err(fail(Fault::Start("no pipes".into())));
        };
        let pipes = Pipes::queued(stdin, Some(stdout), None, WRITE_AHEAD);
        let mut client = Client {
            name: clipped(command, MAX_NAME),
            options: Vec::new(),
            run,
            pipes,
            lines: Lines::new(),
            unread: Vec::new(),
            at: 0,
            ended: false,
        };
        client.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = client.next_line(deadline, "uciok", HANDSHAKE)?;
            if let Some(name) = line.strip_prefix("id name ") {
                client.name = clipped(name.trim(), MAX_NAME);
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest);
                if client.options.len() < MAX_OPTIONS {
                    client.options.push(clipped(name.trim(), MAX_NAME));
                }
            } else if line == "uciok" {
                break;
            }
        }
        for (name, value) in options {
            client.send(&format!("setoption name {name} value {value}"))?;
        }
        if client.options.iter().any(|o| o == "UCI_Variant") {
            client.send("setoption name UCI_Variant value duckchess")?;
        }
        client.ready()?;
        Ok(client)
    }

    fn error(&self, fault: Fault) -> ClientError {
        ClientError {
            engine: self.name.clone(),
            fault,
        }
    }

    /// Queues one line for the engine; fails when the engine ended or has stopped
    /// reading.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        match self.pipes.send(format!("{line}\n").as_bytes()) {
            Ok(()) => Ok(()),
            Err(Refused::Full) => Err(self.error(Fault::NotReading)),
            Err(Refused::Closed) => Err(self.error(Fault::Ended)),
        }
    }

    /// The next line, by `deadline` at the latest whatever the engine prints;
    /// `expected` and `within` say what was waited for, for the error.
    fn next_line(
        &mut self,
        deadline: Instant,
        expected: &'static str,
        within: Duration,
    ) -> Result<String, ClientError> {
        let timeout = || Fault::Timeout { expected, within };
        loop {
            // What was read already first, a line at a time; the end of a line counts
            // in MAX_LINE.
            if self.lines.overlong() {
                return Err(self.error(Fault::TooLong));
            }
            if self.at < self.unread.len() {
                let (used, line) = self.lines.feed(&self.unread[self.at..], MAX_LINE - 1);
                self.at += used;
                match line {
                    Some(line) if line.overlong => return Err(self.error(Fault::TooLong)),
                    Some(line) => {
                        return Ok(String::from_utf8_lossy(&line.bytes).trim().to_string())
                    }
                    None => continue,
                }
            }
            // A last line without its end is not a line.
            if self.ended {
                return Err(self.error(Fault::Ended));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(self.error(timeout()));
            }
            match self.pipes.next(deadline - now) {
                Ok(Event::Data(Stream::Stdout, bytes)) => {
                    self.unread.clear();
                    self.unread.extend_from_slice(bytes);
                    self.at = 0;
                }
                Ok(Event::End(Stream::Stdout)) | Err(_) => self.ended = true,
                Ok(_) => {}
            }
        }
    }

    /// `isready`, waiting for `readyok`.
    pub fn ready(&mut self) -> Result<(), ClientError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.next_line(deadline, "readyok", HANDSHAKE)? != "readyok" {}
        Ok(())
    }

    /// Starts a new game: `ucinewgame`, then `isready`.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// Sends `position` and `go`, and waits for `bestmove` until `timeout` has passed
    /// since the `go`, however many other lines come meanwhile.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        timeout: Duration,
    ) -> Result<Thought, ClientError> {
        self.send(position)?;
        self.send(go)?;
        let started = Instant::now();
        let deadline = started + timeout;
        let mut thought = Thought {
            best: String::new(),
            depth: None,
            nodes: None,
            time_ms: None,
            elapsed: Duration::ZERO,
        };
        loop {
            let line = self.next_line(deadline, "bestmove", timeout)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first().copied() {
                Some("info") if !words.contains(&"string") => {
                    thought.depth = field(&words, "depth").or(thought.depth);
                    thought.nodes = field(&words, "nodes").or(thought.nodes);
                    thought.time_ms = field(&words, "time").or(thought.time_ms);
                }
                Some("bestmove") => {
                    thought.elapsed = started.elapsed();
                    thought.best = clipped(words.get(1).unwrap_or(&""), MAX_NAME);
                    return Ok(thought);
                }
                _ => {}
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // A polite engine ends at once on 'quit'; then every process of it is ended:
        // anything it started and left behind, in any session, or the engine itself if
        // it lingers.
        let _ = self.send("quit");
        let deadline = Instant::now() + GRACE;
        while Instant::now() < deadline {
            // Its input ends once 'quit' is written.
            if self.pipes.unsent() == 0 {
                self.pipes.close_input();
            }
            if !matches!(self.run.exited(), Ok(None)) {
                break;
            }
            // What it prints meanwhile is read and dropped, so it is not stuck on a
            // full pipe.
            let _ = self.pipes.next(Duration::from_millis(5));
        }
        let fds = self.pipes.fds();
        self.run.end(&fds, false);
    }
}
