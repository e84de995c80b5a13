//! `duckchess stress`: finds a small input on which a program and the built-in judge
//! disagree, and says why.
//!
//! A run goes through phases, each a function:
//!
//! - the search ([`search_phase`]): cases from the generators
//!   ([`crate::generate::recipe`]), each run by the program (a fresh process per case, as
//!   `test` runs it, through [`oracle`]) and compared with the built-in judge as the
//!   output streams, in parallel ([`crate::shrink::search`]), until the first WA, RE,
//!   TLE or MLE;
//! - the check that it reproduces ([`confirm_phase`], through [`rerun`]);
//! - the shrinking ([`shrink_phase`], with [`crate::shrink::shrinker`]) to a 1-minimal
//!   case, then the search for a smaller one ([`smaller_phase`], with
//!   [`crate::shrink::smaller`]: new failures from short games of the same mode, each
//!   shrunk, the smallest kept), and the case kept run again (the same [`rerun`]);
//! - the report ([`finish`]): the case saved with the judge's answer, and explained
//!   exactly as `test` explains a wrong answer ([`crate::show::diagnose`]);
//! - unless `--first`, the search for failures of other kinds ([`look_on`]): the
//!   search goes on from the case after the last failure for one whose kind
//!   ([`crate::show::fault`]) is not yet reported, and each found is settled as the
//!   first was (confirmed, shrunk while it fails that way, saved); the reports are
//!   printed smallest case first ([`print_reports`]).

pub mod oracle;

use crate::cli::json::Json;
use crate::cli::{self, Opt, Spec, EXIT_FAILURE, EXIT_OK};
use crate::commands::runs::{
    self, ASCII_OPT, CMD_OPT, COMPARISON_CONFLICT, DEFAULT_TIMEOUT, EXACT_OPT,
    IGNORE_WHITESPACE_OPT, JSON_OPT, MEMORY_OPT,
};
use crate::generate::case::Case;
use crate::generate::mode::modes_help;
use crate::generate::mode::Mode;
use crate::generate::recipe::{self, Recipe};
use crate::harness::process::Stderr;
use crate::harness::verdict;
use crate::sandbox::group;
use crate::show::diagnose::{self, Kind};
use crate::show::explain;
use crate::show::fault::Fault;
use crate::show::record;
use crate::shrink::search::{self, Budget, Trial};
use crate::shrink::shrinker::{Shrinker, Shrunk};
use crate::shrink::smaller::{smaller, Effort, Smaller};
use crate::sys::{file, os, rng};
use oracle::{Judged, Oracle};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The default budget of a run, in seconds.
pub const DEFAULT_TIME: f64 = 60.0;
/// The longest `--time`: a day.
pub const MAX_TIME: f64 = 86_400.0;
/// The longest `--timeout`.
pub const MAX_TIMEOUT: f64 = 60.0;
/// The most commands per case within the official constraints.
pub const OFFICIAL_Q: u64 = 1000;
/// The most commands per case with `--messy` (a case this long takes well under a
/// second to write).
pub const MESSY_Q: u64 = 100_000;
/// At most this many runs are spent on shrinking.
pub const SHRINK_RUNS: u64 = 20_000;
/// At most this many more failures are shrunk in the search for a smaller case.
pub const SMALLER_ROUNDS: usize = 6;
/// The search for a smaller case stops after this many rounds in a row without one.
pub const SMALLER_PATIENCE: usize = 2;
/// The search for a smaller case may always try this many candidates.
pub const SMALLER_TRIES: u64 = 500;
/// A shrunk case of at most this many commands needs no search for a smaller one.
pub const SMALL_ENOUGH: usize = 4;
/// How many times a failing case is run again to see that it reproduces.
pub const REPEATS: usize = 3;
/// Cases of at most this many commands are printed after the report.
const PRINTED: usize = 60;

