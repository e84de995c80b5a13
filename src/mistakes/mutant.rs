//! The mutant judge: a plain game simulator written straight from the rules, square by
//! square, whose every clause asks whether it should make one of the catalogue's
//! mistakes. With no mistake it answers exactly as the judge does (a differential test
//! holds it to that), so whatever a mutant answers differently is its mistake's doing.
//!
//! It shares nothing with the judge's move table (`judge::rules`): it is a second,
//! independent reading of the rules, slow and simple, with hooks. Only the value types
//! (sides, kinds, the four answers) come from the judge.

use super::catalogue::Mistake;
use crate::judge::game::Moved;
use crate::judge::piece::{Color, Piece, PieceKind};

/// One judge command `xs ys xt yt`, any integers.
pub type Cmd = [i64; 4];

/// What a solution answers to one command: the four answers of a legal move, or `None`
/// for `Invalid command`.
pub type Answer = Option<Moved>;

/// Why a piece's reach is asked about: judging a move, or deciding check. Some mistakes
/// are made in one place and not the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    Move,
    Check,
}

/// A square as plain coordinates (always on the 10 x 9 board once made).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At {
    x: i64,
    y: i64,
}

impl At {
    fn plus(self, dx: i64, dy: i64) -> At {
        At {
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    fn index(self) -> usize {
        (self.x * 9 + self.y) as usize
    }

    fn on_board(self) -> bool {
        (0..10).contains(&self.x) && (0..9).contains(&self.y)
    }
}

/// A leap as [`Mistake::CheckWrapsAroundEdges`] looks for it: the kind that makes it,
/// its `(dx, dy)`, and its blocking squares relative to the attacker.
type NumberedLeap<'a> = (PieceKind, (i64, i64), &'a [(i64, i64)]);

/// A game as a solution with one mistake (or none) plays it.
#[derive(Clone, Debug)]
pub struct Mutant {
    mistake: Option<Mistake>,
    squares: [Option<Piece>; 90],
    side: Color,
    over: bool,
    /// The piece the last capture took (for a solution that never resets it).
    last_captured: Option<Piece>,
}

impl Mutant {
    /// A game from the start position that makes `mistake` (none: the rules exactly).
    pub fn new(mistake: Option<Mistake>) -> Mutant {
        use PieceKind::*;
        const BACK: [PieceKind; 9] = [
            Car, Horse, Elephant, Guard, Captain, Guard, Elephant, Horse, Car,
        ];
        let mut squares = [None; 90];
        for color in Color::ALL {
            let row = |r: i64| if color == Color::Red { r } else { 9 - r };
            let mut put = |x: i64, y: i64, kind| {
                squares[At { x, y }.index()] = Some(Piece::new(color, kind));
            };
            for (y, &kind) in BACK.iter().enumerate() {
                put(row(0), y as i64, kind);
            }
            put(row(2), 0, Duck);
            put(row(2), 8, Duck);
            for y in [0, 2, 4, 6, 8] {
                put(row(3), y, Soldier);
            }
        }
        let side = if mistake == Some(Mistake::BlueMovesFirst) {
            Color::Blue
        } else {
            Color::Red
        };
        Mutant {
            mistake,
            squares,
            side,
            over: false,
            last_captured: None,
        }
    }

    /// The mistake it makes.
    pub fn mistake(&self) -> Option<Mistake> {
        self.mistake
    }

    fn makes(&self, m: Mistake) -> bool {
        self.mistake == Some(m)
    }

    /// The piece on `s`; nothing stands off the board (where a misplaced blocking
    /// square may fall: the mistaken solution finds it empty).
    fn at(&self, s: At) -> Option<Piece> {
        if s.on_board() {
            self.squares[s.index()]
        } else {
            None
        }
    }

    fn empty(&self, s: At) -> bool {
        self.at(s).is_none()
    }

    /// The square `(x, y)` of a command, when the solution thinks it is on the board.
    fn square(&self, x: i64, y: i64) -> Option<At> {
        let (rows, cols) = if self.makes(Mistake::NineRows) {
            (9, 10)
        } else {
            (10, 9)
        };
        // Whatever the bounds it believes in, the array holds only the real board.
        let s = At { x, y };
        ((0..rows).contains(&x) && (0..cols).contains(&y) && s.on_board()).then_some(s)
    }

