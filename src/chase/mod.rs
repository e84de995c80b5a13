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
