//! The static evaluation: material, mobility, and pressure around the opposing
//! captain, from the side to move's point of view.

use crate::engine::movegen;
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules;

/// The score of taking the opposing captain now; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;

/// The default material value of each kind in centipawn-like units (the horse is 300),
/// indexed by [`PieceKind::index`]. The captain has none: losing it is not a material
/// matter but the end of the game.
///
/// The values were fitted with every other weight of [`WEIGHTS`] by `duckchess fit
/// --terms` ([`crate::lab::fit`]) on 1,074 games of the engine against itself (18,000
/// against 22,000 nodes a move, 186,844 quiet positions), red's score regressed on
/// every feature of the evaluation, the horse held at 300. The car and the soldier are
/// worth far more than their reach suggests; the elephant and the guard, each tied to
/// a part of the board, much less. The fitted weights won a sequential self-play test
/// against the values fitted before on games against Fairy-Stockfish (car 740, soldier
/// 435): +57 Elo over 304 game pairs (then with the captain's placement weighted -9, 0
/// since: it kept a horse and a captain from hunting down a lone captain).
pub const VALUES: [i32; 7] = [0, 156, 78, 300, 1243, 216, 663];

/// The description of one number that can be changed at run time (an evaluation weight
/// or a search parameter): the UCI options of the same name, so that self-play matches
/// can compare settings without a rebuild. The values themselves are each search's
/// own ([`crate::engine::tunables::Tunables`]).
#[derive(Debug)]
pub struct Weight {
    /// The option name.
    pub name: &'static str,
    /// The built-in value.
    pub default: i32,
    /// The smallest value accepted.
    pub min: i32,
    /// The largest value accepted.
    pub max: i32,
}

impl Weight {
    /// A weight of `default` value, accepted from `min` to `max`.
    pub const fn new(name: &'static str, default: i32, min: i32, max: i32) -> Weight {
        Weight {
            name,
            default,
            min,
            max,
        }
    }
}

// Indices into WEIGHTS: the piece values follow PieceKind::index.
const MOBILITY: usize = 7;
const PRESSURE: usize = 8;
const TEMPO: usize = 9;
/// The first of the weights of [`Terms`], in their order.
const TERMS_AT: usize = 10;

/// The evaluation weights (their built-in values and ranges): the material of each kind (the captain's slot unused), then
/// centipawns per available move (mobility), per move that lands next to the opposing
/// captain (pressure on it), for having the move, and the weights of the
/// [`Terms`] in their order.
pub const WEIGHTS: [Weight; FEATURES] = [
    Weight::new("Value Captain", 0, 0, 0),
    Weight::new("Value Guard", VALUES[1], 0, 2000),
    Weight::new("Value Elephant", VALUES[2], 0, 2000),
    Weight::new("Value Horse", VALUES[3], 0, 2000),
    Weight::new("Value Car", VALUES[4], 0, 2000),
    Weight::new("Value Duck", VALUES[5], 0, 2000),
    Weight::new("Value Soldier", VALUES[6], 0, 2000),
    Weight::new("Mobility", 2, -100, 100),
    Weight::new("Pressure", 4, -200, 200),
    Weight::new("Tempo", 5, 0, 200),
    Weight::new("Escape", 0, -500, 500),
    Weight::new("Checks", 0, -500, 500),
    Weight::new("Hanging", 0, -500, 500),
    Weight::new("Threats", 0, -500, 500),
    Weight::new("Captain Advance", 0, -500, 500),
    Weight::new("Captain Center", 0, -500, 500),
    Weight::new("Car Xray", 0, -500, 500),
    Weight::new("Near Soldier", 212, -500, 500),
    Weight::new("Near Pieces", 0, -500, 500),
    Weight::new("Advance Guard", -2, -200, 200),
    Weight::new("Advance Elephant", -7, -200, 200),
    Weight::new("Advance Horse", 4, -200, 200),
    Weight::new("Advance Car", 2, -200, 200),
    Weight::new("Advance Duck", -2, -200, 200),
    Weight::new("Advance Soldier", 20, -200, 200),
    Weight::new("Center Guard", 5, -200, 200),
    Weight::new("Center Elephant", 10, -200, 200),
    Weight::new("Center Horse", 15, -200, 200),
    Weight::new("Center Car", 3, -200, 200),
    Weight::new("Center Duck", 0, -200, 200),
    Weight::new("Center Soldier", 19, -200, 200),
];

