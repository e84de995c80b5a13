//! Files built for the statement's model ([`super::model`]): each one game from the start,
//! grown by a greedy search that values only the model's cells no earlier file reaches,
//! and ended by one chosen kind of one chosen side taking the other captain, with
//! commands after the end. The suite adds such files after the files built against the
//! catalogue, one for each ending those leave, and more while cells are left.
//!
//! At each step the search tries every legal move, invalid commands of every class each
//! followed by a quiet legal move of the same side, and missions: a piece of the side to
//! move routed by its own moves to a square its kind has not stood on, to where it alone
//! would give check along a vector from a row or column not reached yet, or to where it
//! takes a piece of a kind whose output line is missing; or its captain walked into the
//! attack of an opposing piece. The other side answers each step of a mission with a
//! quiet move. The candidate that reaches the most new cells per command is played.
//!
//! No catalogue, no mutant: what this part of the suite is worth is measured on wrong
//! programs it never saw.

use super::kept_after_capture::route;
use crate::generate::case::cmd_of;
use crate::generate::case::Cmd;
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules;
use crate::model::statement::{self as model, Cell, Counter};
use crate::sys::rng::Rng;

/// Commands of the growing part, at most.
const GROW: usize = 760;
/// Commands of the search for the end, at most.
const END_BUDGET: usize = 200;
/// Commands after the end, at least (when there is room).
const AFTER_END: usize = 24;
/// Steps without a gain after which the search goes on to the end.
const PATIENCE: usize = 30;
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
/// Moves of a loser's piece routed next to the winner's captain before the end, at most.
const NEIGHBOUR: usize = 4;
/// Captures stop while this many pieces are left.
const FLOOR: usize = 8;
/// ... in a thinned file, which takes pieces first to open the board.
const THIN_FLOOR: usize = 5;

/// A game being written for the model.
struct Search<'a> {
    counter: Counter,
    cmds: Vec<Cmd>,
    /// How often the suite reaches each model cell, this file included.
    hits: &'a mut Vec<u64>,
    rng: Rng,
    /// The side and kind that end the game.
    ender: (Color, PieceKind),
    jobs: usize,
    room: usize,
    /// Whether captures are worth a cell each, down to [`THIN_FLOOR`]: a thinned
    /// board, for the last cells a crowded one hides (a check alone from a back row).
    thin: bool,
}

/// One file for the model, after the files whose model hits are `hits` (updated with
/// this one's): a game of at most `room` commands ended by `ender` taking the captain,
/// if it can; `thin`, taking pieces first (the ender's last piece and captains aside).
pub fn file(
    hits: &mut Vec<u64>,
    ender: (Color, PieceKind),
    seed: u64,
    jobs: usize,
    room: usize,
    thin: bool,
) -> Vec<Cmd> {
    let mut s = Search {
        counter: Counter::new(),
        cmds: Vec::new(),
        hits,
        rng: Rng::new(seed),
        ender,
        jobs,
        room,
        thin,
    };
    s.grow(GROW.min(room.saturating_sub(END_BUDGET / 4 + AFTER_END)));
    s.end();
    s.after_end();
    s.cmds
}

/// Whether `cell` is still wanted.
fn wanted(hits: &[u64], cell: Cell) -> bool {
    cell.index().is_some_and(|i| hits[i] == 0)
}

