//! The moves a flat board wraps. A solution that stores the board flat (one index a
//! square, or one bit: a 90-bit board is rows of 9) and tests a move only by its index
//! finds, where a move's shape leaves the board, a square of another row or column: on
//! rows of 9, one step right of `(3, 8)` is index 36, the square `(4, 0)`. A command
//! naming that square has a displacement the kind does not have, and the judge refuses
//! it; such a solution accepts it, when the target is not its own side's and the blocking
//! squares it reads are empty. Each cell here is one kind's vector, from one square
//! where it leaves the board (a car's: the last square of its line), in one layout,
//! tried once.

use super::aliases::found_from;
use super::cells::Cell;
use super::geometry::{can_stand, vectors};
use super::layout::Layout;
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};

/// The square `kind`'s vector `v` leaves the board from, starting on `from`: `from`
/// itself for a leap that lands off the board; for a car, the last square of its line.
/// `None` when the leap lands on the board.
pub fn leaves(kind: PieceKind, v: u8, from: Square) -> Option<Square> {
    let vec = vectors(kind)[v as usize];
    if !vec.ray {
        return from.offset(vec.delta).is_none().then_some(from);
    }
    let mut at = from;
    while let Some(next) = at.offset(vec.delta) {
        at = next;
    }
    Some(at)
}

/// The square a flat board in `layout` lands on by `kind`'s vector `v` from `from` where
/// it leaves the board (a car's: its first read past the edge), and the squares that must
/// be empty for that read to find it; `None` where it reads no square.
pub fn landing(
    kind: PieceKind,
    v: u8,
    from: Square,
    layout: Layout,
) -> Option<(Square, Vec<Square>)> {
    leaves(kind, v, from)?;
    found_from(kind, v, from, layout).into_iter().next()
}

/// Every cell of the dimension, reachable or not: each kind's vector from each square it
/// leaves the board from, in each layout.
pub fn universe(out: &mut Vec<Cell>) {
    for kind in PieceKind::ALL {
        for v in 0..vectors(kind).len() as u8 {
            for from in Square::all() {
                if leaves(kind, v, from) != Some(from) {
                    continue;
                }
                for layout in Layout::WRAPS {
                    out.push(Cell::Wrap(kind, v, from, layout));
                }
            }
        }
    }
}

/// Why no valid input reaches the wrap of `kind`'s vector `v` from `from` in `layout`,
/// or `None` when some can.
pub fn why_unreachable(kind: PieceKind, v: u8, from: Square, layout: Layout) -> Option<String> {
    if !Color::ALL
        .into_iter()
        .any(|side| can_stand(side, kind, from))
    {
        return Some(format!("no {kind} of either side can stand on {from}"));
    }
    if landing(kind, v, from, layout).is_none() {
        return Some(format!(
            "{layout} reads no square of the board there (past its array, in its padding, or a blocking square so)"
        ));
    }
    None
}

/// The cells of a command by `side`'s piece on `from` to `to` that the judge refuses, the
/// game going on: each vector of the piece whose flat read, in some layout, lands on
/// `to` with the squares it reads on the way empty and `to` not its own side's.
pub fn cells(board: &Board, side: Color, from: Square, to: Square) -> Vec<Cell> {
    let Some(p) = board.piece_at(from).filter(|p| p.color == side) else {
        return Vec::new();
    };
    if board.piece_at(to).is_some_and(|q| q.color == side) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for v in 0..vectors(p.kind).len() as u8 {
        let Some(edge) = leaves(p.kind, v, from) else {
            continue;
        };
        for layout in Layout::WRAPS {
            let Some((found, empty)) = landing(p.kind, v, from, layout) else {
                continue;
            };
            if found == to && empty.iter().all(|&s| board.is_empty(s)) {
                out.push(Cell::Wrap(p.kind, v, edge, layout));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::piece::Piece;

    fn sq(x: i64, y: i64) -> Square {
        Square::new(x, y).expect("on the board")
    }

    fn vector(kind: PieceKind, delta: (i8, i8)) -> u8 {
        vectors(kind)
            .iter()
            .position(|v| v.delta == delta)
            .expect("a vector") as u8
    }

    #[test]
    fn a_wrapped_move_lands_where_the_layout_puts_it() {
        use PieceKind::*;
        let right = vector(Soldier, (0, 1));
        // Rows of 9: one step right of (3, 8) is (4, 0).
        assert_eq!(
            landing(Soldier, right, sq(3, 8), Layout::RowsOf9).map(|l| l.0),
            Some(sq(4, 0))
        );
        // Rows of 10: the padding; rows of 11 too.
        assert!(landing(Soldier, right, sq(3, 8), Layout::RowsOf10).is_none());
        assert!(landing(Soldier, right, sq(3, 8), Layout::RowsOf11).is_none());
        // A duck's three columns right of column 8 cross a mailbox's border.
        let duck = vector(Duck, (2, 3));
        let (found, empty) = landing(Duck, duck, sq(3, 8), Layout::RowsOf11).expect("a read");
        assert_eq!(found, sq(6, 0));
        // Its legs: (3, 9) and (4, 10) are border, read empty.
        assert!(empty.is_empty(), "{empty:?}");
        // A car's line: from (5, 3), right, leaves from (5, 8) onto (6, 0) on rows of 9.
        let car = vector(Car, (0, 1));
        assert_eq!(leaves(Car, car, sq(5, 3)), Some(sq(5, 8)));
        let (found, empty) = landing(Car, car, sq(5, 3), Layout::RowsOf9).expect("a read");
        assert_eq!(found, sq(6, 0));
        assert_eq!(empty, [sq(5, 4), sq(5, 5), sq(5, 6), sq(5, 7), sq(5, 8)]);
        // A leap that stays on the board leaves nothing.
        assert_eq!(leaves(Horse, vector(Horse, (2, 1)), sq(3, 3)), None);
    }

    #[test]
    fn a_command_is_counted_only_with_its_reads_empty_and_not_onto_its_own() {
        use PieceKind::*;
        let mut board = Board::empty();
        board.put(sq(0, 4), Some(Piece::new(Color::Red, Captain)));
        board.put(sq(9, 4), Some(Piece::new(Color::Blue, Captain)));
        board.put(sq(3, 8), Some(Piece::new(Color::Red, Horse)));
        // The horse up one, right two from (3, 8): index 9*4 + 10 = 46, (5, 1), through
        // its leg (3, 9), read as (4, 0).
        let v = vector(Horse, (1, 2));
        let cell = Cell::Wrap(Horse, v, sq(3, 8), Layout::RowsOf9);
        assert!(cells(&board, Color::Red, sq(3, 8), sq(5, 1)).contains(&cell));
        board.put(sq(4, 0), Some(Piece::new(Color::Blue, Soldier)));
        assert!(!cells(&board, Color::Red, sq(3, 8), sq(5, 1)).contains(&cell));
        board.put(sq(4, 0), None);
        // Onto an enemy: counted (a flat solution takes it); onto its own: not.
        board.put(sq(5, 1), Some(Piece::new(Color::Blue, Car)));
        assert!(cells(&board, Color::Red, sq(3, 8), sq(5, 1)).contains(&cell));
        board.put(sq(5, 1), Some(Piece::new(Color::Red, Car)));
        assert!(cells(&board, Color::Red, sq(3, 8), sq(5, 1)).is_empty());
        // Blue's turn does not count red's piece.
        assert!(cells(&board, Color::Blue, sq(3, 8), sq(5, 1)).is_empty());
    }
}
