//! `duckchess serve`: the board in a browser, the contest's toy for real. A small
//! HTTP/1.1 server written with `std` only serves one page and a JSON API. The same
//! page also runs from plain static files (`scripts/site.sh`): the API's routes are
//! then built to WebAssembly ([`wasm`]) and answer in the browser.
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
//!   deadline, [`review_jobs`] the engine's view of a game a few positions at a time.
//! - [`wasm`]: the same routes without a server, for the page opened from static files
//!   (built to WebAssembly, it runs in the browser's workers).
//! - [`assets`]: the page, built in. Requests are read and answers written with
//!   [`crate::cli::json`].
//!
//! Only `main.rs` uses it (and, in a WebAssembly build, the page).
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`],
//! [`crate::engine`], [`crate::play`].

pub mod api;
pub mod assets;
pub mod http;
pub mod replay;
pub mod review_jobs;
pub mod server;
pub mod state;
pub mod think;
pub mod wasm;

use crate::cli::{self};
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
/// Analyses that may run at once, in slots of their own beside the moves'.
pub const ANALYSES: usize = 1;

/// Listens, prints the address, serves until the end of standard input (or forever
/// when standard input is neither a terminal nor a pipe).
pub fn serve(host: &str, port: u16, workers: usize, read_timeout: Duration) -> u8 {
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
                "warning: listening on {addr}: anyone who can reach this machine there can use the server{}",
                if addr.ip().is_unspecified() {
                    " (at this machine's address on their network)"
                } else {
                    ""
                }
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
    let api = api::Api::new(SEARCHES, ANALYSES);
    let handler: Arc<server::Handler> = Arc::new(move |request| api.handle(request));
    let server = match server::Server::start(listener, config, handler) {
        Ok(s) => s,
        Err(e) => return cli::fail("serve", &format!("cannot start the server: {e}")),
    };
    let mut out = io::stdout().lock();
    let shown = writeln!(
        out,
        "duckchess serve: open {} in a browser",
        browser_url(addr)
    )
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

/// The address a browser on this machine opens for a server listening on `addr`: a
/// server on every address (`0.0.0.0`, `::`) is named by its loopback address, which
/// a browser can open (the unspecified address is no place to connect to); others on
/// the network use this machine's own address, as the warning says.
fn browser_url(addr: std::net::SocketAddr) -> String {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
    let ip = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}/", SocketAddr::new(ip, addr.port()))
}

/// Whether standard input is something whose end means "stop": a terminal (Ctrl-D) or
/// a pipe (the program that started the server went away; Ctrl-Z and Enter on a
/// Windows console). A file or `/dev/null`
/// ends at once, which must not stop a server started in the background; and a server
/// started in the background of a shell (`duckchess serve &`) must not read the
/// terminal, which would stop it (SIGTTIN).
fn stdin_can_end() -> bool {
    if io::stdin().is_terminal() {
        return crate::sys::os::in_terminal_foreground();
    }
    crate::sys::os::stdin_is_pipe()
}
