//! `duckchess export`: the command line over [`crate::export`]: a test set packaged as a
//! zip archive for Luogu, HydroOJ, UOJ, Polygon or the ICPC problem package (DOMjudge,
//! Kattis), the solutions the user names tried on it first.

use crate::cli::{self, Opt, Spec, EXIT_INVALID};
use crate::export::solutions::{Role, Solution};
use crate::export::target::{write, Contents, ExportError};
use crate::export::trial::table;
use crate::export::{Judge, Limits};
use std::io::{self, Write};
use std::path::Path;

/// The command line of `export`.
pub const SPEC: Spec = Spec {
    name: "export",
    summary: "package a test set for Luogu, HydroOJ, UOJ, Polygon or ICPC",
    usage: &[
        "--for JUDGE -o FILE [--time SECONDS] [--memory MB] [--wrong SOURCE]... \
              [--accepted SOURCE]... [--testlib FILE] [PATH...]",
    ],
    about: "\
Reads the cases under each PATH (default: the current folder) as 'test' pairs
them: every X.in with X.out or X.ans, folders in natural order; an input named
alone takes the judge's answer. Each input must pass 'duckchess validate' and
each answer must be the judge's (whitespace that online judges ignore aside),
else nothing is written. At most 100 cases. The cases are numbered from 1 in
that order, their bytes kept as they are, and written as one zip archive:
  luogu    1.in, 1.out, ... and config.yml: each case's time, memory and
           score, the 100 points shared out
  hydro    1.in, 1.out, ... and config.yaml: time, memory, one subtask a
           case, the 100 points shared out
  uoj      problem.conf (limits, output 64 MB, each case's point_score),
           duckchess1.in, duckchess1.ans, ..., chk.cpp (checker), val.cpp
           (validator) and std.cpp (the reference solution, for hacks)
  polygon  Polygon's package: problem.xml, tests/01, tests/01.a, ..., files/
           (checker and validator with their tests), solutions/ (main: the
           reference; accepted: the judge in Rust; the named ones)
  icpc     the ICPC problem package that DOMjudge and Kattis take:
           problem.yaml, data/sample, data/secret, input_validators/,
           submissions/accepted (the reference in C++, the judge in Rust),
           submissions/wrong_answer (the --wrong ones)
The limits are the statement's (1 s, 128 MiB) unless --time and --memory say
otherwise. The C++ checker and validators of UOJ and Polygon use testlib.h,
which the judges provide; Polygon's package lists it in files/ when --testlib
gives a copy.

Each SOURCE (.cpp, .c, .rs or .py) is built and run on every case first, as
the judge would: a correct one must pass every case and a wrong one must get WA
on the first case it fails, and a table shows what each got. A wrong solution that passes every case
means the data misses it: nothing is written.

FILE is written aside and renamed into place, so it is whole or absent. It may
be missing, empty, or an archive export wrote, which is replaced; any other
file makes export refuse, touching nothing.",
    options: &[
        Opt::valued(
            "--for",
            "JUDGE",
            "luogu, hydro, uoj, polygon or icpc (required)",
        ),
        Opt::valued("--output", "FILE", "the zip archive to write (required)").short("-o"),
        Opt::valued(
            "--time",
            "SECONDS",
            "the time limit of each case, whole seconds (default 1)",
        ),
        Opt::valued(
            "--memory",
            "MB",
            "the memory limit of each case, in MiB (default 128)",
        ),
        Opt::valued(
            "--wrong",
            "SOURCE",
            "a wrong solution: must get WA on the first case it fails; packaged \
             where the judge keeps solutions (polygon, icpc); may be given again",
        )
        .repeated(),
        Opt::valued(
            "--accepted",
            "SOURCE",
            "another correct solution: must pass every case; packaged like --wrong",
        )
        .repeated(),
        Opt::valued(
            "--testlib",
            "FILE",
            "testlib.h to put in the Polygon package's files/ (scripts/fetch-testlib.sh \
             fetches it)",
        ),
    ],
    conflicts: &[],
    exit: "0 success, 1 I/O error, a FILE export did not write, an unreadable\n             \
           test set or a SOURCE that does not build, 2 usage error, 3 an invalid\n             \
           input or a wrong answer, 4 a SOURCE that did not get its verdict",
};

/// Exit status: a named solution did not get the verdict it should.
pub const EXIT_VERDICT: u8 = 4;

/// The `export` subcommand.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        let judge: Judge = parsed
            .value("--for")
            .ok_or("missing --for JUDGE")?
            .parse()
            .map_err(|e| format!("--for: {e}"))?;
        let out = parsed.path("--output")?.ok_or("missing -o FILE")?;
        let paths = match parsed.operands()? {
            [] => vec![".".to_string()],
            paths => paths.to_vec(),
        };
        let (least, most) = Limits::MEMORY_RANGE;
        let limits = Limits {
            seconds: parsed
                .int("--time", 1, Limits::MAX_SECONDS)?
                .unwrap_or(Limits::STATEMENT.seconds),
            memory_mb: parsed
                .int("--memory", least, most)?
                .unwrap_or(Limits::STATEMENT.memory_mb),
        };
        let mut named = Vec::new();
        for (option, role) in [("--accepted", Role::Accepted), ("--wrong", Role::Wrong)] {
            for path in parsed.values(option) {
                match Solution::read(path, role) {
                    Ok(s) => named.push(s),
                    Err(e) => return Ok(cli::fail("export", &format!("{option}: {e}"))),
                }
            }
        }
        let testlib = match parsed.path("--testlib")? {
            None => None,
            Some(path) => match cli::read_small_file(path, TESTLIB_LIMIT) {
                Ok(bytes) => Some(bytes),
                Err(e) => {
                    let message = format!("--testlib: cannot read {path}: {e}");
                    return Ok(cli::fail("export", &message));
                }
            },
        };
        let contents = Contents {
            limits,
            named,
            testlib,
        };
        Ok(export(&paths, judge, contents, Path::new(out)))
    })
}

