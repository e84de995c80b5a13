//! Counting a side's moves for the evaluation, fast: the same moves as
//! [`rules::for_each_move`], counted from compile-time tables of each leap's target and
//! blocking squares as board masks (derived from [`rules::REACH`], so they cannot
//! disagree with it), instead of generating every move. The evaluation counts both
//! sides' moves at every node, which made move generation most of the search's time.
//! The same tables give the search its moves ([`for_each_move`]), a side's attacked
//! squares ([`attack_map`]) and the pieces that reach a square ([`attackers`], for the
//! exchange evaluation of [`crate::engine::see`]); tests hold all three against the
//! judge's rules.

use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules::{bit_of, Move, Reach, REACH};

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
                    if let Some(to) = bit_of(x + dx, y + dy) {
                        let mut blocks = 0u128;
                        let mut j = 0;
                        while j < leaps[i].blocks.len() {
                            let (bx, by) = leaps[i].blocks[j];
                            if let Some(b) = bit_of(x + bx, y + by) {
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

/// For each kind and square: the mask of every leap target, blocks ignored. The leaps
/// of each kind are symmetric (every delta's negation is one too), so this is also
/// where a piece of that kind must stand to reach the square.
static LEAP_MASKS: [[u128; 90]; 7] = {
    let mut m = [[0u128; 90]; 7];
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 90 {
            let mut i = 0;
            while i < TABLE.count[k][s] as usize {
                m[k][s] |= 1u128 << TABLE.steps[k][s][i].to;
                i += 1;
            }
            s += 1;
        }
        k += 1;
    }
    m
};

/// For the kinds whose leaps are blocked on at most four distinct squares from a given
/// square (all but the duck): those squares, and the reach for each way they can be
/// occupied, so that [`reach`] is one look-up instead of a loop over the leaps.
struct Fast {
    /// The blocking squares' bits; `count` of them are used.
    blocks: [[[u8; 4]; 90]; 7],
    /// How many blocking squares; [`TOO_MANY`] when the leaps need the loop.
    count: [[u8; 90]; 7],
    /// The reach for each pattern of the blocking squares (bit i: `blocks[i]` occupied).
    reach: [[[u128; 16]; 90]; 7],
}

const TOO_MANY: u8 = u8::MAX;

const fn build_fast() -> Fast {
    let mut f = Fast {
        blocks: [[[0; 4]; 90]; 7],
        count: [[TOO_MANY; 90]; 7],
        reach: [[[0; 16]; 90]; 7],
    };
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 90 {
            // The distinct blocking squares of the leaps from s.
            let mut squares = [0u8; 4];
            let mut n = 0usize;
            let mut fits = true;
            let mut i = 0;
            while i < TABLE.count[k][s] as usize {
                let mut b = TABLE.steps[k][s][i].blocks;
                while b != 0 {
                    let bit = b.trailing_zeros() as u8;
                    b &= b - 1;
                    let mut seen = false;
                    let mut j = 0;
                    while j < n {
                        if squares[j] == bit {
                            seen = true;
                        }
                        j += 1;
                    }
                    if !seen {
                        if n == 4 {
                            fits = false;
                        } else {
                            squares[n] = bit;
                            n += 1;
                        }
                    }
                }
                i += 1;
            }
            if fits && TABLE.count[k][s] > 0 {
                f.blocks[k][s] = squares;
                f.count[k][s] = n as u8;
                let mut pattern = 0;
                while pattern < 16 {
                    let mut occupied = 0u128;
                    let mut j = 0;
                    while j < n {
                        if pattern >> j & 1 != 0 {
                            occupied |= 1u128 << squares[j];
                        }
                        j += 1;
                    }
                    let mut reach = 0u128;
                    let mut i = 0;
                    while i < TABLE.count[k][s] as usize {
                        if occupied & TABLE.steps[k][s][i].blocks == 0 {
                            reach |= 1u128 << TABLE.steps[k][s][i].to;
                        }
                        i += 1;
                    }
                    f.reach[k][s][pattern] = reach;
                    pattern += 1;
                }
            }
            s += 1;
        }
        k += 1;
    }
    f
}

static FAST: Fast = build_fast();

/// The pieces among `pieces` (all of one `kind`) that reach bit `target` when
/// `occupied` is the mask of every piece.
#[inline]
pub fn attackers(kind: PieceKind, pieces: u128, target: usize, occupied: u128) -> u128 {
    if pieces == 0 {
        return 0;
    }
    if kind == PieceKind::Car {
        return car_reach(target as u32, occupied) & pieces;
    }
    let bit = 1u128 << target;
    let mut candidates = LEAP_MASKS[kind.index()][target] & pieces;
    let mut found = 0u128;
    while candidates != 0 {
        let s = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        if reach(kind, s, occupied) & bit != 0 {
            found |= 1u128 << s;
        }
    }
    found
}

/// The squares at most `r` rows and `r` files from bit `s` (diagonals too), `s` itself
/// included: a square block cut by the edges.
const fn block(s: usize, r: i8) -> u128 {
    let (x, y) = ((s / 9) as i8, (s % 9) as i8);
    let mut mask = 0u128;
    let mut dx = -r;
    while dx <= r {
        let mut dy = -r;
        while dy <= r {
            if let Some(b) = bit_of(x + dx, y + dy) {
                mask |= 1u128 << b;
            }
            dy += 1;
        }
        dx += 1;
    }
    mask
}

/// The blocks of radius `r` around every square.
const fn blocks(r: i8) -> [u128; 90] {
    let mut z = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        z[s] = block(s, r);
        s += 1;
    }
    z
}