/// The values of every weight of [`WEIGHTS`], in its order.
pub type Weights = [i32; FEATURES];

/// Every weight at its built-in value.
pub const DEFAULTS: Weights = {
    let mut w = [0; FEATURES];
    let mut i = 0;
    while i < FEATURES {
        w[i] = WEIGHTS[i].default;
        i += 1;
    }
    w
};

/// The number of weights in [`WEIGHTS`], and of [`features`] of a position.
pub const FEATURES: usize = TERMS_AT + TERMS + 12;

/// The first of the weights of a piece's advance (rows from its own edge), kind by
/// kind from the guard on.
const ADVANCE_AT: usize = TERMS_AT + TERMS;
/// The first of the weights of a piece's distance from the nearer side edge.
const CENTER_AT: usize = ADVANCE_AT + 6;

/// The number of [`Terms`].
pub const TERMS: usize = 9;
const ESCAPE: usize = 0;
const CHECKS: usize = 1;
const HANGING: usize = 2;
const THREATS: usize = 3;
const ADVANCE: usize = 4;
const CENTER: usize = 5;
const XRAY: usize = 6;
const NEAR_SOLDIER: usize = 7;
const NEAR_PIECES: usize = 8;

/// The positional terms of the evaluation beyond material, mobility and pressure, each
/// the side to move's figure less the opponent's (so that a positive weight is good
/// for whoever has the figure), in the order of their weights in [`WEIGHTS`]:
///
/// - escape: how far the opposing captain is short of two safe squares next to it (not
///   held by its own pieces, not attacked), less the same of the own captain;
/// - checks: moves that land where the moving kind reaches the opposing captain from
///   (threats to take it next move);
/// - hanging: the side's own pieces (captain aside) that are attacked and not
///   defended, counted for the side to move only (negative: a minus for it);
/// - threats: the same count for the opponent's pieces (positive for the side to
///   move, which can take one of them now);
/// - captain advance: how many rows the own captain stands from its home edge;
/// - captain center: how many files the own captain stands from the nearer side edge;
/// - car xray: opposing cars that would reach the own captain along a line but for one
///   piece in between (negative for the side whose captain it is);
/// - near soldier: the side's soldiers within two steps of the opposing captain (rows
///   and files both at most two away), less the opponent's near the own captain;
/// - near pieces: the same for guards, elephants, horses and ducks.
pub type Terms = [i32; TERMS];

/// The weight called `name` (case-insensitive), if any.
pub fn weight(name: &str) -> Option<&'static Weight> {
    weight_index(name).map(|i| &WEIGHTS[i])
}

/// The index in [`WEIGHTS`] of the weight called `name` (case-insensitive), if any (the
/// captain's value is not one).
pub(crate) fn weight_index(name: &str) -> Option<usize> {
    (1..FEATURES).find(|&i| WEIGHTS[i].name.eq_ignore_ascii_case(name))
}

/// The built-in material value of `kind` (see [`VALUES`] and [`WEIGHTS`]); a search
/// uses its own.
#[inline]
pub fn value(kind: PieceKind) -> i32 {
    VALUES[kind.index()]
}

/// The static evaluation of `board` from the side to move's point of view: material,
/// mobility and pressure around the opposing captain. A finished game scores as won or
/// lost. Does not search: a captain capture available now is not seen here.
/// Every weight at its built-in value.
pub fn evaluate(board: &Board) -> i32 {
    let mut b = board.clone();
    eval_mut(&mut b, &DEFAULTS)
}

/// The static evaluation of `board` with the weights of `t`.
pub(crate) fn eval_mut(board: &mut Board, t: &Weights) -> i32 {
    eval_within(board, -MATE, MATE, t)
}

/// How far the activity terms (mobility and pressure, both sides) are assumed to move
/// the score at most: beyond it, [`eval_within`] need not count moves.
pub const LAZY_MARGIN: i32 = 300;

