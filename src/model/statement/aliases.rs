//! The squares a wrong bound reads. A solution that keeps the board flat (one index a
//! square) and checks only that index, not the row and the column, reads another square
//! where a move leaves the board: on a board of 10 rows of 9, the tenth column of a row
//! is the next row's first. Where that square holds the other captain and the piece's
//! blocking squares read empty, such a solution finds a check that is not there. Each
//! cell here is one kind's vector (a car's direction) in one way of storing the board,
//! reached where the position is not check and such a read would say it is.

use super::cells::Cell;
use super::geometry::{stands, vectors};
use super::layout::Layout;
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};
use std::collections::HashMap;
use std::sync::OnceLock;

/// One way a flat read gives a false check: the piece on `from`, by vector `v`, would
/// find the captain on `captain`; `empty` must hold nothing (its blocking squares as
/// read, a car's squares up to the edge and the reads after it).
#[derive(Clone, Debug)]
struct Read {
    kind: PieceKind,
    v: u8,
    from: Square,
    empty: Vec<Square>,
}

/// The reads of `kind`'s vector `v` from `from` in `layout` that leave the board: each
/// with the square it finds and the squares it must find empty.
fn reads(kind: PieceKind, v: u8, from: Square, layout: Layout) -> Vec<(Square, Read)> {
    let vec = vectors(kind)[v as usize];
    let (x, y) = (i64::from(from.x()), i64::from(from.y()));
    let at = |d: (i8, i8), k: i64| (x + k * i64::from(d.0), y + k * i64::from(d.1));
    let read = Read {
        kind,
        v,
        from,
        empty: Vec::new(),
    };
    if !vec.ray {
        let (tx, ty) = at(vec.delta, 1);
        if Square::new(tx, ty).is_some() {
            return Vec::new();
        }
        let Some(Some(found)) = layout.read(layout.index(tx, ty)) else {
            return Vec::new();
        };
        let mut read = read;
        for &b in vec.blocks {
            let (bx, by) = at(b, 1);
            match layout.read(layout.index(bx, by)) {
                None => return Vec::new(),
                Some(None) => {}
                Some(Some(s)) if s == from || s == found => return Vec::new(),
                Some(Some(s)) => read.empty.push(s),
            }
        }
        return vec![(found, read)];
    }
    // A car: its line to the edge, then the reads past it, each a possible find.
    let mut out = Vec::new();
    let mut read = read;
    let mut k = 1;
    while let Some(s) = Square::new(at(vec.delta, k).0, at(vec.delta, k).1) {
        read.empty.push(s);
        k += 1;
    }
    loop {
        let (px, py) = at(vec.delta, k);
        match layout.read(layout.index(px, py)) {
            None => break,
            Some(None) => {}
            Some(Some(s)) if s == from => break,
            Some(Some(s)) => {
                out.push((s, read.clone()));
                read.empty.push(s);
            }
        }
        k += 1;
    }
    out
}

/// The reads of `kind`'s vector `v` from `from` in `layout` that leave the board: each
/// square one finds, with the squares it needs empty to find it.
pub fn found_from(
    kind: PieceKind,
    v: u8,
    from: Square,
    layout: Layout,
) -> Vec<(Square, Vec<Square>)> {
    reads(kind, v, from, layout)
        .into_iter()
        .map(|(found, read)| (found, read.empty))
        .collect()
}

/// Every read that leaves the board, by the square it finds and the layout.
fn table() -> &'static HashMap<(Square, Layout), Vec<Read>> {
    static TABLE: OnceLock<HashMap<(Square, Layout), Vec<Read>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut out: HashMap<(Square, Layout), Vec<Read>> = HashMap::new();
        for layout in Layout::ALL {
            for kind in PieceKind::ALL {
                for v in 0..vectors(kind).len() as u8 {
                    for from in Square::all() {
                        for (found, read) in reads(kind, v, from, layout) {
                            out.entry((found, layout)).or_default().push(read);
                        }
                    }
                }
            }
        }
        out
    })
}

/// Whether some square `side`'s `kind` can stand on has a read of vector `v` in
/// `layout` that leaves the board and finds a square.
pub fn fits(side: Color, kind: PieceKind, v: u8, layout: Layout) -> bool {
    let can = stands(side, kind);
    Square::all().any(|a| can & (1 << a.bit()) != 0 && !reads(kind, v, a, layout).is_empty())
}

