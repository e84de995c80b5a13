//! `duckchess test`: a sample tester in the spirit of `oj test` and `cargo compete test`,
//! specialised for this game.
//!
//! It pairs every `X.in` with `X.out` (or `X.ans`), runs either the built-in judge (in
//! process, through [`judge::run`]) or any other program (`--cmd`, input on stdin, killed
//! after `--timeout`), and compares the output byte for byte. A wrong answer is explained
//! in terms of the game: the command on the first differing line, which of the four
//! answers differ, why the judge decides as it does, and the board before the command.

use crate::cli::{self, Opt, Spec, EXIT_FAILURE};
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::{self, Expected, JudgeError, Scanner};
use crate::tools::explain::{self, Command};
use crate::tools::render::{self, Marks};
use std::fmt;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The directory tested when no PATH is given.
pub const DEFAULT_PATH: &str = "samples";
/// The default time limit per case, in seconds.
pub const DEFAULT_TIMEOUT: f64 = 2.0;
/// At most this much of a program's standard output is kept: a runaway writer must not
/// eat the memory before its time is up.
const STDOUT_CAP: usize = 64 << 20;
/// At most this much of its standard error is kept.
const STDERR_CAP: usize = 64 << 10;
/// How many lines of a failing program's standard error are shown.
const STDERR_LINES: usize = 5;

/// One test case: an input file and the answer file it is paired with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The input path without its `.in`, as shown in reports.
    pub name: String,
    /// The `.in` file.
    pub input: PathBuf,
    /// The `.out` or `.ans` file.
    pub answer: PathBuf,
}

/// Why the cases could not be collected.
#[derive(Debug)]
pub enum CollectError {
    /// A PATH that cannot be read.
    Read(PathBuf, io::Error),
    /// A file that is neither `.in`, `.out` nor `.ans`.
    NotACaseFile(PathBuf),
    /// A file given on the command line whose partner is missing.
    Unpaired(PathBuf, String),
    /// Nothing to test.
    NoCases,
}

impl fmt::Display for CollectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CollectError::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            CollectError::NotACaseFile(p) => write!(
                f,
                "{}: expected a directory or a file ending in .in, .out or .ans",
                p.display()
            ),
            CollectError::Unpaired(p, wanted) => {
                write!(f, "{}: no {wanted} next to it", p.display())
            }
            CollectError::NoCases => write!(f, "no test cases (pairs X.in and X.out or X.ans)"),
        }
    }
}

impl std::error::Error for CollectError {}

/// Splits `name` into the stem and the extension among `.in`, `.out`, `.ans`.
fn split_case_name(path: &Path) -> Option<(PathBuf, &'static str)> {
    let text = path.to_str()?;
    ["in", "out", "ans"].into_iter().find_map(|ext| {
        text.strip_suffix(ext)
            .and_then(|s| s.strip_suffix('.'))
            .map(|stem| (PathBuf::from(stem), ext))
    })
}

