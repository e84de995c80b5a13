//! `duckchess test`: a sample tester in the spirit of `oj test` and `cargo compete test`,
//! specialised for this game.
//!
//! It pairs every `X.in` with `X.out` (or `X.ans`; a file named alone without one is
//! judged against the built-in judge), runs either the built-in judge (in process,
//! through [`crate::judge::run`]) or any other program (`--cmd`, input on stdin, killed
//! after `--timeout`), and compares the output with the answer as it streams (byte for
//! byte, or as Luogu does with `--ignore-whitespace`), so no case is too large. A wrong
//! answer is explained in terms of the game by [`crate::show::diagnose`]. The samples
//! are also built into the binary ([`crate::tools::samples`]).

use crate::cli::{self, Opt, Spec, EXIT_FAILURE, EXIT_OK};
use crate::show::compare::Comparator;
use crate::show::diagnose::{judge_run, report, Outcome};
use crate::show::explain;
use crate::tools::process::{self, builtin_answer, split_command, Feed, Runner};
use crate::tools::samples::SAMPLES;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The directory tested when no PATH is given.
pub const DEFAULT_PATH: &str = "samples";
/// The default time limit per case, in seconds.
pub const DEFAULT_TIMEOUT: f64 = 2.0;

/// One test case: an input and the answer it is compared with.
#[derive(Clone, Debug)]
pub struct Case {
    /// The input path without its `.in`, as shown in reports.
    pub name: String,
    /// The `.in` file, or a built-in sample's text.
    pub input: Feed,
    /// What the output is compared with.
    pub answer: Reference,
}