/// The squares next to each square (diagonals too) and the square itself: where a move
/// presses on a captain standing there.
static ZONES: [u128; 90] = blocks(1);

/// The squares at most two rows and two files from each square: where pieces stand that
/// can join an attack on a captain there soon.
static WIDE_ZONES: [u128; 90] = blocks(2);

/// The squares at most two rows and two files from `square`.
#[inline]
pub fn wide_zone(square: Square) -> u128 {
    WIDE_ZONES[square.bit() as usize]
}

/// The squares a captain on `square` steps to (one step along a row or a column).
#[inline]
pub fn steps_of(square: Square) -> u128 {
    LEAP_MASKS[PieceKind::Captain.index()][square.bit() as usize]
}

/// The squares (as a board mask) a `kind` on bit `s` reaches when `occupied` is the
/// mask of every piece: the targets of its moves, own pieces' squares included.
#[inline]
pub fn reach(kind: PieceKind, s: usize, occupied: u128) -> u128 {
    if kind == PieceKind::Car {
        return car_reach(s as u32, occupied);
    }
    let k = kind.index();
    let n = FAST.count[k][s];
    if n != TOO_MANY {
        let blocks = &FAST.blocks[k][s];
        let mut pattern = 0;
        for (i, &b) in blocks.iter().enumerate().take(n as usize) {
            pattern |= ((occupied >> b) as usize & 1) << i;
        }
        return FAST.reach[k][s][pattern];
    }
    let mut reach = 0u128;
    for step in &TABLE.steps[k][s][..TABLE.count[k][s] as usize] {
        if occupied & step.blocks == 0 {
            reach |= 1u128 << step.to;
        }
    }
    reach
}

/// The masks of `side`'s pieces and of every piece.
#[inline]
pub(crate) fn occupancy(board: &Board, side: Color) -> (u128, u128) {
    let mut own = 0u128;
    let mut occupied = 0u128;
    for kind in PieceKind::ALL {
        own |= board.mask(side, kind);
        occupied |= board.mask(side, kind) | board.mask(side.opponent(), kind);
    }
    (own, occupied)
}

/// Calls `each` with every legal move of the side to move (the game going on), or
/// only with its captures: the moves of [`rules::for_each_move`], found from the
/// tables, kind by kind.
///
/// [`rules::for_each_move`]: crate::judge::rules::for_each_move
#[inline]
pub fn for_each_move<F: FnMut(Move)>(board: &Board, captures_only: bool, mut each: F) {
    let side = board.side_to_move();
    let (own, occupied) = occupancy(board, side);
    let targets = if captures_only { occupied & !own } else { !own };
    for kind in PieceKind::ALL {
        let mut pieces = board.mask(side, kind);
        while pieces != 0 {
            let s = pieces.trailing_zeros();
            pieces &= pieces - 1;
            let from = Square::from_bit(s);
            let mut to = reach(kind, s as usize, occupied) & targets;
            while to != 0 {
                let t = to.trailing_zeros();
                to &= to - 1;
                each(Move {
                    from,
                    to: Square::from_bit(t),
                });
            }
        }
    }
}

