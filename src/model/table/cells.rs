//! The cells of the move table's map: every row of the table (a piece's leap, or a car's
//! direction) with the ways it can be blocked, the situations around check and the end,
//! the kinds of invalid command, the captures and the starting pieces; in the map's order.

use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules::{Reach, REACH};
use crate::model::pieces;
use std::collections::HashMap;
use std::sync::OnceLock;

/// One row of the move table: a piece's leap, or a car's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The piece.
    pub kind: PieceKind,
    /// The target relative to the piece, or the car's direction.
    pub dir: (i8, i8),
    /// The blocking squares (none for a car, whose path is walked).
    pub blocks: &'static [(i8, i8)],
}

/// Every row of the table, piece by piece in table order.
pub fn rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut out = Vec::new();
        for kind in PieceKind::ALL {
            match REACH[kind.index()] {
                Reach::Leaps(leaps) => out.extend(leaps.iter().map(|l| Row {
                    kind,
                    dir: l.delta,
                    blocks: l.blocks,
                })),
                Reach::Rays(dirs) => out.extend(dirs.iter().map(|&dir| Row {
                    kind,
                    dir,
                    blocks: &[],
                })),
            }
        }
        out
    })
}

/// The ways a move of `kind` can be blocked, in words, in the order of [`Way`] codes.
pub fn ways(kind: PieceKind) -> &'static [&'static str] {
    match kind {
        PieceKind::Elephant => &["its eye"],
        PieceKind::Horse => &["its leg"],
        PieceKind::Duck => &["its first leg alone", "its second leg alone", "both legs"],
        PieceKind::Car => &[
            "one piece next to the car",
            "one piece next to the target",
            "one piece between",
            "several pieces",
        ],
        _ => &[],
    }
}

/// Which way a row is blocked: an index into [`ways`].
pub type Way = u8;

/// A place where a piece of a side stands in a game, to the point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edge {
    /// Row 0, red's back row.
    Row0,
    /// Row 9, blue's back row.
    Row9,
    /// Column 0.
    Column0,
    /// Column 8.
    Column8,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::Row0, Edge::Row9, Edge::Column0, Edge::Column8];

    pub(super) fn holds(self, s: Square) -> bool {
        match self {
            Edge::Row0 => s.x() == 0,
            Edge::Row9 => s.x() == 9,
            Edge::Column0 => s.y() == 0,
            Edge::Column8 => s.y() == 8,
        }
    }

    pub(super) fn words(self) -> &'static str {
        match self {
            Edge::Row0 => "row 0",
            Edge::Row9 => "row 9",
            Edge::Column0 => "column 0",
            Edge::Column8 => "column 8",
        }
    }
}

/// The kinds of invalid command, as the judge finds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Refused {
    /// No piece on the source (a square no move has left).
    NoPiece,
    /// No piece on the source, which a move has left earlier.
    Emptied,
    /// The opponent's piece on the source.
    OpponentPiece,
    /// The piece does not move that way.
    NotThatWay,
    /// The target holds a piece of the mover's own side.
    OwnPiece,
    /// A piece stands in the way.
    Blocked,
    /// The game is over.
    GameOver,
    /// A square off the board: beyond the official limits.
    OffBoard,
}

impl Refused {
    pub const ALL: [Refused; 8] = [
        Refused::NoPiece,
        Refused::Emptied,
        Refused::OpponentPiece,
        Refused::NotThatWay,
        Refused::OwnPiece,
        Refused::Blocked,
        Refused::GameOver,
        Refused::OffBoard,
    ];

    pub(super) fn words(self) -> &'static str {
        match self {
            Refused::NoPiece => "from an empty square",
            Refused::Emptied => "from a square a move has left",
            Refused::OpponentPiece => "moving the opponent's piece",
            Refused::NotThatWay => "a move its piece cannot make",
            Refused::OwnPiece => "onto the mover's own piece",
            Refused::Blocked => "stopped by a piece in the way",
            Refused::GameOver => "after the end of the game",
            Refused::OffBoard => "with a square off the board",
        }
    }
}

