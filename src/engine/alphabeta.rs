//! The recursive part of the search: principal variation search with a transposition
//! table, null-move pruning, late-move reductions and pruning, and a bounded quiescence
//! search; draws by repetition and by the 300-move limit; hard stops by node count,
//! clock or an outside flag.
//!
//! Duck chess has no rule against moving into danger, so the captain is like any other
//! piece except that taking it ends the game: a side that can take the opposing captain
//! has won (scored as a mate one ply away), and a side whose captain is attacked must
//! deal with it. Such "checks" are never reduced or pruned away, and a node whose own
//! captain is attacked is searched one ply deeper.
//!
//! A [`Search`] is built from a [`Setup`] and is read, not written, from outside:
//! move ordering is [`crate::engine::ordering`]'s, the history tables
//! [`crate::engine::history`]'s, the stops [`crate::engine::watch`]'s, and the
//! numbers it is tuned by [`crate::engine::tunables`]'s.

use crate::engine::eval::{self, eval_within, MATE};
use crate::engine::history::{History, HISTORY_MAX};
use crate::engine::movegen::{self, AttackFilter};
use crate::engine::nnue::{Accumulator, Network};
use crate::engine::ordering::{self, below_counter, next_best};
use crate::engine::see::see;
use crate::engine::stats::{self, Counter};
use crate::engine::tt::{self, Bound, Entry, Table, MATE_BOUND, MAX_PLY, NO_EVAL, ZOBRIST_BLUE};
use crate::engine::tunables::{
    Tunables, FUTILITY, IMPROVING, QUIET_CHECKS, REDUCTION, X_EVASIONS, X_HIST_DIV, X_LATE,
    X_NULL_DIV, X_PV_LESS, X_RFP_DEPTH, X_RFP_IMPROVING, X_THREAT, X_TT_EVAL,
};
use crate::engine::watch::Watch;
use crate::judge::board::Board;
use crate::judge::piece::{Color, Piece, PieceKind, Square};
use crate::judge::rules::{self, Move};
use std::sync::Arc;

/// A game that reaches this many moves (both sides' moves counted) without a captain
/// capture is a draw.
pub const MOVE_LIMIT: u32 = 300;

/// The longest capture sequence the quiescence search follows past the horizon: what
/// keeps a board full of mutual attacks from exploding the search.
const QUIESCENCE_PLIES: usize = 12;
/// A capture that cannot lift the score to alpha even with this margin is skipped.
const DELTA_MARGIN: i32 = 150;
/// How wide and deep the quiescence search goes on a board full of mutual attacks: at
/// the first ply past the horizon every capture that passes the tests above; deeper,
/// the best [`QUIESCENCE_MOVES`] of them (by victim, then attacker) and every
/// recapture on the square of the last move; from [`QUIESCENCE_RECAPTURES`] plies on,
/// recaptures only.
const QUIESCENCE_ALL: usize = 1;
/// See [`QUIESCENCE_ALL`].
const QUIESCENCE_MOVES: u32 = 2;
/// See [`QUIESCENCE_ALL`].
const QUIESCENCE_RECAPTURES: usize = 6;

/// Moves are pruned by their exchange value up to this depth, when they lose more than
/// this much a ply (quiet moves, captures).
const SEE_DEPTH: i32 = 5;
const SEE_QUIET: i32 = 80;
const SEE_CAPTURE: i32 = 150;

/// How many nodes pass between two looks at the node cap, the clock and the stop flag
/// (so a node cap may be passed by fewer than this many; under a node cap several
/// threads look that much more often, [`Watch::look_every`]).
pub const CHECK_EVERY: u64 = 256;

/// Everything a search is built from but the position and its two borrowed tables:
/// the game before the root, which root moves to search, what stops it, the network it
/// evaluates with and the numbers it is tuned by. It is `Clone`, so that the threads
/// of a parallel search are built from one, each with its own history and all probing
/// one table.
#[derive(Clone)]
pub(crate) struct Setup<'a> {
    /// Keys of the game's positions before the root, oldest first.
    pub keys: Vec<u64>,
    /// Plies since the last capture (no position before it can repeat).
    pub quiet_run: usize,
    /// Moves played in the game before the root.
    pub moves_played: u32,
    /// The root moves to search (UCI `searchmoves`); empty for all.
    pub root_moves: Vec<Move>,
    /// What stops the search.
    pub watch: Watch<'a>,
    /// The learnt evaluation's network, when the search evaluates with it; `None` for
    /// the hand-written evaluation.
    pub net: Option<Arc<Network>>,
    /// The evaluation weights and search parameters.
    pub tunables: Tunables,
}