/// The command line of `stress`.
pub const SPEC: Spec = Spec {
    name: "stress",
    summary: "find a small input on which your solution fails, and say why",
    usage: &[
        "--cmd 'PROGRAM ARGS' [--time SECONDS] [--cases N] [--q N] [--mode M] [--seed S] [--jobs J] [--save PATH] [--timeout SECONDS] [--memory MB] [--first] [--messy] [--exact | --ignore-whitespace] [--ascii] [--json]",
    ],
    about: concat!(
        "\
Generates cases, runs PROGRAM on each (a fresh process per case, input on stdin,
killed after --timeout or once over --memory as 'duckchess test' kills it, and on Linux every process it
leaves behind ended after its run, as there; --cmd is split into words as
'duckchess test' does) and compares its output with the built-in judge's. At the
first WA, RE, TLE or MLE it runs the case again to see that it reproduces, shrinks it
while it fails the same way, saves it to PATH (default stress.in) with the
judge's answer beside it (stress.ans), and prints what 'duckchess test' prints
for it: the first differing line, the command, expected and actual, what
differs, why the judge decides as it does, and the board. A failure that does
not reproduce is reported as flaky, with the original case kept.

Budget: --time (default 60 s) and/or --cases. --time covers the whole run,
reruns and shrinking included: no run starts after it, so stress ends at most one
--timeout later, however slow the program. With --cases alone there is no
clock: the same seed gives the same result. Shrinking:
everything after the first differing line is cut, invalid commands dropped, the
game before the failing command replaced by a shorter route to what matters,
then commands removed (delta debugging) until removing any one makes it pass;
then the whole game retold more freely (the last move included, pieces of either
side stepping out of a mover's way), and shrunk again when that is shorter; a
case still over 8 commands is tried with the pieces that matter set up
elsewhere on the board by a shorter game.
Then, for a smaller case still, new failures from short games of the same mode
are shrunk the same way (at most as many cases again as the search and the
shrinking took; as many again from modes where pieces meet, for a case still
over 12 commands) and the smallest is kept; the result says both sizes. Ctrl-C
ends the run with a line on stderr: the cases tried and the seed.

Every kind of failure: after the first, the search goes on for failures of
another kind (another verdict; for a WA, another answer of the line wrong, or
the same answer under another rule or piece: a check missed, a check that is
not there with the horse's way blocked, a blocked car move answered as a move).
Each is confirmed, shrunk while it fails that way, and saved (the first found
at PATH, the next at PATH with .2 before .in, and so on); the reports come
smallest case first. The search stops after 1000 cases in a row (or four times
as many as the first failure took) bring no new kind, or when the budget ends.
A failure of a kind already reported is not reported again; a run reports at
most 5 kinds. --first stops at the first failure.

Cases stay within the official constraints (Q <= 1000, coordinates in 0..=9 and
0..=8, one space between numbers, one command a line, a final newline): a
correct solution may rely on them. --messy goes beyond, as the judge's lenient input contract allows.
Short cases come first, longer ones as the run goes on.

modes (--mode; default all, mixed; 'duckchess gen' writes the same):
",
        modes_help!(),
        "
A progress line goes to stderr on a terminal; stdout gets only the result."
    ),
    options: &[
        CMD_OPT,
        Opt::valued(
            "--time",
            "SECONDS",
            "stop after this long, shrinking included; a run under way may take up to --timeout more (default 60 unless only --cases is given)",
        ),
        Opt::valued("--cases", "N", "stop after N cases"),
        Opt::valued(
            "--q",
            "N",
            "at most N commands per case (default and maximum 1000; up to 100000 with --messy)",
        ),
        Opt::valued("--mode", "M", "one mode, or all (default)"),
        Opt::valued(
            "--seed",
            "S",
            "the seed (default: from the clock; the result shows it)",
        ),
        Opt::valued(
            "--jobs",
            "J",
            "cases run in parallel (default: the number of cores)",
        ),
        Opt::valued(
            "--save",
            "PATH",
            "where the failing case goes (default stress.in; the answer goes to PATH with .ans for .in)",
        ),
        Opt::valued(
            "--timeout",
            "SECONDS",
            "time limit per case (decimals allowed; default 1)",
        ),
        Opt::flag(
            "--first",
            "stop at the first failure: no search for failures of other kinds",
        ),
        Opt::flag(
            "--messy",
            "also input beyond the official constraints: any whitespace, CRLF, blank lines, no final newline, coordinates off the board",
        ),
        MEMORY_OPT,
        EXACT_OPT,
        IGNORE_WHITESPACE_OPT,
        ASCII_OPT,
        JSON_OPT,
    ],
    conflicts: &[COMPARISON_CONFLICT],
    exit: "0 no failure found within the budget, 1 a failing case found (a\n             \
           flaky one too) or an I/O error, 2 usage error, 128+N ended by\n             \
           signal N (Ctrl-C: 130), after ending the program under test",
};

/// Everything a run needs.
struct Settings {
    recipe: Recipe,
    cases: Option<u64>,
    budget: Budget,
    jobs: usize,
    save: String,
    ascii: bool,
    started: Instant,
    /// Stop at the first failure (`--first`), rather than look on for other kinds.
    first: bool,
    /// Results as JSON Lines (`--json`).
    json: bool,
}

/// The `stress` subcommand; returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        let started = Instant::now();
        let argv = runs::program(parsed)?;
        let timeout = parsed
            .seconds("--timeout", MAX_TIMEOUT)?
            .unwrap_or(Duration::from_secs_f64(DEFAULT_TIMEOUT));
        let cases = parsed.int("--cases", 1, u64::MAX)?;
        let time = parsed.seconds("--time", MAX_TIME)?;
        let deadline = match (time, cases) {
            (Some(t), _) => Some(started + t),
            (None, Some(_)) => None,
            (None, None) => Some(started + Duration::from_secs_f64(DEFAULT_TIME)),
        };
        let messy = parsed.flag("--messy");
        let max_q = parsed
            .int("--q", 1, if messy { MESSY_Q } else { OFFICIAL_Q })
            .map_err(|e| match messy {
                // Beyond the statement's limit only with --messy: say so.
                false if e.contains("above the largest allowed") => {
                    format!("{e} (the statement's limit; --messy allows up to {MESSY_Q})")
                }
                _ => e,
            })?
            .unwrap_or(OFFICIAL_Q);
        let mode = match parsed.value("--mode") {
            None | Some("all") => None,
            Some(m) => Some(m.parse::<Mode>().map_err(|e| format!("--mode: {e}"))?),
        };
        let seed = match parsed.int("--seed", 0, u64::MAX)? {
            Some(s) => s,
            None => rng::clock_seed(),
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let jobs = parsed.int("--jobs", 1, 1024)?.map_or(cores, |j| j as usize);
        let settings = Settings {
            recipe: Recipe {
                seed,
                mode,
                max_q,
                messy,
                counts: true,
            },
            cases,
            budget: Budget { deadline },
            jobs,
            save: parsed.path("--save")?.unwrap_or("stress.in").to_string(),
            ascii: parsed.flag("--ascii"),
            started,
            first: parsed.flag("--first"),
            json: parsed.flag("--json"),
        };
        let memory = runs::memory_limit(parsed)?;
        let oracle = Oracle::new(argv, timeout, memory, parsed.flag("--exact"));
        Ok(stress(&settings, &oracle))
    })
}

