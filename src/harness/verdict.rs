//! The verdict of a run: running one case of a test set and comparing its output with
//! the answer as it streams ([`run_case`]; on request also setting it beside the answer
//! line by line, and keeping it in a file), and judging how the run ended
//! ([`classify`], [`judge_run`]), a wrong answer explained by [`crate::show::diagnose`].
//! `test`, `stress` and `audit` judge runs through here.

use crate::cli;
use crate::harness::cases::{is_answer, kept_path, Case, Reference};
use crate::harness::process::{self, builtin_answer, ErrorTail, Feed, Rest, Run, Runner, Sink};
use crate::sandbox::memory::Peak;
use crate::show::compare::{Comparator, Compared};
use crate::show::diagnose::{self, CaseVerdict, Explained, Kind};
use crate::show::diff::LineDiff;
use crate::sys::file::{self, Aside};
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How many of the last lines of a program's standard error are shown for a runtime
/// error, and under a wrong answer whose output ends early.
const RE_LINES: usize = 10;
const WA_LINES: usize = 5;

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
    /// Under a wrong answer, the output beside the answer, line by line
    /// ([`crate::show::diff`]).
    pub diff: bool,
    /// The folder where each case's output is kept ([`kept_path`]).
    pub keep: Option<PathBuf>,
    /// The most bytes of output a case may write: past it the program is stopped and
    /// judged `OLE`, as a judge does, and no more is kept.
    pub output_limit: u64,
}

/// The output limit of `test` unless told otherwise: UOJ's usual one, in MiB (an
/// answer of this problem is at most 24 KB).
pub const OUTPUT_LIMIT_MB: u64 = 64;

/// One case run and judged.
#[derive(Debug)]
pub struct CaseRun {
    /// The verdict, with what its report says.
    pub verdict: CaseVerdict,
    /// The time of the run.
    pub elapsed: Duration,
    /// Its peak memory, where it could be measured.
    pub peak: Option<Peak>,
    /// What became of the kept output when it could not be kept: a sentence.
    pub kept_note: Option<String>,
    /// For a case that passed on what came within the grace after the program's exit,
    /// something it left running holding its output open: the note that says so (a
    /// wrong answer's report says it itself).
    pub held_note: Option<String>,
    /// For a wrong answer, its first differing line as data (`--json`).
    pub difference: Option<Explained>,
}

/// Where the output goes while a case runs: to the comparison, and on request to the
/// diff and to the file that keeps it.
struct Tee<E: Read> {
    comparator: Comparator<E>,
    diff: Option<LineDiff<Box<dyn Read + Send>>>,
    kept: Option<Aside>,
    kept_error: Option<io::Error>,
    /// The bytes of output taken so far, and the most taken.
    taken: u64,
    limit: u64,
    /// Whether the output went past the limit.
    over: bool,
}

impl<E: Read> Write for Tee<E> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        // Past the limit nothing more is compared or kept: the run stops there.
        let room = self.limit.saturating_sub(self.taken);
        if bytes.len() as u64 > room {
            self.over = true;
        }
        let all = bytes.len();
        let bytes = &bytes[..all.min(room as usize)];
        self.taken += bytes.len() as u64;
        if bytes.is_empty() {
            return Ok(all);
        }
        let n = self.comparator.write(bytes)?;
        if let Some(diff) = &mut self.diff {
            diff.write_all(&bytes[..n])?;
        }
        if let Some(kept) = &mut self.kept {
            if let Err(e) = kept.write_all(&bytes[..n]) {
                // A full disk costs the kept file, not the verdict.
                self.kept_error = Some(e);
                self.kept = None;
            }
        }
        Ok(if self.over { all } else { n })
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<E: Read> Sink for Tee<E> {
    fn settled(&self) -> bool {
        self.comparator.settled() || self.over
    }
}

/// The answer of `case` to read: the file, the text, or the built-in judge's answer
/// (with the thread that writes it, which says whether the input was well formed).
type Opened = (
    Box<dyn Read + Send>,
    Option<std::thread::JoinHandle<Result<(), String>>>,
);

