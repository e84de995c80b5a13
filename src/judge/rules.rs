//! How each piece moves: one const table of `(target delta, blocking deltas)` per kind, and
//! the car as rays. Everything that asks "can this piece go there" reads this table:
//! move validation and move generation forwards from the mover, attack detection
//! backwards from the attacked square. No rule is written a second time anywhere.
//!
//! On the judge path: Rust 1.63 only.

use super::board::Board;
use super::piece::{Color, Piece, PieceKind, Square};
use std::fmt;

/// One fixed-distance move: the target is `delta` away from the mover, and every square
/// in `blocks` (also relative to the mover) must be empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leap {
    /// Target minus source, as `(dx, dy)`.
    pub delta: (i8, i8),
    /// Squares, relative to the source, that must be empty of either side's pieces.
    pub blocks: &'static [(i8, i8)],
}

/// How one kind of piece moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A fixed set of leaps.
    Leaps(&'static [Leap]),
    /// Any distance along these directions, every square strictly between empty.
    Rays(&'static [(i8, i8)]),
}

const fn leap(dx: i8, dy: i8, blocks: &'static [(i8, i8)]) -> Leap {
    Leap {
        delta: (dx, dy),
        blocks,
    }
}

const CAPTAIN: &[Leap] = &[
    leap(1, 0, &[]),
    leap(-1, 0, &[]),
    leap(0, 1, &[]),
    leap(0, -1, &[]),
];

const GUARD: &[Leap] = &[
    leap(1, 1, &[]),
    leap(1, -1, &[]),
    leap(-1, 1, &[]),
    leap(-1, -1, &[]),
];

// The elephant is blocked at the midpoint of its diagonal.
const ELEPHANT: &[Leap] = &[
    leap(2, 2, &[(1, 1)]),
    leap(2, -2, &[(1, -1)]),
    leap(-2, 2, &[(-1, 1)]),
    leap(-2, -2, &[(-1, -1)]),
];

// The horse is blocked on the square next to it in the direction of its long leg.
const HORSE: &[Leap] = &[
    leap(2, 1, &[(1, 0)]),
    leap(2, -1, &[(1, 0)]),
    leap(-2, 1, &[(-1, 0)]),
    leap(-2, -1, &[(-1, 0)]),
    leap(1, 2, &[(0, 1)]),
    leap(-1, 2, &[(0, 1)]),
    leap(1, -2, &[(0, -1)]),
    leap(-1, -2, &[(0, -1)]),
];

// The duck goes one step straight, then two diagonally; either step can be blocked.
const DUCK: &[Leap] = &[
    leap(3, 2, &[(1, 0), (2, 1)]),
    leap(3, -2, &[(1, 0), (2, -1)]),
    leap(-3, 2, &[(-1, 0), (-2, 1)]),
    leap(-3, -2, &[(-1, 0), (-2, -1)]),
    leap(2, 3, &[(0, 1), (1, 2)]),
    leap(-2, 3, &[(0, 1), (-1, 2)]),
    leap(2, -3, &[(0, -1), (1, -2)]),
    leap(-2, -3, &[(0, -1), (-1, -2)]),
];

const SOLDIER: &[Leap] = &[
    leap(1, 0, &[]),
    leap(-1, 0, &[]),
    leap(0, 1, &[]),
    leap(0, -1, &[]),
    leap(1, 1, &[]),
    leap(1, -1, &[]),
    leap(-1, 1, &[]),
    leap(-1, -1, &[]),
];

const CAR_RAYS: &[(i8, i8)] = &[(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The move table, indexed by [`PieceKind::index`].
pub const REACH: [Reach; 7] = [
    Reach::Leaps(CAPTAIN),
    Reach::Leaps(GUARD),
    Reach::Leaps(ELEPHANT),
    Reach::Leaps(HORSE),
    Reach::Rays(CAR_RAYS),
    Reach::Leaps(DUCK),
    Reach::Leaps(SOLDIER),
];

/// How `kind` moves.
#[inline]
pub fn reach(kind: PieceKind) -> Reach {
    REACH[kind.index()]
}

/// The squares a piece of `kind` on `at` reaches in one move on an empty board (no
/// blocking square, nothing in the way), in the table's order, each ray outwards; with
/// `backwards`, the squares from which such a piece reaches `at`. For the tools that
/// plan games (the judge itself reads [`REACH`] directly).
pub fn empty_board_reach(kind: PieceKind, at: Square, backwards: bool) -> Vec<Square> {
    let sign = if backwards { -1 } else { 1 };
    let mut out = Vec::new();
    match reach(kind) {
        Reach::Leaps(leaps) => {
            for l in leaps {
                out.extend(at.offset((sign * l.delta.0, sign * l.delta.1)));
            }
        }
        Reach::Rays(dirs) => {
            for &(dx, dy) in dirs {
                let mut from = at;
                while let Some(next) = from.offset((sign * dx, sign * dy)) {
                    out.push(next);
                    from = next;
                }
            }
        }
    }
    out
}

/// A move from one square to another.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move {
    /// Where the moving piece stands.
    pub from: Square,
    /// Where it goes (capturing whatever opposing piece stands there).
    pub to: Square,
}

impl fmt::Display for Move {
    /// `xs ys xt yt`, the judge's command form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            self.from.x(),
            self.from.y(),
            self.to.x(),
            self.to.y()
        )
    }
}