fn with_ext(stem: &Path, ext: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// The answer file of `stem`: `stem.out`, else `stem.ans`.
fn answer_of(stem: &Path) -> Option<PathBuf> {
    ["out", "ans"]
        .iter()
        .map(|ext| with_ext(stem, ext))
        .find(|p| p.is_file())
}

/// Orders names so that `2` comes before `10`: runs of digits compare as numbers.
fn natural_key(name: &str) -> Vec<(u8, u128, String)> {
    let mut key = Vec::new();
    let mut chars = name.chars().peekable();
    while let Some(&c) = chars.peek() {
        let digits = c.is_ascii_digit();
        let mut run = String::new();
        while let Some(&d) = chars.peek() {
            if d.is_ascii_digit() != digits {
                break;
            }
            run.push(d);
            chars.next();
        }
        let number = if digits {
            run.parse::<u128>().unwrap_or(u128::MAX)
        } else {
            0
        };
        key.push((u8::from(digits), number, run));
    }
    key
}

/// Collects the cases under `paths` in the order given, each directory's cases in
/// natural order, each case once. Notes (an input without an answer in a directory) go
/// to `notes`.
pub fn collect(paths: &[String], notes: &mut Vec<String>) -> Result<Vec<Case>, CollectError> {
    let mut cases: Vec<Case> = Vec::new();
    let add = |case: Case, cases: &mut Vec<Case>| {
        if !cases.iter().any(|c| c.input == case.input) {
            cases.push(case);
        }
    };
    for path in paths {
        let path = Path::new(path);
        let meta = fs::metadata(path).map_err(|e| CollectError::Read(path.into(), e))?;
        if meta.is_dir() {
            let entries = fs::read_dir(path).map_err(|e| CollectError::Read(path.into(), e))?;
            let mut stems = Vec::new();
            for entry in entries {
                let entry = entry.map_err(|e| CollectError::Read(path.into(), e))?;
                let file = entry.path();
                if let Some((stem, "in")) = split_case_name(&file) {
                    if file.is_file() {
                        stems.push(stem);
                    }
                }
            }
            stems.sort_by_cached_key(|s| natural_key(&s.to_string_lossy()));
            for stem in stems {
                match answer_of(&stem) {
                    Some(answer) => add(
                        Case {
                            name: stem.to_string_lossy().into_owned(),
                            input: with_ext(&stem, "in"),
                            answer,
                        },
                        &mut cases,
                    ),
                    None => notes.push(format!(
                        "skipping {}.in: no {0}.out or {0}.ans",
                        stem.display()
                    )),
                }
            }
            continue;
        }
        let (stem, ext) =
            split_case_name(path).ok_or_else(|| CollectError::NotACaseFile(path.into()))?;
        let input = with_ext(&stem, "in");
        let answer = if ext == "in" {
            answer_of(&stem).ok_or_else(|| {
                CollectError::Unpaired(path.into(), format!("{0}.out or {0}.ans", stem.display()))
            })?
        } else {
            if !input.is_file() {
                return Err(CollectError::Unpaired(
                    path.into(),
                    format!("{}", input.display()),
                ));
            }
            path.to_path_buf()
        };
        add(
            Case {
                name: stem.to_string_lossy().into_owned(),
                input,
                answer,
            },
            &mut cases,
        );
    }
    if cases.is_empty() {
        return Err(CollectError::NoCases);
    }
    Ok(cases)
}

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
fn run_builtin(input: &[u8]) -> Run {
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
fn run_program(argv: &[String], input: Vec<u8>, timeout: Duration) -> io::Result<Run> {
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

/// The outcome of one case.
#[derive(Debug)]
pub enum Outcome {
    /// Accepted.
    Accepted,
    /// Accepted with `--ignore-whitespace`, though whitespace differs (what differs).
    AcceptedWhitespace(String),
    /// Wrong answer, with the explanation to print under the verdict line.
    WrongAnswer(String),
    /// Runtime error: exit status or signal, and the first lines of standard error.
    RuntimeError(String, Vec<String>),
    /// Killed at this time limit.
    TimeLimit(Duration),
}

impl Outcome {
    /// Whether the case passed.
    pub fn passed(&self) -> bool {
        matches!(self, Outcome::Accepted | Outcome::AcceptedWhitespace(_))
    }

    fn word(&self) -> &'static str {
        match self {
            Outcome::Accepted | Outcome::AcceptedWhitespace(_) => "AC",
            Outcome::WrongAnswer(_) => "WA",
            Outcome::RuntimeError(..) => "RE",
            Outcome::TimeLimit(_) => "TLE",
        }
    }

    fn color(&self) -> &'static str {
        match self {
            Outcome::Accepted | Outcome::AcceptedWhitespace(_) => "32;1",
            Outcome::WrongAnswer(_) => "31;1",
            Outcome::RuntimeError(..) | Outcome::TimeLimit(_) => "33;1",
        }
    }
}

/// Lines of `text` split on `\n` only (a `\r` stays part of its line); a final newline
/// does not start another line.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    let mut out: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if text.ends_with(b"\n") || text.is_empty() {
        out.pop();
    }
    out
}

