//! The end of a file's game, and the commands after it.
//!
//! Each file ends: the game's end is sought where the winner's captain stands attacked,
//! the loser could take the piece that took the captain, another winner's piece covers
//! the taken square and the winner covers (0, 0) (the squares a solution that still
//! looks for check might look at), relaxing that as the room shrinks; commands after the
//! end follow, first the moves a solution that plays on would accept. So every file
//! kills what it can from the start of a game, and every mistake should die in two files
//! of three.

use super::{Allowed, Search, AFTER_END};
use crate::generate::case::{cmd_of, Cmd};
use crate::generate::mode::Mode;
use crate::generate::position::rule_targets;
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules;
use crate::model::table::Cell;

/// Whether `c` is a legal move that takes a captain, in `game`'s position.
pub(super) fn takes_captain(game: &Game, c: Cmd) -> bool {
    game.validate(c[0], c[1], c[2], c[3]).is_ok()
        && Square::new(c[2], c[3])
            .and_then(|s| game.board().piece_at(s))
            .is_some_and(|p| p.kind == PieceKind::Captain)
}

/// How near `side` stands to winning with the situations a solution that still looks
/// for check might find: its attackers of the other captain (two count: one takes, one
/// still covers the square), the other side attacking its captain, the other side
/// covering its own captain's square (so it could take the taker), its cover of (0, 0),
/// and its turn.
pub(super) fn promise(board: &Board, side: Color) -> usize {
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

impl Search<'_> {
    /// Ends the game, preferring an end with all four situations a solution that still
    /// looks for check might find (the winner's captain attacked, the taker attacked,
    /// the taken square covered, the corner covered), fewer as the `budget` runs out. A
    /// capture of a captain with enough situations is taken; else the game goes on by
    /// the move that brings either side nearest such an end ([`promise`]). Out of
    /// budget, a decisive game to the end.
    pub(super) fn end(&mut self, budget: usize) {
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
    pub(super) fn after_end(&mut self) {
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

    /// After the end: every piece sent where its rule would take it, and onto the
    /// nearest piece of its own side (refused whether or not the game is over).
    pub(super) fn after_end_singles(&self) -> Vec<Vec<Cmd>> {
        let board = self.game().board();
        let onto_own = board.pieces().filter_map(|(from, p)| {
            let own = board
                .pieces()
                .filter(|&(s, q)| s != from && q.color == p.color)
                .min_by_key(|&(s, _)| s.x().abs_diff(from.x()) + s.y().abs_diff(from.y()));
            own.map(|(to, _)| vec![cmd_of(from, to)])
        });
        board
            .pieces()
            .flat_map(|(from, _)| {
                rule_targets(board, from)
                    .into_iter()
                    .map(move |to| vec![cmd_of(from, to)])
            })
            .chain(onto_own)
            .collect()
    }
}