/// Why a piece's own movement rule does not take it to a target (ownership aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathError {
    /// No entry of the table has this delta.
    NotThatWay,
    /// The delta is right but this square on the way is occupied.
    Blocked(Square),
}

/// The first occupied blocking square of `leap` taken from `from`, if any.
#[inline]
fn leap_blocker(board: &Board, from: Square, leap: &Leap) -> Option<Square> {
    // Blocking squares lie inside the rectangle spanned by source and target, so they are
    // on the board whenever both ends are; `offset` still checks, and an impossible
    // off-board blocker counts as no obstacle.
    leap.blocks
        .iter()
        .filter_map(|&d| from.offset(d))
        .find(|&s| !board.is_empty(s))
}

/// Whether a piece of `kind` on `from` may go to `to` by its movement rule, the
/// blocking squares included. Ownership of the two squares is not looked at.
pub fn check_path(
    board: &Board,
    kind: PieceKind,
    from: Square,
    to: Square,
) -> Result<(), PathError> {
    let delta = to.delta_from(from);
    match reach(kind) {
        Reach::Leaps(leaps) => match leap_for(kind, delta) {
            None => Err(PathError::NotThatWay),
            Some(i) => match leap_blocker(board, from, &leaps[i]) {
                None => Ok(()),
                Some(s) => Err(PathError::Blocked(s)),
            },
        },
        Reach::Rays(dirs) => {
            let (dx, dy) = delta;
            let dir = (dx.signum(), dy.signum());
            if !dirs.contains(&dir) || (dx != 0 && dy != 0) {
                return Err(PathError::NotThatWay);
            }
            let mut s = from;
            loop {
                s = match s.offset(dir) {
                    Some(next) => next,
                    None => return Err(PathError::NotThatWay),
                };
                if s == to {
                    return Ok(());
                }
                if !board.is_empty(s) {
                    return Err(PathError::Blocked(s));
                }
            }
        }
    }
}

/// For each kind and delta `(dx + 9, dy + 8)`, the index of the leap with that delta
/// plus one, or 0 when there is none: [`REACH`] indexed by delta, built at compile time.
static LEAP_BY_DELTA: [[[u8; 17]; 19]; 7] = leap_by_delta_table();

const fn leap_by_delta_table() -> [[[u8; 17]; 19]; 7] {
    let mut table = [[[0u8; 17]; 19]; 7];
    let mut k = 0;
    while k < 7 {
        if let Reach::Leaps(leaps) = REACH[k] {
            let mut i = 0;
            while i < leaps.len() {
                let (dx, dy) = leaps[i].delta;
                table[k][(dx + 9) as usize][(dy + 8) as usize] = i as u8 + 1;
                i += 1;
            }
        }
        k += 1;
    }
    table
}

/// The index into `kind`'s leaps of the one with this delta, if any; a table look-up
/// rather than a search, since the search's exit point is what a random game can't
/// predict.
#[inline]
fn leap_for(kind: PieceKind, (dx, dy): (i8, i8)) -> Option<usize> {
    // Deltas between two squares of the board always fit the table.
    let slot = LEAP_BY_DELTA[kind.index()][(dx + 9) as usize][(dy + 8) as usize];
    (slot as usize).checked_sub(1)
}

/// For each kind and target square (by [`Square::bit`]), the squares from which a piece
/// of that kind could reach the target on an empty board: the table read backwards.
/// Computed at compile time from [`REACH`], so it can never disagree with it.
static SOURCES: [[u128; 90]; 7] = sources_table();

const fn sources_table() -> [[u128; 90]; 7] {
    let mut table = [[0u128; 90]; 7];
    let mut k = 0;
    while k < 7 {
        let mut t = 0;
        while t < 90 {
            let (tx, ty) = ((t / 9) as i8, (t % 9) as i8);
            match REACH[k] {
                Reach::Leaps(leaps) => {
                    let mut i = 0;
                    while i < leaps.len() {
                        let (dx, dy) = leaps[i].delta;
                        table[k][t] |= bit_at(tx - dx, ty - dy);
                        i += 1;
                    }
                }
                Reach::Rays(dirs) => {
                    let mut i = 0;
                    while i < dirs.len() {
                        let (dx, dy) = dirs[i];
                        let mut n = 1;
                        while n < 10 {
                            table[k][t] |= bit_at(tx - n * dx, ty - n * dy);
                            n += 1;
                        }
                        i += 1;
                    }
                }
            }
            t += 1;
        }
        k += 1;
    }
    table
}

