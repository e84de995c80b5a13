//! The coverage map: what a test set exercises of the rules, and how often. Each command
//! is played on the judge and counted in cells: for each piece, side and row of the move
//! table ([`crate::judge::rules::REACH`]; a car's direction), the moves judged legal,
//! the captures, the moves refused because of what stands on a blocking square (which
//! one), the checks that row alone gives, and the checks a blocking square alone stops;
//! then the edges of the board, who is in check, the end of the game and what follows
//! it, each kind of invalid command, and the captures as named.
//!
//! A cell is counted where the answer hinges on it: a check is counted for a row only
//! when no other piece gives check too, a stopped check only when the position is not
//! check otherwise, a blocked move only by the squares actually taken. So a mistake in
//! one row of the table can only show where its cell is counted, and a cell never
//! reached names mistakes the data cannot catch.

use super::matrix::Test;
use super::mutant::Cmd;
use super::shaped;
use crate::cli;
use crate::generate::position::rule_targets;
use crate::judge::board::Board;
use crate::judge::game::{Game, Invalid};
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules::{self, Reach, REACH};
use std::collections::HashMap;
use std::sync::OnceLock;

/// One row of the move table: a piece's leap, or a car's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The piece.
    pub kind: PieceKind,
    /// The target relative to the piece, or the car's direction.
    pub dir: (i8, i8),
    /// The blocking squares (none for a car, whose path is walked).
    pub blocks: &'static [(i8, i8)],
}

/// Every row of the table, piece by piece in table order.
pub fn rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut out = Vec::new();
        for kind in PieceKind::ALL {
            match REACH[kind.index()] {
                Reach::Leaps(leaps) => out.extend(leaps.iter().map(|l| Row {
                    kind,
                    dir: l.delta,
                    blocks: l.blocks,
                })),
                Reach::Rays(dirs) => out.extend(dirs.iter().map(|&dir| Row {
                    kind,
                    dir,
                    blocks: &[],
                })),
            }
        }
        out
    })
}

/// The ways a move of `kind` can be blocked, in words, in the order of [`Way`] codes.
pub fn ways(kind: PieceKind) -> &'static [&'static str] {
    match kind {
        PieceKind::Elephant => &["its eye"],
        PieceKind::Horse => &["its leg"],
        PieceKind::Duck => &["its first leg alone", "its second leg alone", "both legs"],
        PieceKind::Car => &[
            "one piece next to the car",
            "one piece next to the target",
            "one piece between",
            "several pieces",
        ],
        _ => &[],
    }
}

/// Which way a row is blocked: an index into [`ways`].
pub type Way = u8;

/// A place where a piece of a side stands in a game, to the point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edge {
    /// Row 0, red's back row.
    Row0,
    /// Row 9, blue's back row.
    Row9,
    /// Column 0.
    Column0,
    /// Column 8.
    Column8,
}

impl Edge {
    const ALL: [Edge; 4] = [Edge::Row0, Edge::Row9, Edge::Column0, Edge::Column8];

    fn holds(self, s: Square) -> bool {
        match self {
            Edge::Row0 => s.x() == 0,
            Edge::Row9 => s.x() == 9,
            Edge::Column0 => s.y() == 0,
            Edge::Column8 => s.y() == 8,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Edge::Row0 => "row 0",
            Edge::Row9 => "row 9",
            Edge::Column0 => "column 0",
            Edge::Column8 => "column 8",
        }
    }
}

/// The kinds of invalid command, as the judge finds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Refused {
    /// No piece on the source (a square no move has left).
    NoPiece,
    /// No piece on the source, which a move has left earlier.
    Emptied,
    /// The opponent's piece on the source.
    OpponentPiece,
    /// The piece does not move that way.
    NotThatWay,
    /// The target holds a piece of the mover's own side.
    OwnPiece,
    /// A piece stands in the way.
    Blocked,
    /// The game is over.
    GameOver,
    /// A square off the board: beyond the official limits.
    OffBoard,
}

impl Refused {
    const ALL: [Refused; 8] = [
        Refused::NoPiece,
        Refused::Emptied,
        Refused::OpponentPiece,
        Refused::NotThatWay,
        Refused::OwnPiece,
        Refused::Blocked,
        Refused::GameOver,
        Refused::OffBoard,
    ];

    fn words(self) -> &'static str {
        match self {
            Refused::NoPiece => "from an empty square",
            Refused::Emptied => "from a square a move has left",
            Refused::OpponentPiece => "moving the opponent's piece",
            Refused::NotThatWay => "a move its piece cannot make",
            Refused::OwnPiece => "onto the mover's own piece",
            Refused::Blocked => "stopped by a piece in the way",
            Refused::GameOver => "after the end of the game",
            Refused::OffBoard => "with a square off the board",
        }
    }
}

