//! The statement's coverage model: what the rules and the output can show, cell by cell,
//! whatever mistake a solution makes (the category-partition method: each dimension a
//! category of the statement, each cell one choice or one combination of choices).
//!
//! The dimensions, each named for what it covers:
//!
//! - **lines**: every output line a legal move can produce: the mover (side and kind),
//!   what it takes (each kind of the other side, or nothing), whether the position is
//!   then check (a capture of a captain ends the game, which is never check);
//! - **endings**: each kind of each side taking the other captain, and a command after
//!   that end which the loser's piece could make by its rule;
//! - **places**: each kind of each side moving from and moving onto every square it can
//!   stand on (edges, corners and the middle rows among them);
//! - **attacks**: each kind of each side giving the only check on the board along each
//!   of its vectors from every row and from every column where that fits on the board;
//! - **pieces**: each of the 32 starting pieces moving, taking, taken, giving the only
//!   check, and the target of its own side's move (refused);
//! - **invalid**: every class of invalid command (from an empty square, with the
//!   opponent's piece, onto the mover's own piece, through a blocking square, one square
//!   off a legal shape, after the end) crossed with the kind whose move shape it has and
//!   what stands on the target, each followed by a legal move of the same side (so a
//!   solution that passes the turn shows it), but after the end.
//!
//! The move geometry here is the statement's table, written once more for the model, so
//! that the model does not inherit a slip of the judge's table (a test holds the two
//! equal). The judge only plays the commands.
//!
//! A cell no valid input can reach is listed with the reason ([`why_unreachable`]),
//! never dropped: a piece that cannot stand on a square (an elephant's jumps keep it on
//! a quarter of the board), an attack that would start or land off the board, a line a
//! game over forbids.

use super::matrix::Test;
use super::mutant::Cmd;
use crate::cli;
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{Color, Piece, PieceKind, Square};
use std::collections::HashMap;
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
    super::grown::direction(kind, vectors(kind)[v as usize].delta)
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
fn open(board: &Board, kind: PieceKind, v: u8, from: Square, to: Square) -> bool {
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

fn can_stand(side: Color, kind: PieceKind, s: Square) -> bool {
    stands(side, kind) & (1 << s.bit()) != 0
}

/// What stands on a command's target, seen from the piece on its source (for an empty
/// source, from the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Onto {
    /// Nothing.
    Empty,
    /// A piece of its own side.
    Own,
    /// A piece of the other side.
    Enemy,
}

impl Onto {
    /// Every target.
    pub const ALL: [Onto; 3] = [Onto::Empty, Onto::Own, Onto::Enemy];

    fn of(board: &Board, side: Color, to: Square) -> Onto {
        match board.piece_at(to) {
            None => Onto::Empty,
            Some(p) if p.color == side => Onto::Own,
            Some(_) => Onto::Enemy,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Onto::Empty => "onto an empty square",
            Onto::Own => "onto its own side's piece",
            Onto::Enemy => "onto the other side's piece",
        }
    }
}

/// The classes of invalid command, as the statement defines an invalid command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// From an empty square, with the shape of a kind's move.
    EmptySource,
    /// With the opponent's piece, by its move's shape.
    Opponent,
    /// Onto a piece of the mover's own side, by the mover's shape.
    OwnTarget,
    /// By the mover's shape, through a piece on a blocking square.
    Blocked,
    /// One square off a target of the mover's shape.
    OffShape,
    /// After the end, a move the piece's rule allows.
    AfterEnd,
}

impl Class {
    /// Every class.
    pub const ALL: [Class; 6] = [
        Class::EmptySource,
        Class::Opponent,
        Class::OwnTarget,
        Class::Blocked,
        Class::OffShape,
        Class::AfterEnd,
    ];

    fn words(self) -> &'static str {
        match self {
            Class::EmptySource => "from an empty square with the shape of the",
            Class::Opponent => "moving the opponent's",
            Class::OwnTarget => "moving the",
            Class::Blocked => "through a blocking square of the",
            Class::OffShape => "one square off a shape of the",
            Class::AfterEnd => "after the end, a move by its rule of the",
        }
    }
}

/// What happens to one starting piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Act {
    /// It moves.
    Moves,
    /// It takes a piece.
    Takes,
    /// It is taken.
    Taken,
    /// It gives the only check on the board (a captain: the captains' check on each
    /// other is the only one).
    Checks,
    /// A piece of its own side tries to move onto it by a shape and a way that would be
    /// a legal move onto an empty square (refused).
    Targeted,
}

impl Act {
    /// Every act.
    pub const ALL: [Act; 5] = [
        Act::Moves,
        Act::Takes,
        Act::Taken,
        Act::Checks,
        Act::Targeted,
    ];