/// One cell of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cell {
    /// A move of this side's piece by this row (an index into [`rows`]) judged legal.
    Legal(Color, u8),
    /// ... that takes a piece.
    Takes(Color, u8),
    /// ... refused because of what stands on its blocking squares, this way.
    Blocked(Color, u8, Way),
    /// After a move, the only check on the board is this row's.
    Check(Color, u8),
    /// A car's legal move onto the edge it heads for (its row is a direction).
    ToEdge(Color, u8),
    /// After a move, the only check is this car row's, on a captain at the edge the car
    /// heads for.
    CheckAtEdge(Color, u8),
    /// After a move, no check, but this row's piece would give one if not for what
    /// stands on its blocking squares, this way.
    Stopped(Color, u8, Way),
    /// A legal move onto this edge.
    OntoEdge(Edge),
    /// A legal move from this edge.
    FromEdge(Edge),
    /// After a move, the mover's own captain stands attacked.
    CheckOnMover,
    /// After a move, the captain of the side to move stands attacked.
    CheckOnOther,
    /// Check after a move that the moved piece does not give.
    CheckNotByMover,
    /// A move that makes check where there was none.
    CheckAppears,
    /// A move that ends a check.
    CheckEnds,
    /// After a move, the captains face each other on an open column.
    CaptainsFace,
    /// This side takes the other's captain: the game ends.
    Wins(Color),
    /// At the end, the winner's captain stands attacked.
    WinnerAttacked,
    /// At the end, the loser could take the piece that took the captain.
    TakerAttacked,
    /// At the end, another of the winner's pieces could move onto the taken captain's
    /// square.
    SquareCovered,
    /// At the end, the winner could move onto (0, 0).
    CornerCovered,
    /// After the end, a command that moves the side to move's piece as its rule allows.
    AfterEndByLoser,
    /// After the end, a command that moves the winner's piece as its rule allows.
    AfterEndByWinner,
    /// An invalid command of this kind.
    Invalid(Refused),
    /// A legal move right after an invalid command of this kind.
    LegalAfter(Refused),
    /// This side takes the other's piece of this kind.
    Captures(Color, PieceKind),
    /// A move that takes nothing right after one that took a piece.
    NothingAfterCapture,
    /// What happens to one starting piece (by its id in [`pieces::by_id`](crate::model::pieces::by_id)).
    Piece(u8, Act),
    /// An invalid command of this kind, by a piece of this kind, onto this target
    /// (seen from the moving piece).
    Cross(Refused, PieceKind, Onto),
}

/// What happens to one starting piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Act {
    /// It moves.
    Moved,
    /// It is taken.
    Taken,
    /// It takes a piece.
    Takes,
    /// After a move, the only check on the board is its.
    Checks,
    /// After a move, no check on the board, but it would give one from the square it
    /// was taken on, had it stayed there: what tells a solution that keeps a taken piece
    /// alive in its table. Not for a captain, whose taking ends the game.
    Haunts,
}

impl Act {
    pub const ALL: [Act; 5] = [Act::Moved, Act::Taken, Act::Takes, Act::Checks, Act::Haunts];

    pub(super) fn words(self) -> &'static str {
        match self {
            Act::Moved => "never moves",
            Act::Taken => "is never taken",
            Act::Takes => "never takes",
            Act::Checks => "never gives check alone",
            Act::Haunts => "never threatens a captain from where it was taken, once taken",
        }
    }

    /// Whether a piece of `kind` has this cell.
    pub(super) fn applies(self, kind: PieceKind) -> bool {
        self != Act::Haunts || kind != PieceKind::Captain
    }
}

/// What stands on an invalid command's target, seen from the moving piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Onto {
    /// Nothing.
    Empty,
    /// A piece of the other side.
    Enemy,
    /// A piece of its own side.
    Own,
}

impl Onto {
    pub const ALL: [Onto; 3] = [Onto::Empty, Onto::Enemy, Onto::Own];
}

