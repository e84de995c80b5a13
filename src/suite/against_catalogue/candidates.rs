//! The continuations the search tries at each step: every legal move, the invalid
//! commands a careless solution might take for moves, missions aimed at cells random
//! play rarely reaches, and short games played on by `stress`'s steering writers; each
//! cut to what the phase of the file allows.

use super::super::missions;
use super::{Allowed, Search, AFTER_END_TRIED, INVALID_EACH, PLAYOUT, PLAYOUTS};
use crate::generate::case::{cmd_of, Cmd};
use crate::generate::games::Writer;
use crate::generate::mode::Mode;
use crate::generate::position::rule_targets;
use crate::judge::game::{Game, Invalid};
use crate::judge::piece::{PieceKind, Square};
use crate::judge::rules;
use crate::sys::rng::Rng;

impl Allowed {
    /// Whether `c` may be played in `game`: a capture of a captain only when the end is
    /// allowed, other captures only above the floor.
    pub(super) fn may(&self, game: &Game, c: Cmd) -> bool {
        let board = game.board();
        let target = Square::new(c[2], c[3]).and_then(|t| board.piece_at(t));
        match target {
            Some(p) if game.validate(c[0], c[1], c[2], c[3]).is_ok() => {
                if p.kind == PieceKind::Captain {
                    self.end
                } else {
                    board.pieces().count() > self.floor
                }
            }
            _ => true,
        }
    }
}

impl Search<'_> {
    /// `cont` cut to what is allowed: invalid commands dropped (they change nothing, so
    /// the rest stays legal) unless allowed; cut before the move that ends the game
    /// unless allowed, else a few commands after it.
    pub(super) fn allowed(&self, cont: &[Cmd], allowed: Allowed) -> Vec<Cmd> {
        let mut game = self.game().clone();
        let mut out = Vec::new();
        let mut after_end = 0;
        for &c in cont {
            if game.board().is_over() {
                after_end += 1;
                if after_end > AFTER_END_TRIED {
                    break;
                }
                out.push(c);
                continue;
            }
            if !allowed.may(&game, c) {
                break;
            }
            let legal = game.play(c[0], c[1], c[2], c[3]).is_ok();
            if legal || allowed.invalid {
                out.push(c);
            }
        }
        out
    }

    /// `plies` commands of a steering writer in `mode` that plays on from here.
    pub(super) fn written(&mut self, mode: Mode, plies: u64) -> Vec<Cmd> {
        let mut rng = Rng::new(self.rng.next_u64());
        Writer::continuing(&mut rng, self.game().clone())
            .play(mode, plies)
            .cmds()
    }

    /// A game played on from here by a steering writer in `mode`, cut to what is allowed.
    pub(super) fn playout(&mut self, mode: Mode, plies: u64, allowed: Allowed) -> Vec<Cmd> {
        let cont = self.written(mode, plies);
        self.allowed(&cont, allowed)
    }

    /// Up to `n` of `items`, drawn without replacement.
    pub(super) fn some(&mut self, mut items: Vec<Cmd>, n: usize) -> Vec<Cmd> {
        let mut out = Vec::new();
        while out.len() < n && !items.is_empty() {
            out.push(items.swap_remove(self.rng.index(items.len())));
        }
        out
    }

    /// Invalid commands a careless solution might take for moves: every move its rule
    /// allows but a piece in the way forbids; and a few of each other kind: onto the
    /// mover's own piece, with the opponent's piece by its rule, of a shape the piece
    /// does not have, from a square the last moves left or from any empty square.
    pub(super) fn invalid_singles(&mut self) -> Vec<Vec<Cmd>> {
        let game = self.game().clone();
        let board = game.board();
        let side = board.side_to_move();
        let (mut blocked, mut own, mut theirs, mut shape, mut empty) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (from, p) in board.pieces() {
            if p.color != side {
                theirs.extend(
                    rule_targets(board, from)
                        .into_iter()
                        .map(|to| cmd_of(from, to)),
                );
                continue;
            }
            for to in Square::all() {
                let (dx, dy) = to.delta_from(from);
                if !(dx.abs() <= 3 && dy.abs() <= 3 || dx == 0 || dy == 0) {
                    continue;
                }
                let c = cmd_of(from, to);
                match game.validate(c[0], c[1], c[2], c[3]) {
                    Err(Invalid::Blocked(..)) => blocked.push(c),
                    Err(Invalid::OwnPiece(_)) => own.push(c),
                    Err(Invalid::NotThatWay(_)) => shape.push(c),
                    _ => {}
                }
            }
        }
        for &from in self.left.iter().filter(|&&s| board.is_empty(s)) {
            for to in Square::all() {
                let (dx, dy) = to.delta_from(from);
                if dx.abs() <= 3 && dy.abs() <= 3 && to != from {
                    empty.push(cmd_of(from, to));
                }
            }
        }
        let mut out = blocked;
        for group in [own, theirs, shape, empty] {
            let picked = self.some(group, INVALID_EACH);
            out.extend(picked);
        }
        out.into_iter().map(|c| vec![c]).collect()
    }

    /// The candidates of one step.
    pub(super) fn candidates(&mut self, allowed: Allowed, modes: &[Mode]) -> Vec<Vec<Cmd>> {
        let game = self.game().clone();
        let mut out: Vec<Vec<Cmd>> = rules::legal_moves(game.board())
            .into_iter()
            .map(|m| cmd_of(m.from, m.to))
            .filter(|&c| allowed.may(&game, c))
            .map(|c| vec![c])
            .collect();
        if allowed.invalid {
            out.extend(self.invalid_singles());
        }
        let mut rng = Rng::new(self.rng.next_u64());
        let missions = missions::missions(&game, |cell| self.cell_gain(cell, 0), &mut rng);
        out.extend(missions.into_iter().map(|m| self.allowed(&m, allowed)));
        for &mode in modes {
            for _ in 0..PLAYOUTS {
                let p = self.playout(mode, PLAYOUT, allowed);
                if !p.is_empty() {
                    out.push(p);
                }
            }
        }
        out
    }
}
