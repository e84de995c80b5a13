//! `duckchess test`: a sample tester in the spirit of `oj test` and `cargo compete test`,
//! specialised for this game.
//!
//! It pairs every `X.in` with `X.out` (or `X.ans`; a file named alone without one is
//! judged against the built-in judge), runs either the built-in judge (in process,
//! through [`mod@crate::judge::run`]) or any other program (`--cmd`, input on stdin, killed
//! after `--timeout` or once over `--memory`), and compares the output with the answer
//! as it streams (as the online judge does by default, or byte for byte with
//! `--exact`), so no case is too large. A wrong
//! answer is explained in terms of the game by [`crate::show::diagnose`]. The samples
//! are also built into the binary ([`crate::commands::samples`]).

use crate::cli::json::Json;
use crate::cli::{self, help, Opt, Spec, EXIT_FAILURE, EXIT_OK};
use crate::commands::runs::{
    self, ASCII_OPT, COMPARISON_CONFLICT, DEFAULT_TIMEOUT, EXACT_OPT, IGNORE_WHITESPACE_OPT,
    JSON_OPT, MEMORY_OPT,
};
use crate::commands::samples::{Sample, LENIENT, SAMPLES};
use crate::harness::cases::{collect, kept_path, Case, CollectError, Reference};
use crate::harness::process::{split_command, Feed, Runner};
use crate::harness::verdict::{run_case, CaseRun, Options, OUTPUT_LIMIT_MB};
use crate::show::diagnose::report;
use crate::show::explain;
use crate::show::record;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The directory tested when no PATH is given.
pub const DEFAULT_PATH: &str = "samples";

/// The built-in samples as cases, named `built-in/NAME`: those in the official format,
/// or with `lenient` those beyond it, named `built-in/lenient/NAME`.
pub fn builtin_cases(lenient: bool) -> Vec<Case> {
    let (list, prefix): (&[Sample], _) = if lenient {
        (&LENIENT, "built-in/lenient/")
    } else {
        (&SAMPLES, "built-in/")
    };
    list.iter()
        .map(|s| Case {
            name: format!("{prefix}{}", s.name),
            input: Feed::Bytes(Arc::from(s.input.as_bytes())),
            answer: Reference::Text(s.answer),
            beyond_format: lenient,
        })
        .collect()
}

/// What a report adds when a case beyond the official format fails.
const BEYOND_FORMAT: &str = "this case goes beyond the official input format (odd \
whitespace or coordinates off the board), which the judge accepts but no official test \
holds: a correct solution may fail it";

/// The longest `--timeout`, in seconds (an hour).
pub const MAX_TIMEOUT: f64 = 3600.0;

/// The command line of `test`.
pub const SPEC: Spec = Spec {
    name: "test",
    summary: "run the judge or your own solution on cases and compare",
    usage: &[
        "[PATH...] [--samples] [--lenient] [--cmd 'PROGRAM ARGS'] [--timeout SECONDS] [--memory MB] [--exact | --ignore-whitespace] [--diff] [--keep DIR] [--output-limit MB] [--ascii] [--json]",
    ],
    about: "\
Each PATH is a directory or a file; every X.in is paired with X.out (or X.ans).
An X.in named on the command line without either is compared with what the
built-in judge answers; in a directory it is skipped with a note. Without a
PATH: ./samples if it is a directory, else the samples built into the binary
(the statement's and the repository's, all in the official input format;
--samples picks them always). --lenient adds the built-in cases that go beyond
that format, labelled built-in/lenient/. Options may come before or after the
paths.

By default the built-in judge runs each case (in process). With --cmd, PROGRAM
runs once per case with the input on stdin, e.g. --cmd ./a.out (on Windows
--cmd a.exe or .\\a.exe: a program in the current folder is found as cmd.exe finds
it) or --cmd 'python3 sol.py'. The command is split into words at whitespace;
'single' and \"double\" quotes group words (inside double quotes \\\" and \\\\ stand
for \" and \\) and a backslash keeps the next character (on Unix: on Windows it is
the folder separator); no other shell syntax. On Unix the program
gets a process group of its own, and a timeout kills the whole group. On Linux
it runs under a supervisor of the run, the subreaper of that run alone, and in a
control group of its own where one can be made: after each run, every process
of the run is ended and reaped, whatever its session, group, descriptors or
environment (a daemon started with setsid, a double fork). Other Unix systems
end only the group: a process that leaves it and outlives its parent survives
there. On Windows the program runs in a job object, which holds all it starts:
a timeout, and the end of the run, end them all. Its output
is compared as it comes: no case is too large, and memory stays flat. Once the
output is sure to differ, at most 1 MiB more is read: a program that floods its
output is stopped there (WA). Once the program exits, its output is read for at
most 0.5 s more (never past the time limit) if something it left running holds
it open; that process is then killed, and the verdict rests on what came.

