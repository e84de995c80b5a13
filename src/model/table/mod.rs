//! The move table's map (the coverage map): what a test set exercises of the rules, and how often. Each command
//! is played on the judge and counted in cells: for each piece, side and row of the move
//! table ([`crate::judge::rules::REACH`]; a car's direction), the moves judged legal,
//! the captures, the moves refused because of what stands on a blocking square (which
//! one), the checks that row alone gives, and the checks a blocking square alone stops;
//! then the edges of the board, who is in check, the end of the game and what follows
//! it, each kind of invalid command, and the captures as named.
//!
//! A cell is counted where the answer hinges on it: a check is counted for a row only
//! when no other piece gives check too, a stopped check only when the position is not
//! check otherwise, a blocked move only by the squares actually taken. So a mistake in
//! one row of the table can only show where its cell is counted, and a cell never
//! reached names mistakes the data cannot catch.
//!
//! A cell no valid input can reach is left out of the count and printed with its reason
//! ([`Cell::why_unreachable`]; a test proves each), as the statement's model does.
//!
//! - [`cells`]: the rows of the table, the cells and their order.
//! - [`counter`]: the cells a game reaches, command by command.
//! - [`report`]: how often a test set reaches each cell, and the report of it.

pub mod cells;
pub mod counter;
pub mod report;

pub use cells::{cells, rows, ways, Act, Cell, Edge, Onto, Refused, Row, Way};
pub use counter::{row_towards, Counter};
pub use report::{unreachable_text, Map};
