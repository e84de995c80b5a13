//! The computer opponent: alpha-beta search (principal variation search with a
//! transposition table, killer moves and history ordering) under iterative deepening,
//! a quiescence search over captures, and an evaluation of material and mobility.
//!
//! Duck chess has no rule against moving into danger, so the search treats the captain
//! like any other piece except that taking it ends the game: a side that can take the
//! opposing captain has won (scored as a mate one ply away), and a side whose captain is
//! attacked must deal with it, which the quiescence search respects by not "standing pat"
//! in that case. Moves come from [`rules::for_each_move`], the generator the judge's rules
//! table drives. Not on the judge path.

pub use crate::engine::eval::MATE;

use crate::engine::eval::{eval_mut, value};
use crate::judge::board::Board;
use crate::judge::piece::{Color, Piece, PieceKind, Square, SQUARE_SLOTS};
use crate::judge::rules::{self, Move};
use std::time::{Duration, Instant};

/// The deepest the search ever goes, extensions and quiescence included.
pub const MAX_PLY: usize = 96;
/// Scores at least this large in magnitude are wins or losses, not material.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 2;

/// How many times in a row one quiescence line may answer an attack on its captain with
/// every move rather than only captures.
const EVASIONS: u32 = 2;

/// How a search is bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration (plies of full-width search, before quiescence).
    pub depth: u32,
    /// The thinking time; `None` searches to `depth` whatever it takes. The first
    /// iteration always completes, so a move is found however short the time.
    pub time: Option<Duration>,
}

impl Limits {
    /// Exactly `depth` plies, no clock: the same answer on every machine (for tests).
    pub fn depth(depth: u32) -> Limits {
        Limits { depth, time: None }
    }

    /// As deep as `time` allows.
    pub fn time(time: Duration) -> Limits {
        Limits {
            depth: MAX_PLY as u32 / 2,
            time: Some(time),
        }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// The move to play, or `None` when the side to move has none (the game is over, or
    /// every piece is stuck).
    pub best: Option<Move>,
    /// Its score for the side to move: centipawns, or `MATE - n` for a win in `n` plies
    /// (negative for a loss).
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
}

impl Report {
    /// The number of plies to a forced captain capture (positive when the side to move
    /// wins, negative when it loses), or `None` when the score is not a forced result.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score >= MATE_BOUND {
            Some(MATE - self.score)
        } else if self.score <= -MATE_BOUND {
            Some(-(MATE + self.score))
        } else {
            None
        }
    }
}

/// Searches `board` to exactly `depth` plies with a fresh engine: deterministic.
pub fn search_depth(board: &Board, depth: u32) -> Report {
    Engine::new().search(board, Limits::depth(depth))
}

/// Searches `board` for about `time` with a fresh engine.
pub fn search_time(board: &Board, time: Duration) -> Report {
    Engine::new().search(board, Limits::time(time))
}

/// Bound kinds of a transposition-table score.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    best: Option<Move>,
    score: i32,
    depth: u8,
    bound: Bound,
}

const EMPTY: Entry = Entry {
    key: 0,
    best: None,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
};

/// log2 of the number of transposition-table entries: 2^18 entries of 24 bytes, 6 MB,
/// plenty for searches of a second or so.
const TT_BITS: u32 = 18;