    fn words(self) -> &'static str {
        match self {
            Act::Moves => "never moves",
            Act::Takes => "never takes",
            Act::Taken => "is never taken",
            Act::Checks => "never gives the only check",
            Act::Targeted => "is never the target of its own side",
        }
    }
}

/// One cell of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cell {
    /// The answer to a legal move: the mover's side and kind, the kind it takes (or
    /// none), and whether the position is then check.
    Line(Color, PieceKind, Option<PieceKind>, bool),
    /// This side's kind takes the other captain.
    Ends(Color, PieceKind),
    /// After such an end, a command the loser's piece could make by its rule.
    Follows(Color, PieceKind),
    /// A legal move of this side's kind from the square.
    From(Color, PieceKind, Square),
    /// A legal move of this side's kind onto the square.
    Onto(Color, PieceKind, Square),
    /// After a move, the only check on the board is this side's kind's, along this
    /// vector (an index into [`vectors`]), from this row.
    Row(Color, PieceKind, u8, u8),
    /// ... from this column.
    Column(Color, PieceKind, u8, u8),
    /// What happens to one starting piece (an index into [`starts`]).
    Piece(u8, Act),
    /// An invalid command of this class, with this kind's shape, onto this target.
    Invalid(Class, PieceKind, Onto),
}

/// The dimensions of the model, in report order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dimension {
    /// Every output line.
    Lines,
    /// Every game ending.
    Endings,
    /// Every square each kind stands on.
    Places,
    /// Every check by each vector from each row and column.
    Attacks,
    /// The 32 starting pieces.
    Pieces,
    /// Every class of invalid command.
    Invalid,
}

impl Dimension {
    /// Every dimension.
    pub const ALL: [Dimension; 6] = [
        Dimension::Lines,
        Dimension::Endings,
        Dimension::Places,
        Dimension::Attacks,
        Dimension::Pieces,
        Dimension::Invalid,
    ];

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Dimension::Lines => "output lines",
            Dimension::Endings => "game endings",
            Dimension::Places => "places",
            Dimension::Attacks => "attacks",
            Dimension::Pieces => "starting pieces",
            Dimension::Invalid => "invalid commands",
        }
    }
}

impl Cell {
    /// The dimension the cell belongs to.
    pub fn dimension(self) -> Dimension {
        match self {
            Cell::Line(..) => Dimension::Lines,
            Cell::Ends(..) | Cell::Follows(..) => Dimension::Endings,
            Cell::From(..) | Cell::Onto(..) => Dimension::Places,
            Cell::Row(..) | Cell::Column(..) => Dimension::Attacks,
            Cell::Piece(..) => Dimension::Pieces,
            Cell::Invalid(..) => Dimension::Invalid,
        }
    }

    /// The side and kind whose move or piece the cell is about, if one (for a command
    /// after the end, a side whose piece of that kind is likely to stand beside the
    /// other side's pieces when it has taken the captain).
    pub fn mover(self) -> Option<(Color, PieceKind)> {
        match self {
            Cell::Line(side, kind, ..)
            | Cell::Ends(side, kind)
            | Cell::Follows(side, kind)
            | Cell::From(side, kind, _)
            | Cell::Onto(side, kind, _)
            | Cell::Row(side, kind, ..)
            | Cell::Column(side, kind, ..) => Some((side, kind)),
            Cell::Piece(id, _) => starts()
                .get(id as usize)
                .map(|s| (s.piece.color, s.piece.kind)),
            // After the end, the winner's pieces are the ones left beside the other
            // side's: red's, say.
            Cell::Invalid(Class::AfterEnd, kind, _) => Some((Color::Red, kind)),
            Cell::Invalid(..) => None,
        }
    }

    /// The cell in words.
    pub fn words(self) -> String {
        let starts = starts();
        match self {
            Cell::Line(side, kind, taken, check) => line(side, kind, taken, check),
            Cell::Ends(side, kind) => format!("the {side} {kind} takes the captain"),
            Cell::Follows(side, kind) => format!(
                "a command the loser's piece could make after the {side} {kind} takes the captain"
            ),
            Cell::From(side, kind, s) => format!("the {side} {kind} moves from {s}"),
            Cell::Onto(side, kind, s) => format!("the {side} {kind} moves onto {s}"),
            Cell::Row(side, kind, v, r) => format!(
                "the {side} {kind} alone gives check {} from row {r}",
                vector_name(kind, v)
            ),
            Cell::Column(side, kind, v, c) => format!(
                "the {side} {kind} alone gives check {} from column {c}",
                vector_name(kind, v)
            ),
            Cell::Piece(id, act) => format!("{} {}", starts[id as usize].name, act.words()),
            Cell::Invalid(class, kind, onto) => {
                let then = if class == Class::AfterEnd {
                    ""
                } else {
                    ", then a move"
                };
                let piece = if class == Class::OwnTarget {
                    format!("{kind} onto its own side's piece")
                } else {
                    format!("{kind} {}", onto.words())
                };
                format!("{} {piece}{then}", class.words())
            }
        }
    }
}

