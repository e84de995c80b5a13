//! Arguments as the operating system gives them: a command line that is not UTF-8 never
//! panics. A file name may be any name the system allows; any other argument that is
//! not UTF-8 is a usage error (exit 2) with one line that names the subcommand.
#![cfg(unix)]

use crate::common;

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Output, Stdio};

/// Every subcommand, in the top-level help's order.
const SUBCOMMANDS: [&str; 19] = [
    "judge", "gen", "validate", "test", "stress", "audit", "trace", "bundle", "perft", "play",
    "analyze", "arena", "uci", "match", "fit", "selfplay", "train", "serve", "chase",
];

/// The subcommands whose operands are files to read: a name that is not UTF-8 is a
/// file that cannot be opened (exit 1), not a usage error.
const READS_A_FILE: [&str; 4] = ["judge", "validate", "trace", "analyze"];

fn run_os(args: &[&OsStr], stdin: &[u8]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_duckchess"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    common::run_command(command, stdin)
}

fn bad() -> OsString {
    OsStr::from_bytes(b"x\xffy").to_os_string()
}

#[test]
fn a_non_utf8_argument_to_any_subcommand_is_refused_in_one_line() {
    let bad = bad();
    for sub in SUBCOMMANDS {
        let sub_os = OsString::from(sub);
        // As an operand.
        let out = run_os(&[&sub_os, &bad], b"");
        let err = common::stderr(&out);
        assert!(!err.contains("panicked"), "{sub}: {err}");
        let expected = if READS_A_FILE.contains(&sub) { 1 } else { 2 };
        assert_eq!(out.status.code(), Some(expected), "{sub}: {err}");
        assert_eq!(err.lines().count(), 1, "{sub}: {err}");
        assert!(
            err.starts_with(&format!("duckchess: {sub}: ")),
            "{sub}: {err}"
        );
        // As an option, and as an option's value.
        let option = OsStr::from_bytes(b"--\xff").to_os_string();
        let out = run_os(&[&sub_os, &option], b"");
        assert_eq!(out.status.code(), Some(2), "{sub}");
        assert!(common::stderr(&out).starts_with(&format!("duckchess: {sub}: ")));
        let value = OsStr::from_bytes(b"--seed=\xff").to_os_string();
        let out = run_os(&[&sub_os, &value], b"");
        assert_eq!(out.status.code(), Some(2), "{sub}");
        assert!(!common::stderr(&out).contains("panicked"), "{sub}");
    }
    // In place of a subcommand, and after `help`.
    let out = run_os(&[&bad], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).starts_with("duckchess: unknown subcommand "));
    let out = run_os(&[OsStr::new("help"), &bad], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_file_whose_name_is_not_utf8_is_read() {
    let dir = std::env::temp_dir().join(format!("duckchess-os-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let mut name = dir.clone().into_os_string();
    name.push(OsStr::from_bytes(b"/case-\xff.in"));
    std::fs::write(&name, b"1\n0 0 1 0\n").expect("a file with a non-UTF-8 name");
    let out = run_os(&[OsStr::new("judge"), &name], b"");
    assert_eq!(common::stdout(&out), "red car;NA;no;no\n");
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let out = run_os(&[OsStr::new("validate"), &name, &name], b"");
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let out = run_os(&[OsStr::new("trace"), &name], b"");
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}
