//! Running a solution: the built-in judge in process, or another program with its input
//! on stdin, its output streamed to a sink as it comes (no size cap, no copy kept), and a
//! time limit that kills its whole process group. Also the built-in judge's answer as a
//! stream, the reference for a case without an answer file. `test` and `stress` both run
//! programs this way.

use crate::judge;
use crate::tools::group;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// At most this much of a program's standard error is kept.
const STDERR_CAP: usize = 64 << 10;
/// Output is read this much at a time.
const CHUNK: usize = 1 << 16;
/// An input this small is written at once: a pipe always holds one page, so the write
/// cannot wait for the program to read.
const SMALL_INPUT: usize = 4096;
/// How long a program that has exited may leave something running that holds its pipes.
const GRACE: Duration = Duration::from_millis(500);
/// How often the watchdog looks at a running program.
const TICK: Duration = Duration::from_millis(10);

/// Splits a `--cmd` value into words: whitespace separates words; `'...'` keeps its text
/// as is; `"..."` too, except that `\"` and `\\` stand for `"` and `\`; outside quotes a
/// backslash keeps the next character. No variables, globs or other shell syntax.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("--cmd: unterminated ' quote".to_string()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("--cmd: unterminated \" quote".to_string()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("--cmd: unterminated \" quote".to_string()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err("--cmd: a backslash ends the command".to_string()),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("--cmd: empty command".to_string());
    }
    Ok(words)
}

/// What runs each case.
#[derive(Clone, Debug)]
pub enum Runner {
    /// The built-in judge, in process.
    Builtin,
    /// Another program: its words (program first) and its time limit.
    Program {
        /// The program and its arguments.
        argv: Vec<String>,
        /// Killed when it runs longer than this.
        timeout: Duration,
    },
}

/// Where a case's input comes from: bytes in memory, or a file read as it is needed (so
/// a large case costs no memory).
#[derive(Clone, Debug)]
pub enum Feed {
    /// The input itself.
    Bytes(Arc<[u8]>),
    /// A file holding it.
    File(PathBuf),
}

impl Feed {
    /// A reader from the start of the input.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        Ok(match self {
            Feed::Bytes(bytes) => Box::new(io::Cursor::new(Arc::clone(bytes))),
            Feed::File(path) => Box::new(File::open(path)?),
        })
    }
}

/// How one run ended. Its standard output went to the sink given to the run.
#[derive(Debug)]
pub enum Run {
    /// The program ended by itself.
    Finished {
        /// `None` for success; otherwise "exit status 3", "signal 11 (SIGSEGV)" or the
        /// built-in judge's error.
        failure: Option<String>,
        /// Its standard error (at most [`STDERR_CAP`] bytes).
        stderr: Vec<u8>,
        /// Wall-clock time.
        elapsed: Duration,
    },
    /// It was killed at the time limit.
    TimedOut {
        /// Wall-clock time until the kill.
        elapsed: Duration,
        /// The time limit.
        limit: Duration,
    },
}

impl Run {
    /// Wall-clock time of the run.
    pub fn elapsed(&self) -> Duration {
        match self {
            Run::Finished { elapsed, .. } | Run::TimedOut { elapsed, .. } => *elapsed,
        }
    }
}

/// Runs the case with `runner`, its standard output going to `sink`. Fails only when the
/// input cannot be opened or the program cannot be started.
pub fn run(runner: &Runner, input: &Feed, sink: &mut dyn Write) -> io::Result<Run> {
    match runner {
        Runner::Builtin => run_builtin(input, sink),
        Runner::Program { argv, timeout } => run_program(argv, input, *timeout, sink),
    }
}

/// Runs the built-in judge on `input`, writing its answers to `sink`.
pub fn run_builtin(input: &Feed, sink: &mut dyn Write) -> io::Result<Run> {
    let source = input.open()?;
    let start = Instant::now();
    let mut sink = sink;
    let result = judge::run(source, &mut sink);
    let failure = result.err().map(|e| format!("exit status 1: {e}"));
    Ok(Run::Finished {
        failure,
        stderr: Vec::new(),
        elapsed: start.elapsed(),
    })
}

