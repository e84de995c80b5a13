//! Perft: counts the move sequences of a given length from a position, the test chess
//! programmers trust most for a move generator. The numbers in the tests were computed
//! by two independent engines, so a match says the rules table and the generator agree
//! with them on millions of positions.
//!
//! Moves come from [`rules::for_each_move`], the generator every tool uses, so perft
//! tests exactly the moves the judge would accept. Not on the judge path.

use crate::cli;
use crate::judge::board::Board;
use crate::judge::rules::{self, Move};
use std::io::{self, Write};
use std::time::Instant;

/// The deepest perft the command accepts: depth 5 already counts 152 million leaves and
/// every ply multiplies that by about 44, so anything beyond this would never finish.
pub const MAX_DEPTH: u32 = 32;

/// The number of move sequences of length `depth` from `board` (1 at depth 0). A game
/// that is over has no moves, so a captain capture ends its branch: it counts as a leaf
/// at the last ply and contributes nothing deeper. `board` is restored before returning.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // Bulk counting: the leaves one ply away are the moves themselves, so they are
        // counted without being made.
        1 => {
            let mut count = 0;
            rules::for_each_move(board, |_| count += 1);
            count
        }
        _ => {
            let mut total = 0;
            for m in rules::legal_moves(board) {
                let captured = board.make_move(m.from, m.to);
                total += perft(board, depth - 1);
                board.unmake_move(m.from, m.to, captured);
            }
            total
        }
    }
}

/// Perft split by first move: each legal move with the number of sequences of length
/// `depth` that start with it, in generation order. Empty at depth 0.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    rules::legal_moves(board)
        .into_iter()
        .map(|m| {
            let captured = board.make_move(m.from, m.to);
            let count = perft(board, depth - 1);
            board.unmake_move(m.from, m.to, captured);
            (m, count)
        })
        .collect()
}

const HELP: &str = "\
duckchess perft: count the move sequences of length DEPTH (leaf nodes)

usage: duckchess perft DEPTH [--from POSITION] [--divide] [--time]

  DEPTH            0 to 32; depth 5 from the start position is 152,386,930
  --from POSITION  start from POSITION in the notation of SPEC section 6, e.g.
                   '4k4/9/9/2D6/9/9/4R4/3h5/9/4K4 r' (default: the start position)
  --divide         print each first move as 'xs ys xt yt: count', then 'total: N'
  --time           also print 'time: S s, N nodes/s' (leaves per second)

Without --divide the only output line is the count. A finished game (a captain missing)
has no moves, so a captain capture counts as a leaf but has no children.
A bad DEPTH or POSITION is a usage error (exit status 2).
";

/// The `perft` subcommand. Returns the exit status.
pub fn cli(args: &[String]) -> u8 {
    let parsed = match cli::start("perft", args, &["--from"], &["--divide", "--time"], HELP) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let depth = match parsed.operands.as_slice() {
        [d] => match d.parse::<u32>() {
            Ok(d) if d <= MAX_DEPTH => d,
            _ => {
                return cli::usage_error(
                    "perft",
                    &format!("DEPTH: expected an integer from 0 to {MAX_DEPTH}, found {d:?}"),
                )
            }
        },
        [] => return cli::usage_error("perft", "missing DEPTH"),
        _ => return cli::usage_error("perft", "expected exactly one DEPTH"),
    };
    let mut board = match parsed.value("--from") {
        None => Board::start(),
        Some(text) => match text.parse::<Board>() {
            Ok(b) => b,
            Err(e) => return cli::usage_error("perft", &format!("--from: {e}")),
        },
    };
    let started = Instant::now();
    let mut text = String::new();
    let total = if parsed.flag("--divide") {
        let split = divide(&mut board, depth);
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
        let total = perft(&mut board, depth);
        text.push_str(&format!("{total}\n"));
        total
    };
    if parsed.flag("--time") {
        let seconds = started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            total as f64 / seconds
        } else {
            0.0
        };
        text.push_str(&format!("time: {seconds:.3} s, {rate:.0} nodes/s\n"));
    }
    write_out(&text)
}

/// Writes `text` to standard output; a closed pipe ends quietly, other errors are noted.
pub(crate) fn write_out(text: &str) -> u8 {
    let mut out = io::stdout().lock();
    cli::io_status(
        "perft: cannot write the output",
        out.write_all(text.as_bytes()).and_then(|_| out.flush()),
    )
}
