//! Counting the cells of the move table's map that a game reaches, playing each command
//! on the judge: a cell is counted where the answer hinges on it.

use super::cells::{rows, Act, Cell, Edge, Onto, Refused, Way};
use crate::generate::case::Cmd;
use crate::generate::position::rule_targets;
use crate::judge::board::Board;
use crate::judge::game::{Game, Invalid, Moved};
use crate::judge::piece::{Color, Piece, PieceKind, Square};
use crate::judge::rules;
use crate::model::pieces;

/// The row of `kind` that takes a piece from `from` towards `to`, and what stands in its
/// way: `None` for no row; `Some((row, None))` for a free way; `Some((row, Some(way)))`
/// when something stands on its blocking squares.
pub fn row_towards(
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
        for s in pieces::by_id() {
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
        let (from, to, piece) = match self.game.validate(xs, ys, xt, yt) {
            Err(why) => return self.invalid(why, &board, cmd, &mut hit),
            Ok(v) => v,
        };
        // The judge's own answer for the move; the board is then `self.game`'s.
        let Some(moved) = self.game.play(xs, ys, xt, yt).ok() else {
            return;
        };
        self.moved(&board, &moved, from, to, piece, &mut hit);
        if moved.game_over {
            self.end(self.game.board(), piece.color, to, &mut hit);
            self.check = false;
            return;
        }
        self.checks(piece.color, to, &mut hit);
    }

    /// The cells of an invalid command: its kind, crossed with the moving piece and
    /// what stands on the target; the kind is kept for the legal move after it.
    fn invalid(&mut self, why: Invalid, board: &Board, cmd: Cmd, hit: &mut impl FnMut(Cell)) {
        let [xs, ys, xt, yt] = cmd;
        let refused = self.refused(why, board, xs, ys, xt, yt, hit);
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
            if cell.is_counted() {
                hit(cell);
            }
        }
        self.after_invalid = Some(refused);
    }

    /// The cells of a legal move itself, from `board` before it: after an invalid
    /// command, the starting pieces it moves and takes, its row, the edges, what it
    /// takes.
    fn moved(
        &mut self,
        board: &Board,
        moved: &Moved,
        from: Square,
        to: Square,
        piece: Piece,
        hit: &mut impl FnMut(Cell),
    ) {
        if let Some(r) = self.after_invalid.take() {
            hit(Cell::LegalAfter(r));
        }
        self.emptied |= 1u128 << from.bit();
        self.emptied &= !(1u128 << to.bit());
        self.pieces_moved(moved, from, to, hit);
        let c = piece.color;
        if let Some((r, _)) = row_towards(board, piece.kind, from, to) {
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
    }

    /// The cells of the starting pieces a legal move moves and takes, and where each
    /// piece then stands.
    fn pieces_moved(
        &mut self,
        moved: &Moved,
        from: Square,
        to: Square,
        hit: &mut impl FnMut(Cell),
    ) {
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
    }

    /// The cells of the position after a legal move by `mover` onto `to` that does not
    /// end the game: who gives check, alone or stopped, on whom, and whether check
    /// appears or ends.
    fn checks(&mut self, mover: Color, to: Square, hit: &mut impl FnMut(Cell)) {
        let after = self.game.board();
        let all = attacks(after);
        let giving: Vec<&Attack> = all.iter().filter(|a| a.stopped.is_none()).collect();
        match giving[..] {
            [] => {
                self.haunts(after, hit);
                stopped(after, &all, hit);
            }
            [a] => {
                hit(Cell::Check(a.side, a.row));
                if let Some(id) = self.id(a.from) {
                    hit(Cell::Piece(id, Act::Checks));
                }
                let row = rows()[a.row as usize];
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
                    .all(|x| rows()[x.row as usize].kind == PieceKind::Captain) =>
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
            if giving.iter().any(|a| a.side != mover) {
                hit(Cell::CheckOnMover);
            }
            if giving.iter().any(|a| a.side == mover) {
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
        if captains_face(after) {
            hit(Cell::CaptainsFace);
        }
        self.check = check;
    }

    /// The cells of the taken pieces that would give check from where they were taken
    /// (called when nothing else does).
    fn haunts(&self, after: &Board, hit: &mut impl FnMut(Cell)) {
        let starts = pieces::by_id();
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

/// The stopped checks of a position with no check: each attack that a blocking square
/// stops, by the way it is stopped (a car's by every way that fits its path).
fn stopped(after: &Board, all: &[Attack], hit: &mut impl FnMut(Cell)) {
    for a in all {
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

/// Whether the captains face each other on an open column, a square or more apart.
fn captains_face(after: &Board) -> bool {
    let (Some(r), Some(b)) = (after.captain(Color::Red), after.captain(Color::Blue)) else {
        return false;
    };
    let open = r.y() == b.y()
        && (r.x().min(b.x()) + 1..r.x().max(b.x()))
            .all(|x| Square::new(x as i64, r.y() as i64).is_some_and(|s| after.is_empty(s)));
    open && r.x().abs_diff(b.x()) > 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statement's sample: red takes the captain with its 17th command, and one
    /// command follows.
    const SAMPLE: [Cmd; 18] = [
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
    ];

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

    /// The proof of [`Cell::why_unreachable`]: a valid input has every coordinate on
    /// the board (the strict format refuses any other), and from any position no
    /// command on the board reaches the cells of a square off it, nor does the legal
    /// move after one. Every command on the board is tried from the start, from a
    /// game in its middle and from a game over.
    #[test]
    fn no_valid_input_reaches_the_cells_left_out() {
        use crate::show::format::{validate, DEFAULT_MAX_Q};
        let left_out: Vec<Cell> = super::super::cells()
            .iter()
            .copied()
            .filter(|c| !c.reachable())
            .collect();
        assert_eq!(
            left_out,
            [
                Cell::Invalid(Refused::OffBoard),
                Cell::LegalAfter(Refused::OffBoard)
            ]
        );
        for bad in ["10 0 1 0", "0 9 1 0", "0 0 -1 0", "0 0 1 9", "0 0 1 10"] {
            let input = format!("1\n{bad}\n");
            assert!(validate(input.as_bytes(), DEFAULT_MAX_Q).is_err(), "{bad}");
        }
        assert!(validate(&b"1\n9 8 0 0\n"[..], DEFAULT_MAX_Q).is_ok());
        let middle: Vec<Cmd> = vec![[3, 4, 4, 4], [6, 4, 5, 4], [0, 1, 2, 2], [9, 1, 7, 2]];
        // The statement's sample up to red taking the captain.
        let over: Vec<Cmd> = SAMPLE[..17].to_vec();
        for opening in [Vec::new(), middle, over] {
            let mut counter = Counter::new();
            for &c in &opening {
                counter.play(c, |_| {});
            }
            for c in (0..8100i64).map(|i| [i / 810, i / 90 % 9, i / 9 % 10, i % 9]) {
                let mut after = counter.clone();
                let mut hit = Vec::new();
                after.play(c, |cell| hit.push(cell));
                // The next command: a legal move right after it, if the game goes on.
                let next = crate::judge::rules::legal_moves(after.game().board())
                    .first()
                    .map(|m| crate::generate::case::cmd_of(m.from, m.to));
                if let Some(n) = next {
                    after.play(n, |cell| hit.push(cell));
                }
                assert!(hit.iter().all(|h| !left_out.contains(h)), "{c:?}: {hit:?}");
            }
        }
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
        let cmds: Vec<Cmd> = SAMPLE.to_vec();
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
}
