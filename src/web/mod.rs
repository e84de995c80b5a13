//! `duckchess serve`: the board in a browser, the contest's toy for real. A small
//! HTTP/1.1 server written with `std` only serves one page and a JSON API.
//!
//! All rules stay in Rust: the page asks the server for the legal targets of a piece,
//! to play a command, for the computer's move and to replay a judge input, and shows
//! the answers. The server keeps no game: each request carries the start position and
//! the moves, so a reload or a shared link (the moves ride in the URL's `#` fragment)
//! restores the game, and any number of pages can play at once.
//!
//! - [`http`]: one request read under limits, one response written (whole or
//!   streamed).
//! - [`server`]: the event loop that reads every request and writes every answer
//!   without a thread each, the bounded worker pool that makes the answers, 503 for
//!   the overflow (waiting on sockets through [`crate::sys::os`]), the graceful stop.
//! - [`api`]: the routes and the JSON API; [`state`] is the game as it travels,
//!   [`replay`] a judge input stepped through, [`think`] the computer under a hard
//!   deadline, [`analyze`] the engine's view of a game a few positions at a time.
//! - [`json`]: a small JSON reader and writer; [`assets`]: the page, built in.
//!
//! Only `main.rs` uses it.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`],
//! [`crate::engine`].

pub mod analyze;
pub mod api;
pub mod assets;
pub mod http;
pub mod json;
pub mod replay;
pub mod server;
pub mod state;
pub mod think;

use crate::cli::{self, Opt, Spec};
use std::io::{self, BufRead, IsTerminal, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

/// The port when `--port` is not given (the problem's number on Luogu).
pub const DEFAULT_PORT: u16 = 5380;
/// Worker threads when `--workers` is not given.
pub const DEFAULT_WORKERS: u64 = 8;
/// Complete requests that may wait for a worker, per worker.
pub const QUEUE_PER_WORKER: usize = 8;
/// Searches for the computer's move that may run at once.
pub const SEARCHES: usize = 2;

/// The command line of `serve`.
pub const SPEC: Spec = Spec {
    name: "serve",
    summary: "the board in a browser: play, and replay judge inputs",
    usage: &["[--port N] [--host ADDR] [--workers N] [--read-timeout SECONDS]"],
    about: "\
Serves a page with the board on http://127.0.0.1:5380/ and prints the address to
open. Click a piece to see its legal targets, click a target to move, or play by
keyboard (Tab to the board, arrow keys, Enter, Escape); play the computer as either
side at a level from 1 (a beginner) to 8 (full strength), undo, flip the board,
switch between Chinese names and letters (letters by themselves where no font can
draw the names), load and save games (the format of 'play save', through the
browser), and replay a judge input step by step with the judge's line and the
reason for each verdict. Ask for a hint, show the engine's evaluation and best
line, and analyse a game or a replay: a graph of the evaluation with the mistakes
and blunders marked, each move's verdict and the better move. The page fits any screen, a phone's too. Every rule is
decided by the server, with the judge's code; the page only shows the answers. The
game travels in the page's address (after '#'), so a reload or a copied link
restores it.

The server reads and writes no file. It answers on loopback only unless --host
says otherwise. Each connection carries one request, which must arrive within the
read timeout (else 408) and keep the size limits (413, 414, 431); waiting for it
costs no worker. At most N workers answer at once and 8 N complete requests wait,
the rest get 503. A game may have at most 2000 moves (else 413); a replay shows at
most 10000 commands. The computer thinks at most 5 s per move; an analysis
request searches at most 16 positions and 3 s; at most 2 searches run at once. Beyond 4096 open connections (or the descriptor limit), the oldest are
closed.

The end of standard input stops the server when it is a terminal (Ctrl-D; not
when the server runs in the background of a shell) or a pipe: it accepts no more
connections, answers the requests it has read (a request still arriving gets
503), and exits once the answers are out, within 10 s. Ctrl-C stops it at once.",
    options: &[
        Opt::valued(
            "--port",
            "N",
            "listen on port N, 0 to 65535 (default 5380; 0 picks a free one)",
        ),
        Opt::valued(
            "--host",
            "ADDR",
            "listen on ADDR (default 127.0.0.1); for any other address the server warns that anyone on that network can use it",
        ),
        Opt::valued(
            "--workers",
            "N",
            "answer N requests at once, 1 to 256 (default 8)",
        ),
        Opt::valued(
            "--read-timeout",
            "SECONDS",
            "time for a client to send its whole request (default 10)",
        ),
    ],
    conflicts: &[],
    exit: "0 stopped at the end of the input, 1 cannot listen, 2 usage error",
};

/// The `serve` subcommand.
pub fn cli(args: &[String]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        let port = parsed
            .int("--port", 0, u16::MAX as u64)?
            .unwrap_or(DEFAULT_PORT as u64) as u16;
        let host = parsed.value("--host").unwrap_or("127.0.0.1").to_string();
        let workers = parsed.int("--workers", 1, 256)?.unwrap_or(DEFAULT_WORKERS) as usize;
        let read_timeout = parsed
            .seconds("--read-timeout", 3600.0)?
            .unwrap_or(Duration::from_secs(10));
        Ok(serve(&host, port, workers, read_timeout))
    })
}

