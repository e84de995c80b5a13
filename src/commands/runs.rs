//! The options of the subcommands that run a contestant's program on cases (`test`,
//! `stress` and `diagnose`), written once: the program, the limits a judge sets (time,
//! memory) and how an output is compared with the answer.

use crate::cli::{Opt, Parsed};
use crate::harness::process::split_command;
use crate::sandbox::memory;

/// The default memory limit in MB (mebibytes, as judges count): the statement's.
pub const DEFAULT_MEMORY: u64 = 128;
/// The largest `--memory`, in MB.
pub const MAX_MEMORY: u64 = 65_536;
/// The default time limit per case, in seconds: the statement's.
pub const DEFAULT_TIMEOUT: f64 = 1.0;

/// `--cmd`, required, as `stress` and `diagnose` take it.
pub const CMD_OPT: Opt = Opt::valued(
    "--cmd",
    "'PROGRAM ARGS'",
    if cfg!(windows) {
        "required: the program under test, e.g. --cmd .\\a.exe"
    } else {
        "required: the program under test, e.g. --cmd ./a.out"
    },
);

/// The required `--cmd` of a command line, split into words.
pub fn program(parsed: &Parsed) -> Result<Vec<String>, String> {
    let text = parsed
        .value("--cmd")
        .ok_or("--cmd 'PROGRAM ARGS' is required")?;
    split_command(text).map_err(|e| format!("--cmd: {e}"))
}

/// `--memory`, as `test` and `stress` take it.
pub const MEMORY_OPT: Opt = Opt::valued(
    "--memory",
    "MB",
    "memory limit per case for --cmd, in MB of 2^20 bytes (1 to 65536; default 128, the statement's): MLE over it, and the program is stopped",
);
/// `--exact`, as `test` and `stress` take it.
pub const EXACT_OPT: Opt = Opt::flag(
    "--exact",
    "compare byte for byte, rather than as the online judge does by default (whitespace at line ends, CR before LF and blank lines at the end do not count)",
);
/// `--ignore-whitespace`, the default comparison's name, kept for scripts.
pub const IGNORE_WHITESPACE_OPT: Opt = Opt::flag(
    "--ignore-whitespace",
    "the default comparison, by name: whitespace at line ends, CR before LF and blank lines at the end do not count; spacing inside a line and blank lines in the middle do",
);
/// `--ascii`, as `test` and `stress` take it.
pub const ASCII_OPT: Opt = Opt::flag(
    "--ascii",
    "notation letters in board diagrams even on a terminal",
);
/// `--json`, as `test`, `stress` and `diagnose` take it.
pub const JSON_OPT: Opt = Opt::flag(
    "--json",
    "results as JSON Lines, one object per line (schema duckchess.results/1, in the contestants' guide), for editors and scripts",
);
/// The two comparisons cannot both be asked for.
pub const COMPARISON_CONFLICT: (&str, &str) = ("--exact", "--ignore-whitespace");

/// The `--memory` of a command line, in bytes (the default when not given).
pub fn memory_limit(parsed: &Parsed) -> Result<u64, String> {
    let mb = parsed
        .int("--memory", 1, MAX_MEMORY)?
        .unwrap_or(DEFAULT_MEMORY);
    Ok(mb * memory::MIB)
}
