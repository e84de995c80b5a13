//! The file built for what a solution must hold: crowded positions, in which the side to
//! move has [`CROWD`] legal moves or more and moves the piece each order of scanning
//! reaches last, for both sides; then every piece but the captains taken; then one
//! captain takes the other, and commands follow the end.
//!
//! The crowd is grown by a greedy climb: each side plays the move after which both sides
//! together have the most legal moves (captures of the pieces that move least thin the
//! board that way). The massacre takes what can be taken, else brings each side's pieces
//! to the other's, and a side left with pieces beside a bare captain offers them to it.

use crate::generate::case::{cmd_of, Cmd};
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules;
use crate::model::pieces;
use crate::model::statement::capacity::{late, late_in_both, mobility, Scan, CROWD, LONG_RUN};
use crate::model::statement::geometry::shifts;
use crate::model::statement::refusals;
use crate::model::statement::{Cell, Counter, Load, Onto};
use crate::sys::rng::Rng;

/// Plies the crowd may take, at most.
const CROWD_PLIES: usize = 500;
/// Moves of the crowded side without a new most of its legal moves after which the
/// climb lets it take soldiers in its way too.
const STALL: usize = 8;
/// Seeds the file is made from, at most, the best kept (one attempt takes about 0.1 s).
const ATTEMPTS: u64 = 96;
/// Plies the massacre may take, at most.
const MASSACRE_PLIES: usize = 400;
/// Pieces on the board, at most, while cars are brought to far captures.
const FAR_PIECES: usize = 20;
/// Commands after the end, at most.
const AFTER_END: usize = 12;

/// The game being written, with the starting number of the piece on each square.
struct Capacity<'a> {
    counter: Counter,
    cmds: Vec<Cmd>,
    hits: &'a mut [u64],
    rng: Rng,
    ids: [u8; 90],
    room: usize,
}

/// An attempt's score (capacity cells, then other cells newly reached), its commands and
/// the hits after it.
type Attempt = ((usize, usize), Vec<Cmd>, Vec<u64>);

/// The capacity file, after the files whose model hits are `hits` (updated with this
/// one's): at most `room` commands.
pub fn file(hits: &mut [u64], seed: u64, room: usize) -> Vec<Cmd> {
    // The climbs are greedy and some stall: the file is made from a few seeds, and the
    // one that reaches the most cells still wanted (then the shortest) is kept.
    let mut best: Option<Attempt> = None;
    for attempt in 0..ATTEMPTS {
        let mut tried = hits.to_vec();
        let cmds = attempt_file(&mut tried, seed ^ attempt.wrapping_mul(0x9E37_79B9), room);
        // The capacity cells first: no other file reaches them.
        let loads = load_count(&tried);
        let score = (loads, newly(hits, &tried));
        let better = best
            .as_ref()
            .is_none_or(|(r, c, _)| score > *r || (score == *r && cmds.len() < c.len()));
        let done = loads == Load::all().len();
        if better {
            best = Some((score, cmds, tried));
        }
        if done {
            break;
        }
    }
    let (_, cmds, tried) = best.expect("one attempt at least");
    hits.copy_from_slice(&tried);
    cmds
}

/// How many capacity cells `hits` has reached (those the model cannot reach count as
/// reached).
fn load_count(hits: &[u64]) -> usize {
    Load::all()
        .into_iter()
        .filter(|&load| Cell::Load(load).index().is_none_or(|i| hits[i] > 0))
        .count()
}

/// How many cells `tried` reaches that `hits` had not.
fn newly(hits: &[u64], tried: &[u64]) -> usize {
    tried
        .iter()
        .zip(hits)
        .filter(|(t, h)| **h == 0 && **t > 0)
        .count()
}

/// One attempt at the file, from `seed`.
fn attempt_file(hits: &mut [u64], seed: u64, room: usize) -> Vec<Cmd> {
    let mut ids = [u8::MAX; 90];
    for s in pieces::by_id() {
        ids[s.square().bit() as usize] = s.id;
    }
    let mut s = Capacity {
        counter: Counter::new(),
        cmds: Vec::new(),
        hits,
        rng: Rng::new(seed),
        ids,
        room,
    };
    s.crowd();
    s.long_run();
    s.massacre();
    s.end();
    s.cmds
}

/// How many legal moves `side` has on `board`, as if it were to move.
fn moves(board: &Board, side: Color) -> usize {
    mobility(board, side, |_| 0).0
}

