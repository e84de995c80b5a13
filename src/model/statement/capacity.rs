//! How much a solution must hold: the legal moves of a crowded position (a solution that
//! lists them in an array sized for the start position drops the last ones it finds),
//! a game in which every piece but the captains is taken, and a long run of invalid
//! commands. Where a move list is cut short, the moves lost are those of the piece its
//! scan reaches last; so each cell of a crowded position is a move by the piece one
//! order of scanning reaches last.

use super::geometry::vectors;
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};
use std::fmt;

/// Legal moves a side to move must have for its position to count as crowded: more
/// than the start position's 44 twice over, past an array of 64 or 80.
pub const CROWD: usize = 100;

/// Moves a list cut short still holds, at most: a piece whose moves all come after this
/// many in an order of scanning is lost from such a list.
pub const LATE: usize = 80;

/// Moves a list of both sides' moves still holds, at most: the other side's listed first,
/// then this side's (16 pieces of 8 moves).
pub const LATE_BOTH: usize = 128;

/// Invalid commands in a row that make a long run: past any count kept in a byte.
pub const LONG_RUN: usize = 256;

/// The most legal moves a side can have by the rules, counted piece by piece: a
/// captain 4, each guard 4, elephant 4, horse 8, car 17, duck 8 and soldier 8.
pub const RULES_BOUND: usize = 4 + 2 * 4 + 2 * 4 + 2 * 8 + 2 * 17 + 2 * 8 + 5 * 8;

/// An order in which a solution scans its pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scan {
    /// Row by row from (0, 0): the last piece is the one on the highest row, rightmost.
    RowsUp,
    /// Row by row from (9, 8).
    RowsDown,
    /// Column by column from (0, 0).
    ColumnsUp,
    /// Column by column from (9, 8).
    ColumnsDown,
    /// By starting piece number (red 0 to 15, blue 16 to 31), up.
    IdsUp,
    /// By starting piece number, down.
    IdsDown,
}

impl Scan {
    /// Every order.
    pub const ALL: [Scan; 6] = [
        Scan::RowsUp,
        Scan::RowsDown,
        Scan::ColumnsUp,
        Scan::ColumnsDown,
        Scan::IdsUp,
        Scan::IdsDown,
    ];

    /// The key whose largest value the order reaches last, for a piece on `s` with the
    /// starting number `id`.
    fn key(self, s: Square, id: u8) -> i32 {
        let (x, y) = (i32::from(s.x()), i32::from(s.y()));
        match self {
            Scan::RowsUp => x * 9 + y,
            Scan::RowsDown => -(x * 9 + y),
            Scan::ColumnsUp => y * 10 + x,
            Scan::ColumnsDown => -(y * 10 + x),
            Scan::IdsUp => i32::from(id),
            Scan::IdsDown => -i32::from(id),
        }
    }
}

impl fmt::Display for Scan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scan::RowsUp => "row by row from (0, 0)",
            Scan::RowsDown => "row by row from (9, 8)",
            Scan::ColumnsUp => "column by column from (0, 0)",
            Scan::ColumnsDown => "column by column from (9, 8)",
            Scan::IdsUp => "by piece number up",
            Scan::IdsDown => "by piece number down",
        })
    }
}

/// The most moves `kind` can have.
fn most(kind: PieceKind) -> usize {
    match kind {
        PieceKind::Captain | PieceKind::Guard | PieceKind::Elephant => 4,
        PieceKind::Car => 17,
        _ => 8,
    }
}

/// Whether `side`'s pieces could have [`CROWD`] legal moves at all (a bound by kinds).
pub fn may_crowd(board: &Board, side: Color) -> bool {
    let bound: usize = board
        .pieces()
        .filter(|(_, p)| p.color == side)
        .map(|(_, p)| most(p.kind))
        .sum();
    bound >= CROWD
}

