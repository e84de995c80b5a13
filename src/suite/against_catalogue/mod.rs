//! A file of the suite built against the catalogue of mistakes: one game from the start
//! (or from an opening), written by a greedy search.
//!
//! Each file is one game, written by a greedy search. At every step it tries candidate
//! continuations of the game (every legal move; the invalid commands a careless solution
//! might take for moves: blocked ones, onto its own pieces, with the opponent's pieces,
//! of a wrong shape, from a square just left; and short games played on from here by
//! `stress`'s steering writers), plays each on the judge, on the coverage map
//! ([`crate::model::table`]) and on the mutants of the mistakes, and keeps the one that
//! gains the most per command, up to its last gain. A gain is a kill of a mistake that
//! fewer than two files kill so far (one that no file kills is worth more), or a hit of a
//! coverage cell reached fewer than a few times in the whole suite. When nothing gains, a
//! few moves of a steering writer take the game on to new situations.
//!
//! - `candidates`: the continuations tried at each step.
//! - `score`: what a continuation gains: the cells it reaches, the mistakes it kills.
//! - `ending`: the end of the game and the commands after it.

use super::plan::{ending, Plan, SuiteFile, Q};
use crate::catalogue::for_suite::Slip;
use crate::catalogue::for_suite::{killed_by, Fault, Mistake, Mutant, Offset, Use};
use crate::generate::case::{cmd_of, Cmd};
use crate::generate::mode::Mode;
use crate::judge::game::Game;
use crate::judge::piece::{PieceKind, Square};
use crate::judge::rules;
use crate::model::table::Counter;
use crate::sys::rng::Rng;
use std::collections::HashMap;

mod candidates;
mod ending;
mod score;

/// Commands of a file's growing part, at most: room enough to reach what the greedy
/// search can, and pieces enough left for an end with its situations.
const GROW: usize = 850;
/// Commands of the search for the end, at most.
const END_BUDGET: usize = 100;
/// Commands after the end of the game, at least.
pub(super) const AFTER_END: usize = 40;
/// Commands after the end a candidate may have (what a solution that plays on accepts).
pub(super) const AFTER_END_TRIED: usize = 3;
/// Moves a steering writer plays when no candidate gains anything.
const STEER: usize = 4;
/// Plies of each played-on candidate game.
pub(super) const PLAYOUT: u64 = 10;
/// Played-on candidates per steering mode and step.
pub(super) const PLAYOUTS: usize = 3;
/// Steps without a gain after which the search goes on to the end.
const PATIENCE: usize = 40;
/// Captures a file may make after its opening, at least, however many the opening made.
const OWN_CAPTURES: usize = 6;
/// Invalid candidates of each kind but the blocked ones (which are all tried).
pub(super) const INVALID_EACH: usize = 6;

/// Where a slip's row is used: a move by it, or a threat on a captain by it.
type RowKey = (Use, PieceKind, Offset);

/// What continuations may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Allowed {
    /// Invalid commands.
    pub(super) invalid: bool,
    /// The move that ends the game.
    pub(super) end: bool,
    /// Captures only while more pieces than this stand on the board.
    pub(super) floor: usize,
}

/// A continuation being played from the search's state: the judge (with its coverage
/// counter), the mutant without a mistake that stands where the judge does, and the
/// mutants of the other (stateful) mistakes alive in this file.
#[derive(Clone)]
struct Run {
    pub(super) counter: Counter,
    pub(super) base: Mutant,
    pub(super) others: Vec<Option<Mutant>>,
    /// Slips (indices into the search's list) killed during this run.
    pub(super) dead: Vec<usize>,
    pub(super) rows: Vec<RowKey>,
}

/// A game being written, and what it has killed and reached so far.
struct Search<'p> {
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

impl<'p> Search<'p> {
    fn new(plan: &'p Plan<'p>, tally: &Progress, seed: u64, witness: bool) -> Search<'p> {
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
        Search {
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
}

/// The modes whose writers steer the search (not the decisive one, which would take
/// the pieces the end needs).
pub(super) const MODES: [Mode; 4] = [Mode::Attacks, Mode::Blocked, Mode::Captains, Mode::Invalid];

/// What the files written so far do.
#[derive(Clone, Debug)]
pub(super) struct Progress {
    /// For each mistake (by index), how many files kill it.
    pub(super) files: Vec<u8>,
    /// For each coverage cell, how often the files reach it.
    pub(super) hits: Vec<u64>,
}

impl Progress {
    /// Nothing written yet.
    pub(super) fn empty() -> Progress {
        Progress {
            files: vec![0; Mistake::all().len()],
            hits: vec![0; crate::model::table::cells().len()],
        }
    }

    /// What `files` kill of `plan`'s mistakes and reach of the coverage map.
    pub(super) fn of(plan: &Plan, files: &[SuiteFile]) -> Progress {
        let mut tally = Progress::empty();
        for f in files {
            tally.add(plan, f);
        }
        tally
    }

    /// Counts what `f` kills of `plan`'s mistakes and reaches of the coverage map.
    pub(super) fn add(&mut self, plan: &Plan, f: &SuiteFile) {
        for m in killed_by(&f.cmds, plan.mistakes) {
            self.files[m.index()] = self.files[m.index()].saturating_add(1);
        }
        let mut counter = Counter::new();
        for &c in &f.cmds {
            counter.play(c, |cell| self.hits[cell.index()] += 1);
        }
    }

    /// The mistakes of `plan` no file kills.
    pub(super) fn survivors(&self, plan: &Plan) -> Vec<Mistake> {
        plan.mistakes
            .iter()
            .copied()
            .filter(|m| self.files[m.index()] == 0)
            .collect()
    }
}

/// One file from `seed`, after the files of `tally`, opening with the commands of
/// `opening`; for a witness, only up to the first kill.
pub(super) fn file(
    plan: &Plan,
    tally: &Progress,
    seed: u64,
    witness: bool,
    opening: &[Cmd],
) -> SuiteFile {
    let mut s = Search::new(plan, tally, seed, witness);
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
