//! `gen --suite`: a small test set built for coverage and redundancy, so that it catches
//! the mistakes of the catalogue and, as far as can be measured, those next to them.
//!
//! Each file is one game, written by a greedy search. At every step it tries candidate
//! continuations of the game (every legal move; the invalid commands a careless solution
//! might take for moves: blocked ones, onto its own pieces, with the opponent's pieces,
//! of a wrong shape, from a square just left; and short games played on from here by
//! `stress`'s steering writers), plays each on the judge, on the coverage map
//! ([`super::coverage`]) and on the mutants of the mistakes, and keeps the one that
//! gains the most per command, up to its last gain. A gain is a kill of a mistake that
//! fewer than two files kill so far (one that no file kills is worth more), or a hit of a
//! coverage cell reached fewer than a few times in the whole suite. When nothing gains, a
//! few moves of a steering writer take the game on to new situations.
//!
//! Each file ends: the game's end is sought where the winner's captain stands attacked,
//! the loser could take the piece that took the captain, another winner's piece covers
//! the taken square and the winner covers (0, 0) (the squares a solution that still
//! looks for check might look at), relaxing that as the room shrinks; commands after the
//! end follow, first the moves a solution that plays on would accept. So every file
//! kills what it can from the start of a game, and every mistake should die in two files
//! of three.
//!
//! Then the suite is audited against its mistakes: when the greedy files let one
//! through, the last file is written again, opening with a witness of the survivors
//! (`repair`).
//!
//! Scoring is cheap because a slip in one row of the table can only change the answer to
//! a command that uses that row: a move by it, or a piece standing where that row would
//! threaten a captain. A slip's mutant is right until it first answers differently, so
//! it stands where the judge stands: it is made from the judge's state for the commands
//! that touch its row, and played on them alone. The same seed always gives the same
//! bytes, whatever the number of threads.

use super::catalogue::{Fault, Mistake};
use super::coverage::{Cell, Counter};
use super::ghost;
use super::grown::{Offset, Slip, Use};
use super::lone;
use super::mission;
use super::mutant::{self, Answer, Cmd, Mutant};
use crate::generate::case::cmd_of;
use crate::generate::games::Writer;
use crate::generate::mode::Mode;
use crate::generate::position::rule_targets;
use crate::judge::board::Board;
use crate::judge::game::{Game, Invalid};
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules::{self, Reach, REACH};
use crate::sys::rng::Rng;
use std::collections::HashMap;

/// Commands per file: the official maximum.
pub const Q: usize = 1000;
/// The number of files built against the catalogue.
pub const DEFAULT_FILES: usize = 3;
/// The default number of files in all: the usual number of test points on Chinese
/// online judges.
pub const DEFAULT_TOTAL: usize = 20;
/// Commands of a file's growing part, at most: room enough to reach what the greedy
/// search can, and pieces enough left for an end with its situations.
const GROW: usize = 850;
/// Commands of the search for the end, at most.
const END_BUDGET: usize = 100;
/// Commands after the end of the game, at least.
const AFTER_END: usize = 40;
/// Commands after the end a candidate may have (what a solution that plays on accepts).
const AFTER_END_TRIED: usize = 3;
/// Moves a steering writer plays when no candidate gains anything.
const STEER: usize = 4;
/// Plies of each played-on candidate game.
const PLAYOUT: u64 = 10;
/// Played-on candidates per steering mode and step.
const PLAYOUTS: usize = 3;
/// Steps without a gain after which the search goes on to the end.
const PATIENCE: usize = 40;
/// Captures a file may make after its opening, at least, however many the opening made.
const OWN_CAPTURES: usize = 6;
/// Invalid candidates of each kind but the blocked ones (which are all tried).
const INVALID_EACH: usize = 6;

/// What the greedy search values: kills of the mistakes, hits of the coverage map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A kill of a mistake that no earlier file kills.
    pub first_kill: u64,
    /// A kill of a mistake that one earlier file kills.
    pub second_kill: u64,
    /// A hit of a coverage cell reached fewer than `hits` times so far.
    pub cell: u64,
    /// How often each coverage cell should be reached in the whole suite.
    pub hits: u64,
    /// What a capture costs with all 32 pieces on the board; with fewer, it costs more
    /// in proportion (pieces are what every later test needs).
    pub capture: u64,
    /// While a file grows, captures stop when this many pieces are left (the end needs
    /// some, and every blocked move and stopped check needs them).
    pub floor: usize,
}

/// The weights `gen --suite` uses: chosen by the held-out measurement of
/// `scripts/bench-heldout.sh` (the setters' guide says how).
pub const WEIGHTS: Weights = Weights {
    first_kill: 100,
    second_kill: 40,
    cell: 10,
    hits: 3,
    capture: 8,
    floor: 20,
};

/// What a suite is built from.
#[derive(Clone, Copy, Debug)]
pub struct Plan<'a> {
    /// The seed: the same seed, the same bytes.
    pub seed: u64,
    /// How many files are built against the mistakes.
    pub files: usize,
    /// How many files in all, at most: the files after the first `files` are built for
    /// the statement's model ([`super::cover`]), while its cells or endings are left.
    pub total: usize,
    /// The mistakes it is built against (the whole catalogue, or part of it when the
    /// rest is held out to measure it).
    pub mistakes: &'a [Mistake],
    /// What the search values.
    pub weights: Weights,
    /// Parallel threads (the result does not depend on them).
    pub jobs: usize,
}