/// The legal moves of the piece on `from` on `board` by the statement's geometry (the
/// game going on): how many.
fn moves_of(board: &Board, from: Square) -> usize {
    let Some(p) = board.piece_at(from) else {
        return 0;
    };
    let open = |s: Square| board.piece_at(s).is_none_or(|q| q.color != p.color);
    let mut n = 0;
    for v in vectors(p.kind) {
        if v.ray {
            let mut at = from;
            while let Some(s) = at.offset(v.delta) {
                n += usize::from(open(s));
                if !board.is_empty(s) {
                    break;
                }
                at = s;
            }
        } else if let Some(to) = from.offset(v.delta) {
            let free = v
                .blocks
                .iter()
                .all(|&b| from.offset(b).is_some_and(|s| board.is_empty(s)));
            n += usize::from(free && open(to));
        }
    }
    n
}

/// `side`'s legal moves on `board`, and for each order the square of the piece it reaches
/// last among those that have a move; `id` gives each square's starting number.
pub fn mobility(
    board: &Board,
    side: Color,
    id: impl Fn(Square) -> u8,
) -> (usize, [Option<Square>; 6]) {
    let mut total = 0;
    let mut last: [Option<(i32, Square)>; 6] = [None; 6];
    for (s, p) in board.pieces() {
        if p.color != side {
            continue;
        }
        let n = moves_of(board, s);
        if n == 0 {
            continue;
        }
        total += n;
        for (i, scan) in Scan::ALL.iter().enumerate() {
            let k = scan.key(s, id(s));
            if last[i].is_none_or(|(best, _)| k > best) {
                last[i] = Some((k, s));
            }
        }
    }
    (total, last.map(|l| l.map(|(_, s)| s)))
}

/// The pieces of `side` whose legal moves all come after the first [`LATE`] in each order
/// of scanning (each piece's moves together), when `side` has [`CROWD`] legal moves or
/// more; `id` gives each square's starting number.
pub fn late(board: &Board, side: Color, id: impl Fn(Square) -> u8) -> [Vec<Square>; 6] {
    let total: usize = board
        .pieces()
        .filter(|(_, p)| p.color == side)
        .map(|(s, _)| moves_of(board, s))
        .sum();
    if total < CROWD {
        return Default::default();
    }
    after(board, side, id, 0, LATE)
}

/// The pieces of `side` whose legal moves all come after the first [`LATE_BOTH`] of a
/// list of both sides' moves, the other side's first, in each order of scanning.
pub fn late_in_both(board: &Board, side: Color, id: impl Fn(Square) -> u8) -> [Vec<Square>; 6] {
    let theirs: usize = board
        .pieces()
        .filter(|(_, p)| p.color != side)
        .map(|(s, _)| moves_of(board, s))
        .sum();
    after(board, side, id, theirs, LATE_BOTH)
}

/// The pieces of `side` whose legal moves, after `before` moves listed first, all come
/// after the first `limit` in each order of scanning (each piece's moves together).
fn after(
    board: &Board,
    side: Color,
    id: impl Fn(Square) -> u8,
    before: usize,
    limit: usize,
) -> [Vec<Square>; 6] {
    let mut pieces: Vec<(Square, u8, usize)> = board
        .pieces()
        .filter(|(_, p)| p.color == side)
        .map(|(s, _)| (s, id(s), moves_of(board, s)))
        .filter(|&(_, _, n)| n > 0)
        .collect();
    let mut out: [Vec<Square>; 6] = Default::default();
    for (i, scan) in Scan::ALL.iter().enumerate() {
        pieces.sort_by_key(|&(s, id, _)| scan.key(s, id));
        let mut listed = before;
        for &(s, _, n) in &pieces {
            if listed >= limit {
                out[i].push(s);
            }
            listed += n;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::rules;

    #[test]
    fn the_start_position_has_the_judges_count_and_its_last_pieces() {
        let board = Board::start();
        let (n, last) = mobility(&board, Color::Red, |s| s.y());
        assert_eq!(n, rules::legal_moves(&board).len());
        assert!(n < CROWD && may_crowd(&board, Color::Red));
        // Row by row from (0, 0), the last red piece with a move is the soldier on (3, 8).
        assert_eq!(last[0], Square::new(3, 8));
        assert_eq!(last[1], Square::new(0, 0));
        assert_eq!(last[2], Square::new(3, 8));
        assert_eq!(RULES_BOUND, 126);
    }
}