/// The commands of the cases run so far, kept so that the summary can count those up to
/// the failing case as one job would have run them, in memory that does not grow with the
/// run: the sum over the cases below a watermark, the cases run past it (as many as run
/// while a slow one holds it back), and the sums through each failing case.
#[derive(Default)]
struct Ledger {
    /// Every case below this has been run.
    watermark: u64,
    /// Their commands.
    below: u64,
    /// Cases run at or above the watermark: their commands and whether they failed.
    ahead: BTreeMap<u64, (u64, bool)>,
    /// For each failing case the watermark has passed, the commands of the cases through it.
    failures: BTreeMap<u64, u64>,
}

impl Ledger {
    /// Case `index` of `commands` commands has run.
    fn done(&mut self, index: u64, commands: u64, failed: bool) {
        self.ahead.insert(index, (commands, failed));
        while let Some((commands, failed)) = self.ahead.remove(&self.watermark) {
            self.below += commands;
            if failed {
                self.failures.insert(self.watermark, self.below);
            }
            self.watermark += 1;
        }
    }

    /// The commands of cases `0..=index`, once all of them have run.
    fn through(&self, index: u64) -> Option<u64> {
        self.failures.get(&index).copied()
    }
}

/// The progress line, on a terminal only.
struct Progress {
    on: bool,
}

impl Progress {
    fn show(&self, text: &str) {
        if self.on {
            let _ = write!(io::stderr(), "\r\x1b[Kduckchess: stress: {text}");
        }
    }

    fn clear(&self) {
        if self.on {
            let _ = write!(io::stderr(), "\r\x1b[K");
        }
    }
}

/// A failing case the search found, with its place in the run.
struct Failure {
    /// Its index in the seed's sequence of cases.
    index: u64,
    /// The case.
    case: Case,
    /// The generator that made it.
    mode: Mode,
    /// Its failing run.
    judged: Judged,
}

/// What the search found, and what it tried on the way.
struct Hunt {
    /// The first failing case, if any.
    failure: Option<Failure>,
    /// The cases and commands tried, the time and the seed, in words.
    tried: String,
    /// The cases tried.
    tested: u64,
    /// The time it took, in seconds.
    seconds: f64,
}

/// A case run again: how many runs there were and how many failed like the first, with
/// the last of those.
struct Rerun {
    ran: usize,
    failed: usize,
    last: Option<Judged>,
}

/// How the run ends: the report's last line, and the case saved with its failing run.
struct Report {
    line: String,
    case: Case,
    judged: Judged,
}

/// The search, the shrinking and the report; returns the exit status.
fn stress(s: &Settings, oracle: &Oracle) -> u8 {
    let progress = Progress {
        on: os::escapes_shown(os::Console::Stderr),
    };
    let seed = s.recipe.seed;
    // Ctrl-C ends the run with a summary, in each phase (over the progress line, on a
    // terminal).
    let fresh = if progress.on { "\r\x1b[K" } else { "" };
    group::set_signal_note(
        &format!("{fresh}duckchess: stress: interrupted; cases tried: "),
        &format!("; no failure found yet; seed {seed} (--seed {seed} tries the same cases)"),
    );
    let hunt = search_phase(s, oracle, &progress, 0, s.cases, &[]);
    if let Some(why) = oracle.broken() {
        return cli::fail("stress", &why);
    }
    let Some(mut failure) = hunt.failure else {
        let text = if s.json {
            let mut members = record::head("stress", "summary");
            members.push(("failures".to_string(), Json::count(0)));
            members.push(("seed".to_string(), Json::count(seed)));
            members.push(("cases".to_string(), Json::count(hunt.tested)));
            members.push(("tried".to_string(), Json::str(hunt.tried.clone())));
            record::line(members)
        } else {
            format!("no failure found: {}\n", hunt.tried)
        };
        let mut out = io::stdout().lock();
        let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        return cli::output_status("stress", written);
    };
    if s.first {
        // Shrunk to any failure of its verdict, as a run that stops here always was.
        failure.judged.trial = failure.judged.trial.loosely();
    }
    let found = format!(
        "found: {} in case {} (mode {}, {}) after {}",
        failure.judged.trial.kind.word(),
        failure.index,
        failure.mode,
        cli::plural(failure.case.len() as u64, "command"),
        hunt.tried
    );
    let mut done = vec![settle(s, oracle, &progress, fresh, failure, found, 1)];
    if s.first {
        return print_reports(s, &done, None);
    }
    let more = look_on(s, oracle, &progress, fresh, &mut done);
    print_reports(s, &done, Some(&more))
}