/// Every square `side` attacks (its pieces' reach, own pieces' squares included).
pub fn attack_map(board: &Board, side: Color) -> u128 {
    let (_, occupied) = occupancy(board, side);
    let mut map = 0u128;
    for kind in PieceKind::ALL {
        let mut pieces = board.mask(side, kind);
        while pieces != 0 {
            let s = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            map |= reach(kind, s, occupied);
        }
    }
    map
}

/// The number of legal moves of `side` on `board` (the game going on), and how many of
/// them land next to (or on) `target`.
pub fn count(board: &Board, side: Color, target: Square) -> (i32, i32) {
    let a = activity::<false, false>(board, side, target);
    (a.moves, a.near)
}

/// What the evaluation reads from one side's moves, found in one pass over its pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Activity {
    /// Legal moves.
    pub moves: i32,
    /// Moves that land next to (or on) the opposing captain.
    pub near: i32,
    /// Moves that land where a piece of the mover's kind reaches the opposing captain
    /// from (leaps' blocking squares ignored): the threats to take it next move.
    pub checks: i32,
    /// Every square the side's pieces reach, its own pieces' squares included (those
    /// are defended).
    pub attacks: u128,
    /// The squares of the side's pieces.
    pub own: u128,
    /// The squares of every piece.
    pub occupied: u128,
}

/// The [`Activity`] of `side` against the captain on `target`; its `checks` are
/// counted only when `CHECKS` is true and its `attacks` only when `ATTACKS` is (else
/// they are 0), so that the evaluation pays only for what it weighs.
pub fn activity<const CHECKS: bool, const ATTACKS: bool>(
    board: &Board,
    side: Color,
    target: Square,
) -> Activity {
    let (own, occupied) = occupancy(board, side);
    let free = !own;
    let t = target.bit() as usize;
    let zone = ZONES[t];
    let (mut moves, mut near, mut checks) = (0u32, 0u32, 0u32);
    let mut attacks = 0u128;
    for kind in PieceKind::ALL {
        let mut pieces = board.mask(side, kind);
        let land = if !CHECKS || pieces == 0 {
            0
        } else if kind == PieceKind::Car {
            car_reach(t as u32, occupied)
        } else {
            LEAP_MASKS[kind.index()][t]
        };
        while pieces != 0 {
            let s = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let all = reach(kind, s, occupied);
            if ATTACKS {
                attacks |= all;
            }
            let r = all & free;
            moves += r.count_ones();
            near += (r & zone).count_ones();
            if CHECKS {
                checks += (r & land).count_ones();
            }
        }
    }
    Activity {
        moves: moves as i32,
        near: near as i32,
        checks: checks as i32,
        attacks,
        own,
        occupied,
    }
}

/// Where a move other than the captain's must land to answer an attack on the captain
/// on `captain` by `enemy`: the attackers' squares (to take one) and the squares their
/// paths cross (to block one). A move of another piece that lands elsewhere leaves the
/// captain attacked; one that lands here may still (two attackers, or a line it opens).
pub fn evasion_targets(board: &Board, enemy: Color, captain: Square) -> u128 {
    let (_, occupied) = occupancy(board, enemy);
    let t = captain.bit() as usize;
    let mut targets = 0u128;
    for kind in PieceKind::ALL {
        let mut found = attackers(kind, board.mask(enemy, kind), t, occupied);
        targets |= found;
        while found != 0 {
            let s = found.trailing_zeros() as usize;
            found &= found - 1;
            if kind == PieceKind::Car {
                // The squares between two pieces on one line: what each sees of the other.
                targets |= car_reach(s as u32, occupied) & car_reach(t as u32, occupied);
            } else {
                let k = kind.index();
                for step in &TABLE.steps[k][s][..TABLE.count[k][s] as usize] {
                    if step.to as usize == t {
                        targets |= step.blocks;
                    }
                }
            }
        }
    }
    targets
}

