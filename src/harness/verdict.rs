//! The verdict of a run: running one case of a test set and comparing its output with
//! the answer as it streams ([`run_case`]), and judging how the run ended
//! ([`classify`], [`judge_run`]), a wrong answer explained by [`crate::show::diagnose`].
//! `test`, `stress` and `audit` judge runs through here.

use crate::cli;
use crate::harness::cases::{Case, Reference};
use crate::harness::process::{self, builtin_answer, Feed, Rest, Run, Runner};
use crate::show::compare::{Comparator, Compared};
use crate::show::diagnose::{self, CaseVerdict, Kind};
use crate::sys::memory::Peak;
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

/// How many lines of a failing program's standard error are shown.
const STDERR_LINES: usize = 5;

/// Options of one `test` run.
#[derive(Clone, Debug)]
pub struct Options {
    /// What runs the cases.
    pub runner: Runner,
    /// Compare byte for byte, rather than as the online judge does by default
    /// (whitespace at line ends and blank lines at the end do not count).
    pub exact: bool,
    /// Letters instead of Chinese names in diagrams.
    pub ascii: bool,
}

/// Runs one case; `Err` when the program cannot be started, a file cannot be read, or
/// the built-in judge cannot answer an input that has no answer file. Also the time and
/// the peak memory (where it could be measured) of the run.
pub fn run_case(
    case: &Case,
    options: &Options,
) -> Result<(CaseVerdict, Duration, Option<Peak>), String> {
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
    let mut comparator = Comparator::new(answer).strict(options.exact);
    let run =
        process::run(&options.runner, &case.input, &mut comparator).map_err(|e| match &options
            .runner
        {
            Runner::Program { argv, .. } => process::cannot_run(argv, &e),
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
    let peak = run.peak();
    let outcome = judge_run(run, &compared, &case.input, options.exact, options.ascii);
    Ok((outcome, elapsed, peak))
}

/// The verdict of `run` whose output compared as `compared` (byte for byte when
/// `exact`).
pub fn classify(run: &Run, compared: &Compared, exact: bool) -> Kind {
    match run {
        Run::TimedOut { .. } => Kind::TimeLimit,
        Run::MemoryOut { .. } => Kind::MemoryLimit,
        Run::Finished {
            failure: Some(_), ..
        } => Kind::RuntimeError,
        Run::Finished { .. } | Run::Stopped { .. } if compared.passed(!exact) => Kind::Accepted,
        Run::Finished { .. } | Run::Stopped { .. } => Kind::WrongAnswer,
    }
}

/// Judges one run against the answer (byte for byte when `exact`); a wrong answer is
/// explained by replaying `input`.
pub fn judge_run(
    run: Run,
    compared: &Compared,
    input: &Feed,
    exact: bool,
    ascii: bool,
) -> CaseVerdict {
    let cut = run.cut();
    let (failure, stderr) = match run {
        Run::TimedOut { limit, .. } => return CaseVerdict::TimeLimit(limit),
        Run::MemoryOut { limit, killed, .. } => return CaseVerdict::MemoryLimit { limit, killed },
        Run::Finished {
            failure, stderr, ..
        } => (failure, stderr),
        Run::Stopped { .. } => (None, Vec::new()),
    };
    let text = String::from_utf8_lossy(&stderr);
    let tail: Vec<String> = text
        .lines()
        .take(STDERR_LINES)
        .map(str::to_string)
        .collect();
    if let Some(failure) = failure {
        return CaseVerdict::RuntimeError(failure, tail);
    }
    if compared.exact {
        return CaseVerdict::Accepted;
    }
    match &compared.difference {
        None => {
            let what = compared
                .whitespace
                .clone()
                .unwrap_or_else(|| "whitespace differs".to_string());
            if exact {
                CaseVerdict::WrongAnswer(format!(
                    "only whitespace differs: {what} (the online judge's default \
                     comparison accepts this; --exact does not)\n"
                ))
            } else {
                CaseVerdict::AcceptedWhitespace(what)
            }
        }
        Some(d) => {
            let cut = cut.map(|c| cut_note(c, compared));
            let details = diagnose::wrong_answer(input.open(), d, compared, cut, ascii);
            // An output that ends early often says why on standard error.
            let short = compared.actual_lines < compared.expected_lines;
            CaseVerdict::WrongAnswer(if short {
                with_stderr(details, &tail)
            } else {
                details
            })
        }
    }
}

/// A wrong answer's details with the program's standard error (its first lines) under
/// the `actual:` line.
fn with_stderr(details: String, stderr: &[String]) -> String {
    if stderr.is_empty() {
        return details;
    }
    let lines: String = stderr
        .iter()
        .map(|l| format!("  stderr:   {l}\n"))
        .collect();
    match details.find("\n  actual:") {
        Some(at) => {
            let end = details[at + 1..]
                .find('\n')
                .map_or(details.len(), |e| at + 2 + e);
            format!("{}{lines}{}", &details[..end], &details[end..])
        }
        None => details + &lines,
    }
}

/// Why the output was read only in part, for a wrong answer's report.
fn cut_note(cut: Rest, compared: &Compared) -> String {
    let read = cli::plural(compared.actual_lines, "line");
    match cut {
        Rest::Read => String::new(),
        Rest::Skipped => {
            format!("  note:     not read past {read}: the output already differed\n")
        }
        Rest::HeldOpen => format!(
            "  note:     the program exited, but something it left running kept its\n\
             \x20           output open: judged on what came within {} ms of the exit\n\
             \x20           (never past the time limit; {read}); that process was killed\n",
            process::GRACE.as_millis()
        ),
    }
}