/// A line with its whitespace normalised: the words, single-spaced.
fn words(line: &[u8]) -> Vec<&[u8]> {
    line.split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The lines as compared when whitespace is ignored: words per line, without the blank
/// lines at the end.
fn normalised(text: &[u8]) -> Vec<Vec<&[u8]>> {
    let mut out: Vec<Vec<&[u8]>> = lines(text).into_iter().map(words).collect();
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

/// What differs between two outputs that are equal up to whitespace.
fn whitespace_difference(expected: &[u8], actual: &[u8]) -> String {
    let mut what = Vec::new();
    let crlf = |t: &[u8]| lines(t).iter().any(|l| l.ends_with(b"\r"));
    match (crlf(expected), crlf(actual)) {
        (false, true) => what.push("the output has CRLF line ends".to_string()),
        (true, false) => what.push("the expected output has CRLF line ends".to_string()),
        _ => {}
    }
    let (e, a) = (lines(expected), lines(actual));
    let strip = |l: &[u8]| l.strip_suffix(b"\r").unwrap_or(l).to_vec();
    let mut trailing = None;
    let mut spacing = None;
    for (i, (x, y)) in e.iter().zip(a.iter()).enumerate() {
        let (x, y) = (strip(x), strip(y));
        if x == y {
            continue;
        }
        let trim = |l: &[u8]| l.trim_ascii_end().to_vec();
        if trim(&x) == trim(&y) {
            trailing.get_or_insert(i + 1);
        } else {
            spacing.get_or_insert(i + 1);
        }
    }
    if let Some(line) = trailing {
        what.push(format!(
            "trailing whitespace differs (first on line {line})"
        ));
    }
    if let Some(line) = spacing {
        what.push(format!(
            "spacing within a line differs (first on line {line})"
        ));
    }
    if a.len() > e.len() {
        what.push(format!(
            "{} extra blank line(s) at the end",
            a.len() - e.len()
        ));
    } else if a.len() < e.len() {
        what.push(format!(
            "{} blank line(s) missing at the end",
            e.len() - a.len()
        ));
    }
    match (expected.ends_with(b"\n"), actual.ends_with(b"\n")) {
        (true, false) if !actual.is_empty() => what.push("the final newline is missing".into()),
        (false, true) => what.push("the output has a final newline, the answer not".into()),
        _ => {}
    }
    if what.is_empty() {
        what.push("whitespace differs".to_string());
    }
    what.join("; ")
}

/// Judges one run against the answer.
fn judge_run(run: Run, input: &[u8], answer: &[u8], ignore_ws: bool, ascii: bool) -> Outcome {
    let (failure, stdout, stderr) = match run {
        Run::TimedOut { limit, .. } => return Outcome::TimeLimit(limit),
        Run::Finished {
            failure,
            stdout,
            stderr,
            ..
        } => (failure, stdout, stderr),
    };
    if let Some(failure) = failure {
        let text = String::from_utf8_lossy(&stderr);
        let tail: Vec<String> = text
            .lines()
            .take(STDERR_LINES)
            .map(str::to_string)
            .collect();
        return Outcome::RuntimeError(failure, tail);
    }
    if stdout == answer {
        return Outcome::Accepted;
    }
    let (e, a) = (normalised(answer), normalised(&stdout));
    if e == a {
        let what = whitespace_difference(answer, &stdout);
        return if ignore_ws {
            Outcome::AcceptedWhitespace(what)
        } else {
            Outcome::WrongAnswer(format!(
                "only whitespace differs: {what} (--ignore-whitespace accepts this)\n"
            ))
        };
    }
    let line = e.iter().zip(a.iter()).take_while(|(x, y)| x == y).count();
    let raw = |text: &[u8], i: usize| {
        lines(text)
            .get(i)
            .map(|l| String::from_utf8_lossy(l).into_owned())
    };
    Outcome::WrongAnswer(diagnose(
        input,
        line,
        raw(answer, line),
        raw(&stdout, line),
        ascii,
    ))
}

/// Which of the four answers differ between two judge lines.
fn answers_differ(expected: &str, actual: &str) -> String {
    let split = |l: &str| -> Option<Vec<String>> {
        let parts: Vec<String> = l.trim_end().split(';').map(str::to_string).collect();
        (parts.len() == 4).then_some(parts)
    };
    let invalid = |l: &str| l.trim_end() == "Invalid command";
    match (invalid(expected), invalid(actual)) {
        (true, false) => return "valid vs invalid: expected Invalid command, got a move".into(),
        (false, true) => return "valid vs invalid: expected a move, got Invalid command".into(),
        _ => {}
    }
    match (split(expected), split(actual)) {
        (Some(e), Some(a)) => {
            let names = ["moved piece", "captured piece", "check", "game over"];
            let differ: Vec<&str> = (0..4).filter(|&i| e[i] != a[i]).map(|i| names[i]).collect();
            if differ.is_empty() {
                "the same answers, written differently".to_string()
            } else {
                differ.join(", ")
            }
        }
        (Some(_), None) => "the output line is not a judge answer".to_string(),
        _ => "the expected line is not a judge answer".to_string(),
    }
}

/// A command as read from the input, with the line it starts on.
struct Read1 {
    command: Command,
    line: u64,
}

/// Reads the input's commands up to number `upto` (1-based), replaying them on a game.
/// Returns the game before command `upto`, and that command; or a sentence saying why
/// the input does not get that far.
fn replay(input: &[u8], upto: u64) -> Result<(Game, Read1), String> {
    let mut scanner = Scanner::new(input);
    let total = scanner
        .count()
        .map_err(|e| format!("the input cannot be read: {e}"))?;
    if upto > total.value {
        return Err(format!(
            "the input has only {}",
            cli::plural(total.value, "command")
        ));
    }
    let mut game = Game::new();
    for index in 1..=upto {
        let line = match scanner.peek_token() {
            Ok(Some(at)) => at.line,
            _ => 0,
        };
        let mut command = [0i64; 4];
        for (field, slot) in command.iter_mut().enumerate() {
            *slot = scanner
                .int(Expected::Coordinate {
                    index,
                    total,
                    field: field as u8,
                })
                .map_err(|e| match e {
                    JudgeError::Input(e) => format!("the input cannot be read: {e}"),
                    e => e.to_string(),
                })?;
        }
        if index == upto {
            return Ok((game, Read1 { command, line }));
        }
        let _ = game.play(command[0], command[1], command[2], command[3]);
    }
    Err("the input has no commands".to_string())
}

/// The explanation of a wrong answer whose first differing line is `line` (0-based).
fn diagnose(
    input: &[u8],
    line: usize,
    expected: Option<String>,
    actual: Option<String>,
    ascii: bool,
) -> String {
    let number = line + 1;
    let shown = |l: &Option<String>, whose: &str| match l {
        Some(l) => l.escape_debug().to_string(),
        None => format!("(nothing: {whose} ends before this line)"),
    };
    let mut out = String::new();
    let command = number as u64;
    let replayed = replay(input, command);
    match &replayed {
        Ok((_, read)) => {
            let c = read.command;
            out.push_str(&format!(
                "output line {number} differs: command {number}, on input line {}: {} {} {} {}\n",
                read.line, c[0], c[1], c[2], c[3]
            ));
        }
        Err(why) => out.push_str(&format!("output line {number} differs ({why})\n")),
    }
    out.push_str(&format!("  expected: {}\n", shown(&expected, "the answer")));
    out.push_str(&format!("  actual:   {}\n", shown(&actual, "the output")));
    if let (Some(e), Some(a)) = (&expected, &actual) {
        out.push_str(&format!("  differs:  {}\n", answers_differ(e, a)));
    }
    if let Ok((game, read)) = replayed {
        let before: Board = game.board().clone();
        let mut after = game;
        let (verdict, why) = explain::play(&mut after, read.command);
        let why = if verdict.is_ok() {
            format!("valid: {why}")
        } else {
            why
        };
        out.push_str(&format!("  why:      {why}\n"));
        // The answer file may be the thing that is wrong: say so when the judge disagrees.
        let ours = judge::verdict_line(&verdict);
        if expected.as_deref().map(str::trim_end) != Some(ours.as_str()) {
            out.push_str(&format!(
                "  note:     the built-in judge answers {ours:?} here, not the expected line\n"
            ));
        }
        out.push_str(&format!(
            "  board before command {number}, {}:\n",
            render::status(&before)
        ));
        let highlight = explain::highlights(read.command, &verdict);
        let marks = Marks {
            last: explain::command_move(read.command),
            highlight: &highlight,
        };
        let diagram = render::diagram(&before, render::Style::for_stdout(ascii), marks);
        for l in diagram.lines() {
            out.push_str("    ");
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// Options of one `test` run.
#[derive(Clone, Debug)]
pub struct Options {
    /// What runs the cases.
    pub runner: Runner,
    /// Accept outputs that differ from the answer only in whitespace.
    pub ignore_whitespace: bool,
    /// Letters instead of Chinese names in diagrams.
    pub ascii: bool,
}

/// Runs one case; `Err` when the program cannot be started or a file cannot be read.
pub fn run_case(case: &Case, options: &Options) -> Result<(Outcome, Duration), String> {
    let read = |p: &Path| fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let input = read(&case.input)?;
    let answer = read(&case.answer)?;
    let run = match &options.runner {
        Runner::Builtin => run_builtin(&input),
        Runner::Program { argv, timeout } => run_program(argv, input.clone(), *timeout)
            .map_err(|e| format!("cannot run {:?}: {e}", argv.join(" ")))?,
    };
    let elapsed = match &run {
        Run::Finished { elapsed, .. } | Run::TimedOut { elapsed, .. } => *elapsed,
    };
    let outcome = judge_run(
        run,
        &input,
        &answer,
        options.ignore_whitespace,
        options.ascii,
    );
    Ok((outcome, elapsed))
}

/// The verdict line and the details under it.
fn report(case: &Case, outcome: &Outcome, elapsed: Duration, color: bool) -> String {
    let mut word = String::new();
    render::paint(
        &format!("{:<3}", outcome.word()),
        outcome.color(),
        color,
        &mut word,
    );
    let mut out = format!("{word} {}  {} ms", case.name, elapsed.as_millis());
    match outcome {
        Outcome::Accepted => out.push('\n'),
        Outcome::AcceptedWhitespace(what) => {
            out.push_str(&format!("  (whitespace differs: {what})\n"));
        }
        Outcome::WrongAnswer(details) => {
            out.push('\n');
            for l in details.lines() {
                out.push_str("    ");
                out.push_str(l);
                out.push('\n');
            }
        }
        Outcome::RuntimeError(status, stderr) => {
            out.push_str(&format!("  {status}\n"));
            for l in stderr {
                out.push_str(&format!("    stderr: {l}\n"));
            }
        }
        Outcome::TimeLimit(limit) => {
            out.push_str(&format!("  killed after {} s\n", limit.as_secs_f64()));
        }
    }
    out
}

/// The longest `--timeout`, in seconds (an hour).
pub const MAX_TIMEOUT: f64 = 3600.0;

/// The command line of `test`.
pub const SPEC: Spec = Spec {
    name: "test",
    summary: "run the judge or your own solution on cases and compare",
    usage: &[
        "[PATH...] [--cmd 'PROGRAM ARGS'] [--timeout SECONDS] [--ignore-whitespace] [--ascii]",
    ],
    about: "\
Each PATH is a directory (default: samples) or a file; every X.in is paired with
X.out (or X.ans). Options may come before or after the paths.

By default the built-in judge runs each case (in process). With --cmd, PROGRAM
runs once per case with the input on stdin, e.g. --cmd ./a.out or --cmd 'python3
sol.py'. The command is split into words at whitespace; 'single' and \"double\"
quotes group words (inside double quotes \\\" and \\\\ stand for \" and \\) and a
backslash keeps the next character; no other shell syntax. On Unix the program
gets a process group of its own, and a timeout kills the whole group.

One line per case: the verdict, the case name, the time in ms.
  AC   the output equals the answer byte for byte
  WA   it does not: the first differing line, its input command, the expected
       and actual lines, which answers differ (moved piece, captured piece,
       check, game over; or valid vs invalid), why the judge decides as it does,
       and the board before the command with the move marked in [ ] (a blocking
       square in ( ))
  RE   the program exited with a non-zero status or was killed by a signal
  TLE  it ran longer than the time limit and was killed
Then 'N passed, M failed'.",
    options: &[
        Opt::valued(
            "--cmd",
            "'PROGRAM ARGS'",
            "run this program instead of the built-in judge",
        ),
        Opt::valued(
            "--timeout",
            "SECONDS",
            "time limit per case for --cmd (decimals allowed; default 2)",
        ),
        Opt::flag(
            "--ignore-whitespace",
            "accept output that differs only in whitespace (trailing\n\
             spaces, CRLF line ends, the final newline, blank lines at the end)",
        ),
        Opt::flag(
            "--ascii",
            "notation letters in board diagrams even on a terminal",
        ),
    ],
    conflicts: &[],
    exit: "0 every case passed, 1 a case failed or an I/O error, 2 usage error",
};

/// The `test` subcommand; returns the exit status.
pub fn cli(args: &[String]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        let timeout = parsed
            .seconds("--timeout", MAX_TIMEOUT)?
            .unwrap_or(Duration::from_secs_f64(DEFAULT_TIMEOUT));
        let runner = match parsed.value("--cmd") {
            None => Runner::Builtin,
            Some(text) => Runner::Program {
                argv: split_command(text).map_err(|e| format!("--cmd: {e}"))?,
                timeout,
            },
        };
        let options = Options {
            runner,
            ignore_whitespace: parsed.flag("--ignore-whitespace"),
            ascii: parsed.flag("--ascii"),
        };
        let paths = if parsed.operands.is_empty() {
            vec![DEFAULT_PATH.to_string()]
        } else {
            parsed.operands.clone()
        };
        let mut notes = Vec::new();
        let collected = collect(&paths, &mut notes);
        for note in &notes {
            cli::say("test", note);
        }
        Ok(match collected {
            Ok(cases) => run_all(&cases, &options),
            Err(e @ CollectError::NotACaseFile(_)) => return Err(e.to_string()),
            Err(e) => cli::fail("test", &e.to_string()),
        })
    })
}

/// Runs every case, prints the reports and the closing line; returns the exit status.
fn run_all(cases: &[Case], options: &Options) -> u8 {
    let color = explain::stdout_color();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let (mut passed, mut failed) = (0, 0);
    for case in cases {
        let (outcome, elapsed) = match run_case(case, options) {
            Ok(r) => r,
            Err(e) => {
                let _ = out.flush();
                return cli::fail("test", &e);
            }
        };
        if outcome.passed() {
            passed += 1;
        } else {
            failed += 1;
        }
        // A closed stdout: nobody is reading, so stop quietly with what we know; any
        // other write error is reported.
        let written = out
            .write_all(report(case, &outcome, elapsed, color).as_bytes())
            .and_then(|()| out.flush());
        if let Err(e) = written {
            let status = cli::output_status("test", Err(e));
            return if failed > 0 { EXIT_FAILURE } else { status };
        }
    }
    let written = writeln!(out, "{passed} passed, {failed} failed").and_then(|()| out.flush());
    let status = cli::output_status("test", written);
    if failed > 0 {
        EXIT_FAILURE
    } else {
        status
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

    #[test]
    fn natural_order() {
        let mut names = vec!["s10", "s2", "a", "s1"];
        names.sort_by_cached_key(|n| natural_key(n));
        assert_eq!(names, ["a", "s1", "s2", "s10"]);
    }

    #[test]
    fn whitespace_only_differences_are_named() {
        let e = b"a b\nc\n";
        assert_eq!(
            whitespace_difference(e, b"a b\r\nc\r\n"),
            "the output has CRLF line ends"
        );
        assert_eq!(
            whitespace_difference(e, b"a b  \nc\n"),
            "trailing whitespace differs (first on line 1)"
        );
        assert_eq!(
            whitespace_difference(e, b"a b\nc"),
            "the final newline is missing"
        );
        assert_eq!(
            whitespace_difference(e, b"a  b\nc\n\n"),
            "spacing within a line differs (first on line 1); 1 extra blank line(s) at the end"
        );
        assert_eq!(normalised(e), normalised(b"a  b \r\n c\n\n\n"));
    }

    #[test]
    fn which_answers_differ() {
        assert_eq!(
            answers_differ("red car;NA;no;no", "red car;blue soldier;yes;no"),
            "captured piece, check"
        );
        assert_eq!(
            answers_differ("Invalid command", "red car;NA;no;no"),
            "valid vs invalid: expected Invalid command, got a move"
        );
        assert_eq!(
            answers_differ("red car;NA;no;no", "Invalid command"),
            "valid vs invalid: expected a move, got Invalid command"
        );
        assert_eq!(
            answers_differ("red car;NA;no;no", "banana"),
            "the output line is not a judge answer"
        );
    }
}
