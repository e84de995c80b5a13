//! `duckchess serve`: its command line.

use crate::cli::{self, Opt, Spec};
use crate::web::*;
use std::time::Duration;

/// The command line of `serve`.
pub const SPEC: Spec = Spec {
    name: "serve",
    summary: "the board in a browser: play, analyse, replay and judge inputs",
    usage: &["[--port N] [--host ADDR] [--workers N] [--read-timeout SECONDS]"],
    about: "\
Serves a page with the board on http://127.0.0.1:5380/ and prints the address to
open. Click a piece to see its legal targets, click a target to move, or play by
keyboard (Tab to the board, arrow keys, Enter, Escape); play the computer as either
side at a level from 1 (a beginner) to 8 (full strength), undo, flip the board,
switch between Chinese names and letters (letters by themselves where no font can
draw the names), load and save games (the format of 'play save', through the
browser), and replay a judge input step by step with the judge's line and the
reason for each verdict, with the judge's whole output and the verdict of
'validate' beside it. Ask for a hint, show the engine's evaluation and best
line, and analyse a game or a replay: a graph of the evaluation with the mistakes
and blunders marked, each move's verdict and the better move. The page fits any screen, a phone's too. Every rule is
decided by the server, with the judge's code; the page only shows the answers. The
game travels in the page's address (after '#'), so a reload or a copied link
restores it. The same page also runs with no server, as a static site whose rules,
engine and judge run in the browser: the 'site' folder of a release archive, or
what scripts/site.sh writes.

The server reads and writes no file. It answers on loopback only unless --host
says otherwise. Each connection carries one request, which must arrive within the
read timeout (else 408) and keep the size limits (413, 414, 431); waiting for it
costs no worker. At most N workers answer at once and 8 N complete requests wait,
the rest get 503. A game may have at most 2000 moves (else 413); a replay shows at
most 10000 commands. The computer thinks at most 5 s per move; an analysis
request searches at most 16 positions and 3 s. At most 2 searches for the
computer's moves and 1 analysis run at once, each in slots of its own, so an
analysis never keeps the computer from moving; a search whose client has closed
its connection is stopped. Beyond 4096 open connections (or the descriptor limit), the oldest are
closed.

The end of standard input stops the server when it is a terminal (Ctrl-D; not
when the server runs in the background of a shell) or a pipe: it accepts no more
connections, answers the requests it has read (a request still arriving gets
503), and exits once the answers are out, within 10 s (what is not answered by
then gets 503). Ctrl-C stops it at once.",
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
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
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
