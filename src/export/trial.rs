//! The solutions a user names, tried on every case before anything is written, as
//! Polygon's invocations and `verifyproblem`'s submission run do: each is built in a
//! folder of its own (the compiler under the same supervision and clock as any program
//! we run), run on each case under the package's limits, and judged as `test` judges.
//! A correct one must pass every case and a wrong one must give a wrong answer on the
//! first case it fails (not a crash or a timeout, which the judges' tools would call
//! by those names): a wrong solution that passes them all says the data does not catch
//! it, and is reported, never hidden.

use super::cases::Case;
use super::solutions::{Role, Solution};
use super::Limits;
use crate::harness::cases::{Case as RunCase, Reference};
use crate::harness::process::{self, Feed, Run, Runner, Sink, Stderr};
use crate::harness::verdict::{run_case, Options};
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How long a build may take.
pub const BUILD_TIME: Duration = Duration::from_secs(120);
/// How much memory a build may use.
pub const BUILD_MEMORY: u64 = 4 << 30;

/// What one solution did on the test set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trial {
    /// The solution's file name.
    pub name: String,
    /// What it should get.
    pub role: Role,
    /// Each case's verdict word (`AC`, `WA`, `RE`, `TLE`, `MLE`), in order.
    pub verdicts: Vec<&'static str>,
    /// The slowest case's time.
    pub slowest: Duration,
}

impl Trial {
    /// The verdict of the whole: the first case's that is not AC, else AC.
    pub fn verdict(&self) -> &'static str {
        self.verdicts
            .iter()
            .copied()
            .find(|&v| v != "AC")
            .unwrap_or("AC")
    }

    /// The first failed case, from 1.
    pub fn first_failed(&self) -> Option<usize> {
        self.verdicts.iter().position(|&v| v != "AC").map(|i| i + 1)
    }

    /// Whether it got what it should: a correct solution every AC, a wrong one a
    /// wrong answer on the first case it fails (as `verifyproblem` judges a
    /// `wrong_answer` submission: its verdict is its first failure's).
    pub fn as_expected(&self) -> bool {
        match self.role {
            Role::Main | Role::Accepted => self.verdict() == "AC",
            Role::Wrong => self.verdict() == "WA",
        }
    }
}

/// Why the solutions could not be tried.
#[derive(Debug)]
pub enum TrialError {
    /// A folder or file of the trial could not be written.
    Io(io::Error),
    /// A solution did not build: its name and what the compiler said last.
    Build(String, String),
    /// A program could not be started: what and why.
    Start(String),
}

