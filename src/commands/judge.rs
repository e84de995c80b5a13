//! `duckchess judge [FILE]`: the judge on a file or standard input (with no subcommand
//! at all, the binary runs the judge on standard input). The judge itself is
//! [`crate::judge::serve`]; this is only the command line around it.

use crate::cli::{self, Spec};
use crate::judge;
use std::io::{self, IsTerminal};

/// The command line of `judge`.
pub const SPEC: Spec = Spec {
    name: "judge",
    summary: "answer Q commands as the THUPC 2019 judge does",
    usage: &["[FILE]"],
    about: "\
'duckchess < FILE', with no subcommand, is the same on standard input (in
PowerShell, which has no '<': Get-Content FILE | duckchess, or duckchess judge
FILE).

Reads Q, then Q commands 'xs ys xt yt', from FILE (standard input when FILE is
absent or '-') and writes one line per command: 'Invalid command', or
'<side> <piece>;<captured piece or NA>;<check yes/no>;<game over yes/no>'.

Tokens may be separated by any whitespace. Off-board coordinates are invalid
commands. Input after the Q-th command is ignored with a note on stderr. A missing
or malformed token stops the run after answering every earlier command: the message
names its line and column. A closed standard output ends the run quietly.",
    options: &[],
    conflicts: &[],
    exit: "0 success, 1 bad input or I/O error, 2 usage error",
};

/// The `judge` subcommand.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        let path = parsed.file()?;
        if path.is_none_or(|p| p == "-") {
            return Ok(stdin("judge"));
        }
        Ok(match cli::open_input("judge", path) {
            Ok(input) => judge::run::serve_with(input, &|m| cli::say("judge", m)),
            Err(status) => status,
        })
    })
}

/// The judge on standard input, as `duckchess` with no subcommand runs it. On a
/// terminal, one line on standard error first says what it waits for, so that nobody
/// is left before a silent prompt.
pub fn stdin(command: &str) -> u8 {
    if io::stdin().is_terminal() {
        cli::say(
            command,
            "reading judge input from the terminal: Q, then Q lines 'xs ys xt yt'; \
             end it with Ctrl-D ('duckchess --help' for more)",
        );
    }
    judge::run::serve_with(io::stdin().lock(), &|m| cli::say(command, m))
}
