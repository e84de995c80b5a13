//! `duckchess diagnose`: the catalogued mistakes a program behaves like. It runs the
//! program on the kept witness of every listed mistake
//! ([`crate::catalogue::witnesses`]; one run per distinct input, in parallel, each run
//! as `test` runs a program), and reads its answers against every mistake's mutant
//! ([`crate::catalogue::likeness`]): the mistakes that explain its failures without
//! being contradicted, best first, each with what it does, the rule it breaks and the
//! smallest witness it fails.

use crate::catalogue::likeness::{self, Likeness, Probe, Seen};
use crate::catalogue::witnesses;
use crate::cli::json::Json;
use crate::cli::{self, Opt, Spec, EXIT_FAILURE, EXIT_OK};
use crate::commands::runs::{self, CMD_OPT, DEFAULT_TIMEOUT, JSON_OPT, MEMORY_OPT};
use crate::harness::process::{self, Feed, Run, Sink, Stderr};
use crate::sandbox::group;
use crate::show::record;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest `--timeout`, in seconds.
pub const MAX_TIMEOUT: f64 = 60.0;
/// The most mistakes named in full; the others alike are listed by name.
pub const SHOWN: usize = 5;
/// The most mistakes listed by name after those named in full.
const LISTED: usize = 8;
/// The most bytes of a program's output kept per witness: far more than the longest
/// answer to a witness (40 commands), so that a flood ends the run early.
const KEPT: usize = 64 * 1024;

/// The command line of `diagnose`.
pub const SPEC: Spec = Spec {
    name: "diagnose",
    summary: "name the known mistakes your solution behaves like",
    usage: &["--cmd 'PROGRAM ARGS' [--timeout SECONDS] [--memory MB] [--jobs J] [--json]"],
    about: "\
Runs PROGRAM on the witness of every mistake of the catalogue ('duckchess audit
--list' lists them: each witness is a small input on which that mistake answers
differently from the judge), as 'duckchess test' runs a program (a fresh process
per input, input on stdin, killed after --timeout or once over --memory), and
compares each answer with what each mistake would answer. A mistake explains a
failure when it goes wrong at the same line with the same answer; it is ruled
out where it would go wrong and the program does not, or goes wrong another
way. The mistakes that explain some failures and are never ruled out are
named, the one that explains most first (then the one with the smallest
witness), each with what it does, the rule it breaks, and its smallest witness
the program fails; at most 5 in full, the others alike by name. Failures no
named mistake explains are counted: 'duckchess stress' finds and shrinks one.",
    options: &[
        CMD_OPT,
        Opt::valued(
            "--timeout",
            "SECONDS",
            "time limit per witness (decimals allowed; default 1)",
        ),
        MEMORY_OPT,
        Opt::valued(
            "--jobs",
            "J",
            "witnesses run in parallel (default: the number of cores)",
        ),
        JSON_OPT,
    ],
    conflicts: &[],
    exit: "0 every witness passed, 1 the program failed some (or an I/O error),\n             \
           2 usage error, 128+N ended by signal N (Ctrl-C: 130), after\n             \
           ending the program under test",
};

/// How the program is run.
struct Settings {
    argv: Vec<String>,
    timeout: Duration,
    memory: u64,
    jobs: usize,
    json: bool,
}

/// The `diagnose` subcommand; returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        let argv = runs::program(parsed)?;
        let timeout = parsed
            .seconds("--timeout", MAX_TIMEOUT)?
            .unwrap_or(Duration::from_secs_f64(DEFAULT_TIMEOUT));
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let jobs = parsed.int("--jobs", 1, 1024)?.map_or(cores, |j| j as usize);
        let settings = Settings {
            argv,
            timeout,
            memory: runs::memory_limit(parsed)?,
            jobs,
            json: parsed.flag("--json"),
        };
        Ok(diagnose(&settings))
    })
}

