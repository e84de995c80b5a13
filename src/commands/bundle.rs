//! `duckchess bundle`: the command line over [`crate::export::bundle`], the judge as one
//! Rust source file for online judges.

use crate::cli::{self, Opt, Spec};
use crate::export::bundle::bundle;
use crate::sys::file;
use std::io::{self, Write};
use std::path::Path;

/// The command line of `bundle`.
pub const SPEC: Spec = Spec {
    name: "bundle",
    summary: "write the judge as one Rust source file for online judges",
    usage: &["[-o FILE]"],
    about: "\
The file holds the judge path of this crate (pieces, board, move rules, game
driver, judge I/O) and a main that runs the judge on stdin and stdout. It needs
only std and compiles with rustc 1.63 or newer, in every edition:
rustc -O FILE (2015), or with --edition 2018 or --edition 2021.",
    options: &[Opt::valued(
        "--output",
        "FILE",
        "write to FILE instead of standard output",
    )
    .short("-o")],
    conflicts: &[],
    exit: "0 success, 1 I/O error, 2 usage error",
};

/// The `bundle` subcommand.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        let text = match bundle(parsed.value("--output")) {
            Ok(t) => t,
            Err(e) => return Ok(cli::fail("bundle", &e.to_string())),
        };
        Ok(match parsed.path("--output")? {
            Some(path) => match file::write_whole(Path::new(path), text.as_bytes()) {
                Ok(()) => cli::EXIT_OK,
                Err(e) => cli::fail("bundle", &format!("cannot write {path}: {e}")),
            },
            None => {
                let mut out = io::stdout().lock();
                cli::output_status(
                    "bundle",
                    out.write_all(text.as_bytes()).and_then(|()| out.flush()),
                )
            }
        })
    })
}
