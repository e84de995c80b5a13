//! The `duckchess` binary: picks the subcommand and hands over to the library.

use duckchess::cli::{self, help, Spec};
use duckchess::commands;
use std::ffi::OsString;
use std::process::ExitCode;

/// A subcommand: its command line and its entry point.
type Entry = (&'static Spec, fn(&[OsString]) -> u8);

/// Every subcommand, in the order the top-level help lists them.
const SUBCOMMANDS: [Entry; 21] = [
    (&commands::judge::SPEC, commands::judge::cli),
    (&commands::gen::SPEC, commands::gen::cli),
    (&commands::validate::SPEC, commands::validate::cli),
    (&commands::test::SPEC, commands::test::cli),
    (&commands::stress::SPEC, commands::stress::cli),
    (&commands::diagnose::SPEC, commands::diagnose::cli),
    (&commands::audit::SPEC, commands::audit::cli),
    (&commands::trace::SPEC, commands::trace::cli),
    (&commands::bundle::SPEC, commands::bundle::cli),
    (&commands::export::SPEC, commands::export::cli),
    (&commands::perft::SPEC, commands::perft::cli),
    (&commands::play::SPEC, commands::play::cli),
    (&commands::analyze::SPEC, commands::analyze::cli),
    (&commands::arena::SPEC, commands::arena::cli),
    (&commands::uci::SPEC, commands::uci::cli),
    (&commands::r#match::SPEC, commands::r#match::cli),
    (&commands::fit::SPEC, commands::fit::cli),
    (&commands::selfplay::SPEC, commands::selfplay::cli),
    (&commands::train::SPEC, commands::train::cli),
    (&commands::serve::SPEC, commands::serve::cli),
    (&commands::chase::SPEC, commands::chase::cli),
];

const INTRO: &str = "\
duckchess: judge and toolkit for THUPC 2019 \"Duck Chess\" (Luogu P5380)

usage: duckchess [< FILE]              the judge on standard input
       duckchess SUBCOMMAND [ARGS]     one of the subcommands below
       duckchess help SUBCOMMAND       its help (also: SUBCOMMAND --help)
       duckchess --version";

const EXIT: &str = "0 success, 1 bad input or failure, 2 usage error,\n             \
                    3 invalid input (validate, audit),\n             \
                    128+N ended by signal N (test, stress, diagnose, match)";

fn find(name: &str) -> Option<&'static Entry> {
    SUBCOMMANDS.iter().find(|(spec, _)| spec.name == name)
}

fn main() -> ExitCode {
    // Arguments as the operating system gives them: a file name need not be UTF-8.
    let os_args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let rest = os_args.get(1..).unwrap_or(&[]);
    // The top level reads its own words as text; one that is not UTF-8 names no
    // subcommand, and the message shows it lossily.
    let args: Vec<String> = os_args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let words = args.get(1..).unwrap_or(&[]);
    let specs: Vec<&Spec> = SUBCOMMANDS.iter().map(|(spec, _)| *spec).collect();
    let status = match args.first().map(String::as_str) {
        None => commands::judge::stdin(""),
        Some("-h" | "--help") => cli::print_help("", &help::render_top(INTRO, &specs, EXIT)),
        Some("help") => match words {
            // `help help` asks what `help` does: the top-level help says it.
            [] => cli::print_help("", &help::render_top(INTRO, &specs, EXIT)),
            [name] if name == "help" => cli::print_help("", &help::render_top(INTRO, &specs, EXIT)),
            [name] => match find(name) {
                Some((spec, _)) => cli::print_help(spec.name, &help::render(spec)),
                None => unknown(name),
            },
            [_, extra, ..] => cli::usage_error("", &format!("unexpected argument {extra:?}")),
        },
        Some("-V" | "--version") => {
            cli::print_help("", concat!("duckchess ", env!("CARGO_PKG_VERSION"), "\n"))
        }
        Some(name) => match find(name) {
            Some((_, run)) => run(rest),
            None => unknown(name),
        },
    };
    ExitCode::from(status)
}

/// The usage error for a first argument that names no subcommand: an option the top
/// level does not know, or an unknown subcommand.
fn unknown(name: &str) -> u8 {
    if name.starts_with('-') && name != "-" {
        cli::usage_error("", &format!("unknown option {name}"))
    } else if std::path::Path::new(name).is_file() {
        cli::usage_error(
            "",
            &format!(
                "unknown subcommand {name:?}; to judge that file: duckchess judge {name} \
                 (or duckchess < {name})"
            ),
        )
    } else {
        cli::usage_error("", &format!("unknown subcommand {name:?}"))
    }
}
