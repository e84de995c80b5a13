//! The mutant's board: the pieces on their squares with their ids,
//! each side's pieces as bits, and the captains (a solution that keeps a taken piece
//! alive sees it still).

use super::{At, Mutant, NO_ID};
use crate::catalogue::handwritten::Written;
use crate::judge::piece::{Color, Piece, PieceKind};

impl Mutant {
    /// Moves the piece on `from` to `to`, its id with it.
    pub(super) fn displace(&mut self, from: At, to: At) {
        let piece = self.at(from);
        self.set(to, piece);
        self.ids[to.index()] = self.ids[from.index()];
        if !self.makes(Written::SourceNotCleared) {
            self.set(from, None);
            self.ids[from.index()] = NO_ID;
        }
    }

    /// The piece on `s`; nothing stands off the board (where a misplaced blocking
    /// square may fall: the mistaken solution finds it empty).
    pub(super) fn at(&self, s: At) -> Option<Piece> {
        if s.on_board() {
            self.squares[s.index()]
        } else {
            None
        }
    }

    pub(super) fn empty(&self, s: At) -> bool {
        self.at(s).is_none()
    }

    /// Puts `piece` (or nothing) on `s`, which is on the board.
    pub(super) fn set(&mut self, s: At, piece: Option<Piece>) {
        let bit = 1u128 << s.index();
        if let Some(old) = self.squares[s.index()] {
            self.occupied[old.color.index()] &= !bit;
        }
        if let Some(new) = piece {
            self.occupied[new.color.index()] |= bit;
        }
        self.squares[s.index()] = piece;
    }

    /// The squares of `color`'s pieces.
    pub(super) fn pieces(&self, color: Color) -> impl Iterator<Item = (At, Piece)> + '_ {
        let mut bits = self.occupied[color.index()];
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.squares[i].map(|p| (At::of(i), p))
        })
    }

    /// The square `(x, y)` of a command, when the solution thinks it is on the board.
    pub(super) fn square(&self, x: i64, y: i64) -> Option<At> {
        let (rows, cols) = if self.makes(Written::NineRows) {
            (9, 10)
        } else {
            (10, 9)
        };
        // Whatever the bounds it believes in, the array holds only the real board.
        let s = At { x, y };
        ((0..rows).contains(&x) && (0..cols).contains(&y) && s.on_board()).then_some(s)
    }

    /// Where `color`'s captains stand (a solution that leaves copies behind may have
    /// several, or none once one is taken).
    pub(super) fn captains(&self, color: Color) -> impl Iterator<Item = At> + '_ {
        self.pieces(color)
            .chain(self.ghost_of(color))
            .filter(|(_, p)| p.kind == PieceKind::Captain)
            .map(|(s, _)| s)
    }

    /// The taken piece of `color` the solution's table still keeps, if any.
    pub(super) fn ghost_of(&self, color: Color) -> Option<(At, Piece)> {
        self.ghost.filter(|(_, p)| p.color == color)
    }

    pub(super) fn has_captain(&self, color: Color) -> bool {
        self.captains(color).next().is_some()
    }
}