/// A failure confirmed, shrunk and saved, with its report.
struct Settled {
    /// Its kind, when it has one.
    fault: Option<Fault>,
    /// Its index in the seed's sequence of cases.
    index: u64,
    /// The case kept.
    case_len: usize,
    /// Where it was saved.
    path: String,
    /// The report, ready to print.
    text: String,
    /// A file that could not be written: the error.
    unsaved: Option<String>,
    /// The report as JSON members (`--json`).
    record: Vec<(String, Json)>,
}

/// Confirms `failure`, shrinks it, saves it as the `nth` failure of the run and writes
/// its report, `found` first.
fn settle(
    s: &Settings,
    oracle: &Oracle,
    progress: &Progress,
    fresh: &str,
    failure: Failure,
    found: String,
    nth: usize,
) -> Settled {
    let seed = s.recipe.seed;
    group::set_signal_note(
        &format!("{fresh}duckchess: stress: interrupted while shrinking; cases tried: "),
        &format!(
            "; {} in case {} of seed {seed} (--seed {seed} finds it again)",
            failure.judged.trial.kind.word(),
            failure.index
        ),
    );
    let (fault, index) = (failure.judged.trial.fault, failure.index);
    let report = match confirm_phase(s, oracle, failure) {
        Ok(failure) => shrink_phase(s, oracle, progress, failure),
        Err(report) => *report,
    };
    let path = numbered(&s.save, nth);
    let case_len = report.case.len();
    let (text, unsaved, mut members) = finish(
        s,
        oracle,
        &path,
        &[found.clone(), report.line.clone()],
        &report.case,
        report.judged,
    );
    let mut record = record::head("stress", "failure");
    record.push(("kind".to_string(), Json::str(fault_words(fault))));
    record.push(("case_index".to_string(), Json::count(index)));
    record.push(("commands".to_string(), Json::count(case_len as u64)));
    record.push(("found".to_string(), Json::str(found)));
    record.push(("shrunk".to_string(), Json::str(report.line)));
    record.append(&mut members);
    Settled {
        fault,
        index,
        case_len,
        path,
        text,
        unsaved,
        record,
    }
}

/// Where the `nth` failure of a run is saved: `PATH` for the first, then `PATH` with
/// `.N` before its `.in` (`stress.2.in`), or after it when it has none.
fn numbered(save: &str, nth: usize) -> String {
    match (nth, save.strip_suffix(".in")) {
        (1, _) => save.to_string(),
        (n, Some(stem)) => format!("{stem}.{n}.in"),
        (n, None) => format!("{save}.{n}"),
    }
}

/// How the search for other kinds of failure ended.
struct LookedOn {
    /// Cases run past the last failure found.
    cases: u64,
    /// The time the search for others took, in seconds.
    seconds: f64,
    /// Why it stopped, when the budget stopped it (else [`patience`] cases in a row
    /// brought no new kind).
    stopped: Option<&'static str>,
}

