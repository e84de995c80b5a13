//! Game-aware shortening: the game played before a failing command is retold as its
//! events (where each piece that moved ends up, which piece takes which), and a short
//! legal game is built that makes a chosen subset of those events happen: each piece
//! goes to its square by a shortest route (optionally with pieces of its side stepping
//! out of its way when that is shorter, pieces of the other side stepping out of it on
//! the moves that side has to make anyway, and pieces to be taken stepping aside
//! instead), a side with nothing else to do moves an idle piece out and back, and the
//! side to move at the end is the original one. The
//! shrinker asks the program which events matter; a game-over bug, say, needs only the
//! captain's capture, which a handful of moves reach where the random game took
//! hundreds.
//!
//! A piece is named by the square it starts on.

use crate::generate::case::{cmd_of, Cmd};
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{Color, PieceKind, Square, SQUARE_SLOTS};
use crate::judge::rules::{self, Reach};
use std::collections::VecDeque;

/// Something that happened in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The piece that started on `piece` ends the game on `to`.
    Reach {
        /// The piece, by its start square.
        piece: Square,
        /// Its last square.
        to: Square,
    },
    /// The piece that started on `by` takes the one that started on `victim`.
    Capture {
        /// The taker, by its start square.
        by: Square,
        /// The taken piece, by its start square.
        victim: Square,
    },
}

impl Event {
    /// The pieces it names, by their start squares (a lone piece twice).
    pub fn pieces(&self) -> [Square; 2] {
        match *self {
            Event::Reach { piece, .. } => [piece, piece],
            Event::Capture { by, victim } => [by, victim],
        }
    }
}

/// A game told as its events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Story {
    /// The events, in the order they happened.
    pub events: Vec<Event>,
    /// The side to move at the end.
    pub side: Color,
}

/// The events of the game that `cmds` play (invalid commands change nothing).
pub fn story(cmds: &[Cmd]) -> Story {
    let mut game = Game::new();
    let mut id_at: [Option<Square>; SQUARE_SLOTS] = [None; SQUARE_SLOTS];
    for (s, _) in game.board().pieces() {
        id_at[s.index()] = Some(s);
    }
    let mut last_move: [usize; SQUARE_SLOTS] = [0; SQUARE_SLOTS];
    // (time, captures before arrivals, event)
    let mut timed: Vec<(usize, u8, Event)> = Vec::new();
    for (t, c) in cmds.iter().enumerate() {
        if game.play(c[0], c[1], c[2], c[3]).is_err() {
            continue;
        }
        let (from, to) = match (Square::new(c[0], c[1]), Square::new(c[2], c[3])) {
            (Some(f), Some(t)) => (f, t),
            _ => continue,
        };
        let Some(id) = id_at[from.index()] else {
            continue;
        };
        if let Some(victim) = id_at[to.index()] {
            timed.push((t, 0, Event::Capture { by: id, victim }));
        }
        id_at[to.index()] = Some(id);
        id_at[from.index()] = None;
        last_move[id.index()] = t;
    }
    for s in Square::all() {
        if let Some(id) = id_at[s.index()] {
            if id != s {
                timed.push((last_move[id.index()], 1, Event::Reach { piece: id, to: s }));
            }
        }
    }
    timed.sort_by_key(|&(t, order, _)| (t, order));
    Story {
        events: timed.into_iter().map(|(_, _, e)| e).collect(),
        side: game.side_to_move(),
    }
}

/// The most moves one event may take.
const MAX_STEPS: usize = 24;

/// Kinds in the order idle pieces are picked to wait with: those least likely to matter.
const IDLE: [PieceKind; 7] = [
    PieceKind::Guard,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Car,
    PieceKind::Soldier,
    PieceKind::Duck,
    PieceKind::Captain,
];

/// A game being built.
struct Builder {
    game: Game,
    id_at: [Option<Square>; SQUARE_SLOTS],
    loc: [Option<Square>; SQUARE_SLOTS],
    /// Idle pieces moved out to wait: (piece, its square before).
    out: Vec<(Square, Square)>,
    cmds: Vec<Cmd>,
}

