//! What a move must refuse, displacement by displacement: for each kind, every
//! `(dx, dy)` from rows -9 to 9 and columns -8 to 8 that is no shape of its move (onto an
//! empty square), and for its own shapes the target held by its own side, the target
//! held by the other side (a capture), and each blocking square held by either side. A
//! solution that tests a shape by a formula (`|dx| + |dy| == 3` for a horse) admits
//! displacements the table does not; only a command of each shows it.

use super::cells::{Cell, Onto};
use super::geometry::{shifts, stands, vectors, Shift};
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};

/// The blocking squares of `kind`'s move by `d`, relative to the piece, when `d` is a
/// shape of its move (a car's: every square strictly between); `None` when it is not.
pub fn shape_blocks(kind: PieceKind, d: Shift) -> Option<Vec<Shift>> {
    vectors(kind).iter().find_map(|v| {
        if v.ray {
            let n = d.0.abs().max(d.1.abs());
            let on = n > 0 && d == (v.delta.0 * n, v.delta.1 * n);
            on.then(|| (1..n).map(|k| (v.delta.0 * k, v.delta.1 * k)).collect())
        } else {
            (d == v.delta).then(|| v.blocks.to_vec())
        }
    })
}

/// The displacements of `kind`'s own shapes: a leap's vectors; every square of a car's
/// four lines.
pub fn own_shifts(kind: PieceKind) -> Vec<Shift> {
    shifts()
        .filter(|&d| shape_blocks(kind, d).is_some())
        .collect()
}

/// The blocking squares a cell names for `kind`'s shape `d`: each of a leap's, one for a
/// car (some square between, of a line two squares long or more).
pub fn named_blocks(kind: PieceKind, d: Shift) -> usize {
    match shape_blocks(kind, d) {
        Some(b) if kind == PieceKind::Car => usize::from(!b.is_empty()),
        Some(b) => b.len(),
        None => 0,
    }
}

/// Whether some square `side`'s `kind` can stand on has `d` of it on the board, with
/// every square of `extra` (relative to the piece) on the board too.
pub fn fits(side: Color, kind: PieceKind, d: Shift, extra: &[Shift]) -> bool {
    let can = stands(side, kind);
    Square::all().any(|a| {
        can & (1 << a.bit()) != 0
            && a.offset(d).is_some()
            && extra.iter().all(|&b| a.offset(b).is_some())
    })
}

/// The cells of a command by `side`'s piece on `from` to `to` that the judge refuses,
/// the game going on: a displacement no shape allows onto an empty square, a shape onto
/// its own side, a shape through a held blocking square; the source on its target.
pub fn refused(board: &Board, side: Color, from: Square, to: Square) -> Vec<Cell> {
    let Some(p) = board.piece_at(from).filter(|p| p.color == side) else {
        return Vec::new();
    };
    let d = to.delta_from(from);
    if from == to {
        return vec![
            Cell::Refused(side, p.kind, 0, 0),
            Cell::Input(super::cells::InputEdge::SourceIsTarget),
        ];
    }
    let onto = Onto::of(board, side, to);
    let Some(blocks) = shape_blocks(p.kind, d) else {
        return match onto {
            Onto::Empty => vec![Cell::Refused(side, p.kind, d.0, d.1)],
            _ => Vec::new(),
        };
    };
    if onto == Onto::Own {
        return vec![Cell::ShapeOnto(side, p.kind, d.0, d.1, Onto::Own)];
    }
    let mut out = Vec::new();
    for (i, &b) in blocks.iter().enumerate() {
        let Some(holder) = from.offset(b).and_then(|s| board.piece_at(s)) else {
            continue;
        };
        let by = if holder.color == side {
            Onto::Own
        } else {
            Onto::Enemy
        };
        // A car's blocking squares are one cell: some square between.
        let index = if p.kind == PieceKind::Car { 0 } else { i as u8 };
        let cell = Cell::ShapeBlocked(side, p.kind, d.0, d.1, index, by);
        if !out.contains(&cell) {
            out.push(cell);
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

    #[test]
    fn every_displacement_of_the_board_is_one_shift() {
        assert_eq!(shifts().count(), 19 * 17);
        assert_eq!(own_shifts(PieceKind::Car).len(), 2 * 9 + 2 * 8);
        assert_eq!(own_shifts(PieceKind::Horse).len(), 8);
        assert_eq!(own_shifts(PieceKind::Captain).len(), 4);
        assert_eq!(named_blocks(PieceKind::Duck, (3, 2)), 2);
        assert_eq!(named_blocks(PieceKind::Car, (0, 1)), 0);
        assert_eq!(named_blocks(PieceKind::Car, (0, -5)), 1);
        assert_eq!(
            shape_blocks(PieceKind::Car, (3, 0)),
            Some(vec![(1, 0), (2, 0)])
        );
        assert_eq!(shape_blocks(PieceKind::Horse, (3, 0)), None);
    }

    #[test]
    fn a_command_is_refused_by_what_it_is() {
        let mut board = Board::start();
        let red = Color::Red;
        // The red horse on (0, 1): three squares up, no shape of its.
        assert_eq!(
            refused(&board, red, sq(0, 1), sq(3, 1)),
            [Cell::Refused(red, PieceKind::Horse, 3, 0)]
        );
        // Up two and right one: its leg (1, 1) is empty, the target too: no refusal.
        assert!(refused(&board, red, sq(0, 1), sq(2, 2)).is_empty());
        // Up one, right two onto its own elephant? (1, 3) is empty; (0, 1) to (1, 3):
        // its leg (0, 2) holds the red elephant.
        assert_eq!(
            refused(&board, red, sq(0, 1), sq(1, 3)),
            [Cell::ShapeBlocked(
                red,
                PieceKind::Horse,
                1,
                2,
                0,
                Onto::Own
            )]
        );
        // The car on (0, 0) onto its own horse, and through its own duck.
        assert_eq!(
            refused(&board, red, sq(0, 0), sq(0, 1)),
            [Cell::ShapeOnto(red, PieceKind::Car, 0, 1, Onto::Own)]
        );
        assert_eq!(
            refused(&board, red, sq(0, 0), sq(4, 0)),
            [Cell::ShapeBlocked(red, PieceKind::Car, 4, 0, 0, Onto::Own)]
        );
        // Through a blue piece too: both holders named once.
        board.put(sq(1, 0), Some(Piece::new(Color::Blue, PieceKind::Guard)));
        let cells = refused(&board, red, sq(0, 0), sq(4, 0));
        assert_eq!(cells.len(), 2, "{cells:?}");
        assert_eq!(
            refused(&board, red, sq(0, 4), sq(0, 4)),
            [
                Cell::Refused(red, PieceKind::Captain, 0, 0),
                Cell::Input(super::super::cells::InputEdge::SourceIsTarget)
            ]
        );
        // Not the mover's piece: nothing of this dimension.
        assert!(refused(&board, red, sq(9, 0), sq(5, 0)).is_empty());
    }
}