/// After the first failure: the search goes on from the case after the last failure
/// found, for a failure of a kind not yet reported, each settled as the first was,
/// until [`patience`] cases in a row bring none or the budget ends.
fn look_on(
    s: &Settings,
    oracle: &Oracle,
    progress: &Progress,
    fresh: &str,
    done: &mut Vec<Settled>,
) -> LookedOn {
    let started = Instant::now();
    let patience = patience(done[0].index);
    let mut start = done[0].index + 1;
    loop {
        let seen: Vec<Fault> = done.iter().filter_map(|d| d.fault).collect();
        let saved: Vec<String> = done
            .iter()
            .map(|d| format!("{} ({})", d.path, fault_words(d.fault)))
            .collect();
        group::set_signal_note(
            &format!(
                "{fresh}duckchess: stress: interrupted while looking for other kinds of \
                 failure; cases tried: "
            ),
            &format!("; saved: {}", saved.join(", ")),
        );
        let budget_left = s.cases.map_or(u64::MAX, |n| n.saturating_sub(start));
        let count = patience.min(budget_left);
        let stopped = |cases| LookedOn {
            cases,
            seconds: started.elapsed().as_secs_f64(),
            stopped: if s.budget.spent() {
                Some("--time ran out")
            } else if count < patience {
                Some("--cases ran out")
            } else {
                None
            },
        };
        if done.len() >= MOST_KINDS {
            return LookedOn {
                cases: 0,
                seconds: started.elapsed().as_secs_f64(),
                stopped: Some(MANY_KINDS),
            };
        }
        if count == 0 || s.budget.spent() || oracle.broken().is_some() {
            return stopped(0);
        }
        let hunt = search_phase(s, oracle, progress, start, Some(count), &seen);
        let Some(failure) = hunt.failure else {
            return stopped(hunt.tested);
        };
        let index = failure.index;
        let found = format!(
            "found another kind: {} in case {} (mode {}, {}) after {} more cases ({:.1} s): {}",
            failure.judged.trial.kind.word(),
            index,
            failure.mode,
            cli::plural(failure.case.len() as u64, "command"),
            hunt.tested,
            hunt.seconds,
            failure
                .judged
                .trial
                .fault
                .and_then(|f| f.what())
                .unwrap_or_else(|| "another verdict".to_string()),
        );
        let nth = done.len() + 1;
        done.push(settle(s, oracle, progress, fresh, failure, found, nth));
        start = index + 1;
    }
}

/// How many cases in a row may bring no new kind of failure before the search for
/// others stops: four times the cases the first took, at least [`LOOK_ON`].
fn patience(first_index: u64) -> u64 {
    (first_index + 1).saturating_mul(4).max(LOOK_ON)
}

/// The least number of cases the search for other kinds of failure runs past the last
/// one found.
pub const LOOK_ON: u64 = 1000;

/// The most kinds of failure one run reports: a program that fails in more ways most
/// likely misreads its input or writes its output wrongly, which the first reports
/// show; more would bury them.
pub const MOST_KINDS: usize = 5;

/// Why the search for other kinds stops at [`MOST_KINDS`].
const MANY_KINDS: &str = "stopped at 5 kinds: a program failing in so many ways most likely \
                          misreads its input or writes its output wrongly; mend these first";

fn fault_words(fault: Option<Fault>) -> String {
    fault.map_or_else(|| "a failure".to_string(), |f| f.words())
}

/// Prints the reports, the smallest case first, with a summary when there are several;
/// returns 1 (or the status of a failed write or save).
fn print_reports(s: &Settings, done: &[Settled], more: Option<&LookedOn>) -> u8 {
    let mut order: Vec<&Settled> = done.iter().collect();
    order.sort_by_key(|d| d.case_len);
    let text = if s.json {
        json_reports(s, &order, more)
    } else {
        text_reports(&order, more)
    };
    let mut out = io::stdout().lock();
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    let status = cli::output_status("stress", written);
    if let Some(error) = done.iter().find_map(|d| d.unsaved.as_ref()) {
        return cli::fail("stress", error);
    }
    match status {
        EXIT_OK => EXIT_FAILURE,
        status => status,
    }
}

/// The reports as JSON Lines: one object per failure, smallest case first, then the
/// summary.
fn json_reports(s: &Settings, order: &[&Settled], more: Option<&LookedOn>) -> String {
    let mut text = String::new();
    for d in order {
        text.push_str(&record::line(d.record.clone()));
    }
    let mut members = record::head("stress", "summary");
    members.push(("failures".to_string(), Json::count(order.len() as u64)));
    members.push(("seed".to_string(), Json::count(s.recipe.seed)));
    let looked = match more {
        None => Json::Null,
        Some(m) => Json::obj([
            ("cases", Json::count(m.cases)),
            ("seconds", Json::Num((m.seconds * 10.0).round() / 10.0)),
            ("stopped", m.stopped.map_or(Json::Null, Json::str)),
        ]),
    };
    members.push(("looked_on".to_string(), looked));
    text.push_str(&record::line(members));
    text
}

/// The reports for people: a summary when there are several, each report, and how
/// the search for other kinds ended.
fn text_reports(order: &[&Settled], more: Option<&LookedOn>) -> String {
    let mut text = String::new();
    if order.len() > 1 {
        text.push_str(&format!(
            "found {} kinds of failure, the smallest case first:\n",
            order.len()
        ));
        for (i, d) in order.iter().enumerate() {
            text.push_str(&format!(
                "  {}. {}: {} in {}\n",
                i + 1,
                fault_words(d.fault),
                cli::plural(d.case_len as u64, "command"),
                d.path
            ));
        }
    }
    for (i, d) in order.iter().enumerate() {
        if order.len() > 1 {
            text.push_str(&format!("\nfailure {} of {}:\n", i + 1, order.len()));
        }
        text.push_str(&d.text);
    }
    if let Some(more) = more {
        let after = if order.len() > 1 { "\n" } else { "" };
        if more.stopped == Some(MANY_KINDS) {
            text.push_str(&format!("{after}{MANY_KINDS}\n"));
        } else {
            let why = more.stopped.map_or(String::new(), |w| format!("; {w}"));
            text.push_str(&format!(
                "{after}no other kind of failure in the {} after the last one found ({:.1} \
                 s{why})\n",
                cli::plural(more.cases, "case"),
                more.seconds,
            ));
        }
    }
    text
}