impl Builder {
    fn new() -> Builder {
        let game = Game::new();
        let mut id_at = [None; SQUARE_SLOTS];
        let mut loc = [None; SQUARE_SLOTS];
        for (s, _) in game.board().pieces() {
            id_at[s.index()] = Some(s);
            loc[s.index()] = Some(s);
        }
        Builder {
            game,
            id_at,
            loc,
            out: Vec::new(),
            cmds: Vec::new(),
        }
    }

    fn board(&self) -> &Board {
        self.game.board()
    }

    /// Plays a move, which must be legal.
    fn play(&mut self, from: Square, to: Square) -> Option<()> {
        let c = cmd_of(from, to);
        self.game.play(c[0], c[1], c[2], c[3]).ok()?;
        let id = self.id_at[from.index()]?;
        if let Some(victim) = self.id_at[to.index()] {
            self.loc[victim.index()] = None;
        }
        self.id_at[to.index()] = Some(id);
        self.id_at[from.index()] = None;
        self.loc[id.index()] = Some(to);
        self.cmds.push(c);
        Some(())
    }

    /// A move for the side to move that changes nothing that matters: an idle piece goes
    /// back to where it waited from, or out to an empty square. `busy` pieces are not
    /// used; `avoid` squares are not entered.
    fn wait(&mut self, busy: &[Square], avoid: &[Square]) -> Option<()> {
        let side = self.board().side_to_move();
        for i in 0..self.out.len() {
            let (id, home) = self.out[i];
            let Some(at) = self.loc[id.index()] else {
                continue;
            };
            let own = self.board().piece_at(at).is_some_and(|p| p.color == side);
            if own && self.board().is_empty(home) && self.legal(at, home) {
                self.out.remove(i);
                return self.play(at, home);
            }
        }
        for kind in IDLE {
            for (from, piece) in self.board().clone().pieces() {
                let id = self.id_at[from.index()]?;
                if piece.color != side || piece.kind != kind || busy.contains(&id) {
                    continue;
                }
                for to in Square::all() {
                    if self.board().is_empty(to) && !avoid.contains(&to) && self.legal(from, to) {
                        self.out.push((id, from));
                        return self.play(from, to);
                    }
                }
            }
        }
        None
    }

    /// Instead of waiting: one step of a later arrival of the side to move, if one can
    /// make progress now. Returns whether it moved.
    fn ahead(&mut self, later: &[Event]) -> bool {
        let side = self.board().side_to_move();
        for event in later {
            let Event::Reach { piece, to } = *event else {
                continue;
            };
            let Some(at) = self.loc[piece.index()] else {
                continue;
            };
            let mine = self.board().piece_at(at).is_some_and(|p| p.color == side);
            if at == to || !mine || !self.board().is_empty(to) {
                continue;
            }
            if let Some(next) = self.step(piece, to, false) {
                return self.play(at, next).is_some();
            }
        }
        false
    }

    fn legal(&self, from: Square, to: Square) -> bool {
        self.game
            .validate(
                from.x() as i64,
                from.y() as i64,
                to.x() as i64,
                to.y() as i64,
            )
            .is_ok()
    }

    /// The first step of a shortest route of piece `id` to `target`, through empty
    /// squares only (the target may hold an opposing piece when `capture`).
    fn step(&self, id: Square, target: Square, capture: bool) -> Option<Square> {
        self.route(id, target, capture).map(|(first, _)| first)
    }

    /// The first step and the length of a shortest route of piece `id` to `target`,
    /// through empty squares only (the target may hold an opposing piece when
    /// `capture`).
    fn route(&self, id: Square, target: Square, capture: bool) -> Option<(Square, usize)> {
        let from = self.loc[id.index()]?;
        let path = shortest(self.board(), from, target, capture)?;
        Some((*path.first()?, path.len()))
    }