/// An output line as the judge writes it.
fn line(side: Color, kind: PieceKind, taken: Option<PieceKind>, check: bool) -> String {
    let taken = taken.map_or("NA".to_string(), |k| format!("{} {k}", side.opponent()));
    let over = taken.ends_with("captain");
    let yn = |b: bool| if b { "yes" } else { "no" };
    format!("{side} {kind};{taken};{};{}", yn(check), yn(over))
}

/// One of the 32 starting pieces.
#[derive(Clone, Debug)]
pub struct Start {
    /// Its side and kind.
    pub piece: Piece,
    /// Its starting square.
    pub square: Square,
    /// Its name: `red-guard-0-3`.
    pub name: String,
}

/// The 32 starting pieces, red first, each side by square.
pub fn starts() -> &'static [Start] {
    static STARTS: OnceLock<Vec<Start>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let board = Board::start();
        let mut out: Vec<Start> = board
            .pieces()
            .map(|(square, piece)| Start {
                piece,
                square,
                name: format!(
                    "{}-{}-{}-{}",
                    piece.color,
                    piece.kind,
                    square.x(),
                    square.y()
                ),
            })
            .collect();
        out.sort_by_key(|s| (s.piece.color.index(), s.square.x(), s.square.y()));
        out
    })
}

/// The vectors of `kind` by which it can give check from row `row` (`Some(row)`) or
/// column `column`: some square of the line it can stand on, with the captain it
/// attacks (and every blocking square) on the board.
fn attack_fits(side: Color, kind: PieceKind, v: u8, line: Line) -> bool {
    let vec = vectors(kind)[v as usize];
    Square::all().any(|a| {
        let on = match line {
            Line::Row(r) => a.x() == r,
            Line::Column(c) => a.y() == c,
        };
        on && can_stand(side, kind, a)
            && a.offset(vec.delta).is_some()
            && vec.blocks.iter().all(|&b| a.offset(b).is_some())
    })
}

#[derive(Clone, Copy)]
enum Line {
    Row(u8),
    Column(u8),
}

/// Every cell of the model's cross product, reachable or not, in report order.
pub fn universe() -> &'static [Cell] {
    static ALL: OnceLock<Vec<Cell>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                out.push(Cell::Line(side, kind, None, false));
                out.push(Cell::Line(side, kind, None, true));
                for taken in PieceKind::ALL {
                    out.push(Cell::Line(side, kind, Some(taken), false));
                    out.push(Cell::Line(side, kind, Some(taken), true));
                }
            }
        }
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                out.push(Cell::Ends(side, kind));
                out.push(Cell::Follows(side, kind));
            }
        }
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                for s in Square::all() {
                    out.push(Cell::From(side, kind, s));
                    out.push(Cell::Onto(side, kind, s));
                }
            }
        }
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                for v in 0..vectors(kind).len() as u8 {
                    for r in 0..10 {
                        out.push(Cell::Row(side, kind, v, r));
                    }
                    for c in 0..9 {
                        out.push(Cell::Column(side, kind, v, c));
                    }
                }
            }
        }
        for id in 0..starts().len() as u8 {
            for act in Act::ALL {
                out.push(Cell::Piece(id, act));
            }
        }
        for class in Class::ALL {
            for kind in PieceKind::ALL {
                for onto in Onto::ALL {
                    out.push(Cell::Invalid(class, kind, onto));
                }
            }
        }
        out
    })
}