/// How far apart two squares are, in king steps.
fn apart(a: Square, b: Square) -> u8 {
    a.x().abs_diff(b.x()).max(a.y().abs_diff(b.y()))
}

impl Capacity<'_> {
    fn board(&self) -> &Board {
        self.counter.game().board()
    }

    fn full(&self) -> bool {
        self.cmds.len() >= self.room
    }

    fn wanted(&self, cell: Cell) -> bool {
        cell.index().is_some_and(|i| self.hits[i] == 0)
    }

    /// Plays `c` for good.
    fn push(&mut self, c: Cmd) {
        if self.full() {
            return;
        }
        let legal = self.counter.game().validate(c[0], c[1], c[2], c[3]).is_ok();
        let hits = &mut *self.hits;
        self.counter.play(c, |cell| {
            if let Some(i) = cell.index() {
                hits[i] += 1;
            }
        });
        if let (true, Some(from), Some(to)) =
            (legal, Square::new(c[0], c[1]), Square::new(c[2], c[3]))
        {
            self.ids[to.bit() as usize] = self.ids[from.bit() as usize];
            self.ids[from.bit() as usize] = u8::MAX;
        }
        self.cmds.push(c);
    }

    /// The legal moves of the side to move, but those that take a captain.
    fn moves(&self) -> Vec<(Square, Square)> {
        let board = self.board();
        rules::legal_moves(board)
            .into_iter()
            .filter(|m| {
                board
                    .piece_at(m.to)
                    .is_none_or(|p| p.kind != PieceKind::Captain)
            })
            .map(|m| (m.from, m.to))
            .collect()
    }

    /// The board after the move `from` to `to`.
    fn after(&self, from: Square, to: Square) -> Board {
        let mut game = self.counter.game().clone();
        let _ = game.play(
            i64::from(from.x()),
            i64::from(from.y()),
            i64::from(to.x()),
            i64::from(to.y()),
        );
        game.board().clone()
    }

    /// Of `choices`, the move after which `side` has the most legal moves, as if it
    /// were to move (the first of those drawn at random); captures only of the pieces
    /// that move least (guards and elephants), so that the other side keeps its own
    /// crowd for later.
    fn best_for(
        &mut self,
        side: Color,
        choices: &[(Square, Square)],
        stuck: bool,
    ) -> Option<(Square, Square)> {
        let last = side == Color::ALL[1];
        let board = self.board().clone();
        let mut best: Vec<(Square, Square)> = Vec::new();
        let mut top = 0;
        // A climb that has stalled lets the crowded side take soldiers in its way too.
        let free = stuck && board.side_to_move() == side;
        for &(from, to) in choices {
            // The other side keeps its cars, horses and ducks for its own crowd, while
            // it has one to come.
            let spared = board.piece_at(to).is_none_or(|p| match p.kind {
                PieceKind::Guard | PieceKind::Elephant => true,
                _ => free && last,
            });
            if !spared {
                continue;
            }
            let n = moves(&self.after(from, to), side) + 1;
            if n > top {
                top = n;
                best.clear();
            }
            if n == top {
                best.push((from, to));
            }
        }
        self.rng.pick(&best)
    }

    /// Crowded positions for each side in turn: both sides play for that side's legal
    /// moves, and in a crowded position it moves the piece an order reaches last, while
    /// such a cell is wanted.
    fn crowd(&mut self) {
        for crowded in Color::ALL {
            let wanted = |s: &Self| {
                Scan::ALL.iter().any(|&scan| {
                    s.wanted(Cell::Load(Load::Crowded(crowded, scan)))
                        || s.wanted(Cell::Load(Load::CrowdedCheck(crowded, scan)))
                        || s.wanted(Cell::Load(Load::LateCheck(crowded, scan)))
                })
            };
            let (mut top, mut stale) = (0, 0);
            for _ in 0..CROWD_PLIES {
                if self.full() || !wanted(self) || self.board().is_over() {
                    break;
                }
                if let Some((from, to)) = self.crowded_check(crowded) {
                    self.push(cmd_of(from, to));
                    continue;
                }
                let side = self.board().side_to_move();
                let ids = self.ids;
                let (n, last) = mobility(self.board(), side, |s| ids[s.bit() as usize]);
                let all = self.moves();
                let mut choices = all.clone();
                if side == crowded && n >= CROWD {
                    let target = Scan::ALL
                        .iter()
                        .zip(last)
                        .find(|(&scan, _)| self.wanted(Cell::Load(Load::Crowded(side, scan))))
                        .and_then(|(_, at)| at);
                    if let Some(piece) = target {
                        choices.retain(|m| m.0 == piece);
                    }
                }
                if side == crowded {
                    if n > top {
                        (top, stale) = (n, 0);
                    } else {
                        stale += 1;
                    }
                }
                let stuck = stale >= STALL;
                let chosen = self
                    .best_for(crowded, &choices, stuck)
                    .or_else(|| self.best_for(crowded, &all, stuck))
                    .or_else(|| self.rng.pick(&all));
                let Some((from, to)) = chosen else {
                    return;
                };
                self.push(cmd_of(from, to));
            }
        }
    }

    /// The orders of scanning whose cells of a check by `side`'s last piece (in a crowded
    /// position; in a list of both sides' moves) are still wanted.
    fn check_scans(&self, side: Color) -> (Vec<usize>, Vec<usize>) {
        let wanted = |load: fn(Color, Scan) -> Load| -> Vec<usize> {
            (0..Scan::ALL.len())
                .filter(|&i| self.wanted(Cell::Load(load(side, Scan::ALL[i]))))
                .collect()
        };
        (wanted(Load::CrowdedCheck), wanted(Load::LateCheck))
    }

    /// The pieces of `side` on `board` whose only check would reach a wanted cell of the
    /// orders `scans` (crowded; in both sides' list).
    fn late_pieces(
        board: &Board,
        side: Color,
        id: impl Fn(Square) -> u8 + Copy,
        scans: &(Vec<usize>, Vec<usize>),
    ) -> Vec<Square> {
        let mut out = Vec::new();
        let crowded = late(board, side, id);
        let both = late_in_both(board, side, id);
        for &i in &scans.0 {
            out.extend(crowded[i].iter().copied());
        }
        for &i in &scans.1 {
            out.extend(both[i].iter().copied());
        }
        out
    }

    /// A move towards the only check by the piece `crowded` scans last in a crowded
    /// position (or lists after the first of both sides' moves): one that makes it (by
    /// either side), or else, the other side to move, a step of its captain towards a
    /// square that piece alone attacks.
    fn crowded_check(&mut self, crowded: Color) -> Option<(Square, Square)> {
        let scans = self.check_scans(crowded);
        if scans.0.is_empty() && scans.1.is_empty() {
            return None;
        }
        let ids = self.ids;
        let id = move |s: Square| ids[s.bit() as usize];
        let other = crowded.opponent();
        let makes = |b: &Board, scans: &(Vec<usize>, Vec<usize>)| -> bool {
            let (Some(theirs), Some(ours)) = (b.captain(other), b.captain(crowded)) else {
                return false;
            };
            let by = rules::attackers(b, theirs, crowded);
            if by.len() != 1 || !rules::attackers(b, ours, other).is_empty() {
                return false;
            }
            Self::late_pieces(b, crowded, id, scans).contains(&by[0])
        };
        let all = self.moves();
        // The checks of a crowded side first: a list of both sides' moves is long sooner.
        let crowded_only = (scans.0.clone(), Vec::new());
        for wanted in [&crowded_only, &scans] {
            let made = all
                .iter()
                .find(|&&(from, to)| makes(&self.after(from, to), wanted));
            if let Some(&m) = made {
                return Some(m);
            }
        }
        let board = self.board().clone();
        if board.side_to_move() != other {
            return None;
        }
        let pieces = Self::late_pieces(&board, crowded, id, &scans);
        let captain = board.captain(other)?;
        // The squares the piece alone attacks, empty.
        let goals: Vec<Square> = Square::all()
            .filter(|&t| board.is_empty(t))
            .filter(|&t| {
                let by = rules::attackers(&board, t, crowded);
                by.len() == 1 && pieces.contains(&by[0])
            })
            .collect();
        let goal = goals.iter().min_by_key(|&&t| apart(t, captain))?;
        all.iter()
            .copied()
            .filter(|&(from, _)| from == captain)
            .filter(|&(_, to)| board.is_empty(to))
            .min_by_key(|&(_, to)| apart(to, *goal))
            .filter(|&(_, to)| apart(to, *goal) < apart(captain, *goal))
    }

    /// A run of [`LONG_RUN`] invalid commands, then a legal move: the side to move's
    /// pieces tried by displacements no shape of theirs has, onto empty squares (those
    /// the model still wants first).
    fn long_run(&mut self) {
        if !self.wanted(Cell::Load(Load::LongRun)) || self.board().is_over() {
            return;
        }
        let board = self.board().clone();
        let side = board.side_to_move();
        let mut wanted = Vec::new();
        let mut others = Vec::new();
        for (from, _) in board.pieces().filter(|(_, p)| p.color == side) {
            for d in shifts() {
                let Some(to) = from.offset(d) else { continue };
                let cells = refusals::refused(&board, side, from, to);
                if !board.is_empty(to) || !matches!(cells[..], [Cell::Refused(..)]) {
                    continue;
                }
                if self.wanted(cells[0]) {
                    wanted.push(cmd_of(from, to));
                } else {
                    others.push(cmd_of(from, to));
                }
            }
        }
        let run: Vec<Cmd> = wanted.into_iter().chain(others).take(LONG_RUN).collect();
        let Some(&(from, to)) = self.moves().first() else {
            return;
        };
        if run.len() < LONG_RUN || self.cmds.len() + LONG_RUN + 1 > self.room {
            return;
        }
        for c in run {
            self.push(c);
        }
        self.push(cmd_of(from, to));
    }

    /// Every piece but the captains taken: each side takes what it can, else brings its
    /// pieces nearer the other side's, and a side whose opponent has only its captain
    /// left offers its pieces to that captain.
    fn massacre(&mut self) {
        for _ in 0..MASSACRE_PLIES {
            let board = self.board().clone();
            if self.full() || board.is_over() || board.pieces().count() <= 2 {
                return;
            }
            let side = board.side_to_move();
            let all = self.moves();
            if let Some((from, to)) = self.far_capture(&board, &all) {
                self.push(cmd_of(from, to));
                continue;
            }
            // A car is taken last while the model wants far captures of its side's cars.
            let spared = |c: Color| {
                Square::all().any(|a| {
                    Square::all().any(|t| {
                        let (dx, dy) = t.delta_from(a);
                        (dx == 0) != (dy == 0) && self.wanted(Self::far_cell(c, a, t))
                    })
                })
            };
            let spare_theirs = spared(side.opponent());
            let takes: Vec<(Square, Square)> = all
                .iter()
                .copied()
                .filter(|m| {
                    board.piece_at(m.1).is_some_and(|p| {
                        p.kind != PieceKind::Car || !spare_theirs || board.pieces().count() <= 4
                    })
                })
                .collect();
            let chosen = if takes.is_empty() {
                self.nearer(&board, side, &all)
            } else {
                self.rng.pick(&takes)
            };
            let Some((from, to)) = chosen else {
                return;
            };
            self.push(cmd_of(from, to));
        }
    }

    /// The cell of a car's capture from `from` onto `to` by `side`.
    fn far_cell(side: Color, from: Square, to: Square) -> Cell {
        let d = to.delta_from(from);
        Cell::ShapeOnto(side, PieceKind::Car, d.0, d.1, Onto::Enemy)
    }

    /// Whether every square strictly between `a` and `b` (on one line) is empty on
    /// `board`.
    fn line_clear(board: &Board, a: Square, b: Square) -> bool {
        let (dx, dy) = b.delta_from(a);
        let n = dx.abs().max(dy.abs());
        let step = (dx.signum(), dy.signum());
        (1..n).all(|k| {
            a.offset((step.0 * k, step.1 * k))
                .is_some_and(|s| board.is_empty(s))
        })
    }

    /// While the board thins, the captures by a car along a line the model still wants
    /// (the far ones random play seldom makes): take one; else offer a piece where the
    /// other side's car would take it so; else bring a car to where a piece of the other
    /// side can step in front of it. Only once few pieces are left, so that lines are
    /// open.
    fn far_capture(&mut self, board: &Board, all: &[(Square, Square)]) -> Option<(Square, Square)> {
        if board.pieces().count() > FAR_PIECES {
            return None;
        }
        let side = board.side_to_move();
        let is_car = |s: Square, c: Color| {
            board
                .piece_at(s)
                .is_some_and(|p| p.color == c && p.kind == PieceKind::Car)
        };
        // Take.
        let take = all.iter().copied().find(|&(from, to)| {
            is_car(from, side)
                && board.piece_at(to).is_some()
                && self.wanted(Self::far_cell(side, from, to))
        });
        if take.is_some() {
            return take;
        }
        // Offer: a piece (not the captain) steps where the other side's car takes it
        // along a clear line.
        let theirs: Vec<Square> = board
            .pieces()
            .filter(|(_, p)| p.color != side && p.kind == PieceKind::Car)
            .map(|(s, _)| s)
            .collect();
        let offer = all.iter().copied().find(|&(from, to)| {
            let moved = board
                .piece_at(from)
                .is_some_and(|p| p.kind != PieceKind::Captain);
            moved
                && board.is_empty(to)
                && theirs.iter().any(|&car| {
                    let (dx, dy) = to.delta_from(car);
                    (dx == 0) != (dy == 0)
                        && self.wanted(Self::far_cell(side.opponent(), car, to))
                        && Self::line_clear(&self.after(from, to), car, to)
                })
        });
        if offer.is_some() {
            return offer;
        }
        // Bring a car: to a square from which a wanted capture lands on a square a piece
        // of the other side can step onto next.
        all.iter().copied().find(|&(from, to)| {
            if !is_car(from, side) || !board.is_empty(to) {
                return false;
            }
            let after = self.after(from, to);
            Square::all().any(|t| {
                let (dx, dy) = t.delta_from(to);
                (dx == 0) != (dy == 0)
                    && after.is_empty(t)
                    && self.wanted(Self::far_cell(side, to, t))
                    && Self::line_clear(&after, to, t)
                    && rules::legal_moves(&after).iter().any(|m| {
                        m.to == t
                            && after
                                .piece_at(m.from)
                                .is_some_and(|p| p.kind != PieceKind::Captain)
                    })
            })
        })
    }

    /// The move of `side` that brings its pieces nearest what they should meet: the
    /// other side's pieces, or, with only a captain left over there, that captain.
    fn nearer(
        &mut self,
        board: &Board,
        side: Color,
        all: &[(Square, Square)],
    ) -> Option<(Square, Square)> {
        let theirs: Vec<Square> = board
            .pieces()
            .filter(|(_, p)| p.color != side && p.kind != PieceKind::Captain)
            .map(|(s, _)| s)
            .collect();
        let targets = if theirs.is_empty() {
            board.captain(side.opponent()).into_iter().collect()
        } else {
            theirs
        };
        let score = |b: &Board| -> u32 {
            b.pieces()
                .filter(|(_, p)| p.color == side)
                .map(|(s, _)| {
                    targets
                        .iter()
                        .map(|&t| u32::from(apart(s, t)))
                        .min()
                        .unwrap_or(0)
                })
                .sum()
        };
        let mut best = Vec::new();
        let mut low = u32::MAX;
        for &(from, to) in all {
            let n = score(&self.after(from, to));
            if n < low {
                low = n;
                best.clear();
            }
            if n == low {
                best.push((from, to));
            }
        }
        self.rng.pick(&best)
    }

    /// One captain walks to the other and takes it; then commands after the end.
    fn end(&mut self) {
        for _ in 0..40 {
            let board = self.board().clone();
            if self.full() || board.is_over() {
                break;
            }
            let side = board.side_to_move();
            let Some(their) = board.captain(side.opponent()) else {
                break;
            };
            let moves = rules::legal_moves(&board);
            let take = moves.iter().find(|m| m.to == their);
            let step = take.or_else(|| moves.iter().min_by_key(|m| apart(m.to, their)));
            let Some(m) = step.copied() else {
                break;
            };
            self.push(cmd_of(m.from, m.to));
        }
        // After the end: the winner's captain tries its steps, each refused.
        let board = self.board().clone();
        let Some(winner) = board.winner().and_then(|w| board.captain(w)) else {
            return;
        };
        for d in [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .into_iter()
            .take(AFTER_END)
        {
            if let Some(t) = winner.offset(d) {
                self.push(cmd_of(winner, t));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::statement::cells;

    #[test]
    #[ignore = "slow (about 12 s: a whole file searched): the full tier runs it"]
    fn the_file_crowds_both_sides_and_takes_every_piece() {
        for seed in 1..=3 {
            let mut hits = vec![0u64; cells().len()];
            let cmds = file(&mut hits, seed, 1000);
            assert!(cmds.len() <= 1000);
            let mut counter = Counter::new();
            let mut seen = Vec::new();
            for &c in &cmds {
                counter.play(c, |cell| seen.push(cell));
            }
            let missing: Vec<Load> = Load::all()
                .into_iter()
                .filter(|&load| !seen.contains(&Cell::Load(load)))
                .collect();
            assert!(missing.is_empty(), "seed {seed}: {missing:?}");
            assert!(counter.most_moves().iter().all(|&n| n >= CROWD));
            let game = counter.game().board();
            assert_eq!(
                game.pieces().count(),
                1,
                "seed {seed}: every piece but a captain taken"
            );
        }
    }
}
