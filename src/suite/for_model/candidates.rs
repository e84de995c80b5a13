//! The continuations the search for the model tries at each step: every legal move,
//! invalid commands of every class each followed by a quiet move of the same side,
//! missions (a piece routed to a square, a check or a capture not reached yet), and
//! meetings (a piece and the other captain walked to where the piece alone would give
//! check).

use super::super::kept_after_capture::route;
use super::{wanted, with, with_captain, Search};
use crate::generate::case::{cmd_of, Cmd};
use crate::judge::board::Board;
use crate::judge::piece::{PieceKind, Square};
use crate::judge::rules;
use crate::model::statement::geometry::shifts;
use crate::model::statement::{self as model, Cell};
use crate::model::statement::{refusals, wraps};

/// Missions of each sort tried in one step, at most.
const MISSIONS: usize = 16;
/// Moves a routed piece makes, at most (a captain twice as many).
const DEPTH: usize = 5;
/// Moves a piece and the other captain make to meet where the piece alone would give
/// a check not reached yet, at most each.
const MEET: usize = 9;
/// Steps the other captain makes to a meeting, at most: from one back row to the
/// other.
const CAPTAIN_WALK: usize = 14;
/// Such meetings tried in one step, at most.
const MEETINGS: usize = 8;
/// Capture meetings are tried once no more output lines of a capture than this are
/// left.
const CAPTURE_LINES_LEFT: usize = 12;
/// A meeting: the side to move's moves that clear the way, its walk, the other side's
/// walk, and the move that follows.
type Meeting = (Vec<Cmd>, Vec<Square>, Vec<Square>, Option<(Square, Square)>);