/// Why no valid input can reach `cell`, or `None` when some can.
pub fn why_unreachable(cell: Cell) -> Option<String> {
    let kinds_blocked = |k: PieceKind| vectors(k).iter().any(|v| v.ray || !v.blocks.is_empty());
    match cell {
        Cell::Line(_, _, Some(PieceKind::Captain), true) => {
            Some("taking a captain ends the game, and a game over is never check".into())
        }
        Cell::Line(side, kind, Some(taken), _)
            if stands(side, kind) & stands(side.opponent(), taken) == 0 =>
        {
            Some(format!(
                "no square the {side} {kind} can stand on is one the {} {taken} can",
                side.opponent()
            ))
        }
        Cell::From(side, kind, s) | Cell::Onto(side, kind, s) if !can_stand(side, kind, s) => Some(
            format!("no move of the {side} {kind} from its starting squares leads to {s}"),
        ),
        Cell::Row(side, kind, v, r) if !attack_fits(side, kind, v, Line::Row(r)) => Some(format!(
            "the {side} {kind} cannot stand on row {r} with a square {} of it on the board",
            vector_name(kind, v)
        )),
        Cell::Column(side, kind, v, c) if !attack_fits(side, kind, v, Line::Column(c)) => {
            Some(format!(
                "the {side} {kind} cannot stand on column {c} with a square {} of it on the board",
                vector_name(kind, v)
            ))
        }
        Cell::Invalid(Class::OwnTarget, _, onto) if onto != Onto::Own => {
            Some("a move onto the mover's own piece has its own piece on the target".into())
        }
        Cell::Invalid(Class::Blocked, kind, _) if !kinds_blocked(kind) => {
            Some(format!("a {kind} has no blocking square"))
        }
        Cell::Invalid(Class::Blocked, _, Onto::Own) => {
            Some("a move onto its own piece is of the class onto the mover's own piece".into())
        }
        Cell::Invalid(Class::AfterEnd, _, Onto::Own) => {
            Some("no move by a piece's rule lands on its own side's piece".into())
        }
        _ => None,
    }
}

/// The cells some valid input can reach.
pub fn cells() -> &'static [Cell] {
    static CELLS: OnceLock<Vec<Cell>> = OnceLock::new();
    CELLS.get_or_init(|| {
        universe()
            .iter()
            .copied()
            .filter(|&c| why_unreachable(c).is_none())
            .collect()
    })
}

fn index_of() -> &'static HashMap<Cell, usize> {
    static INDEX: OnceLock<HashMap<Cell, usize>> = OnceLock::new();
    INDEX.get_or_init(|| cells().iter().enumerate().map(|(i, &c)| (c, i)).collect())
}

impl Cell {
    /// The cell's place in [`cells`]; `None` for a cell no valid input reaches.
    pub fn index(self) -> Option<usize> {
        index_of().get(&self).copied()
    }
}

/// An attack on a captain: who gives it, from where, by which vector.
#[derive(Clone, Copy, Debug)]
struct Attack {
    piece: Piece,
    from: Square,
    v: u8,
}

/// Every check on `board` by the statement's geometry.
fn attacks(board: &Board) -> Vec<Attack> {
    let mut out = Vec::new();
    for (from, piece) in board.pieces() {
        let Some(target) = board.captain(piece.color.opponent()) else {
            continue;
        };
        if let Some(v) = shape(piece.kind, from, target) {
            if open(board, piece.kind, v, from, target) {
                out.push(Attack { piece, from, v });
            }
        }
    }
    out
}

/// Counts the model's cells command by command, playing the judge.
#[derive(Clone, Debug)]
pub struct Counter {
    game: Game,
    /// The cells of the last command, if invalid, waiting for a legal move after it.
    pending: Vec<Cell>,
    /// Who took the captain, once the game is over.
    ended: Option<(Color, PieceKind)>,
    /// The starting piece on each square (an index into [`starts`]), if any.
    ids: [u8; 90],
}

const NO_ID: u8 = u8::MAX;

impl Default for Counter {
    fn default() -> Counter {
        Counter::new()
    }
}