impl Plan<'static> {
    /// The plan of `gen --suite` of `total` files at most: the first
    /// [`DEFAULT_FILES`] against the whole catalogue with the chosen weights, the
    /// others for the statement's model.
    pub fn new(seed: u64, total: usize, jobs: usize) -> Plan<'static> {
        Plan {
            seed,
            files: total.min(DEFAULT_FILES),
            total,
            mistakes: Mistake::all(),
            weights: WEIGHTS,
            jobs,
        }
    }
}

/// One file of the suite: its commands and what it has besides its kills.
#[derive(Clone, Debug)]
pub struct SuiteFile {
    /// The commands.
    pub cmds: Vec<Cmd>,
    /// What else it has, in words.
    pub features: Vec<String>,
}

/// What the files written so far do.
#[derive(Clone, Debug)]
struct Tally {
    /// For each mistake (by index), how many files kill it.
    files: Vec<u8>,
    /// For each coverage cell, how often the files reach it.
    hits: Vec<u64>,
}

/// Where a slip's row is used: a move by it, or a threat on a captain by it.
type RowKey = (Use, PieceKind, Offset);

/// The row of `kind`'s table that goes by `delta`, if any: the leap itself, or the car's
/// direction.
fn row_of(kind: PieceKind, (dx, dy): (i8, i8)) -> Option<Offset> {
    match REACH[kind.index()] {
        Reach::Leaps(leaps) => leaps
            .iter()
            .any(|l| l.delta == (dx, dy))
            .then_some((dx, dy)),
        Reach::Rays(_) => ((dx == 0) != (dy == 0)).then_some((dx.signum(), dy.signum())),
    }
}

/// The rows a command uses: the moving piece's (if its delta is a row), and after a
/// legal move that does not end the game, every row from which a piece stands towards
/// the other side's captain.
fn touched(before: &Board, c: Cmd, after: &Board, legal: bool, out: &mut Vec<RowKey>) {
    out.clear();
    let from = Square::new(c[0], c[1]);
    let to = Square::new(c[2], c[3]);
    if let (Some(from), Some(to)) = (from, to) {
        if let Some(p) = before.piece_at(from) {
            if let Some(dir) = row_of(p.kind, to.delta_from(from)) {
                out.push((Use::Move, p.kind, dir));
            }
        }
    }
    if !legal || after.is_over() {
        return;
    }
    for (from, p) in after.pieces() {
        if let Some(captain) = after.captain(p.color.opponent()) {
            if let Some(dir) = row_of(p.kind, captain.delta_from(from)) {
                out.push((Use::Check, p.kind, dir));
            }
        }
    }
}

/// Whether `c` is a legal move that takes a captain, in `game`'s position.
fn takes_captain(game: &Game, c: Cmd) -> bool {
    game.validate(c[0], c[1], c[2], c[3]).is_ok()
        && Square::new(c[2], c[3])
            .and_then(|s| game.board().piece_at(s))
            .is_some_and(|p| p.kind == PieceKind::Captain)
}

/// What continuations may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Allowed {
    /// Invalid commands.
    invalid: bool,
    /// The move that ends the game.
    end: bool,
    /// Captures only while more pieces than this stand on the board.
    floor: usize,
}