    /// Plays one command and returns what the solution answers.
    pub fn play(&mut self, [xs, ys, xt, yt]: Cmd) -> Answer {
        match self.try_move(xs, ys, xt, yt) {
            Some(moved) => Some(self.written(moved)),
            None => {
                if self.makes(Mistake::TurnPassesAfterInvalid) {
                    self.side = self.side.opponent();
                }
                None
            }
        }
    }

    /// The answers as the solution writes them.
    fn written(&mut self, mut m: Moved) -> Moved {
        let flip = |p: Piece| Piece::new(p.color.opponent(), p.kind);
        if m.captured.is_some() {
            self.last_captured = m.captured;
        }
        match self.mistake {
            Some(Mistake::CapturedAlwaysNa) => m.captured = None,
            Some(Mistake::CapturedNotReset) => m.captured = self.last_captured,
            Some(Mistake::CapturedSideIsMovers) => {
                m.captured = m.captured.map(|c| Piece::new(m.piece.color, c.kind));
            }
            Some(Mistake::CapturedKindIsMovers) => {
                m.captured = m.captured.map(|c| Piece::new(c.color, m.piece.kind));
            }
            Some(Mistake::CheckAnswerSwapped) => m.check = !m.check,
            Some(Mistake::GameOverAnswerSwapped) => m.game_over = !m.game_over,
            Some(Mistake::SideNamesSwapped) => {
                m.piece = flip(m.piece);
                m.captured = m.captured.map(flip);
            }
            _ => {}
        }
        m
    }

    /// Judges and makes the move; `None` when the solution finds it invalid.
    fn try_move(&mut self, xs: i64, ys: i64, xt: i64, yt: i64) -> Option<Moved> {
        if self.over && !self.makes(Mistake::MovesAfterTheEnd) {
            return None;
        }
        let from = self.square(xs, ys)?;
        let piece = self.at(from)?;
        if piece.color != self.side && !self.makes(Mistake::OpponentPieceMoved) {
            return None;
        }
        let to = self.square(xt, yt)?;
        if let Some(target) = self.at(to) {
            if target.color == piece.color && !self.makes(Mistake::OwnPieceCaptured) {
                return None;
            }
        }
        if !self.reaches(piece, from, to, Use::Move) {
            return None;
        }
        let before = self.clone();
        let captured = self.at(to);
        self.squares[to.index()] = Some(piece);
        if !self.makes(Mistake::SourceNotCleared) {
            self.squares[from.index()] = None;
        }
        let refused = (self.makes(Mistake::CaptainsMayNotFace) && self.captains_face())
            || (self.makes(Mistake::MoveIntoAttackRefused) && self.captain_attacked(piece.color));
        if refused {
            *self = before;
            return None;
        }
        let ends = captured.is_some_and(|c| c.kind == PieceKind::Captain);
        if ends && !self.makes(Mistake::GameGoesOn) {
            self.over = true;
        }
        let check = if self.makes(Mistake::CheckBeforeTheMove) {
            before.check(piece, to)
        } else {
            self.check(piece, to)
        };
        let game_over = if self.makes(Mistake::GameOverBeforeTheMove) {
            before.over
        } else {
            self.over
        };
        self.side = self.side.opponent();
        Some(Moved {
            piece,
            captured,
            check,
            game_over,
        })
    }

    /// Where `color`'s captains stand (a solution that leaves copies behind may have
    /// several, or none once one is taken).
    fn captains(&self, color: Color) -> impl Iterator<Item = At> + '_ {
        (0..90).filter_map(move |i| {
            let p = self.squares[i]?;
            (p == Piece::new(color, PieceKind::Captain)).then_some(At {
                x: i as i64 / 9,
                y: i as i64 % 9,
            })
        })
    }

    fn has_captain(&self, color: Color) -> bool {
        self.captains(color).next().is_some()
    }

    /// Whether some captain of `color` is attacked by the other side.
    fn captain_attacked(&self, color: Color) -> bool {
        self.captains(color)
            .any(|c| self.attacked(c, color.opponent()))
    }

