//! `duckchess validate`: the command line over the strict format validator
//! ([`crate::check::format`]).

use crate::check::format::{validate, ValidateError, DEFAULT_MAX_Q};
use crate::cli::{self, Opt, Spec, EXIT_INVALID};
use std::io::{self, Write};

/// The command line of `validate`.
pub const SPEC: Spec = Spec {
    name: "validate",
    summary: "check that a judge input follows the official format exactly",
    usage: &["[FILE] [--max-q N]"],
    about: "\
Reads FILE (standard input when FILE is absent or '-') and checks, testlib style:
  - the first line is Q alone, 0 <= Q <= 1000 (or N with --max-q), digits only,
    no sign and no leading zero;
  - then exactly Q lines 'xs ys xt yt' separated by single spaces, with
    0 <= xs, xt <= 9 and 0 <= ys, yt <= 8, written the same way;
  - every line ends with '\\n' (no '\\r'), and nothing follows the last line.
The input is streamed, so files of any size are fine.

A valid input prints 'ok: Q commands' on stdout. An invalid one prints one line on
stderr, 'duckchess: validate: line L, column C: ...' (columns count bytes from 1).",
    options: &[Opt::valued(
        "--max-q",
        "N",
        "the largest Q accepted (default 1000)",
    )],
    conflicts: &[],
    exit: "0 valid, 1 unreadable file or I/O error, 2 usage error, 3 invalid",
};

/// The `validate` subcommand; returns the exit status.
pub fn cli(args: &[String]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        let max_q = parsed.int("--max-q", 0, u64::MAX)?.unwrap_or(DEFAULT_MAX_Q);
        let input = match cli::open_input("validate", parsed.file()?) {
            Ok(input) => input,
            Err(status) => return Ok(status),
        };
        Ok(match validate(input, max_q) {
            Ok(q) => {
                let mut out = io::stdout().lock();
                let line = format!("ok: {}\n", cli::plural(q, "command"));
                cli::output_status(
                    "validate",
                    out.write_all(line.as_bytes()).and_then(|()| out.flush()),
                )
            }
            Err(ValidateError::Format(e)) => {
                cli::say("validate", &e.to_string());
                EXIT_INVALID
            }
            Err(e) => cli::fail("validate", &e.to_string()),
        })
    })
}