    /// The pieces of the side of the piece on `from` other than it and not `busy`: those
    /// that may step out of its way.
    fn own_movable(&self, from: Square, busy: &[Square]) -> Vec<Square> {
        let board = self.board();
        let Some(color) = board.piece_at(from).map(|p| p.color) else {
            return Vec::new();
        };
        self.movable(color, busy)
            .into_iter()
            .filter(|&s| s != from)
            .collect()
    }

    /// The squares of the pieces of `color` that are not `busy`.
    fn movable(&self, color: Color, busy: &[Square]) -> Vec<Square> {
        self.board()
            .pieces()
            .filter(|&(s, p)| {
                p.color == color && self.id_at[s.index()].is_some_and(|i| !busy.contains(&i))
            })
            .map(|(s, _)| s)
            .collect()
    }

    /// The next move of piece `id` towards `target`, or of a piece of its own side out of
    /// its way: when moving aside some of its own pieces (not `busy` ones) makes the
    /// route shorter even counting their moves, the first of them steps aside (to an
    /// empty square off the route and not in `avoid`). Returns the move.
    fn toward(
        &self,
        id: Square,
        target: Square,
        capture: bool,
        busy: &[Square],
        avoid: &[Square],
    ) -> Option<(Square, Square)> {
        let from = self.loc[id.index()]?;
        let board = self.board();
        let direct = shortest(board, from, target, capture);
        let step_now = direct.as_ref().map(|p| (from, p[0]));
        let movable = self.own_movable(from, busy);
        let Some(Way {
            path,
            blockers,
            first_blocked,
        }) = way(board, from, target, capture, &movable)
        else {
            return step_now.or_else(|| self.past_others(from, target, capture, busy));
        };
        let worth = direct
            .as_ref()
            .is_none_or(|d| path.len() + blockers.len() < d.len());
        if !worth || blockers.is_empty() {
            return step_now;
        }
        if first_blocked != Some(0)
            && step_ok(board, from, from, path[0], capture && path[0] == target)
        {
            return Some((from, path[0]));
        }
        let blocker = blockers[0];
        let aside = Square::all().find(|&to| {
            board.is_empty(to)
                && !avoid.contains(&to)
                && !path.contains(&to)
                && self.legal(blocker, to)
        });
        aside.map(|to| (blocker, to)).or(step_now)
    }

    /// When the piece on `from` has no way to `target` even with its own side stepping
    /// aside: its first step on a way that the other side's pieces (not `busy`) would
    /// open, when that step can be made now; they step aside on their own moves
    /// ([`Builder::clear_way`]).
    fn past_others(
        &self,
        from: Square,
        target: Square,
        capture: bool,
        busy: &[Square],
    ) -> Option<(Square, Square)> {
        let color = self.board().piece_at(from)?.color;
        let mut movable = self.own_movable(from, busy);
        movable.extend(self.movable(color.opponent(), busy));
        let first = *way(self.board(), from, target, capture, &movable)?
            .path
            .first()?;
        step_ok(self.board(), from, from, first, capture && first == target)
            .then_some((from, first))
    }

    /// On the other side's turn, instead of a move that only waits: one of its pieces
    /// (not `busy`) in the way of piece `id` to `target` steps aside, to the empty square
    /// (not in `avoid`) that leaves the shortest route, when that is shorter than the
    /// route now. The other side has to move anyway, so this costs no move, where
    /// walking round a wall of its pieces can cost many.
    fn clear_way(
        &self,
        id: Square,
        target: Square,
        capture: bool,
        busy: &[Square],
        avoid: &[Square],
    ) -> Option<(Square, Square)> {
        let from = self.loc[id.index()]?;
        let board = self.board();
        let side = board.side_to_move();
        if board.piece_at(from)?.color == side {
            return None;
        }
        let length = |b: &Board| shortest(b, from, target, capture).map_or(usize::MAX, |p| p.len());
        let direct = length(board);
        if direct <= 1 {
            return None;
        }
        let movable = self.movable(side, busy);
        let Way { path, blockers, .. } = way(board, from, target, capture, &movable)?;
        let &blocker = blockers.first()?;
        let mut best: Option<(usize, Square)> = None;
        for to in Square::all() {
            if !board.is_empty(to) || avoid.contains(&to) || path.contains(&to) {
                continue;
            }
            if !self.legal(blocker, to) {
                continue;
            }
            let mut after = board.clone();
            after.put(to, board.piece_at(blocker));
            after.put(blocker, None);
            let l = length(&after);
            if l < direct && best.is_none_or(|(b, _)| l < b) {
                best = Some((l, to));
            }
        }
        best.map(|(_, to)| (blocker, to))
    }
}