    /// Whether the position is check, after `mover` went to `to`.
    fn check(&self, mover: Piece, to: At) -> bool {
        let both = self.has_captain(Color::Red) && self.has_captain(Color::Blue);
        if !both {
            // Once a captain is gone there is no check; a solution that still looks
            // asks whether the remaining captain is attacked.
            return self.makes(Mistake::CheckAfterTheEnd)
                && Color::ALL
                    .iter()
                    .any(|&c| self.has_captain(c) && self.captain_attacked(c));
        }
        let us = mover.color;
        let them = us.opponent();
        match self.mistake {
            Some(Mistake::CheckOnlyBySideToMove) => self.captain_attacked(us),
            Some(Mistake::CheckOnlyByMover) => self.captain_attacked(them),
            Some(Mistake::CheckOnlyByMovedPiece) => self
                .captains(them)
                .any(|c| self.reaches(mover, to, c, Use::Check)),
            Some(Mistake::CaptainsFacingGiveCheck) if self.captains_face() => true,
            _ => self.captain_attacked(us) || self.captain_attacked(them),
        }
    }

    /// Whether some piece of `by` could move onto `target` (a captain's square).
    fn attacked(&self, target: At, by: Color) -> bool {
        if self.makes(Mistake::CheckWrapsAroundEdges) {
            return self.attacked_by_numbers(target, by);
        }
        (0..90).any(|i| {
            let from = At {
                x: i as i64 / 9,
                y: i as i64 % 9,
            };
            match self.squares[i] {
                Some(p) if p.color == by => {
                    !(p.kind == PieceKind::Captain && self.makes(Mistake::CheckForgetsCaptain))
                        && self.reaches(p, from, target, Use::Check)
                }
                _ => false,
            }
        })
    }

    /// Whether the two captains stand in one column with nothing between them.
    fn captains_face(&self) -> bool {
        let (Some(red), Some(blue)) = (
            self.captains(Color::Red).next(),
            self.captains(Color::Blue).next(),
        ) else {
            return false;
        };
        red.y == blue.y
            && (red.x.min(blue.x) + 1..red.x.max(blue.x)).all(|x| self.empty(At { x, y: red.y }))
    }