/// The answer of a case.
#[derive(Clone, Debug)]
pub enum Reference {
    /// An `.out` or `.ans` file.
    File(PathBuf),
    /// A built-in sample's answer.
    Text(&'static str),
    /// What the built-in judge answers (a file named alone, without an answer file).
    Builtin,
}

/// Why the cases could not be collected.
#[derive(Debug)]
pub enum CollectError {
    /// A PATH that cannot be read.
    Read(PathBuf, io::Error),
    /// A file that is neither `.in`, `.out` nor `.ans`.
    NotACaseFile(PathBuf),
    /// An answer file given on the command line whose input is missing.
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
        if !cases.iter().any(|c| c.name == case.name) {
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
                            input: Feed::File(with_ext(&stem, "in")),
                            answer: Reference::File(answer),
                        },
                        &mut cases,
                    ),
                    None => notes.push(format!(
                        "skipping {}.in: no {0}.out or {0}.ans (name the file alone to \
                         compare with the built-in judge)",
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
            answer_of(&stem).map_or(Reference::Builtin, Reference::File)
        } else {
            if !input.is_file() {
                return Err(CollectError::Unpaired(
                    path.into(),
                    format!("{}", input.display()),
                ));
            }
            Reference::File(path.to_path_buf())
        };
        add(
            Case {
                name: stem.to_string_lossy().into_owned(),
                input: Feed::File(input),
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

/// The built-in samples as cases, named `built-in/NAME`.
pub fn builtin_cases() -> Vec<Case> {
    SAMPLES
        .iter()
        .map(|s| Case {
            name: format!("built-in/{}", s.name),
            input: Feed::Bytes(Arc::from(s.input.as_bytes())),
            answer: Reference::Text(s.answer),
        })
        .collect()
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

/// Runs one case; `Err` when the program cannot be started, a file cannot be read, or
/// the built-in judge cannot answer an input that has no answer file.
pub fn run_case(case: &Case, options: &Options) -> Result<(Outcome, Duration), String> {
    let shown = |p: &Path| p.display().to_string();
    let input_name = match &case.input {
        Feed::File(p) => shown(p),
        Feed::Bytes(_) => case.name.clone(),
    };
    let (answer, reference): (Box<dyn Read + Send>, _) = match &case.answer {
        Reference::File(p) => {
            let file = File::open(p).map_err(|e| format!("cannot read {}: {e}", shown(p)))?;
            (Box::new(file), None)
        }
        Reference::Text(text) => (Box::new(text.as_bytes()), None),
        Reference::Builtin => {
            let (answer, handle) = builtin_answer(&case.input)
                .map_err(|e| format!("cannot read {input_name}: {e}"))?;
            (Box::new(answer), Some(handle))
        }
    };
    let mut comparator = Comparator::new(answer);
    let run =
        process::run(&options.runner, &case.input, &mut comparator).map_err(|e| match &options
            .runner
        {
            Runner::Program { argv, .. } => format!("cannot run {:?}: {e}", argv.join(" ")),
            Runner::Builtin => format!("cannot read {input_name}: {e}"),
        })?;
    let compared = comparator.finish();
    if let Some(e) = &compared.expected_error {
        let answer = match &case.answer {
            Reference::File(p) => shown(p),
            _ => "the answer".to_string(),
        };
        return Err(format!("cannot read {answer}: {e}"));
    }
    if let Some(handle) = reference {
        match handle.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                return Err(format!(
                    "{input_name}: the built-in judge cannot answer this input: {e}"
                ))
            }
            Err(_) => return Err(format!("{input_name}: the built-in judge failed")),
        }
    }
    let elapsed = run.elapsed();
    let outcome = judge_run(
        run,
        &compared,
        &case.input,
        options.ignore_whitespace,
        options.ascii,
    );
    Ok((outcome, elapsed))
}

/// The longest `--timeout`, in seconds (an hour).
pub const MAX_TIMEOUT: f64 = 3600.0;

/// The command line of `test`.
pub const SPEC: Spec = Spec {
    name: "test",
    summary: "run the judge or your own solution on cases and compare",
    usage: &[
        "[PATH...] [--samples] [--cmd 'PROGRAM ARGS'] [--timeout SECONDS] [--ignore-whitespace] [--ascii]",
    ],
    about: "\
Each PATH is a directory or a file; every X.in is paired with X.out (or X.ans).
An X.in named alone without either is compared with what the built-in judge
answers. Without a PATH: ./samples if it is a directory, else the samples built
into the binary (the statement's and the repository's; --samples picks them
always). Options may come before or after the paths.

By default the built-in judge runs each case (in process). With --cmd, PROGRAM
runs once per case with the input on stdin, e.g. --cmd ./a.out or --cmd 'python3
sol.py'. The command is split into words at whitespace; 'single' and \"double\"
quotes group words (inside double quotes \\\" and \\\\ stand for \" and \\) and a
backslash keeps the next character; no other shell syntax. On Unix the program
gets a process group of its own, and a timeout kills the whole group; on Linux
also anything it started that left the group (setsid) and still descends from it
or holds its pipes. Its output
is compared as it comes: no case is too large, and memory stays flat. Once the
output is sure to differ, at most 1 MiB more is read: a program that floods its
output is stopped there (WA). Once the program exits, its output is read for at
most 0.5 s more (never past the time limit) if something it left running holds
it open; that process is then killed, and the verdict rests on what came.

One line per case: the verdict, the case name, the time in ms.
  AC   the output equals the answer byte for byte
  WA   it does not: the first differing line, its input command, the expected
       and actual lines, what differs (letter case, spacing, spelling, a
       missing or extra line; or which answers: moved piece, captured piece,
       check, game over, valid vs invalid), why the judge decides as it does
       (also why a position is not check), and the board before and after the
       command with the move marked in [ ] (a blocking square in ( ))
  RE   the program exited with a non-zero status or was killed by a signal
  TLE  it ran longer than the time limit and was killed
Then 'N passed, M failed'. Every case runs even when stdout is closed early.",
    options: &[
        Opt::flag(
            "--samples",
            "the samples built into the binary (besides any PATH)",
        ),
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
            "compare as Luogu does by default: whitespace at line ends (CRLF too) and blank lines at the end do not count; spacing inside a line does",
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
        let no_path = parsed.operands.is_empty();
        let builtin = parsed.flag("--samples") || (no_path && !Path::new(DEFAULT_PATH).is_dir());
        let mut cases = if builtin { builtin_cases() } else { Vec::new() };
        let paths = if no_path && !builtin {
            vec![DEFAULT_PATH.to_string()]
        } else {
            parsed.operands.clone()
        };
        if !paths.is_empty() {
            let mut notes = Vec::new();
            let collected = collect(&paths, &mut notes);
            for note in &notes {
                cli::say("test", note);
            }
            match collected {
                Ok(found) => cases.extend(found),
                Err(e @ CollectError::NotACaseFile(_)) => return Err(e.to_string()),
                Err(e) => return Ok(cli::fail("test", &e.to_string())),
            }
        }
        Ok(run_all(&cases, &options))
    })
}

/// Runs every case, prints the reports and the closing line; returns the exit status.
/// A closed stdout stops the printing, not the cases: a failure still means status 1.
fn run_all(cases: &[Case], options: &Options) -> u8 {
    let color = explain::stdout_color();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let (mut passed, mut failed) = (0, 0);
    let mut closed = false;
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
        if closed {
            continue;
        }
        let written = out
            .write_all(report(&case.name, &outcome, elapsed, color).as_bytes())
            .and_then(|()| out.flush());
        match written {
            Err(e) if cli::is_closed(&e) => closed = true,
            Err(e) => return cli::output_status("test", Err(e)),
            Ok(()) => {}
        }
    }
    let status = if closed {
        EXIT_OK
    } else {
        let written = writeln!(out, "{passed} passed, {failed} failed").and_then(|()| out.flush());
        cli::output_status("test", written)
    };
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
    fn natural_order() {
        let mut names = vec!["s10", "s2", "a", "s1"];
        names.sort_by_cached_key(|n| natural_key(n));
        assert_eq!(names, ["a", "s1", "s2", "s10"]);
    }
}
