//! Running a solution: the built-in judge in process, or another program with its input
//! on stdin, its output collected, and a time limit that kills its whole process group.
//! `test` and `stress` both run programs this way.

use crate::judge;
use std::io::{self, Read, Write};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// At most this much of a program's standard output is kept: a runaway writer must not
/// eat the memory before its time is up.
const STDOUT_CAP: usize = 64 << 20;
/// At most this much of its standard error is kept.
const STDERR_CAP: usize = 64 << 10;

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

/// How one run ended.
#[derive(Debug)]
pub enum Run {
    /// The program ended by itself.
    Finished {
        /// `None` for success; otherwise "exit status 3", "signal 11 (SIGSEGV)" or the
        /// built-in judge's error.
        failure: Option<String>,
        /// Its standard output (at most [`STDOUT_CAP`] bytes).
        stdout: Vec<u8>,
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

/// Runs the built-in judge on `input`.
pub fn run_builtin(input: &[u8]) -> Run {
    let start = Instant::now();
    let mut stdout = Vec::new();
    let result = judge::run(input, &mut stdout);
    let elapsed = start.elapsed();
    let failure = result.err().map(|e| format!("exit status 1: {e}"));
    Run::Finished {
        failure,
        stdout,
        stderr: Vec::new(),
        elapsed,
    }
}

/// Reads `src` to its end into `sink`, keeping at most `cap` bytes.
fn drain<R: Read>(mut src: R, sink: Arc<Mutex<Vec<u8>>>, cap: usize, done: mpsc::Sender<()>) {
    let mut chunk = [0u8; 1 << 14];
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

#[cfg(unix)]
mod group {
    //! The program runs in a process group of its own, so that a timeout kills what it
    //! started too (`sh script.sh` running `./a.out` leaves no spinning orphan).
    use std::process::{Child, Command};

    unsafe extern "C" {
        fn kill(pid: i32, signal: i32) -> i32;
    }

    pub fn isolate(command: &mut Command) {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }

    pub fn kill_all(child: &mut Child) {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) takes plain integers and touches no memory of ours; a
            // negative pid names the process group, which `isolate` made equal to the
            // child's pid. SIGKILL is 9 on every Unix.
            unsafe {
                kill(-pid, 9);
            }
        }
        let _ = child.kill();
    }
}

#[cfg(not(unix))]
mod group {
    //! Without process groups, only the program itself is killed.
    use std::process::{Child, Command};

    pub fn isolate(_: &mut Command) {}

    pub fn kill_all(child: &mut Child) {
        let _ = child.kill();
    }
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

/// Runs `argv` with `input` on its standard input, killing it (and its process group)
/// after `timeout`. Fails only when the program cannot be started.
pub fn run_program(argv: &[String], input: Vec<u8>, timeout: Duration) -> io::Result<Run> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
    let mut command = std::process::Command::new(program);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    group::isolate(&mut command);
    let start = Instant::now();
    let mut child = command.spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        // A program that stops reading early closes the pipe: not our problem.
        thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    let (done, finished) = mpsc::channel();
    let stdout = Arc::new(Mutex::new(Vec::new()));
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let mut readers = 0;
    if let Some(pipe) = child.stdout.take() {
        let (sink, done) = (Arc::clone(&stdout), done.clone());
        thread::spawn(move || drain(pipe, sink, STDOUT_CAP, done));
        readers += 1;
    }
    if let Some(pipe) = child.stderr.take() {
        let (sink, done) = (Arc::clone(&stderr), done.clone());
        thread::spawn(move || drain(pipe, sink, STDERR_CAP, done));
        readers += 1;
    }
    let status = wait_until(&mut child, start, timeout)?;
    let elapsed = start.elapsed();
    let status = match status {
        Some(s) => s,
        None => {
            group::kill_all(&mut child);
            let _ = child.wait();
            return Ok(Run::TimedOut {
                elapsed,
                limit: timeout,
            });
        }
    };
    // Something the program left running in the background may still hold the pipes
    // open: give it a moment, then end it, and keep what was read.
    let grace = Duration::from_millis(500);
    let mut open = readers;
    while open > 0 && finished.recv_timeout(grace).is_ok() {
        open -= 1;
    }
    if open > 0 {
        group::kill_all(&mut child);
        while open > 0 && finished.recv_timeout(grace).is_ok() {
            open -= 1;
        }
    }
    let take = |buf: &Arc<Mutex<Vec<u8>>>| buf.lock().map(|b| b.clone()).unwrap_or_default();
    Ok(Run::Finished {
        failure: describe_status(status),
        stdout: take(&stdout),
        stderr: take(&stderr),
        elapsed,
    })
}

/// Polls `child` until it exits (`Some`) or `timeout` has passed since `start` (`None`).
fn wait_until(
    child: &mut Child,
    start: Instant,
    timeout: Duration,
) -> io::Result<Option<ExitStatus>> {
    let mut pause = Duration::from_micros(250);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        let spent = start.elapsed();
        if spent >= timeout {
            return Ok(None);
        }
        thread::sleep(pause.min(timeout - spent));
        pause = (pause * 2).min(Duration::from_millis(10));
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