/// The static evaluation, or a bound on it when its part without the moves (material,
/// placement, the pieces near the captains) is more than [`LAZY_MARGIN`] below `alpha`
/// (then an upper bound, at most `alpha`) or above `beta` (a lower bound, at least
/// `beta`): counting both sides' moves is most of the evaluation's cost, and a
/// quiescence node that is far outside its window does not need the exact value.
pub(crate) fn eval_within(board: &mut Board, alpha: i32, beta: i32, t: &Weights) -> i32 {
    let side = board.side_to_move();
    let (mine, theirs) = match (board.captain(side), board.captain(side.opponent())) {
        (Some(m), Some(t)) => (m, t),
        (None, _) => return -MATE,
        (_, None) => return MATE,
    };
    let mut material = [0; 2];
    let mut placement = 0;
    for kind in PieceKind::ALL {
        for color in Color::ALL {
            let mask = board.mask(color, kind);
            material[color.index()] += mask.count_ones() as i32 * t[kind.index()];
            let p = place(kind, color, mask, t);
            placement += if color == side { p } else { -p };
        }
    }
    let (own, other) = (material[side.index()], material[side.opponent().index()]);
    let mut score = t[TEMPO] + own - other + placement;
    // The pieces near each captain are counted before the lazy bound: their weights may
    // be larger than its margin, and the count costs a few mask operations only.
    let (near_soldier, near_pieces) = near_captains(board, side, mine, theirs);
    score += t[TERMS_AT + NEAR_SOLDIER] * near_soldier + t[TERMS_AT + NEAR_PIECES] * near_pieces;
    score += hunt_by_material(board, side, mine, theirs, own, other);
    if score - LAZY_MARGIN >= beta {
        return score - LAZY_MARGIN;
    }
    if score + LAZY_MARGIN <= alpha {
        return score + LAZY_MARGIN;
    }
    let (me, them, terms) = activity_terms(board, side, mine, theirs, Some(t));
    score += t[MOBILITY] * (me.moves - them.moves);
    score += t[PRESSURE] * (me.near - them.near);
    // The near-captain terms are 0 here: they are already in.
    for (i, x) in terms.iter().enumerate() {
        score += t[TERMS_AT + i] * x;
    }
    score
}

/// The near-soldier and near-pieces terms (see [`Terms`]) for the side to move (`side`,
/// its captain on `mine`, the opponent's on `theirs`).
fn near_captains(board: &Board, side: Color, mine: Square, theirs: Square) -> (i32, i32) {
    let other = side.opponent();
    let (near_mine, near_theirs) = (movegen::wide_zone(mine), movegen::wide_zone(theirs));
    let soldiers = |c: Color| board.mask(c, PieceKind::Soldier);
    let pieces = |c: Color| {
        [
            PieceKind::Guard,
            PieceKind::Elephant,
            PieceKind::Horse,
            PieceKind::Duck,
        ]
        .iter()
        .fold(0, |m, &k| m | board.mask(c, k))
    };
    // The side's own pieces near the opposing captain, less the opponent's near its own.
    let balance = |mask: &dyn Fn(Color) -> u128| {
        (mask(side) & near_theirs).count_ones() as i32
            - (mask(other) & near_mine).count_ones() as i32
    };
    (balance(&soldiers), balance(&pieces))
}