/// The cells of a position that is not check: each piece whose read off the board, in
/// some layout, finds the other side's captain with every square it needs empty.
pub fn cells(board: &Board, mut hit: impl FnMut(Cell)) {
    for side in Color::ALL {
        let Some(captain) = board.captain(side.opponent()) else {
            continue;
        };
        for layout in Layout::ALL {
            for read in table().get(&(captain, layout)).into_iter().flatten() {
                let here = board
                    .piece_at(read.from)
                    .is_some_and(|p| p.color == side && p.kind == read.kind);
                if here && read.empty.iter().all(|&s| board.is_empty(s)) {
                    hit(Cell::Alias(side, read.kind, read.v, layout));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::piece::Piece;

    fn sq(x: i64, y: i64) -> Square {
        Square::new(x, y).expect("on the board")
    }

    fn found(kind: PieceKind, delta: (i8, i8), from: Square, layout: Layout) -> Vec<Square> {
        let v = vectors(kind)
            .iter()
            .position(|v| v.delta == delta)
            .expect("a vector") as u8;
        reads(kind, v, from, layout)
            .into_iter()
            .map(|(s, _)| s)
            .collect()
    }

    #[test]
    fn a_read_off_the_board_lands_where_the_layout_puts_it() {
        use PieceKind::*;
        // Rows of 9: the tenth column of row 3 is row 4's first.
        assert_eq!(
            found(Soldier, (0, 1), sq(3, 8), Layout::RowsOf9),
            [sq(4, 0)]
        );
        // Column -1 is the previous row's last.
        assert_eq!(
            found(Soldier, (0, -1), sq(3, 0), Layout::RowsOf9),
            [sq(2, 8)]
        );
        // Rows of 10: the tenth column is empty padding, the eleventh the next row's first.
        assert!(found(Soldier, (0, 1), sq(3, 8), Layout::RowsOf10).is_empty());
        assert_eq!(found(Horse, (1, 2), sq(3, 8), Layout::RowsOf10), [sq(5, 0)]);
        // Columns of 10: row 10 is the next column's row 0.
        assert_eq!(
            found(Captain, (1, 0), sq(9, 4), Layout::ColumnsOf10),
            [sq(0, 5)]
        );
        // Off the end of the array: nothing is read.
        assert!(found(Captain, (1, 0), sq(9, 4), Layout::RowsOf9).is_empty());
        assert!(found(Soldier, (0, -1), sq(0, 0), Layout::RowsOf9).is_empty());
        // On the board: no alias.
        assert!(found(Horse, (2, 1), sq(3, 3), Layout::RowsOf9).is_empty());
        // A car's scan goes on past the edge, square by square.
        let car = found(Car, (0, 1), sq(8, 6), Layout::RowsOf9);
        assert_eq!(
            car,
            [
                sq(9, 0),
                sq(9, 1),
                sq(9, 2),
                sq(9, 3),
                sq(9, 4),
                sq(9, 5),
                sq(9, 6),
                sq(9, 7),
                sq(9, 8)
            ]
        );
    }

    #[test]
    fn a_false_check_is_found_only_with_its_squares_empty() {
        let mut board = Board::empty();
        board.put(sq(0, 0), Some(Piece::new(Color::Red, PieceKind::Captain)));
        board.put(sq(5, 0), Some(Piece::new(Color::Blue, PieceKind::Captain)));
        // A red soldier on (4, 8): its step right reads (4, 9), which rows of 9 store
        // as (5, 0), where the blue captain stands.
        board.put(sq(4, 8), Some(Piece::new(Color::Red, PieceKind::Soldier)));
        let hits = |board: &Board| {
            let mut out = Vec::new();
            cells(board, |c| out.push(c));
            out
        };
        let soldier = Cell::Alias(Color::Red, PieceKind::Soldier, 2, Layout::RowsOf9);
        assert!(hits(&board).contains(&soldier), "{:?}", hits(&board));
        // A red horse on (3, 7) reads (4, 9), (5, 0) too, by up one, right two, through
        // its leg (3, 8): found only while the leg is empty.
        board.put(sq(4, 8), None);
        board.put(sq(3, 7), Some(Piece::new(Color::Red, PieceKind::Horse)));
        board.put(sq(3, 8), Some(Piece::new(Color::Red, PieceKind::Soldier)));
        let horse = |c: &Cell| {
            matches!(
                c,
                Cell::Alias(Color::Red, PieceKind::Horse, _, Layout::RowsOf9)
            )
        };
        assert!(!hits(&board).iter().any(horse), "{:?}", hits(&board));
        board.put(sq(3, 8), None);
        assert!(hits(&board).iter().any(horse), "{:?}", hits(&board));
    }
}
