//! Missions for the cells that need a piece far from where play takes it: a refusal by
//! a displacement that fits the board only from a corner or an edge (a piece routed to
//! where the displacement lands on an empty square, then tried), a move a flat board
//! wraps (a piece routed to the square its vector leaves the board from, then tried
//! onto the square the wrap lands on), and an aliased square
//! (a piece routed to where its vector leaves the board, and the other captain walked
//! to the square a flat board reads there).

use super::super::kept_after_capture::route;
use super::{wanted, Search};
use crate::generate::case::{cmd_of, Cmd};
use crate::judge::board::Board;
use crate::judge::piece::{PieceKind, Square};
use crate::model::statement::aliases::found_from;
use crate::model::statement::geometry::shifts;
use crate::model::statement::layout::Layout;
use crate::model::statement::{refusals, wraps};
use crate::model::statement::{vectors, Cell, Onto};

/// Moves a routed piece makes, at most (a captain, twice as many).
const DEPTH: usize = 6;
/// Steps the other captain makes to an aliased square, at most.
const CAPTAIN_WALK: usize = 14;
/// Missions of each sort tried in one step, at most.
const TRIED: usize = 8;

/// The moves a flat board wraps that `hits` still wants of `kind`: the square each
/// leaves the board from (a car on it), its vector and its layout.
fn wanted_wraps(hits: &[u64], kind: PieceKind) -> Vec<(Square, u8, Layout)> {
    let mut out = Vec::new();
    for v in 0..vectors(kind).len() as u8 {
        for s in Square::all() {
            if wraps::leaves(kind, v, s) != Some(s) {
                continue;
            }
            for layout in Layout::WRAPS {
                if wanted(hits, Cell::Wrap(kind, v, s, layout)) {
                    out.push((s, v, layout));
                }
            }
        }
    }
    out
}

