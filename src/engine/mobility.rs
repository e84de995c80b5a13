//! Counting a side's moves for the evaluation, fast: the same moves as
//! [`rules::for_each_move`], counted from compile-time tables of each leap's target and
//! blocking squares as board masks (derived from [`rules::REACH`], so they cannot
//! disagree with it), instead of generating every move. The evaluation counts both
//! sides' moves at every node, which made move generation most of the search's time.

use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules::{Reach, REACH};

/// One leap from one square: the target's bit and the blocking squares' mask.
#[derive(Clone, Copy)]
struct Step {
    to: u8,
    blocks: u128,
}

const NO_STEP: Step = Step { to: 0, blocks: 0 };

/// For each kind and square: its leaps that stay on the board, and how many there are.
/// Cars have none here (they slide).
struct Table {
    steps: [[[Step; 8]; 90]; 7],
    count: [[u8; 90]; 7],
}

/// The mask bit of `(x, y)`, or `None` off the board.
const fn bit(x: i8, y: i8) -> Option<u32> {
    if x >= 0 && x < 10 && y >= 0 && y < 9 {
        Some(x as u32 * 9 + y as u32)
    } else {
        None
    }
}

const fn build() -> Table {
    let mut t = Table {
        steps: [[[NO_STEP; 8]; 90]; 7],
        count: [[0; 90]; 7],
    };
    let mut k = 0;
    while k < 7 {
        if let Reach::Leaps(leaps) = REACH[k] {
            let mut s = 0;
            while s < 90 {
                let (x, y) = ((s / 9) as i8, (s % 9) as i8);
                let mut n = 0;
                let mut i = 0;
                while i < leaps.len() {
                    let (dx, dy) = leaps[i].delta;
                    if let Some(to) = bit(x + dx, y + dy) {
                        let mut blocks = 0u128;
                        let mut j = 0;
                        while j < leaps[i].blocks.len() {
                            let (bx, by) = leaps[i].blocks[j];
                            if let Some(b) = bit(x + bx, y + by) {
                                blocks |= 1u128 << b;
                            }
                            j += 1;
                        }
                        t.steps[k][s][n] = Step {
                            to: to as u8,
                            blocks,
                        };
                        n += 1;
                    }
                    i += 1;
                }
                t.count[k][s] = n as u8;
                s += 1;
            }
        }
        k += 1;
    }
    t
}

static TABLE: Table = build();

/// The squares next to `bit` (diagonals too) and `bit` itself: where a move presses on a
/// captain standing there.
const fn zone(s: usize) -> u128 {
    let (x, y) = ((s / 9) as i8, (s % 9) as i8);
    let mut mask = 0u128;
    let mut dx = -1;
    while dx <= 1 {
        let mut dy = -1;
        while dy <= 1 {
            if let Some(b) = bit(x + dx, y + dy) {
                mask |= 1u128 << b;
            }
            dy += 1;
        }
        dx += 1;
    }
    mask
}

static ZONES: [u128; 90] = {
    let mut z = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        z[s] = zone(s);
        s += 1;
    }
    z
};

/// The number of legal moves of `side` on `board` (the game going on), and how many of
/// them land next to (or on) `target`.
pub fn count(board: &Board, side: Color, target: Square) -> (i32, i32) {
    let mut own = 0u128;
    let mut occupied = 0u128;
    for kind in PieceKind::ALL {
        own |= board.mask(side, kind);
        occupied |= board.mask(side, kind) | board.mask(side.opponent(), kind);
    }
    let free = !own;
    let zone = ZONES[target.bit() as usize];
    let (mut moves, mut near) = (0u32, 0u32);
    for kind in PieceKind::ALL {
        let mut pieces = board.mask(side, kind);
        if kind == PieceKind::Car {
            while pieces != 0 {
                let s = pieces.trailing_zeros();
                pieces &= pieces - 1;
                let reach = car_reach(s, occupied) & free;
                moves += reach.count_ones();
                near += (reach & zone).count_ones();
            }
            continue;
        }
        let k = kind.index();
        while pieces != 0 {
            let s = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let mut reach = 0u128;
            for step in &TABLE.steps[k][s][..TABLE.count[k][s] as usize] {
                if occupied & step.blocks == 0 {
                    reach |= 1u128 << step.to;
                }
            }
            reach &= free;
            moves += reach.count_ones();
            near += (reach & zone).count_ones();
        }
    }
    (moves as i32, near as i32)
}

/// The squares a car on bit `s` reaches: along each line up to and including the first
/// occupied square.
#[inline]
fn car_reach(s: u32, occupied: u128) -> u128 {
    let (x, y) = ((s / 9) as i32, (s % 9) as i32);
    let mut reach = 0u128;
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let (mut cx, mut cy) = (x + dx, y + dy);
        while (0..10).contains(&cx) && (0..9).contains(&cy) {
            let b = 1u128 << (cx * 9 + cy);
            reach |= b;
            if occupied & b != 0 {
                break;
            }
            cx += dx;
            cy += dy;
        }
    }
    reach
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::rules;
    use crate::tools::rng::Rng;

    /// The count straight from the move generator.
    fn reference(board: &Board, side: Color, target: Square) -> (i32, i32) {
        let mut b = board.clone();
        b.set_side_to_move(side);
        let (mut moves, mut near) = (0, 0);
        rules::for_each_move(&b, |m| {
            moves += 1;
            let (dx, dy) = m.to.delta_from(target);
            if dx.abs() <= 1 && dy.abs() <= 1 {
                near += 1;
            }
        });
        (moves, near)
    }

    #[test]
    fn counts_agree_with_the_move_generator() {
        let mut rng = Rng::new(5);
        let mut checked = 0;
        for _ in 0..300 {
            let mut b = Board::start();
            for _ in 0..rng.below(150) {
                match rng.pick(&rules::legal_moves(&b)) {
                    Some(m) => {
                        b.make_move(m.from, m.to);
                    }
                    None => break,
                }
            }
            if b.is_over() {
                continue;
            }
            for side in Color::ALL {
                let target = b.captain(side.opponent()).unwrap();
                assert_eq!(count(&b, side, target), reference(&b, side, target), "{b}");
                checked += 1;
            }
        }
        assert!(checked > 200, "{checked}");
    }
}
