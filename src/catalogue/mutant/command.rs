//! One command judged and made as the solution with the mistake does it, in the order
//! its branches test it, and the four answers as it writes them.

use super::reach::Path;
use super::{At, Mutant};
use crate::catalogue::handwritten::Written;
use crate::catalogue::slips::Use;
use crate::catalogue::solution_shapes::{self, InstanceSlip, Shaped};
use crate::catalogue::variants::{next_kind, Refusal, Variant};
use crate::judge::game::Moved;
use crate::judge::piece::{Piece, PieceKind};

impl Mutant {
    /// The answers as the solution writes them, after the move from `from`.
    pub(super) fn written(&mut self, mut m: Moved, from: At) -> Moved {
        let flip = |p: Piece| Piece::new(p.color.opponent(), p.kind);
        if m.captured.is_some() {
            self.last_captured = m.captured;
        }
        let (mover, taken) = self.moved_ids;
        let recorded = self.recorded.take();
        match self.shaped {
            Some(Shaped::Instance(id, InstanceSlip::KindName)) => {
                let rename = |p: Piece| Piece::new(p.color, solution_shapes::misnamed(p.kind));
                if mover == id {
                    m.piece = rename(m.piece);
                }
                if taken == id {
                    m.captured = m.captured.map(rename);
                }
            }
            Some(Shaped::Instance(id, InstanceSlip::SideName)) => {
                if mover == id {
                    m.piece = flip(m.piece);
                }
                if taken == id {
                    m.captured = m.captured.map(flip);
                }
            }
            Some(Shaped::CapturedNaFor(c, k))
                if m.piece.color == c && m.captured.is_some_and(|p| p.kind == k) =>
            {
                m.captured = None;
            }
            Some(Shaped::CaptureRecordedWhenRefused) if m.captured.is_none() => {
                m.captured = recorded;
            }
            _ => {}
        }
        match self.written {
            Some(Written::CapturedAlwaysNa) => m.captured = None,
            Some(Written::CapturedNotReset) => m.captured = self.last_captured,
            Some(Written::CapturedSideIsMovers) => {
                m.captured = m.captured.map(|c| Piece::new(m.piece.color, c.kind));
            }
            Some(Written::CapturedKindIsMovers) => {
                m.captured = m.captured.map(|c| Piece::new(c.color, m.piece.kind));
            }
            Some(Written::CheckAnswerSwapped) => m.check = !m.check,
            Some(Written::GameOverAnswerSwapped) => m.game_over = !m.game_over,
            Some(Written::SideNamesSwapped) => {
                m.piece = flip(m.piece);
                m.captured = m.captured.map(flip);
            }
            _ => {}
        }
        let swap = |k: PieceKind, p: Piece| match next_kind(k) {
            Some(n) if p.kind == k => Piece::new(p.color, n),
            Some(n) if p.kind == n => Piece::new(p.color, k),
            _ => p,
        };
        match self.variant {
            Some(Variant::CapturedIsMover) => m.captured = m.captured.map(|_| m.piece),
            Some(Variant::CapturedFromSource) => {
                m.captured = m.captured.and_then(|_| self.at(from));
            }
            Some(Variant::CapturedSideToMove) => {
                let side = self.side;
                m.captured = m.captured.map(|c| Piece::new(side, c.kind));
            }
            Some(Variant::CapturedNamed(c)) => {
                m.captured = m.captured.map(|p| Piece::new(c, p.kind));
            }
            Some(Variant::CapturedNaWhen(c)) if m.piece.color == c => m.captured = None,
            Some(Variant::SideNamesAll(c)) => {
                m.piece = Piece::new(c, m.piece.kind);
                m.captured = m.captured.map(|p| Piece::new(c, p.kind));
            }
            Some(Variant::KindNamesSwapped(k)) => {
                m.piece = swap(k, m.piece);
                m.captured = m.captured.map(|p| swap(k, p));
            }
            _ => {}
        }
        m
    }

