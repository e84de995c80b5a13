//! The static evaluation: material, mobility, and pressure around the opposing
//! captain, from the side to move's point of view.

use crate::judge::board::Board;
use crate::judge::piece::{PieceKind, Square};
use crate::judge::rules;

/// The score of taking the opposing captain now; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;

/// The material value of each kind in centipawn-like units (the horse is 300), indexed
/// by [`PieceKind::index`]. The captain has none: losing it is not a material matter but
/// the end of the game.
///
/// The values follow the square root of each piece's average number of targets on an
/// empty 10 x 9 board (car 17, soldier 6.8, horse 5.6, duck 4.3, guard 3.2, elephant
/// 2.5), scaled so that the horse is 300. The square root is what chess itself suggests:
/// a rook reaches 14 squares and a knight 5.25 on average, a ratio of 2.7, yet a rook is
/// worth only 5/3 of a knight, which is the square root of 2.7. The elephant and the
/// guard are then rounded down a little more because they are tied to a quarter and a
/// half of the board's squares (the elephant's jumps keep both coordinates' parity, the
/// guard's keep the parity of `x + y`).
pub const VALUES: [i32; 7] = [0, 210, 180, 300, 520, 260, 330];

/// Centipawns per available move (mobility difference between the sides).
const MOBILITY: i32 = 4;
/// Centipawns per move that lands next to the opposing captain (pressure on it).
const PRESSURE: i32 = 10;
/// Bonus for having the move.
const TEMPO: i32 = 10;
/// The material value of `kind` (see [`VALUES`]).
#[inline]
pub fn value(kind: PieceKind) -> i32 {
    VALUES[kind.index()]
}

/// The static evaluation of `board` from the side to move's point of view: material,
/// mobility and pressure around the opposing captain. A finished game scores as won or
/// lost. Does not search: a captain capture available now is not seen here.
pub fn evaluate(board: &Board) -> i32 {
    let mut b = board.clone();
    eval_mut(&mut b)
}

pub(crate) fn eval_mut(board: &mut Board) -> i32 {
    let side = board.side_to_move();
    let (mine, theirs) = match (board.captain(side), board.captain(side.opponent())) {
        (Some(m), Some(t)) => (m, t),
        (None, _) => return -MATE,
        (_, None) => return MATE,
    };
    let mut score = TEMPO;
    for (_, p) in board.pieces() {
        if p.color == side {
            score += value(p.kind);
        } else {
            score -= value(p.kind);
        }
    }
    score += activity(board, theirs);
    board.set_side_to_move(side.opponent());
    score -= activity(board, mine);
    board.set_side_to_move(side);
    score
}

/// Mobility and pressure of the side to move, aimed at the captain on `target`.
#[inline]
fn activity(board: &Board, target: Square) -> i32 {
    let mut moves = 0;
    let mut near = 0;
    let (tx, ty) = (target.x() as i32, target.y() as i32);
    rules::for_each_move(board, |m| {
        moves += 1;
        if (m.to.x() as i32 - tx).abs() <= 1 && (m.to.y() as i32 - ty).abs() <= 1 {
            near += 1;
        }
    });
    MOBILITY * moves + PRESSURE * near
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Board::start()), TEMPO);
    }
}
