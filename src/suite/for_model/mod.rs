//! Files built for the statement's model ([`crate::model::statement`]): each one game from the start,
//! grown by a greedy search that values only the cells no earlier file reaches: the
//! model's, and those of the move table's map ([`crate::model::table`]) the files built
//! against the catalogue leave,
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
//! A file can instead open by staging the cells the suite leaves, one after the other
//! ([`crate::suite::staging`], with the positions of `scenes`): a greedy search seldom
//! brings several pieces far from where play takes them at once.
//!
//! No catalogue, no mutant: what this part of the suite is worth is measured on wrong
//! programs it never saw.
//!
//! - `candidates`: the continuations tried at each step: missions, meetings, invalid
//!   commands.
//! - `ending`: the end by the chosen kind, and the commands after it.
//! - `far_missions`: pieces routed far for the refusals and the aliased squares.
//! - `scenes`: the positions that reach a cell, for a file that opens by staging them.

mod candidates;
mod ending;
mod far_missions;
mod scenes;

use crate::generate::case::{cmd_of, Cmd};
use crate::judge::board::Board;
use crate::judge::piece::{Color, Piece, PieceKind, Square};
use crate::judge::rules;
use crate::model::statement::{Cell, Counter};
use crate::model::table;
use crate::suite::staging;
use crate::sys::rng::Rng;

/// Commands of the growing part, at most.
const GROW: usize = 900;
/// Commands of the search for the end, at most.
const END_BUDGET: usize = 200;
/// Commands after the end, at least (when there is room).
const AFTER_END: usize = 24;
/// Steps without a gain after which the search goes on to the end.
const PATIENCE: usize = 30;

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
    /// The move table's map of the game, and how often the suite reaches each of its
    /// cells, this file included: a cell of it no file reaches is worth one too.
    map: table::Counter,
    map_hits: &'a mut Vec<u64>,
    rng: Rng,
    /// The side and kind that end the game.
    ender: (Color, PieceKind),
    jobs: usize,
    room: usize,
    /// Whether captures are worth a cell each, down to [`THIN_FLOOR`]: a thinned
    /// board, for the last cells a crowded one hides (a check alone from a back row).
    thin: bool,
}

/// How a file for the model opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening<'a> {
    /// The search from the start.
    Crowded,
    /// The search, taking pieces first (the ender's last piece and captains aside).
    Thinned,
    /// The cells these model hits and map hits leave (those of the whole suite),
    /// staged one after the other ([`crate::suite::staging`]), each from the position
    /// the one before leaves; then the search, thinned.
    Staged(&'a [u64], &'a [u64]),
}

/// One file for the model, after the files whose model hits are `hits` and map hits
/// `map_hits` (both updated with this one's): a game of at most `room` commands ended
/// by `ender` taking the captain, if it can, opened as `opening` says.
pub fn file(
    hits: &mut Vec<u64>,
    map_hits: &mut Vec<u64>,
    ender: (Color, PieceKind),
    seed: u64,
    jobs: usize,
    room: usize,
    opening: Opening,
) -> Vec<Cmd> {
    let mut s = Search {
        counter: Counter::new(),
        cmds: Vec::new(),
        hits,
        map: table::Counter::new(),
        map_hits,
        rng: Rng::new(seed),
        ender,
        jobs,
        room,
        thin: opening != Opening::Crowded,
    };
    if let Opening::Staged(left, map_left) = opening {
        s.stage_left(left, map_left);
    }
    s.grow(GROW.min(room.saturating_sub(END_BUDGET / 4 + AFTER_END)));
    s.end();
    s.after_end();
    s.cmds
}

/// Whether `cell` is still wanted.
fn wanted(hits: &[u64], cell: Cell) -> bool {
    cell.index().is_some_and(|i| hits[i] == 0)
}

