//! A live `duckchess uci` session for the tests that talk to the engine while it
//! thinks (`uci.rs`, `threads.rs`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// A live `duckchess uci` session: lines go in when the test says, answers are waited
/// for with a deadline. The engine is killed when this is dropped.
pub struct Live {
    /// The engine's process.
    pub child: Child,
    /// Its standard input, `None` once the test has closed it.
    pub input: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl Live {
    pub fn start() -> Live {
        let mut child = Command::new(env!("CARGO_BIN_EXE_duckchess"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("uci starts");
        let input = child.stdin.take();
        let output = child.stdout.take().expect("piped");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Live {
            child,
            input,
            lines,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        let input = self.input.as_mut().expect("the input is open");
        writeln!(input, "{line}").expect("uci reads");
        input.flush().expect("uci reads");
    }

    /// Sends `lines`, then `isready`, and waits for `readyok`.
    pub fn ready(&mut self, lines: &[&str]) {
        for line in lines {
            self.send(line);
        }
        self.send("isready");
        assert!(
            self.wait_for("readyok", Duration::from_secs(60)).is_some(),
            "{:?}",
            self.seen
        );
    }

    /// Waits up to `within` for a line starting with `prefix`; `None` if none came.
    pub fn wait_for(&mut self, prefix: &str, within: Duration) -> Option<String> {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).ok()?;
            self.seen.push(line.clone());
            if line.starts_with(prefix) {
                return Some(line);
            }
        }
    }

    /// Sends `go`, waits for its `bestmove`; returns how long it took.
    pub fn timed_go(&mut self, go: &str) -> Duration {
        let started = Instant::now();
        self.send(go);
        let best = self.wait_for("bestmove ", Duration::from_secs(30));
        assert!(best.is_some(), "{go}: no answer: {:?}", self.seen);
        started.elapsed()
    }

    /// The value of `key` (kB) in the process's /proc status (Linux).
    pub fn status_kb(&self, key: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Waits up to `within` for the process to exit.
    pub fn exits_within(&mut self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if self.child.try_wait().expect("wait works").is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    /// The processor time the process has used so far, in both modes (Linux).
    pub fn cpu_time(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // After the command name in parentheses: utime and stime are fields 14 and 15.
        let rest = stat.rsplit_once(')')?.1;
        let fields: Vec<u64> = rest
            .split_whitespace()
            .skip(11)
            .take(2)
            .filter_map(|f| f.parse().ok())
            .collect();
        // Clock ticks of 10 ms (USER_HZ is 100 on Linux).
        Some(Duration::from_millis(10 * fields.iter().sum::<u64>()))
    }

    /// The minor page faults of the process so far (Linux); `None` elsewhere.
    pub fn minor_faults(&self) -> Option<u64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // Fields after the command's closing parenthesis: state is field 3, minflt 10.
        let rest = &stat[stat.rfind(')')? + 2..];
        rest.split_whitespace().nth(7)?.parse().ok()
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