/// The distinct inputs among the kept witnesses, each with the mistakes it is the
/// witness of.
fn probes() -> Vec<(Probe, Vec<&'static str>)> {
    let mut out: Vec<(Probe, Vec<&'static str>)> = Vec::new();
    for (mistake, input) in witnesses::all() {
        match out.iter_mut().find(|(p, _)| p.input == input) {
            Some((_, names)) => names.push(mistake.name()),
            None => {
                if let Some(probe) = Probe::of(input) {
                    out.push((probe, vec![mistake.name()]));
                }
            }
        }
    }
    out
}

/// Runs, reads and reports; returns the exit status.
fn diagnose(s: &Settings) -> u8 {
    let started = Instant::now();
    let probes: Vec<Probe> = probes().into_iter().map(|(p, _)| p).collect();
    group::set_signal_note(
        "duckchess: diagnose: interrupted; witnesses run: ",
        &format!(" of {}", probes.len()),
    );
    let seen = match run_all(s, &probes) {
        Ok(seen) => seen,
        Err(why) => return cli::fail("diagnose", &why),
    };
    let ran = started.elapsed();
    let likeness = likeness::of(&probes, &seen, s.jobs);
    let text = if s.json {
        json_report(&probes, &likeness)
    } else {
        report(s, &probes, &likeness, ran, started.elapsed())
    };
    let mut out = io::stdout().lock();
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    match cli::output_status("diagnose", written) {
        EXIT_OK if likeness.failed.is_empty() => EXIT_OK,
        EXIT_OK => EXIT_FAILURE,
        status => status,
    }
}

/// A program's output, kept up to [`KEPT`] bytes; more settles the run.
#[derive(Default)]
struct Kept(Vec<u8>);

impl Write for Kept {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = KEPT.saturating_sub(self.0.len());
        self.0.extend_from_slice(&buf[..buf.len().min(room)]);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink for Kept {
    fn settled(&self) -> bool {
        self.0.len() >= KEPT
    }
}

/// Runs the program on every probe, `s.jobs` at a time: what it did with each, or why
/// it cannot be run.
fn run_all(s: &Settings, probes: &[Probe]) -> Result<Vec<Seen>, String> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Seen>>> = Mutex::new(vec![None; probes.len()]);
    let broken: Mutex<Option<String>> = Mutex::new(None);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::SeqCst);
        if i >= probes.len() || broken.lock().map_or(true, |b| b.is_some()) {
            break;
        }
        let input = Feed::Bytes(Arc::from(probes[i].input.as_bytes()));
        let mut kept = Kept::default();
        match process::run_program_with(
            &s.argv,
            &input,
            s.timeout,
            s.memory,
            &mut kept,
            Stderr::Discard,
        ) {
            Ok(run) => {
                group::count_for_signal_note(1);
                if let Ok(mut r) = results.lock() {
                    r[i] = Some(seen(&run, &kept.0));
                }
            }
            Err(e) => {
                if let Ok(mut b) = broken.lock() {
                    b.get_or_insert_with(|| process::cannot_run(&s.argv, &e));
                }
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..s.jobs.clamp(1, probes.len().max(1)) {
            scope.spawn(work);
        }
    });
    if let Some(why) = broken.into_inner().ok().flatten() {
        return Err(why);
    }
    let results = results
        .into_inner()
        .map_err(|_| "a run panicked".to_string())?;
    Ok(results
        .into_iter()
        .map(|r| r.unwrap_or(Seen::Failed(Vec::new(), "RE")))
        .collect())
}

/// What a run did: its lines, and the verdict's word when it did not end by itself.
fn seen(run: &Run, output: &[u8]) -> Seen {
    let lines: Vec<String> = String::from_utf8_lossy(output)
        .lines()
        .map(str::to_string)
        .collect();
    match run {
        Run::Finished { failure: None, .. } | Run::Stopped { .. } => Seen::Lines(lines),
        Run::Finished { .. } => Seen::Failed(lines, "RE"),
        Run::TimedOut { .. } => Seen::Failed(lines, "TLE"),
        Run::MemoryOut { .. } => Seen::Failed(lines, "MLE"),
    }
}