/// A searcher that keeps what it learnt (transposition table, move-ordering statistics)
/// from one move to the next of a game. Create one per game and call
/// [`Engine::search`] for each move.
pub struct Engine {
    tt: Vec<Entry>,
    history: Vec<i32>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

// Zobrist keys for (colour, kind, square) and the side to move, fixed at compile time
// so that hashes are the same in every run.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

static ZOBRIST: [[u64; SQUARE_SLOTS]; 14] = {
    let mut table = [[0u64; SQUARE_SLOTS]; 14];
    let mut i = 0;
    while i < 14 {
        let mut s = 0;
        while s < SQUARE_SLOTS {
            table[i][s] =
                splitmix(((i * SQUARE_SLOTS + s) as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
            s += 1;
        }
        i += 1;
    }
    table
};
const ZOBRIST_BLUE: u64 = splitmix(0xB1BE);

#[inline]
fn piece_key(piece: Piece, square: Square) -> u64 {
    ZOBRIST[piece.color.index() * 7 + piece.kind.index()][square.index()]
}

/// The Zobrist hash of a position.
fn hash_of(board: &Board) -> u64 {
    let mut h = board.pieces().fold(0, |h, (s, p)| h ^ piece_key(p, s));
    if board.side_to_move() == Color::Blue {
        h ^= ZOBRIST_BLUE;
    }
    h
}

impl Engine {
    /// An engine with an empty transposition table.
    pub fn new() -> Engine {
        Engine {
            tt: vec![EMPTY; 1 << TT_BITS],
            history: vec![0; SQUARE_SLOTS * SQUARE_SLOTS],
        }
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = EMPTY);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Finds a move for the side to move of `board` within `limits`.
    ///
    /// A captain that can be taken is taken at once. Otherwise iterative deepening runs
    /// from depth 1; every completed iteration sees at least one ply plus quiescence, so
    /// the move never leaves its own captain capturable when some move prevents that.
    pub fn search(&mut self, board: &Board, limits: Limits) -> Report {
        let started = Instant::now();
        let mut s = Search {
            board: board.clone(),
            hash: hash_of(board),
            tt: &mut self.tt,
            history: &mut self.history,
            killers: [[None; 2]; MAX_PLY + 1],
            buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(96)).collect(),
            nodes: 0,
            // A budget too large for the clock is no budget.
            deadline: limits.time.and_then(|t| started.checked_add(t)),
            can_stop: false,
            stopped: false,
            root_best: None,
        };
        // Age the history so that one game's old statistics do not dominate.
        s.history.iter_mut().for_each(|h| *h /= 8);
        let moves = rules::legal_moves(board);
        let mut report = Report {
            best: moves.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if moves.is_empty() {
            report.score = eval_mut(&mut s.board);
            return report;
        }
        let side = board.side_to_move();
        if let Some(&win) = moves
            .iter()
            .find(|m| board.piece_at(m.to) == Some(Piece::new(side.opponent(), PieceKind::Captain)))
        {
            report.best = Some(win);
            report.score = MATE - 1;
            return report;
        }
        for depth in 1..=limits.depth.clamp(1, MAX_PLY as u32 / 2) {
            s.root_best = None;
            let score = s.negamax(depth as i32, 0, -MATE - 1, MATE + 1);
            if s.stopped {
                // A root move that beat the previous best in a full search is still
                // trustworthy; the previous best was searched first.
                if let Some((m, sc, index)) = s.root_best {
                    if index > 0 {
                        report.best = Some(m);
                        report.score = sc;
                    }
                }
                break;
            }
            if let Some((m, _, _)) = s.root_best {
                report.best = Some(m);
            }
            report.score = score;
            report.depth = depth;
            s.can_stop = true;
            if score.abs() >= MATE_BOUND && MATE - score.abs() <= depth as i32 {
                break; // a forced result within the horizon: deeper adds nothing
            }
            if let (Some(deadline), Some(time)) = (s.deadline, limits.time) {
                // The next iteration costs several times this one: do not start what
                // cannot finish.
                if Instant::now()
                    .checked_add(time / 2)
                    .is_none_or(|t| t > deadline)
                {
                    break;
                }
            }
        }
        report.nodes = s.nodes;
        report
    }
}

struct Search<'a> {
    board: Board,
    hash: u64,
    tt: &'a mut Vec<Entry>,
    history: &'a mut Vec<i32>,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    buffers: Vec<Vec<(Move, i32)>>,
    nodes: u64,
    deadline: Option<Instant>,
    can_stop: bool,
    stopped: bool,
    root_best: Option<(Move, i32, usize)>,
}

/// Move-ordering scores: the table move, then captains and captures by victim value
/// (the cheaper attacker first), then killers, then quiet moves by history.
const ORDER_TT: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 24;
const ORDER_KILLER: i32 = 1 << 22;

impl Search<'_> {
    #[inline]
    fn make(&mut self, m: Move) -> Option<Piece> {
        if let Some(p) = self.board.piece_at(m.from) {
            self.hash ^= piece_key(p, m.from) ^ piece_key(p, m.to);
        }
        let captured = self.board.make_move(m.from, m.to);
        if let Some(c) = captured {
            self.hash ^= piece_key(c, m.to);
        }
        self.hash ^= ZOBRIST_BLUE;
        captured
    }

    #[inline]
    fn unmake(&mut self, m: Move, captured: Option<Piece>) {
        self.board.unmake_move(m.from, m.to, captured);
        if let Some(p) = self.board.piece_at(m.from) {
            self.hash ^= piece_key(p, m.from) ^ piece_key(p, m.to);
        }
        if let Some(c) = captured {
            self.hash ^= piece_key(c, m.to);
        }
        self.hash ^= ZOBRIST_BLUE;
    }

    /// Counts a node and checks the clock now and then.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.can_stop && self.nodes & 1023 == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = true;
                }
            }
        }
        self.stopped
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

    /// What every search node checks first: time (a stopped search scores 0, and the
    /// caller discards it), a decided game, and the ply limit. `Ok` carries the side to
    /// move's captain square when the node must be searched; `Err` the node's score.
    #[inline]
    fn enter(&mut self, ply: usize) -> Result<Square, i32> {
        if self.tick() {
            return Err(0);
        }
        let mine = self.decided(ply)?;
        if ply >= MAX_PLY {
            return Err(eval_mut(&mut self.board));
        }
        Ok(mine)
    }

    /// Fills the buffer of `ply` with the moves (all, or only captures) and their
    /// ordering scores, best first.
    fn ordered(
        &mut self,
        ply: usize,
        captures_only: bool,
        tt_move: Option<Move>,
    ) -> Vec<(Move, i32)> {
        let mut list = std::mem::take(&mut self.buffers[ply]);
        list.clear();
        let board = &self.board;
        let killers = self.killers[ply];
        let history = &self.history;
        rules::for_each_move(board, |m| {
            let victim = board.piece_at(m.to);
            if captures_only && victim.is_none() {
                return;
            }
            let score = if Some(m) == tt_move {
                ORDER_TT
            } else if let Some(v) = victim {
                let attacker = board.piece_at(m.from).map_or(0, |p| value(p.kind));
                let v = if v.kind == PieceKind::Captain {
                    10_000
                } else {
                    value(v.kind)
                };
                ORDER_CAPTURE + v * 16 - attacker / 16
            } else if killers.contains(&Some(m)) {
                ORDER_KILLER
            } else {
                history[m.from.index() * SQUARE_SLOTS + m.to.index()]
            };
            list.push((m, score));
        });
        list.sort_unstable_by_key(|e| std::cmp::Reverse(e.1));
        list
    }

    fn negamax(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        let mine = match self.enter(ply) {
            Ok(s) => s,
            Err(score) => return score,
        };
        // An attacked captain must be answered: look one ply further so that the
        // answer is not left to the horizon.
        let threatened =
            rules::is_attacked(&self.board, mine, self.board.side_to_move().opponent());
        let depth = if threatened && ply < MAX_PLY / 2 {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.quiesce(ply, alpha, beta, EVASIONS);
        }

        let slot = (self.hash as usize) & ((1 << TT_BITS) - 1);
        let entry = self.tt[slot];
        let mut tt_move = None;
        if entry.key == self.hash {
            tt_move = entry.best;
            if ply > 0 && entry.depth as i32 >= depth {
                let score = from_tt(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }

        let list = self.ordered(ply, false, tt_move);
        if list.is_empty() {
            self.buffers[ply] = list;
            return 0; // stuck without a move: nobody can win from here
        }
        let original_alpha = alpha;
        let mut best = -MATE - 1;
        let mut best_move = None;
        for (i, &(m, _)) in list.iter().enumerate() {
            let captured = self.make(m);
            let score = if i == 0 {
                -self.negamax(depth - 1, ply + 1, -beta, -alpha)
            } else {
                let probe = -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.negamax(depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            self.unmake(m, captured);
            if self.stopped {
                self.buffers[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if ply == 0 {
                    self.root_best = Some((m, score, i));
                }
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if captured.is_none() {
                    let k = &mut self.killers[ply];
                    if k[0] != Some(m) {
                        k[1] = k[0];
                        k[0] = Some(m);
                    }
                    let h = &mut self.history[m.from.index() * SQUARE_SLOTS + m.to.index()];
                    *h = (*h + depth * depth).min(ORDER_KILLER - 1);
                }
                break;
            }
        }
        self.buffers[ply] = list;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt[slot] = Entry {
            key: self.hash,
            best: best_move,
            score: to_tt(best, ply),
            depth: depth.clamp(0, 255) as u8,
            bound,
        };
        best
    }

    /// Quiescence: captures only, with the static evaluation as a floor ("stand pat"),
    /// except when the side's captain is attacked: then standing still loses it, so
    /// every move is tried (at most `evasions` times along a line).
    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, evasions: u32) -> i32 {
        let mine = match self.enter(ply) {
            Ok(s) => s,
            Err(score) => return score,
        };
        let threatened = evasions > 0
            && rules::is_attacked(&self.board, mine, self.board.side_to_move().opponent());
        let mut best = -MATE - 1;
        if !threatened {
            best = eval_mut(&mut self.board);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let list = self.ordered(ply, !threatened, None);
        if list.is_empty() && threatened {
            self.buffers[ply] = list;
            return 0;
        }
        let next = if threatened { evasions - 1 } else { evasions };
        for &(m, _) in list.iter() {
            let captured = self.make(m);
            let score = -self.quiesce(ply + 1, -beta, -alpha, next);
            self.unmake(m, captured);
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
        best
    }
}

/// Mate scores are stored relative to the node, so a table hit at another ply reads
/// the right distance.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_hash_matches_full_hash() {
        let mut engine = Engine::new();
        let board = Board::start();
        let mut s = Search {
            board: board.clone(),
            hash: hash_of(&board),
            tt: &mut engine.tt,
            history: &mut engine.history,
            killers: [[None; 2]; MAX_PLY + 1],
            buffers: vec![Vec::new(); MAX_PLY + 1],
            nodes: 0,
            deadline: None,
            can_stop: false,
            stopped: false,
            root_best: None,
        };
        let mut played = Vec::new();
        for i in 0..40 {
            let moves = rules::legal_moves(&s.board);
            if moves.is_empty() {
                break;
            }
            let m = moves[(i * 7) % moves.len()];
            let c = s.make(m);
            played.push((m, c));
            assert_eq!(s.hash, hash_of(&s.board));
        }
        while let Some((m, c)) = played.pop() {
            s.unmake(m, c);
            assert_eq!(s.hash, hash_of(&s.board));
        }
        assert_eq!(s.board, board);
    }
}