/// The kinds of invalid command crossed with the moving piece and its target, with the
/// targets each can have.
pub(super) fn crossed() -> [(Refused, &'static [Onto]); 5] {
    pub const ALL: &[Onto] = &Onto::ALL;
    [
        (Refused::OpponentPiece, ALL),
        (Refused::NotThatWay, ALL),
        (Refused::OwnPiece, &[Onto::Own]),
        (Refused::Blocked, &[Onto::Empty, Onto::Enemy]),
        (Refused::GameOver, ALL),
    ]
}

/// Whether a piece of `kind` can be blocked.
pub(super) fn blockable(kind: PieceKind) -> bool {
    !ways(kind).is_empty()
}

impl Cell {
    /// Why no valid input (one within the official limits) can reach the cell, or
    /// `None` when one can. Such cells are left out of the map's count, with this
    /// reason (a test proves each).
    pub fn why_unreachable(self) -> Option<&'static str> {
        match self {
            Cell::Invalid(Refused::OffBoard) | Cell::LegalAfter(Refused::OffBoard) => Some(
                "the official limits keep every square of a valid input on the board \
                 (0 <= x <= 9, 0 <= y <= 8)",
            ),
            _ => None,
        }
    }

    /// Whether a valid input within the official limits can reach the cell.
    pub fn reachable(self) -> bool {
        self.why_unreachable().is_none()
    }
}

/// Every cell, in the map's order.
pub fn cells() -> &'static [Cell] {
    static CELLS: OnceLock<Vec<Cell>> = OnceLock::new();
    CELLS.get_or_init(|| {
        let mut out = Vec::new();
        for (r, row) in rows().iter().enumerate() {
            let r = r as u8;
            for c in Color::ALL {
                out.push(Cell::Legal(c, r));
                out.push(Cell::Takes(c, r));
                for w in 0..ways(row.kind).len() {
                    out.push(Cell::Blocked(c, r, w as u8));
                }
                out.push(Cell::Check(c, r));
                if row.kind == PieceKind::Car {
                    out.push(Cell::ToEdge(c, r));
                    out.push(Cell::CheckAtEdge(c, r));
                }
                for w in 0..ways(row.kind).len() {
                    out.push(Cell::Stopped(c, r, w as u8));
                }
            }
        }
        for e in Edge::ALL {
            out.push(Cell::OntoEdge(e));
        }
        for e in Edge::ALL {
            out.push(Cell::FromEdge(e));
        }
        out.extend([
            Cell::CheckOnMover,
            Cell::CheckOnOther,
            Cell::CheckNotByMover,
            Cell::CheckAppears,
            Cell::CheckEnds,
            Cell::CaptainsFace,
            Cell::Wins(Color::Red),
            Cell::Wins(Color::Blue),
            Cell::WinnerAttacked,
            Cell::TakerAttacked,
            Cell::SquareCovered,
            Cell::CornerCovered,
            Cell::AfterEndByLoser,
            Cell::AfterEndByWinner,
        ]);
        for r in Refused::ALL {
            out.push(Cell::Invalid(r));
        }
        for r in Refused::ALL {
            if !matches!(r, Refused::GameOver) {
                out.push(Cell::LegalAfter(r));
            }
        }
        for c in Color::ALL {
            for k in PieceKind::ALL {
                out.push(Cell::Captures(c, k));
            }
        }
        out.push(Cell::NothingAfterCapture);
        for s in pieces::by_id() {
            for act in Act::ALL.into_iter().filter(|a| a.applies(s.kind)) {
                out.push(Cell::Piece(s.id, act));
            }
        }
        for (r, targets) in crossed() {
            for k in PieceKind::ALL {
                if r == Refused::Blocked && !blockable(k) {
                    continue;
                }
                for &t in targets {
                    out.push(Cell::Cross(r, k, t));
                }
            }
        }
        out
    })
}

/// The index of every cell in [`cells`].
fn index_of() -> &'static HashMap<Cell, usize> {
    static INDEX: OnceLock<HashMap<Cell, usize>> = OnceLock::new();
    INDEX.get_or_init(|| cells().iter().enumerate().map(|(i, &c)| (c, i)).collect())
}

impl Cell {
    /// The cell's place in [`cells`].
    pub fn index(self) -> usize {
        index_of()[&self]
    }

    /// Whether the cell is one of the map's (a crossed invalid command is one only for
    /// the targets its kind can have).
    pub fn is_counted(self) -> bool {
        index_of().contains_key(&self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_has_an_index_and_the_offboard_ones_are_out_of_reach() {
        for (i, &c) in cells().iter().enumerate() {
            assert_eq!(c.index(), i);
        }
        assert!(!Cell::Invalid(Refused::OffBoard).reachable());
        assert!(Cell::Invalid(Refused::Blocked).reachable());
    }
}