    /// Judges and makes the move; the answers and the source square, or why the
    /// solution finds it invalid.
    pub(super) fn try_move(
        &mut self,
        xs: i64,
        ys: i64,
        xt: i64,
        yt: i64,
    ) -> Result<(Moved, At), Refusal> {
        self.pending = None;
        // What stands on the source and the target, for a branch that depends on them.
        let aimed = || {
            let piece = self.square(xs, ys).and_then(|s| self.at(s));
            let target = self.square(xt, yt).and_then(|t| self.at(t));
            (piece, target)
        };
        if self.over && !self.makes(Written::MovesAfterTheEnd) {
            let skips = match aimed() {
                (Some(p), target) => self.order_skips(Refusal::Over, p, target),
                _ => false,
            };
            if !skips {
                return Err(Refusal::Over);
            }
        }
        let from = self.square(xs, ys).ok_or(Refusal::OffBoard)?;
        let piece = self.at(from).ok_or(Refusal::NoPiece)?;
        if self.instance(from, InstanceSlip::Frozen) {
            return Err(Refusal::NoPiece);
        }
        if piece.color != self.side
            && !self.makes(Written::OpponentPieceMoved)
            && !self.varies(Variant::OpponentPieceMovedBy(self.side))
            && !self.order_skips(Refusal::OpponentPiece, piece, aimed().1)
        {
            return Err(Refusal::OpponentPiece);
        }
        let to = self.square(xt, yt).ok_or(Refusal::OffBoard)?;
        let path = self.path(piece, from, to, Use::Move);
        if let Some(target) = self.at(to) {
            let own = target.color == piece.color
                && !self.makes(Written::OwnPieceCaptured)
                && !self.varies(Variant::OwnPieceCapturedBy(piece.kind));
            let untaken = self.instance(to, InstanceSlip::Uncapturable);
            if own || untaken || self.varies(Variant::CapturesRefusedBy(piece.kind)) {
                if path == Path::Yes {
                    self.pending = Some((from, to));
                }
                return Err(Refusal::OwnPiece);
            }
        }
        let target = self.at(to);
        let enemy = target.filter(|t| t.color != piece.color);
        match path {
            Path::No if !self.order_skips(Refusal::Shape, piece, target) => {
                if self.shapes(Shaped::CaptureRecordedWhenRefused) && enemy.is_some() {
                    self.recorded = enemy;
                }
                return Err(Refusal::Shape);
            }
            Path::Blocked if !self.order_skips(Refusal::Blocked, piece, target) => {
                if self.shapes(Shaped::CaptureRecordedWhenRefused) && enemy.is_some() {
                    self.recorded = enemy;
                }
                self.pending = Some((from, to));
                return Err(Refusal::Blocked);
            }
            _ => {}
        }
        let before = self.clone();
        let captured = self.at(to);
        self.moved_ids = (self.ids[from.index()], self.ids[to.index()]);
        self.displace(from, to);
        let refused = (self.makes(Written::CaptainsMayNotFace) && self.captains_face())
            || (self.makes(Written::MoveIntoAttackRefused) && self.captain_attacked(piece.color));
        if refused {
            *self = before;
            return Err(Refusal::Forbidden);
        }
        if let Some(c) = captured {
            // A piece left alive in the table when taken stays where it was taken.
            if self.shapes(Shaped::Instance(
                self.moved_ids.1,
                InstanceSlip::KeptWhenTaken,
            )) {
                self.ghost = Some((to, c));
            }
        }
        let kept = |c: Piece| self.ghost == Some((to, c)) && c.kind == PieceKind::Captain;
        let ends = captured.is_some_and(|c| c.kind == PieceKind::Captain && !kept(c));
        let goes_on = self.makes(Written::GameGoesOn)
            || self.varies(Variant::GameGoesOnWhenWins(piece.color));
        if ends && !goes_on {
            self.over = true;
        }
        let check = if self.makes(Written::CheckBeforeTheMove) {
            before.check(piece, to)
        } else {
            self.check(piece, to)
        };
        let game_over = if self.makes(Written::GameOverBeforeTheMove) {
            before.over
        } else {
            self.over
        };
        if !self.shapes(Shaped::TurnKeptAfter(piece.color, piece.kind)) {
            self.side = self.side.opponent();
        }
        Ok((
            Moved {
                piece,
                captured,
                check,
                game_over,
            },
            from,
        ))
    }
}