impl Setup<'_> {
    /// A setup for a position with no game before it, every root move, no limit, the
    /// hand-written evaluation and the built-in tunables.
    pub fn new() -> Setup<'static> {
        Setup {
            keys: Vec::new(),
            quiet_run: 0,
            moves_played: 0,
            root_moves: Vec::new(),
            watch: Watch::unlimited(),
            net: None,
            tunables: Tunables::DEFAULT,
        }
    }
}

/// One search's working state over a copy of the board.
pub(crate) struct Search<'a> {
    board: Board,
    hash: u64,
    tt: &'a Table,
    history: History<'a>,
    /// The move that led to the node at each ply (`None` for a pass or the root).
    path: [Option<Move>; MAX_PLY + 2],
    /// The static evaluation at each ply of the current line ([`NO_EVAL`] where the
    /// captain was attacked and none was taken).
    evals: [i32; MAX_PLY + 2],
    buffers: Vec<Vec<(Move, i32)>>,
    /// Keys of the positions before the current one: the game's, then the search path's.
    keys: Vec<u64>,
    /// Plies since the last capture (no position before it can repeat).
    quiet_run: usize,
    /// Moves played in the game before the root.
    moves_played: u32,
    nodes: u64,
    seldepth: usize,
    watch: Watch<'a>,
    /// One less than how many nodes pass between two looks at the watch (a power of
    /// two).
    look_mask: u64,
    stopped: bool,
    /// The best root move of the current iteration with its score, once one is known.
    root_best: Option<(Move, i32)>,
    /// The root moves to search (UCI `searchmoves`); empty for all.
    root_moves: Vec<Move>,
    /// Profiling builds ([`stats::ON`]): a sampled check of a pruning decision is under
    /// way (no other is started inside it), and the ply whose node is searched again
    /// without its static pruning.
    checking: bool,
    unpruned_ply: Option<usize>,
    /// The learnt evaluation's network, when the search evaluates with it (`Use NNUE`,
    /// read once: options change between searches), and its views of the positions
    /// along the current line (the last one is the current position's; empty without
    /// a network).
    net: Option<Arc<Network>>,
    views: Vec<Accumulator>,
    /// The evaluation weights and search parameters of this search.
    tunables: Tunables,
}

/// What `make` must remember to be undone.
#[derive(Clone, Copy)]
pub(crate) struct Undo {
    captured: Option<Piece>,
    quiet_run: usize,
}

/// How many plies a late quiet move is reduced: ln(depth) ln(index) / divisor (in
/// hundredths).
fn reduction(depth: i32, index: usize, divisor: i32) -> i32 {
    let d = (depth.min(63) as f32).ln();
    let i = (index.min(63) as f32).ln();
    (0.5 + d * i * 100.0 / divisor as f32) as i32
}