impl Counter {
    /// A counter from the start position.
    pub fn new() -> Counter {
        let mut ids = [NO_ID; 90];
        for (i, s) in starts().iter().enumerate() {
            ids[s.square.bit() as usize] = i as u8;
        }
        Counter {
            game: Game::new(),
            pending: Vec::new(),
            ended: None,
            ids,
        }
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn id(&self, s: Square) -> Option<u8> {
        Some(self.ids[s.bit() as usize]).filter(|&i| i != NO_ID)
    }

    /// Plays `cmd` on the judge and calls `hit` for every cell it reaches.
    pub fn play(&mut self, cmd: Cmd, mut hit: impl FnMut(Cell)) {
        let [xs, ys, xt, yt] = cmd;
        let before = self.game.board().clone();
        let side = before.side_to_move();
        let squares = Square::new(xs, ys).zip(Square::new(xt, yt));
        let moved = match self.game.play(xs, ys, xt, yt) {
            Ok(m) => m,
            Err(_) => {
                self.pending.clear();
                if let Some((from, to)) = squares {
                    self.invalid(&before, side, from, to, &mut hit);
                }
                return;
            }
        };
        let Some((from, to)) = squares else { return };
        for c in self.pending.drain(..) {
            hit(c);
        }
        let kind = moved.piece.kind;
        hit(Cell::From(side, kind, from));
        hit(Cell::Onto(side, kind, to));
        let taken = moved.captured.map(|p| p.kind);
        hit(Cell::Line(side, kind, taken, moved.check));
        if let Some(id) = self.id(from) {
            hit(Cell::Piece(id, Act::Moves));
            if taken.is_some() {
                hit(Cell::Piece(id, Act::Takes));
            }
        }
        if let Some(id) = self.id(to) {
            hit(Cell::Piece(id, Act::Taken));
        }
        self.ids[to.bit() as usize] = self.ids[from.bit() as usize];
        self.ids[from.bit() as usize] = NO_ID;
        if moved.game_over {
            hit(Cell::Ends(side, kind));
            self.ended = Some((side, kind));
            return;
        }
        let all = attacks(self.game.board());
        // Captains next to each other attack each other: their check is one.
        let alone = all.len() == 1
            || (all.len() == 2 && all.iter().all(|a| a.piece.kind == PieceKind::Captain));
        if alone {
            for a in &all {
                hit(Cell::Row(a.piece.color, a.piece.kind, a.v, a.from.x()));
                hit(Cell::Column(a.piece.color, a.piece.kind, a.v, a.from.y()));
                if let Some(id) = self.id(a.from) {
                    hit(Cell::Piece(id, Act::Checks));
                }
            }
        }
    }

    /// The cells of an invalid command from `from` to `to`, `side` to move: after the
    /// end at once, else kept for a legal move after it.
    fn invalid(
        &mut self,
        before: &Board,
        side: Color,
        from: Square,
        to: Square,
        hit: &mut impl FnMut(Cell),
    ) {
        let (now, later) = self.classify(before, side, from, to);
        for c in now {
            hit(c);
        }
        self.pending = later;
    }

    /// The cells `cmd` would reach if it is invalid in the game so far, at once or on
    /// a legal move after it (none for a legal command), the game left as it is.
    pub fn invalid_cells(&self, cmd: Cmd) -> Vec<Cell> {
        let [xs, ys, xt, yt] = cmd;
        let board = self.game.board();
        if self.game.validate(xs, ys, xt, yt).is_ok() {
            return Vec::new();
        }
        let Some((from, to)) = Square::new(xs, ys).zip(Square::new(xt, yt)) else {
            return Vec::new();
        };
        let (mut now, later) = self.classify(board, board.side_to_move(), from, to);
        now.extend(later);
        now
    }

    /// The cells of an invalid command: those reached at once (after the end; a
    /// starting piece targeted by its own side), and those a legal move after it
    /// reaches.
    fn classify(
        &self,
        before: &Board,
        side: Color,
        from: Square,
        to: Square,
    ) -> (Vec<Cell>, Vec<Cell>) {
        let source = before.piece_at(from);
        let mut now = Vec::new();
        let mut later = Vec::new();
        if before.is_over() {
            if let (Some(p), Some(_)) = (source, rule_move(before, from, to)) {
                now.push(Cell::Invalid(
                    Class::AfterEnd,
                    p.kind,
                    Onto::of(before, p.color, to),
                ));
                if p.color == side {
                    if let Some((winner, kind)) = self.ended {
                        now.push(Cell::Follows(winner, kind));
                    }
                }
            }
            return (now, later);
        }
        match source {
            None => {
                let onto = Onto::of(before, side, to);
                for kind in PieceKind::ALL {
                    if shape(kind, from, to).is_some() {
                        later.push(Cell::Invalid(Class::EmptySource, kind, onto));
                    }
                }
            }
            Some(p) if p.color != side => {
                if shape(p.kind, from, to).is_some() {
                    let onto = Onto::of(before, p.color, to);
                    later.push(Cell::Invalid(Class::Opponent, p.kind, onto));
                }
            }
            Some(p) => {
                let onto = Onto::of(before, p.color, to);
                match shape(p.kind, from, to) {
                    Some(_) if onto == Onto::Own => {
                        later.push(Cell::Invalid(Class::OwnTarget, p.kind, onto));
                        // The own piece targeted by a move that would be legal onto an
                        // empty square.
                        let mut emptied = before.clone();
                        emptied.put(to, None);
                        if rule_move(&emptied, from, to).is_some() {
                            if let Some(id) = self.id(to) {
                                now.push(Cell::Piece(id, Act::Targeted));
                            }
                        }
                    }
                    Some(_) => later.push(Cell::Invalid(Class::Blocked, p.kind, onto)),
                    None => {
                        let near = (-1..=1).any(|a: i8| {
                            (-1..=1).any(|b: i8| {
                                (a, b) != (0, 0)
                                    && to
                                        .offset((a, b))
                                        .is_some_and(|t| shape(p.kind, from, t).is_some())
                            })
                        });
                        if near {
                            later.push(Cell::Invalid(Class::OffShape, p.kind, onto));
                        }
                    }
                }
            }
        }
        (now, later)
    }
}

/// How often a test set reaches each cell of the model.
#[derive(Clone, Debug)]
pub struct Map {
    /// The count of each cell of [`cells`].
    pub counts: Vec<u64>,
    /// Tests counted.
    pub tests: usize,
    /// Commands counted.
    pub commands: usize,
}

impl Default for Map {
    fn default() -> Map {
        Map::new()
    }
}

impl Map {
    /// The map of no test.
    pub fn new() -> Map {
        Map {
            counts: vec![0; cells().len()],
            tests: 0,
            commands: 0,
        }
    }

