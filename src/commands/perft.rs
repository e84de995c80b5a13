//! `duckchess perft`: its command line, and the count written out.

use crate::cli::{self, Opt, Spec};
use crate::engine::perft::*;
use crate::judge::board::Board;
use std::io::{self, Write};
use std::time::Instant;

/// The command line of `perft`.
pub const SPEC: Spec = Spec {
    name: "perft",
    summary: "count the move sequences of length DEPTH (leaf nodes)",
    usage: &["DEPTH [--from POSITION] [--divide] [--time]"],
    about: "\
DEPTH is 0 to 32; depth 5 from the start position is 152,386,930. Without --divide
the only output line is the count. A finished game (a captain missing) has no
moves, so a captain capture counts as a leaf but has no children.",
    options: &[
        Opt::valued(
            "--from",
            "POSITION",
            "start from POSITION (notation), e.g. '4k4/9/9/2D6/9/9/4R4/3h5/9/4K4 r' (default: the start position)",
        ),
        Opt::flag(
            "--divide",
            "print each first move as 'xs ys xt yt: count', then 'total: N'",
        ),
        Opt::flag(
            "--time",
            "also print 'time: S s, N nodes/s' (leaves per second)",
        ),
    ],
    conflicts: &[],
    exit: "0 success, 1 I/O error, 2 usage error (also a bad DEPTH or POSITION)",
};

/// The `perft` subcommand. Returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        let depth = match parsed.operands()? {
            [d] => {
                cli::args::int_in(d, 0, MAX_DEPTH as u64).map_err(|e| format!("DEPTH: {e}"))? as u32
            }
            [] => return Err("missing DEPTH".to_string()),
            [_, extra, ..] => {
                return Err(format!(
                    "unexpected argument {extra:?} (expected one DEPTH)"
                ))
            }
        };
        let mut board = match parsed.value("--from") {
            None => Board::start(),
            Some(text) => text.parse::<Board>().map_err(|e| format!("--from: {e}"))?,
        };
        Ok(report(
            &mut board,
            depth,
            parsed.flag("--divide"),
            parsed.flag("--time"),
        ))
    })
}

/// Counts, and writes the count (and the split and the time when asked).
fn report(board: &mut Board, depth: u32, split: bool, time: bool) -> u8 {
    let started = Instant::now();
    let mut text = String::new();
    let total = if split {
        let split = divide(board, depth);
        for (m, count) in &split {
            text.push_str(&format!("{m}: {count}\n"));
        }
        let total = if depth == 0 {
            1
        } else {
            split.iter().map(|(_, c)| c).sum()
        };
        text.push_str(&format!("total: {total}\n"));
        total
    } else {
        let total = perft(board, depth);
        text.push_str(&format!("{total}\n"));
        total
    };
    if time {
        let seconds = started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            total as f64 / seconds
        } else {
            0.0
        };
        text.push_str(&format!("time: {seconds:.3} s, {rate:.0} nodes/s\n"));
    }
    let mut out = io::stdout().lock();
    cli::output_status(
        "perft",
        out.write_all(text.as_bytes()).and_then(|_| out.flush()),
    )
}
