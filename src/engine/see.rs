//! Static exchange evaluation: what a capture (or a move to a square) wins or loses in
//! material once both sides have recaptured on that square as long as it pays, each
//! with its least valuable piece first. Used to order captures, to skip losing ones in
//! the quiescence search, and to prune moves that put a piece where it is lost.
//!
//! Attacks are found from [`movegen::reach`] over an occupancy from which the pieces
//! already spent are removed, so a car behind a car, or a horse whose leg a capture
//! freed, joins the exchange.

use crate::engine::movegen;
use crate::engine::tunables::Tunables;
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind};
use crate::judge::rules::Move;

/// The value of the captain in an exchange: more than anything else, so that it is the
/// last piece to recapture and losing it outweighs every gain.
const CAPTAIN: i32 = 20_000;

/// The exchange value of `kind` with the material values of `t`.
#[inline]
fn worth(kind: PieceKind, t: &Tunables) -> i32 {
    if kind == PieceKind::Captain {
        CAPTAIN
    } else {
        t.value(kind)
    }
}

/// The least valuable piece of `side` among `occupied` that reaches bit `target`, with
/// its bit.
#[inline]
fn least_attacker(
    board: &Board,
    side: Color,
    target: u32,
    occupied: u128,
    t: &Tunables,
) -> Option<(PieceKind, u32)> {
    let mut best: Option<(PieceKind, u32, i32)> = None;
    for kind in PieceKind::ALL {
        let w = worth(kind, t);
        if best.is_some_and(|(_, _, bw)| bw <= w) {
            continue;
        }
        let found = movegen::attackers(
            kind,
            board.mask(side, kind) & occupied,
            target as usize,
            occupied,
        );
        if found != 0 {
            best = Some((kind, found.trailing_zeros(), w));
        }
    }
    best.map(|(k, s, _)| (k, s))
}

/// The material the side to move gains by playing `m` and letting the exchange on its
/// target square run its course (negative: a loss). A quiet move scores 0 or the loss
/// of the moved piece. Ends of the game aside: taking the captain is not a capture here.
/// The pieces are worth their material values in `t`.
pub fn see(board: &Board, m: Move, t: &Tunables) -> i32 {
    let mover = match board.piece_at(m.from) {
        Some(p) => p,
        None => return 0,
    };
    let target = m.to.bit();
    let (_, mut occupied) = movegen::occupancy(board, mover.color);
    occupied &= !(1u128 << m.from.bit());
    // gains[d]: what the side making capture d gains if the exchange stops after it.
    let mut gains = [0i32; 40];
    gains[0] = board.piece_at(m.to).map_or(0, |p| worth(p.kind, t));
    let mut on_square = worth(mover.kind, t);
    let mut side = mover.color.opponent();
    let mut d = 0;
    while d + 1 < gains.len() {
        let (kind, s) = match least_attacker(board, side, target, occupied, t) {
            Some(a) => a,
            None => break,
        };
        d += 1;
        gains[d] = on_square - gains[d - 1];
        if gains[d].max(-gains[d - 1]) < 0 {
            break; // neither side wants to go on from here
        }
        if on_square == CAPTAIN {
            break; // the captain was taken: the game is over
        }
        on_square = worth(kind, t);
        occupied &= !(1u128 << s);
        side = side.opponent();
    }
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::value;
    use crate::judge::piece::Square;

    fn go(x1: i64, y1: i64, x2: i64, y2: i64) -> Move {
        Move {
            from: Square::new(x1, y1).unwrap(),
            to: Square::new(x2, y2).unwrap(),
        }
    }

    #[test]
    fn exchanges() {
        let car = value(PieceKind::Car);
        let soldier = value(PieceKind::Soldier);
        let horse = value(PieceKind::Horse);
        // (position, move, expected gain for the side to move)
        let cases: [(&str, Move, i32); 5] = [
            // A car takes an undefended soldier.
            ("4k4/9/9/9/4s4/9/9/9/4R4/K8 r", go(1, 4, 5, 4), soldier),
            // A car takes a soldier defended by a soldier: car for soldier.
            (
                "4k4/9/9/4s4/4s4/9/9/9/4R4/K8 r",
                go(1, 4, 5, 4),
                soldier - car,
            ),
            // The same with a second car behind the first (x-ray): both soldiers fall,
            // one car is lost.
            (
                "4k4/9/9/4s4/4s4/9/9/9/4R4/K3R4 r",
                go(1, 4, 5, 4),
                2 * soldier - car,
            ),
            // A soldier takes a defended horse: horse for soldier.
            (
                "4k4/9/9/4s4/4h4/4S4/9/9/9/K8 r",
                go(4, 4, 5, 4),
                horse - soldier,
            ),
            // A quiet car move onto a square a soldier guards loses the car.
            ("4k4/9/9/9/3s5/9/9/9/4R4/K8 r", go(1, 4, 5, 4), -car),
        ];
        for (fen, m, expected) in cases {
            let board: Board = fen.parse().unwrap();
            assert!(
                crate::judge::rules::legal_moves(&board).contains(&m),
                "{fen}: {m:?} is legal"
            );
            assert_eq!(see(&board, m, &Tunables::DEFAULT), expected, "{fen} {m:?}");
        }
    }
}
