//! The other end of UCI: starts an engine program, does the handshake, sets options,
//! and asks for moves with a deadline, reading its `info` lines on the way. A reader
//! thread turns the engine's output into lines on a channel, so that no read can wait
//! past its deadline. Used by the `match` subcommand. Not on the judge path.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` or `isready`.
pub const HANDSHAKE: Duration = Duration::from_secs(20);
/// The longest line kept from an engine (a longer one is cut).
const MAX_LINE: usize = 1 << 16;

/// A running engine program.
pub struct Client {
    /// The engine's `id name`, or its command when it gave none.
    pub name: String,
    /// The options the engine offered, by name.
    pub options: Vec<String>,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

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

impl Client {
    /// Starts `command` (a program and its arguments, separated by spaces), does the
    /// UCI handshake, selects the variant when the engine offers `UCI_Variant`, and
    /// sets `options` (name, value), then waits for `readyok`.
    pub fn start(command: &str, options: &[(String, String)]) -> Result<Client, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("empty engine command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program:?}: {e}"))?;
        let input = child.stdin.take().ok_or("no engine input")?;
        let output = child.stdout.take().ok_or("no engine output")?;
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(output);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match Read::take(&mut reader, MAX_LINE as u64).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut client = Client {
            name: command.to_string(),
            options: Vec::new(),
            child,
            input,
            lines,
        };
        client.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = client.next_line(deadline)?;
            if let Some(name) = line.strip_prefix("id name ") {
                client.name = name.trim().to_string();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest);
                client.options.push(name.trim().to_string());
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

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("{}: cannot write to the engine: {e}", self.name))
    }

    /// The next line, waiting until `deadline` at most.
    fn next_line(&mut self, deadline: Instant) -> Result<String, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!("{}: no answer in time", self.name)),
            Err(RecvTimeoutError::Disconnected) => Err(format!("{}: the engine ended", self.name)),
        }
    }

    /// `isready`, waiting for `readyok`.
    pub fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.next_line(deadline)? != "readyok" {}
        Ok(())
    }

    /// Starts a new game: `ucinewgame`, then `isready`.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// Sends `position` and `go`, and waits for `bestmove` until `timeout` has passed
    /// since the `go`.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        timeout: Duration,
    ) -> Result<Thought, String> {
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
            let line = self.next_line(deadline)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first().copied() {
                Some("info") if !words.contains(&"string") => {
                    thought.depth = field(&words, "depth").or(thought.depth);
                    thought.nodes = field(&words, "nodes").or(thought.nodes);
                    thought.time_ms = field(&words, "time").or(thought.time_ms);
                }
                Some("bestmove") => {
                    thought.elapsed = started.elapsed();
                    thought.best = words.get(1).unwrap_or(&"").to_string();
                    return Ok(thought);
                }
                _ => {}
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A polite engine ends at once; one that does not is killed.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