/// Both sides' [`movegen::Activity`] and the [`Terms`] of `board` for the side to
/// move (`side`, its captain on `mine`, the opponent's on `theirs`). With `weights`,
/// a term whose weight is 0 there is left at 0, and so are the near-captain terms (the
/// evaluation counts them before its lazy bound, with [`near_captains`]); without,
/// every term is counted.
fn activity_terms(
    board: &Board,
    side: Color,
    mine: Square,
    theirs: Square,
    weights: Option<&Weights>,
) -> (movegen::Activity, movegen::Activity, Terms) {
    let other = side.opponent();
    // A term whose weight is 0 is not computed (it would count for nothing).
    let all = weights.is_none();
    let on = |term: usize| weights.is_none_or(|t| t[TERMS_AT + term] != 0);
    let attacks = on(ESCAPE) || on(HANGING) || on(THREATS);
    let activity = match (on(CHECKS), attacks) {
        (false, false) => movegen::activity::<false, false>,
        (false, true) => movegen::activity::<false, true>,
        (true, false) => movegen::activity::<true, false>,
        (true, true) => movegen::activity::<true, true>,
    };
    let me = activity(board, side, theirs);
    let them = activity(board, other, mine);
    let mut terms = [0; TERMS];
    if on(ESCAPE) {
        terms[ESCAPE] = cramped(theirs, them.own, me.attacks) - cramped(mine, me.own, them.attacks);
    }
    terms[CHECKS] = me.checks - them.checks;
    let captains = 1u128 << mine.bit() | 1u128 << theirs.bit();
    if on(HANGING) {
        terms[HANGING] = -((me.own & !captains & them.attacks & !me.attacks).count_ones() as i32);
    }
    if on(THREATS) {
        terms[THREATS] = (them.own & !captains & me.attacks & !them.attacks).count_ones() as i32;
    }
    let home = |c: Color, s: Square| {
        if c == Color::Red {
            s.x() as i32
        } else {
            9 - s.x() as i32
        }
    };
    terms[ADVANCE] = home(side, mine) - home(other, theirs);
    let center = |s: Square| (s.y() as i32).min(8 - s.y() as i32);
    terms[CENTER] = center(mine) - center(theirs);
    if on(XRAY) {
        let occupied = me.occupied;
        terms[XRAY] = movegen::car_xrays(board, side, theirs, occupied) as i32
            - movegen::car_xrays(board, other, mine, occupied) as i32;
    }
    if all {
        // The evaluation adds these before its lazy bound (see `eval_within`).
        (terms[NEAR_SOLDIER], terms[NEAR_PIECES]) = near_captains(board, side, mine, theirs);
    }
    (me, them, terms)
}

/// How short the captain on `captain` is of two safe squares to step to (0 to 2), its
/// own pieces on `own` and the enemy attacking `attacked`: a captain with nowhere to go
/// loses to the first attack it cannot block.
fn cramped(captain: Square, own: u128, attacked: u128) -> i32 {
    let blocked = own | attacked;
    let safe = (movegen::steps_of(captain) & !blocked).count_ones() as i32;
    (2 - safe).max(0)
}

/// What each weight of [`WEIGHTS`] multiplies in the evaluation of `board`, from red's
/// point of view (red's figure less blue's; the tempo is 1 when red is to move and -1
/// when blue is), every term counted whatever its weight: the evaluation from the
/// side to move's point of view is the sum of weights times features, red's sign
/// applied, apart from the hunt of a lone captain. `None` once a captain is gone.
/// This is what `fit --terms` regresses the games' results on.
pub fn features(board: &Board) -> Option<[i32; FEATURES]> {
    let side = board.side_to_move();
    let (mine, theirs) = (board.captain(side)?, board.captain(side.opponent())?);
    let mut f = [0; FEATURES];
    for kind in PieceKind::ALL.into_iter().skip(1) {
        let k = kind.index();
        for color in Color::ALL {
            let sign = if color == side { 1 } else { -1 };
            let mask = board.mask(color, kind);
            let (advance, center) = spread(color, mask);
            f[k] += sign * mask.count_ones() as i32;
            f[ADVANCE_AT + k - 1] += sign * advance;
            f[CENTER_AT + k - 1] += sign * center;
        }
    }
    f[TEMPO] = 1;
    let (me, them, terms) = activity_terms(board, side, mine, theirs, None);
    f[MOBILITY] = me.moves - them.moves;
    f[PRESSURE] = me.near - them.near;
    f[TERMS_AT..TERMS_AT + TERMS].copy_from_slice(&terms);
    if side == Color::Blue {
        for x in f.iter_mut() {
            *x = -*x;
        }
    }
    Some(f)
}