The output is compared as the online judge does by default: whitespace at line
ends (spaces, tabs, a CR before the LF) and blank lines at the end do not count,
everything else does. --exact compares byte for byte.

One line per case: the verdict, the case name, the time in ms and, for --cmd,
the peak memory in MB (of 2^20 bytes) and how it was counted: (control group),
the kernel's peak of the run's group; (process tree, PSS), the proportional
memory of the run's processes, sampled, where no group can be made (Linux); or
(job object) on Windows.
  AC   the output equals the answer (a note says when only whitespace that the
       online judge ignores differs)
  WA   it does not: the first differing line, its input command, the expected
       and actual lines, what differs (letter case, spacing, spelling, a
       missing or extra line; or which answers: moved piece, captured piece,
       check, game over, valid vs invalid), why the judge decides as it does
       (also why a position is not check), and the board before and after the
       command with the move marked in [ ] (a blocking square in ( ))
  RE   the program exited with a non-zero status or was killed by a signal:
       which (exit status 3, killed by SIGSEGV), and the last lines of its
       standard error
  TLE  it ran longer than the time limit and was killed
  MLE  its memory went over the limit (it is killed as soon as it is seen)
Then 'N passed, M failed'. Every case runs even when stdout is closed early.

--diff adds under a WA the output beside the answer, line by line, with line
numbers, each differing line marked '!': every line when neither has more than
100, else the lines around each difference, at most 60 rows. --keep DIR keeps
each case's output as DIR/NAME.out (NAME the case's name, folders and all),
written whole, as far as it was read; a file that is a case's answer (an X.out
or X.ans beside an X.in) is never written over. An output that cannot be kept
is said on stderr, and the exit status is 1.",
    options: &[
        Opt::flag(
            "--samples",
            "the samples built into the binary (besides any PATH)",
        ),
        Opt::flag(
            "--lenient",
            "also the built-in cases beyond the official input format (odd whitespace, coordinates off the board), which the judge accepts: a correct solution may fail them",
        ),
        Opt::valued(
            "--cmd",
            "'PROGRAM ARGS'",
            "run this program instead of the built-in judge",
        ),
        Opt::valued(
            "--timeout",
            "SECONDS",
            "time limit per case for --cmd (decimals allowed; default 1, the statement's)",
        ),
        MEMORY_OPT,
        EXACT_OPT,
        IGNORE_WHITESPACE_OPT,
        Opt::flag(
            "--diff",
            "under a wrong answer, the output beside the answer line by line, differing lines marked",
        ),
        Opt::valued(
            "--keep",
            "DIR",
            "keep each case's output as DIR/NAME.out (never over a case's answer)",
        ),
        Opt::valued(
            "--output-limit",
            "MB",
            "the most output a case may write: past it the program is stopped and judged OLE, and no more is kept (default 64, UOJ's)",
        ),
        ASCII_OPT,
        JSON_OPT,
    ],
    conflicts: &[COMPARISON_CONFLICT],
    exit: "0 every case passed, 1 a case failed or an I/O error, 2 usage error,\n             \
           128+N ended by signal N (Ctrl-C: 130), after ending the program under test",
};

/// The largest `--output-limit`, in MiB.
const MAX_OUTPUT_LIMIT_MB: u64 = 1 << 20;