/// One cell of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cell {
    /// A move of this side's piece by this row (an index into [`rows`]) judged legal.
    Legal(Color, u8),
    /// ... that takes a piece.
    Takes(Color, u8),
    /// ... refused because of what stands on its blocking squares, this way.
    Blocked(Color, u8, Way),
    /// After a move, the only check on the board is this row's.
    Check(Color, u8),
    /// A car's legal move onto the edge it heads for (its row is a direction).
    ToEdge(Color, u8),
    /// After a move, the only check is this car row's, on a captain at the edge the car
    /// heads for.
    CheckAtEdge(Color, u8),
    /// After a move, no check, but this row's piece would give one if not for what
    /// stands on its blocking squares, this way.
    Stopped(Color, u8, Way),
    /// A legal move onto this edge.
    OntoEdge(Edge),
    /// A legal move from this edge.
    FromEdge(Edge),
    /// After a move, the mover's own captain stands attacked.
    CheckOnMover,
    /// After a move, the captain of the side to move stands attacked.
    CheckOnOther,
    /// Check after a move that the moved piece does not give.
    CheckNotByMover,
    /// A move that makes check where there was none.
    CheckAppears,
    /// A move that ends a check.
    CheckEnds,
    /// After a move, the captains face each other on an open column.
    CaptainsFace,
    /// This side takes the other's captain: the game ends.
    Wins(Color),
    /// At the end, the winner's captain stands attacked.
    WinnerAttacked,
    /// At the end, the loser could take the piece that took the captain.
    TakerAttacked,
    /// At the end, another of the winner's pieces could move onto the taken captain's
    /// square.
    SquareCovered,
    /// At the end, the winner could move onto (0, 0).
    CornerCovered,
    /// After the end, a command that moves the side to move's piece as its rule allows.
    AfterEndByLoser,
    /// After the end, a command that moves the winner's piece as its rule allows.
    AfterEndByWinner,
    /// An invalid command of this kind.
    Invalid(Refused),
    /// A legal move right after an invalid command of this kind.
    LegalAfter(Refused),
    /// This side takes the other's piece of this kind.
    Captures(Color, PieceKind),
    /// A move that takes nothing right after one that took a piece.
    NothingAfterCapture,
    /// What happens to one starting piece (by its id in [`shaped::starts`]).
    Piece(u8, Act),
    /// An invalid command of this kind, by a piece of this kind, onto this target
    /// (seen from the moving piece).
    Cross(Refused, PieceKind, Onto),
}

/// What happens to one starting piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Act {
    /// It moves.
    Moved,
    /// It is taken.
    Taken,
    /// It takes a piece.
    Takes,
    /// After a move, the only check on the board is its.
    Checks,
    /// After a move, no check on the board, but it would give one from the square it
    /// was taken on, had it stayed there: what tells a solution that keeps a taken piece
    /// alive in its table. Not for a captain, whose taking ends the game.
    Haunts,
}

impl Act {
    const ALL: [Act; 5] = [Act::Moved, Act::Taken, Act::Takes, Act::Checks, Act::Haunts];

    fn words(self) -> &'static str {
        match self {
            Act::Moved => "never moves",
            Act::Taken => "is never taken",
            Act::Takes => "never takes",
            Act::Checks => "never gives check alone",
            Act::Haunts => "never threatens a captain from where it was taken, once taken",
        }
    }

    /// Whether a piece of `kind` has this cell.
    fn applies(self, kind: PieceKind) -> bool {
        self != Act::Haunts || kind != PieceKind::Captain
    }
}

/// What stands on an invalid command's target, seen from the moving piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Onto {
    /// Nothing.
    Empty,
    /// A piece of the other side.
    Enemy,
    /// A piece of its own side.
    Own,
}

impl Onto {
    const ALL: [Onto; 3] = [Onto::Empty, Onto::Enemy, Onto::Own];
}

/// The kinds of invalid command crossed with the moving piece and its target, with the
/// targets each can have.
fn crossed() -> [(Refused, &'static [Onto]); 5] {
    const ALL: &[Onto] = &Onto::ALL;
    [
        (Refused::OpponentPiece, ALL),
        (Refused::NotThatWay, ALL),
        (Refused::OwnPiece, &[Onto::Own]),
        (Refused::Blocked, &[Onto::Empty, Onto::Enemy]),
        (Refused::GameOver, ALL),
    ]
}

/// Whether a piece of `kind` can be blocked.
fn blockable(kind: PieceKind) -> bool {
    !ways(kind).is_empty()
}

impl Cell {
    /// Whether a valid input within the official limits can reach the cell.
    pub fn reachable(self) -> bool {
        !matches!(
            self,
            Cell::Invalid(Refused::OffBoard) | Cell::LegalAfter(Refused::OffBoard)
        )
    }
}

/// Every cell, in the map's order.
pub fn cells() -> &'static [Cell] {
    static CELLS: OnceLock<Vec<Cell>> = OnceLock::new();
    CELLS.get_or_init(|| {
        let mut out = Vec::new();
        for (r, row) in rows().iter().enumerate() {
            let r = r as u8;
            for c in Color::ALL {
                out.push(Cell::Legal(c, r));
                out.push(Cell::Takes(c, r));
                for w in 0..ways(row.kind).len() {
                    out.push(Cell::Blocked(c, r, w as u8));
                }
                out.push(Cell::Check(c, r));
                if row.kind == PieceKind::Car {
                    out.push(Cell::ToEdge(c, r));
                    out.push(Cell::CheckAtEdge(c, r));
                }
                for w in 0..ways(row.kind).len() {
                    out.push(Cell::Stopped(c, r, w as u8));
                }
            }
        }
        for e in Edge::ALL {
            out.push(Cell::OntoEdge(e));
        }
        for e in Edge::ALL {
            out.push(Cell::FromEdge(e));
        }
        out.extend([
            Cell::CheckOnMover,
            Cell::CheckOnOther,
            Cell::CheckNotByMover,
            Cell::CheckAppears,
            Cell::CheckEnds,
            Cell::CaptainsFace,
            Cell::Wins(Color::Red),
            Cell::Wins(Color::Blue),
            Cell::WinnerAttacked,
            Cell::TakerAttacked,
            Cell::SquareCovered,
            Cell::CornerCovered,
            Cell::AfterEndByLoser,
            Cell::AfterEndByWinner,
        ]);
        for r in Refused::ALL {
            out.push(Cell::Invalid(r));
        }
        for r in Refused::ALL {
            if !matches!(r, Refused::GameOver) {
                out.push(Cell::LegalAfter(r));
            }
        }
        for c in Color::ALL {
            for k in PieceKind::ALL {
                out.push(Cell::Captures(c, k));
            }
        }
        out.push(Cell::NothingAfterCapture);
        for s in shaped::starts() {
            for act in Act::ALL.into_iter().filter(|a| a.applies(s.kind)) {
                out.push(Cell::Piece(s.id, act));
            }
        }
        for (r, targets) in crossed() {
            for k in PieceKind::ALL {
                if r == Refused::Blocked && !blockable(k) {
                    continue;
                }
                for &t in targets {
                    out.push(Cell::Cross(r, k, t));
                }
            }
        }
        out
    })
}

