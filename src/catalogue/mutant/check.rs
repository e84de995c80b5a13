//! Check as the solution with the mistake decides it: who is attacked, by whom, after
//! the end too, and the look for attacks that counts squares as `9x + y`.

use super::reach::Path;
use super::{At, Mutant};
use crate::catalogue::handwritten::Written;
use crate::catalogue::slips::Use;
use crate::catalogue::solution_shapes::{InstanceSlip, Shaped};
use crate::catalogue::variants::Variant;
use crate::judge::piece::{Color, Piece, PieceKind};

/// A leap as [`Written::CheckWrapsAroundEdges`] looks for it: the kind that makes it,
/// its `(dx, dy)`, and its blocking squares relative to the attacker.
type NumberedLeap<'a> = (PieceKind, (i64, i64), &'a [(i64, i64)]);

impl Mutant {
    /// Whether some captain of `color` is attacked by the other side.
    pub(super) fn captain_attacked(&self, color: Color) -> bool {
        self.captains(color)
            .filter(|&c| !self.instance(c, InstanceSlip::NoCheck))
            .any(|c| self.attacked(c, color.opponent()))
    }

    /// Whether the position is check, after `mover` went to `to`.
    pub(super) fn check(&self, mover: Piece, to: At) -> bool {
        let both = self.has_captain(Color::Red) && self.has_captain(Color::Blue);
        if !both {
            // Once a captain is gone there is no check; a solution that still looks
            // asks whether the remaining captain is attacked, and perhaps more.
            let still = |c: Color| self.has_captain(c) && self.captain_attacked(c);
            let winner_attacked = || Color::ALL.iter().any(|&c| still(c));
            let winner = mover.color;
            return match (self.written, self.variant) {
                (Some(Written::CheckAfterTheEnd), _) => winner_attacked(),
                (_, Some(Variant::CheckAtEndOnTakenSquare)) => {
                    winner_attacked() || self.attacked(to, winner)
                }
                (_, Some(Variant::CheckAtEndOnTaker)) => {
                    winner_attacked() || self.attacked(to, winner.opponent())
                }
                (_, Some(Variant::CheckAtEndAtCorner)) => {
                    winner_attacked() || self.attacked(At { x: 0, y: 0 }, winner)
                }
                (_, Some(Variant::CheckAtEndWhenWins(c))) => winner == c && winner_attacked(),
                _ => false,
            };
        }
        let us = mover.color;
        let them = us.opponent();
        match self.written {
            Some(Written::CheckOnlyBySideToMove) => self.captain_attacked(us),
            Some(Written::CheckOnlyByMover) => self.captain_attacked(them),
            Some(Written::CheckOnlyByMovedPiece) => self
                .captains(them)
                .any(|c| self.path(mover, to, c, Use::Check) == Path::Yes),
            Some(Written::CaptainsFacingGiveCheck) if self.captains_face() => true,
            _ => self.captain_attacked(us) || self.captain_attacked(them),
        }
    }

    /// Whether some piece of `by` could move onto `target` (a captain's square).
    pub(super) fn attacked(&self, target: At, by: Color) -> bool {
        if self.makes(Written::CheckWrapsAroundEdges) {
            return self.attacked_by_numbers(target, by);
        }
        let left_out = |from: At, p: Piece| {
            (p.kind == PieceKind::Captain && self.makes(Written::CheckForgetsCaptain))
                || (p.kind != PieceKind::Captain && self.instance(from, InstanceSlip::NoCheck))
        };
        let by_own = self.pieces(by).chain(self.ghost_of(by)).any(|(from, p)| {
            !left_out(from, p) && self.path(p, from, target, Use::Check) == Path::Yes
        });
        // A side's loop over its attackers that runs into the other side's range.
        let by_other = || match self.shaped {
            Some(Shaped::OtherSidesAttacker(id)) => self.pieces(by.opponent()).any(|(from, p)| {
                self.ids[from.index()] == id && self.path(p, from, target, Use::Check) == Path::Yes
            }),
            _ => false,
        };
        by_own || by_other()
    }

    /// Whether the two captains stand in one column with nothing between them.
    pub(super) fn captains_face(&self) -> bool {
        let (Some(red), Some(blue)) = (
            self.captains(Color::Red).next(),
            self.captains(Color::Blue).next(),
        ) else {
            return false;
        };
        red.y == blue.y
            && (red.x.min(blue.x) + 1..red.x.max(blue.x)).all(|x| self.empty(At { x, y: red.y }))
    }

    /// [`Written::CheckWrapsAroundEdges`]: attacks looked for from the captain outwards
    /// with the squares numbered `9x + y` and only that number bounds-checked, so a step
    /// off one side of the board lands on the other side, a row up or down.
    pub(super) fn attacked_by_numbers(&self, target: At, by: Color) -> bool {
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
