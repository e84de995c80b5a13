//! The statement's move table, written once more for the model (so that the model does
//! not inherit a slip of the judge's table; a test holds the two equal): each kind's
//! vectors with their blocking squares, the shape of a move, whether a move is the
//! rule's, and the squares each kind can stand on in some game.

use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::show::explain::direction;
use std::sync::OnceLock;

/// One vector of a kind's move, as the statement's table gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vector {
    /// Where the piece lands, relative to it; for a car, the direction of its line.
    pub delta: (i8, i8),
    /// The squares that must be empty, relative to the piece (a car's are every square
    /// strictly between).
    pub blocks: &'static [(i8, i8)],
    /// Whether the piece goes any distance along `delta` (the car).
    pub ray: bool,
}

const fn leap(delta: (i8, i8), blocks: &'static [(i8, i8)]) -> Vector {
    Vector {
        delta,
        blocks,
        ray: false,
    }
}

const fn ray(delta: (i8, i8)) -> Vector {
    Vector {
        delta,
        blocks: &[],
        ray: true,
    }
}

const CAPTAIN: [Vector; 4] = [
    leap((1, 0), &[]),
    leap((-1, 0), &[]),
    leap((0, 1), &[]),
    leap((0, -1), &[]),
];
const GUARD: [Vector; 4] = [
    leap((1, 1), &[]),
    leap((1, -1), &[]),
    leap((-1, 1), &[]),
    leap((-1, -1), &[]),
];
const ELEPHANT: [Vector; 4] = [
    leap((2, 2), &[(1, 1)]),
    leap((2, -2), &[(1, -1)]),
    leap((-2, 2), &[(-1, 1)]),
    leap((-2, -2), &[(-1, -1)]),
];
const HORSE: [Vector; 8] = [
    leap((2, 1), &[(1, 0)]),
    leap((2, -1), &[(1, 0)]),
    leap((-2, 1), &[(-1, 0)]),
    leap((-2, -1), &[(-1, 0)]),
    leap((1, 2), &[(0, 1)]),
    leap((-1, 2), &[(0, 1)]),
    leap((1, -2), &[(0, -1)]),
    leap((-1, -2), &[(0, -1)]),
];
const CAR: [Vector; 4] = [ray((1, 0)), ray((-1, 0)), ray((0, 1)), ray((0, -1))];
const DUCK: [Vector; 8] = [
    leap((3, 2), &[(1, 0), (2, 1)]),
    leap((3, -2), &[(1, 0), (2, -1)]),
    leap((-3, 2), &[(-1, 0), (-2, 1)]),
    leap((-3, -2), &[(-1, 0), (-2, -1)]),
    leap((2, 3), &[(0, 1), (1, 2)]),
    leap((-2, 3), &[(0, 1), (-1, 2)]),
    leap((2, -3), &[(0, -1), (1, -2)]),
    leap((-2, -3), &[(0, -1), (-1, -2)]),
];
const SOLDIER: [Vector; 8] = [
    leap((1, 0), &[]),
    leap((-1, 0), &[]),
    leap((0, 1), &[]),
    leap((0, -1), &[]),
    leap((1, 1), &[]),
    leap((1, -1), &[]),
    leap((-1, 1), &[]),
    leap((-1, -1), &[]),
];

/// The vectors of `kind`'s move, in the statement's order.
pub fn vectors(kind: PieceKind) -> &'static [Vector] {
    match kind {
        PieceKind::Captain => &CAPTAIN,
        PieceKind::Guard => &GUARD,
        PieceKind::Elephant => &ELEPHANT,
        PieceKind::Horse => &HORSE,
        PieceKind::Car => &CAR,
        PieceKind::Duck => &DUCK,
        PieceKind::Soldier => &SOLDIER,
    }
}

/// A vector's name: `up2-right1` (x grows upwards, y to the right); a car's direction
/// without a count.
pub fn vector_name(kind: PieceKind, v: u8) -> String {
    direction(kind, vectors(kind)[v as usize].delta)
}

