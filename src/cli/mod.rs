//! Command-line manners every subcommand shares, so they all speak with one voice: a
//! [`Spec`] per subcommand (its options, usage and help, read by both the parser and the
//! help), exit codes, messages on stderr prefixed `duckchess: SUB: `, usage errors that
//! point at `--help`, input files, what a failed write means, and [`json`], the JSON that
//! subcommands write for programs to read (`analyze --json`, `serve`'s API) and read from
//! them.
//!
//! Uses only `std`: every layer may use it, and it uses none of them.

pub mod args;
pub mod help;
pub mod json;
pub mod spec;

pub use args::Parsed;
pub use spec::{Opt, Spec};

use std::fs::File;
use std::io::{self, Read, Write};

/// Success.
pub const EXIT_OK: u8 = 0;
/// Bad input, a failed check (a failing case, a lost game), or an I/O error.
pub const EXIT_FAILURE: u8 = 1;
/// A usage error: unknown subcommand or option, missing or malformed option value.
pub const EXIT_USAGE: u8 = 2;
/// `validate`: the input breaks the strict format.
pub const EXIT_INVALID: u8 = 3;

/// Runs a subcommand's `body` on its parsed arguments: a malformed command line or an
/// `Err` from `body` is a usage error, `--help` prints the help. Returns the exit status.
pub fn run(
    spec: &Spec,
    args: &[std::ffi::OsString],
    body: impl FnOnce(&Parsed) -> Result<u8, String>,
) -> u8 {
    let parsed = match args::parse(spec, args) {
        Ok(p) => p,
        Err(e) => return usage_error(spec.name, &e),
    };
    if parsed.flag("--help") {
        return print_help(spec.name, &help::render(spec));
    }
    match body(&parsed) {
        Ok(status) => status,
        Err(e) => usage_error(spec.name, &e),
    }
}

/// One line on standard error: `duckchess: SUB: message` (`duckchess: message` when
/// `command` is empty). A failing standard error is ignored: there is nowhere left to
/// report it.
pub fn say(command: &str, message: &str) {
    let line = if command.is_empty() {
        format!("duckchess: {message}\n")
    } else {
        format!("duckchess: {command}: {message}\n")
    };
    let _ = io::stderr().write_all(line.as_bytes());
}

/// Reports a failure of `command` (bad input, an I/O error) and returns [`EXIT_FAILURE`].
pub fn fail(command: &str, message: &str) -> u8 {
    say(command, message);
    EXIT_FAILURE
}

/// Reports a usage error of `command` and returns [`EXIT_USAGE`].
pub fn usage_error(command: &str, message: &str) -> u8 {
    let hint = if command.is_empty() {
        "(see 'duckchess --help')".to_string()
    } else {
        format!("(see 'duckchess {command} --help')")
    };
    say(command, &format!("{message} {hint}"));
    EXIT_USAGE
}

/// Prints `text` (a help or the version) on standard output for `command`; a closed
/// pipe is not worth a message, and any other write error is.
pub fn print_help(command: &str, text: &str) -> u8 {
    let mut out = io::stdout().lock();
    output_status(
        command,
        out.write_all(text.as_bytes()).and_then(|()| out.flush()),
    )
}

/// Whether `error` means that the reader of standard output has gone: then there is
/// nobody left to tell, and a subcommand ends quietly.
pub fn is_closed(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::BrokenPipe
}

/// The exit status after writing a subcommand's output: 0 when it went well and also
/// when standard output was closed early; otherwise `cannot write the output: ...` and
/// [`EXIT_FAILURE`] (a full disk, `> /dev/full`).
pub fn output_status(command: &str, result: io::Result<()>) -> u8 {
    match result {
        Err(ref e) if !is_closed(e) => fail(command, &format!("cannot write the output: {e}")),
        _ => EXIT_OK,
    }
}

/// The input of a subcommand: standard input for `None`, else the file at `path`. A
/// path that cannot be opened, or that is a directory, is reported with the path.
pub fn open_input(command: &str, path: Option<&std::ffi::OsStr>) -> Result<Box<dyn Read>, u8> {
    let path = match path {
        None => return Ok(Box::new(io::stdin().lock())),
        Some(p) => std::path::Path::new(p),
    };
    let opened = File::open(path).and_then(|f| {
        if f.metadata()?.is_dir() {
            Err(io::Error::other("it is a directory"))
        } else {
            Ok(f)
        }
    });
    match opened {
        Ok(f) => Ok(Box::new(f)),
        Err(e) => Err(fail(
            command,
            &format!("cannot open {}: {e}", path.display()),
        )),
    }
}

/// Reads a whole small file of at most `limit` bytes; the error says what is wrong
/// (the caller names the path). Only a regular file is read: a named pipe, a device or
/// a socket could block forever or never end, so it is refused before it is opened
/// (and opened without waiting, where the system allows, should it change meanwhile).
pub fn read_small_file(path: impl AsRef<std::path::Path>, limit: u64) -> Result<Vec<u8>, String> {
    let path = path.as_ref();
    let regular = |meta: &std::fs::Metadata| -> Result<(), String> {
        if meta.is_dir() {
            Err("it is a directory".to_string())
        } else if !meta.is_file() {
            Err("it is not a regular file".to_string())
        } else {
            Ok(())
        }
    };
    regular(&std::fs::metadata(path).map_err(|e| e.to_string())?)?;
    let file = open_without_waiting(path).map_err(|e| e.to_string())?;
    regular(&file.metadata().map_err(|e| e.to_string())?)?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!("it is larger than {limit} bytes"));
    }
    Ok(bytes)
}

/// Opens `path` for reading; on Linux with `O_NONBLOCK`, so that opening a named pipe
/// put in place of a file never waits for a writer (a regular file reads the same).
fn open_without_waiting(path: &std::path::Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        /// `O_NONBLOCK` on Linux.
        const O_NONBLOCK: i32 = 0o4000;
        options.custom_flags(O_NONBLOCK);
    }
    options.open(path)
}

/// `count` and the noun in the right number: `1 move`, `2 moves`.
pub fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
