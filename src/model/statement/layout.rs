//! The ways a solution may store the board flat, one index a square, and what an index
//! past the board reads in each.

use crate::judge::piece::Square;
use std::fmt;

/// A way of storing the board flat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Layout {
    /// Row by row, 9 squares a row: `9x + y`.
    RowsOf9,
    /// Row by row with a tenth, empty column: `10x + y`.
    RowsOf10,
    /// Column by column, 10 squares a column: `10y + x`.
    ColumnsOf10,
}

impl Layout {
    /// Every layout.
    pub const ALL: [Layout; 3] = [Layout::RowsOf9, Layout::RowsOf10, Layout::ColumnsOf10];

    /// How many indices the array has.
    pub fn indices(self) -> i64 {
        match self {
            Layout::RowsOf10 => 100,
            _ => 90,
        }
    }

    /// The index of `(x, y)`, on the board or off it.
    pub fn index(self, x: i64, y: i64) -> i64 {
        match self {
            Layout::RowsOf9 => 9 * x + y,
            Layout::RowsOf10 => 10 * x + y,
            Layout::ColumnsOf10 => 10 * y + x,
        }
    }

    /// What index `i` of the array holds: `Some(Some(square))`, `Some(None)` for the
    /// empty tenth column, `None` outside the array.
    pub fn read(self, i: i64) -> Option<Option<Square>> {
        if !(0..self.indices()).contains(&i) {
            return None;
        }
        Some(match self {
            Layout::RowsOf9 => Square::new(i / 9, i % 9),
            Layout::RowsOf10 => Square::new(i / 10, i % 10),
            Layout::ColumnsOf10 => Square::new(i % 10, i / 10),
        })
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layout::RowsOf9 => "rows-of-9",
            Layout::RowsOf10 => "rows-of-10",
            Layout::ColumnsOf10 => "columns-of-10",
        })
    }
}
