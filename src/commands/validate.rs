//! `duckchess validate`: the command line over the strict format validator
//! ([`crate::show::format`]).

use crate::cli::{self, Opt, Spec, EXIT_FAILURE, EXIT_INVALID, EXIT_OK};
use crate::show::format::{validate, ValidateError, DEFAULT_MAX_Q};
use std::io::{self, Write};

/// The command line of `validate`.
pub const SPEC: Spec = Spec {
    name: "validate",
    summary: "check that a judge input follows the official format exactly",
    usage: &["[FILE...] [--max-q N]"],
    about: "\
Reads each FILE (standard input when there is none, or for '-') and checks,
testlib style:
  - the first line is Q alone, 0 <= Q <= 1000 (or N with --max-q), digits only,
    no sign and no leading zero;
  - then exactly Q lines 'xs ys xt yt' separated by single spaces, with
    0 <= xs, xt <= 9 and 0 <= ys, yt <= 8, written the same way;
  - every line ends with '\\n' (no '\\r'), and nothing follows the last line.
The input is streamed, so files of any size are fine.

A valid input prints 'ok: Q commands' on stdout. An invalid one prints one line on
stderr, 'duckchess: validate: line L, column C: ...' (columns count bytes from 1).
With several FILEs every one is checked, and each line starts with its name:
'FILE: ok: Q commands', 'duckchess: validate: FILE: line L, column C: ...'.",
    options: &[Opt::valued(
        "--max-q",
        "N",
        "the largest Q accepted (default 1000)",
    )],
    conflicts: &[],
    exit: "0 valid, 1 an unreadable file or an I/O error, 2 usage error, 3 invalid\n             \
           (with several FILEs: 1 if any is unreadable, else 3 if any is invalid)",
};

/// The `validate` subcommand; returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        let max_q = parsed.int("--max-q", 0, u64::MAX)?.unwrap_or(DEFAULT_MAX_Q);
        let files: Vec<Option<&std::ffi::OsStr>> = match parsed.os_operands() {
            [] => vec![None],
            paths => paths
                .iter()
                .map(|p| Some(p.as_os_str()).filter(|p| *p != "-"))
                .collect(),
        };
        let named = files.len() > 1;
        let (mut unreadable, mut invalid) = (false, false);
        for file in files {
            let name = match (named, file) {
                (false, _) => String::new(),
                (true, Some(path)) => format!("{}: ", std::path::Path::new(path).display()),
                (true, None) => "standard input: ".to_string(),
            };
            let input = match cli::open_input("validate", file) {
                Ok(input) => input,
                Err(_) => {
                    unreadable = true;
                    continue;
                }
            };
            match validate(input, max_q) {
                Ok(q) => {
                    let mut out = io::stdout().lock();
                    let line = format!("{name}ok: {}\n", cli::plural(q, "command"));
                    let written = out.write_all(line.as_bytes()).and_then(|()| out.flush());
                    if cli::output_status("validate", written) != EXIT_OK {
                        return Ok(EXIT_FAILURE);
                    }
                }
                Err(ValidateError::Format(e)) => {
                    cli::say("validate", &format!("{name}{e}"));
                    invalid = true;
                }
                Err(e) => {
                    cli::say("validate", &format!("{name}{e}"));
                    unreadable = true;
                }
            }
        }
        Ok(if unreadable {
            EXIT_FAILURE
        } else if invalid {
            EXIT_INVALID
        } else {
            EXIT_OK
        })
    })
}