    /// Whether `piece` on `from` may go to `to` by its own rule (blocking squares
    /// included; who stands on `to` is the caller's business), as the solution thinks.
    fn reaches(&self, piece: Piece, from: At, to: At, why: Use) -> bool {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        let (ax, ay) = (dx.abs(), dy.abs());
        let (sx, sy) = (dx.signum(), dy.signum());
        let is = |m: Mistake| self.makes(m);
        let in_move = |m: Mistake| why == Use::Move && is(m);
        let in_check = |m: Mistake| why == Use::Check && is(m);
        // A shape mistake made when moves are judged, or when check is decided.
        let either = |when_moving: Mistake, when_checking: Mistake| {
            in_move(when_moving) || in_check(when_checking)
        };
        let free = |ox: i64, oy: i64| self.empty(from.plus(ox, oy));
        let palace = |c: Color| {
            let rows = if c == Color::Red { 0..=2 } else { 7..=9 };
            rows.contains(&to.x) && (3..=5).contains(&to.y)
        };
        match piece.kind {
            PieceKind::Captain => {
                let diagonal = either(
                    Mistake::MoveCaptainStepsDiagonally,
                    Mistake::CheckCaptainStepsDiagonally,
                );
                let step = ax + ay == 1 || (diagonal && ax == 1 && ay == 1);
                step && (!is(Mistake::CaptainKeptInPalace) || palace(piece.color))
            }
            PieceKind::Guard => {
                let straight = either(
                    Mistake::MoveGuardStepsStraight,
                    Mistake::CheckGuardStepsStraight,
                );
                let step = (ax == 1 && ay == 1) || (straight && ax + ay == 1);
                step && (!is(Mistake::GuardKeptInPalace) || palace(piece.color))
            }
            PieceKind::Elephant => {
                let own_half = match piece.color {
                    Color::Red => to.x <= 4,
                    Color::Blue => to.x >= 5,
                };
                let (ex, ey) = if either(
                    Mistake::MoveElephantEyeSwapped,
                    Mistake::CheckElephantEyeSwapped,
                ) {
                    (sy, sx)
                } else {
                    (sx, sy)
                };
                ax == 2
                    && ay == 2
                    && (in_move(Mistake::MoveIgnoresElephantEye)
                        || in_check(Mistake::CheckIgnoresElephantEye)
                        || free(ex, ey))
                    && (!is(Mistake::ElephantKeptOnItsSide) || own_half)
            }
            PieceKind::Horse => {
                let long_rows = ax == 2 && ay == 1;
                let long_cols = ax == 1
                    && ay == 2
                    && !either(
                        Mistake::MoveHorseMissesShortJumps,
                        Mistake::CheckHorseMissesShortJumps,
                    );
                if !long_rows && !long_cols {
                    return false;
                }
                if in_move(Mistake::MoveIgnoresHorseLeg) || in_check(Mistake::CheckIgnoresHorseLeg)
                {
                    return true;
                }
                let (lx, ly) = if in_check(Mistake::CheckHorseLegBesideCaptain) {
                    (sx, sy)
                } else if long_rows != in_move(Mistake::MoveHorseLegOnShortSide) {
                    (sx, 0)
                } else {
                    (0, sy)
                };
                free(lx, ly)
            }
            PieceKind::Car => {
                if (dx != 0 && dy != 0) || (dx == 0 && dy == 0) {
                    return false;
                }
                if in_move(Mistake::MoveCarJumps) || in_check(Mistake::CheckCarJumps) {
                    return true;
                }
                let n = ax.max(ay);
                let last = if is(Mistake::CarPathIncludesTarget) {
                    n
                } else if in_move(Mistake::MoveCarStopsOneShort)
                    || in_check(Mistake::CheckCarStopsOneShort)
                {
                    n - 2
                } else {
                    n - 1
                };
                (1..=last).all(|k| free(k * sx, k * sy))
            }
            PieceKind::Duck => {
                let long_rows = ax == 3 && ay == 2;
                let long_cols = ax == 2
                    && ay == 3
                    && !either(
                        Mistake::MoveDuckMissesShortJumps,
                        Mistake::CheckDuckMissesShortJumps,
                    );
                if !long_rows && !long_cols {
                    return false;
                }
                let (first, second) = if in_check(Mistake::CheckDuckLegsFromCaptain) {
                    ((2 * sx, 2 * sy), (sx, sy))
                } else if long_rows || in_move(Mistake::MoveDuckLegsNotSwapped) {
                    ((sx, 0), (2 * sx, sy))
                } else {
                    ((0, sy), (sx, 2 * sy))
                };
                let first_ok = in_move(Mistake::MoveIgnoresDuckFirstLeg)
                    || in_check(Mistake::CheckIgnoresDuckFirstLeg)
                    || free(first.0, first.1);
                let second_ok = in_move(Mistake::MoveIgnoresDuckSecondLeg)
                    || in_check(Mistake::CheckIgnoresDuckSecondLeg)
                    || free(second.0, second.1);
                first_ok && second_ok
            }
            PieceKind::Soldier => {
                let step = ax <= 1 && ay <= 1 && ax + ay > 0;
                let straight = !either(
                    Mistake::MoveSoldierNoDiagonals,
                    Mistake::CheckSoldierNoDiagonals,
                ) || ax + ay == 1;
                let forward = !either(
                    Mistake::MoveSoldierNeverBackwards,
                    Mistake::CheckSoldierNeverBackwards,
                ) || match piece.color {
                    Color::Red => dx >= 0,
                    Color::Blue => dx <= 0,
                };
                step && straight && forward
            }
        }
    }