/// The report: what ran, the mistakes it behaves like, and what is left unexplained.
fn report(s: &Settings, probes: &[Probe], l: &Likeness, ran: Duration, total: Duration) -> String {
    let program = s.argv.join(" ");
    let mut out = format!(
        "ran {program} on {} witnesses of the {} catalogued mistakes in {:.1} s (read in \
         {:.1} s): it fails {}\n",
        probes.len(),
        crate::catalogue::list::Mistake::all().len(),
        ran.as_secs_f64(),
        (total - ran).as_secs_f64(),
        l.failed.len()
    );
    let stress = format!("'duckchess stress --cmd {}'", quoted(&program));
    if l.failed.is_empty() {
        out.push_str(&format!(
            "it behaves like none of them; {stress} looks further, on cases of every kind\n"
        ));
        return out;
    }
    if l.likes.is_empty() {
        out.push_str(&format!(
            "it behaves like none of them: each mistake is ruled out by some witness; \
             {stress} finds a failing case and shrinks it\n"
        ));
        return out;
    }
    out.push_str("it behaves like (the mistake that explains most failures first):\n");
    let (named, alike) = likeness::distinct(&l.likes);
    for like in named.iter().take(SHOWN) {
        let m = like.mistake;
        let witness = &probes[like.smallest];
        out.push_str(&format!(
            "  {m}: explains {} of the {} failures\n",
            like.explains.len(),
            l.failed.len()
        ));
        out.push_str(&format!("    what it does: {}\n", m.sentence()));
        out.push_str(&format!("    rule:         {}\n", m.rule()));
        out.push_str(&format!(
            "    its smallest witness ({}):\n",
            cli::plural(witness.cmds.len() as u64, "command")
        ));
        for line in witness.input.lines() {
            out.push_str(&format!("      {line}\n"));
        }
    }
    let rest: Vec<String> = named
        .iter()
        .skip(SHOWN)
        .chain(&alike)
        .map(|like| format!("{} ({})", like.mistake, like.explains.len()))
        .collect();
    if !rest.is_empty() {
        let listed = rest.len().min(LISTED);
        let more = match rest.len() - listed {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        out.push_str(&format!(
            "  alike, explaining only failures named above (with how many): {}{more}\n",
            rest[..listed].join(", ")
        ));
    }
    if l.unexplained.is_empty() {
        out.push_str("every failure is explained by a mistake named above\n");
    } else {
        out.push_str(&format!(
            "{} of the {} explained by none of them: {stress} finds one and shrinks it\n",
            cli::plural(l.unexplained.len() as u64, "failure"),
            l.failed.len()
        ));
    }
    out
}

/// The report as JSON Lines: one object per mistake the program behaves like (those a
/// reader needs first, then the alike), then the summary.
fn json_report(probes: &[Probe], l: &Likeness) -> String {
    let (named, alike) = likeness::distinct(&l.likes);
    let mut text = String::new();
    for (like, is_alike) in named
        .iter()
        .map(|x| (x, false))
        .chain(alike.iter().map(|x| (x, true)))
    {
        let m = like.mistake;
        let mut members = record::head("diagnose", "mistake");
        members.extend([
            ("name".to_string(), Json::str(m.name())),
            (
                "explains".to_string(),
                Json::count(like.explains.len() as u64),
            ),
            ("failures".to_string(), Json::count(l.failed.len() as u64)),
            ("alike".to_string(), Json::Bool(is_alike)),
            ("what".to_string(), Json::str(m.sentence())),
            ("rule".to_string(), Json::str(m.rule())),
            (
                "witness".to_string(),
                Json::str(probes[like.smallest].input),
            ),
        ]);
        text.push_str(&record::line(members));
    }
    let mut members = record::head("diagnose", "summary");
    members.extend([
        ("witnesses".to_string(), Json::count(probes.len() as u64)),
        (
            "mistakes".to_string(),
            Json::count(crate::catalogue::list::Mistake::all().len() as u64),
        ),
        ("failed".to_string(), Json::count(l.failed.len() as u64)),
        (
            "unexplained".to_string(),
            Json::count(l.unexplained.len() as u64),
        ),
    ]);
    text.push_str(&record::line(members));
    text
}

/// `text` as one shell word: quoted when it holds a space.
fn quoted(text: &str) -> String {
    if text.contains(' ') {
        format!("'{text}'")
    } else {
        text.to_string()
    }
}