/// The search: cases from the recipe from number `start` on (at most `count` of them),
/// run in parallel until the first failure of a kind not in `seen` or the end of the
/// budget.
fn search_phase(
    s: &Settings,
    oracle: &Oracle,
    progress: &Progress,
    start: u64,
    count: Option<u64>,
    seen: &[Fault],
) -> Hunt {
    let commands = AtomicU64::new(0);
    let searching = Instant::now();
    let mut show = |tested: u64| {
        let secs = s.started.elapsed().as_secs_f64();
        progress.show(&format!(
            "{} cases, {:.0}/s, {secs:.1} s",
            start + tested,
            tested as f64 / searching.elapsed().as_secs_f64().max(1e-9)
        ));
    };
    let ledger = Mutex::new(Ledger::default());
    let found = search::first(
        s.jobs,
        count.unwrap_or(u64::MAX),
        s.budget,
        |i| {
            let (case, mode) = recipe::case(&s.recipe, start + i);
            commands.fetch_add(case.len() as u64, Ordering::Relaxed);
            // A program that cannot be started ends the search too.
            let Some(judged) = oracle.judged(&case, Stderr::Discard) else {
                return Some(None);
            };
            let failed = judged.trial.kind != Kind::Accepted
                && !judged
                    .trial
                    .fault
                    .is_some_and(|f| seen.iter().any(|s| s.same_kind(&f)));
            if let Ok(mut l) = ledger.lock() {
                l.done(i, case.len() as u64, failed);
            }
            failed.then_some(Some((case, mode, judged)))
        },
        Some(&mut show),
    );
    progress.clear();
    let searched = searching.elapsed();
    // What a search on one job would have tried: for a failure, the cases up to it (more
    // jobs also run some past it), so the summary is the same for any --jobs.
    let through = |index| ledger.lock().ok().and_then(|l| l.through(index));
    let (tested, commands) = match found
        .first
        .as_ref()
        .and_then(|(i, _)| Some((*i, through(*i)?)))
    {
        Some((index, commands)) => (index + 1, commands),
        None => (found.tested, commands.load(Ordering::Relaxed)),
    };
    let tried = format!(
        "{} ({}) in {:.1} s; seed {}",
        cli::plural(tested, "case"),
        cli::plural(commands, "command"),
        searched.as_secs_f64(),
        s.recipe.seed
    );
    let failure = match found.first {
        Some((index, Some((case, mode, judged)))) => Some(Failure {
            index: start + index,
            case,
            mode,
            judged,
        }),
        _ => None,
    };
    Hunt {
        failure,
        tried,
        tested,
        seconds: searched.as_secs_f64(),
    }
}

/// Runs `case` up to `times` more times within the budget (its standard error kept, for
/// the report), counting the runs that fail like `like`.
fn rerun(s: &Settings, oracle: &Oracle, case: &Case, like: &Trial, times: usize) -> Rerun {
    let mut again = Rerun {
        ran: 0,
        failed: 0,
        last: None,
    };
    for _ in 0..times {
        // No run starts once the time is up.
        if s.budget.spent() {
            break;
        }
        again.ran += 1;
        if let Some(j) = oracle.judged(case, Stderr::Keep) {
            if j.trial.fails_like(like) {
                again.failed += 1;
                again.last = Some(j);
            }
        }
    }
    again
}

/// Does the failure come back, the same way? Gives it with its last failing run, or ends
/// the run (flaky, or no time to be sure).
fn confirm_phase(
    s: &Settings,
    oracle: &Oracle,
    mut failure: Failure,
) -> Result<Failure, Box<Report>> {
    let again = rerun(s, oracle, &failure.case, &failure.judged.trial, REPEATS - 1);
    if let Some(last) = again.last {
        failure.judged = last;
    }
    let line = if again.failed < again.ran {
        format!(
            "flaky: it failed again on {} of {} more runs (undefined behaviour or \
             timing?); the original case is kept",
            again.failed, again.ran
        )
    } else if again.ran == 0 {
        "not shrunk: the time ran out before it could run again".to_string()
    } else if again.ran < REPEATS - 1 {
        format!(
            "not shrunk: the time ran out after {} of {} more runs (it failed again \
             on each)",
            again.ran,
            REPEATS - 1
        )
    } else {
        return Ok(failure);
    };
    Err(Box::new(Report {
        line,
        case: failure.case,
        judged: failure.judged,
    }))
}