/// The placement of `color`'s pieces of `kind` on `mask`: per row of advance from the
/// own edge and per file away from the nearer side edge, at the weights of
/// [`ADVANCE_AT`] and [`CENTER_AT`].
#[inline]
fn place(kind: PieceKind, color: Color, mask: u128, t: &Weights) -> i32 {
    if kind == PieceKind::Captain || mask == 0 {
        return 0;
    }
    let (a, c) = (
        t[ADVANCE_AT + kind.index() - 1],
        t[CENTER_AT + kind.index() - 1],
    );
    if a == 0 && c == 0 {
        return 0;
    }
    let (advance, center) = spread(color, mask);
    a * advance + c * center
}

/// For `color`'s pieces on `mask`: the rows they stand from `color`'s own edge, and the
/// files they stand from the nearer side edge, each summed.
fn spread(color: Color, mut mask: u128) -> (i32, i32) {
    let (mut advance, mut center) = (0, 0);
    while mask != 0 {
        let s = mask.trailing_zeros() as i32;
        mask &= mask - 1;
        let (x, y) = (s / 9, s % 9);
        advance += if color == Color::Red { x } else { 9 - x };
        center += y.min(8 - y);
    }
    (advance, center)
}

/// The hunt of a captain with little left ([`mop_up`]) from the side to move's point
/// of view: 0 unless one side leads by [`MOP_UP_LEAD`] and the other has at most
/// [`MOP_UP_WEAK`]. The learnt evaluation adds it too.
pub(crate) fn hunt(board: &Board, t: &Weights) -> i32 {
    let side = board.side_to_move();
    let (Some(mine), Some(theirs)) = (board.captain(side), board.captain(side.opponent())) else {
        return 0;
    };
    let material = |c: Color| {
        PieceKind::ALL
            .iter()
            .map(|&k| board.mask(c, k).count_ones() as i32 * t[k.index()])
            .sum::<i32>()
    };
    let (own, other) = (material(side), material(side.opponent()));
    hunt_by_material(board, side, mine, theirs, own, other)
}

/// [`hunt`] for `side` to move, whose captain is on `mine` and the opponent's on
/// `theirs`, given each side's material (`own`, `other`).
fn hunt_by_material(
    board: &Board,
    side: Color,
    mine: Square,
    theirs: Square,
    own: i32,
    other: i32,
) -> i32 {
    if own - other >= MOP_UP_LEAD && other <= MOP_UP_WEAK {
        mop_up(board, side, theirs, mine)
    } else if other - own >= MOP_UP_LEAD && own <= MOP_UP_WEAK {
        -mop_up(board, side.opponent(), mine, theirs)
    } else {
        0
    }
}

/// The material lead from which the hunt of [`mop_up`] starts.
const MOP_UP_LEAD: i32 = 300;
/// The most material (captain aside) a side may have to be hunted.
const MOP_UP_WEAK: i32 = 600;

/// Distance in steps of the captain (it moves like a wazir).
fn steps(a: Square, b: Square) -> i32 {
    (a.x() as i32 - b.x() as i32).abs() + (a.y() as i32 - b.y() as i32).abs()
}

