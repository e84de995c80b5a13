//! Whether a piece may go somewhere by its own rule, as the solution with the mistake
//! thinks: the shape of its move, its blocking squares, a car's path, and the slip in
//! one row of the move table.

use super::{At, Mutant};
use crate::catalogue::handwritten::Written;
use crate::catalogue::slips::{CarSlip, Use, What};
use crate::judge::piece::{Color, Piece, PieceKind};

/// Whether a piece may go somewhere by its own rule, as the solution thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Path {
    /// Not that way at all.
    No,
    /// That way, but something stands in the way.
    Blocked,
    /// Yes.
    Yes,
}

impl Path {
    pub(super) fn when_free(free: bool) -> Path {
        if free {
            Path::Yes
        } else {
            Path::Blocked
        }
    }
}

impl Mutant {
    /// The slip this mutant makes on `piece`'s row `dir` in use `why`, if any.
    pub(super) fn slip_on(&self, piece: Piece, dir: (i64, i64), why: Use) -> Option<What> {
        let s = self.slip?;
        let here = s.at == why
            && s.kind == piece.kind
            && s.for_color(piece.color)
            && (s.dir.0 as i64, s.dir.1 as i64) == dir;
        here.then_some(s.what)
    }

    /// Whether a leaping `piece` on `from` with these blocking squares (relative to it)
    /// may go to its target by its row `dir`, with this mutant's slip on the row, if any.
    pub(super) fn leap(
        &self,
        piece: Piece,
        from: At,
        dir: (i64, i64),
        blocks: &mut Vec<(i64, i64)>,
        why: Use,
    ) -> Path {
        let wide = |o: (i8, i8)| (o.0 as i64, o.1 as i64);
        match self.slip_on(piece, dir, why) {
            Some(What::Dropped) => return Path::No,
            Some(What::Forgotten(b)) => blocks.retain(|&s| s != wide(b)),
            Some(What::GuardOf(other)) => {
                // Its test for this row is the one for the square `captain - other`.
                let captain = from.plus(dir.0, dir.1);
                let (ox, oy) = wide(other);
                if !captain.plus(-ox, -oy).on_board() {
                    return Path::No;
                }
            }
            Some(What::Moved { block, to, .. }) => {
                for s in blocks.iter_mut() {
                    if *s == wide(block) {
                        *s = wide(to);
                    }
                }
            }
            _ => {}
        }
        Path::when_free(blocks.iter().all(|&(ox, oy)| self.empty(from.plus(ox, oy))))
    }

    /// Whether `piece` on `from` may go to `to` by its own rule (blocking squares
    /// included; who stands on `to` is the caller's business), as the solution thinks.
    pub(super) fn path(&self, piece: Piece, from: At, to: At, why: Use) -> Path {
        let d = (to.x - from.x, to.y - from.y);
        let asked = Asked { mutant: self, why };
        let blocks = match piece.kind {
            PieceKind::Car => return self.car(piece, from, to, why),
            PieceKind::Captain | PieceKind::Guard => asked.step(piece, to, d),
            PieceKind::Elephant => asked.elephant(piece, to, d),
            PieceKind::Horse => asked.horse(d),
            PieceKind::Duck => asked.duck(d),
            PieceKind::Soldier => asked.soldier(piece, d),
        };
        match blocks {
            Some(mut blocks) => self.leap(piece, from, d, &mut blocks, why),
            None => Path::No,
        }
    }

