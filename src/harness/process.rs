//! Running a solution: the built-in judge in process, or another program with its input
//! on stdin, its output streamed to a sink as it comes (no size cap, no copy kept), and a
//! wall-clock time limit after which every process of the run is killed (its process
//! group, on Linux its control group and everything under the run's supervisor, and
//! whatever still holds its pipes: [`crate::sandbox::contain`]). Its peak memory is measured
//! as it runs ([`crate::sandbox::memory`]), and it is killed the same way once that is over
//! its memory limit. No run waits past its time limit, and a run stops
//! early once its sink has seen enough (an output already known to be wrong). Also the
//! built-in judge's answer as a stream, the reference for a case without an answer file.
//! `test` and `stress` both run programs this way.

use crate::judge;
use crate::sandbox::contain;
use crate::sandbox::group;
use crate::sandbox::memory::{Counting, Peak};
use crate::show::compare::Comparator;
use crate::sys::pipes::{Event, Input, Pipes, Stream};
use crate::sys::program;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::{mpsc, Arc};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// At most this much of the end of a program's standard error is kept.
pub const STDERR_TAIL: usize = 16 << 10;
/// A line of standard error is shown cut at this many characters.
pub const LINE_SHOWN: usize = 160;
/// How long a program that has exited may leave something running that holds its
/// output open (never past the time limit); what arrives later is not read.
pub const GRACE: Duration = Duration::from_millis(500);
/// How often the runner looks whether a program with open outputs has exited.
const TICK: Duration = Duration::from_millis(10);

/// Where a program's standard output goes: written as it comes, and asked after each
/// write whether more could change anything.
pub trait Sink: Write {
    /// Whether the rest of the output cannot change the verdict: the runner then stops
    /// reading and stops the program. Never, by default.
    fn settled(&self) -> bool {
        false
    }
}

impl Sink for Vec<u8> {}

impl Sink for io::Sink {}

/// A comparator with the answer reads the output as it comes, and settles once the
/// output is sure to differ and has gone on long enough.
impl<E: Read> Sink for Comparator<E> {
    fn settled(&self) -> bool {
        Comparator::settled(self)
    }
}

/// Splits a `--cmd` value into words: whitespace separates words; `'...'` keeps its text
/// as is; `"..."` too, except that `\"` and `\\` stand for `"` and `\`; outside quotes a
/// backslash keeps the next character, except on Windows, where it is the folder
/// separator (`.\a.exe`) and stands for itself. No variables, globs or other shell
/// syntax.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    split_words(text, cfg!(windows))
}

