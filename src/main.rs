//! The `duckchess` binary: parses the subcommand and hands over to the library.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("chase") => ExitCode::from(duckchess::chase::cli(&args[1..])),
        _ => ExitCode::SUCCESS,
    }
}