/// Opens the answer of `case` (`input_name` names its input in messages).
fn open_answer(case: &Case, input_name: &str) -> Result<Opened, String> {
    Ok(match &case.answer {
        Reference::File(p) => {
            let file = File::open(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            (Box::new(file), None)
        }
        Reference::Text(text) => (Box::new(text.as_bytes()), None),
        Reference::Builtin => {
            let (answer, handle) = builtin_answer(&case.input)
                .map_err(|e| format!("cannot read {input_name}: {e}"))?;
            (Box::new(answer), Some(handle))
        }
    })
}

/// The file that keeps the output of `case` in `dir`, opened aside; or why it is not
/// kept.
fn keeper(dir: &Path, case: &Case) -> Result<Aside, String> {
    let target = kept_path(dir, case);
    let own = match &case.answer {
        Reference::File(p) => file::same_file(&p.to_string_lossy(), &target.to_string_lossy()),
        _ => false,
    };
    if own || is_answer(&target) {
        return Err(format!(
            "not keeping the output of {} in {}: that file is the answer of a case",
            case.name,
            target.display()
        ));
    }
    let cannot = |e: io::Error| {
        format!(
            "cannot keep the output of {} in {}: {e}",
            case.name,
            target.display()
        )
    };
    if let Some(link) = linked_folder(dir, &target) {
        return Err(format!(
            "not keeping the output of {} in {}: {} is a symbolic link, which a kept \
             output does not follow",
            case.name,
            target.display(),
            link.display()
        ));
    }
    if let Some(folder) = target.parent() {
        fs::create_dir_all(folder).map_err(cannot)?;
    }
    // A link at the kept file's own name is replaced, never written through.
    Aside::replacing(&target).map_err(cannot)
}

/// The first folder between `dir` (which the user named, and may be a link) and
/// `target` that is a symbolic link, if any.
fn linked_folder(dir: &Path, target: &Path) -> Option<PathBuf> {
    let inside = target.parent()?.strip_prefix(dir).ok()?;
    let mut folder = dir.to_path_buf();
    for part in inside.components() {
        folder.push(part);
        if fs::symlink_metadata(&folder).is_ok_and(|m| m.file_type().is_symlink()) {
            return Some(folder);
        }
    }
    None
}

/// Runs one case; `Err` when the program cannot be started, a file cannot be read, or
/// the built-in judge cannot answer an input that has no answer file.
pub fn run_case(case: &Case, options: &Options) -> Result<CaseRun, String> {
    let shown = |p: &Path| p.display().to_string();
    let input_name = match &case.input {
        Feed::File(p) => shown(p),
        Feed::Bytes(_) => case.name.clone(),
    };
    let (answer, reference) = open_answer(case, &input_name)?;
    // The diff reads the answer again, from its own reader.
    let diff = match options.diff {
        true => Some(LineDiff::new(
            open_answer(case, &input_name)?.0,
            options.exact,
        )),
        false => None,
    };
    let mut kept_note = None;
    let kept = match &options.keep {
        Some(dir) => keeper(dir, case)
            .map_err(|note| kept_note = Some(note))
            .ok(),
        None => None,
    };
    let mut tee = Tee {
        comparator: Comparator::new(answer).strict(options.exact),
        diff,
        kept,
        kept_error: None,
        taken: 0,
        limit: options.output_limit,
        over: false,
    };
    let run = process::run(&options.runner, &case.input, &mut tee).map_err(|e| {
        match &options.runner {
            Runner::Program { argv, .. } => process::cannot_run(argv, &e),
            Runner::Builtin => format!("cannot read {input_name}: {e}"),
        }
    })?;
    let Tee {
        comparator,
        diff,
        kept,
        kept_error,
        over,
        ..
    } = tee;
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
    if let Some(dir) = &options.keep {
        let target = kept_path(dir, case);
        let committed = match (kept, kept_error) {
            (_, Some(e)) => Err(e),
            (Some(kept), None) => kept.commit(),
            (None, None) => Ok(()),
        };
        if let Err(e) = committed {
            kept_note = Some(format!(
                "cannot keep the output of {} in {}: {e}",
                case.name,
                target.display()
            ));
        }
    }
    let elapsed = run.elapsed();
    let peak = run.peak();
    let held = run.cut() == Some(Rest::HeldOpen);
    let over_time_or_memory = matches!(run, Run::TimedOut { .. } | Run::MemoryOut { .. });
    let complete = run.cut().is_none();
    let mut verdict = judge_run(run, &compared, &case.input, options.exact, options.ascii);
    if over && !over_time_or_memory {
        verdict = CaseVerdict::OutputLimit(options.output_limit);
    }
    let held_note = (held && verdict.passed()).then(|| cut_note(Rest::HeldOpen, &compared));
    if let (CaseVerdict::WrongAnswer(details), Some(diff)) = (&mut verdict, diff) {
        details.push_str(&diff.finish().render());
    }
    let difference = match (&verdict, &compared.difference) {
        (CaseVerdict::WrongAnswer(_), Some(d)) => Some(diagnose::explained(
            case.input.open(),
            d,
            &compared,
            complete,
        )),
        _ => None,
    };
    Ok(CaseRun {
        verdict,
        elapsed,
        peak,
        kept_note,
        held_note,
        difference,
    })
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
        Run::Stopped { .. } => (None, ErrorTail::default()),
    };
    let tail = |n: usize| {
        let (mut lines, before) = stderr.last_lines(n);
        if before > 0 && !lines.is_empty() {
            let earlier = cli::plural(before, "earlier line");
            lines.insert(0, format!("({earlier} not shown)"));
        }
        lines
    };
    if let Some(failure) = failure {
        return CaseVerdict::RuntimeError(failure, tail(RE_LINES));
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
                with_stderr(details, &tail(WA_LINES))
            } else {
                details
            })
        }
    }
}

/// A wrong answer's details with the program's standard error (its last lines) under
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
