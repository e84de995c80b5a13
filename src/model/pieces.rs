//! The 32 starting pieces, each one by its starting square, in the two orders the model
//! counts them in: by id, as a solution that keeps the pieces in a table numbers them
//! (the move table's map), and by square (the statement's model). The catalogue numbers
//! them the same way for its own use; a test of the suite holds the two tables equal.

use crate::judge::piece::{Color, Piece, PieceKind, Square};
use std::sync::OnceLock;

/// One of the 32 starting pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    /// Its id: red 0 to 15, blue 16 to 31; in each side the captain, the guards,
    /// elephants, horses, cars, ducks, then the soldiers, each kind from column 0 to 8.
    pub id: u8,
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: PieceKind,
    /// Its starting row.
    pub x: i64,
    /// Its starting column.
    pub y: i64,
}

impl Start {
    /// `red-guard-0-3`: its side, kind and starting square.
    pub fn name(&self) -> String {
        format!("{}-{}-{}-{}", self.color, self.kind, self.x, self.y)
    }

    /// `the red guard that starts on (0, 3)`.
    pub fn words(&self) -> String {
        format!(
            "the {} {} that starts on ({}, {})",
            self.color, self.kind, self.x, self.y
        )
    }

    /// Its side and kind.
    pub fn piece(&self) -> Piece {
        Piece::new(self.color, self.kind)
    }

    /// Its starting square.
    pub fn square(&self) -> Square {
        Square::new(self.x, self.y).expect("a starting square is on the board")
    }
}

/// The 32 starting pieces, by id.
pub fn by_id() -> &'static [Start] {
    static BY_ID: OnceLock<Vec<Start>> = OnceLock::new();
    BY_ID.get_or_init(|| {
        use PieceKind::*;
        // Each kind's starting squares on red's side, from column 0 to column 8.
        let squares: [(PieceKind, &[(i64, i64)]); 7] = [
            (Captain, &[(0, 4)]),
            (Guard, &[(0, 3), (0, 5)]),
            (Elephant, &[(0, 2), (0, 6)]),
            (Horse, &[(0, 1), (0, 7)]),
            (Car, &[(0, 0), (0, 8)]),
            (Duck, &[(2, 0), (2, 8)]),
            (Soldier, &[(3, 0), (3, 2), (3, 4), (3, 6), (3, 8)]),
        ];
        let mut out = Vec::with_capacity(32);
        for color in Color::ALL {
            for (kind, at) in squares {
                for &(x, y) in at {
                    out.push(Start {
                        id: out.len() as u8,
                        color,
                        kind,
                        x: if color == Color::Red { x } else { 9 - x },
                        y,
                    });
                }
            }
        }
        out
    })
}

/// The 32 starting pieces, red first, each side by square (row, then column).
pub fn by_square() -> &'static [Start] {
    static BY_SQUARE: OnceLock<Vec<Start>> = OnceLock::new();
    BY_SQUARE.get_or_init(|| {
        let mut out = by_id().to_vec();
        out.sort_by_key(|s| (s.color.index(), s.x, s.y));
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::board::Board;

    #[test]
    fn both_orders_hold_the_start_position() {
        let start = Board::start();
        for list in [by_id(), by_square()] {
            assert_eq!(list.len(), 32);
            assert_eq!(list.len(), start.pieces().count());
            for s in list {
                assert_eq!(start.piece_at(s.square()), Some(s.piece()), "{}", s.name());
            }
        }
        for (i, s) in by_id().iter().enumerate() {
            assert_eq!(s.id as usize, i);
        }
        assert_eq!(by_id()[0].name(), "red-captain-0-4");
        assert_eq!(by_id()[16].name(), "blue-captain-9-4");
        assert_eq!(by_square()[0].name(), "red-car-0-0");
        assert_eq!(by_square()[31].name(), "blue-car-9-8");
    }
}