/// The enemy cars (of `enemy`) that would reach `target` along a line once the one
/// piece between them is gone (`occupied`: the squares of every piece).
pub fn car_xrays(board: &Board, enemy: Color, target: Square, occupied: u128) -> u32 {
    let cars = board.mask(enemy, PieceKind::Car);
    if cars == 0 {
        return 0;
    }
    let t = target.bit();
    let first = car_reach(t, occupied) & occupied;
    (car_reach(t, occupied & !first) & cars & !first).count_ones()
}

/// A quick test of which moves may attack a captain: a move of `side` that attacks the
/// captain once played either lands where a piece of its kind reaches the captain from
/// (blocks ignored) or leaves a square that blocks one of `side`'s pieces from it. The
/// search asks it before making a move that is pruned unless it attacks the captain,
/// so that most such moves are not made at all.
#[derive(Clone, Copy, Debug)]
pub struct AttackFilter {
    land: [u128; 7],
    open: u128,
}

impl AttackFilter {
    /// The filter for `side`'s moves against the captain on `target`.
    pub fn new(board: &Board, side: Color, target: Square) -> AttackFilter {
        let t = target.bit() as usize;
        let lines = car_reach(t as u32, 0);
        let mut land = [0u128; 7];
        let mut open = 0u128;
        for kind in PieceKind::ALL {
            let k = kind.index();
            if kind == PieceKind::Car {
                land[k] = lines;
                if board.mask(side, kind) & lines != 0 {
                    open |= lines;
                }
                continue;
            }
            land[k] = LEAP_MASKS[k][t];
            // The leaps are symmetric: a piece on a square of LEAP_MASKS[k][t] has a
            // leap onto `t`, whose blocking squares are those a move may clear.
            let mut pieces = board.mask(side, kind) & LEAP_MASKS[k][t];
            while pieces != 0 {
                let s = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                for step in &TABLE.steps[k][s][..TABLE.count[k][s] as usize] {
                    if step.to as usize == t {
                        open |= step.blocks;
                    }
                }
            }
        }
        AttackFilter { land, open }
    }

    /// Whether moving a `kind` from bit `from` to bit `to` may attack the captain; when
    /// false, it surely does not.
    #[inline]
    pub fn may_attack(&self, kind: PieceKind, from: u32, to: u32) -> bool {
        (self.land[kind.index()] >> to | self.open >> from) & 1 != 0
    }
}

/// The lines a car slides along, as the move table gives them.
const CAR_LINES: &[(i8, i8)] = {
    let mut k = 0;
    let mut lines: &[(i8, i8)] = &[];
    while k < REACH.len() {
        if let Reach::Rays(r) = REACH[k] {
            lines = r;
        }
        k += 1;
    }
    lines
};

/// The squares beyond bit `s` along each of [`CAR_LINES`].
static RAYS: [[u128; 90]; CAR_LINES.len()] = {
    let mut rays = [[0u128; 90]; CAR_LINES.len()];
    let mut d = 0;
    while d < CAR_LINES.len() {
        let (dx, dy) = CAR_LINES[d];
        let mut s = 0;
        while s < 90 {
            let (mut x, mut y) = ((s / 9) as i8 + dx, (s % 9) as i8 + dy);
            while let Some(b) = bit_of(x, y) {
                rays[d][s] |= 1u128 << b;
                x += dx;
                y += dy;
            }
            s += 1;
        }
        d += 1;
    }
    rays
};

/// Whether each of [`CAR_LINES`] runs towards higher bits (a row up or a file right):
/// such a line meets its first piece at its lowest set bit, the others at their highest.
const ASCENDING: [bool; CAR_LINES.len()] = {
    let mut up = [false; CAR_LINES.len()];
    let mut d = 0;
    while d < CAR_LINES.len() {
        let (dx, dy) = CAR_LINES[d];
        up[d] = dx as i32 * 9 + dy as i32 > 0;
        d += 1;
    }
    up
};

