//! Exact solver for the CQOI 2013 "board game" (棋盘游戏), a chase on an `n x n` board.
//!
//! White moves first, one square orthogonally; black moves one or two squares in a straight
//! orthogonal line; moving onto the other piece captures it and wins. The winner wins as fast
//! as possible, the loser delays as long as possible, and the answer counts the moves of both
//! players until the capture.
//!
//! The game is solved by retrograde analysis over all states (both squares and the side to
//! move): layer 1 holds the captures, and layer `d + 1` adds every state whose mover has a move
//! into a state lost for the opponent within `d` (a win) or whose moves all lead into states won
//! by the opponent within `d` (a loss). The first layer that holds a state is its exact distance:
//! the winner's fastest win and the loser's longest delay. States in no layer once nothing
//! changes would be draws. A single query stops at the layer that decides it.
//!
//! Speed and memory for `n = 100` (2 * 10^8 raw states) come from two things. The states are
//! kept once per symmetry of the square: white is folded into one eighth of the board and black
//! keeps its whole board. And each set of states is a bit plane with one `u128` per board row,
//! so a layer is a sweep of word operations: black's moves are shifts within a row or steps
//! between rows, white's moves combine neighbouring blocks. Four planes of about 2 MB each suffice.
//! This folder is independent of the duck chess rules and shares nothing with the game.
//!
//! - [`query`]: the input, its checks and the answer;
//! - [`mod@solve`]: the solver.
//!
//! May use: [`crate::cli`], for the command-line manners.

pub mod geometry;
pub mod query;
pub mod solve;

pub use query::{parse_query, read_query, ChaseError, Outcome, Piece, Query, MAX_N, MIN_N};
pub use solve::{solve, solve_all, Counts, Table};

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
pub fn cli(args: &[String]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        if let Some(extra) = parsed.operands.first() {
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
