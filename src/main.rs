//! The `duckchess` binary: picks the subcommand and hands over to the library.

use duckchess::cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = args.get(1..).unwrap_or(&[]);
    let status = match args.first().map(String::as_str) {
        None => duckchess::judge::serve(std::io::stdin().lock()),
        Some("judge") => cli::judge(rest),
        Some("gen") => duckchess::tools::gen::cli(rest),
        Some("test") => duckchess::tools::test::cli(rest),
        Some("trace") => duckchess::tools::trace::cli(rest),
        Some("validate") => duckchess::tools::validate::cli(rest),
        Some("chase") => duckchess::chase::cli(rest),
        Some("bundle") => duckchess::tools::bundle::cli(rest),
        Some("perft") => duckchess::engine::perft::cli(rest),
        Some("arena") => duckchess::engine::arena::cli(rest),
        Some("play") => duckchess::engine::play::cli(rest),
        Some("-h" | "--help" | "help") => cli::print_help(cli::HELP),
        Some("-V" | "--version") => {
            cli::print_help(concat!("duckchess ", env!("CARGO_PKG_VERSION"), "\n"))
        }
        Some(other) => {
            duckchess::judge::note(&format!(
                "unknown subcommand {other:?} (see 'duckchess --help')"
            ));
            cli::EXIT_USAGE
        }
    };
    ExitCode::from(status)
}
