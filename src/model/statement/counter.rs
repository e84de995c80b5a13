//! Counting the cells of the statement's model that a game reaches: each command played
//! on the judge, an invalid one's cells kept until a legal move of the same side shows
//! that the turn did not pass.

use super::aliases;
use super::capacity::{late, late_in_both, mobility, Scan, CROWD, LONG_RUN};
use super::cells::{Act, Cell, Class, InputEdge, Load, Onto, CORNERS};
use super::counts;
use super::geometry::{open, rule_move, shape};
use super::refusals;
use super::wraps;
use crate::generate::case::Cmd;
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{Color, Piece, PieceKind, Square};
use crate::model::pieces;

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
    /// The starting piece on each square (an index into [`pieces::by_square`]), if any.
    ids: [u8; 90],
    /// The cells of the refusals in the run of invalid commands so far, waiting for a
    /// legal move after it.
    run: Vec<Cell>,
    /// Invalid commands in a row so far.
    run_len: usize,
    /// The most legal moves each side had when it moved.
    most: [usize; 2],
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
        for (i, s) in pieces::by_square().iter().enumerate() {
            ids[s.square().bit() as usize] = i as u8;
        }
        Counter {
            game: Game::new(),
            pending: Vec::new(),
            ended: None,
            ids,
            run: Vec::new(),
            run_len: 0,
            most: [0; 2],
        }
    }

    /// The most legal moves each side (red, blue) had when it moved.
    pub fn most_moves(&self) -> [usize; 2] {
        self.most
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
        if let Some(corner) = same_corner(cmd) {
            hit(corner);
        }
        let before = self.game.board().clone();
        let side = before.side_to_move();
        let squares = Square::new(xs, ys).zip(Square::new(xt, yt));
        let moved = match self.game.play(xs, ys, xt, yt) {
            Ok(m) => m,
            Err(_) => {
                self.pending.clear();
                if !before.is_over() {
                    self.run_len += 1;
                }
                if let Some((from, to)) = squares {
                    self.invalid(&before, side, from, to, &mut hit);
                }
                return;
            }
        };
        let Some((from, to)) = squares else { return };
        self.after_run(&mut hit);
        self.crowded(&before, from, &mut hit);
        for (which, value) in cmd.into_iter().enumerate() {
            let most = if which % 2 == 0 { 9 } else { 8 };
            if value == 0 || value == most {
                hit(Cell::Input(InputEdge::Number(which as u8, value == most)));
            }
        }
        let kind = moved.piece.kind;
        hit(Cell::From(side, kind, from));
        hit(Cell::Onto(side, kind, to));
        let taken = moved.captured.map(|p| p.kind);
        hit(Cell::Line(side, kind, taken, moved.check));
        if taken.is_some() {
            let d = to.delta_from(from);
            hit(Cell::ShapeOnto(side, kind, d.0, d.1, Onto::Enemy));
        }
        self.pieces_moved(from, to, taken.is_some(), &mut hit);
        if moved.game_over {
            hit(Cell::Ends(side, kind));
            self.ended = Some((side, kind));
            return;
        }
        let board = self.game.board();
        if taken.is_some() && board.pieces().count() == 2 {
            hit(Cell::Load(Load::AllTaken));
        }
        let all = attacks(board);
        if all.is_empty() {
            aliases::cells(board, &mut hit);
        }
        if let [only] = all[..] {
            self.crowded_check(only, &mut hit);
        }
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

    /// A legal move after a run of invalid commands: the cells they waited for, and a
    /// long run's.
    fn after_run(&mut self, hit: &mut impl FnMut(Cell)) {
        for c in self.pending.drain(..) {
            hit(c);
        }
        for c in self.run.drain(..) {
            hit(c);
        }
        if self.run_len >= LONG_RUN {
            hit(Cell::Load(Load::LongRun));
        }
        self.run_len = 0;
    }

    /// The legal moves of the side moving from `from` on `before`: the most so far, and
    /// in a crowded position the orders of scanning that reach the moving piece last.
    fn crowded(&mut self, before: &Board, from: Square, hit: &mut impl FnMut(Cell)) {
        let side = before.side_to_move();
        let by_square = pieces::by_square();
        let (n, last) = mobility(before, side, |s| {
            self.id(s).map_or(u8::MAX, |i| by_square[i as usize].id)
        });
        self.most[side.index()] = self.most[side.index()].max(n);
        if n < CROWD {
            return;
        }
        for (scan, last) in Scan::ALL.into_iter().zip(last) {
            if last == Some(from) {
                hit(Cell::Load(Load::Crowded(side, scan)));
            }
        }
    }

    /// The only check on the board, by `a`: in a crowded position of its side, the orders
    /// of scanning that list the checking piece's moves after the first [`LATE`]; and
    /// those that list them after the first [`super::capacity::LATE_BOTH`] of both sides'.
    fn crowded_check(&self, a: Attack, hit: &mut impl FnMut(Cell)) {
        let by_square = pieces::by_square();
        let side = a.piece.color;
        let id = |s: Square| self.id(s).map_or(u8::MAX, |i| by_square[i as usize].id);
        let board = self.game.board();
        for (scan, late) in Scan::ALL.into_iter().zip(late(board, side, id)) {
            if late.contains(&a.from) {
                hit(Cell::Load(Load::CrowdedCheck(side, scan)));
            }
        }
        for (scan, late) in Scan::ALL.into_iter().zip(late_in_both(board, side, id)) {
            if late.contains(&a.from) {
                hit(Cell::Load(Load::LateCheck(side, scan)));
            }
        }
    }

    /// The cells of the starting pieces a legal move moves and takes; each then stands
    /// where the move leaves it.
    fn pieces_moved(&mut self, from: Square, to: Square, takes: bool, hit: &mut impl FnMut(Cell)) {
        if let Some(id) = self.id(from) {
            hit(Cell::Piece(id, Act::Moves));
            if takes {
                hit(Cell::Piece(id, Act::Takes));
            }
        }
        if let Some(id) = self.id(to) {
            hit(Cell::Piece(id, Act::Taken));
        }
        self.ids[to.bit() as usize] = self.ids[from.bit() as usize];
        self.ids[from.bit() as usize] = NO_ID;
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
        if !before.is_over() {
            self.run.extend(refusals::refused(before, side, from, to));
            for c in wraps::cells(before, side, from, to) {
                hit(c);
            }
        }
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
        let side = board.side_to_move();
        let (mut now, later) = self.classify(board, side, from, to);
        now.extend(later);
        now.extend(same_corner(cmd));
        if !board.is_over() {
            now.extend(refusals::refused(board, side, from, to));
            now.extend(wraps::cells(board, side, from, to));
        }
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

/// The cell of a command whose source and target are the same corner, if it is one.
fn same_corner(cmd: Cmd) -> Option<Cell> {
    let [xs, ys, xt, yt] = cmd;
    let corner = CORNERS.iter().position(|&c| c == (xs, ys))?;
    ((xs, ys) == (xt, yt)).then_some(Cell::Input(InputEdge::SameCorner(corner as u8)))
}

/// The cells of a whole input of `cmds`: no command, one, the official limit; and how far
/// it takes each count.
pub fn input_cells(cmds: &[Cmd]) -> Vec<Cell> {
    let mut out = match cmds.len() {
        0 => vec![Cell::Input(InputEdge::NoCommand)],
        1 => vec![Cell::Input(InputEdge::OneCommand)],
        1000 => vec![Cell::Input(InputEdge::FullLimit)],
        _ => Vec::new(),
    };
    let reached = counts::measure(cmds).reached();
    out.extend(reached.into_iter().map(|(q, v)| Cell::Count(q, v)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::statement::geometry::vectors;

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
        let horse = pieces::by_square()
            .iter()
            .position(|s| s.square() == sq(0, 1))
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
        let numbers: Vec<i64> = include_str!("../../../samples/statement.in")
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
}