/// Listens, prints the address, serves until the end of standard input (or forever
/// when standard input is neither a terminal nor a pipe).
fn serve(host: &str, port: u16, workers: usize, read_timeout: Duration) -> u8 {
    let listener = match TcpListener::bind((host, port)) {
        Ok(l) => l,
        Err(e) => {
            let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
                " (another program listens there: --port 0 takes any free port)"
            } else {
                ""
            };
            return cli::fail(
                "serve",
                &format!("cannot listen on {host} port {port}: {e}{hint}"),
            );
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => return cli::fail("serve", &format!("cannot listen on {host}: {e}")),
    };
    let loopback = addr.ip().is_loopback();
    if !loopback {
        cli::say(
            "serve",
            &format!(
                "warning: listening on {addr}: anyone who can reach this machine there can use the server"
            ),
        );
    }
    let config = server::Config {
        workers,
        queue: workers * QUEUE_PER_WORKER,
        read_timeout,
        limits: http::Limits::SERVE,
        local_names_only: loopback,
    };
    let api = api::Api::new(SEARCHES);
    let handler: Arc<server::Handler> = Arc::new(move |request| api.handle(request));
    let server = match server::Server::start(listener, config, handler) {
        Ok(s) => s,
        Err(e) => return cli::fail("serve", &format!("cannot start the server: {e}")),
    };
    let mut out = io::stdout().lock();
    let shown = writeln!(out, "duckchess serve: open http://{addr}/ in a browser")
        .and_then(|()| out.flush());
    drop(out);
    if let Err(e) = shown {
        if !cli::is_closed(&e) {
            return cli::fail("serve", &format!("cannot write the output: {e}"));
        }
    }
    if stdin_can_end() {
        // Read and drop whatever comes; the end of it is the signal to stop.
        let mut line = Vec::new();
        let mut stdin = io::stdin().lock();
        while matches!(stdin.read_until(b'\n', &mut line), Ok(n) if n > 0) {
            line.clear();
        }
        // What is in flight is answered (or refused with 503), within a bound.
        cli::say("serve", "end of input: stopping");
        return match server.stop() {
            Ok(()) => cli::EXIT_OK,
            Err(e) => cli::fail("serve", &format!("the server failed: {e}")),
        };
    }
    match server.wait() {
        Ok(()) => cli::EXIT_OK,
        Err(e) => cli::fail("serve", &format!("the server failed: {e}")),
    }
}

/// Whether standard input is something whose end means "stop": a terminal (Ctrl-D) or
/// a pipe (the program that started the server went away; Ctrl-Z and Enter on a
/// Windows console). A file or `/dev/null`
/// ends at once, which must not stop a server started in the background; and a server
/// started in the background of a shell (`duckchess serve &`) must not read the
/// terminal, which would stop it (SIGTTIN).
fn stdin_can_end() -> bool {
    if io::stdin().is_terminal() {
        return terminal::in_foreground();
    }
    crate::sys::os::stdin_is_pipe()
}

#[cfg(unix)]
mod terminal {
    unsafe extern "C" {
        fn tcgetpgrp(fd: i32) -> i32;
        fn getpgrp() -> i32;
    }

    /// Whether this process is in the foreground of the terminal on standard input.
    pub fn in_foreground() -> bool {
        // SAFETY: both take and return plain integers and touch no memory of ours;
        // tcgetpgrp fails with -1 (never a process group) on a bad descriptor.
        unsafe { tcgetpgrp(0) == getpgrp() }
    }
}

#[cfg(not(unix))]
mod terminal {
    /// Without job control, a terminal's process is always in the foreground.
    pub fn in_foreground() -> bool {
        true
    }
}