/// The index of every cell in [`cells`].
fn index_of() -> &'static HashMap<Cell, usize> {
    static INDEX: OnceLock<HashMap<Cell, usize>> = OnceLock::new();
    INDEX.get_or_init(|| cells().iter().enumerate().map(|(i, &c)| (c, i)).collect())
}

impl Cell {
    /// The cell's place in [`cells`].
    pub fn index(self) -> usize {
        index_of()[&self]
    }
}

/// The row of `kind` that takes a piece from `from` towards `to`, and what stands in its
/// way: `None` for no row; `Some((row, None))` for a free way; `Some((row, Some(way)))`
/// when something stands on its blocking squares.
fn row_towards(
    board: &Board,
    kind: PieceKind,
    from: Square,
    to: Square,
) -> Option<(u8, Option<Way>)> {
    let (dx, dy) = to.delta_from(from);
    let all = rows();
    if kind == PieceKind::Car {
        if (dx == 0) == (dy == 0) {
            return None;
        }
        let dir = (dx.signum(), dy.signum());
        let r = all.iter().position(|w| w.kind == kind && w.dir == dir)?;
        let n = dx.abs().max(dy.abs());
        let taken: Vec<i8> = (1..n)
            .filter(|&k| {
                from.offset((k * dir.0, k * dir.1))
                    .is_some_and(|s| !board.is_empty(s))
            })
            .collect();
        let way = match taken[..] {
            [] => None,
            [1] => Some(0),
            [k] if k == n - 1 => Some(1),
            [_] => Some(2),
            _ => Some(3),
        };
        return Some((r as u8, way));
    }
    let r = all
        .iter()
        .position(|w| w.kind == kind && w.dir == (dx, dy))?;
    let mask = all[r]
        .blocks
        .iter()
        .enumerate()
        .filter(|(_, &b)| from.offset(b).is_some_and(|s| !board.is_empty(s)))
        .fold(0u8, |m, (i, _)| m | 1 << i);
    let way = match (kind, mask) {
        (_, 0) => None,
        (PieceKind::Duck, 1) => Some(0),
        (PieceKind::Duck, 2) => Some(1),
        (PieceKind::Duck, _) => Some(2),
        _ => Some(0),
    };
    Some((r as u8, way))
}

/// A single-square car path is next to the car and next to the target at once: both
/// cells count it.
fn car_ways(from: Square, to: Square, way: Way) -> Vec<Way> {
    let (dx, dy) = to.delta_from(from);
    if way == 0 && dx.abs().max(dy.abs()) == 2 {
        vec![0, 1]
    } else {
        vec![way]
    }
}

/// An attack on a captain, or one that blocking squares stop.
#[derive(Clone, Copy, Debug)]
struct Attack {
    side: Color,
    row: u8,
    from: Square,
    /// `None`: it gives check; else how it is stopped.
    stopped: Option<Way>,
}

/// Every attack on either captain, given or stopped.
fn attacks(board: &Board) -> Vec<Attack> {
    let mut out = Vec::new();
    for side in Color::ALL {
        let Some(target) = board.captain(side.opponent()) else {
            continue;
        };
        for (from, p) in board.pieces() {
            if p.color != side {
                continue;
            }
            if let Some((row, stopped)) = row_towards(board, p.kind, from, target) {
                out.push(Attack {
                    side,
                    row,
                    from,
                    stopped,
                });
            }
        }
    }
    out
}

/// Counts cells command by command, playing the judge.
#[derive(Clone, Debug)]
pub struct Counter {
    game: Game,
    /// Squares a move has left, not taken since.
    emptied: u128,
    /// The kind of the last command, if it was invalid.
    after_invalid: Option<Refused>,
    /// Whether the last command was a capture.
    after_capture: bool,
    /// Whether the position is check.
    check: bool,
    /// The id of the starting piece on each square ([`NO_ID`] for none).
    ids: [u8; 90],
    /// The starting pieces taken, each with the square it was taken on.
    taken: Vec<(u8, Square)>,
}

/// No starting piece on a square.
const NO_ID: u8 = u8::MAX;

impl Default for Counter {
    fn default() -> Counter {
        Counter::new()
    }
}

impl Counter {
    /// A counter from the start position.
    pub fn new() -> Counter {
        Counter::from_game(Game::new())
    }

    /// A counter that goes on from `game` (its history forgotten; the pieces standing
    /// on their starting squares taken for the starting pieces).
    pub fn from_game(game: Game) -> Counter {
        let mut ids = [NO_ID; 90];
        for s in shaped::starts() {
            if let Some(sq) = Square::new(s.x, s.y) {
                let here = game.board().piece_at(sq);
                if here.is_some_and(|p| p.color == s.color && p.kind == s.kind) {
                    ids[sq.bit() as usize] = s.id;
                }
            }
        }
        Counter {
            game,
            emptied: 0,
            after_invalid: None,
            after_capture: false,
            check: false,
            ids,
            taken: Vec::new(),
        }
    }