/// The largest testlib.h read (it is about 200 KB).
const TESTLIB_LIMIT: u64 = 4 << 20;

/// Writes the package and says what it wrote; returns the exit status.
fn export(paths: &[String], judge: Judge, contents: Contents, out: &Path) -> u8 {
    let named = !contents.named.is_empty();
    let polygon_without_testlib = judge == Judge::Polygon && contents.testlib.is_none();
    let exported = match write(paths, judge, contents, out) {
        Ok(e) => e,
        Err(e @ ExportError::Cases(_)) if e.is_invalid() => {
            cli::say("export", &e.to_string());
            return EXIT_INVALID;
        }
        Err(ExportError::Verdicts(trials)) => {
            let mut stdout = io::stdout().lock();
            let _ = stdout
                .write_all(table(&trials).as_bytes())
                .and_then(|()| stdout.flush());
            cli::say("export", &ExportError::Verdicts(trials).to_string());
            return EXIT_VERDICT;
        }
        Err(e) => return cli::fail("export", &e.to_string()),
    };
    let mut text = String::new();
    if named {
        text.push_str(&table(&exported.trials));
    }
    text.push_str(&format!(
        "wrote {} for {}: {}, {} in {} bytes\n",
        out.display(),
        judge.title(),
        cli::plural(exported.cases.len() as u64, "case"),
        cli::plural(exported.files.len() as u64, "file"),
        exported.bytes
    ));
    if polygon_without_testlib {
        text.push_str(
            "files/testlib.h is not in it: Polygon provides its own; for a converter, \
             add it with --testlib (scripts/fetch-testlib.sh fetches it)\n",
        );
    }
    let mut stdout = io::stdout().lock();
    cli::output_status(
        "export",
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush()),
    )
}