impl Search<'_> {
    fn board(&self) -> &Board {
        self.counter.game().board()
    }

    /// Whether `c`, a legal move, may be played while the file grows: no captain taken,
    /// no capture below the floor, the ender's last piece never taken.
    fn may(&self, board: &Board, c: Cmd) -> bool {
        let Some(t) = Square::new(c[2], c[3]) else {
            return true;
        };
        let Some(p) = board.piece_at(t) else {
            return true;
        };
        let floor = if self.thin { THIN_FLOOR } else { FLOOR };
        if p.kind == PieceKind::Captain || board.pieces().count() <= floor {
            return false;
        }
        let (side, kind) = self.ender;
        let left = board
            .pieces()
            .filter(|(_, q)| q.color == side && q.kind == kind)
            .count();
        !(p.color == side && p.kind == kind && left <= 1)
    }

    /// New cells per command of `cont`: the gain up to its last new cell, and how many
    /// commands that takes; `None` when it may not be played.
    fn score(&self, cont: &[Cmd]) -> Option<(u64, usize)> {
        let mut counter = self.counter.clone();
        let mut seen: Vec<usize> = Vec::new();
        let mut bonus = 0;
        let mut best = (0, 0);
        for (i, &c) in cont.iter().enumerate() {
            let board = counter.game().board();
            let legal = counter.game().validate(c[0], c[1], c[2], c[3]).is_ok();
            if legal && !self.may(board, c) {
                break;
            }
            let takes =
                legal && Square::new(c[2], c[3]).is_some_and(|t| board.piece_at(t).is_some());
            if self.thin && takes {
                bonus += 1;
            }
            counter.play(c, |cell| {
                if let Some(at) = cell.index() {
                    if self.hits[at] == 0 && !seen.contains(&at) {
                        seen.push(at);
                    }
                }
            });
            let gain = seen.len() as u64 + bonus;
            if gain > best.0 {
                best = (gain, i + 1);
            }
        }
        (best.0 > 0).then_some(best)
    }

    fn scores(&self, candidates: &[Vec<Cmd>]) -> Vec<Option<(u64, usize)>> {
        crate::sys::ordered::on_threads(self.jobs, candidates, |c| self.score(c))
    }

    fn push(&mut self, cont: &[Cmd]) {
        for &c in cont {
            if self.cmds.len() >= self.room {
                return;
            }
            let hits = &mut *self.hits;
            self.counter.play(c, |cell| {
                if let Some(i) = cell.index() {
                    hits[i] += 1;
                }
            });
            self.cmds.push(c);
        }
    }

    /// A quiet legal move of the side to move on `board`: it takes nothing, moves no
    /// captain when it can help it, and lands off `avoid`.
    fn quiet(&mut self, board: &Board, avoid: &[Square]) -> Option<Cmd> {
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
    fn walk(&mut self, path: &[Square], then: Option<Square>) -> Option<Vec<Cmd>> {
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

    /// Missions towards wanted cells of places, attacks and lines.
    fn missions(&mut self) -> Vec<Vec<Cmd>> {
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
        out
    }

    /// Meetings: a piece of the side to move walks to a square of a row or column from
    /// which its check along some vector is not reached yet, while the other captain
    /// walks to the square that vector attacks; each side's steps in turn (quiet moves
    /// once its walk is done).
    fn meetings(&mut self, board: &Board, their: Square) -> Vec<Vec<Cmd>> {
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
    fn capture_meetings(&mut self, board: &Board) -> Vec<Meeting> {
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
    fn together(
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
    fn invalid(&mut self) -> Vec<Vec<Cmd>> {
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

    fn candidates(&mut self) -> Vec<Vec<Cmd>> {
        let board = self.board().clone();
        let mut out: Vec<Vec<Cmd>> = rules::legal_moves(&board)
            .into_iter()
            .map(|m| vec![cmd_of(m.from, m.to)])
            .collect();
        out.extend(self.invalid());
        out.extend(self.missions());
        out
    }

    /// Greedy steps until `limit` commands, or [`PATIENCE`] steps without a gain.
    fn grow(&mut self, limit: usize) {
        let mut idle = 0;
        while self.cmds.len() < limit && idle < PATIENCE && !self.board().is_over() {
            let candidates = self.candidates();
            let scores = self.scores(&candidates);
            let best = (0..scores.len())
                .filter_map(|i| scores[i].map(|s| (i, s)))
                .reduce(|b, x| {
                    // gain / (used + 1), compared without division.
                    if x.1 .0 * (b.1 .1 as u64 + 1) > b.1 .0 * (x.1 .1 as u64 + 1) {
                        x
                    } else {
                        b
                    }
                });
            match best {
                Some((i, (_, used))) => {
                    let room = limit - self.cmds.len();
                    let chosen = candidates[i][..used.min(room)].to_vec();
                    self.push(&chosen);
                    idle = 0;
                }
                None => {
                    idle += 1;
                    let board = self.board().clone();
                    match self.quiet(&board, &[]) {
                        Some(c) => self.push(&[c]),
                        None => break,
                    }
                }
            }
        }
    }

    /// The ender's piece walks to where it takes the other captain, and takes it; the
    /// other side answers with quiet moves (its captain steps aside when no square the
    /// ender can reach attacks it).
    fn end(&mut self) {
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
    fn neighbour(&mut self, board: &Board, winner: Color) -> Option<Cmd> {
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

    /// After the end: first the commands that reach new cells (a move each piece's rule
    /// allows, of each kind, onto each target), then more of the loser's such moves.
    fn after_end(&mut self) {
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

/// `board` with `piece` on `s` (a routed piece's board has it lifted).
fn with(board: &Board, s: Square, piece: crate::judge::piece::Piece) -> Board {
    let mut b = board.clone();
    b.put(s, Some(piece));
    b
}

/// `board` with `side`'s captain on `s`.
fn with_captain(board: &Board, s: Square, side: Color) -> Board {
    with(
        board,
        s,
        crate::judge::piece::Piece {
            color: side,
            kind: PieceKind::Captain,
        },
    )
}