impl Allowed {
    /// Whether `c` may be played in `game`: a capture of a captain only when the end is
    /// allowed, other captures only above the floor.
    fn may(&self, game: &Game, c: Cmd) -> bool {
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

/// What one candidate continuation gains.
#[derive(Clone, Copy, Debug, Default)]
struct Score {
    gain: u64,
    /// Commands up to and including the last gain.
    used: usize,
    /// Whether the game ends within them.
    ends: bool,
    /// How many of the end's situations the end has (winner's captain attacked, taker
    /// attacked, taken square covered, corner covered).
    situations: usize,
}

impl Score {
    /// Whether `self` gains more per command than `other`.
    fn beats(&self, other: &Score) -> bool {
        // gain / (used + 2), compared without division.
        self.gain * (other.used as u64 + 2) > other.gain * (self.used as u64 + 2)
    }
}

/// A continuation being played from the search's state: the judge (with its coverage
/// counter), the mutant without a mistake that stands where the judge does, and the
/// mutants of the other (stateful) mistakes alive in this file.
#[derive(Clone)]
struct Run {
    counter: Counter,
    base: Mutant,
    others: Vec<Option<Mutant>>,
    /// Slips (indices into the search's list) killed during this run.
    dead: Vec<usize>,
    rows: Vec<RowKey>,
}

impl Run {
    /// Plays `c`, calling `cell` for every coverage cell it reaches and `kill` for every
    /// mistake alive so far that answers it differently from the judge.
    fn play(
        &mut self,
        s: &SuiteSearch,
        c: Cmd,
        mut cell: impl FnMut(Cell),
        mut kill: impl FnMut(Mistake),
    ) {
        let before = self.counter.game().board().clone();
        self.counter.play(c, &mut cell);
        let prior = self.base.clone();
        let answer: Answer = self.base.play(c);
        touched(
            &before,
            c,
            self.counter.game().board(),
            answer.is_some(),
            &mut self.rows,
        );
        for key in &self.rows {
            for &i in s.by_row.get(key).map_or(&[][..], |v| &v[..]) {
                if !s.slip_alive[i] || self.dead.contains(&i) {
                    continue;
                }
                let m = s.slips[i].0;
                if prior.refaulted(m).play(c) != answer {
                    self.dead.push(i);
                    kill(m);
                }
            }
        }
        for o in &mut self.others {
            if let Some(m) = o {
                if m.play(c) != answer {
                    if let Some(mistake) = m.mistake() {
                        kill(mistake);
                    }
                    *o = None;
                }
            }
        }
    }
}

/// A game being written, and what it has killed and reached so far.
struct SuiteSearch<'p> {
    plan: &'p Plan<'p>,
    run: Run,
    cmds: Vec<Cmd>,
    /// The targeted slips, and whether each is alive in this file.
    slips: Vec<(Mistake, Slip)>,
    slip_alive: Vec<bool>,
    /// The targeted slips by the row they are in.
    by_row: HashMap<RowKey, Vec<usize>>,
    /// For each mistake (by index), how many files kill it, this one included.
    files: Vec<u8>,
    /// For each coverage cell, how often the suite reaches it, this file included.
    hits: Vec<u64>,
    rng: Rng,
    /// The squares the last legal moves left.
    left: Vec<Square>,
    /// Whether this is a witness's search, which stops at the first kill.
    witness: bool,
    /// Captures stop while this many pieces are left.
    floor: usize,
}

impl<'p> SuiteSearch<'p> {
    fn new(plan: &'p Plan<'p>, tally: &Tally, seed: u64, witness: bool) -> SuiteSearch<'p> {
        let base = Mutant::new(None);
        let mut slips = Vec::new();
        let mut others = Vec::new();
        for &m in plan.mistakes {
            match m.fault() {
                Fault::Slip(s) => slips.push((m, s)),
                _ => others.push(Some(base.refaulted(m))),
            }
        }
        let mut by_row: HashMap<RowKey, Vec<usize>> = HashMap::new();
        for (i, (_, s)) in slips.iter().enumerate() {
            by_row.entry((s.at, s.kind, s.dir)).or_default().push(i);
        }
        SuiteSearch {
            plan,
            run: Run {
                counter: Counter::new(),
                base,
                others,
                dead: Vec::new(),
                rows: Vec::new(),
            },
            cmds: Vec::new(),
            slip_alive: vec![true; slips.len()],
            slips,
            by_row,
            files: tally.files.clone(),
            hits: tally.hits.clone(),
            rng: Rng::new(seed),
            left: Vec::new(),
            witness,
            floor: plan.weights.floor,
        }
    }

    fn game(&self) -> &Game {
        self.run.counter.game()
    }

    /// Whether the file's work is done: for a witness's search, every targeted mistake
    /// killed in it.
    fn done(&self) -> bool {
        self.witness && self.run.others.is_empty() && !self.slip_alive.iter().any(|&a| a)
    }

    fn over(&self) -> bool {
        self.game().board().is_over()
    }

    fn room(&self) -> usize {
        Q - self.cmds.len()
    }

    /// What killing `m` is worth now.
    fn kill_gain(&self, m: Mistake) -> u64 {
        match self.files[m.index()] {
            0 => self.plan.weights.first_kill,
            1 => self.plan.weights.second_kill,
            _ => 0,
        }
    }

    /// What one more hit of `cell` is worth, `extra` hits after those counted: more the
    /// less it is reached, nothing once it is reached often enough.
    fn cell_gain(&self, cell: Cell, extra: u64) -> u64 {
        // A witness's search wants a short way to its one mistake: the cells of each
        // starting piece and of the invalid commands' cross product would take it
        // round the board.
        if self.witness && matches!(cell, Cell::Piece(..) | Cell::Cross(..)) {
            return 0;
        }
        let reached = self.hits[cell.index()] + extra;
        if cell.reachable() {
            self.plan.weights.cell * self.plan.weights.hits.saturating_sub(reached)
        } else {
            0
        }
    }

    /// What `cont` gains, and how many of its commands that takes.
    fn score(&self, cont: &[Cmd]) -> Score {
        let mut run = self.run.clone();
        run.dead.clear();
        let mut extra: Vec<(usize, u64)> = Vec::new();
        let mut score = Score::default();
        let mut net: i64 = 0;
        for (i, &c) in cont.iter().enumerate() {
            let before = run.counter.game().board();
            let pieces = before.pieces().count().max(1) as u64;
            let takes = !before.is_over()
                && Square::new(c[2], c[3]).is_some_and(|t| !before.is_empty(t))
                && run.counter.game().validate(c[0], c[1], c[2], c[3]).is_ok();
            let mut gain = 0;
            let mut killing = 0;
            let mut situations = 0;
            run.play(
                self,
                c,
                |cell| {
                    let at = cell.index();
                    let n = match extra.iter_mut().find(|(j, _)| *j == at) {
                        Some((_, n)) => n,
                        None => {
                            extra.push((at, 0));
                            &mut extra.last_mut().expect("just pushed").1
                        }
                    };
                    gain += self.cell_gain(cell, *n);
                    *n += 1;
                    if matches!(
                        cell,
                        Cell::WinnerAttacked
                            | Cell::TakerAttacked
                            | Cell::SquareCovered
                            | Cell::CornerCovered
                    ) {
                        situations += 1;
                    }
                },
                |m| killing += self.kill_gain(m),
            );
            gain += killing;
            if run.counter.game().board().is_over() && !score.ends {
                score.ends = true;
                score.situations = situations;
                // The end counts as a gain of its own: it is what the end phase seeks.
                score.used = i + 1;
            }
            if takes {
                net -= (self.plan.weights.capture * 32 / pieces) as i64;
            }
            if gain > 0 {
                net += gain as i64;
                if net > score.gain as i64 {
                    score.gain = net as u64;
                    score.used = i + 1;
                }
            }
        }
        score
    }