/// [`split_command`], backslashes outside quotes literal when `literal_backslash`.
fn split_words(text: &str, literal_backslash: bool) -> Result<Vec<String>, String> {
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
            '\\' if !literal_backslash => {
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

/// Why the program of `argv` could not be started, in words: the system's reason, and
/// for a source file (`sol.cpp`, `sol.py`) how to compile or run it, or for a program
/// named without a folder that is a file in this one, the `./` that runs it on Unix (a
/// command's name alone is looked up in `PATH`, not here; Windows looks here first, see
/// [`program::locate`]).
pub fn cannot_run(argv: &[String], e: &io::Error) -> String {
    let mut text = format!("cannot run {:?}: {e}", argv.join(" "));
    if let Some(name) = argv.first() {
        if let Some(hint) = source_hint(name) {
            text.push_str(&format!(" ({hint})"));
        } else if e.kind() == io::ErrorKind::NotFound && program::needs_here(name) {
            text.push_str(&format!(" (did you mean {}{name}?)", program::HERE));
        }
    }
    text
}

/// How to run `program` when its name is that of a source file: compile it first, or
/// name its interpreter.
fn source_hint(program: &str) -> Option<String> {
    let path = std::path::Path::new(program);
    let extension = path.extension()?.to_str()?;
    // The program's path without the extension, as the command to run it names it.
    let stem = &program[..program.len() - extension.len() - 1];
    let run = if stem.contains('/') || stem.contains('\\') {
        stem.to_string()
    } else {
        format!("./{stem}")
    };
    let compile = |compiler: &str, language: &str| {
        format!(
            "{program} is {language} source: compile it first, e.g. {compiler} -o {stem} \
             {program}, then --cmd {run}"
        )
    };
    let interpret = |interpreter: &str, language: &str| {
        format!("{program} is {language} source: run it with --cmd '{interpreter} {program}'")
    };
    Some(match extension {
        "cpp" | "cc" | "cxx" | "c++" => compile("g++ -O2", "C++"),
        "c" => compile("gcc -O2", "C"),
        "rs" => compile("rustc -O", "Rust"),
        "py" => interpret("python3", "Python"),
        "java" => format!(
            "{program} is Java source: compile it first with javac {program}, then --cmd \
             'java -cp DIR CLASS'"
        ),
        _ => return None,
    })
}

/// What runs each case.
#[derive(Clone, Debug)]
pub enum Runner {
    /// The built-in judge, in process.
    Builtin,
    /// Another program: its words (program first), its time and memory limits.
    Program {
        /// The program and its arguments.
        argv: Vec<String>,
        /// Killed when it runs longer than this.
        timeout: Duration,
        /// Killed when its memory goes over this many bytes.
        memory: u64,
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
        /// `None` for success; otherwise "exit status 3", "killed by SIGSEGV (signal
        /// 11)" or the built-in judge's error.
        failure: Option<String>,
        /// The end of its standard error.
        stderr: ErrorTail,
        /// Wall-clock time until it exited.
        elapsed: Duration,
        /// How much of its output was read.
        rest: Rest,
        /// Its peak memory, where it could be measured.
        peak: Option<Peak>,
    },
    /// It was stopped while running: its output had settled the verdict (see
    /// [`Sink::settled`]), so the rest was not read.
    Stopped {
        /// Wall-clock time until it was stopped.
        elapsed: Duration,
        /// Its peak memory, where it could be measured.
        peak: Option<Peak>,
    },
    /// It was killed at the time limit.
    TimedOut {
        /// Wall-clock time until the kill.
        elapsed: Duration,
        /// The time limit.
        limit: Duration,
        /// Its peak memory, where it could be measured.
        peak: Option<Peak>,
    },
    /// Its memory went over the limit: it was killed then, or it ended before a sample
    /// saw it and the system's figure at its end says so. As on a judge, this comes
    /// before how it ended and what it wrote (except a timeout, which is `TimedOut`).
    MemoryOut {
        /// Wall-clock time until the kill or the exit.
        elapsed: Duration,
        /// The memory limit in bytes.
        limit: u64,
        /// Its peak memory, as last measured.
        peak: Peak,
        /// Whether the runner killed it for it.
        killed: bool,
    },
}

/// The peak of a run found over its limit: always measured (a figure was over it).
fn measured(peak: Option<Peak>, counting: Counting) -> Peak {
    peak.unwrap_or(Peak {
        bytes: 0,
        at_most: false,
        counting,
    })
}

/// The end of a program's standard error: its last [`STDERR_TAIL`] bytes at most, read
/// as they come however much comes (the rest is counted, not kept), so that a program
/// flooding its standard error neither waits on it nor fills our memory.
#[derive(Clone, Debug, Default)]
pub struct ErrorTail {
    bytes: Vec<u8>,
    /// Line ends in all that came.
    newlines: u64,
    /// Whether bytes before those kept were dropped.
    dropped: bool,
}

impl ErrorTail {
    /// Takes `data`, the next bytes of the stream.
    fn push(&mut self, data: &[u8]) {
        self.newlines += data.iter().filter(|&&b| b == b'\n').count() as u64;
        self.bytes.extend_from_slice(data);
        if self.bytes.len() > 2 * STDERR_TAIL {
            self.bytes.drain(..self.bytes.len() - STDERR_TAIL);
            self.dropped = true;
        }
    }

    /// The last `n` lines at most (lossy UTF-8, each cut at [`LINE_SHOWN`] characters;
    /// a line whose beginning was dropped starts with `...`), and how many lines came
    /// before them.
    pub fn last_lines(&self, n: usize) -> (Vec<String>, u64) {
        let text = String::from_utf8_lossy(&self.bytes);
        let lines: Vec<&str> = text.lines().collect();
        let start = lines.len().saturating_sub(n);
        let shown: Vec<String> = lines[start..]
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let mut line = String::new();
                if self.dropped && start + i == 0 {
                    line.push_str("...");
                }
                line.extend(l.chars().take(LINE_SHOWN));
                if l.chars().nth(LINE_SHOWN).is_some() {
                    line.push_str("...");
                }
                line
            })
            .collect();
        let total = self.newlines + u64::from(self.bytes.last().is_some_and(|&b| b != b'\n'));
        let before = total.saturating_sub(shown.len() as u64);
        (shown, before)
    }
}

/// How much of a finished program's output was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rest {
    /// All of it.
    Read,
    /// Not past the point where it settled the verdict (see [`Sink::settled`]).
    Skipped,
    /// What arrived until [`GRACE`] after the exit (or the time limit): something the
    /// program left running held the output open, and was killed.
    HeldOpen,
}