/// The vector by which a `kind` on `from` has the shape of a move to `to`, blocking
/// squares aside.
pub fn shape(kind: PieceKind, from: Square, to: Square) -> Option<u8> {
    let (dx, dy) = to.delta_from(from);
    vectors(kind)
        .iter()
        .position(|v| {
            if v.ray {
                let n = dx.abs().max(dy.abs());
                n > 0 && (dx, dy) == (v.delta.0 * n, v.delta.1 * n)
            } else {
                (dx, dy) == v.delta
            }
        })
        .map(|i| i as u8)
}

/// Whether every blocking square of `kind`'s move from `from` to `to` by vector `v`
/// is empty on `board`.
pub(super) fn open(board: &Board, kind: PieceKind, v: u8, from: Square, to: Square) -> bool {
    let vec = vectors(kind)[v as usize];
    if vec.ray {
        let (dx, dy) = to.delta_from(from);
        let n = dx.abs().max(dy.abs());
        (1..n).all(|k| {
            from.offset((k * vec.delta.0, k * vec.delta.1))
                .is_some_and(|s| board.is_empty(s))
        })
    } else {
        vec.blocks
            .iter()
            .all(|&b| from.offset(b).is_some_and(|s| board.is_empty(s)))
    }
}

/// The vector by which the piece on `from` may move to `to` by its rule on `board`:
/// the shape, the blocking squares empty, the target not its own side's.
pub fn rule_move(board: &Board, from: Square, to: Square) -> Option<u8> {
    let p = board.piece_at(from)?;
    let v = shape(p.kind, from, to)?;
    let own = board.piece_at(to).is_some_and(|q| q.color == p.color);
    (!own && open(board, p.kind, v, from, to)).then_some(v)
}

/// The squares `side`'s pieces of `kind` can stand on in some game: those their
/// moves reach from their starting squares on an empty board. A move in a game is a
/// move on the empty board too (pieces only take moves away), so no game puts the
/// piece anywhere else.
pub fn stands(side: Color, kind: PieceKind) -> u128 {
    static ALL: OnceLock<Vec<u128>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        let start = Board::start();
        let mut out = Vec::new();
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                let mut seen: u128 = 0;
                let mut todo: Vec<Square> = start
                    .pieces()
                    .filter(|(_, p)| p.color == side && p.kind == kind)
                    .map(|(s, _)| s)
                    .collect();
                for &s in &todo {
                    seen |= 1 << s.bit();
                }
                while let Some(s) = todo.pop() {
                    for t in Square::all() {
                        if seen & (1 << t.bit()) == 0 && shape(kind, s, t).is_some() {
                            seen |= 1 << t.bit();
                            todo.push(t);
                        }
                    }
                }
                out.push(seen);
            }
        }
        out
    });
    all[side.index() * 7 + kind.index()]
}

pub(super) fn can_stand(side: Color, kind: PieceKind, s: Square) -> bool {
    stands(side, kind) & (1 << s.bit()) != 0
}

/// A displacement `(dx, dy)`: the target's row and column less the source's.
pub type Shift = (i8, i8);

/// Every displacement a command can have on the board: rows -9 to 9, columns -8 to 8,
/// none at all (the source as the target) among them.
pub fn shifts() -> impl Iterator<Item = Shift> {
    (-9..=9i8).flat_map(|dx| (-8..=8i8).map(move |dy| (dx, dy)))
}

/// `(+3, -1)`: a displacement in words.
pub fn shift_words(d: Shift) -> String {
    format!("({:+}, {:+})", d.0, d.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::rules::{Reach, REACH};

    #[test]
    fn the_geometry_is_the_judges() {
        // Written twice on purpose; the two must say the same.
        for kind in PieceKind::ALL {
            let ours = vectors(kind);
            match REACH[kind.index()] {
                Reach::Leaps(leaps) => {
                    assert_eq!(leaps.len(), ours.len(), "{kind}");
                    for l in leaps {
                        let v = ours.iter().find(|v| v.delta == l.delta).expect("a vector");
                        let mut a = v.blocks.to_vec();
                        let mut b = l.blocks.to_vec();
                        a.sort();
                        b.sort();
                        assert_eq!(a, b, "{kind} {:?}", l.delta);
                    }
                }
                Reach::Rays(dirs) => {
                    assert_eq!(dirs.len(), ours.len());
                    assert!(ours.iter().all(|v| v.ray && dirs.contains(&v.delta)));
                }
            }
        }
    }
}