/// Whether the map's `cell` is still wanted: reachable, and reached by no file.
fn map_wanted(map_hits: &[u64], cell: table::Cell) -> bool {
    cell.reachable() && map_hits[cell.index()] == 0
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
        // The loser keeps a piece besides its captain, for the commands after the end.
        let loser = |q: &Piece| q.color != side && q.kind != PieceKind::Captain;
        let theirs = board.pieces().filter(|(_, q)| loser(q)).count();
        !(p.color == side && p.kind == kind && left <= 1 || loser(&p) && theirs <= 1)
    }

    /// New cells per command of `cont`: the gain up to its last new cell, and how many
    /// commands that takes; `None` when it may not be played.
    fn score(&self, cont: &[Cmd]) -> Option<(u64, usize)> {
        let mut counter = self.counter.clone();
        let mut map = self.map.clone();
        let mut seen: Vec<usize> = Vec::new();
        let mut seen_map: Vec<usize> = Vec::new();
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
            map.play(c, |cell| {
                if map_wanted(self.map_hits, cell) && !seen_map.contains(&cell.index()) {
                    seen_map.push(cell.index());
                }
            });
            let gain = (seen.len() + seen_map.len()) as u64 + bonus;
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
            let map_hits = &mut *self.map_hits;
            self.map.play(c, |cell| map_hits[cell.index()] += 1);
            self.cmds.push(c);
        }
    }

    /// The run of refusals the side to move can show here ([`Search::refusal_run`]),
    /// cut to the room under `limit`, closed by its legal move that scores best among
    /// `candidates` (or a quiet one); `None` when there is none to show.
    fn run_closed(
        &mut self,
        candidates: &[Vec<Cmd>],
        scores: &[Option<(u64, usize)>],
        limit: usize,
    ) -> Option<Vec<Cmd>> {
        let mut run = self.refusal_run();
        let room = limit.min(self.room).saturating_sub(self.cmds.len() + 1);
        run.truncate(room);
        if run.is_empty() {
            return None;
        }
        let game = self.counter.game();
        let closing = (0..candidates.len())
            .filter(|&i| candidates[i].len() == 1)
            .filter(|&i| {
                let c = candidates[i][0];
                game.validate(c[0], c[1], c[2], c[3]).is_ok()
            })
            .filter_map(|i| scores[i].map(|s| (i, s.0)))
            .max_by_key(|&(i, gain)| (gain, std::cmp::Reverse(i)))
            .map(|(i, _)| candidates[i][0]);
        let board = self.board().clone();
        let close = closing.or_else(|| self.quiet(&board, &[]))?;
        run.push(close);
        Some(run)
    }

    /// Each cell `left` and `map_left` have not reached, and this game neither, that a
    /// scene reaches ([`scenes`]), staged from where the game stands, in the model's
    /// order and then the map's; a staging that does not reach its cell is left out.
    fn stage_left(&mut self, left: &[u64], map_left: &[u64]) {
        let mut rng = Rng::new(self.rng.next_u64());
        // The wrapped moves by the square they leave from: a piece walked there serves
        // every cell of its square.
        let mut cells: Vec<Cell> = crate::model::statement::cells()
            .iter()
            .copied()
            .filter(|&cell| wanted(left, cell))
            .collect();
        cells.sort_by_key(|c| match *c {
            Cell::Wrap(kind, _, edge, _) => Some((edge, kind)),
            _ => None,
        });
        for cell in cells {
            if !wanted(self.hits, cell) {
                continue;
            }
            let scenes = scenes::for_model(cell, self.board());
            let reaches = |cmds: &[Cmd]| {
                let mut counter = self.counter.clone();
                let mut hit = false;
                for &c in cmds {
                    counter.play(c, |x| hit |= x == cell);
                }
                hit
            };
            if let Some(cmds) = self.staged(&scenes, &mut rng, reaches) {
                self.push(&cmds);
            }
        }
        for &cell in table::cells() {
            if !map_wanted(map_left, cell) || !map_wanted(self.map_hits, cell) {
                continue;
            }
            let scenes = scenes::for_map(cell, self.board());
            let reaches = |cmds: &[Cmd]| {
                let mut map = self.map.clone();
                let mut hit = false;
                for &c in cmds {
                    map.play(c, |x| hit |= x == cell);
                }
                hit
            };
            if let Some(cmds) = self.staged(&scenes, &mut rng, reaches) {
                self.push(&cmds);
            }
        }
    }

    /// The staging of the first of `scenes` that `reaches` its cell from where the game
    /// stands, with room left for the end.
    fn staged(
        &self,
        scenes: &[staging::Scene],
        rng: &mut Rng,
        reaches: impl Fn(&[Cmd]) -> bool,
    ) -> Option<Vec<Cmd>> {
        let room = self.room.saturating_sub(self.cmds.len() + END_BUDGET);
        scenes
            .iter()
            .filter_map(|scene| staging::stage(self.counter.game(), scene, rng))
            .find(|cmds| cmds.len() <= room && reaches(cmds))
    }

    fn candidates(&mut self) -> Vec<Vec<Cmd>> {
        let board = self.board().clone();
        let mut out: Vec<Vec<Cmd>> = rules::legal_moves(&board)
            .into_iter()
            .map(|m| vec![cmd_of(m.from, m.to)])
            .collect();
        out.extend(self.invalid());
        out.extend(self.missions());
        out.extend(self.refusal_missions());
        // The move table's missions, while the map has a cell no file reaches.
        let cells = table::cells();
        if cells.iter().any(|&c| map_wanted(self.map_hits, c)) {
            let mut rng = Rng::new(self.rng.next_u64());
            let hits: &[u64] = self.map_hits;
            let worth = |c| u64::from(map_wanted(hits, c));
            out.extend(super::missions::missions(
                self.counter.game(),
                worth,
                &mut rng,
            ));
        }
        out
    }

    /// Greedy steps until `limit` commands, or [`PATIENCE`] steps without a gain.
    fn grow(&mut self, limit: usize) {
        let mut idle = 0;
        while self.cmds.len() < limit && idle < PATIENCE && !self.board().is_over() {
            let mut candidates = self.candidates();
            let mut scores = self.scores(&candidates);
            // The refusals the side can show here, in one run closed by its best move.
            if let Some(run) = self.run_closed(&candidates, &scores, limit) {
                scores.push(self.score(&run));
                candidates.push(run);
            }
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
}

/// `board` with `piece` on `s` (a routed piece's board has it lifted).
fn with(board: &Board, s: Square, piece: Piece) -> Board {
    let mut b = board.clone();
    b.put(s, Some(piece));
    b
}

/// `board` with `side`'s captain on `s`.
fn with_captain(board: &Board, s: Square, side: Color) -> Board {
    with(
        board,
        s,
        Piece {
            color: side,
            kind: PieceKind::Captain,
        },
    )
}