    /// The id of the starting piece on `s`, if any.
    fn id(&self, s: Square) -> Option<u8> {
        Some(self.ids[s.bit() as usize]).filter(|&i| i != NO_ID)
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plays `cmd` on the judge and calls `hit` for every cell it reaches.
    pub fn play(&mut self, cmd: Cmd, mut hit: impl FnMut(Cell)) {
        let [xs, ys, xt, yt] = cmd;
        let board = self.game.board().clone();
        let verdict = self.game.validate(xs, ys, xt, yt);
        let (from, to, piece) = match verdict {
            Err(why) => {
                let refused = self.refused(why, &board, xs, ys, xt, yt, &mut hit);
                hit(Cell::Invalid(refused));
                let from = Square::new(xs, ys).and_then(|s| board.piece_at(s));
                let onto = Square::new(xt, yt).map(|t| board.piece_at(t));
                if let (Some(p), Some(target)) = (from, onto) {
                    let onto = match target {
                        None => Onto::Empty,
                        Some(t) if t.color == p.color => Onto::Own,
                        Some(_) => Onto::Enemy,
                    };
                    let cell = Cell::Cross(refused, p.kind, onto);
                    if index_of().contains_key(&cell) {
                        hit(cell);
                    }
                }
                self.after_invalid = Some(refused);
                return;
            }
            Ok(v) => v,
        };
        // The judge's own answer for the move; the board is then `self.game`'s.
        let moved = self.game.play(xs, ys, xt, yt).ok();
        let Some(moved) = moved else { return };
        if let Some(r) = self.after_invalid.take() {
            hit(Cell::LegalAfter(r));
        }
        self.emptied |= 1u128 << from.bit();
        self.emptied &= !(1u128 << to.bit());
        if let Some(id) = self.id(from) {
            hit(Cell::Piece(id, Act::Moved));
            if moved.captured.is_some() {
                hit(Cell::Piece(id, Act::Takes));
            }
        }
        if let Some(id) = self.id(to) {
            hit(Cell::Piece(id, Act::Taken));
            self.taken.push((id, to));
        }
        self.ids[to.bit() as usize] = self.ids[from.bit() as usize];
        self.ids[from.bit() as usize] = NO_ID;
        let c = piece.color;
        if let Some((r, _)) = row_towards(&board, piece.kind, from, to) {
            hit(Cell::Legal(c, r));
            if piece.kind == PieceKind::Car && to.offset(rows()[r as usize].dir).is_none() {
                hit(Cell::ToEdge(c, r));
            }
            if moved.captured.is_some() {
                hit(Cell::Takes(c, r));
            }
        }
        for e in Edge::ALL {
            if e.holds(to) {
                hit(Cell::OntoEdge(e));
            }
            if e.holds(from) {
                hit(Cell::FromEdge(e));
            }
        }
        match moved.captured {
            Some(p) => hit(Cell::Captures(c, p.kind)),
            None if self.after_capture => hit(Cell::NothingAfterCapture),
            None => {}
        }
        self.after_capture = moved.captured.is_some();
        let after = self.game.board();
        if moved.game_over {
            self.end(after, c, to, &mut hit);
            self.check = false;
            return;
        }
        let all = attacks(after);
        let all_rows = rows();
        let giving: Vec<&Attack> = all.iter().filter(|a| a.stopped.is_none()).collect();
        match giving[..] {
            [] => {
                self.haunts(after, &mut hit);
                for a in &all {
                    if let Some(way) = a.stopped {
                        let kind = after.piece_at(a.from).map(|p| p.kind);
                        let ways = if kind == Some(PieceKind::Car) {
                            let target = after.captain(a.side.opponent());
                            target.map_or_else(Vec::new, |t| car_ways(a.from, t, way))
                        } else {
                            vec![way]
                        };
                        for w in ways {
                            hit(Cell::Stopped(a.side, a.row, w));
                        }
                    }
                }
            }
            [a] => {
                hit(Cell::Check(a.side, a.row));
                if let Some(id) = self.id(a.from) {
                    hit(Cell::Piece(id, Act::Checks));
                }
                let row = all_rows[a.row as usize];
                let at_edge = after
                    .captain(a.side.opponent())
                    .is_some_and(|k| k.offset(row.dir).is_none());
                if row.kind == PieceKind::Car && at_edge {
                    hit(Cell::CheckAtEdge(a.side, a.row));
                }
            }
            // Captains next to each other threaten each other: their check is one, and
            // either row alone would make it.
            [a, b]
                if [a, b]
                    .iter()
                    .all(|x| all_rows[x.row as usize].kind == PieceKind::Captain) =>
            {
                hit(Cell::Check(a.side, a.row));
                hit(Cell::Check(b.side, b.row));
                for x in [a, b] {
                    if let Some(id) = self.id(x.from) {
                        hit(Cell::Piece(id, Act::Checks));
                    }
                }
            }
            _ => {}
        }
        let check = !giving.is_empty();
        if check {
            if giving.iter().any(|a| a.side != c) {
                hit(Cell::CheckOnMover);
            }
            if giving.iter().any(|a| a.side == c) {
                hit(Cell::CheckOnOther);
            }
            if giving.iter().all(|a| a.from != to) {
                hit(Cell::CheckNotByMover);
            }
        }
        match (self.check, check) {
            (false, true) => hit(Cell::CheckAppears),
            (true, false) => hit(Cell::CheckEnds),
            _ => {}
        }
        self.check = check;
        if let (Some(r), Some(b)) = (after.captain(Color::Red), after.captain(Color::Blue)) {
            let open = r.y() == b.y()
                && (r.x().min(b.x()) + 1..r.x().max(b.x())).all(|x| {
                    Square::new(x as i64, r.y() as i64).is_some_and(|s| after.is_empty(s))
                });
            if open && r.x().abs_diff(b.x()) > 1 {
                hit(Cell::CaptainsFace);
            }
        }
    }

    /// The cells of the taken pieces that would give check from where they were taken
    /// (called when nothing else does).
    fn haunts(&self, after: &Board, hit: &mut impl FnMut(Cell)) {
        let starts = shaped::starts();
        for &(id, at) in &self.taken {
            let s = starts[id as usize];
            if !Act::Haunts.applies(s.kind) {
                continue;
            }
            let Some(target) = after.captain(s.color.opponent()) else {
                continue;
            };
            if matches!(row_towards(after, s.kind, at, target), Some((_, None))) {
                hit(Cell::Piece(id, Act::Haunts));
            }
        }
    }

    /// The cells of the move that ends the game: `winner` took the captain on `to`.
    fn end(&self, after: &Board, winner: Color, to: Square, hit: &mut impl FnMut(Cell)) {
        hit(Cell::Wins(winner));
        let loser = winner.opponent();
        if after
            .captain(winner)
            .is_some_and(|k| rules::is_attacked(after, k, loser))
        {
            hit(Cell::WinnerAttacked);
        }
        if rules::is_attacked(after, to, loser) {
            hit(Cell::TakerAttacked);
        }
        if rules::is_attacked(after, to, winner) {
            hit(Cell::SquareCovered);
        }
        if Square::new(0, 0).is_some_and(|corner| rules::is_attacked(after, corner, winner)) {
            hit(Cell::CornerCovered);
        }
    }

    /// The kind of an invalid command, and the cells of a blocked move.
    #[allow(clippy::too_many_arguments)]
    fn refused(
        &self,
        why: Invalid,
        board: &Board,
        xs: i64,
        ys: i64,
        xt: i64,
        yt: i64,
        hit: &mut impl FnMut(Cell),
    ) -> Refused {
        match why {
            Invalid::GameOver => {
                let mover = Square::new(xs, ys).and_then(|s| board.piece_at(s).map(|p| (s, p)));
                let target = Square::new(xt, yt);
                if let (Some((s, p)), Some(t)) = (mover, target) {
                    if rule_targets(board, s).contains(&t) {
                        hit(if p.color == board.side_to_move() {
                            Cell::AfterEndByLoser
                        } else {
                            Cell::AfterEndByWinner
                        });
                    }
                }
                Refused::GameOver
            }
            Invalid::SourceOffBoard | Invalid::TargetOffBoard => Refused::OffBoard,
            Invalid::NoPiece(s) if self.emptied & (1u128 << s.bit()) != 0 => Refused::Emptied,
            Invalid::NoPiece(_) => Refused::NoPiece,
            Invalid::OpponentPiece(..) => Refused::OpponentPiece,
            Invalid::NotThatWay(_) => Refused::NotThatWay,
            Invalid::OwnPiece(_) => Refused::OwnPiece,
            Invalid::Blocked(p, _) => {
                let (from, to) = (Square::new(xs, ys), Square::new(xt, yt));
                if let (Some(from), Some(to)) = (from, to) {
                    if let Some((r, Some(way))) = row_towards(board, p.kind, from, to) {
                        let ways = if p.kind == PieceKind::Car {
                            car_ways(from, to, way)
                        } else {
                            vec![way]
                        };
                        for w in ways {
                            hit(Cell::Blocked(p.color, r, w));
                        }
                    }
                }
                Refused::Blocked
            }
        }
    }
}

/// How often a test set reaches each cell.
#[derive(Clone, Debug)]
pub struct Map {
    /// The count of each cell of [`cells`].
    pub counts: Vec<u64>,
    /// Tests counted.
    pub tests: usize,
    /// Commands counted.
    pub commands: usize,
}

impl Map {
    /// The map of `tests`, each played from the start.
    pub fn of(tests: &[Test]) -> Map {
        let mut map = Map::new();
        for t in tests {
            map.add(t);
        }
        map
    }