impl<'a> Search<'a> {
    /// A search of `board` as `setup` says, probing `tt` and learning in `history`
    /// ([`crate::engine::history::HISTORY_LEN`] long).
    pub fn new(
        board: &Board,
        setup: Setup<'a>,
        tt: &'a Table,
        history: &'a mut [i16],
    ) -> Search<'a> {
        let Setup {
            keys,
            quiet_run,
            moves_played,
            root_moves,
            watch,
            net,
            tunables,
        } = setup;
        let mut views = Vec::new();
        if let Some(net) = &net {
            views.reserve(MAX_PLY + 8);
            views.push(net.accumulate(board));
        }
        Search {
            board: board.clone(),
            hash: tt::hash_of(board),
            tt,
            history: History::new(history),
            path: [None; MAX_PLY + 2],
            evals: [NO_EVAL; MAX_PLY + 2],
            buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(96)).collect(),
            keys,
            quiet_run,
            moves_played,
            nodes: 0,
            seldepth: 0,
            look_mask: watch.look_every(CHECK_EVERY) - 1,
            watch,
            stopped: false,
            root_best: None,
            root_moves,
            checking: false,
            unpruned_ply: None,
            views,
            net,
            tunables,
        }
    }

    /// The position the search stands on (the root between searches).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The deepest ply reached since the iteration started.
    pub fn seldepth(&self) -> usize {
        self.seldepth
    }

    /// Whether a limit stopped the search (its last result is then not to be trusted).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The best root move of the current iteration with its score, once one is known.
    pub fn root_best(&self) -> Option<(Move, i32)> {
        self.root_best
    }

    /// The evaluation weights and search parameters of this search.
    pub fn tunables(&self) -> &Tunables {
        &self.tunables
    }

    /// Prepares an iteration of the iterative deepening: no root move known yet, the
    /// selective depth counted afresh.
    pub fn start_iteration(&mut self) {
        self.root_best = None;
        self.seldepth = 0;
    }

    /// Lets the search go on for `more` nodes from here, even after a stop by the node
    /// cap (a stop by the clock or the flag comes back at the next look).
    pub fn allow(&mut self, more: u64) {
        self.watch.cap_at(self.nodes.saturating_add(more));
        self.look_mask = self.watch.look_every(CHECK_EVERY) - 1;
        self.stopped = false;
    }

    /// Whether the node cap is not reached yet (a stop came from the clock or the
    /// flag).
    pub fn below_cap(&self) -> bool {
        self.watch.below_cap(self.nodes)
    }

    /// Counts a node visited outside the search proper (a root move looked at).
    pub fn count_node(&mut self) {
        self.nodes += 1;
    }

    /// Whether the soft time limit `soft` has passed (see [`Watch::soft_passed`]).
    pub fn soft_passed(&mut self, soft: Option<std::time::Duration>) -> bool {
        self.watch.soft_passed(soft)
    }

    /// The static evaluation of the current position for the side to move.
    #[inline]
    fn static_eval(&mut self) -> i32 {
        self.static_eval_within(-MATE, MATE)
    }

    /// The static evaluation, or with the hand-written evaluation a bound on it when it
    /// is far outside `alpha..beta` ([`eval_within`]). The network's is always exact:
    /// it costs the same either way.
    #[inline]
    fn static_eval_within(&mut self, alpha: i32, beta: i32) -> i32 {
        match (&self.net, self.views.last()) {
            (Some(net), Some(view)) => {
                net.evaluate(view, self.board.side_to_move())
                    + eval::hunt(&self.board, self.tunables.weights())
            }
            _ => eval_within(&mut self.board, alpha, beta, self.tunables.weights()),
        }
    }

    #[inline]
    pub fn make(&mut self, m: Move) -> Undo {
        self.keys.push(self.hash);
        let moving = self.board.piece_at(m.from);
        if let Some(p) = moving {
            self.hash ^= tt::piece_key(p, m.from) ^ tt::piece_key(p, m.to);
        }
        if let (Some(net), Some(top)) = (&self.net, self.views.last()) {
            let next = match moving {
                Some(p) => net.after(top, p, m.from, m.to, self.board.piece_at(m.to)),
                None => *top,
            };
            self.views.push(next);
        }
        let captured = self.board.make_move(m.from, m.to);
        let undo = Undo {
            captured,
            quiet_run: self.quiet_run,
        };
        match captured {
            Some(c) => {
                self.hash ^= tt::piece_key(c, m.to);
                self.quiet_run = 0;
            }
            None => self.quiet_run += 1,
        }
        self.hash ^= ZOBRIST_BLUE;
        undo
    }

    #[inline]
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        self.board.unmake_move(m.from, m.to, undo.captured);
        // The root's view stays: it is the only one without a move to undo.
        if self.views.len() > 1 {
            self.views.pop();
        }
        self.quiet_run = undo.quiet_run;
        self.hash = self.keys.pop().unwrap_or(0);
    }

    /// Passes the turn (the null move of null-move pruning).
    fn make_null(&mut self) -> usize {
        self.keys.push(self.hash);
        self.hash ^= ZOBRIST_BLUE;
        let side = self.board.side_to_move();
        self.board.set_side_to_move(side.opponent());
        // Positions across a pass are not repetitions of the game.
        std::mem::replace(&mut self.quiet_run, 0)
    }

    fn unmake_null(&mut self, quiet_run: usize) {
        let side = self.board.side_to_move();
        self.board.set_side_to_move(side.opponent());
        self.quiet_run = quiet_run;
        self.hash = self.keys.pop().unwrap_or(0);
    }

    /// Counts a node and now and then looks at the node cap, the clock and the flag.
    /// A stopped search enters no node, and counts none: its count stays where its
    /// last look stopped it, which is what keeps a node cap's promise.
    #[inline]
    fn tick(&mut self, ply: usize) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes & self.look_mask == 0 {
            self.check_limits();
        }
        self.stopped
    }

    /// Sets `stopped` when a node cap, the deadline or the stop flag says so.
    fn check_limits(&mut self) {
        if self.watch.expired(self.nodes) {
            self.stopped = true;
        }
    }

    /// The entry of every node: counts it, then gives the side to move's captain square,
    /// or the node's score when the search was stopped (0) or the game is decided.
    #[inline]
    fn enter(&mut self, ply: usize) -> Result<Square, i32> {
        if self.tick(ply) {
            return Err(0);
        }
        let d = self.decided(ply);
        if stats::ON && d.is_err() {
            stats::add(Counter::Decided);
        }
        d
    }

    /// The side to move's own captain square while the game goes on normally; otherwise
    /// the score at `ply` of the finished game or of the captain that can be taken at
    /// once.
    #[inline]
    fn decided(&self, ply: usize) -> Result<Square, i32> {
        let side = self.board.side_to_move();
        match (
            self.board.captain(side),
            self.board.captain(side.opponent()),
        ) {
            (None, _) => Err(-(MATE - ply as i32)),
            (_, None) => Err(MATE - ply as i32),
            (Some(mine), Some(theirs)) => {
                if rules::is_attacked(&self.board, theirs, side) {
                    Err(MATE - ply as i32 - 1)
                } else {
                    Ok(mine)
                }
            }
        }
    }

    /// Whether the game is drawn here (below the root): the move limit is reached, or
    /// the position repeats one of the game or of the path since the last capture.
    #[inline]
    fn is_draw(&self, ply: usize) -> bool {
        if self.moves_played + ply as u32 >= MOVE_LIMIT {
            return true;
        }
        let n = self.keys.len();
        let back = self.quiet_run.min(n);
        (4..=back).step_by(2).any(|i| self.keys[n - i] == self.hash)
    }

    /// Whether the side that just moved attacks the captain of the side to move: a
    /// move that threatens to win at once.
    #[inline]
    fn threatens_captain(&self) -> bool {
        let side = self.board.side_to_move();
        self.board
            .captain(side)
            .is_some_and(|c| rules::is_attacked(&self.board, c, side.opponent()))
    }

    /// Whether `side` has a piece besides its captain and at least one more: without
    /// them, passing may be better than moving (zugzwang), so null moves are unsafe.
    fn has_pieces(&self, side: Color) -> bool {
        let mut count = 0;
        for kind in PieceKind::ALL {
            if kind != PieceKind::Captain {
                count += self.board.mask(side, kind).count_ones();
            }
        }
        count >= 2
    }

    /// Fills the buffer of `ply` with the moves (all, or only captures) and their
    /// ordering scores, best first (or, when `lazy`, unsorted: see [`next_best`]).
    fn ordered(
        &mut self,
        ply: usize,
        captures_only: bool,
        tt_move: Option<Move>,
        lazy: bool,
    ) -> Vec<(Move, i32)> {
        let mut list = std::mem::take(&mut self.buffers[ply]);
        let node = ordering::Node {
            history: &self.history,
            ply,
            prev: self.path[ply],
            tt_move,
        };
        ordering::fill(
            &mut list,
            &self.board,
            node,
            captures_only,
            lazy,
            &self.tunables,
        );
        list
    }

    /// The principal variation search of `depth` plies from the node at `ply`.
    pub fn negamax(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        null_ok: bool,
    ) -> i32 {
        let mine = match self.enter(ply) {
            Ok(s) => s,
            Err(score) => return score,
        };
        if ply > 0 {
            if self.is_draw(ply) {
                return 0;
            }
            // No line from here can win faster than the next ply or lose sooner.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }
        let side = self.board.side_to_move();
        // An attacked captain must be answered: look one ply further so that the
        // answer is not left to the horizon.
        let threatened = rules::is_attacked(&self.board, mine, side.opponent());
        let depth = if threatened && ply < MAX_PLY / 2 && self.tunables.knob(X_THREAT) != 0 {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.quiesce(ply, alpha, beta, self.tunables.knob(X_EVASIONS) as u32, 0);
        }
        if threatened {
            stats::add(Counter::ExtendThreat);
        }
        stats::node_at(depth);
        let pv = beta - alpha > 1;

        let entry = self.tt.probe(self.hash);
        let tt_move = entry.and_then(|e| e.best);
        stats::add(Counter::TtProbes);
        if let Some(e) = entry {
            stats::add(Counter::TtHits);
            if !pv && ply > 0 && e.depth as i32 >= depth {
                let score = tt::from_tt(e.score, ply);
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    stats::add(Counter::TtCuts);
                    return score;
                }
            }
        }

        // Without a table move this node was never searched well: search it a ply
        // shallower (its result will order the moves next time).
        let depth = if tt_move.is_none() && depth >= 4 && !threatened {
            depth - 1
        } else {
            depth
        };

        let static_eval = (!threatened).then(|| match entry.map(|e| e.eval) {
            Some(e) if e != NO_EVAL => e,
            _ => self.static_eval(),
        });
        self.evals[ply] = static_eval.unwrap_or(NO_EVAL);
        // Whether the position got better for the side to move since its last turn:
        // when not, late moves are pruned and reduced more.
        let improving = match static_eval {
            Some(e) if self.tunables.knob(IMPROVING) != 0 && ply >= 2 => {
                self.evals[ply - 2] == NO_EVAL || e > self.evals[ply - 2]
            }
            _ => true,
        };
        let static_prune = !pv && beta.abs() < MATE_BOUND && self.unpruned_ply != Some(ply);
        // Where the table's bound on this node's score lies beyond the static
        // evaluation on the side it bounds, that bound is the better guess for the
        // pruning. The table still keeps the static evaluation itself: the next visit
        // reads it back as such ("improving" and this comparison start from it).
        let prune_eval = match (static_eval, entry) {
            (Some(e), Some(t)) if self.tunables.knob(X_TT_EVAL) != 0 => {
                let score = tt::from_tt(t.score, ply);
                let better = score.abs() < MATE_BOUND
                    && match t.bound {
                        Bound::Exact => true,
                        Bound::Lower => score > e,
                        Bound::Upper => score < e,
                    };
                Some(if better { score } else { e })
            }
            _ => static_eval,
        };
        if let Some(eval) = prune_eval.filter(|_| static_prune) {
            // So far ahead that a few quiet plies will not bring it back.
            // Where the evaluation has risen since the side's last turn, a ply's margin
            // less.
            let sooner = i32::from(improving && self.tunables.knob(X_RFP_IMPROVING) != 0);
            if depth <= self.tunables.knob(X_RFP_DEPTH)
                && eval - self.tunables.knob(FUTILITY) * (depth - sooner) >= beta
            {
                if stats::ON {
                    self.check_node(Counter::Rfp, depth, ply, beta, null_ok);
                }
                return eval;
            }
            // Even passing keeps the score above beta: the real moves will too.
            if null_ok && depth >= 3 && eval >= beta && self.has_pieces(side) {
                stats::add(Counter::NullTried);
                let r = 3 + depth / self.tunables.knob(X_NULL_DIV) + ((eval - beta) / 200).min(3);
                let saved = self.make_null();
                self.path[ply + 1] = None;
                let score = -self.negamax(depth - 1 - r, ply + 1, -beta, -beta + 1, false);
                self.unmake_null(saved);
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    if stats::ON {
                        self.check_node(Counter::NullCut, depth, ply, beta, null_ok);
                    }
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut list = self.ordered(ply, false, tt_move, true);
        if ply == 0 && !self.root_moves.is_empty() {
            let allowed = &self.root_moves;
            list.retain(|(m, _)| allowed.contains(m));
        }
        if list.is_empty() {
            self.buffers[ply] = list;
            return 0; // stuck without a move: nobody can win from here
        }
        if threatened && ply > 0 && !self.answers_only(mine, &mut list) {
            self.buffers[ply] = list;
            return -(MATE - ply as i32 - 2); // every move leaves the captain to be taken
        }
        let original_alpha = alpha;
        let mut best = -MATE - 1;
        let mut best_move = None;
        let mut attacked: Option<u128> = None;
        let mut filter: Option<AttackFilter> = None;
        let theirs = self.board.captain(side.opponent()).unwrap_or(mine);
        let mut quiets_tried = [None; 32];
        let mut quiet_count = 0;
        for i in 0..list.len() {
            next_best(&mut list, i);
            let (m, order) = list[i];
            let quiet = self.board.is_empty(m.to);
            // Killers and the countermove are neither reduced nor pruned.
            let ordinary = quiet && below_counter(order);
            let late = ordinary && i >= self.tunables.knob(X_LATE) as usize && !threatened;
            // Moves that may be skipped, unless they attack the captain: late quiet
            // moves at shallow depth (hardly ever best), quiet moves that cannot bring
            // a hopeless score back, and, near the horizon, moves that lose material
            // in the exchange on their square.
            let may_prune = !pv && !threatened && i > 0 && best > -MATE_BOUND;
            let lmp = may_prune
                && late
                && depth <= 6
                && i >= ((3 + depth * depth) / if improving { 1 } else { 2 }) as usize;
            let futile = may_prune
                && !lmp
                && late
                && depth <= 2
                && prune_eval
                    .is_some_and(|e| e + self.tunables.knob(FUTILITY) * depth * 2 <= alpha);
            let losing = may_prune
                && !lmp
                && !futile
                && depth <= SEE_DEPTH
                && (ordinary || below_counter(order) && !quiet)
                && *attacked
                    .get_or_insert_with(|| movegen::attack_map(&self.board, side.opponent()))
                    & (1u128 << m.to.bit())
                    != 0
                && see(&self.board, m, &self.tunables)
                    < -(if quiet { SEE_QUIET } else { SEE_CAPTURE }) * depth;
            let prune = lmp || futile || losing;
            // Only a move the filter lets through can attack the captain: the others
            // are pruned without being made.
            let may_attack = (prune || late && depth >= 3) && {
                let f = filter.get_or_insert_with(|| AttackFilter::new(&self.board, side, theirs));
                self.board
                    .piece_at(m.from)
                    .is_some_and(|p| f.may_attack(p.kind, m.from.bit(), m.to.bit()))
            };
            let undo = if prune && !may_attack && !stats::ON {
                continue;
            } else {
                self.make(m)
            };
            self.path[ply + 1] = Some(m);
            let checks = may_attack && self.threatens_captain();
            if prune && !checks {
                if stats::ON {
                    let kind = if lmp {
                        Counter::Lmp
                    } else if futile {
                        Counter::Futility
                    } else {
                        Counter::SeePrune
                    };
                    self.check_move(kind, depth, ply, alpha);
                }
                self.unmake(m, undo);
                continue;
            }
            let mut reduce = 0;
            if late && depth >= 3 && !checks {
                // Less for moves that often refuted others, more for the rest.
                let h = self.history.quiet(&self.board, self.path[ply], m);
                reduce = reduction(depth, i, self.tunables.knob(REDUCTION))
                    - i32::from(pv) * self.tunables.knob(X_PV_LESS)
                    - h * 100 / self.tunables.knob(X_HIST_DIV) / HISTORY_MAX
                    + i32::from(!improving);
                reduce = reduce.clamp(0, depth - 2);
            }
            let score = if i == 0 {
                -self.negamax(depth - 1, ply + 1, -beta, -alpha, true)
            } else {
                let mut s = -self.negamax(depth - 1 - reduce, ply + 1, -alpha - 1, -alpha, true);
                if stats::ON && reduce > 0 {
                    stats::add(Counter::Reduced);
                    stats::add_n(Counter::ReducedPlies, reduce as u64);
                    if s > alpha {
                        stats::add(Counter::Researched);
                    } else if !self.stopped {
                        self.check_move(Counter::ReducedLow, depth, ply, alpha);
                    }
                }
                if s > alpha && reduce > 0 {
                    s = -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha, true);
                    if s > alpha {
                        stats::add(Counter::ResearchHeld);
                    }
                }
                if s > alpha && s < beta {
                    s = -self.negamax(depth - 1, ply + 1, -beta, -alpha, true);
                }
                s
            };
            self.unmake(m, undo);
            if self.stopped {
                self.buffers[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if ply == 0 {
                    self.root_best = Some((m, score));
                }
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if stats::ON {
                    stats::add(Counter::FailHigh);
                    stats::add_n(Counter::FailHighIndexSum, i as u64);
                    if i == 0 {
                        stats::add(Counter::FailHighFirst);
                    }
                }
                if quiet {
                    let tried = &quiets_tried[..quiet_count];
                    let prev = self.path[ply];
                    self.history.cutoff(&self.board, ply, prev, m, depth, tried);
                }
                break;
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = Some(m);
                quiet_count += 1;
            }
        }
        self.buffers[ply] = list;
        if best_move.is_none() {
            // Every move was pruned: the node is worth what the evaluation the pruning
            // read says.
            return prune_eval.unwrap_or(alpha).min(alpha);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            self.hash,
            Entry {
                key: self.hash,
                best: best_move,
                score: tt::to_tt(best, ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
                eval: static_eval.unwrap_or(NO_EVAL),
            },
        );
        best
    }

    /// Quiescence: captures only, with the static evaluation as a floor ("stand pat"),
    /// except when the side's captain is attacked: then standing still loses it, so
    /// every move is tried (at most `evasions` times along a line). Captures that
    /// cannot matter (delta pruning) or that give a piece for less on a defended square
    /// are skipped, past the first ply only the best few and the recaptures are
    /// searched, later only the recaptures ([`QUIESCENCE_ALL`]), and no line goes
    /// deeper than [`QUIESCENCE_PLIES`].
    fn quiesce(
        &mut self,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        evasions: u32,
        qply: usize,
    ) -> i32 {
        let mine = match self.enter(ply) {
            Ok(s) => s,
            Err(score) => return score,
        };
        stats::add(Counter::QNodes);
        if self.moves_played + ply as u32 >= MOVE_LIMIT {
            return 0;
        }
        if ply >= MAX_PLY - 1 || qply >= QUIESCENCE_PLIES {
            return self.static_eval();
        }
        let side = self.board.side_to_move();
        let threatened = evasions > 0 && rules::is_attacked(&self.board, mine, side.opponent());
        let mut best = -MATE - 1;
        let mut stand = -MATE;
        if threatened {
            stats::add(Counter::QEvasions);
        } else {
            stand = self.static_eval_within(alpha, beta);
            best = stand;
            if best >= beta {
                stats::add(Counter::QStandCut);
                return best;
            }
            alpha = alpha.max(best);
        }
        // At the first ply past the horizon, quiet moves that attack the captain are
        // tried too: such a threat, often a fork, is this game's main tactic.
        let checks = !threatened && qply == 0 && self.tunables.knob(QUIET_CHECKS) != 0;
        let mut list = self.ordered(ply, !threatened && !checks, None, false);
        if list.is_empty() && threatened {
            self.buffers[ply] = list;
            return 0;
        }
        if threatened && !self.answers_only(mine, &mut list) {
            self.buffers[ply] = list;
            return -(MATE - ply as i32 - 2);
        }
        let next = if threatened { evasions - 1 } else { evasions };
        // A board full of mutual attacks would otherwise branch on every capture of
        // every piece at every ply: past the first ply the node is narrowed to its best
        // captures and the recaptures, later to the recaptures (see QUIESCENCE_ALL).
        let recaptures_only = qply >= QUIESCENCE_RECAPTURES;
        let narrow = qply >= QUIESCENCE_ALL;
        let last_to = self.path[ply].map(|m| m.to);
        let mut tried = 0;
        for &(m, _) in list.iter() {
            let recapture = Some(m.to) == last_to;
            if !threatened && !recapture && (recaptures_only || narrow && tried >= QUIESCENCE_MOVES)
            {
                continue;
            }
            if checks && self.board.is_empty(m.to) {
                let undo = self.make(m);
                self.path[ply + 1] = Some(m);
                let threat = self.threatens_captain();
                let score = if threat {
                    -self.quiesce(ply + 1, -beta, -alpha, next, qply + 1)
                } else {
                    -MATE - 1
                };
                self.unmake(m, undo);
                if self.stopped {
                    break;
                }
                best = best.max(score);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
                continue;
            }
            if !threatened {
                let victim = self
                    .board
                    .piece_at(m.to)
                    .map_or(0, |p| self.tunables.value(p.kind));
                if stand + victim + DELTA_MARGIN <= alpha {
                    continue;
                }
                let attacker = match self.board.piece_at(m.from) {
                    Some(p) if p.kind == PieceKind::Captain => MATE,
                    Some(p) => self.tunables.value(p.kind),
                    None => 0,
                };
                // Captures that lose material once the exchange has run its course.
                if attacker > victim
                    && rules::is_attacked(&self.board, m.to, side.opponent())
                    && see(&self.board, m, &self.tunables) < 0
                {
                    continue;
                }
            }
            if !threatened && !recapture {
                tried += 1;
            }
            let undo = self.make(m);
            self.path[ply + 1] = Some(m);
            let score = -self.quiesce(ply + 1, -beta, -alpha, next, qply + 1);
            self.unmake(m, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.buffers[ply] = list;
        best.max(-MATE)
    }

    /// Profiling builds: counts a node pruned by its static evaluation or a null move
    /// (`kind`), and on a sample searches it again without that pruning, counting
    /// the next two counters (checked, wrong) when the search does not hold `beta`.
    fn check_node(&mut self, kind: Counter, depth: i32, ply: usize, beta: i32, null_ok: bool) {
        stats::add(kind);
        if self.checking || !stats::sampled(kind) {
            return;
        }
        let (checked, wrong) = match kind {
            Counter::Rfp => (Counter::RfpChecked, Counter::RfpWrong),
            _ => (Counter::NullChecked, Counter::NullWrong),
        };
        self.checking = true;
        self.unpruned_ply = Some(ply);
        let score = self.negamax(depth, ply, beta - 1, beta, null_ok);
        self.unpruned_ply = None;
        self.checking = false;
        if !self.stopped {
            stats::add(checked);
            if score < beta {
                stats::add(wrong);
            }
        }
    }

    /// Profiling builds: counts a move (made on the board) that was pruned or reduced
    /// (`kind`), and on a sample searches it at full depth, counting the next counter
    /// (wrong) when it would have raised `alpha`.
    fn check_move(&mut self, kind: Counter, depth: i32, ply: usize, alpha: i32) {
        stats::add(kind);
        if self.checking || !stats::sampled(kind) {
            return;
        }
        let (checked, wrong) = match kind {
            Counter::Lmp => (Counter::LmpChecked, Counter::LmpWrong),
            Counter::Futility => (Counter::FutilityChecked, Counter::FutilityWrong),
            Counter::SeePrune => (Counter::SeeChecked, Counter::SeeWrong),
            _ => (Counter::ReducedLowChecked, Counter::ReducedLowWrong),
        };
        self.checking = true;
        let score = -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha, true);
        self.checking = false;
        if !self.stopped {
            stats::add(checked);
            if score > alpha {
                stats::add(wrong);
            }
        }
    }

    /// Keeps in `list` only the moves that may answer the attack on the side to move's
    /// captain (on `mine`): its own moves, and moves that take an attacker or land on
    /// an attacker's path; the others would lose it at once. Returns whether any is
    /// left.
    fn answers_only(&self, mine: Square, list: &mut Vec<(Move, i32)>) -> bool {
        let enemy = self.board.side_to_move().opponent();
        let targets = movegen::evasion_targets(&self.board, enemy, mine);
        list.retain(|(m, _)| m.from == mine || targets >> m.to.bit() & 1 != 0);
        !list.is_empty()
    }

    /// The principal variation from the current position, read from the table.
    pub fn pv(&mut self, first: Move, max: usize) -> Vec<Move> {
        let mut line = vec![first];
        let mut undos = vec![(first, self.make(first))];
        let mut seen = vec![self.hash];
        while line.len() < max {
            let next = match self.tt.probe(self.hash).and_then(|e| e.best) {
                Some(m) => m,
                None => break,
            };
            if !rules::legal_moves(&self.board).contains(&next) {
                break;
            }
            undos.push((next, self.make(next)));
            line.push(next);
            if seen.contains(&self.hash) {
                break;
            }
            seen.push(self.hash);
        }
        while let Some((m, u)) = undos.pop() {
            self.unmake(m, u);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_hash_matches_full_hash() {
        let table = Table::new(1);
        let mut history = vec![0; crate::engine::history::HISTORY_LEN];
        let board = Board::start();
        let mut s = Search::new(&board, Setup::new(), &table, &mut history);
        let mut played = Vec::new();
        for i in 0..40 {
            let moves = rules::legal_moves(&s.board);
            if moves.is_empty() {
                break;
            }
            let m = moves[(i * 7) % moves.len()];
            let u = s.make(m);
            played.push((m, u));
            assert_eq!(s.hash, tt::hash_of(&s.board));
        }
        while let Some((m, u)) = played.pop() {
            s.unmake(m, u);
            assert_eq!(s.hash, tt::hash_of(&s.board));
        }
        assert_eq!(s.board, board);
        assert!(s.keys.is_empty());
    }

    #[test]
    fn a_position_seen_before_is_a_draw_below_the_root() {
        let table = Table::new(1);
        let mut history = vec![0; crate::engine::history::HISTORY_LEN];
        let board: Board = "4k4/9/9/9/9/9/9/9/R8/4K4 r".parse().unwrap();
        let mut s = Search::new(&board, Setup::new(), &table, &mut history);
        let go = |x1, y1, x2, y2| Move {
            from: Square::new(x1, y1).unwrap(),
            to: Square::new(x2, y2).unwrap(),
        };
        // Car out and back, captain out and back: the start position again.
        let line = [
            go(1, 0, 2, 0),
            go(9, 4, 9, 3),
            go(2, 0, 1, 0),
            go(9, 3, 9, 4),
        ];
        for (i, &m) in line.iter().enumerate() {
            s.make(m);
            assert_eq!(s.is_draw(i + 1), i == 3, "after {} moves", i + 1);
        }
        s.moves_played = MOVE_LIMIT - 4;
        assert!(s.is_draw(4), "the move limit");
    }

    #[test]
    fn a_hanging_piece_steps_out_of_attack_first() {
        let table = Table::new(1);
        let mut history = vec![0; crate::engine::history::HISTORY_LEN];
        // The red car on (1, 0) stands on the blue car's row: along it every square is
        // attacked, up or down its file none is.
        let board: Board = "4k4/9/9/9/9/9/9/9/R7r/4K4 r".parse().unwrap();
        let mut s = Search::new(&board, Setup::new(), &table, &mut history);
        let list = s.ordered(0, false, None, false);
        let car = Square::new(1, 0).unwrap();
        let score = |x, y| {
            let to = Square::new(x, y).unwrap();
            list.iter()
                .find(|(m, _)| m.from == car && m.to == to)
                .map(|e| e.1)
                .unwrap()
        };
        let escapes = [score(0, 0), score(2, 0), score(5, 0)];
        let stays = [score(1, 1), score(1, 4), score(1, 7)];
        let car_value = crate::engine::eval::value(PieceKind::Car);
        for e in escapes {
            assert_eq!(
                e,
                car_value * s.tunables.knob(crate::engine::tunables::X_THREAT_ORDER) / 4
            );
            for t in stays {
                assert!(e > t, "{escapes:?} {stays:?}");
            }
        }
        // The captain's moves are left to the history alone.
        let captain = Square::new(0, 4).unwrap();
        assert!(list
            .iter()
            .filter(|(m, _)| m.from == captain)
            .all(|e| e.1 == 0));
    }

    #[test]
    fn the_table_keeps_a_nodes_static_evaluation_not_the_bound_the_pruning_reads() {
        let table = Table::new(1);
        let mut history = vec![0; crate::engine::history::HISTORY_LEN];
        // A position from a game, where the search finds more than the evaluation sees.
        let board: Board = "rhegkge1r/2s6/6h1d/3ss1s1s/9/2S4S1/S7S/D1HSE3D/9/R2GKGEHR b"
            .parse()
            .unwrap();
        let mut s = Search::new(&board, Setup::new(), &table, &mut history);
        assert_ne!(
            s.tunables.knob(X_TT_EVAL),
            0,
            "the bound is read by default"
        );
        // From the second iteration on, the root finds its own stored score in the
        // table, and the pruning reads that score in place of the static evaluation.
        for depth in 1..=4 {
            s.negamax(depth, 0, -MATE - 1, MATE + 1, true);
        }
        let entry = table
            .probe(tt::hash_of(&board))
            .expect("the root is stored");
        let eval = s.static_eval();
        assert_ne!(
            tt::from_tt(entry.score, 0),
            eval,
            "the search's score differs from the static evaluation here"
        );
        assert_eq!(entry.eval, eval);
    }
}