    /// The car's path from `from` to `to`, as the solution walks it.
    pub(super) fn car(&self, piece: Piece, from: At, to: At, why: Use) -> Path {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if (dx != 0 && dy != 0) || (dx == 0 && dy == 0) {
            return Path::No;
        }
        let (sx, sy) = (dx.signum(), dy.signum());
        let is = |m: Written| self.makes(m);
        let in_move = |m: Written| why == Use::Move && is(m);
        let in_check = |m: Written| why == Use::Check && is(m);
        if in_move(Written::MoveCarJumps) || in_check(Written::CheckCarJumps) {
            return Path::Yes;
        }
        if in_check(Written::CheckCarScanEndsAtFirstPiece) {
            return self.car_scan_ending_at_first_piece(from, to);
        }
        let n = dx.abs().max(dy.abs());
        let mut first = 1;
        let mut last = if is(Written::CarPathIncludesTarget) {
            n
        } else if in_move(Written::MoveCarStopsOneShort) || in_check(Written::CheckCarStopsOneShort)
        {
            n - 2
        } else {
            n - 1
        };
        match self.slip_on(piece, (sx, sy), why) {
            Some(What::Dropped) => return Path::No,
            Some(What::Car(CarSlip::Jumps)) => return Path::Yes,
            Some(What::Car(CarSlip::SkipsFirst)) => first = 2,
            Some(What::Car(CarSlip::SkipsLast)) => last = n - 2,
            Some(What::Car(CarSlip::TargetInPath)) => last = n,
            Some(What::Car(CarSlip::EdgeOff)) => {
                // Its loop stops before the edge it heads for.
                let edge = to.plus(sx, sy);
                if !edge.on_board() {
                    return Path::No;
                }
            }
            _ => {}
        }
        Path::when_free((first..=last).all(|k| self.empty(from.plus(k * sx, k * sy))))
    }

    /// [`Written::CheckCarScanEndsAtFirstPiece`]: the car's four rays walked in order,
    /// up, down, right, left, the whole walk ended at the first piece found; check when
    /// that piece stands on `to` (the captain's square).
    fn car_scan_ending_at_first_piece(&self, from: At, to: At) -> Path {
        for (sx, sy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let mut at = from.plus(sx, sy);
            while at.on_board() && self.empty(at) {
                at = at.plus(sx, sy);
            }
            if at.on_board() {
                return if at == to { Path::Yes } else { Path::No };
            }
        }
        Path::No
    }
}

/// The shape of a leap as a solution with a mistake (or none) sees it, in one use of
/// the table: for a move `d` of the piece, `None` when the piece does not go that way,
/// else the blocking squares that must be empty (relative to the piece).
struct Asked<'m> {
    mutant: &'m Mutant,
    why: Use,
}