impl fmt::Display for TrialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrialError::Io(e) => write!(f, "cannot prepare the solutions' trial: {e}"),
            TrialError::Build(name, why) => write!(f, "{name} does not build: {why}"),
            TrialError::Start(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for TrialError {}

/// A folder of our own under the system's temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> io::Result<Scratch> {
        let base = std::env::temp_dir();
        for n in 0..1000u32 {
            let dir = base.join(format!("duckchess-export-{}-{n}", std::process::id()));
            match fs::create_dir(&dir) {
                Ok(()) => return Ok(Scratch(dir)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free name for a temporary folder",
        ))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Where a build's output goes: nowhere (its messages are on standard error).
struct Discard;

impl Write for Discard {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink for Discard {}

/// Tries each of `solutions` on every case of `cases` under `limits`, in order.
pub fn try_all(
    solutions: &[Solution],
    cases: &[Case],
    limits: Limits,
) -> Result<Vec<Trial>, TrialError> {
    if solutions.is_empty() {
        return Ok(Vec::new());
    }
    let scratch = Scratch::new().map_err(TrialError::Io)?;
    let mut answers = Vec::with_capacity(cases.len());
    for (i, case) in cases.iter().enumerate() {
        let path = scratch.0.join(format!("{}.ans", i + 1));
        fs::write(&path, &case.answer).map_err(TrialError::Io)?;
        answers.push(path);
    }
    let mut trials = Vec::with_capacity(solutions.len());
    for (k, solution) in solutions.iter().enumerate() {
        let folder = scratch.0.join(format!("s{k}"));
        fs::create_dir(&folder).map_err(TrialError::Io)?;
        let argv = build(solution, &folder)?;
        trials.push(trial(solution, argv, cases, &answers, limits)?);
    }
    Ok(trials)
}

/// Builds `solution` in `folder`; returns the words that run it.
fn build(solution: &Solution, folder: &Path) -> Result<Vec<String>, TrialError> {
    let source = folder.join(&solution.name);
    fs::write(&source, &solution.source).map_err(TrialError::Io)?;
    // MinGW's g++ adds `.exe` to a name without it; the name says it already.
    let binary = folder.join(if cfg!(windows) {
        "solution.exe"
    } else {
        "solution"
    });
    let (source, binary) = (
        source.to_string_lossy().into_owned(),
        binary.to_string_lossy().into_owned(),
    );
    if let Some(words) = solution.language.build(&source, &binary) {
        let nothing = Feed::Bytes(Arc::from(&[][..]));
        let run = process::run_program_with(
            &words,
            &nothing,
            BUILD_TIME,
            BUILD_MEMORY,
            &mut Discard,
            Stderr::Keep,
        )
        .map_err(|e| TrialError::Start(process::cannot_run(&words, &e)))?;
        if let Some(why) = build_failure(&run) {
            return Err(TrialError::Build(solution.name.clone(), why));
        }
    }
    Ok(solution.language.run(&source, &binary))
}

/// Why a build failed, with the compiler's last lines; `None` when it succeeded.
fn build_failure(run: &Run) -> Option<String> {
    match run {
        Run::Finished {
            failure: None,
            rest: _,
            ..
        } => None,
        Run::Finished {
            failure: Some(how),
            stderr,
            ..
        } => {
            let (lines, _) = stderr.last_lines(3);
            Some(format!("{how}: {}", lines.join(" / ")))
        }
        Run::Stopped { .. } => Some("it was stopped".to_string()),
        Run::TimedOut { limit, .. } => Some(format!("it took more than {} s", limit.as_secs())),
        Run::MemoryOut { limit, .. } => Some(format!("it used more than {} MiB", limit >> 20)),
    }
}

/// Runs one built solution on every case.
fn trial(
    solution: &Solution,
    argv: Vec<String>,
    cases: &[Case],
    answers: &[PathBuf],
    limits: Limits,
) -> Result<Trial, TrialError> {
    let options = Options {
        runner: Runner::Program {
            argv,
            timeout: Duration::from_secs(limits.seconds),
            memory: limits.memory_mb << 20,
        },
        exact: false,
        ascii: false,
        diff: false,
        keep: None,
        output_limit: crate::export::layout::UOJ_OUTPUT_MB << 20,
    };
    let mut verdicts = Vec::with_capacity(cases.len());
    let mut slowest = Duration::ZERO;
    for (case, answer) in cases.iter().zip(answers) {
        let run = RunCase {
            name: case.name.clone(),
            input: Feed::Bytes(Arc::from(&case.input[..])),
            answer: Reference::File(answer.clone()),
            beyond_format: false,
        };
        let done = run_case(&run, &options).map_err(TrialError::Start)?;
        slowest = slowest.max(done.elapsed);
        verdicts.push(done.verdict.word());
    }
    Ok(Trial {
        name: solution.name.clone(),
        role: solution.role,
        verdicts,
        slowest,
    })
}

/// The trials as a table, one line a solution: its name, what it should get, what it
/// got (with the first case it failed), its slowest case, and whether that is right.
pub fn table(trials: &[Trial]) -> String {
    let width = trials
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(0)
        .max(8);
    let mut out = format!(
        "{:width$}  {:9}  {:14}  {:>8}  check\n",
        "solution", "expected", "got", "slowest"
    );
    for t in trials {
        let expected = match t.role {
            Role::Main | Role::Accepted => "AC",
            Role::Wrong => "WA",
        };
        let got = match t.first_failed() {
            Some(case) => format!("{} on case {case}", t.verdict()),
            None => format!("AC on all {}", t.verdicts.len()),
        };
        let mark = if t.as_expected() {
            "ok"
        } else if t.role == Role::Wrong && t.verdict() == "AC" {
            "NOT CAUGHT: the data passes this wrong solution"
        } else {
            "UNEXPECTED"
        };
        out.push_str(&format!(
            "{:width$}  {:9}  {:14}  {:>5} ms  {mark}\n",
            t.name,
            expected,
            got,
            t.slowest.as_millis()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trial(role: Role, verdicts: &[&'static str]) -> Trial {
        Trial {
            name: "w.cpp".into(),
            role,
            verdicts: verdicts.to_vec(),
            slowest: Duration::from_millis(3),
        }
    }

    #[test]
    fn a_trial_is_judged_by_its_role() {
        let table_ = [
            (Role::Accepted, &["AC", "AC"][..], true, "AC"),
            (Role::Accepted, &["AC", "WA"][..], false, "WA"),
            (Role::Main, &["TLE", "AC"][..], false, "TLE"),
            (Role::Wrong, &["AC", "WA"][..], true, "WA"),
            (Role::Wrong, &["AC", "AC"][..], false, "AC"),
            (Role::Wrong, &["RE", "WA"][..], false, "RE"),
        ];
        for (role, verdicts, expected, word) in table_ {
            let t = trial(role, verdicts);
            assert_eq!(t.as_expected(), expected, "{role:?} {verdicts:?}");
            assert_eq!(t.verdict(), word);
        }
        assert_eq!(trial(Role::Wrong, &["AC", "WA"]).first_failed(), Some(2));
    }

    #[test]
    fn the_table_says_when_the_data_misses_a_wrong_solution() {
        let text = table(&[
            trial(Role::Wrong, &["AC", "AC"]),
            trial(Role::Wrong, &["WA"]),
        ]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[1].contains("AC on all 2"), "{text}");
        assert!(lines[1].ends_with("NOT CAUGHT: the data passes this wrong solution"));
        assert!(lines[2].contains("WA on case 1"), "{text}");
        assert!(lines[2].ends_with("ok"));
    }
}