impl Search<'_> {
    /// A quiet legal move of the side to move on `board`: it takes nothing, moves no
    /// captain when it can help it, and lands off `avoid`.
    pub(super) fn quiet(&mut self, board: &Board, avoid: &[Square]) -> Option<Cmd> {
        let moves: Vec<Cmd> = rules::legal_moves(board)
            .into_iter()
            .filter(|m| board.is_empty(m.to) && !avoid.contains(&m.to))
            .filter(|m| {
                board
                    .piece_at(m.from)
                    .is_some_and(|p| p.kind != PieceKind::Captain)
            })
            .map(|m| cmd_of(m.from, m.to))
            .collect();
        self.rng.pick(&moves)
    }

    /// `path` walked by the side to move, the other side answering each step but the
    /// last with a quiet move; then `then`, if any. `None` when a step is illegal.
    pub(super) fn walk(&mut self, path: &[Square], then: Option<Square>) -> Option<Vec<Cmd>> {
        let mut game = self.counter.game().clone();
        let mut out = Vec::new();
        let mut squares = path.to_vec();
        squares.extend(then);
        for (i, pair) in squares.windows(2).enumerate() {
            let c = cmd_of(pair[0], pair[1]);
            game.play(c[0], c[1], c[2], c[3]).ok()?;
            out.push(c);
            if i + 2 < squares.len() {
                let answer = self.quiet(game.board(), &squares)?;
                game.play(answer[0], answer[1], answer[2], answer[3]).ok()?;
                out.push(answer);
            }
        }
        Some(out)
    }

    /// The refusals the side to move can show in this position that the model still
    /// wants: each of its pieces tried by every displacement onto the board that reaches
    /// a wanted cell of the refusals or of the wrapped moves (one command a cell), and
    /// its source tried as its target. Invalid all, they leave the position as it is, so they stand in one run.
    pub(super) fn refusal_run(&self) -> Vec<Cmd> {
        let board = self.board();
        if board.is_over() {
            return Vec::new();
        }
        let side = board.side_to_move();
        let game = self.counter.game();
        let hits: &[u64] = self.hits;
        let mut claimed = vec![false; hits.len()];
        let mut out = Vec::new();
        for (from, _) in board.pieces().filter(|(_, p)| p.color == side) {
            let targets = std::iter::once(from).chain(shifts().filter_map(|d| from.offset(d)));
            for to in targets {
                let c = cmd_of(from, to);
                if game.validate(c[0], c[1], c[2], c[3]).is_ok() {
                    continue;
                }
                let mut new = false;
                let cells = refusals::refused(board, side, from, to)
                    .into_iter()
                    .chain(wraps::cells(board, side, from, to));
                for cell in cells {
                    if let Some(i) = cell.index().filter(|&i| hits[i] == 0 && !claimed[i]) {
                        claimed[i] = true;
                        new = true;
                    }
                }
                if new {
                    out.push(c);
                }
            }
        }
        out
    }

    /// Missions towards wanted cells of places, attacks and lines.
    pub(super) fn missions(&mut self) -> Vec<Vec<Cmd>> {
        let board = self.board().clone();
        if board.is_over() {
            return Vec::new();
        }
        let side = board.side_to_move();
        let other = side.opponent();
        let (Some(their), Some(ours)) = (board.captain(other), board.captain(side)) else {
            return Vec::new();
        };
        let hits: &[u64] = self.hits;
        let mut goals: Vec<(Square, Vec<Square>, Option<Square>)> = Vec::new();
        for (at, p) in board.pieces() {
            let limit = if p.kind == PieceKind::Captain {
                2 * DEPTH
            } else {
                DEPTH
            };
            if p.color == side {
                // A square of its kind not stood on yet; when it is the move from
                // there that is missing, one more step away.
                let place = |_: &Board, s: Square| {
                    wanted(hits, Cell::Onto(side, p.kind, s))
                        || wanted(hits, Cell::From(side, p.kind, s))
                };
                // Near first; else as far as a meeting goes.
                let near = route(&board, at, limit, place);
                if let Some(path) = near.or_else(|| route(&board, at, MEET, place)) {
                    let last = *path.last().expect("a route ends somewhere");
                    let mut there = board.clone();
                    there.put(at, None);
                    there.put(last, Some(p));
                    let away = Square::all().find(|&t| {
                        there.is_empty(t) && model::rule_move(&there, last, t).is_some()
                    });
                    let then = away.filter(|_| wanted(hits, Cell::From(side, p.kind, last)));
                    goals.push((at, path, then));
                }
                // A check alone along a vector from a row or column not reached.
                if let Some(path) = route(&board, at, limit, |b, s| {
                    model::shape(p.kind, s, their).is_some_and(|v| {
                        (wanted(hits, Cell::Row(side, p.kind, v, s.x()))
                            || wanted(hits, Cell::Column(side, p.kind, v, s.y())))
                            && model::rule_move(&with(b, s, p), s, their).is_some()
                    })
                }) {
                    goals.push((at, path, None));
                }
                // A capture whose line is missing.
                for (e, q) in board.pieces() {
                    if q.color != other || q.kind == PieceKind::Captain {
                        continue;
                    }
                    let line = |check| Cell::Line(side, p.kind, Some(q.kind), check);
                    if !wanted(hits, line(false)) && !wanted(hits, line(true)) {
                        continue;
                    }
                    if model::rule_move(&board, at, e).is_some() {
                        goals.push((at, vec![at], Some(e)));
                    } else if let Some(path) = route(&board, at, MEET, |b, s| {
                        model::rule_move(&with(b, s, p), s, e).is_some()
                    }) {
                        goals.push((at, path, Some(e)));
                    }
                }
            } else if let Some(path) = route(&board, ours, 2 * DEPTH, |b, s| {
                // Our captain into this opposing piece's attack, alone.
                model::shape(p.kind, at, s).is_some_and(|v| {
                    (wanted(hits, Cell::Row(other, p.kind, v, at.x()))
                        || wanted(hits, Cell::Column(other, p.kind, v, at.y())))
                        && model::rule_move(&with_captain(b, s, side), at, s).is_some()
                })
            }) {
                goals.push((ours, path, None));
            }
        }
        let mut out = Vec::new();
        while out.len() < 3 * MISSIONS && !goals.is_empty() {
            let (_, path, then) = goals.swap_remove(self.rng.index(goals.len()));
            if let Some(w) = self.walk(&path, then) {
                if !w.is_empty() {
                    out.push(w);
                }
            }
        }
        out.extend(self.meetings(&board, their));
        out.extend(self.alias_meetings(&board, their));
        out.extend(self.far_captures(&board));
        out
    }

    /// Meetings: a piece of the side to move walks to a square of a row or column from
    /// which its check along some vector is not reached yet, while the other captain
    /// walks to the square that vector attacks; each side's steps in turn (quiet moves
    /// once its walk is done).
    pub(super) fn meetings(&mut self, board: &Board, their: Square) -> Vec<Vec<Cmd>> {
        let side = board.side_to_move();
        let hits: &[u64] = self.hits;
        let mut plans: Vec<Meeting> = Vec::new();
        for (at, p) in board.pieces().filter(|(_, p)| p.color == side) {
            for (v, vec) in model::vectors(p.kind).iter().enumerate() {
                let v = v as u8;
                // A blocking square may hold one of the side's own pieces (not its
                // captain): it steps aside first.
                let movable = |b: &Board, q: Square| {
                    b.piece_at(q)
                        .is_some_and(|r| r.color == side && r.kind != PieceKind::Captain)
                };
                let Some(path) = route(board, at, MEET, |b, s| {
                    (wanted(hits, Cell::Row(side, p.kind, v, s.x()))
                        || wanted(hits, Cell::Column(side, p.kind, v, s.y())))
                        && s.offset(vec.delta)
                            .is_some_and(|t| b.is_empty(t) || t == their)
                        && vec.blocks.iter().all(|&o| {
                            s.offset(o)
                                .is_some_and(|q| b.is_empty(q) || q == their || movable(b, q))
                        })
                        // No other piece of the side attacks the square the captain
                        // walks to: the check must be alone.
                        && s.offset(vec.delta).is_some_and(|t| {
                            !b.pieces().any(|(q, r)| {
                                r.color == side && q != s && model::rule_move(b, q, t).is_some()
                            })
                        })
                }) else {
                    continue;
                };
                let a = *path.last().expect("a route ends somewhere");
                let Some(t) = a.offset(vec.delta) else {
                    continue;
                };
                let captain = if t == their {
                    Some(vec![their])
                } else {
                    route(board, their, CAPTAIN_WALK, |_, s| s == t)
                };
                let Some(captain) = captain else {
                    continue;
                };
                let blocks: Vec<Square> = vec.blocks.iter().filter_map(|&o| a.offset(o)).collect();
                let mut clear = Vec::new();
                for &q in &blocks {
                    if q == at || !movable(board, q) {
                        continue;
                    }
                    let away = Square::all().find(|&e| {
                        board.is_empty(e)
                            && e != t
                            && !path.contains(&e)
                            && !captain.contains(&e)
                            && !blocks.contains(&e)
                            && model::rule_move(board, q, e).is_some()
                    });
                    match away {
                        Some(e) => clear.push(cmd_of(q, e)),
                        None => break,
                    }
                }
                plans.push((clear, path, captain, None));
            }
        }
        plans.extend(self.capture_meetings(board));
        let mut out = Vec::new();
        while out.len() < MEETINGS && !plans.is_empty() {
            let (clear, mine, theirs, then) = plans.swap_remove(self.rng.index(plans.len()));
            if let Some(w) = self.together(&clear, &mine, &theirs, then) {
                out.push(w);
            }
        }
        out
    }

    /// Meetings for the last few output lines of a capture: a piece of the side to
    /// move and an opposing piece of the kind it should take walk until the one can
    /// take the other, and it does. Tried only when few such lines are left, as the
    /// search is a route within a route.
    pub(super) fn capture_meetings(&mut self, board: &Board) -> Vec<Meeting> {
        let side = board.side_to_move();
        let hits: &[u64] = self.hits;
        let lines = |p: PieceKind, q: PieceKind| {
            wanted(hits, Cell::Line(side, p, Some(q), false))
                || wanted(hits, Cell::Line(side, p, Some(q), true))
        };
        let left = model::cells()
            .iter()
            .filter(|&&c| matches!(c, Cell::Line(_, _, Some(_), _)) && wanted(hits, c))
            .count();
        if left == 0 || left > CAPTURE_LINES_LEFT {
            return Vec::new();
        }
        let mut pairs: Vec<(Square, Square)> = Vec::new();
        for (at, p) in board.pieces().filter(|(_, p)| p.color == side) {
            for (e, q) in board.pieces() {
                if q.color != side && q.kind != PieceKind::Captain && lines(p.kind, q.kind) {
                    pairs.push((at, e));
                }
            }
        }
        let mut out = Vec::new();
        while out.len() < 2 && !pairs.is_empty() {
            let (at, e) = pairs.swap_remove(self.rng.index(pairs.len()));
            let Some(p) = board.piece_at(at) else {
                continue;
            };
            // Where the opposing piece goes: a square from which the piece can then be
            // reached by a route that ends in a capture.
            let mine = std::cell::RefCell::new(None);
            let theirs = route(board, e, MEET, |b, t| {
                let q = board.piece_at(e).expect("the piece routed");
                let there = with(b, t, q);
                let found = route(&there, at, MEET, |b2, a| {
                    model::rule_move(&with(b2, a, p), a, t).is_some()
                });
                let ok = found.is_some();
                if ok {
                    *mine.borrow_mut() = found;
                }
                ok
            });
            if let (Some(theirs), Some(mine)) = (theirs, mine.into_inner()) {
                let t = *theirs.last().expect("a route ends somewhere");
                let a = *mine.last().expect("a route ends somewhere");
                out.push((Vec::new(), mine, theirs, Some((a, t))));
            }
        }
        out
    }

    /// The side to move plays `clear` and walks `mine` while the other walks `theirs`,
    /// in turn; a side whose walk is done answers with quiet moves, until both are
    /// done; then, the side to move again, the move `then`. `None` when a step is
    /// illegal.
    pub(super) fn together(
        &mut self,
        clear: &[Cmd],
        mine: &[Square],
        theirs: &[Square],
        then: Option<(Square, Square)>,
    ) -> Option<Vec<Cmd>> {
        let mut game = self.counter.game().clone();
        let side = game.board().side_to_move();
        let mut out = Vec::new();
        let mut ours: Vec<Cmd> = clear.to_vec();
        ours.extend(mine.windows(2).map(|w| cmd_of(w[0], w[1])));
        let others: Vec<Cmd> = theirs.windows(2).map(|w| cmd_of(w[0], w[1])).collect();
        let (mut i, mut j) = (0, 0);
        let avoid: Vec<Square> = mine.iter().chain(theirs).copied().collect();
        while i < ours.len() || j < others.len() {
            let c = if i < ours.len() {
                i += 1;
                ours[i - 1]
            } else {
                self.quiet(game.board(), &avoid)?
            };
            game.play(c[0], c[1], c[2], c[3]).ok()?;
            out.push(c);
            if i >= ours.len() && j >= others.len() {
                break;
            }
            let c = if j < others.len() {
                j += 1;
                others[j - 1]
            } else {
                self.quiet(game.board(), &avoid)?
            };
            game.play(c[0], c[1], c[2], c[3]).ok()?;
            out.push(c);
        }
        if let Some((a, t)) = then {
            if game.board().side_to_move() != side {
                let c = self.quiet(game.board(), &avoid)?;
                game.play(c[0], c[1], c[2], c[3]).ok()?;
                out.push(c);
            }
            out.push(cmd_of(a, t));
        }
        Some(out)
    }

    /// Invalid commands of every class, each followed by one quiet legal move.
    pub(super) fn invalid(&mut self) -> Vec<Vec<Cmd>> {
        let board = self.board().clone();
        let Some(after) = self.quiet(&board, &[]) else {
            return Vec::new();
        };
        let mut tried: Vec<Cmd> = Vec::new();
        let hits: &[u64] = self.hits;
        for from in Square::all() {
            // From an empty square, only next to a piece or a square a move left: the
            // empty squares are many, and one of each shape is enough.
            let near = board.piece_at(from).is_some()
                || Square::all().any(|t| {
                    let (dx, dy) = t.delta_from(from);
                    dx.abs() <= 1 && dy.abs() <= 1 && board.piece_at(t).is_some()
                });
            if !near {
                continue;
            }
            for to in Square::all() {
                let (dx, dy) = to.delta_from(from);
                if to == from || !(dx.abs() <= 3 && dy.abs() <= 3 || dx == 0 || dy == 0) {
                    continue;
                }
                let c = cmd_of(from, to);
                let cells = self.counter.invalid_cells(c);
                if cells.iter().any(|&cell| wanted(hits, cell)) {
                    tried.push(c);
                }
            }
        }
        let mut out = Vec::new();
        while out.len() < MISSIONS && !tried.is_empty() {
            let c = tried.swap_remove(self.rng.index(tried.len()));
            out.push(vec![c, after]);
        }
        out
    }
}