impl Asked<'_> {
    fn is(&self, m: Written) -> bool {
        self.mutant.makes(m)
    }

    fn in_move(&self, m: Written) -> bool {
        self.why == Use::Move && self.is(m)
    }

    fn in_check(&self, m: Written) -> bool {
        self.why == Use::Check && self.is(m)
    }

    /// A shape mistake made when moves are judged, or when check is decided.
    fn either(&self, when_moving: Written, when_checking: Written) -> bool {
        self.in_move(when_moving) || self.in_check(when_checking)
    }

    /// The captain's and the guard's one step (no blocking square).
    fn step(&self, piece: Piece, to: At, (dx, dy): (i64, i64)) -> Option<Vec<(i64, i64)>> {
        let (ax, ay) = (dx.abs(), dy.abs());
        let palace = |c: Color| {
            let rows = if c == Color::Red { 0..=2 } else { 7..=9 };
            rows.contains(&to.x) && (3..=5).contains(&to.y)
        };
        let (step, kept) = if piece.kind == PieceKind::Captain {
            let diagonal = self.either(
                Written::MoveCaptainStepsDiagonally,
                Written::CheckCaptainStepsDiagonally,
            );
            (
                ax + ay == 1 || (diagonal && ax == 1 && ay == 1),
                self.is(Written::CaptainKeptInPalace),
            )
        } else {
            let straight = self.either(
                Written::MoveGuardStepsStraight,
                Written::CheckGuardStepsStraight,
            );
            (
                (ax == 1 && ay == 1) || (straight && ax + ay == 1),
                self.is(Written::GuardKeptInPalace),
            )
        };
        (step && (!kept || palace(piece.color))).then(Vec::new)
    }

    /// The elephant's two diagonal steps, and its eye.
    fn elephant(&self, piece: Piece, to: At, (dx, dy): (i64, i64)) -> Option<Vec<(i64, i64)>> {
        let (sx, sy) = (dx.signum(), dy.signum());
        let own_half = match piece.color {
            Color::Red => to.x <= 4,
            Color::Blue => to.x >= 5,
        };
        let kept = self.is(Written::ElephantKeptOnItsSide);
        if !(dx.abs() == 2 && dy.abs() == 2 && (!kept || own_half)) {
            return None;
        }
        let swapped = self.either(
            Written::MoveElephantEyeSwapped,
            Written::CheckElephantEyeSwapped,
        );
        let eye = if swapped { (sy, sx) } else { (sx, sy) };
        let ignored = self.in_move(Written::MoveIgnoresElephantEye)
            || self.in_check(Written::CheckIgnoresElephantEye);
        Some(if ignored { Vec::new() } else { vec![eye] })
    }

    /// The horse's jumps, and its leg.
    fn horse(&self, (dx, dy): (i64, i64)) -> Option<Vec<(i64, i64)>> {
        let (ax, ay) = (dx.abs(), dy.abs());
        let (sx, sy) = (dx.signum(), dy.signum());
        let long_rows = ax == 2 && ay == 1;
        let long_cols = ax == 1
            && ay == 2
            && !self.either(
                Written::MoveHorseMissesShortJumps,
                Written::CheckHorseMissesShortJumps,
            );
        if !long_rows && !long_cols {
            return None;
        }
        let ignored = self.in_move(Written::MoveIgnoresHorseLeg)
            || self.in_check(Written::CheckIgnoresHorseLeg);
        if ignored {
            return Some(Vec::new());
        }
        let leg = if self.in_check(Written::CheckHorseLegBesideCaptain) {
            (sx, sy)
        } else if long_rows != self.in_move(Written::MoveHorseLegOnShortSide) {
            (sx, 0)
        } else {
            (0, sy)
        };
        Some(vec![leg])
    }

    /// The duck's jumps, and its two legs.
    fn duck(&self, (dx, dy): (i64, i64)) -> Option<Vec<(i64, i64)>> {
        let (ax, ay) = (dx.abs(), dy.abs());
        let (sx, sy) = (dx.signum(), dy.signum());
        let long_rows = ax == 3 && ay == 2;
        let long_cols = ax == 2
            && ay == 3
            && !self.either(
                Written::MoveDuckMissesShortJumps,
                Written::CheckDuckMissesShortJumps,
            );
        if !long_rows && !long_cols {
            return None;
        }
        let (first, second) = if self.in_check(Written::CheckDuckLegsFromCaptain) {
            ((2 * sx, 2 * sy), (sx, sy))
        } else if long_rows || self.in_move(Written::MoveDuckLegsNotSwapped) {
            ((sx, 0), (2 * sx, sy))
        } else {
            ((0, sy), (sx, 2 * sy))
        };
        let mut blocks = Vec::with_capacity(2);
        if !(self.in_move(Written::MoveIgnoresDuckFirstLeg)
            || self.in_check(Written::CheckIgnoresDuckFirstLeg))
        {
            blocks.push(first);
        }
        if !(self.in_move(Written::MoveIgnoresDuckSecondLeg)
            || self.in_check(Written::CheckIgnoresDuckSecondLeg))
        {
            blocks.push(second);
        }
        Some(blocks)
    }

    /// The soldier's step to its eight neighbours (no blocking square).
    fn soldier(&self, piece: Piece, (dx, dy): (i64, i64)) -> Option<Vec<(i64, i64)>> {
        let (ax, ay) = (dx.abs(), dy.abs());
        let step = ax <= 1 && ay <= 1 && ax + ay > 0;
        let straight = !self.either(
            Written::MoveSoldierNoDiagonals,
            Written::CheckSoldierNoDiagonals,
        ) || ax + ay == 1;
        let forward = !self.either(
            Written::MoveSoldierNeverBackwards,
            Written::CheckSoldierNeverBackwards,
        ) || match piece.color {
            Color::Red => dx >= 0,
            Color::Blue => dx <= 0,
        };
        (step && straight && forward).then(Vec::new)
    }
}
