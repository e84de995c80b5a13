//! Command-line plumbing shared by the subcommands: a small option parser, usage errors,
//! exit codes, and the `judge` subcommand's file handling. Not on the judge path.

use crate::judge;
use std::fs::File;
use std::io::{self, Write};
use std::str::FromStr;

/// Success.
pub const EXIT_OK: u8 = 0;
/// Bad input, a failed check (a failing sample, a lost game), or an I/O error.
pub const EXIT_FAILURE: u8 = 1;
/// A usage error: unknown subcommand or option, missing or malformed option value.
pub const EXIT_USAGE: u8 = 2;
/// `validate`: the input breaks the strict format.
pub const EXIT_INVALID: u8 = 3;

/// The top-level help.
pub const HELP: &str = "\
duckchess: judge and toolkit for THUPC 2019 \"Duck Chess\" (Luogu P5380)

usage:
  duckchess [judge [FILE]]       answer Q commands from FILE or stdin, as the judge expects
  duckchess gen --seed S [--q N] [--mode M]   write a seeded judge input
  duckchess test [PATH...] [--cmd 'PROGRAM ARGS'] [--timeout SECONDS]
                                 run the judge or your solution on samples, compare
  duckchess trace [FILE] [--from POSITION] [--every N | --at K] [--ascii]
                                 replay an input: verdicts, reasons, board diagrams
  duckchess validate [FILE] [--max-q N]       check a judge input's strict format
  duckchess perft DEPTH [--from POSITION] [--divide]   count move sequences
  duckchess arena --red KIND --blue KIND [--games N] [--think MS]   computer games
  duckchess play [--red human|ai] [--blue human|ai] [--think MS]   play at the terminal
  duckchess bundle [-o FILE]     the judge as one Rust file for online judges
  duckchess chase < 'n r1 c1 r2 c2'   solve the CQOI 2013 board game
  duckchess SUBCOMMAND --help    help on one subcommand

subcommands:
  judge      the judge (also what runs with no subcommand)
  gen        seeded input generator (modes: official, legal, endgame, check, big)
  test       sample tester: AC/WA/RE/TLE per case, WA explained move by move
  trace      replay a judge input and show the game
  validate   strict input validator for problem setters (testlib style)
  chase      solve the CQOI 2013 board game (n r1 c1 r2 c2 on stdin)
  perft      count the move sequences of a given length (tests the move generator)
  arena      games between computer players (ai, random, greedy) with the score
  play       play at the terminal against a person or the computer
  bundle     one self-contained source file (Rust 1.63+) for judge submission

exit status: 0 success, 1 bad input or failure, 2 usage error, 3 invalid input (validate)
";

/// Parsed arguments of one subcommand: options (with or without a value) and operands.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Operands, in order.
    pub operands: Vec<String>,
    options: Vec<(String, Option<String>)>,
}

impl Parsed {
    /// Whether the flag `name` (e.g. `--ascii`) was given.
    pub fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    /// The value of the last `name VALUE` given, if any.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The value of `name` parsed as a `T`, with a usage message naming the option when
    /// it does not parse.
    pub fn number<T: FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.value(name) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| format!("{name}: expected a number, found {v:?}")),
        }
    }
}

/// Parses `args`: `valued` options take a value (`--opt VALUE` or `--opt=VALUE`), `flags`
/// take none; `-h`/`--help` is always a flag; `--` ends the options; `-` is an operand.
/// Options and operands may come in any order.
pub fn parse(args: &[String], valued: &[&str], flags: &[&str]) -> Result<Parsed, String> {
    let mut parsed = Parsed::default();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            parsed.operands.extend(rest.cloned());
            break;
        }
        if !arg.starts_with('-') || arg == "-" || is_number(arg) {
            parsed.operands.push(arg.clone());
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        let name = if name == "-h" { "--help" } else { name };
        if name == "--help" || flags.contains(&name) {
            if inline.is_some() {
                return Err(format!("{name} takes no value"));
            }
            parsed.options.push((name.to_string(), None));
        } else if valued.contains(&name) {
            let value = match inline {
                Some(v) => v,
                None => rest
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("{name} needs a value"))?,
            };
            parsed.options.push((name.to_string(), Some(value)));
        } else {
            return Err(format!("unknown option {name}"));
        }
    }
    Ok(parsed)
}

fn is_number(arg: &str) -> bool {
    arg.len() > 1 && arg[1..].bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// The opening every subcommand shares: parses `args` (see [`parse`]), and answers a
/// usage error or `--help` itself. `Err` carries the exit status to end with.
pub fn start(
    command: &str,
    args: &[String],
    valued: &[&str],
    flags: &[&str],
    help: &str,
) -> Result<Parsed, u8> {
    let parsed = parse(args, valued, flags).map_err(|e| usage_error(command, &e))?;
    if parsed.flag("--help") {
        return Err(print_help(help));
    }
    Ok(parsed)
}

impl Parsed {
    /// A usage error of `command` when any operand was given.
    pub fn no_operands(&self, command: &str) -> Result<(), u8> {
        match self.operands.first() {
            Some(extra) => Err(usage_error(
                command,
                &format!("unexpected argument {extra:?}"),
            )),
            None => Ok(()),
        }
    }
}

/// The exit status after a subcommand's I/O: 0 when it went well, and also when
/// standard output was closed early (nobody is left to tell); otherwise a note
/// `<context>: <error>` and [`EXIT_FAILURE`].
pub fn io_status(context: &str, result: io::Result<()>) -> u8 {
    match result {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            judge::note(&format!("{context}: {e}"));
            EXIT_FAILURE
        }
        _ => EXIT_OK,
    }
}

/// Reports a usage error of `command` on standard error and returns [`EXIT_USAGE`].
pub fn usage_error(command: &str, message: &str) -> u8 {
    judge::note(&format!(
        "{command}: {message} (see 'duckchess {command} --help')"
    ));
    EXIT_USAGE
}

/// Prints `text` on standard output; a closed pipe is not an error worth a message.
pub fn print_help(text: &str) -> u8 {
    let _ = io::stdout().write_all(text.as_bytes());
    EXIT_OK
}

const JUDGE_HELP: &str = "\
duckchess judge: answer duck chess commands as the THUPC 2019 judge does

usage: duckchess judge [FILE]
       duckchess [< FILE]

Reads Q, then Q commands 'xs ys xt yt', from FILE (or stdin when FILE is absent or '-')
and writes one line per command: 'Invalid command', or
'<side> <piece>;<captured or NA>;<check yes/no>;<game over yes/no>'.

Tokens may be separated by any whitespace. Off-board coordinates are invalid commands.
Input after the Q-th command is ignored with a note on stderr. A missing or malformed
token stops the run after answering every earlier command: the error names its line and
column, and the exit status is 1.
";

/// The `judge` subcommand: `duckchess judge [FILE]`.
pub fn judge(args: &[String]) -> u8 {
    let parsed = match start("judge", args, &[], &[], JUDGE_HELP) {
        Ok(p) => p,
        Err(status) => return status,
    };
    match parsed.operands.as_slice() {
        [] => judge::serve(io::stdin().lock()),
        [path] if path == "-" => judge::serve(io::stdin().lock()),
        [path] => match File::open(path) {
            Ok(file) => judge::serve(file),
            Err(e) => {
                judge::note(&format!("cannot open {path}: {e}"));
                EXIT_FAILURE
            }
        },
        _ => usage_error("judge", "expected at most one FILE"),
    }
}