/// A route on a board cleared of some pieces, and those of them in its way.
struct Way {
    /// The route (the squares after the start, the target last).
    path: Vec<Square>,
    /// The pieces in the way of its steps on the real board, in the order met.
    blockers: Vec<Square>,
    /// The first step that one of them blocks.
    first_blocked: Option<usize>,
}

/// A shortest route of the piece on `from` to `target` on `board` without the pieces on
/// `movable`, and which of them stand in its way on the real board.
fn way(
    board: &Board,
    from: Square,
    target: Square,
    capture: bool,
    movable: &[Square],
) -> Option<Way> {
    let mut open = board.clone();
    for &s in movable {
        open.put(s, None);
    }
    let path = shortest(&open, from, target, capture)?;
    // The pieces in the way of each step, on the real board.
    let mut blockers: Vec<Square> = Vec::new();
    let mut first_blocked = None;
    let mut at = from;
    for (k, &t) in path.iter().enumerate() {
        let mut board = board.clone();
        for &b in &blockers {
            board.put(b, None);
        }
        if !step_ok(&board, from, at, t, capture && t == target) {
            for &m in movable {
                let mut without = board.clone();
                without.put(m, None);
                if step_ok(&without, from, at, t, capture && t == target) {
                    blockers.push(m);
                    first_blocked.get_or_insert(k);
                    break;
                }
            }
        }
        at = t;
    }
    Some(Way {
        path,
        blockers,
        first_blocked,
    })
}

/// Whether the piece on `mover` may go from `at` to `to` on `board` (on which it stands
/// on `mover`; it does not stand in its own way), entering an empty square, or one with
/// an opposing piece when `capture`.
fn step_ok(board: &Board, mover: Square, at: Square, to: Square, capture: bool) -> bool {
    let Some(piece) = board.piece_at(mover) else {
        return false;
    };
    let mut board = board.clone();
    board.put(mover, None);
    let enterable = board.is_empty(to)
        || (capture && board.piece_at(to).is_some_and(|p| p.color != piece.color));
    enterable && rules::check_path(&board, piece.kind, at, to).is_ok()
}

/// A shortest route (the squares after `from`, `target` last) of the piece on `from` to
/// `target` on `board`, through empty squares only (the target may hold an opposing
/// piece when `capture`).
fn shortest(board: &Board, from: Square, target: Square, capture: bool) -> Option<Vec<Square>> {
    let piece = board.piece_at(from)?;
    let mut board = board.clone();
    // The moving piece does not stand in its own way.
    board.put(from, None);
    let enterable = |s: Square| {
        board.is_empty(s)
            || (capture && s == target && board.piece_at(s).is_some_and(|p| p.color != piece.color))
    };
    let mut parent: [Option<Square>; SQUARE_SLOTS] = [None; SQUARE_SLOTS];
    let mut seen = [false; SQUARE_SLOTS];
    seen[from.index()] = true;
    let mut queue = VecDeque::from([from]);
    let mut reached = false;
    while let Some(s) = queue.pop_front() {
        let mut visit = |t: Square| -> bool {
            if seen[t.index()] || !enterable(t) {
                return false;
            }
            if rules::check_path(&board, piece.kind, s, t).is_err() {
                return false;
            }
            seen[t.index()] = true;
            parent[t.index()] = Some(s);
            if t == target {
                return true;
            }
            // A capture ends a route; only empty squares lead on.
            if board.is_empty(t) {
                queue.push_back(t);
            }
            false
        };
        match rules::reach(piece.kind) {
            Reach::Leaps(leaps) => {
                for l in leaps {
                    if let Some(t) = s.offset(l.delta) {
                        reached |= visit(t);
                    }
                }
            }
            Reach::Rays(dirs) => {
                for &d in dirs {
                    let mut at = s;
                    while let Some(t) = at.offset(d) {
                        reached |= visit(t);
                        if !board.is_empty(t) {
                            break;
                        }
                        at = t;
                    }
                }
            }
        }
        if reached {
            break;
        }
    }
    if !reached {
        return None;
    }
    let mut path = vec![target];
    let mut at = target;
    while let Some(p) = parent[at.index()] {
        if p == from {
            break;
        }
        path.push(p);
        at = p;
    }
    path.reverse();
    Some(path)
}