impl Run {
    /// Wall-clock time of the run.
    pub fn elapsed(&self) -> Duration {
        match self {
            Run::Finished { elapsed, .. }
            | Run::Stopped { elapsed, .. }
            | Run::TimedOut { elapsed, .. }
            | Run::MemoryOut { elapsed, .. } => *elapsed,
        }
    }

    /// Peak memory of the run, where it could be measured (not for the built-in
    /// judge, which runs in process).
    pub fn peak(&self) -> Option<Peak> {
        match self {
            Run::Finished { peak, .. } | Run::Stopped { peak, .. } | Run::TimedOut { peak, .. } => {
                *peak
            }
            Run::MemoryOut { peak, .. } => Some(*peak),
        }
    }

    /// Whether the output was read only in part, and why (for a report); `None` when it
    /// was read to its end.
    pub fn cut(&self) -> Option<Rest> {
        match self {
            Run::Finished {
                rest: Rest::Read, ..
            } => None,
            Run::Finished { rest, .. } => Some(*rest),
            Run::Stopped { .. } => Some(Rest::Skipped),
            Run::TimedOut { .. } | Run::MemoryOut { .. } => None,
        }
    }
}

/// Runs the case with `runner`, its standard output going to `sink`. Fails only when the
/// input cannot be opened or the program cannot be started.
pub fn run(runner: &Runner, input: &Feed, sink: &mut dyn Sink) -> io::Result<Run> {
    match runner {
        Runner::Builtin => run_builtin(input, sink),
        Runner::Program {
            argv,
            timeout,
            memory,
        } => run_program_with(argv, input, *timeout, *memory, sink, Stderr::Keep),
    }
}

/// Runs the built-in judge on `input`, writing its answers to `sink`.
pub fn run_builtin(input: &Feed, sink: &mut dyn Sink) -> io::Result<Run> {
    let source = input.open()?;
    let start = Instant::now();
    let mut sink = sink;
    let result = judge::run(source, &mut sink);
    let failure = result.err().map(|e| format!("exit status 1: {e}"));
    Ok(Run::Finished {
        failure,
        stderr: ErrorTail::default(),
        elapsed: start.elapsed(),
        rest: Rest::Read,
        peak: None,
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

/// "exit status 3" or "killed by SIGSEGV (signal 11)"; `None` for success.
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
                1 => "SIGHUP",
                2 => "SIGINT",
                3 => "SIGQUIT",
                4 => "SIGILL",
                6 => "SIGABRT",
                8 => "SIGFPE",
                9 => "SIGKILL",
                11 => "SIGSEGV",
                13 => "SIGPIPE",
                14 => "SIGALRM",
                15 => "SIGTERM",
                _ => return Some(format!("killed by signal {signal}")),
            };
            return Some(format!("killed by {name} (signal {signal})"));
        }
    }
    Some(format!("{status}"))
}

/// What becomes of a program's standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stderr {
    /// Its end is kept for the report ([`ErrorTail`]).
    Keep,
    /// It goes nowhere: one pipe less per run, for runs only judged.
    Discard,
}

/// Why the runner stopped waiting for a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// It exited and its outputs ended.
    Exited,
    /// It exited, but something still held an output open past the grace period or
    /// the time limit.
    HeldOpen,
    /// The sink needs no more output.
    Settled,
    /// The time limit passed while it ran.
    TimedOut,
    /// Its memory went over the limit while it ran.
    MemoryOut,
}

/// The most bytes read, without waiting, from the pipes of a program past its grace:
/// what it and its children wrote before the grace ended fits in the pipes' buffers.
const DRAIN: usize = 1 << 20;

/// Reads what is already in `pipes`, never waiting, until they are empty or end,
/// [`DRAIN`] bytes came, or `sink` needs no more (then `true`).
fn drain(
    pipes: &mut Pipes,
    sink: &mut dyn Sink,
    stderr: &mut ErrorTail,
    written: &mut io::Result<()>,
) -> io::Result<bool> {
    let mut read = 0;
    while read < DRAIN && pipes.outputs_open() {
        match pipes.next(Duration::ZERO)? {
            Event::Data(Stream::Stdout, bytes) => {
                read += bytes.len();
                if written.is_ok() {
                    *written = sink.write_all(bytes);
                }
                if sink.settled() {
                    return Ok(true);
                }
            }
            Event::Data(Stream::Stderr, bytes) => {
                read += bytes.len();
                stderr.push(bytes);
            }
            Event::End(_) => {}
            Event::Idle => break,
        }
    }
    Ok(false)
}