impl Search<'_> {
    /// Routes for the refusals still wanted of the side to move: a piece of the kind
    /// walked to a square from which the displacement lands where the cell wants (an
    /// empty square, its own side's piece), the other side answering each step; then,
    /// the side to move again, the refused command and a quiet move.
    pub(super) fn refusal_missions(&mut self) -> Vec<Vec<Cmd>> {
        let board = self.board().clone();
        if board.is_over() {
            return Vec::new();
        }
        let side = board.side_to_move();
        let hits: &[u64] = self.hits;
        let mut plans: Vec<(Vec<Square>, (i8, i8))> = Vec::new();
        for (at, p) in board.pieces().filter(|(_, p)| p.color == side) {
            let limit = if p.kind == PieceKind::Captain {
                2 * DEPTH
            } else {
                DEPTH
            };
            let wraps = wanted_wraps(hits, p.kind);
            // A move a flat board wraps from `s`, still wanted: its target not the
            // side's own, the squares it reads empty (but the piece's own square, which
            // it leaves).
            let wrap_here = |b: &Board, s: Square| -> Option<(i8, i8)> {
                wraps
                    .iter()
                    .filter(|w| w.0 == s)
                    .find_map(|&(_, v, layout)| {
                        let (to, empty) = wraps::landing(p.kind, v, s, layout)?;
                        let own = b.piece_at(to).is_some_and(|q| q.color == side);
                        let clear = empty.iter().all(|&e| e == at || b.is_empty(e));
                        (!own && clear).then(|| to.delta_from(s))
                    })
            };
            let wanted_here = |b: &Board, s: Square| -> Option<(i8, i8)> {
                if let Some(d) = wrap_here(b, s) {
                    return Some(d);
                }
                shifts().find(|&d| {
                    let Some(t) = s.offset(d) else { return false };
                    let cell = match refusals::shape_blocks(p.kind, d) {
                        None if b.is_empty(t) => Cell::Refused(side, p.kind, d.0, d.1),
                        Some(_) if b.piece_at(t).is_some_and(|q| q.color == side) => {
                            Cell::ShapeOnto(side, p.kind, d.0, d.1, Onto::Own)
                        }
                        _ => return false,
                    };
                    wanted(hits, cell)
                })
            };
            if let Some(path) = route(&board, at, limit, |b, s| wanted_here(b, s).is_some()) {
                let last = *path.last().expect("a route ends somewhere");
                let mut there = board.clone();
                there.put(at, None);
                if let Some(d) = wanted_here(&there, last) {
                    plans.push((path, d));
                }
            }
        }
        let mut out = Vec::new();
        while out.len() < TRIED && !plans.is_empty() {
            let (path, d) = plans.swap_remove(self.rng.index(plans.len()));
            if let Some(cmds) = self.walk_then_try(&path, d) {
                out.push(cmds);
            }
        }
        out
    }

    /// `path` walked, the other side answering each step; then, the side to move again,
    /// the command from the walk's end by `d` and a quiet move. `None` when a step is
    /// illegal or the command is no longer refused.
    fn walk_then_try(&mut self, path: &[Square], d: (i8, i8)) -> Option<Vec<Cmd>> {
        let mut game = self.counter.game().clone();
        let mut out = Vec::new();
        let avoid: Vec<Square> = path.to_vec();
        for pair in path.windows(2) {
            let c = cmd_of(pair[0], pair[1]);
            game.play(c[0], c[1], c[2], c[3]).ok()?;
            out.push(c);
            let answer = self.quiet(game.board(), &avoid)?;
            game.play(answer[0], answer[1], answer[2], answer[3]).ok()?;
            out.push(answer);
        }
        let last = *path.last()?;
        let tried = cmd_of(last, last.offset(d)?);
        if game
            .validate(tried[0], tried[1], tried[2], tried[3])
            .is_ok()
        {
            return None;
        }
        out.push(tried);
        out.push(self.quiet(game.board(), &[])?);
        Some(out)
    }

    /// Meetings for the aliased squares still wanted of the side to move: its piece of
    /// the kind routed to where the vector leaves the board, and the other captain
    /// walked to the square a flat board reads there, with the squares the read needs
    /// empty.
    pub(super) fn alias_meetings(&mut self, board: &Board, their: Square) -> Vec<Vec<Cmd>> {
        let side = board.side_to_move();
        let hits: &[u64] = self.hits;
        let mut plans = Vec::new();
        for (at, p) in board.pieces().filter(|(_, p)| p.color == side) {
            for v in 0..vectors(p.kind).len() as u8 {
                for layout in Layout::ALL {
                    if !wanted(hits, Cell::Alias(side, p.kind, v, layout)) {
                        continue;
                    }
                    let finds = |b: &Board, s: Square| -> Option<Square> {
                        found_from(p.kind, v, s, layout)
                            .into_iter()
                            .find(|(c, empty)| {
                                (b.is_empty(*c) || *c == their)
                                    && empty.iter().all(|&e| b.is_empty(e) || e == their)
                            })
                            .map(|(c, _)| c)
                    };
                    let Some(path) = route(board, at, DEPTH, |b, s| finds(b, s).is_some()) else {
                        continue;
                    };
                    let last = *path.last().expect("a route ends somewhere");
                    let mut there = board.clone();
                    there.put(at, None);
                    let Some(c) = finds(&there, last) else {
                        continue;
                    };
                    let walk = if c == their {
                        Some(vec![their])
                    } else {
                        route(board, their, CAPTAIN_WALK, |_, s| s == c)
                    };
                    if let Some(walk) = walk {
                        plans.push((path, walk));
                    }
                }
            }
        }
        let mut out = Vec::new();
        while out.len() < TRIED && !plans.is_empty() {
            let (mine, theirs) = plans.swap_remove(self.rng.index(plans.len()));
            if let Some(w) = self.together(&[], &mine, &theirs, None) {
                out.push(w);
            }
        }
        out
    }

    /// Meetings for the far captures by a car still wanted of the side to move: its car
    /// routed to where a displacement along a line lands on the board with the line
    /// clear, and a piece of the other side (not its captain) walked onto that square;
    /// then the car takes it.
    pub(super) fn far_captures(&mut self, board: &Board) -> Vec<Vec<Cmd>> {
        let side = board.side_to_move();
        let hits: &[u64] = self.hits;
        let mut plans = Vec::new();
        for (at, _) in board
            .pieces()
            .filter(|(_, p)| p.color == side && p.kind == PieceKind::Car)
        {
            for d in refusals::own_shifts(PieceKind::Car) {
                if !wanted(
                    hits,
                    Cell::ShapeOnto(side, PieceKind::Car, d.0, d.1, Onto::Enemy),
                ) {
                    continue;
                }
                let lands = |b: &Board, s: Square| -> bool {
                    let Some(t) = s.offset(d) else { return false };
                    let open = refusals::shape_blocks(PieceKind::Car, d)
                        .unwrap_or_default()
                        .iter()
                        .all(|&o| s.offset(o).is_some_and(|q| b.is_empty(q)));
                    open && b
                        .piece_at(t)
                        .is_none_or(|q| q.color != side && q.kind != PieceKind::Captain)
                };
                let Some(path) = route(board, at, DEPTH, lands) else {
                    continue;
                };
                let a = *path.last().expect("a route ends somewhere");
                let Some(t) = a.offset(d) else { continue };
                let theirs = if board.piece_at(t).is_some() {
                    Some(vec![t])
                } else {
                    board
                        .pieces()
                        .filter(|(_, q)| q.color != side && q.kind != PieceKind::Captain)
                        .filter_map(|(e, _)| route(board, e, DEPTH, |_, s| s == t))
                        .min_by_key(|w| w.len())
                };
                if let Some(theirs) = theirs {
                    plans.push((path, theirs, (a, t)));
                }
            }
        }
        let mut out = Vec::new();
        while out.len() < TRIED && !plans.is_empty() {
            let (mine, theirs, then) = plans.swap_remove(self.rng.index(plans.len()));
            if let Some(w) = self.together(&[], &mine, &theirs, Some(then)) {
                out.push(w);
            }
        }
        out
    }
}