    /// The map of `tests`, each played from the start.
    pub fn of(tests: &[Test]) -> Map {
        let mut map = Map::new();
        for t in tests {
            map.add(&t.cmds);
        }
        map
    }

    /// Counts one test's commands, played from the start.
    pub fn add(&mut self, cmds: &[Cmd]) {
        let mut counter = Counter::new();
        for &c in cmds {
            counter.play(c, |cell| {
                if let Some(i) = cell.index() {
                    self.counts[i] += 1;
                }
            });
        }
        self.tests += 1;
        self.commands += cmds.len();
    }

    /// How often `cell` is reached (0 for a cell no input reaches).
    pub fn count(&self, cell: Cell) -> u64 {
        cell.index().map_or(0, |i| self.counts[i])
    }

    /// The reachable cells never reached.
    pub fn missing(&self) -> Vec<Cell> {
        cells()
            .iter()
            .copied()
            .filter(|&c| self.count(c) == 0)
            .collect()
    }

    /// Reached and reachable cells of `dim`.
    pub fn tally(&self, dim: Dimension) -> (usize, usize) {
        let of: Vec<Cell> = cells()
            .iter()
            .copied()
            .filter(|c| c.dimension() == dim)
            .collect();
        let reached = of.iter().filter(|&&c| self.count(c) > 0).count();
        (reached, of.len())
    }

