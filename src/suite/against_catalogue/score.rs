//! What a continuation gains: the coverage cells it reaches and the mistakes it kills,
//! each worth less the more files already have it.
//!
//! Scoring is cheap because a slip in one row of the table can only change the answer to
//! a command that uses that row: a move by it, or a piece standing where that row would
//! threaten a captain. A slip's mutant is right until it first answers differently, so
//! it stands where the judge stands: it is made from the judge's state for the commands
//! that touch its row, and played on them alone. The same seed always gives the same
//! bytes, whatever the number of threads.

use super::{RowKey, Run, Search};
use crate::catalogue::for_suite::{Answer, Mistake, Offset, Use};
use crate::generate::case::Cmd;
use crate::judge::board::Board;
use crate::judge::piece::{PieceKind, Square};
use crate::judge::rules::{Reach, REACH};
use crate::model::table::Cell;

/// The row of `kind`'s table that goes by `delta`, if any: the leap itself, or the car's
/// direction.
pub(super) fn row_of(kind: PieceKind, (dx, dy): (i8, i8)) -> Option<Offset> {
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
pub(super) fn touched(before: &Board, c: Cmd, after: &Board, legal: bool, out: &mut Vec<RowKey>) {
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

/// What one candidate continuation gains.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Score {
    pub(super) gain: u64,
    /// Commands up to and including the last gain.
    pub(super) used: usize,
    /// Whether the game ends within them.
    pub(super) ends: bool,
    /// How many of the end's situations the end has (winner's captain attacked, taker
    /// attacked, taken square covered, corner covered).
    pub(super) situations: usize,
}

impl Score {
    /// Whether `self` gains more per command than `other`.
    pub(super) fn beats(&self, other: &Score) -> bool {
        // gain / (used + 2), compared without division.
        self.gain * (other.used as u64 + 2) > other.gain * (self.used as u64 + 2)
    }
}

impl Run {
    /// Plays `c`, calling `cell` for every coverage cell it reaches and `kill` for every
    /// mistake alive so far that answers it differently from the judge.
    pub(super) fn play(
        &mut self,
        s: &Search,
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

impl Search<'_> {
    /// What killing `m` is worth now.
    pub(super) fn kill_gain(&self, m: Mistake) -> u64 {
        match self.files[m.index()] {
            0 => self.plan.weights.first_kill,
            1 => self.plan.weights.second_kill,
            _ => 0,
        }
    }

    /// What one more hit of `cell` is worth, `extra` hits after those counted: more the
    /// less it is reached, nothing once it is reached often enough.
    pub(super) fn cell_gain(&self, cell: Cell, extra: u64) -> u64 {
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
    pub(super) fn score(&self, cont: &[Cmd]) -> Score {
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
    pub(super) fn scores(&self, candidates: &[Vec<Cmd>]) -> Vec<Score> {
        crate::sys::ordered::on_threads(self.plan.jobs, candidates, |c| self.score(c))
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
    fn rows_are_found_by_delta() {
        assert_eq!(row_of(PieceKind::Horse, (2, 1)), Some((2, 1)));
        assert_eq!(row_of(PieceKind::Horse, (2, 2)), None);
        assert_eq!(row_of(PieceKind::Car, (0, -5)), Some((0, -1)));
        assert_eq!(row_of(PieceKind::Car, (1, 1)), None);
    }
}