/// Runs `argv` with `input` on its standard input and its standard output going to
/// `sink` as it comes (nothing of it is kept here), killing it (and its process group)
/// after `timeout` or once its memory is over `memory` bytes; `stderr_to` says what
/// becomes of its standard error. Fails only when the input cannot be opened or the
/// program cannot be started.
///
/// One thread does it all, never waiting past the time limit: it writes the input as
/// the program takes it, reads the outputs as they come ([`Pipes`]), and looks for the
/// program's exit at least every [`TICK`]. The run ends at the first of: the program
/// has exited and its outputs have ended; the grace period after its exit (or the time
/// limit) has passed and something it left running still holds an output open (what
/// the pipes hold then is read without waiting, [`DRAIN`] bytes at most); the
/// sink needs no more; the time limit; a memory sample over the limit (taken as output
/// comes and every tick, see [`crate::sandbox::memory::Meter`]). Whatever is still running
/// then is killed ([`contain::Contained::end`]), and nothing waits on a pipe a stray
/// process holds; on Linux every process the run's supervisor did not outlive, handed
/// to us as their subreaper, is ended too ([`group::sweep_orphans`]).
pub fn run_program_with(
    argv: &[String],
    input: &Feed,
    timeout: Duration,
    memory: u64,
    sink: &mut dyn Sink,
    stderr_to: Stderr,
) -> io::Result<Run> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
    let source = input.open()?;
    let make = || {
        let mut command = std::process::Command::new(program::locate(program));
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr_to {
                Stderr::Keep => Stdio::piped(),
                Stderr::Discard => Stdio::null(),
            });
        command
    };
    let start = Instant::now();
    // Until it is reaped, an interrupt of ours ends it too, and on Linux everything it
    // starts is in its control group, or at least under its supervisor.
    let mut run = contain::start(argv, &make, memory)?;
    let child = run.child_mut();
    let input = child.stdin.take().map(|pipe| Input { pipe, source });
    let mut pipes = Pipes::new(input, child.stdout.take(), child.stderr.take());
    // What holds these pipes is this run's: a sweep after another run leaves it alone.
    let run_pipes = group::RunPipes::new(group::pipe_names(&pipes.fds()));
    let deadline = start + timeout;
    run.stop_sampling_by(deadline);
    let mut exited: Option<(ExitStatus, Instant)> = None;
    let mut checked: Option<Instant> = None;
    let mut stderr = ErrorTail::default();
    let mut written = Ok(());
    let mut pause = Duration::from_micros(20);
    // Whether the last wait ended with nothing read: a tick, or news of the program's end.
    let mut idle = false;
    let end: io::Result<End> = loop {
        let now = Instant::now();
        // While the outputs are open the program is usually running: a look every tick
        // is enough, and when a wait woke with nothing read (news of its end). Once they
        // end it has exited or is about to: look at once, then ever less often.
        let look = !pipes.outputs_open() || idle || checked.is_none_or(|c| now >= c + TICK);
        if exited.is_none() && look {
            // Not at the first look: the program is still being loaded.
            if checked.is_some() {
                run.sample_now();
            }
            checked = Some(now);
            match run.exited() {
                Ok(Some((status, _))) => exited = Some((status, now)),
                Ok(None) => {}
                Err(e) => break Err(e),
            }
        }
        if exited.is_some() {
            // After its exit, what it left running still counts as its memory.
            run.sample_now();
        }
        if run.over() {
            break Ok(End::MemoryOut);
        }
        // A sample may have taken a while (many processes, each busy): the clock is read
        // again, so that the time limit is kept to whatever the sample cost.
        let now = Instant::now();
        // The grace counts from the exit as we saw it, and output read since does not
        // restart it: what a program left running cannot hold the run open.
        let until = match exited {
            None => deadline,
            Some((_, at)) => (at + GRACE).min(deadline),
        };
        match exited {
            Some(_) if !pipes.outputs_open() => break Ok(End::Exited),
            Some(_) if now >= until => {
                // What is already in the pipes came within the grace (a loaded machine
                // may read it late): it is read, without waiting and within a bound.
                match drain(&mut pipes, sink, &mut stderr, &mut written) {
                    Ok(true) => break Ok(End::Settled),
                    Ok(false) if !pipes.outputs_open() => break Ok(End::Exited),
                    Ok(false) => break Ok(End::HeldOpen),
                    Err(e) => break Err(e),
                }
            }
            None if now >= deadline => break Ok(End::TimedOut),
            _ => {}
        }
        let wait = if !pipes.outputs_open() {
            let p = pause;
            pause = (pause * 2).min(Duration::from_millis(2));
            p
        } else {
            // A look every tick, after the exit too: what it left running is sampled.
            TICK
        };
        // The program's end, as soon as it is known, wakes the wait too.
        pipes.wake_on(run.news());
        let event = match pipes.next(wait.min(until - now)) {
            Ok(event) => event,
            Err(e) => break Err(e),
        };
        let data = matches!(event, Event::Data(..));
        idle = matches!(event, Event::Idle);
        match event {
            Event::Data(Stream::Stdout, bytes) => {
                if written.is_ok() {
                    written = sink.write_all(bytes);
                }
                if sink.settled() {
                    break Ok(End::Settled);
                }
            }
            Event::Data(Stream::Stderr, bytes) => {
                stderr.push(bytes);
            }
            Event::End(_) | Event::Idle => {}
        }
        // Output is a sign of a program loaded and at work, often at its end: a
        // program that ends within a tick is seen only so.
        if exited.is_none() && data {
            run.sample_now();
        }
    };
    let elapsed = match exited {
        Some((_, at)) => at - start,
        None => start.elapsed(),
    };
    let fds = pipes.fds();
    run.end(&fds, matches!(end, Ok(End::Exited)));
    let peak = run.peak();
    // Our ends close: a stray still writing gets a broken pipe.
    drop(pipes);
    // Whatever the program left running, in any session or group, holding any
    // descriptors or none, ends now: it was handed to us when its parent ended.
    drop(run_pipes);
    group::sweep_orphans();
    let end = end?;
    written?;
    // A run seen to end past its limit went over it, whatever kept the runner from
    // seeing so in time (a runner stopped by a signal, a machine that did not run it):
    // the wall clock is the judge's.
    let late = elapsed > timeout;
    Ok(match (end, exited) {
        (End::TimedOut, _) => Run::TimedOut {
            elapsed,
            limit: timeout,
            peak,
        },
        // An output that settled the verdict by the limit is judged on it.
        (End::Exited | End::HeldOpen, _) if late => Run::TimedOut {
            elapsed,
            limit: timeout,
            peak,
        },
        (End::MemoryOut, _) => Run::MemoryOut {
            elapsed,
            limit: memory,
            peak: measured(peak, run.counting()),
            killed: true,
        },
        _ if run.over() => Run::MemoryOut {
            elapsed,
            limit: memory,
            peak: measured(peak, run.counting()),
            // The kernel's own kill, over twice the limit, is a kill too.
            killed: run.out_of_memory(),
        },
        (_, None) => Run::Stopped { elapsed, peak },
        (_, Some((status, _))) => Run::Finished {
            failure: describe_status(status),
            stderr,
            elapsed,
            peak,
            rest: match end {
                End::HeldOpen => Rest::HeldOpen,
                End::Settled => Rest::Skipped,
                _ => Rest::Read,
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_of_standard_error_is_kept_in_bounded_memory() {
        let mut tail = ErrorTail::default();
        tail.push(b"first\nsecond\nthird");
        assert_eq!(
            tail.last_lines(2),
            (vec!["second".to_string(), "third".to_string()], 1)
        );
        for i in 0..100_000 {
            tail.push(format!("line {i}\n").as_bytes());
        }
        assert!(tail.bytes.len() <= 2 * STDERR_TAIL);
        let (lines, before) = tail.last_lines(3);
        assert_eq!(lines, ["line 99997", "line 99998", "line 99999"]);
        assert_eq!(before, 100_002 - 3);
        // Without line ends at all: the kept end of one long line, cut.
        let mut flood = ErrorTail::default();
        flood.push(&vec![b'x'; 3 * STDERR_TAIL]);
        let shown = format!("...{}...", "x".repeat(LINE_SHOWN));
        assert_eq!(flood.last_lines(5), (vec![shown], 0));
    }

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

    #[test]
    fn windows_backslashes_are_folder_separators() {
        let w = |t: &str| split_words(t, true);
        assert_eq!(w(r".\a.exe"), Ok(vec![r".\a.exe".to_string()]));
        assert_eq!(
            w(r"C:\x\a.exe 'C:\My Files\in' end\"),
            Ok(vec![
                r"C:\x\a.exe".to_string(),
                r"C:\My Files\in".to_string(),
                r"end\".to_string()
            ])
        );
        assert_eq!(w(r#""a \"b\"""#), Ok(vec![r#"a "b""#.to_string()]));
    }
}