/// The built-in judge's answer to `input`, to be read as it is written (by a thread of
/// its own, through a few chunks in flight): the reference when a case has no answer
/// file. Join the handle after reading to learn whether the input was well formed.
pub fn builtin_answer(input: &Feed) -> io::Result<(Answer, JoinHandle<Result<(), String>>)> {
    let source = input.open()?;
    let (sender, receiver) = mpsc::sync_channel::<Vec<u8>>(4);
    let handle = thread::spawn(move || {
        let mut sink = ChunkWriter(sender);
        judge::run(source, &mut sink)
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    let answer = Answer {
        chunks: receiver,
        current: Vec::new(),
        at: 0,
    };
    Ok((answer, handle))
}

/// The writing end of [`builtin_answer`]: each write is one chunk in the channel.
struct ChunkWriter(mpsc::SyncSender<Vec<u8>>);

impl Write for ChunkWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0
            .send(bytes.to_vec())
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the reader has gone"))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The reading end of [`builtin_answer`].
pub struct Answer {
    chunks: mpsc::Receiver<Vec<u8>>,
    current: Vec<u8>,
    at: usize,
}

impl Read for Answer {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.current.len() {
            match self.chunks.recv() {
                Ok(chunk) => {
                    self.current = chunk;
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len() - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Reads `src` to its end, keeping at most `cap` bytes, then says so on `done`.
fn drain<R: Read>(mut src: R, sink: Arc<Mutex<Vec<u8>>>, cap: usize, done: mpsc::Sender<()>) {
    let mut chunk = [0u8; 1 << 12];
    loop {
        match src.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                if let Ok(mut buf) = sink.lock() {
                    let room = cap.saturating_sub(buf.len());
                    buf.extend_from_slice(&chunk[..n.min(room)]);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = done.send(());
}

/// "exit status 3" or "signal 11 (SIGSEGV)"; `None` for success.
fn describe_status(status: ExitStatus) -> Option<String> {
    if status.success() {
        return None;
    }
    if let Some(code) = status.code() {
        return Some(format!("exit status {code}"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            // Numbers that are the same on every Unix.
            let name = match signal {
                1 => " (SIGHUP)",
                2 => " (SIGINT)",
                3 => " (SIGQUIT)",
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                13 => " (SIGPIPE)",
                14 => " (SIGALRM)",
                15 => " (SIGTERM)",
                _ => "",
            };
            return Some(format!("signal {signal}{name}"));
        }
    }
    Some(format!("{status}"))
}

/// What the watchdog of a run has seen.
#[derive(Default)]
struct Watch {
    /// The program's exit status, once reaped.
    status: Option<ExitStatus>,
    /// It was killed at the time limit.
    timed_out: bool,
}

/// Runs `argv` with `input` on its standard input and its standard output going to
/// `sink` as it comes (nothing of it is kept here), killing it (and its process group)
/// after `timeout`. Fails only when the input cannot be opened or the program cannot be
/// started.
///
/// This thread reads the output; a watchdog thread enforces the time limit, and also
/// ends the group when the program has exited but something it left running still holds
/// the pipes after a grace period.
pub fn run_program(
    argv: &[String],
    input: &Feed,
    timeout: Duration,
    sink: &mut dyn Write,
) -> io::Result<Run> {
    run_program_with(argv, input, timeout, sink, Stderr::Keep)
}

/// What becomes of a program's standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stderr {
    /// Its first [`STDERR_CAP`] bytes are kept for the report.
    Keep,
    /// It goes nowhere: one pipe and one thread less per run, for runs only judged.
    Discard,
}

/// [`run_program`], choosing what becomes of standard error.
pub fn run_program_with(
    argv: &[String],
    input: &Feed,
    timeout: Duration,
    sink: &mut dyn Write,
    stderr_to: Stderr,
) -> io::Result<Run> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
    let source = match input {
        Feed::Bytes(bytes) if bytes.len() <= SMALL_INPUT => None,
        _ => Some(input.open()?),
    };
    let mut command = std::process::Command::new(program);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(match stderr_to {
            Stderr::Keep => Stdio::piped(),
            Stderr::Discard => Stdio::null(),
        });
    group::isolate(&mut command);
    let start = Instant::now();
    let mut child = command.spawn()?;
    // Until it is reaped, an interrupt of ours ends its group too.
    let _tracked = group::Tracked::new(&child);
    if let Some(mut stdin) = child.stdin.take() {
        // A program that stops reading early closes the pipe: not our problem.
        match (source, input) {
            (None, Feed::Bytes(bytes)) => {
                let _ = stdin.write_all(bytes);
            }
            (Some(mut source), _) => {
                thread::spawn(move || {
                    let _ = io::copy(&mut source, &mut stdin);
                });
            }
            (None, Feed::File(_)) => unreachable!("a file input is always opened"),
        }
    }
    let (stderr_done, stderr_finished) = mpsc::channel();
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let stderr_open = match child.stderr.take() {
        Some(pipe) => {
            let sink = Arc::clone(&stderr);
            thread::spawn(move || drain(pipe, sink, STDERR_CAP, stderr_done));
            true
        }
        None => false,
    };
    let stdout = child.stdout.take();
    let child = Arc::new(Mutex::new(child));
    let watch = Arc::new(Mutex::new(Watch::default()));
    let (stop, stopped) = mpsc::channel::<()>();
    let watchdog = {
        let (child, watch) = (Arc::clone(&child), Arc::clone(&watch));
        thread::spawn(move || guard(&child, &watch, &stopped, start, timeout))
    };
    let mut written = Ok(());
    if let Some(mut pipe) = stdout {
        let mut buf = vec![0u8; CHUNK];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if written.is_ok() {
                        written = sink.write_all(&buf[..n]);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
    }
    // The output is closed: the program has ended or is about to (else the watchdog
    // ends it at the time limit).
    let mut pause = Duration::from_micros(20);
    let status = loop {
        // The watchdog's order: the child, then the watch. A kill at the time limit and
        // the flag saying so are one step for whoever looks.
        if let (Ok(mut c), Ok(w)) = (child.lock(), watch.lock()) {
            if w.timed_out {
                break None;
            }
            if let Some(status) = c.try_wait()? {
                break Some(status);
            }
        }
        thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(2));
    };
    let elapsed = start.elapsed();
    // The watchdog ends when it next wakes; waiting for that would cost a scheduling
    // delay per run, and it has nothing left to do.
    let _ = stop.send(());
    drop(watchdog);
    written?;
    let status = match status {
        Some(s) => s,
        None => {
            return Ok(Run::TimedOut {
                elapsed,
                limit: timeout,
            })
        }
    };
    if stderr_open && stderr_finished.recv_timeout(GRACE).is_err() {
        if let Ok(mut c) = child.lock() {
            group::kill_all(&mut c);
        }
        let _ = stderr_finished.recv_timeout(GRACE);
    }
    let stderr = stderr.lock().map(|b| b.clone()).unwrap_or_default();
    Ok(Run::Finished {
        failure: describe_status(status),
        stderr,
        elapsed,
    })
}

/// The watchdog of one run: kills the group at the time limit, or a grace period after
/// the program exited while its output is still held open; returns when told to stop.
fn guard(
    child: &Mutex<Child>,
    watch: &Mutex<Watch>,
    stop: &mpsc::Receiver<()>,
    start: Instant,
    timeout: Duration,
) {
    let mut exited_at = None;
    loop {
        let spent = start.elapsed();
        let wait = timeout.saturating_sub(spent).min(TICK);
        match stop.recv_timeout(wait) {
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            _ => return,
        }
        let (mut c, mut w) = match (child.lock(), watch.lock()) {
            (Ok(c), Ok(w)) => (c, w),
            _ => return,
        };
        if w.status.is_none() {
            if let Ok(Some(status)) = c.try_wait() {
                w.status = Some(status);
                exited_at = Some(Instant::now());
            }
        }
        match exited_at {
            None if start.elapsed() >= timeout => {
                group::kill_all(&mut c);
                let _ = c.wait();
                w.timed_out = true;
                return;
            }
            Some(at) if at.elapsed() >= GRACE => {
                // Whatever still holds the output open goes with the group.
                group::kill_all(&mut c);
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_words() {
        let w = |t: &str| split_command(t);
        assert_eq!(w("./a.out"), Ok(vec!["./a.out".to_string()]));
        assert_eq!(
            w("  python3   'my sol.py' \"a \\\"b\\\"\" c\\ d "),
            Ok(vec![
                "python3".to_string(),
                "my sol.py".to_string(),
                "a \"b\"".to_string(),
                "c d".to_string()
            ])
        );
        assert_eq!(w("''"), Ok(vec![String::new()]));
        assert!(w("").is_err());
        assert!(w("'open").is_err());
        assert!(w("\"open").is_err());
        assert!(w("end\\").is_err());
    }
}
