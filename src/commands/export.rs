//! `duckchess export`: the command line over [`crate::export`]: a test set packaged as a
//! zip archive for Luogu, HydroOJ, UOJ or Polygon.

use crate::cli::{self, Opt, Spec, EXIT_INVALID};
use crate::export::target::{write, ExportError};
use crate::export::Judge;
use std::io::{self, Write};
use std::path::Path;

/// The command line of `export`.
pub const SPEC: Spec = Spec {
    name: "export",
    summary: "package a test set for Luogu, HydroOJ, UOJ or Polygon",
    usage: &["--for JUDGE -o FILE [PATH...]"],
    about: "\
Reads the cases under each PATH (default: the current folder) as 'test' pairs
them: every X.in with X.out or X.ans, folders in natural order; an input named
alone takes the judge's answer. Each input must pass 'duckchess validate' and
each answer must be the judge's (whitespace that online judges ignore aside),
else nothing is written. At most 100 cases. The cases are numbered from 1 in
that order, their bytes kept as they are, and written as one zip archive:
  luogu    1.in, 1.out, ... at the root (set limits on the problem's page)
  hydro    1.in, 1.out, ... and config.yaml: time 1s, memory 128m, one
           subtask a case, the 100 points shared out
  uoj      problem.conf (n_tests, limits 1 s and 128 MB, output 64 MB),
           duckchess1.in, duckchess1.ans, ..., chk.cpp and val.cpp
  polygon  tests/01, tests/01.a, ..., validator.cpp and checker.cpp
The C++ files use testlib.h, which the judges provide: the validator refuses
what 'duckchess validate' refuses, and the checker compares lines as 'duckchess
test' does by default (whitespace at line ends and blank lines at the end do
not count).

FILE is written aside and renamed into place, so it is whole or absent. It may
be missing, empty, or an archive export wrote, which is replaced; any other
file makes export refuse, touching nothing.",
    options: &[
        Opt::valued("--for", "JUDGE", "luogu, hydro, uoj or polygon (required)"),
        Opt::valued("--output", "FILE", "the zip archive to write (required)").short("-o"),
    ],
    conflicts: &[],
    exit: "0 success, 1 I/O error, a FILE export did not write or an unreadable\n             \
           test set, 2 usage error, 3 an invalid input or a wrong answer",
};

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
        Ok(export(&paths, judge, Path::new(out)))
    })
}

/// Writes the package and says what it wrote; returns the exit status.
fn export(paths: &[String], judge: Judge, out: &Path) -> u8 {
    let exported = match write(paths, judge, out) {
        Ok(e) => e,
        Err(e @ ExportError::Cases(_)) if e.is_invalid() => {
            cli::say("export", &e.to_string());
            return EXIT_INVALID;
        }
        Err(e) => return cli::fail("export", &e.to_string()),
    };
    let text = format!(
        "wrote {} for {}: {}, {} in {} bytes\n",
        out.display(),
        judge.title(),
        cli::plural(exported.cases.len() as u64, "case"),
        cli::plural(exported.files.len() as u64, "file"),
        exported.bytes
    );
    let mut stdout = io::stdout().lock();
    cli::output_status(
        "export",
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush()),
    )
}