/// How a game is built from events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takers {
    /// Each capture by the piece that made it in the story.
    AsTold,
    /// A captain taken by whichever piece of that side gets there fastest.
    Fastest,
    /// A captain taken as with [`Takers::Fastest`]; any other piece taken in the story
    /// steps aside instead, by one move of its own side: a square emptied is often all
    /// that mattered, and a capture can take a long walk.
    Aside,
}

/// The ways of building a game from `events` that can differ: [`Takers::Fastest`]
/// always, [`Takers::AsTold`] when a captain is taken, [`Takers::Aside`] when another
/// piece is.
pub fn takers(events: &[Event]) -> Vec<Takers> {
    let start = Board::start();
    let taken = |captain: bool| {
        events.iter().any(|e| match *e {
            Event::Capture { victim, .. } => start
                .piece_at(victim)
                .is_some_and(|p| (p.kind == PieceKind::Captain) == captain),
            Event::Reach { .. } => false,
        })
    };
    let mut ways = vec![Takers::Fastest];
    if taken(true) {
        ways.push(Takers::AsTold);
    }
    if taken(false) {
        ways.push(Takers::Aside);
    }
    ways
}

/// How many events may be pulled forward, one for the next, to clear a target square.
const PULL_DEPTH: usize = 3;

/// The commands of a legal game from the start that makes `events` happen in order, as
/// far as this way of building one can (an event it cannot bring about is left out; the
/// program under test says whether what is left still matters), and leaves `side` to
/// move unless the game is over. With `clear`, pieces of a mover's side step out of its
/// way when that makes its route shorter, their moves counted, and pieces of the other
/// side step out of it instead of waiting. `None` only when the side to move cannot be
/// set.
pub fn realize(events: &[Event], side: Color, takers: Takers, clear: bool) -> Option<Vec<Cmd>> {
    let mut plan = Plan {
        b: Builder::new(),
        events,
        takers,
        clear,
        done: vec![false; events.len()],
        // Pieces with a part in the story never wait: a waiting move could undo an
        // arrival, or take a piece's place.
        busy: events.iter().flat_map(Event::pieces).collect(),
        avoid: events
            .iter()
            .filter_map(|e| match *e {
                Event::Reach { to, .. } => Some(to),
                Event::Capture { .. } => None,
            })
            .collect(),
    };
    for k in 0..events.len() {
        plan.event(k, 0);
    }
    let b = &mut plan.b;
    if !b.board().is_over() && b.board().side_to_move() != side {
        b.wait(&plan.busy, &plan.avoid)?;
    }
    Some(plan.b.cmds)
}

/// A game being built from events.
struct Plan<'e> {
    b: Builder,
    events: &'e [Event],
    takers: Takers,
    /// Whether pieces of the mover's side step out of its way when that is shorter.
    clear: bool,
    done: Vec<bool>,
    busy: Vec<Square>,
    avoid: Vec<Square>,
}

