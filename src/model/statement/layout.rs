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
    /// Row by row with two empty columns, as a mailbox with one border column on each
    /// side stores it: `11x + y` (the border columns are the 10th and 11th). Leaps of up
    /// to two columns stay in a row's border; a duck's three-column leap does not.
    RowsOf11,
}

impl Layout {
    /// The layouts a check is read in ([`super::aliases`]).
    pub const ALL: [Layout; 3] = [Layout::RowsOf9, Layout::RowsOf10, Layout::ColumnsOf10];

    /// The layouts a move is wrapped in ([`super::wraps`]): those of a check, and the
    /// mailbox a duck leaps out of.
    pub const WRAPS: [Layout; 4] = [
        Layout::RowsOf9,
        Layout::RowsOf10,
        Layout::ColumnsOf10,
        Layout::RowsOf11,
    ];

    /// How many indices the array has.
    pub fn indices(self) -> i64 {
        match self {
            Layout::RowsOf10 => 100,
            Layout::RowsOf11 => 110,
            _ => 90,
        }
    }

    /// The index of `(x, y)`, on the board or off it.
    pub fn index(self, x: i64, y: i64) -> i64 {
        match self {
            Layout::RowsOf9 => 9 * x + y,
            Layout::RowsOf10 => 10 * x + y,
            Layout::ColumnsOf10 => 10 * y + x,
            Layout::RowsOf11 => 11 * x + y,
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
            Layout::RowsOf11 => Square::new(i / 11, i % 11),
        })
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layout::RowsOf9 => "rows-of-9",
            Layout::RowsOf10 => "rows-of-10",
            Layout::ColumnsOf10 => "columns-of-10",
            Layout::RowsOf11 => "rows-of-11",
        })
    }
}