/// The hunt of a captain with little left around it, for the `strong` side: drive it to
/// an edge and a corner, bring every piece (the own captain too) close, and take away
/// its escape squares. Without this the search sees no progress until the capture is
/// within its horizon, and a won game is shuffled to the 300-move draw.
fn mop_up(board: &Board, strong: Color, weak_captain: Square, strong_captain: Square) -> i32 {
    let (x, y) = (weak_captain.x() as i32, weak_captain.y() as i32);
    // 0 in a corner, 8 in the middle of the board.
    let from_corner = x.min(9 - x) + y.min(8 - y);
    let mut bonus = 20 * (8 - from_corner);
    bonus += 4 * (17 - steps(strong_captain, weak_captain));
    for kind in PieceKind::ALL {
        if kind == PieceKind::Captain || kind == PieceKind::Car {
            continue; // the car reaches from afar
        }
        let mut mask = board.mask(strong, kind);
        while mask != 0 {
            let s = Square::from_bit(mask.trailing_zeros());
            mask &= mask - 1;
            bonus += 3 * (17 - steps(s, weak_captain));
        }
    }
    for delta in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        if let Some(to) = weak_captain.offset(delta) {
            let blocked = board.piece_at(to).is_some_and(|p| p.color != strong);
            if !blocked && !rules::is_attacked(board, to, strong) {
                bonus -= 15;
            }
        }
    }
    bonus
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_evaluation_is_the_weights_times_the_features() {
        let mut checked = 0;
        for mut b in crate::engine::random_positions(5, 300) {
            let Some(f) = features(&b) else { continue };
            let side = b.side_to_move();
            let (mine, theirs) = (
                b.captain(side).unwrap(),
                b.captain(side.opponent()).unwrap(),
            );
            let lead: i32 = PieceKind::ALL
                .iter()
                .map(|&k| {
                    let n = |c: Color| b.mask(c, k).count_ones() as i32;
                    (n(side) - n(side.opponent())) * value(k)
                })
                .sum();
            if lead.abs() >= MOP_UP_LEAD {
                continue; // the hunt of a lone captain may add to it
            }
            let sign = if side == Color::Red { 1 } else { -1 };
            let sum: i32 = WEIGHTS.iter().zip(f).map(|(w, x)| w.default * x).sum();
            assert_eq!(eval_mut(&mut b, &DEFAULTS), sign * sum, "{b}");
            // Every term is counted, whatever its weight: the car's x-rays and the
            // captain's escape squares depend only on the board.
            let (_, _, terms) = activity_terms(&b, side, mine, theirs, None);
            assert_eq!(&f[TERMS_AT..TERMS_AT + TERMS], &terms.map(|t| sign * t)[..]);
            checked += 1;
        }
        assert!(checked > 100, "{checked} positions checked");
    }

    #[test]
    fn pieces_near_a_captain_are_those_two_rows_and_two_files_from_it() {
        let at = |name: &str| WEIGHTS.iter().position(|w| w.name == name).unwrap();
        // Red's captain on e1. Blue's soldier on e3 is near, the one on e5 is not; the
        // horse on c2 is near; the car on e2 is near but not counted (it reaches from
        // afar); a blue guard on h1 is three files away.
        for side in ["r", "b"] {
            let board: Board = format!("4k4/9/9/9/9/4s4/9/4s4/2h1r4/4K2g1 {side}")
                .parse()
                .unwrap();
            let f = features(&board).unwrap();
            assert_eq!(f[at("Near Soldier")], -1, "{side}");
            assert_eq!(f[at("Near Pieces")], -1, "{side}");
        }
        // The same pieces of red's around blue's captain count for red.
        let board: Board = "4k2G1/4R1H2/4S4/9/4S4/9/9/9/9/4K4 r".parse().unwrap();
        let f = features(&board).unwrap();
        assert_eq!((f[at("Near Soldier")], f[at("Near Pieces")]), (1, 1));
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Board::start()), WEIGHTS[TEMPO].default);
    }

    #[test]
    fn the_lazy_evaluation_is_exact_inside_its_window_and_a_bound_outside() {
        let (mut lazy, mut wrong_side) = (0, 0);
        for mut b in crate::engine::random_positions(3, 300) {
            let t = DEFAULTS;
            let exact = eval_mut(&mut b, &t);
            // Windows wide around the score, then above and below it by 100 to 1000.
            assert_eq!(eval_within(&mut b, exact - 2000, exact + 2000, &t), exact);
            for gap in [100, 400, 700, 1000] {
                for (alpha, beta) in [
                    (exact + gap, exact + gap + 1),
                    (exact - gap - 1, exact - gap),
                ] {
                    let got = eval_within(&mut b, alpha, beta, &t);
                    if got == exact {
                        continue;
                    }
                    lazy += 1;
                    // Cut short: the value must be outside the window...
                    assert!(
                        got >= beta || got <= alpha,
                        "{b}: {got} in ({alpha}, {beta})"
                    );
                    // ...and almost always on the same side as the exact value.
                    if (got >= beta) != (exact >= beta) {
                        wrong_side += 1;
                    }
                }
            }
        }
        assert!(lazy > 500, "the lazy exit was taken {lazy} times");
        assert!(
            wrong_side * 100 <= lazy,
            "{wrong_side} of {lazy} on the wrong side"
        );
    }
}