/// The `test` subcommand; returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        let timeout = parsed
            .seconds("--timeout", MAX_TIMEOUT)?
            .unwrap_or(Duration::from_secs_f64(DEFAULT_TIMEOUT));
        let runner = match parsed.value("--cmd") {
            None => Runner::Builtin,
            Some(text) => Runner::Program {
                argv: split_command(text).map_err(|e| format!("--cmd: {e}"))?,
                timeout,
                memory: runs::memory_limit(parsed)?,
            },
        };
        let options = Options {
            runner,
            exact: parsed.flag("--exact"),
            ascii: parsed.flag("--ascii"),
            diff: parsed.flag("--diff"),
            keep: parsed.value("--keep").map(PathBuf::from),
            output_limit: parsed
                .int("--output-limit", 1, MAX_OUTPUT_LIMIT_MB)?
                .unwrap_or(OUTPUT_LIMIT_MB)
                << 20,
        };
        let no_path = parsed.operands()?.is_empty();
        let builtin = parsed.flag("--samples") || (no_path && !Path::new(DEFAULT_PATH).is_dir());
        let mut cases = if builtin {
            builtin_cases(false)
        } else {
            Vec::new()
        };
        let paths = if no_path && !builtin {
            vec![DEFAULT_PATH.to_string()]
        } else {
            parsed.operands()?.to_vec()
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
        if parsed.flag("--lenient") {
            cases.extend(builtin_cases(true));
        }
        Ok(run_all(&cases, &options, parsed.flag("--json")))
    })
}

/// Runs every case, prints the reports and the closing line; returns the exit status.
/// A closed stdout stops the printing, not the cases: a failure still means status 1.
fn run_all(cases: &[Case], options: &Options, json: bool) -> u8 {
    let color = explain::stdout_color();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let (mut passed, mut failed) = (0, 0);
    let mut closed = false;
    let mut unkept = false;
    for case in cases {
        let CaseRun {
            verdict: outcome,
            elapsed,
            peak,
            kept_note,
            held_note,
            difference,
        } = match run_case(case, options) {
            Ok(r) => r,
            Err(e) => {
                let _ = out.flush();
                return cli::fail("test", &e);
            }
        };
        // An output asked to be kept and not kept is an I/O error: status 1.
        unkept |= kept_note.is_some();
        if outcome.passed() {
            passed += 1;
        } else {
            failed += 1;
        }
        if closed {
            if let Some(note) = kept_note {
                cli::say("test", &note);
            }
            continue;
        }
        let mut text = report(&case.name, &outcome, elapsed, peak, color && !json);
        if case.beyond_format && !outcome.passed() {
            text.push_str(&help::filled(BEYOND_FORMAT, "    note: ", "          "));
        }
        if let Some(note) = held_note {
            // Under the verdict line, as a wrong answer's details are.
            for line in note.lines() {
                text.push_str(&format!("  {line}\n"));
            }
        }
        if json {
            let mut members = record::head("test", "case");
            members.push(("name".to_string(), Json::str(case.name.clone())));
            let file = match &case.input {
                Feed::File(p) => Json::str(p.display().to_string()),
                Feed::Bytes(_) => Json::Null,
            };
            members.push(("file".to_string(), file));
            members.extend(record::judged(
                &outcome,
                elapsed,
                peak,
                difference.as_ref(),
                &text,
            ));
            let kept = options
                .keep
                .as_ref()
                .filter(|_| kept_note.is_none())
                .map_or(Json::Null, |dir| {
                    Json::str(kept_path(dir, case).display().to_string())
                });
            members.push(("kept".to_string(), kept));
            text = record::line(members);
        }
        let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        // Said after the case's report, which it belongs to.
        if let Some(note) = kept_note {
            cli::say("test", &note);
        }
        match written {
            Err(e) if cli::is_closed(&e) => closed = true,
            Err(e) => return cli::output_status("test", Err(e)),
            Ok(()) => {}
        }
    }
    let status = if closed {
        EXIT_OK
    } else {
        let last = if json {
            let mut members = record::head("test", "summary");
            members.push(("passed".to_string(), Json::count(passed)));
            members.push(("failed".to_string(), Json::count(failed)));
            record::line(members)
        } else {
            format!("{passed} passed, {failed} failed\n")
        };
        let written = out.write_all(last.as_bytes()).and_then(|()| out.flush());
        cli::output_status("test", written)
    };
    if failed > 0 || unkept {
        EXIT_FAILURE
    } else {
        status
    }
}