/// The number of `(x, y)`'s bit in a 90-bit board mask (its [`Square::bit`]), or `None`
/// off the board. Usable in constants, where the tables are built.
pub const fn bit_of(x: i8, y: i8) -> Option<u32> {
    if x >= 0 && x < 10 && y >= 0 && y < 9 {
        Some(x as u32 * 9 + y as u32)
    } else {
        None
    }
}

/// The mask bit of `(x, y)`, or 0 off the board.
const fn bit_at(x: i8, y: i8) -> u128 {
    match bit_of(x, y) {
        Some(b) => 1u128 << b,
        None => 0,
    }
}

/// Calls `found(square, piece)` for every piece of side `by` that could move onto
/// `target` by its movement rule, stopping early when `found` returns `true`. Returns
/// whether it stopped early.
///
/// Works backwards from `target`: the compile-time [`SOURCES`] table (derived from
/// [`REACH`]) narrows each kind down to the pieces standing where it could attack from,
/// usually none; each such candidate is then confirmed by [`check_path`], the very
/// check move validation uses, so its blocking squares are taken next to the attacker.
/// Whether `target` holds a piece of `by` itself is not looked at: callers ask about
/// the opposing captain's square.
#[inline]
pub fn find_attacker<F: FnMut(Square, Piece) -> bool>(
    board: &Board,
    target: Square,
    by: Color,
    mut found: F,
) -> bool {
    let t = target.bit() as usize;
    // Usually no piece stands anywhere it could attack from; one branch-free pass over
    // the kinds settles that before any candidate is looked at.
    let sources = &SOURCES;
    let mut any = 0u128;
    for kind in PieceKind::ALL {
        any |= sources[kind.index()][t] & board.mask(by, kind);
    }
    if any == 0 {
        return false;
    }
    for kind in PieceKind::ALL {
        let mut candidates = SOURCES[kind.index()][t] & board.mask(by, kind);
        while candidates != 0 {
            let from = Square::from_bit(candidates.trailing_zeros());
            candidates &= candidates - 1;
            if check_path(board, kind, from, target).is_ok() && found(from, Piece::new(by, kind)) {
                return true;
            }
        }
    }
    false
}

/// Whether some piece of `by` could move onto `target`.
#[inline]
pub fn is_attacked(board: &Board, target: Square, by: Color) -> bool {
    find_attacker(board, target, by, |_, _| true)
}

/// The squares of every piece of `by` that could move onto `target`.
pub fn attackers(board: &Board, target: Square, by: Color) -> Vec<Square> {
    let mut out = Vec::new();
    find_attacker(board, target, by, |s, _| {
        out.push(s);
        false
    });
    out
}

/// Whether the position is check (SPEC section 3): the game goes on and some side, either
/// one, could capture the other side's captain.
#[inline]
pub fn is_check(board: &Board) -> bool {
    match (board.captain(Color::Red), board.captain(Color::Blue)) {
        (Some(red), Some(blue)) => {
            is_attacked(board, blue, Color::Red) || is_attacked(board, red, Color::Blue)
        }
        _ => false,
    }
}

/// Calls `each(move)` for every legal move of the side to move, square by square from
/// `(0, 0)` and in table order. A finished game has none. Moving into attack is legal.
#[inline]
pub fn for_each_move<F: FnMut(Move)>(board: &Board, mut each: F) {
    if board.is_over() {
        return;
    }
    let side = board.side_to_move();
    // Visit only the side's own pieces, found through the per-kind masks; bits count
    // row by row from (0, 0), the same order as `Square::all`.
    let mut own = 0u128;
    for kind in PieceKind::ALL {
        own |= board.mask(side, kind);
    }
    while own != 0 {
        let from = Square::from_bit(own.trailing_zeros());
        own &= own - 1;
        let piece = match board.piece_at(from) {
            Some(p) => p,
            None => continue,
        };
        let open = |to: Square| !matches!(board.piece_at(to), Some(p) if p.color == side);
        match reach(piece.kind) {
            Reach::Leaps(leaps) => {
                for l in leaps {
                    if let Some(to) = from.offset(l.delta) {
                        if open(to) && leap_blocker(board, from, l).is_none() {
                            each(Move { from, to });
                        }
                    }
                }
            }
            Reach::Rays(dirs) => {
                for &dir in dirs {
                    let mut s = from;
                    while let Some(to) = s.offset(dir) {
                        s = to;
                        if open(to) {
                            each(Move { from, to });
                        }
                        if !board.is_empty(to) {
                            break;
                        }
                    }
                }
            }
        }
    }
}

/// Every legal move of the side to move, in the order of [`for_each_move`].
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut out = Vec::with_capacity(64);
    for_each_move(board, |m| out.push(m));
    out
}