/// Shrinks a confirmed failure and runs the shrunk case again: the shrunk case with its
/// last failing run, or the original case when the shrunk one cannot be confirmed.
fn shrink_phase(s: &Settings, oracle: &Oracle, progress: &Progress, failure: Failure) -> Report {
    let Failure {
        index,
        case,
        mode,
        judged,
    } = failure;
    progress.show(&format!(
        "shrinking {}",
        cli::plural(case.len() as u64, "command")
    ));
    let shrink_started = Instant::now();
    // Keep time to run the shrunk case again at the end.
    let reserve = judged.trial.elapsed.max(Duration::from_millis(5)) * (REPEATS as u32 + 1);
    let budget = Budget {
        deadline: s
            .budget
            .deadline
            .map(|d| d.checked_sub(reserve).unwrap_or(d)),
    };
    let shrinker = Shrinker::new(oracle, s.jobs, budget, oracle.runs() + SHRINK_RUNS, true);
    let first = shrinker.shrink(case.clone(), judged.trial);
    progress.show(&format!(
        "shrunk to {}; looking for a smaller case",
        cli::plural(first.case.len() as u64, "command")
    ));
    let found = smaller_phase(s, &shrinker, first, index, mode);
    let shrunk = found.best;
    progress.clear();
    // The shrunk case must fail every time too; its last run goes in the report. Within
    // the time left: the shrinking kept some for this.
    let again = rerun(s, oracle, &shrunk.case, &judged.trial, REPEATS);
    let size = cli::plural(shrunk.case.len() as u64, "command");
    let last = match again.last {
        Some(j) if again.failed == again.ran => j,
        _ if again.ran == 0 => {
            let line = if shrunk.case == case {
                "not shrunk: the time ran out".to_string()
            } else {
                format!(
                    "not shrunk: the time ran out before the shrunk case of {size} could run \
                     again; the original case is kept"
                )
            };
            return Report { line, case, judged };
        }
        _ => {
            let line = format!(
                "flaky: the shrunk case of {size} failed on {} of {} runs (undefined \
                 behaviour or timing?); the original case is kept",
                again.failed, again.ran
            );
            return Report { line, case, judged };
        }
    };
    let runs = if again.ran == REPEATS {
        format!("{REPEATS} of {REPEATS} runs")
    } else {
        format!(
            "{ran} of {ran} runs (the time ran out before {REPEATS})",
            ran = again.ran
        )
    };
    let smaller = match found.rounds {
        0 => String::new(),
        n if shrunk.case.len() < found.first => format!(
            " (the first shrunk case had {}; {} shrunk)",
            found.first,
            cli::plural(n as u64, "more failure")
        ),
        n => format!(
            " ({} shrunk, none smaller)",
            cli::plural(n as u64, "more failure")
        ),
    };
    let line = format!(
        "shrunk from {} to {size} in {:.1} s ({} tried){}{smaller}; it fails {runs}",
        case.len(),
        shrink_started.elapsed().as_secs_f64(),
        cli::plural(shrunk.tries + found.tries, "case"),
        if shrunk.minimal {
            ", 1-minimal"
        } else {
            ", not 1-minimal: the budget ran out"
        }
    );
    Report {
        line,
        case: shrunk.case,
        judged: last,
    }
}

/// Smaller than 1-minimal: new failures from short games of the failing case's mode (each
/// round a seed of its own, games at most twice the first shrunk case's length), each
/// shrunk as the first was; the smallest is kept. No round starts once it has tried as
/// many candidates as the search and the first shrinking did (at least
/// [`SMALLER_TRIES`]). A case still longer than [`LONG`] commands then gets as many again
/// from short games of the modes that stage close encounters ([`SMALLER_MODES`], one a
/// round; `--mode` keeps its own), so a run costs at most about twice what it did without
/// the search, three times for a long case.
fn smaller_phase(
    s: &Settings,
    shrinker: &Shrinker,
    first: Shrunk,
    index: u64,
    mode: Mode,
) -> Smaller {
    let max_tries = (index + 1 + first.tries).max(SMALLER_TRIES);
    let effort = Effort {
        rounds: SMALLER_ROUNDS,
        patience: SMALLER_PATIENCE,
        candidates: (index + 1).saturating_mul(2).clamp(500, 5_000),
        enough: SMALL_ENOUGH,
        max_tries,
    };
    // Each round's games: a seed of its own (`stage` apart), `fixed` or else the round's
    // of SMALLER_MODES, at most twice as long as `len`.
    let games = |stage: u64, len: usize, fixed: Option<Mode>| {
        let max_q = (len as u64 * 2).clamp(8, s.recipe.max_q);
        move |round: usize, i: u64| {
            let recipe = Recipe {
                seed: s.recipe.seed
                    ^ (round as u64 + 1 + stage).wrapping_mul(0xD1B5_4A32_D192_ED03),
                mode: Some(
                    s.recipe
                        .mode
                        .or(fixed)
                        .unwrap_or_else(|| SMALLER_MODES[round % SMALLER_MODES.len()]),
                ),
                max_q,
                messy: s.recipe.messy,
                // Smaller failures from short games: no count at its most.
                counts: false,
            };
            Some(recipe::case(&recipe, i).0)
        }
    };
    let len = first.case.len();
    let found = smaller(shrinker, first, effort, games(0, len, Some(mode)));
    if found.best.case.len() <= LONG || shrinker.exhausted() {
        return found;
    }
    let len = found.best.case.len();
    let more = smaller(
        shrinker,
        found.best,
        Effort {
            enough: LONG,
            patience: SMALLER_MODES.len(),
            ..effort
        },
        games(SMALLER_ROUNDS as u64, len, None),
    );
    Smaller {
        best: more.best,
        first: found.first,
        rounds: found.rounds + more.rounds,
        tries: found.tries + more.tries,
    }
}