/// The squares a car on bit `s` reaches: along each line up to and including the first
/// occupied square. Each line is one look-up: its squares beyond the first piece on it
/// are that piece's own ray in the same direction, and are taken off.
#[inline]
fn car_reach(s: u32, occupied: u128) -> u128 {
    let s = s as usize;
    let mut reach = 0u128;
    for (rays, up) in RAYS.iter().zip(ASCENDING) {
        let ray = rays[s];
        let hit = ray & occupied;
        reach |= if hit == 0 {
            ray
        } else if up {
            ray ^ rays[hit.trailing_zeros() as usize]
        } else {
            ray ^ rays[127 - hit.leading_zeros() as usize]
        };
    }
    reach
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::random_positions;
    use crate::judge::rules;

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
        let mut checked = 0;
        for b in random_positions(5, 300) {
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

    #[test]
    fn attackers_agree_with_the_rules() {
        let mut checked = 0;
        for b in random_positions(11, 200) {
            let (_, occupied) = occupancy(&b, Color::Red);
            for target in Square::all() {
                for side in Color::ALL {
                    let mut found = 0u128;
                    for kind in PieceKind::ALL {
                        found |=
                            attackers(kind, b.mask(side, kind), target.bit() as usize, occupied);
                    }
                    let mut expected = 0u128;
                    for s in rules::attackers(&b, target, side) {
                        expected |= 1u128 << s.bit();
                    }
                    // The rules count only moves onto a square not held by `side`.
                    let own = b.piece_at(target).is_some_and(|p| p.color == side);
                    if !own {
                        assert_eq!(found, expected, "{b} {target:?} {side:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn the_attack_filter_lets_every_attacking_move_through() {
        let (mut attacking, mut filtered) = (0, 0);
        for b in random_positions(13, 300) {
            if b.is_over() {
                continue;
            }
            let side = b.side_to_move();
            let target = b.captain(side.opponent()).unwrap();
            if rules::is_attacked(&b, target, side) {
                continue;
            }
            let filter = AttackFilter::new(&b, side, target);
            for m in rules::legal_moves(&b) {
                let kind = b.piece_at(m.from).unwrap().kind;
                if m.to == target {
                    continue;
                }
                let may = filter.may_attack(kind, m.from.bit(), m.to.bit());
                let mut after = b.clone();
                after.make_move(m.from, m.to);
                if rules::is_attacked(&after, target, side) {
                    attacking += 1;
                    assert!(may, "{b} {m:?}");
                } else if !may {
                    filtered += 1;
                }
            }
        }
        assert!(
            attacking > 100 && filtered > 10_000,
            "{attacking} {filtered}"
        );
    }

    #[test]
    fn every_answer_to_an_attacked_captain_lands_on_an_evasion_target() {
        let (mut attacked, mut answers) = (0, 0);
        for b in random_positions(17, 600) {
            if b.is_over() {
                continue;
            }
            let side = b.side_to_move();
            let captain = b.captain(side).unwrap();
            let enemy = side.opponent();
            if !rules::is_attacked(&b, captain, enemy)
                || rules::is_attacked(&b, b.captain(enemy).unwrap(), side)
            {
                continue;
            }
            attacked += 1;
            let targets = evasion_targets(&b, enemy, captain);
            for m in rules::legal_moves(&b) {
                let mut after = b.clone();
                after.make_move(m.from, m.to);
                let safe = !rules::is_attacked(&after, after.captain(side).unwrap(), enemy);
                if safe && m.from != captain {
                    answers += 1;
                    assert!(targets >> m.to.bit() & 1 != 0, "{b} {m:?}");
                }
            }
        }
        assert!(attacked > 30 && answers > 30, "{attacked} {answers}");
    }

    #[test]
    fn generated_moves_agree_with_the_rules() {
        let mut checked = 0;
        for b in random_positions(9, 300) {
            if b.is_over() {
                continue;
            }
            let mut expected = rules::legal_moves(&b);
            let mut all = Vec::new();
            for_each_move(&b, false, |m| all.push(m));
            let mut captures = Vec::new();
            for_each_move(&b, true, |m| captures.push(m));
            let mut expected_captures: Vec<Move> = expected
                .iter()
                .copied()
                .filter(|m| !b.is_empty(m.to))
                .collect();
            for list in [
                &mut expected,
                &mut all,
                &mut captures,
                &mut expected_captures,
            ] {
                list.sort();
            }
            assert_eq!(all, expected, "{b}");
            assert_eq!(captures, expected_captures, "{b}");
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
    }
}
