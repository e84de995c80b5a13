//! `duckchess chase`: its command line.

use crate::chase::*;
use crate::cli::{self, Spec};
use std::io::{self, Write};

/// The command line of `chase`.
pub const SPEC: Spec = Spec {
    name: "chase",
    summary: "solve the CQOI 2013 board game exactly",
    usage: &["< INPUT"],
    about: "\
An n x n board (rows and columns 1..=n) holds one white and one black piece.
White (player A) moves first, exactly one square up, down, left or right. Black
(player B) moves one or two squares up, down, left or right in a straight line.
Moves must stay on the board and cannot be skipped. Moving onto the other piece's
square captures it and wins. Both play perfectly: a side that can win wins as fast
as possible, a side that must lose delays as long as possible.

Input on stdin: 'n r1 c1 r2 c2', whitespace-separated integers: white at (r1, c1),
black at (r2, c2), 2 <= n <= 100, two distinct squares inside the board.

Output: 'WHITE k' or 'BLACK k': the winner and the number of moves of both players
until the capture (DRAW if neither side could force a capture; it never happens).
For example:
  echo '2 1 1 2 2' | duckchess chase      prints      BLACK 2",
    options: &[],
    conflicts: &[],
    exit: "0 solved, 1 bad input or I/O error, 2 usage error",
};

/// Runs `duckchess chase` with the arguments after the subcommand; returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        if let Some(extra) = parsed.operands()?.first() {
            return Err(format!(
                "unexpected argument {extra:?}: the position is read from standard input"
            ));
        }
        let answer = read_query(io::stdin().lock()).and_then(|q| solve(q.n, q.white, q.black));
        Ok(match answer {
            Ok(outcome) => {
                let mut out = io::stdout().lock();
                cli::output_status(
                    "chase",
                    writeln!(out, "{outcome}").and_then(|()| out.flush()),
                )
            }
            Err(e) => cli::fail("chase", &e.to_string()),
        })
    })
}
