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
use crate::model::statement::capacity::{mobility, Scan, CROWD, LONG_RUN};
use crate::model::statement::refusals::{self, shifts};
use crate::model::statement::{Cell, Counter, Load, Onto};
use crate::sys::rng::Rng;

/// Plies the crowd may take, at most.
const CROWD_PLIES: usize = 500;
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

/// The capacity file, after the files whose model hits are `hits` (updated with this
/// one's): at most `room` commands.
pub fn file(hits: &mut [u64], seed: u64, room: usize) -> Vec<Cmd> {
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
    fn best_for(&mut self, side: Color, choices: &[(Square, Square)]) -> Option<(Square, Square)> {
        let board = self.board().clone();
        let mut best: Vec<(Square, Square)> = Vec::new();
        let mut top = 0;
        for &(from, to) in choices {
            let spared = board
                .piece_at(to)
                .is_none_or(|p| matches!(p.kind, PieceKind::Guard | PieceKind::Elephant));
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
                Scan::ALL
                    .iter()
                    .any(|&scan| s.wanted(Cell::Load(Load::Crowded(crowded, scan))))
            };
            for _ in 0..CROWD_PLIES {
                if self.full() || !wanted(self) || self.board().is_over() {
                    break;
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
                let chosen = self
                    .best_for(crowded, &choices)
                    .or_else(|| self.best_for(crowded, &all))
                    .or_else(|| self.rng.pick(&all));
                let Some((from, to)) = chosen else {
                    return;
                };
                if std::env::var_os("CROWD_DEBUG").is_some() {
                    eprintln!("{crowded} {side} n {n} {}", self.board());
                }
                self.push(cmd_of(from, to));
            }
        }
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
    #[ignore = "slow (about 10 s): the full tier runs it"]
    fn the_file_crowds_both_sides_and_takes_every_piece() {
        let mut hits = vec![0u64; cells().len()];
        let cmds = file(&mut hits, 1, 1000);
        assert!(cmds.len() <= 1000);
        let mut counter = Counter::new();
        let mut seen = Vec::new();
        for &c in &cmds {
            counter.play(c, |cell| seen.push(cell));
        }
        eprintln!(
            "{} commands, most moves {:?}",
            cmds.len(),
            counter.most_moves()
        );
        for load in crate::model::statement::Load::all() {
            assert!(seen.contains(&Cell::Load(load)), "{load:?}");
        }
    }
}