impl Plan<'_> {
    /// Makes event `k` happen, as far as it can.
    fn event(&mut self, k: usize, depth: usize) {
        if self.done[k] {
            return;
        }
        self.done[k] = true;
        let event = self.events[k];
        let (id, capture) = match event {
            Event::Reach { piece, .. } => (piece, false),
            Event::Capture { victim, .. } if self.steps_aside(victim) => {
                self.aside(victim);
                return;
            }
            Event::Capture { by, victim } => (self.taker(by, victim), true),
        };
        for steps in 0..=MAX_STEPS {
            let target = match event {
                Event::Reach { to, .. } => to,
                Event::Capture { victim, .. } => match self.b.loc[victim.index()] {
                    Some(s) => s,
                    // Gone already.
                    None => return,
                },
            };
            let Some(at) = self.b.loc[id.index()] else {
                return;
            };
            if at == target || steps == MAX_STEPS {
                return;
            }
            if !capture && !self.b.board().is_empty(target) {
                // Whatever stands there may leave later in the story: let it go first.
                if depth == PULL_DEPTH || !self.pull(target, k, depth) {
                    return;
                }
                if !self.b.board().is_empty(target) {
                    return;
                }
            }
            let Some(color) = self.b.board().piece_at(at).map(|p| p.color) else {
                return;
            };
            if self.b.board().side_to_move() != color {
                let cleared = match self.clear {
                    true => self
                        .b
                        .clear_way(id, target, capture, &self.busy, &self.avoid),
                    false => None,
                };
                let moved = match cleared {
                    Some((blocker, to)) => self.b.play(blocker, to).is_some(),
                    None => false,
                };
                if !moved
                    && !self.b.ahead(&self.events[k + 1..])
                    && self.b.wait(&self.busy, &self.avoid).is_none()
                {
                    return;
                }
            }
            let way = if self.clear {
                self.b.toward(id, target, capture, &self.busy, &self.avoid)
            } else {
                self.b.step(id, target, capture).map(|next| (at, next))
            };
            let Some((mover, next)) = way else {
                return;
            };
            if self.b.play(mover, next).is_none() {
                return;
            }
        }
    }

    /// Whether `victim`, to be taken, steps aside instead ([`Takers::Aside`]).
    fn steps_aside(&self, victim: Square) -> bool {
        let at = self.b.loc[victim.index()];
        let kind = at.and_then(|s| self.b.board().piece_at(s)).map(|p| p.kind);
        self.takers == Takers::Aside && kind.is_some_and(|k| k != PieceKind::Captain)
    }

    /// One move of `victim` to an empty square no event names, on its side's turn (the
    /// other side waits first when it must); nothing when it has no such move.
    fn aside(&mut self, victim: Square) {
        let Some(at) = self.b.loc[victim.index()] else {
            return;
        };
        let Some(color) = self.b.board().piece_at(at).map(|p| p.color) else {
            return;
        };
        let targets = |b: &Builder, avoid: &[Square]| {
            Square::all()
                .find(|&to| b.board().is_empty(to) && !avoid.contains(&to) && b.legal(at, to))
        };
        if self.b.board().side_to_move() != color && self.b.wait(&self.busy, &self.avoid).is_none()
        {
            return;
        }
        if let Some(to) = targets(&self.b, &self.avoid) {
            let _ = self.b.play(at, to);
        }
    }

    /// Who takes `victim`: `by`, or with [`Takers::Fastest`] and a captain to take, the
    /// piece of that side with the shortest route (`by` on a tie; only pieces without a
    /// part of their own in the story).
    fn taker(&self, by: Square, victim: Square) -> Square {
        let b = &self.b;
        let target = match b.loc[victim.index()] {
            Some(t) if self.takers != Takers::AsTold => t,
            _ => return by,
        };
        let (Some(at), Some(prey)) = (b.loc[by.index()], b.board().piece_at(target)) else {
            return by;
        };
        if prey.kind != PieceKind::Captain {
            return by;
        }
        let Some(color) = b.board().piece_at(at).map(|p| p.color) else {
            return by;
        };
        let length = |id: Square| b.route(id, target, true).map_or(usize::MAX, |r| r.1);
        let mut best = (length(by), by);
        for (s, p) in b.board().pieces() {
            let Some(id) = b.id_at[s.index()] else {
                continue;
            };
            if p.color == color && !self.busy.contains(&id) {
                let l = length(id);
                if l < best.0 {
                    best = (l, id);
                }
            }
        }
        best.1
    }

    /// Makes the next arrival of the piece on `square` happen now, before event `k`;
    /// returns whether there was one.
    fn pull(&mut self, square: Square, k: usize, depth: usize) -> bool {
        let Some(occupant) = self.b.id_at[square.index()] else {
            return false;
        };
        let later = (k + 1..self.events.len()).find(|&j| {
            !self.done[j]
                && matches!(self.events[j], Event::Reach { piece, .. } if piece == occupant)
        });
        match later {
            Some(j) => {
                self.event(j, depth + 1);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn sq(x: i64, y: i64) -> Square {
        Square::new(x, y).expect("on the board")
    }

    #[test]
    fn a_game_is_told_as_arrivals_and_captures() {
        // A red soldier walks up and takes a blue soldier while the blue car moves about;
        // an invalid command in between changes nothing.
        let cmds = [
            [3, 0, 4, 0],
            [9, 0, 8, 0],
            [5, 5, 5, 5],
            [4, 0, 5, 0],
            [8, 0, 8, 1],
            [5, 0, 6, 0],
            [8, 1, 7, 1],
        ];
        let s = story(&cmds);
        assert_eq!(
            s.events,
            vec![
                Event::Capture {
                    by: sq(3, 0),
                    victim: sq(6, 0)
                },
                Event::Reach {
                    piece: sq(3, 0),
                    to: sq(6, 0)
                },
                Event::Reach {
                    piece: sq(9, 0),
                    to: sq(7, 1)
                },
            ]
        );
        assert_eq!(s.side, Color::Red);
    }

    /// Replays `cmds`, all of which must be legal; returns the final board.
    pub(crate) fn replay(cmds: &[Cmd]) -> Board {
        let mut game = Game::new();
        for c in cmds {
            assert!(game.play(c[0], c[1], c[2], c[3]).is_ok(), "{c:?} is legal");
        }
        game.board().clone()
    }

    #[test]
    fn a_realized_game_makes_the_events_happen_legally() {
        // Only the capture of the blue captain by a red car.
        let events = [Event::Capture {
            by: sq(0, 0),
            victim: sq(9, 4),
        }];
        let cmds = realize(&events, Color::Red, Takers::AsTold, false).expect("a route");
        let board = replay(&cmds);
        assert!(board.is_over());
        assert_eq!(board.winner(), Some(Color::Red));
        assert!(cmds.len() <= 12, "{} moves", cmds.len());
        // Arrivals, with the side to move kept.
        let events = [
            Event::Reach {
                piece: sq(0, 1),
                to: sq(5, 4),
            },
            Event::Reach {
                piece: sq(9, 7),
                to: sq(7, 6),
            },
        ];
        for side in Color::ALL {
            let cmds = realize(&events, side, Takers::AsTold, false).expect("a route");
            let board = replay(&cmds);
            assert_eq!(board.side_to_move(), side);
            let horse = |s: Square| board.piece_at(s).map(|p| p.kind);
            assert_eq!(horse(sq(5, 4)), Some(PieceKind::Horse));
            assert_eq!(horse(sq(7, 6)), Some(PieceKind::Horse));
            assert!(cmds.len() <= 8, "{cmds:?}");
        }
    }

    #[test]
    fn the_story_of_a_random_game_is_realized_legally() {
        use crate::sys::rng::Rng;
        let mut rng = Rng::new(11);
        let mut realized = 0;
        for _ in 0..60 {
            let mut game = Game::new();
            let mut cmds = Vec::new();
            for _ in 0..rng.below(60) {
                let moves = rules::legal_moves(game.board());
                let Some(m) = rng.pick(&moves) else { break };
                let c = cmd_of(m.from, m.to);
                let _ = game.play(c[0], c[1], c[2], c[3]);
                cmds.push(c);
            }
            let s = story(&cmds);
            if let Some(route) = realize(&s.events, s.side, Takers::AsTold, false) {
                let board = replay(&route);
                if !board.is_over() {
                    assert_eq!(board.side_to_move(), s.side);
                }
                // Whole stories come out whole more often than not.
                let arrived = s.events.iter().all(|e| match e {
                    Event::Reach { to, .. } => !board.is_empty(*to),
                    Event::Capture { .. } => true,
                });
                realized += usize::from(arrived);
            }
        }
        assert!(realized >= 30, "{realized} of 60 realized whole");
    }

    #[test]
    fn a_piece_walled_in_by_its_own_side_has_them_step_aside() {
        // The blue horse's short way to (2, 4) is behind its own soldier's leg.
        let events = [Event::Reach {
            piece: sq(9, 1),
            to: sq(2, 4),
        }];
        let horse_moves = |cmds: &[Cmd]| cmds.iter().filter(|c| c[0..2] != [0, 0]).count();
        let walled = realize(&events, Color::Red, Takers::Fastest, false).expect("a route");
        let cleared = realize(&events, Color::Red, Takers::Fastest, true).expect("a route");
        for cmds in [&walled, &cleared] {
            let board = replay(cmds);
            assert_eq!(
                board.piece_at(sq(2, 4)).map(|p| p.kind),
                Some(PieceKind::Horse)
            );
        }
        assert!(horse_moves(&walled) >= 14, "{walled:?}");
        assert!(cleared.len() <= 10, "{cleared:?}");
        // A blue soldier moved, and no red piece but the waiting ones.
        assert!(cleared.iter().any(|c| c[0] == 6), "{cleared:?}");
    }

    #[test]
    fn the_other_side_steps_out_of_a_route_on_its_waiting_moves() {
        // The red horse's way to (7, 5) is walled by blue soldiers; blue has to move
        // while it walks, and its soldiers stepping aside cost no move.
        let events = [Event::Reach {
            piece: sq(0, 1),
            to: sq(7, 5),
        }];
        let walled = realize(&events, Color::Blue, Takers::Fastest, false).expect("a game");
        let cleared = realize(&events, Color::Blue, Takers::Fastest, true).expect("a game");
        let horse_at = |cmds: &[Cmd]| {
            let board = replay(cmds);
            assert_eq!(board.side_to_move(), Color::Blue);
            board.piece_at(sq(7, 5)).map(|p| (p.color, p.kind))
        };
        // Every way in is behind a blue soldier's leg: without them stepping aside, the
        // horse does not get there.
        assert_eq!(horse_at(&walled), None, "{walled:?}");
        assert_eq!(
            horse_at(&cleared),
            Some((Color::Red, PieceKind::Horse)),
            "{cleared:?}"
        );
        assert!(cleared.len() <= 12, "{cleared:?}");
        // Blue soldiers of row 6 moved, and every red move was the horse's.
        assert!(cleared.iter().any(|c| c[0] == 6), "{cleared:?}");
        let mut horse = [0, 1];
        for c in cleared.iter().step_by(2) {
            assert_eq!(c[..2], horse, "{cleared:?}");
            horse = [c[2], c[3]];
        }
    }

    #[test]
    fn a_taken_piece_may_step_aside_instead() {
        let events = [Event::Capture {
            by: sq(3, 0),
            victim: sq(6, 0),
        }];
        assert_eq!(
            takers(&events),
            vec![Takers::Fastest, Takers::Aside],
            "a soldier taken"
        );
        let captain = [Event::Capture {
            by: sq(0, 0),
            victim: sq(9, 4),
        }];
        assert_eq!(takers(&captain), vec![Takers::Fastest, Takers::AsTold]);
        let taken = realize(&events, Color::Red, Takers::Fastest, false).expect("a route");
        let aside = realize(&events, Color::Red, Takers::Aside, false).expect("a route");
        let (a, b) = (replay(&taken), replay(&aside));
        let red = a.piece_at(sq(6, 0)).map(|p| (p.color, p.kind));
        assert_eq!(red, Some((Color::Red, PieceKind::Soldier)));
        assert!(b.is_empty(sq(6, 0)));
        assert_eq!(a.pieces().count(), 31);
        assert_eq!(b.pieces().count(), 32, "nothing taken");
        assert!(aside.len() < taken.len(), "{aside:?} {taken:?}");
    }
}