    /// The report `audit --coverage` prints of the model: each dimension's count, then
    /// every cell never reached, by name.
    pub fn render(&self) -> String {
        let missing = self.missing();
        let total = cells().len();
        let mut out = format!(
            "the statement's model: {} of {total} cells reached, {} never\n  (the {} cells \
             no valid input can reach are not counted)\n",
            total - missing.len(),
            missing.len(),
            universe().len() - total
        );
        for dim in Dimension::ALL {
            let (reached, of) = self.tally(dim);
            out.push_str(&format!("  {:<17} {reached:>5} of {of}\n", dim.name()));
        }
        if missing.is_empty() {
            out.push_str("every cell of the model is reached\n");
            return out;
        }
        out.push_str(&format!(
            "never reached in the model ({}):\n",
            missing.len()
        ));
        out.push_str(&unreached(&missing));
        out
    }
}

/// The cells of `missing`, by name: lines and invalid commands one a line; squares and
/// rows gathered by side and kind.
fn unreached(missing: &[Cell]) -> String {
    let mut out = String::new();
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |head: String, item: String| match groups.iter_mut().find(|g| g.0 == head) {
        Some(g) => g.1.push(item),
        None => groups.push((head, vec![item])),
    };
    for &c in missing {
        match c {
            Cell::Line(..) => add("output lines never written".into(), c.words()),
            Cell::From(side, kind, s) => add(
                format!("the {side} {kind} never moves from"),
                format!("{},{}", s.x(), s.y()),
            ),
            Cell::Onto(side, kind, s) => add(
                format!("the {side} {kind} never moves onto"),
                format!("{},{}", s.x(), s.y()),
            ),
            Cell::Row(side, kind, v, r) => add(
                format!(
                    "the {side} {kind} never alone gives check {} from row",
                    vector_name(kind, v)
                ),
                r.to_string(),
            ),
            Cell::Column(side, kind, v, col) => add(
                format!(
                    "the {side} {kind} never alone gives check {} from column",
                    vector_name(kind, v)
                ),
                col.to_string(),
            ),
            _ => add(c.dimension().name().to_string(), c.words()),
        }
    }
    for (head, items) in groups {
        let one_a_line = items.iter().any(|i| i.contains(' '));
        if one_a_line {
            out.push_str(&format!("  {head}:\n"));
            for i in items {
                out.push_str(&cli::help::filled(&i, "    ", "      "));
            }
        } else {
            out.push_str(&cli::help::filled(
                &format!("{head}: {}", items.join(" ")),
                "  ",
                "    ",
            ));
        }
    }
    out
}

/// Every cell no valid input can reach, with why, one a line.
pub fn unreachable_text() -> String {
    let mut out = String::new();
    for &c in universe() {
        if let Some(why) = why_unreachable(c) {
            out.push_str(&format!("{}: {why}\n", c.words()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::rules::{Reach, REACH};

    fn sq(x: i64, y: i64) -> Square {
        Square::new(x, y).expect("on the board")
    }

    /// The cells each command reaches, played from the start.
    fn reached(cmds: &[Cmd]) -> Vec<Vec<Cell>> {
        let mut counter = Counter::new();
        cmds.iter()
            .map(|&c| {
                let mut cells = Vec::new();
                counter.play(c, |cell| cells.push(cell));
                cells
            })
            .collect()
    }

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

    #[test]
    fn a_line_an_invalid_class_and_the_move_after_it() {
        use PieceKind::*;
        // Red: the car on (0, 0) up to (1, 0); blue: a soldier from the empty (5, 5)
        // one step (captain's, soldier's and car's shape) onto an empty square, then
        // a legal blue move.
        let cells = reached(&[[0, 0, 1, 0], [5, 5, 5, 6], [6, 0, 5, 0]]);
        assert!(cells[0].contains(&Cell::Line(Color::Red, Car, None, false)));
        assert!(cells[0].contains(&Cell::From(Color::Red, Car, sq(0, 0))));
        assert!(cells[0].contains(&Cell::Onto(Color::Red, Car, sq(1, 0))));
        assert!(cells[1].is_empty(), "{:?}", cells[1]);
        for k in [Captain, Car, Soldier] {
            assert!(cells[2].contains(&Cell::Invalid(Class::EmptySource, k, Onto::Empty)));
        }
        assert!(!cells[2].contains(&Cell::Invalid(Class::EmptySource, Guard, Onto::Empty)));
    }

    #[test]
    fn own_targets_blocked_and_off_shape_moves() {
        use PieceKind::*;
        // The red guard on (0, 3) onto the red captain's (0, 4)? Not a guard's shape,
        // one square off (1, 4): off shape onto its own piece. The red horse on (0, 1)
        // to (1, 3): its leg (0, 2) holds the elephant. The red car on (0, 0) onto the
        // horse on (0, 1): its own piece, targeted by a move that would be legal.
        // Each class is counted on the legal move after it (the car up to (1, 0)).
        let cells = reached(&[[0, 3, 0, 4], [0, 0, 1, 0]]);
        assert!(cells[0].is_empty());
        assert!(cells[1].contains(&Cell::Invalid(Class::OffShape, Guard, Onto::Own)));
        let cells = reached(&[[0, 0, 0, 1], [0, 0, 1, 0]]);
        let horse = starts()
            .iter()
            .position(|s| s.square == sq(0, 1))
            .expect("the horse") as u8;
        assert_eq!(cells[0], vec![Cell::Piece(horse, Act::Targeted)]);
        assert!(cells[1].contains(&Cell::Invalid(Class::OwnTarget, Car, Onto::Own)));
        let cells = reached(&[[0, 1, 1, 3], [0, 0, 1, 0]]);
        assert!(cells[1].contains(&Cell::Invalid(Class::Blocked, Horse, Onto::Empty)));
        // An invalid command after another: only the last counts.
        let cells = reached(&[[0, 1, 1, 3], [0, 3, 0, 4], [0, 0, 1, 0]]);
        assert!(!cells[2].contains(&Cell::Invalid(Class::Blocked, Horse, Onto::Empty)));
    }

    #[test]
    fn the_statement_sample_ends_with_a_duck_and_a_check_alone() {
        use PieceKind::*;
        // The statement's sample, as the samples folder holds it.
        let numbers: Vec<i64> = include_str!("../../samples/statement.in")
            .split_ascii_whitespace()
            .skip(1)
            .map(|w| w.parse().expect("a number"))
            .collect();
        let cmds: Vec<Cmd> = numbers
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect();
        assert_eq!(cmds.len(), 18);
        let cells = reached(&cmds);
        // 16: the blue captain steps to (9, 4), where the red duck on (6, 6) attacks it
        // alone, up3-left2 from row 6 and column 6.
        assert!(cells[15].contains(&Cell::Line(Color::Blue, Captain, None, true)));
        let up3_left2 = vectors(Duck)
            .iter()
            .position(|v| v.delta == (3, -2))
            .expect("a vector") as u8;
        assert!(cells[15].contains(&Cell::Row(Color::Red, Duck, up3_left2, 6)));
        assert!(cells[15].contains(&Cell::Column(Color::Red, Duck, up3_left2, 6)));
        assert!(cells[16].contains(&Cell::Ends(Color::Red, Duck)));
        assert!(cells[16].contains(&Cell::Line(Color::Red, Duck, Some(Captain), false)));
        // 18: after the end, the blue car's move by its rule: the loser's.
        assert!(cells[17].contains(&Cell::Invalid(Class::AfterEnd, Car, Onto::Empty)));
        assert!(cells[17].contains(&Cell::Follows(Color::Red, Duck)));
    }

    /// Each unreachable cell is unreachable: the squares a kind can stand on are
    /// closed under its moves and hold its starting squares (so no game leaves them);
    /// no square of a line a kind can stand on has the attack on the board; a game
    /// over is never check (played on a real game).
    #[test]
    fn every_unreachable_cell_is_proved_so() {
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                let set = stands(side, kind);
                for s in Square::all().filter(|s| set & (1 << s.bit()) != 0) {
                    for t in Square::all() {
                        if shape(kind, s, t).is_some() {
                            assert!(set & (1 << t.bit()) != 0, "{side} {kind} {s} {t}");
                        }
                    }
                }
                for (s, p) in Board::start().pieces() {
                    if p.color == side && p.kind == kind {
                        assert!(set & (1 << s.bit()) != 0);
                    }
                }
            }
        }
        let mut n = 0;
        for &c in universe() {
            let Some(_) = why_unreachable(c) else {
                continue;
            };
            n += 1;
            match c {
                Cell::From(side, kind, s) | Cell::Onto(side, kind, s) => {
                    assert!(!can_stand(side, kind, s), "{c:?}")
                }
                Cell::Row(side, kind, v, _) | Cell::Column(side, kind, v, _) => {
                    for a in Square::all().filter(|&a| can_stand(side, kind, a)) {
                        let on = match c {
                            Cell::Row(.., r) => a.x() == r,
                            Cell::Column(.., col) => a.y() == col,
                            _ => unreachable!(),
                        };
                        if on {
                            // Every captain square: none is attacked from here.
                            for t in Square::all() {
                                assert!(shape(kind, a, t) != Some(v), "{c:?} {a} {t}");
                            }
                        }
                    }
                }
                Cell::Line(_, _, Some(PieceKind::Captain), true) => {}
                Cell::Line(side, kind, Some(taken), _) => {
                    assert_eq!(stands(side, kind) & stands(side.opponent(), taken), 0)
                }
                Cell::Invalid(..) => {}
                _ => panic!("no proof for {c:?}"),
            }
        }
        assert!(n > 0);
        // Taking a captain, on a real game: the answer is never check, even with the
        // winner's captain attacked (the statement's sample's last move).
        let mut game = Game::new();
        let walk = [
            [0, 4, 1, 4],
            [9, 4, 8, 4],
            [1, 4, 2, 4],
            [8, 4, 7, 4],
            [2, 4, 2, 5],
            [7, 4, 7, 5],
            [2, 5, 3, 5],
            [7, 5, 6, 5],
            [3, 5, 4, 5],
            [6, 5, 5, 5],
        ];
        for c in walk {
            game.play(c[0], c[1], c[2], c[3]).expect("legal");
        }
        // The red captain takes the blue one on (5, 5), where the blue soldier on
        // (6, 4) attacks it.
        let end = game.play(4, 5, 5, 5).expect("legal");
        assert!(end.game_over && !end.check);
        let winner = game.board().captain(Color::Red).expect("red's captain");
        assert!(crate::judge::rules::is_attacked(
            game.board(),
            winner,
            Color::Blue
        ));
    }

    #[test]
    fn the_model_counts_its_dimensions() {
        let lines = cells()
            .iter()
            .filter(|c| c.dimension() == Dimension::Lines)
            .count();
        // 14 movers, each: nothing or 6 kinds taken, check or not; or the captain taken;
        // but a guard never meets the other side's guards (red's stand where x + y is
        // odd, blue's where it is even), nor an elephant the other's elephants.
        assert_eq!(lines, 14 * (7 * 2 + 1) - 4 * 2);
        let places = cells()
            .iter()
            .filter(|c| c.dimension() == Dimension::Places)
            .count();
        // Captain, horse, car, duck, soldier: 90 squares; guard 45 (x + y odd for red,
        // even for blue); elephant 12 (even rows and columns for red, with x/2 + y/2
        // odd; odd rows for blue).
        assert_eq!(places, 2 * 2 * (5 * 90 + 45 + 12));
        assert_eq!(
            cells()
                .iter()
                .filter(|c| c.dimension() == Dimension::Endings)
                .count(),
            28
        );
    }
}