    /// The map of no test.
    pub fn new() -> Map {
        Map {
            counts: vec![0; cells().len()],
            tests: 0,
            commands: 0,
        }
    }

    /// Counts `test`, played from the start: a test set of any size is mapped as its
    /// tests come.
    pub fn add(&mut self, test: &Test) {
        let mut counter = Counter::new();
        for &c in &test.cmds {
            counter.play(c, |cell| self.counts[cell.index()] += 1);
        }
        self.tests += 1;
        self.commands += test.cmds.len();
    }

    /// How often `cell` is reached.
    pub fn count(&self, cell: Cell) -> u64 {
        self.counts[cell.index()]
    }

    /// How many cells a valid input could reach are never reached.
    pub fn missing(&self) -> usize {
        cells()
            .iter()
            .filter(|&&c| c.reachable() && self.count(c) == 0)
            .count()
    }

    /// The report `audit --coverage` prints.
    pub fn render(&self) -> String {
        render(self)
    }
}

impl Default for Map {
    fn default() -> Map {
        Map::new()
    }
}

/// A row's name in the map: `up2-right1`.
fn row_name(row: &Row) -> String {
    super::grown::direction(row.kind, row.dir)
}

fn render(map: &Map) -> String {
    let reachable: Vec<Cell> = cells().iter().copied().filter(|c| c.reachable()).collect();
    let reached = reachable.iter().filter(|&&c| map.count(c) > 0).count();
    let mut out = format!(
        "coverage of {} ({}): {} of {} cells reached, {} never\n",
        cli::plural(map.tests as u64, "test"),
        cli::plural(map.commands as u64, "command"),
        reached,
        reachable.len(),
        reachable.len() - reached
    );
    out.push('\n');
    out.push_str(&cli::help::filled(
        "the move table, by piece, side and row (legal: moves judged legal; takes: \
         captures; blocked: moves refused for what stands in the way; check: checks that \
         row alone gives; stopped: checks a blocking square stops, no other check on the \
         board; edge, for the car: moves onto the edge it heads for, and checks alone on \
         a captain there)",
        "",
        "",
    ));
    let all = rows();
    for kind in PieceKind::ALL {
        let w = ways(kind);
        out.push('\n');
        out.push_str(&match w.len() {
            0 => format!("{kind}\n"),
            _ => cli::help::filled(
                &format!("{kind} (blocked, stopped: by {})", w.join(" / ")),
                "",
                "  ",
            ),
        });
        let car = kind == PieceKind::Car;
        let mut lines: Vec<[String; 8]> = vec![[
            "side".into(),
            "row".into(),
            "legal".into(),
            "takes".into(),
            "blocked".into(),
            "check".into(),
            "stopped".into(),
            if car { "edge".into() } else { String::new() },
        ]];
        for color in Color::ALL {
            for (r, row) in all.iter().enumerate().filter(|(_, row)| row.kind == kind) {
                let r = r as u8;
                let split = |cell: &dyn Fn(Way) -> Cell| -> String {
                    if w.is_empty() {
                        return "-".to_string();
                    }
                    (0..w.len())
                        .map(|i| map.count(cell(i as u8)).to_string())
                        .collect::<Vec<_>>()
                        .join("/")
                };
                lines.push([
                    color.name().to_string(),
                    row_name(row),
                    map.count(Cell::Legal(color, r)).to_string(),
                    map.count(Cell::Takes(color, r)).to_string(),
                    split(&|w| Cell::Blocked(color, r, w)),
                    map.count(Cell::Check(color, r)).to_string(),
                    split(&|w| Cell::Stopped(color, r, w)),
                    if car {
                        format!(
                            "{}/{}",
                            map.count(Cell::ToEdge(color, r)),
                            map.count(Cell::CheckAtEdge(color, r))
                        )
                    } else {
                        String::new()
                    },
                ]);
            }
        }
        let width = |i: usize| lines.iter().map(|l| l[i].len()).max().unwrap_or(0);
        let widths: Vec<usize> = (0..7).map(width).collect();
        for l in &lines {
            let mut text = format!(
                "  {:<w0$}  {:<w1$}",
                l[0],
                l[1],
                w0 = widths[0],
                w1 = widths[1]
            );
            for i in 2..7 {
                text.push_str(&format!("  {:>w$}", l[i], w = widths[i]));
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
    }
    out.push_str(&others(map));
    out.push_str(&pieces(map));
    out.push_str(&never(map));
    out
}

/// The starting pieces, each with how often it moves, is taken, takes and gives check
/// alone; then the invalid commands by kind, moving piece and target.
fn pieces(map: &Map) -> String {
    let mut out = String::from("\n");
    out.push_str(&cli::help::filled(
        "the starting pieces, by id (moved / taken / takes / gives check alone / would \
         give check alone from where it was taken, once taken; - for a captain, whose \
         taking ends the game):",
        "",
        "",
    ));
    let all = shaped::starts();
    for side in all.chunks(16) {
        let items: Vec<String> = side
            .iter()
            .map(|s| {
                let n: Vec<String> = Act::ALL
                    .iter()
                    .map(|&a| match a.applies(s.kind) {
                        true => map.count(Cell::Piece(s.id, a)).to_string(),
                        false => "-".to_string(),
                    })
                    .collect();
                format!("{} {}", s.name(), n.join("/"))
            })
            .collect();
        out.push_str(&cli::help::filled(&items.join(", "), "  ", "  "));
    }
    out.push_str(&cli::help::filled(
        "invalid commands by moving piece and target (empty / enemy / own):",
        "",
        "",
    ));
    for (r, targets) in crossed() {
        let items: Vec<String> = PieceKind::ALL
            .iter()
            .filter(|&&k| r != Refused::Blocked || blockable(k))
            .map(|&k| {
                let n: Vec<String> = targets
                    .iter()
                    .map(|&t| map.count(Cell::Cross(r, k, t)).to_string())
                    .collect();
                format!("{k} {}", n.join("/"))
            })
            .collect();
        out.push_str(&cli::help::filled(
            &format!("{}: {}", r.words(), items.join(", ")),
            "  ",
            "    ",
        ));
    }
    out
}

/// `word N` pairs, joined.
fn counted(map: &Map, items: &[(String, Cell)]) -> String {
    items
        .iter()
        .map(|(word, cell)| match word.is_empty() {
            true => map.count(*cell).to_string(),
            false => format!("{word} {}", map.count(*cell)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The cells beyond the table, in words with their counts.
fn others(map: &Map) -> String {
    let mut out = String::from("\n");
    let line = |title: &str, items: Vec<(String, Cell)>| {
        cli::help::filled(&format!("{title}: {}", counted(map, &items)), "", "  ")
    };
    out.push_str(&line(
        "moves onto the edges",
        Edge::ALL
            .iter()
            .map(|&e| (e.words().to_string(), Cell::OntoEdge(e)))
            .collect(),
    ));
    out.push_str(&line(
        "moves from the edges",
        Edge::ALL
            .iter()
            .map(|&e| (e.words().to_string(), Cell::FromEdge(e)))
            .collect(),
    ));
    out.push_str(&line(
        "check",
        vec![
            ("on the mover's own captain".into(), Cell::CheckOnMover),
            ("on the side to move".into(), Cell::CheckOnOther),
            ("not given by the moved piece".into(), Cell::CheckNotByMover),
            ("made".into(), Cell::CheckAppears),
            ("ended".into(), Cell::CheckEnds),
            (
                "captains facing on an open column".into(),
                Cell::CaptainsFace,
            ),
        ],
    ));
    out.push_str(&line(
        "the end",
        vec![
            ("red wins".into(), Cell::Wins(Color::Red)),
            ("blue wins".into(), Cell::Wins(Color::Blue)),
            ("the winner's captain attacked".into(), Cell::WinnerAttacked),
            ("the taker attacked".into(), Cell::TakerAttacked),
            (
                "the taken captain's square covered by the winner".into(),
                Cell::SquareCovered,
            ),
            ("(0, 0) covered by the winner".into(), Cell::CornerCovered),
        ],
    ));
    out.push_str(&line(
        "after the end, moves a piece's rule allows",
        vec![
            ("by the side to move".into(), Cell::AfterEndByLoser),
            ("by the winner".into(), Cell::AfterEndByWinner),
        ],
    ));
    out.push_str(&line(
        "invalid commands",
        Refused::ALL
            .iter()
            .filter(|r| Cell::Invalid(**r).reachable())
            .map(|&r| (r.words().to_string(), Cell::Invalid(r)))
            .collect(),
    ));
    out.push_str(&line(
        "legal moves right after an invalid command",
        Refused::ALL
            .iter()
            .filter(|&&r| r != Refused::GameOver && Cell::LegalAfter(r).reachable())
            .map(|&r| (r.words().to_string(), Cell::LegalAfter(r)))
            .collect(),
    ));
    for c in Color::ALL {
        out.push_str(&line(
            &format!("{c} takes"),
            PieceKind::ALL
                .iter()
                .map(|&k| (k.name().to_string(), Cell::Captures(c, k)))
                .collect(),
        ));
    }
    out.push_str(&line(
        "moves that take nothing right after a capture",
        vec![(String::new(), Cell::NothingAfterCapture)],
    ));
    out
}

/// The words of a cell outside the table.
fn cell_words(cell: Cell) -> String {
    match cell {
        Cell::OntoEdge(e) => format!("a move onto {}", e.words()),
        Cell::FromEdge(e) => format!("a move from {}", e.words()),
        Cell::CheckOnMover => "check on the mover's own captain".into(),
        Cell::CheckOnOther => "check on the side to move".into(),
        Cell::CheckNotByMover => "a check the moved piece does not give".into(),
        Cell::CheckAppears => "a move that makes check".into(),
        Cell::CheckEnds => "a move that ends a check".into(),
        Cell::CaptainsFace => "captains facing each other on an open column".into(),
        Cell::Wins(c) => format!("{c} taking {}'s captain", c.opponent()),
        Cell::WinnerAttacked => "the winner's captain attacked at the end".into(),
        Cell::TakerAttacked => "the piece that takes the captain attacked at the end".into(),
        Cell::SquareCovered => {
            "the taken captain's square covered by another winner's piece at the end".into()
        }
        Cell::CornerCovered => "(0, 0) covered by the winner at the end".into(),
        Cell::AfterEndByLoser => "after the end, a move the side to move's rule allows".into(),
        Cell::AfterEndByWinner => "after the end, a move the winner's rule allows".into(),
        Cell::Invalid(r) => format!("an invalid command {}", r.words()),
        Cell::LegalAfter(r) => format!("a legal move right after a command {}", r.words()),
        Cell::Captures(c, k) => format!("{c} taking a {k}"),
        Cell::NothingAfterCapture => "a move that takes nothing right after a capture".into(),
        Cell::Piece(id, act) => {
            let s = shaped::starts()[id as usize];
            format!("{} {}", s.words(), act.words())
        }
        Cell::Cross(r, k, t) => format!(
            "an invalid command {}, by a {k}, onto {} square",
            r.words(),
            match t {
                Onto::Empty => "an empty",
                Onto::Enemy => "an enemy piece's",
                Onto::Own => "its own piece's",
            }
        ),
        _ => String::new(),
    }
}

/// The cells never reached, in words: the table's by piece, side and what is missing,
/// listing the rows; then the others.
fn never(map: &Map) -> String {
    let missing: Vec<Cell> = cells()
        .iter()
        .copied()
        .filter(|&c| c.reachable() && map.count(c) == 0)
        .collect();
    if missing.is_empty() {
        return "\nevery cell is reached\n".to_string();
    }
    let mut out = format!("\nnever reached ({}):\n", missing.len());
    let all = rows();
    for kind in PieceKind::ALL {
        for color in Color::ALL {
            let mut lines: Vec<(String, Vec<String>)> = Vec::new();
            let mut add = |what: String, row: String| match lines.iter_mut().find(|l| l.0 == what) {
                Some(l) => l.1.push(row),
                None => lines.push((what, vec![row])),
            };
            for &c in &missing {
                let of_kind = |r: u8| all[r as usize].kind == kind;
                let (what, r) = match c {
                    Cell::Legal(cc, r) if cc == color => ("no legal move".to_string(), r),
                    Cell::Takes(cc, r) if cc == color => ("no capture".to_string(), r),
                    Cell::Blocked(cc, r, w) if cc == color && of_kind(r) => {
                        (format!("never blocked by {}", ways(kind)[w as usize]), r)
                    }
                    Cell::Check(cc, r) if cc == color => ("no check alone".to_string(), r),
                    Cell::ToEdge(cc, r) if cc == color => {
                        ("no move to the edge ahead".to_string(), r)
                    }
                    Cell::CheckAtEdge(cc, r) if cc == color => (
                        "no check alone on a captain at the edge ahead".to_string(),
                        r,
                    ),
                    Cell::Stopped(cc, r, w) if cc == color && of_kind(r) => {
                        (format!("no check stopped by {}", ways(kind)[w as usize]), r)
                    }
                    _ => continue,
                };
                if of_kind(r) {
                    add(what, row_name(&all[r as usize]));
                }
            }
            for (what, rows) in lines {
                out.push_str(&cli::help::filled(
                    &format!("{color} {kind}, {what}: {}", rows.join(", ")),
                    "  ",
                    "    ",
                ));
            }
        }
    }
    for &c in &missing {
        let words = cell_words(c);
        if !words.is_empty() {
            out.push_str(&cli::help::filled(&words, "  ", "    "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells each command of `cmds` reaches, played from the start.
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

    fn row(kind: PieceKind, dir: (i8, i8)) -> u8 {
        rows()
            .iter()
            .position(|r| r.kind == kind && r.dir == dir)
            .expect("a row") as u8
    }

    #[test]
    fn blocked_moves_are_counted_by_the_squares_taken() {
        use PieceKind::*;
        // The red horse on (0, 1) to (1, 3): its leg (0, 2) holds the elephant. The red
        // car on (0, 0) to (4, 0): the duck and the soldier stand in the way. A duck
        // with its first leg taken.
        let cells = reached(&[[0, 1, 1, 3], [0, 0, 4, 0], [2, 0, 5, 2]]);
        assert!(cells[0].contains(&Cell::Blocked(Color::Red, row(Horse, (1, 2)), 0)));
        assert!(cells[0].contains(&Cell::Invalid(Refused::Blocked)));
        assert!(cells[1].contains(&Cell::Blocked(Color::Red, row(Car, (1, 0)), 3)));
        // (2, 0) to (5, 2): first leg (3, 0) holds a soldier, second (4, 1) is empty.
        assert!(cells[2].contains(&Cell::Blocked(Color::Red, row(Duck, (3, 2)), 0)));
        // A car's path of one square is next to the car and to the target at once.
        let sq = |x, y| Square::new(x, y).expect("on the board");
        assert_eq!(car_ways(sq(0, 0), sq(2, 0), 0), vec![0, 1]);
        assert_eq!(car_ways(sq(0, 0), sq(3, 0), 0), vec![0]);
    }

    #[test]
    fn the_statement_sample_has_a_check_alone_an_end_and_a_move_after_it() {
        use PieceKind::*;
        let cmds: Vec<Cmd> = [
            [0, 0, 7, 0],
            [9, 0, 8, 0],
            [0, 1, 1, 3],
            [0, 2, 2, 0],
            [0, 3, 1, 2],
            [0, 4, 0, 3],
            [9, 4, 8, 4],
            [3, 2, 2, 3],
            [7, 0, 4, 2],
            [7, 0, 5, 3],
            [9, 2, 7, 4],
            [2, 0, 4, 3],
            [9, 1, 8, 3],
            [4, 3, 6, 6],
            [7, 4, 9, 2],
            [8, 4, 9, 4],
            [6, 6, 9, 4],
            [9, 8, 8, 8],
        ]
        .to_vec();
        let cells = reached(&cmds);
        // Command 16: the blue captain steps into the red duck's row (3, -2), alone.
        assert!(cells[15].contains(&Cell::Check(Color::Red, row(Duck, (3, -2)))));
        assert!(cells[15].contains(&Cell::CheckOnMover));
        assert!(cells[15].contains(&Cell::CheckAppears));
        // Command 17: red takes the captain; command 18: blue's car by its rule.
        assert!(cells[16].contains(&Cell::Wins(Color::Red)));
        assert!(cells[16].contains(&Cell::Captures(Color::Red, Captain)));
        assert!(cells[17].contains(&Cell::AfterEndByLoser));
        assert!(cells[17].contains(&Cell::Invalid(Refused::GameOver)));
        // Command 1: the red car cannot jump its own duck: blocked.
        assert!(cells[0].contains(&Cell::Invalid(Refused::Blocked)));
        // A legal move right after an invalid one is counted by the invalid one's kind.
        let after: Vec<&Cell> = cells
            .iter()
            .flatten()
            .filter(|c| matches!(c, Cell::LegalAfter(_)))
            .collect();
        assert!(!after.is_empty());
    }

    /// A solution that keeps one taken piece alive in its table first answers wrong
    /// exactly where that piece's cell of a threat from where it was taken is first
    /// reached (for a captain, where it is taken): the cell names what tells it.
    #[test]
    fn a_piece_kept_when_taken_shows_where_its_cell_is_reached() {
        use crate::generate::recipe::{self, Recipe};
        use crate::mistakes::catalogue::Fault;
        use crate::mistakes::mutant;
        use crate::mistakes::shaped::{InstanceSlip, Shaped};
        let recipe = Recipe {
            seed: 3,
            mode: None,
            max_q: 300,
            messy: false,
        };
        let mut seen = [0u32; 32];
        for index in 0..400 {
            let cmds = recipe::case(&recipe, index).0.cmds();
            let cells = reached(&cmds);
            let expected = mutant::judge_answers(&cmds);
            for s in shaped::starts() {
                let act = if s.kind == PieceKind::Captain {
                    Act::Taken
                } else {
                    Act::Haunts
                };
                let first_cell = cells
                    .iter()
                    .position(|c| c.contains(&Cell::Piece(s.id, act)));
                let fault = Fault::Shaped(Shaped::Instance(s.id, InstanceSlip::KeptWhenTaken));
                let got = mutant::fault_answers(fault, &cmds);
                let first_wrong = (0..cmds.len()).find(|&i| got[i] != expected[i]);
                assert_eq!(first_cell, first_wrong, "case {index}, {}", s.name());
                seen[s.id as usize] += u32::from(first_cell.is_some());
            }
        }
        // Random games reach these cells rarely, but they do: both captains taken, and
        // several other pieces threatening from where they were taken.
        assert!(seen[0] > 0 && seen[16] > 0, "{seen:?}");
        assert!(seen.iter().filter(|&&n| n > 0).count() >= 8, "{seen:?}");
    }

    #[test]
    fn every_cell_has_an_index_and_the_offboard_ones_are_out_of_reach() {
        for (i, &c) in cells().iter().enumerate() {
            assert_eq!(c.index(), i);
        }
        assert!(!Cell::Invalid(Refused::OffBoard).reachable());
        assert!(Cell::Invalid(Refused::Blocked).reachable());
    }
}
