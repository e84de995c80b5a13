//! The other end of UCI: starts an engine program, does the handshake, sets options,
//! and asks for moves with a deadline, reading its `info` lines on the way. Used by the
//! `match` subcommand. Not on the judge path.
//!
//! The engine is not trusted. A reader thread turns its output into lines on a bounded
//! queue (so a flood of output waits in the engine's pipe, not in our memory), and a
//! line longer than [`MAX_LINE`] is a protocol error; a writer thread feeds its input
//! (so an engine that stops reading cannot block us). Every wait has a deadline that
//! no amount of output extends: the handshake's `uciok` and each `readyok` within
//! [`HANDSHAKE`], a `bestmove` within the time the caller gives. The engine runs in a
//! process group of its own, ended (TERM, then KILL after [`GRACE`]) when the client
//! is dropped or the program is interrupted, so nothing it started outlives the match.

use crate::sys::{group, program};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` with `uciok`, or `isready` with
/// `readyok`, however much else it prints meanwhile.
pub const HANDSHAKE: Duration = Duration::from_secs(5);
/// The longest line an engine may print, its end included: a longer one is a protocol
/// error (a `pv` of a hundred moves takes under 1,000 bytes).
pub const MAX_LINE: usize = 1 << 16;
/// How long an engine has to end after `quit`, and again after TERM, before KILL.
pub const GRACE: Duration = Duration::from_millis(500);
/// Lines read ahead of the caller: with [`MAX_LINE`], at most 4 MiB held per engine.
const READ_AHEAD: usize = 64;
/// Lines queued for an engine that does not read them yet; past that it is stuck.
const WRITE_AHEAD: usize = 256;

/// What the reader thread passes on.
enum Output {
    /// One line, without its end.
    Line(String),
    /// A line longer than [`MAX_LINE`]: the engine broke the protocol; nothing more
    /// is read.
    TooLong,
}

/// A running engine program.
pub struct Client {
    /// The engine's `id name`, or its command when it gave none.
    pub name: String,
    /// The options the engine offered, by name.
    pub options: Vec<String>,
    child: Child,
    /// Lines for the writer thread; `None` once the client has sent `quit`.
    input: Option<SyncSender<String>>,
    lines: Receiver<Output>,
    /// Keeps the group known to the interrupt handler while the engine runs.
    _tracked: group::Tracked,
    /// Our ends of the engine's pipes, as the system names them (see
    /// [`group::pipe_names`]).
    pipes: Vec<String>,
}

/// The system's names of our ends of an engine's pipes.
#[cfg(unix)]
fn pipe_names(stdin: &ChildStdin, stdout: &ChildStdout) -> Vec<String> {
    use std::os::unix::io::AsRawFd;
    group::pipe_names(&[stdin.as_raw_fd(), stdout.as_raw_fd()])
}

/// No names elsewhere.
#[cfg(not(unix))]
fn pipe_names(_stdin: &ChildStdin, _stdout: &ChildStdout) -> Vec<String> {
    Vec::new()
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
    /// The engine did not read its input: more than [`WRITE_AHEAD`] lines wait.
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

/// Reads `output` line by line into `lines` until the end, an error, a line longer
/// than [`MAX_LINE`] (reported, then reading stops) or a receiver that has gone. The
/// queue is bounded: when the caller falls behind, this waits, and so does the engine.
fn read_lines(output: impl std::io::Read, lines: SyncSender<Output>) {
    let mut reader = BufReader::new(output);
    let mut line = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(b) => b,
        };
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if line.len() + chunk.len() + usize::from(end.is_some()) > MAX_LINE {
            let _ = lines.send(Output::TooLong);
            return;
        }
        line.extend_from_slice(chunk);
        let used = end.unwrap_or(buf.len());
        reader.consume(used);
        if end.is_some() {
            let text = String::from_utf8_lossy(&line).trim().to_string();
            line.clear();
            if lines.send(Output::Line(text)).is_err() {
                return;
            }
        }
    }
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
        let mut words = command.split_whitespace();
        let program = words.next().ok_or_else(|| fail(Fault::NoCommand))?;
        let mut spawn = Command::new(program::locate(program));
        spawn
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        group::isolate(&mut spawn);
        let (mut child, tracked) = group::spawn_tracked_gentle(&mut spawn)
            .map_err(|e| fail(Fault::Start(e.to_string())))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            group::terminate_group(&mut child, GRACE, &[]);
            return Err(fail(Fault::Start("no pipes".into())));
        };
        // Named now, while they are surely ours: at the end, what still holds them from
        // outside the engine's group (a helper it started with setsid) is ended too.
        let pipes = pipe_names(&stdin, &stdout);
        let (tx, lines) = mpsc::sync_channel(READ_AHEAD);
        thread::spawn(move || read_lines(stdout, tx));
        let (input, queue) = mpsc::sync_channel::<String>(WRITE_AHEAD);
        thread::spawn(move || {
            for line in queue {
                if writeln!(stdin, "{line}")
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        let mut client = Client {
            name: clipped(command, MAX_NAME),
            options: Vec::new(),
            child,
            input: Some(input),
            lines,
            _tracked: tracked,
            pipes,
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
        let sent = match &self.input {
            Some(input) => input.try_send(line.to_string()),
            None => return Err(self.error(Fault::Ended)),
        };
        match sent {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(self.error(Fault::NotReading)),
            Err(TrySendError::Disconnected(_)) => Err(self.error(Fault::Ended)),
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
        let now = Instant::now();
        if now >= deadline {
            return Err(self.error(timeout()));
        }
        match self.lines.recv_timeout(deadline - now) {
            Ok(Output::Line(line)) => Ok(line),
            Ok(Output::TooLong) => Err(self.error(Fault::TooLong)),
            Err(RecvTimeoutError::Timeout) => Err(self.error(timeout())),
            Err(RecvTimeoutError::Disconnected) => Err(self.error(Fault::Ended)),
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
        // A polite engine ends at once on 'quit'; then its group is ended, which also
        // ends anything it started and left behind, or the engine itself if it lingers.
        let _ = self.send("quit");
        self.input = None;
        let deadline = Instant::now() + GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        group::terminate_group(&mut self.child, GRACE, &self.pipes);
    }
}
