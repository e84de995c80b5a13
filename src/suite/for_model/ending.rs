//! The end of a file for the model: the chosen kind of the chosen side takes the other
//! captain, after a loser's piece is walked next to the winner's captain while a cell
//! after the end is wanted, and a winner's piece to where it attacks (0, 0) while the
//! map's cell of it is; then commands after the end.

use super::super::kept_after_capture::route;
use super::{map_wanted, wanted, with, Search, AFTER_END, END_BUDGET};
use crate::generate::case::{cmd_of, Cmd};
use crate::judge::board::Board;
use crate::judge::piece::{Color, Piece, PieceKind, Square};
use crate::judge::rules;
use crate::model::statement::{self as model, Cell};
use crate::model::table;

/// Moves of a loser's piece routed next to the winner's captain before the end, at most.
const NEIGHBOUR: usize = 4;

impl Search<'_> {
    /// The ender's piece walks to where it takes the other captain, and takes it; the
    /// other side answers with quiet moves (its captain steps aside when no square the
    /// ender can reach attacks it).
    pub(super) fn end(&mut self) {
        let (side, kind) = self.ender;
        let mut stuck = false;
        let budget = self.cmds.len() + END_BUDGET;
        while !self.board().is_over() && self.cmds.len() < budget.min(self.room) {
            let board = self.board().clone();
            let to_move = board.side_to_move();
            let Some(their) = board.captain(side.opponent()) else {
                break;
            };
            if to_move != side {
                let c = if stuck {
                    // The captain steps, taking nothing.
                    let steps: Vec<Cmd> = rules::legal_moves(&board)
                        .into_iter()
                        .filter(|m| m.from == their && board.is_empty(m.to))
                        .map(|m| cmd_of(m.from, m.to))
                        .collect();
                    self.rng.pick(&steps)
                } else {
                    None
                };
                let c = c.or_else(|| self.neighbour(&board, side));
                let c = c.or_else(|| self.in_reach(&board, side));
                let c = c.or_else(|| self.quiet(&board, &[]));
                let c = c.or_else(|| {
                    let all: Vec<Cmd> = rules::legal_moves(&board)
                        .into_iter()
                        .filter(|m| {
                            board.piece_at(m.to).map(|p| p.kind) != Some(PieceKind::Captain)
                        })
                        .map(|m| cmd_of(m.from, m.to))
                        .collect();
                    self.rng.pick(&all)
                });
                match c {
                    Some(c) => self.push(&[c]),
                    None => break,
                }
                continue;
            }
            if let Some(c) = self.corner(&board, side) {
                self.push(&[c]);
                continue;
            }
            let mine: Vec<Square> = board
                .pieces()
                .filter(|(_, p)| p.color == side && p.kind == kind)
                .map(|(s, _)| s)
                .collect();
            if let Some(&at) = mine
                .iter()
                .find(|&&at| model::rule_move(&board, at, their).is_some())
            {
                self.push(&[cmd_of(at, their)]);
                break;
            }
            let limit = if kind == PieceKind::Captain { 12 } else { 6 };
            let path = mine
                .iter()
                .filter_map(|&at| {
                    let p = board.piece_at(at)?;
                    route(&board, at, limit, |b, s| {
                        model::rule_move(&with(b, s, p), s, their).is_some()
                    })
                })
                .min_by_key(|p| p.len());
            stuck = path.is_none();
            let c = match path {
                Some(p) => Some(cmd_of(p[0], p[1])),
                None => self.quiet(&board, &[]),
            };
            match c {
                Some(c) => self.push(&[c]),
                None => break,
            }
        }
    }

    /// While the cell of the winner's captain taking a piece after the end is wanted: a
    /// step of a loser's piece (not its captain) towards a square next to `winner`'s
    /// captain, onto empty squares, so that after the end that captain has something
    /// its rule lets it take. `None` when one stands there already or none can come.
    pub(super) fn neighbour(&mut self, board: &Board, winner: Color) -> Option<Cmd> {
        use model::{Class, Onto};
        let cell = Cell::Invalid(Class::AfterEnd, PieceKind::Captain, Onto::Enemy);
        if !wanted(self.hits, cell) {
            return None;
        }
        let captain = board.captain(winner)?;
        let next = |s: Square| s.x().abs_diff(captain.x()) + s.y().abs_diff(captain.y()) == 1;
        let loser = winner.opponent();
        let theirs = |s: Square| board.piece_at(s).is_some_and(|p| p.color == loser);
        if Square::all().any(|s| next(s) && theirs(s)) {
            return None;
        }
        let path = board
            .pieces()
            .filter(|(_, p)| p.color == loser && p.kind != PieceKind::Captain)
            .filter_map(|(at, _)| route(board, at, NEIGHBOUR, |_, s| next(s)))
            .min_by_key(|p| p.len())?;
        // A route steps onto empty squares only.
        Some(cmd_of(path[0], path[1]))
    }

    /// While the cell of a kind's move onto the other side's piece after the end is
    /// wanted (but the captain's, [`Self::neighbour`]'s): a step of a loser's piece of
    /// that kind towards a square from which its rule reaches a winner's piece, onto
    /// empty squares. `None` when one stands so already or none can come.
    fn in_reach(&mut self, board: &Board, winner: Color) -> Option<Cmd> {
        use model::{Class, Onto};
        let loser = winner.opponent();
        let reaches = |b: &Board, s: Square| {
            b.pieces()
                .any(|(q, r)| r.color == winner && model::rule_move(b, s, q).is_some())
        };
        let kinds = PieceKind::ALL.into_iter().filter(|&k| {
            k != PieceKind::Captain
                && wanted(self.hits, Cell::Invalid(Class::AfterEnd, k, Onto::Enemy))
        });
        for kind in kinds {
            let mine: Vec<(Square, Piece)> = board
                .pieces()
                .filter(|(_, p)| p.color == loser && p.kind == kind)
                .collect();
            if mine.iter().any(|&(at, _)| reaches(board, at)) {
                continue;
            }
            let path = mine
                .into_iter()
                .filter_map(|(at, p)| {
                    route(board, at, NEIGHBOUR, |b, s| {
                        let mut there = with(b, s, p);
                        there.put(at, None);
                        reaches(&there, s)
                    })
                })
                .min_by_key(|p| p.len());
            if let Some(path) = path {
                return Some(cmd_of(path[0], path[1]));
            }
        }
        None
    }

    /// While the map's cell of the winner attacking (0, 0) at the end is wanted and none
    /// of its pieces does: a step of one of them (not its captain, not of the ender's
    /// kind) towards a square from which it would. `None` when one does or none can come.
    fn corner(&mut self, board: &Board, winner: Color) -> Option<Cmd> {
        let cell = table::Cell::CornerCovered;
        let corner = Square::new(0, 0)?;
        if !map_wanted(self.map_hits, cell) || rules::is_attacked(board, corner, winner) {
            return None;
        }
        let ender = self.ender.1;
        let path = board
            .pieces()
            .filter(|(_, p)| p.color == winner && p.kind != PieceKind::Captain && p.kind != ender)
            .filter_map(|(at, p)| {
                route(board, at, NEIGHBOUR, |b, s| {
                    rules::check_path(&with(b, s, p), p.kind, s, corner).is_ok()
                })
            })
            .min_by_key(|p| p.len())?;
        Some(cmd_of(path[0], path[1]))
    }

    /// After the end: first the commands that reach new cells (a move each piece's rule
    /// allows, of each kind, onto each target), then more of the loser's such moves.
    pub(super) fn after_end(&mut self) {
        if !self.board().is_over() {
            return;
        }
        let target = (self.cmds.len() + AFTER_END).min(self.room);
        loop {
            let board = self.board().clone();
            let singles: Vec<Vec<Cmd>> = board
                .pieces()
                .flat_map(|(from, _)| {
                    let b = &board;
                    Square::all()
                        .filter(move |&to| model::rule_move(b, from, to).is_some())
                        .map(move |to| vec![cmd_of(from, to)])
                })
                .collect();
            let scores = self.scores(&singles);
            match (0..singles.len()).find(|&i| scores[i].is_some()) {
                Some(i) if self.cmds.len() < self.room => {
                    let c = singles[i].clone();
                    self.push(&c);
                }
                _ => {
                    let loser = board.side_to_move();
                    let theirs: Vec<Cmd> = singles
                        .iter()
                        .map(|s| s[0])
                        .filter(|c| {
                            Square::new(c[0], c[1])
                                .and_then(|s| board.piece_at(s))
                                .is_some_and(|p| p.color == loser)
                        })
                        .collect();
                    while self.cmds.len() < target {
                        match self.rng.pick(&theirs) {
                            Some(c) => self.push(&[c]),
                            None => return,
                        }
                    }
                    return;
                }
            }
        }
    }
}