/// A case of more than this many commands is more than a person reads at a glance: the
/// search for a smaller case goes on in [`SMALLER_MODES`].
pub const LONG: usize = 12;

/// The modes the search for a smaller case turns to when the case is still long: in
/// short games of these, pieces meet (checks, blocked squares, captains walking into
/// attack), where a short random game of another mode may bring no two pieces close.
const SMALLER_MODES: [Mode; 4] = [Mode::Attacks, Mode::Captains, Mode::Check, Mode::Blocked];

/// Saves `case` at `path` (its answer beside it) and writes the report: `lines`, where
/// it was saved, the report of `judged` and the case; with the error, when a file could
/// not be written. A case that cannot be saved is not lost: the report then holds the
/// case itself, however long.
fn finish(
    s: &Settings,
    oracle: &Oracle,
    path: &str,
    lines: &[String],
    case: &Case,
    judged: Judged,
) -> (String, Option<String>, Vec<(String, Json)>) {
    let answer_path = match path.strip_suffix(".in") {
        Some(stem) => format!("{stem}.ans"),
        None => format!("{path}.ans"),
    };
    let input = case.to_bytes();
    // What was saved, in words; the error, if a file could not be written; whether the
    // input was.
    // A link at a saved file's name is replaced, never written through: the folder may
    // be shared.
    let write = |path: &str, bytes: &[u8]| file::write_whole_replacing(Path::new(path), bytes);
    let (saved, unsaved, input_saved) = match write(path, &input) {
        Err(e) => (
            format!("not saved: {path} cannot be written (the error follows); the case is below"),
            Some(format!("cannot write {path}: {e}")),
            false,
        ),
        Ok(()) => match write(&answer_path, &case.answer()) {
            Err(e) => (
                format!(
                    "saved: {path}; not saved: {answer_path} cannot be written (the error follows)"
                ),
                Some(format!("cannot write {answer_path}: {e}")),
                true,
            ),
            Ok(()) => (format!("saved: {path} and {answer_path}"), None, true),
        },
    };
    let elapsed = judged.run.elapsed();
    let peak = judged.run.peak();
    let complete = judged.run.cut().is_none();
    let explained = judged
        .compared
        .difference
        .as_ref()
        .map(|d| diagnose::explained(judged.input.open(), d, &judged.compared, complete));
    let outcome = verdict::judge_run(
        judged.run,
        &judged.compared,
        &judged.input,
        oracle.exact,
        s.ascii,
    );
    let mut text = String::new();
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    text.push_str(&saved);
    text.push('\n');
    let report = diagnose::report(
        path,
        &outcome,
        elapsed,
        peak,
        explain::stdout_color() && !s.json,
    );
    text.push_str(&report);
    let mut members = vec![
        (
            "saved".to_string(),
            Json::Arr(match (input_saved, unsaved.is_none()) {
                (true, true) => vec![Json::str(path), Json::str(answer_path.clone())],
                (true, false) => vec![Json::str(path)],
                _ => Vec::new(),
            }),
        ),
        (
            "input".to_string(),
            Json::str(String::from_utf8_lossy(&input)),
        ),
    ];
    members.extend(record::judged(
        &outcome,
        elapsed,
        peak,
        explained.as_ref().filter(|_| outcome.word() == "WA"),
        &report,
    ));
    if case.len() <= PRINTED || !input_saved {
        if input_saved {
            text.push_str(&format!("the case ({path}):\n"));
        } else {
            text.push_str("the case:\n");
        }
        for l in String::from_utf8_lossy(&input).lines() {
            text.push_str("    ");
            text.push_str(l);
            text.push('\n');
        }
    }
    (text, unsaved, members)
}

#[cfg(test)]
mod tests {
    use super::Ledger;

    #[test]
    fn the_ledger_counts_through_a_failure_whatever_the_order() {
        let mut l = Ledger::default();
        // Cases finish out of order; case 3 fails, then case 6 (past it) fails too.
        for (i, n, failed) in [(1, 10, false), (3, 30, true), (0, 5, false), (6, 60, true)] {
            l.done(i, n, failed);
        }
        assert_eq!(l.through(3), None, "case 2 has not run yet");
        l.done(2, 20, false);
        assert_eq!(l.through(3), Some(65));
        assert_eq!(l.through(6), None, "cases 4 and 5 have not run");
        l.done(5, 50, false);
        l.done(4, 40, false);
        assert_eq!(l.through(6), Some(215));
        assert!(l.ahead.is_empty(), "nothing is kept past the watermark");
    }
}