    /// [`Mistake::CheckWrapsAroundEdges`]: attacks looked for from the captain outwards
    /// with the squares numbered `9x + y` and only that number bounds-checked, so a step
    /// off one side of the board lands on the other side, a row up or down.
    fn attacked_by_numbers(&self, target: At, by: Color) -> bool {
        let at = |n: i64| -> Option<Piece> {
            if (0..90).contains(&n) {
                self.squares[n as usize]
            } else {
                None
            }
        };
        let open = |n: i64| (0..90).contains(&n) && self.squares[n as usize].is_none();
        let t = target.x * 9 + target.y;
        let num = |dx: i64, dy: i64| dx * 9 + dy;
        let is = |n: i64, kind: PieceKind| at(n) == Some(Piece::new(by, kind));
        for sx in [1, -1] {
            for sy in [1, -1] {
                // Each leap seen from the attacker's side: the attacker stands at
                // t - delta; its blocking squares are counted from it.
                let from = |dx: i64, dy: i64| t - num(dx, dy);
                let leaps: [NumberedLeap<'_>; 8] = [
                    (PieceKind::Captain, (sx, 0), &[]),
                    (PieceKind::Captain, (0, sy), &[]),
                    (PieceKind::Guard, (sx, sy), &[]),
                    (PieceKind::Elephant, (2 * sx, 2 * sy), &[(sx, sy)]),
                    (PieceKind::Horse, (2 * sx, sy), &[(sx, 0)]),
                    (PieceKind::Horse, (sx, 2 * sy), &[(0, sy)]),
                    (PieceKind::Duck, (3 * sx, 2 * sy), &[(sx, 0), (2 * sx, sy)]),
                    (PieceKind::Duck, (2 * sx, 3 * sy), &[(0, sy), (sx, 2 * sy)]),
                ];
                for (kind, (dx, dy), blocks) in leaps {
                    let f = from(dx, dy);
                    if is(f, kind) && blocks.iter().all(|&(bx, by)| open(f + num(bx, by))) {
                        return true;
                    }
                }
                for (dx, dy) in [(sx, 0), (0, sy), (sx, sy)] {
                    if is(from(dx, dy), PieceKind::Soldier) {
                        return true;
                    }
                }
            }
        }
        // Cars: walk out from the captain along the numbers, to the first piece.
        for step in [1, -1, 9, -9] {
            let mut n = t + step;
            while open(n) {
                n += step;
            }
            if is(n, PieceKind::Car) {
                return true;
            }
        }
        false
    }
}

/// What the mutant of `mistake` answers to each of `cmds`.
pub fn answers(mistake: Option<Mistake>, cmds: &[Cmd]) -> Vec<Answer> {
    let mut game = Mutant::new(mistake);
    cmds.iter().map(|&c| game.play(c)).collect()
}

/// The first command (index from 0) whose answer from the mutant of `mistake` differs
/// from `expected` (the judge's answers to `cmds`), if any.
pub fn first_difference(mistake: Mistake, cmds: &[Cmd], expected: &[Answer]) -> Option<usize> {
    let mut game = Mutant::new(Some(mistake));
    cmds.iter()
        .zip(expected)
        .position(|(&c, e)| game.play(c) != *e)
}

/// The judge's answers to `cmds`.
pub fn judge_answers(cmds: &[Cmd]) -> Vec<Answer> {
    let mut game = crate::judge::game::Game::new();
    cmds.iter()
        .map(|c| game.play(c[0], c[1], c[2], c[3]).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::recipe::{self, Recipe};
    use crate::sys::rng::Rng;

    #[test]
    fn without_a_mistake_it_answers_as_the_judge_on_generated_games() {
        let mut commands = 0;
        for index in 0..1500 {
            let recipe = Recipe {
                seed: 17,
                mode: None,
                max_q: 1000,
                messy: index % 5 == 0,
            };
            let (case, mode) = recipe::case(&recipe, index * 7);
            let cmds = case.cmds();
            commands += cmds.len();
            let expected = judge_answers(&cmds);
            let got = answers(None, &cmds);
            if let Some(i) = (0..cmds.len()).find(|&i| got[i] != expected[i]) {
                panic!(
                    "case {index} ({mode}), command {}: {:?} answered {:?}, the judge {:?}",
                    i + 1,
                    cmds[i],
                    got[i],
                    expected[i]
                );
            }
        }
        assert!(commands > 200_000, "{commands} commands");
    }

    #[test]
    fn random_legal_walks_agree_to_the_end() {
        // Games of legal moves only, captain captures included, then a few more commands.
        let mut rng = Rng::new(5);
        for _ in 0..400 {
            let mut game = crate::judge::game::Game::new();
            let mut cmds = Vec::new();
            for _ in 0..300 {
                let moves = crate::judge::rules::legal_moves(game.board());
                let c = match rng.pick(&moves) {
                    Some(m) => [
                        m.from.x() as i64,
                        m.from.y() as i64,
                        m.to.x() as i64,
                        m.to.y() as i64,
                    ],
                    None => [
                        rng.below(10) as i64,
                        rng.below(9) as i64,
                        rng.below(10) as i64,
                        rng.below(9) as i64,
                    ],
                };
                let _ = game.play(c[0], c[1], c[2], c[3]);
                cmds.push(c);
            }
            assert_eq!(answers(None, &cmds), judge_answers(&cmds));
        }
    }
}