    /// The scores of all `candidates`, on the plan's threads.
    fn scores(&self, candidates: &[Vec<Cmd>]) -> Vec<Score> {
        super::cover::on_threads(self.plan.jobs, candidates, |c| self.score(c))
    }

    /// Plays `cont` for good: the judge, the map, the mutants.
    fn push(&mut self, cont: &[Cmd]) {
        let mut run = self.run.clone();
        run.dead.clear();
        let mut cells = Vec::new();
        let mut kills = Vec::new();
        for &c in cont {
            let legal = self.game().validate(c[0], c[1], c[2], c[3]).is_ok();
            if legal {
                if let Some(from) = Square::new(c[0], c[1]) {
                    self.left.insert(0, from);
                    self.left.truncate(3);
                }
            }
            run.play(self, c, |cell| cells.push(cell), |m| kills.push(m));
            self.cmds.push(c);
        }
        for cell in cells {
            self.hits[cell.index()] += 1;
        }
        for m in kills {
            self.files[m.index()] = self.files[m.index()].saturating_add(1);
        }
        for &i in &run.dead {
            self.slip_alive[i] = false;
        }
        run.others.retain(Option::is_some);
        self.run = run;
    }

    /// `cont` cut to what is allowed: invalid commands dropped (they change nothing, so
    /// the rest stays legal) unless allowed; cut before the move that ends the game
    /// unless allowed, else a few commands after it.
    fn allowed(&self, cont: &[Cmd], allowed: Allowed) -> Vec<Cmd> {
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
    fn written(&mut self, mode: Mode, plies: u64) -> Vec<Cmd> {
        let mut rng = Rng::new(self.rng.next_u64());
        Writer::continuing(&mut rng, self.game().clone())
            .play(mode, plies)
            .cmds()
    }

    /// A game played on from here by a steering writer in `mode`, cut to what is allowed.
    fn playout(&mut self, mode: Mode, plies: u64, allowed: Allowed) -> Vec<Cmd> {
        let cont = self.written(mode, plies);
        self.allowed(&cont, allowed)
    }

    /// Up to `n` of `items`, drawn without replacement.
    fn some(&mut self, mut items: Vec<Cmd>, n: usize) -> Vec<Cmd> {
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
    fn invalid_singles(&mut self) -> Vec<Vec<Cmd>> {
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
    fn candidates(&mut self, allowed: Allowed, modes: &[Mode]) -> Vec<Vec<Cmd>> {
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
        let missions = mission::missions(&game, |cell| self.cell_gain(cell, 0) > 0, &mut rng);
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

    /// Up to [`STEER`] commands (no further than `limit`) of a steering writer in
    /// `mode`, or when it has nothing allowed to play, one allowed legal move. Returns
    /// whether anything was played.
    fn wander(&mut self, mode: Mode, allowed: Allowed, limit: usize) -> bool {
        let room = limit.min(Q).saturating_sub(self.cmds.len()).min(STEER);
        let mut steps = self.playout(mode, STEER as u64, allowed);
        if steps.is_empty() {
            let game = self.game().clone();
            let moves: Vec<Cmd> = rules::legal_moves(game.board())
                .into_iter()
                .map(|m| cmd_of(m.from, m.to))
                .filter(|&c| allowed.may(&game, c))
                .collect();
            steps.extend(self.rng.pick(&moves));
        }
        steps.truncate(room);
        self.push(&steps);
        !steps.is_empty()
    }

    /// One greedy step: the candidate that gains the most per command, up to its last
    /// gain, if any gains; else a few moves of a steering writer. Returns whether it
    /// gained, and `None` when it could not go on at all.
    fn step(
        &mut self,
        allowed: Allowed,
        modes: &[Mode],
        steer: Mode,
        limit: usize,
    ) -> Option<bool> {
        let candidates = self.candidates(allowed, modes);
        let scores = self.scores(&candidates);
        let best = (0..scores.len())
            .filter(|&i| scores[i].gain > 0)
            .reduce(|b, i| if scores[i].beats(&scores[b]) { i } else { b });
        if let Some(b) = best {
            let used = scores[b].used.min(limit.saturating_sub(self.cmds.len()));
            if used > 0 {
                let chosen = candidates[b][..used].to_vec();
                self.push(&chosen);
                return Some(true);
            }
        }
        self.wander(steer, allowed, limit).then_some(false)
    }

    /// Greedy steps until `limit` commands, or [`PATIENCE`] steps without a gain.
    fn grow(&mut self, limit: usize) {
        let debug = std::env::var_os("SUITE_DEBUG").is_some();
        let everything = Allowed {
            invalid: true,
            end: false,
            floor: self.floor,
        };
        let mut idle = 0;
        let mut turn = 0;
        while self.cmds.len() < limit && idle < PATIENCE && !self.over() && !self.done() {
            let steer = MODES[turn % MODES.len()];
            turn += 1;
            if debug && self.cmds.len() % 25 < 2 {
                eprintln!(
                    "grow {} pieces {} idle {idle}",
                    self.cmds.len(),
                    self.game().board().pieces().count()
                );
            }
            match self.step(everything, &MODES, steer, limit) {
                Some(true) => idle = 0,
                Some(false) => idle += 1,
                None => break,
            }
        }
    }

    /// Ends the game, preferring an end with all four situations a solution that still
    /// looks for check might find (the winner's captain attacked, the taker attacked,
    /// the taken square covered, the corner covered), fewer as the `budget` runs out. A
    /// capture of a captain with enough situations is taken; else the game goes on by
    /// the move that brings either side nearest such an end ([`promise`]). Out of
    /// budget, a decisive game to the end.
    fn end(&mut self, budget: usize) {
        let start = self.cmds.len();
        let until = start + budget;
        let mut turn = 0;
        // The side that has won fewer games of the suite so far should win this one.
        let wins = |c: Color| self.hits[Cell::Wins(c).index()];
        let winner = match wins(Color::Red).cmp(&wins(Color::Blue)) {
            std::cmp::Ordering::Less => Color::Red,
            std::cmp::Ordering::Greater => Color::Blue,
            std::cmp::Ordering::Equal => Color::ALL[self.rng.index(2)],
        };
        while !self.over() && self.cmds.len() < until && self.room() > AFTER_END {
            let spent = self.cmds.len() - start;
            let wanted = 4 - (4 * spent / budget.max(1)).min(4);
            let game = self.game().clone();
            let moves: Vec<Cmd> = rules::legal_moves(game.board())
                .into_iter()
                .map(|m| cmd_of(m.from, m.to))
                .collect();
            let (ends, going_on): (Vec<Cmd>, Vec<Cmd>) =
                moves.into_iter().partition(|&c| takes_captain(&game, c));
            let ends = if game.side_to_move() == winner {
                ends
            } else {
                Vec::new()
            };
            let ends: Vec<Vec<Cmd>> = ends.into_iter().map(|c| vec![c]).collect();
            let scores = self.scores(&ends);
            let best = (0..ends.len()).reduce(|b, i| {
                let (x, y) = (&scores[i], &scores[b]);
                if (x.situations, x.gain) > (y.situations, y.gain) {
                    i
                } else {
                    b
                }
            });
            if std::env::var_os("SUITE_DEBUG").is_some() {
                eprintln!(
                    "end at {} wanted {wanted} promise {} best {:?}",
                    self.cmds.len(),
                    promise(game.board(), winner),
                    best.map(|b| scores[b])
                );
            }
            if let Some(b) = best.filter(|&b| scores[b].situations >= wanted) {
                self.push(&ends[b]);
                break;
            }
            let promised: Vec<usize> = going_on
                .iter()
                .map(|c| {
                    let mut after = game.clone();
                    let _ = after.play(c[0], c[1], c[2], c[3]);
                    promise(after.board(), winner)
                })
                .collect();
            let top = promised.iter().copied().max().unwrap_or(0);
            if std::env::var_os("SUITE_DEBUG").is_some() {
                eprintln!("  top {top} of {} moves; {}", going_on.len(), game.board());
            }
            if top == 0 {
                // No piece near a captain yet: the captains walk towards each other, or
                // pieces go after them.
                turn += 1;
                let going_on = Allowed {
                    invalid: false,
                    end: false,
                    floor: 0,
                };
                let mode = [Mode::Captains, Mode::Attacks][turn % 2];
                if !self.wander(mode, going_on, until) {
                    break;
                }
                continue;
            }
            let best: Vec<Cmd> = going_on
                .iter()
                .zip(&promised)
                .filter(|(_, &p)| p == top)
                .map(|(&c, _)| c)
                .collect();
            match self.rng.pick(&best) {
                Some(c) => self.push(&[c]),
                None => break,
            }
        }
        // Out of budget: a decisive game to the end.
        let decisive = Allowed {
            invalid: true,
            end: true,
            floor: 0,
        };
        while !self.over() && self.room() > 0 {
            let mut steps = self.playout(Mode::Decisive, 40, decisive);
            steps.truncate(self.room());
            if steps.is_empty() {
                break;
            }
            self.push(&steps);
        }
    }

    /// Commands after the end: first single commands that gain (moves a solution that
    /// plays on accepts, by either side), then a writer's commands after the end, up to
    /// [`Q`].
    fn after_end(&mut self) {
        while self.room() > 0 {
            let singles = self.after_end_singles();
            let scores = self.scores(&singles);
            let best = (0..scores.len())
                .filter(|&i| scores[i].gain > 0)
                .reduce(|b, i| if scores[i].beats(&scores[b]) { i } else { b });
            match best {
                Some(i) => self.push(&singles[i].clone()),
                None => break,
            }
        }
        let rest = self.written(Mode::Decisive, self.room() as u64);
        self.push(&rest);
    }

    /// After the end: every piece sent where its rule would take it.
    fn after_end_singles(&self) -> Vec<Vec<Cmd>> {
        let board = self.game().board();
        board
            .pieces()
            .flat_map(|(from, _)| {
                rule_targets(board, from)
                    .into_iter()
                    .map(move |to| vec![cmd_of(from, to)])
            })
            .collect()
    }
}

/// How near `side` stands to winning with the situations a solution that still looks
/// for check might find: its attackers of the other captain (two count: one takes, one
/// still covers the square), the other side attacking its captain, the other side
/// covering its own captain's square (so it could take the taker), its cover of (0, 0),
/// and its turn.
fn promise(board: &Board, side: Color) -> usize {
    let corner = Square::new(0, 0);
    let other = side.opponent();
    let (Some(target), Some(own)) = (board.captain(other), board.captain(side)) else {
        return 0;
    };
    let attackers = rules::attackers(board, target, side).len().min(2);
    if attackers == 0 {
        return 0;
    }
    let mut p = 2 * attackers;
    p += usize::from(rules::is_attacked(board, own, other));
    p += usize::from(rules::is_attacked(board, target, other));
    p += usize::from(corner.is_some_and(|c| rules::is_attacked(board, c, side)));
    p += usize::from(board.side_to_move() == side);
    p
}

/// The modes whose writers steer the search (not the decisive one, which would take
/// the pieces the end needs).
const MODES: [Mode; 4] = [Mode::Attacks, Mode::Blocked, Mode::Captains, Mode::Invalid];

/// One file from `seed`, after the files of `tally`, opening with the commands of
/// `opening`; for a witness, only up to the first kill.
fn file(plan: &Plan, tally: &Tally, seed: u64, witness: bool, opening: &[Cmd]) -> SuiteFile {
    let mut s = SuiteSearch::new(plan, tally, seed, witness);
    s.push(&opening[..opening.len().min(Q)]);
    // An opening that took many pieces (one that shows pieces kept when taken takes
    // each) leaves the file a few captures of its own all the same.
    let pieces = s.game().board().pieces().count();
    s.floor = s.floor.min(pieces.saturating_sub(OWN_CAPTURES));
    s.grow(GROW);
    if !s.done() {
        s.end(END_BUDGET);
        s.after_end();
    }
    SuiteFile {
        features: ending(&s.cmds).into_iter().collect(),
        cmds: s.cmds,
    }
}

/// Where the game of `cmds` ended, in words.
fn ending(cmds: &[Cmd]) -> Option<String> {
    let mut game = Game::new();
    let at = cmds.iter().position(|c| {
        let _ = game.play(c[0], c[1], c[2], c[3]);
        game.board().is_over()
    })?;
    let winner = game.board().winner()?;
    Some(format!(
        "the game ends at command {} ({winner} takes the captain); {} commands follow",
        at + 1,
        cmds.len() - at - 1
    ))
}

/// A game that exposes `mistake`: one file's greedy search against it alone, cut after
/// the first command on which it answers differently from the judge; `None` when the
/// search finds none.
pub fn exposing(mistake: Mistake, seed: u64) -> Option<Vec<Cmd>> {
    exposing_all(&[mistake], seed, 1)
}

/// A game that exposes as many of `mistakes` as it finds: first, of the pieces left out
/// of the look for check among them, as many as a game built to give a check by each
/// alone does ([`lone::tour`]: a greedy search seldom brings a given piece and a captain
/// together with nothing else in play), taking nothing; then, of the pieces kept when
/// taken, as many as a game built to show them does ([`ghost::tour`]: a greedy search
/// seldom takes a given piece and then brings the captain where it would threaten it);
/// then, of the others, as many as one greedy search against them alone finds from
/// there. Cut after the last command on which one of them first answers
/// differently from the judge; `None` when it exposes none. The same game whatever
/// `jobs`.
fn exposing_all(mistakes: &[Mistake], seed: u64, jobs: usize) -> Option<Vec<Cmd>> {
    let (built, rest): (Vec<Mistake>, Vec<Mistake>) =
        mistakes.iter().copied().partition(|&m| built_for(m));
    let shown = lone::tour(&[], &built, Q, seed);
    let mut cmds = if rest.is_empty() {
        shown
    } else {
        let plan = Plan {
            seed,
            files: 1,
            total: 1,
            mistakes: &rest,
            // Coverage too, a little: it takes the game where random play does not.
            weights: Weights {
                cell: 1,
                second_kill: 0,
                ..WEIGHTS
            },
            jobs,
        };
        file(&plan, &Tally::empty(), seed, true, &shown).cmds
    };
    let expected = mutant::judge_answers(&cmds);
    let at = mistakes
        .iter()
        .filter_map(|&m| mutant::first_difference(m, &cmds, &expected))
        .max()?;
    cmds.truncate(at + 1);
    Some(cmds)
}

/// Whether `m` is shown by a game built for it rather than found by the greedy search:
/// a piece kept when taken ([`ghost`]) or left out of the look for check ([`lone`]).
fn built_for(m: Mistake) -> bool {
    ghost::haunted(m).is_some() || lone::lonely(m).is_some()
}

/// The mistakes of `mistakes` that `cmds` kills.
pub fn killed_by(cmds: &[Cmd], mistakes: &[Mistake]) -> Vec<Mistake> {
    let expected = mutant::judge_answers(cmds);
    mistakes
        .iter()
        .copied()
        .filter(|&m| mutant::first_difference(m, cmds, &expected).is_some())
        .collect()
}

impl Tally {
    /// Nothing written yet.
    fn empty() -> Tally {
        Tally {
            files: vec![0; Mistake::all().len()],
            hits: vec![0; super::coverage::cells().len()],
        }
    }

    /// What `files` kill of `plan`'s mistakes and reach of the coverage map.
    fn of(plan: &Plan, files: &[SuiteFile]) -> Tally {
        let mut tally = Tally::empty();
        for f in files {
            tally.add(plan, f);
        }
        tally
    }

    /// Counts what `f` kills of `plan`'s mistakes and reaches of the coverage map.
    fn add(&mut self, plan: &Plan, f: &SuiteFile) {
        for m in killed_by(&f.cmds, plan.mistakes) {
            self.files[m.index()] = self.files[m.index()].saturating_add(1);
        }
        let mut counter = Counter::new();
        for &c in &f.cmds {
            counter.play(c, |cell| self.hits[cell.index()] += 1);
        }
    }

    /// The mistakes of `plan` no file kills.
    fn survivors(&self, plan: &Plan) -> Vec<Mistake> {
        plan.mistakes
            .iter()
            .copied()
            .filter(|m| self.files[m.index()] == 0)
            .collect()
    }
}

/// The seed of the `k`th file (from 1) of a suite of `seed`; the repairs' seeds follow
/// those of the files.
fn salt(seed: u64, k: u64) -> u64 {
    seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Repairs of a suite that lets a mistake of its plan through, at most.
const REPAIRS: u64 = 3;

/// The suite of `plan`: its files, one after the other, each built knowing what the
/// ones before it kill and reach; then, if a mistake of the plan survives them all, the
/// suite repaired (`repair`).
pub fn suite(plan: &Plan) -> Vec<SuiteFile> {
    let (mut files, tally) = greedy(plan);
    repair(plan, &mut files, tally.survivors(plan));
    cover(plan, &mut files);
    files
}

/// A file for the model that reaches fewer new cells than this ends the suite.
const COVER_LEAST: u64 = 1;
/// Seeds a file for the model is tried from before the suite ends.
const COVER_TRIES: u64 = 8;

/// The files for the statement's model, after `files`, up to the plan's total: each
/// ended by a kind of a side that no file ends with yet (in the model's order), then by
/// each in turn, while its cells are left.
fn cover(plan: &Plan, files: &mut Vec<SuiteFile>) {
    use super::model;
    if files.len() >= plan.total {
        return;
    }
    let mut hits = vec![0u64; model::cells().len()];
    for f in files.iter() {
        let mut counter = model::Counter::new();
        for &c in &f.cmds {
            counter.play(c, |cell| {
                if let Some(i) = cell.index() {
                    hits[i] += 1;
                }
            });
        }
    }
    let enders: Vec<(Color, PieceKind)> = Color::ALL
        .into_iter()
        .flat_map(|c| PieceKind::ALL.into_iter().map(move |k| (c, k)))
        .collect();
    let reached = |hits: &[u64]| hits.iter().filter(|&&h| h > 0).count() as u64;
    let mut turn = 0;
    while files.len() < plan.total {
        let missing = |e: &(Color, PieceKind)| {
            model::Cell::Ends(e.0, e.1)
                .index()
                .is_some_and(|i| hits[i] == 0)
        };
        let ender = match enders.iter().find(|e| missing(e)) {
            Some(&e) => e,
            None => {
                turn += 1;
                enders[(plan.seed as usize + turn) % enders.len()]
            }
        };
        let needed = missing(&ender);
        let before = reached(&hits);
        if !needed && before == hits.len() as u64 {
            break;
        }
        let k = files.len() as u64 + 1;
        // A file that reaches nothing new is tried again from other seeds, a few times.
        let mut found = None;
        for attempt in 0..COVER_TRIES {
            let mut tried = hits.clone();
            let seed = salt(plan.seed, 1000 + k + 100 * attempt);
            // The later tries thin the board first, ended by the kind of a cell left.
            let thin = !needed && attempt >= 3;
            let ender = match thin {
                true => model::cells()
                    .iter()
                    .filter(|c| c.index().is_some_and(|i| hits[i] == 0))
                    .find_map(|c| c.mover())
                    .unwrap_or(ender),
                false => ender,
            };
            let cmds = super::cover::file(&mut tried, ender, seed, plan.jobs, Q, thin);
            if needed || reached(&tried) - before >= COVER_LEAST {
                found = Some((cmds, tried, ender));
                break;
            }
        }
        let Some((cmds, tried, ender)) = found else {
            break;
        };
        hits = tried;
        let mut features: Vec<String> = ending(&cmds).into_iter().collect();
        features.push(format!(
            "built for the statement's model: the {} {} takes the captain",
            ender.0, ender.1
        ));
        files.push(SuiteFile { cmds, features });
    }
}

/// The files of `plan` as the greedy search writes them, and what they do.
fn greedy(plan: &Plan) -> (Vec<SuiteFile>, Tally) {
    let mut files: Vec<SuiteFile> = Vec::new();
    let mut tally = Tally::empty();
    for k in 0..plan.files as u64 {
        let f = file(plan, &tally, salt(plan.seed, k + 1), false, &[]);
        tally.add(plan, &f);
        files.push(f);
    }
    (files, tally)
}

/// A greedy search can miss a mistake whose one witness lies off its way (a capture of
/// a piece it kept for later, a move it never had a reason to try). When some of the
/// plan's mistakes survive every file, the last file is written again: it opens with a
/// game that exposes the survivors (the witness search's against them alone, as
/// `audit --witness` finds one; for the pieces kept when taken, the game that shows
/// them, [`ghost::tour`]; for the pieces left out of the look for check, the lone
/// checks, [`lone::tour`]), and grows from there as any file does, knowing what
/// the other files kill. The new file is kept when it leaves fewer mistakes alive;
/// what it lets through in turn joins the targets of the next try, [`REPAIRS`] tries
/// at most. A suite with no survivor is left as it is, so the repair changes nothing
/// for the seeds that need none.
fn repair(plan: &Plan, files: &mut Vec<SuiteFile>, mut alive: Vec<Mistake>) {
    let Some(last) = files.len().checked_sub(1) else {
        return;
    };
    let others = Tally::of(plan, &files[..last]);
    let missed = alive.clone();
    let mut targets = alive.clone();
    // A piece kept when taken is shown only by a game that takes it and then brings the
    // captain, a piece left out of the look for check only by a check it alone gives:
    // when one survives, the new file shows every such piece the other files do not, as
    // a file grown by the search would show some of them only by chance.
    if alive.iter().any(|&m| built_for(m)) {
        for &m in plan.mistakes {
            if built_for(m) && others.files[m.index()] == 0 && !targets.contains(&m) {
                targets.push(m);
            }
        }
    }
    for k in 0..REPAIRS {
        if alive.is_empty() {
            break;
        }
        let seed = salt(plan.seed, plan.files as u64 + 1 + k);
        let Some(opening) = exposing_all(&targets, seed, plan.jobs) else {
            continue;
        };
        // Named: what the opening exposes of what the greedy files let through.
        let exposed = killed_by(&opening, &missed);
        let mut f = file(plan, &others, seed, false, &opening);
        let names: Vec<&str> = exposed.iter().map(|m| m.name()).collect();
        // Filled as `suite.txt` shows it: two columns in, the next lines four.
        let words = format!(
            "opens with {} that expose {}, which the greedy search alone let through",
            crate::cli::plural(opening.len() as u64, "command"),
            names.join(", ")
        );
        let filled = crate::cli::help::filled(&words, "  ", "    ");
        f.features.insert(0, filled.trim().to_string());
        let mut tally = others.clone();
        tally.add(plan, &f);
        let left = tally.survivors(plan);
        if std::env::var_os("SUITE_DEBUG").is_some() {
            let t: Vec<&str> = targets.iter().map(|m| m.name()).collect();
            let l: Vec<&str> = left.iter().map(|m| m.name()).collect();
            eprintln!(
                "repair {k}: targets {t:?} opening {} exposes {names:?} left {l:?}",
                opening.len()
            );
        }
        let mut tried = files[..last].to_vec();
        tried.push(f);
        for &m in &left {
            if !targets.contains(&m) {
                targets.push(m);
            }
        }
        if left.len() < alive.len() {
            *files = tried;
            alive = left;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_scores_prefer_gain_per_command() {
        let s = |gain, used| Score {
            gain,
            used,
            ..Score::default()
        };
        assert!(s(2, 1).beats(&s(1, 1)));
        assert!(s(10, 1).beats(&s(20, 9)));
        assert!(!s(10, 3).beats(&s(10, 3)));
    }

    #[test]
    fn a_suite_that_lets_mistakes_through_is_repaired() {
        // A search that values nothing wanders, and lets most mistakes through; the
        // repair must kill more of them, deterministically.
        let some: Vec<Mistake> = Mistake::all().iter().copied().step_by(37).collect();
        let plan = Plan {
            seed: 3,
            files: 1,
            total: 1,
            mistakes: &some,
            weights: Weights {
                first_kill: 0,
                second_kill: 0,
                cell: 0,
                ..WEIGHTS
            },
            jobs: 2,
        };
        let (_, tally) = greedy(&plan);
        let before = tally.survivors(&plan).len();
        assert!(before > 0);
        let files = suite(&plan);
        assert_eq!(files.len(), 1);
        assert!(files[0].cmds.len() <= Q);
        // One file of a search that values nothing: the repair need not kill every
        // mistake (the default suites do, checked on seeds 1..20 by
        // scripts/bench-heldout.sh seeds), but it must kill more than the greedy file.
        let after = some.len() - killed_by(&files[0].cmds, &some).len();
        assert!(
            after < before,
            "{after} survive the repair, {before} the greedy file"
        );
        assert!(
            files[0].features[0].starts_with("opens with "),
            "{:?}",
            files[0].features
        );
        assert_eq!(suite(&plan)[0].cmds, files[0].cmds);
    }

    #[test]
    fn rows_are_found_by_delta() {
        assert_eq!(row_of(PieceKind::Horse, (2, 1)), Some((2, 1)));
        assert_eq!(row_of(PieceKind::Horse, (2, 2)), None);
        assert_eq!(row_of(PieceKind::Car, (0, -5)), Some((0, -1)));
        assert_eq!(row_of(PieceKind::Car, (1, 1)), None);
    }
}
