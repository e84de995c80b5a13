//! The games of `stress`'s own modes: how each side picks its moves (what a move does to
//! the game: a capture of the captain, check, an approach to the enemy captain measured
//! in the piece's own moves, a blocked attack), and invalid commands of every kind. The
//! writer plays the game it writes through [`Game`], so it knows the position each
//! command meets.

use crate::generate::case::{cmd_of, Case, Cmd, Line};
use crate::generate::mode::Mode;
use crate::generate::position::{random_square, rule_targets};
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules::{self, Move, PathError};
use crate::sys::rng::Rng;
use std::sync::OnceLock;

/// For each kind, the fewest moves from one square to another on an empty board.
type Distances = [[[u8; 90]; 90]; 7];

fn distances() -> &'static Distances {
    static TABLE: OnceLock<Box<Distances>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([[[u8::MAX; 90]; 90]; 7]);
        let empty = Board::empty();
        for kind in PieceKind::ALL {
            for from in Square::all() {
                let row = &mut table[kind.index()][from.bit() as usize];
                row[from.bit() as usize] = 0;
                let mut frontier = vec![from];
                let mut d = 0;
                while !frontier.is_empty() {
                    d += 1;
                    let mut next = Vec::new();
                    for s in frontier {
                        for t in Square::all() {
                            if row[t.bit() as usize] == u8::MAX
                                && rules::check_path(&empty, kind, s, t).is_ok()
                            {
                                row[t.bit() as usize] = d;
                                next.push(t);
                            }
                        }
                    }
                    frontier = next;
                }
            }
        }
        table
    })
}

/// How many moves a piece of `kind` needs from `from` to `to` on an empty board.
fn distance(kind: PieceKind, from: Square, to: Square) -> u8 {
    distances()[kind.index()][from.bit() as usize][to.bit() as usize]
}

/// Whether some piece could take a captain, but a blocking square stops it.
fn blocked_attack(board: &Board) -> bool {
    Color::ALL.iter().any(|&side| {
        let captain = match board.captain(side.opponent()) {
            Some(s) => s,
            None => return false,
        };
        board.pieces().any(|(from, p)| {
            p.color == side
                && matches!(
                    rules::check_path(board, p.kind, from, captain),
                    Err(PathError::Blocked(_))
                )
        })
    })
}

/// A legal move and what it does.
#[derive(Clone, Copy, Debug)]
struct Scored {
    m: Move,
    kind: PieceKind,
    /// It takes a captain.
    wins: bool,
    /// The position after it is check.
    check: bool,
    /// It brings the moved piece closer (in its own moves) to the enemy captain.
    approach: u8,
}

/// Writes one case by playing it.
pub struct Writer<'r> {
    rng: &'r mut Rng,
    game: Game,
    messy: bool,
}

impl<'r> Writer<'r> {
    /// A writer drawing from `rng`; `messy` allows off-board coordinates.
    pub fn new(rng: &'r mut Rng, messy: bool) -> Writer<'r> {
        Writer {
            rng,
            game: Game::new(),
            messy,
        }
    }

    /// A writer that goes on from `game` (its commands continue that game), drawing from
    /// `rng`, within the official constraints.
    pub fn continuing(rng: &'r mut Rng, game: Game) -> Writer<'r> {
        Writer {
            rng,
            game,
            messy: false,
        }
    }

    fn board(&self) -> &Board {
        self.game.board()
    }

    /// The legal moves, each with what it does.
    fn scored(&self) -> Vec<Scored> {
        let board = self.board();
        let side = board.side_to_move();
        let enemy = board.captain(side.opponent());
        let mut after = board.clone();
        rules::legal_moves(board)
            .into_iter()
            .filter_map(|m| {
                let piece = board.piece_at(m.from)?;
                let captured = after.make_move(m.from, m.to);
                let check = rules::is_check(&after);
                after.unmake_move(m.from, m.to, captured);
                let approach = match enemy {
                    Some(c) => distance(piece.kind, m.from, c)
                        .saturating_sub(distance(piece.kind, m.to, c)),
                    None => 0,
                };
                Some(Scored {
                    m,
                    kind: piece.kind,
                    wins: captured.is_some_and(|p| p.kind == PieceKind::Captain),
                    check,
                    approach,
                })
            })
            .collect()
    }

    /// A uniform pick among `moves` that pass `keep`.
    fn pick(&mut self, moves: &[Scored], keep: impl Fn(&Scored) -> bool) -> Option<Move> {
        let chosen: Vec<Move> = moves.iter().filter(|s| keep(s)).map(|s| s.m).collect();
        self.rng.pick(&chosen)
    }

    /// Plays `q` commands in `mode`.
    pub fn play(self, mode: Mode, q: u64) -> Case {
        let mut lines = Vec::new();
        let written: Result<(), std::convert::Infallible> = self.play_each(mode, q, |c| {
            lines.push(Line::plain(c));
            Ok(())
        });
        let Ok(()) = written;
        Case { lines }
    }

    /// Plays `q` commands in `mode`, handing each to `emit` as it is played (so a long
    /// game needs no memory); stops at the first error `emit` returns.
    pub fn play_each<E>(
        mut self,
        mode: Mode,
        q: u64,
        mut emit: impl FnMut(Cmd) -> Result<(), E>,
    ) -> Result<(), E> {
        // Per case: the kind of piece the attacks mode favours.
        let focus = PieceKind::ALL[self.rng.index(7)];
        let invalid_rate = match mode {
            Mode::Invalid => 0.55,
            Mode::Blocked => 0.35,
            _ => 0.06,
        };
        for _ in 0..q {
            let c = if self.board().is_over() {
                self.after_the_end()
            } else if self.rng.chance(invalid_rate) {
                self.invalid(mode)
            } else {
                let moves = self.scored();
                let chosen = match mode {
                    Mode::Decisive => self.decisive(&moves),
                    Mode::Captains => self.captains(&moves),
                    Mode::Attacks => self.attacks(&moves, focus),
                    Mode::Blocked => self.blocked(&moves),
                    _ => self.pick(&moves, |s| !s.wins || moves.len() == 1),
                };
                match chosen.or_else(|| self.pick(&moves, |_| true)) {
                    Some(m) => cmd_of(m.from, m.to),
                    None => self.invalid(mode),
                }
            };
            let _ = self.game.play(c[0], c[1], c[2], c[3]);
            emit(c)?;
        }
        Ok(())
    }

    /// Both sides go for the enemy captain.
    fn decisive(&mut self, moves: &[Scored]) -> Option<Move> {
        if self.rng.chance(0.85) {
            if let Some(m) = self.pick(moves, |s| s.wins) {
                return Some(m);
            }
        }
        if self.rng.chance(0.45) {
            if let Some(m) = self.pick(moves, |s| s.check && !s.wins) {
                return Some(m);
            }
        }
        if self.rng.chance(0.75) {
            let best = moves.iter().map(|s| s.approach).max().unwrap_or(0);
            if best > 0 {
                return self.pick(moves, |s| s.approach == best && !s.wins);
            }
        }
        None
    }

    /// The captains close in; what stands between them steps aside.
    fn captains(&mut self, moves: &[Scored]) -> Option<Move> {
        let board = self.board();
        let (red, blue) = match (board.captain(Color::Red), board.captain(Color::Blue)) {
            (Some(r), Some(b)) => (r, b),
            _ => return None,
        };
        let own = board.side_to_move();
        let (mine, theirs) = if own == Color::Red {
            (red, blue)
        } else {
            (blue, red)
        };
        let gap = |a: Square, b: Square| a.x().abs_diff(b.x()) + a.y().abs_diff(b.y());
        let between = |s: Square| {
            s.y() == red.y()
                && red.y() == blue.y()
                && s.x() > red.x().min(blue.x())
                && s.x() < red.x().max(blue.x())
        };
        if self.rng.chance(0.9) {
            if let Some(m) = self.pick(moves, |s| s.wins) {
                return Some(m);
            }
        }
        if self.rng.chance(0.35) {
            if let Some(m) = self.pick(moves, |s| between(s.m.from) && !between(s.m.to)) {
                return Some(m);
            }
        }
        if self.rng.chance(0.6) {
            let closer = |s: &Scored| {
                s.kind == PieceKind::Captain && s.m.from == mine && {
                    let (before, after) = (gap(mine, theirs), gap(s.m.to, theirs));
                    after < before || (s.m.to.y() == theirs.y() && mine.y() != theirs.y())
                }
            };
            if let Some(m) = self.pick(moves, |s| closer(s) && !s.wins) {
                return Some(m);
            }
        }
        None
    }

    /// Checks by the focus kind, discovered checks, and answers to checks.
    fn attacks(&mut self, moves: &[Scored], focus: PieceKind) -> Option<Move> {
        let board = self.board().clone();
        if self.rng.chance(0.03) {
            if let Some(m) = self.pick(moves, |s| s.wins) {
                return Some(m);
            }
        }
        if rules::is_check(&board) && self.rng.chance(0.6) {
            // Step out, block the way, or take the attacker.
            if let Some(m) = self.pick(moves, |s| !s.check && !s.wins) {
                return Some(m);
            }
        }
        if self.rng.chance(0.7) {
            let mut after = board.clone();
            let by = |s: &Scored, after: &mut Board| -> (bool, bool) {
                if !s.check || s.wins {
                    return (false, false);
                }
                let captured = after.make_move(s.m.from, s.m.to);
                let mut focus_attacks = false;
                let mut moved_attacks = false;
                for side in Color::ALL {
                    if let Some(c) = after.captain(side.opponent()) {
                        for a in rules::attackers(after, c, side) {
                            focus_attacks |= after.piece_at(a).is_some_and(|p| p.kind == focus);
                            moved_attacks |= a == s.m.to;
                        }
                    }
                }
                after.unmake_move(s.m.from, s.m.to, captured);
                (focus_attacks, !moved_attacks)
            };
            let flags: Vec<(bool, bool)> = moves.iter().map(|s| by(s, &mut after)).collect();
            let (focus_checks, discovered): (Vec<Move>, Vec<Move>) = (
                moves
                    .iter()
                    .zip(&flags)
                    .filter(|(_, f)| f.0)
                    .map(|(s, _)| s.m)
                    .collect(),
                moves
                    .iter()
                    .zip(&flags)
                    .filter(|(_, f)| f.1)
                    .map(|(s, _)| s.m)
                    .collect(),
            );
            let first = if self.rng.chance(0.5) {
                &focus_checks
            } else {
                &discovered
            };
            if let Some(m) = self.rng.pick(first) {
                return Some(m);
            }
            if let Some(m) = self.pick(moves, |s| s.check && !s.wins) {
                return Some(m);
            }
        }
        if self.rng.chance(0.6) {
            let best = moves
                .iter()
                .filter(|s| s.kind == focus)
                .map(|s| s.approach)
                .max()
                .unwrap_or(0);
            if best > 0 {
                return self.pick(moves, |s| s.kind == focus && s.approach == best && !s.wins);
            }
        }
        self.pick(moves, |s| !s.wins)
    }

    /// Moves after which an attack on a captain is blocked.
    fn blocked(&mut self, moves: &[Scored]) -> Option<Move> {
        if self.rng.chance(0.5) {
            let mut after = self.board().clone();
            let chosen: Vec<Move> = moves
                .iter()
                .filter(|s| !s.wins)
                .filter(|s| {
                    let captured = after.make_move(s.m.from, s.m.to);
                    let blocked = blocked_attack(&after);
                    after.unmake_move(s.m.from, s.m.to, captured);
                    blocked
                })
                .map(|s| s.m)
                .collect();
            if let Some(m) = self.rng.pick(&chosen) {
                return Some(m);
            }
        }
        if self.rng.chance(0.5) {
            let leapers = [PieceKind::Horse, PieceKind::Elephant, PieceKind::Duck];
            if let Some(m) = self.pick(moves, |s| leapers.contains(&s.kind) && !s.wins) {
                return Some(m);
            }
        }
        if self.rng.chance(0.5) {
            let best = moves.iter().map(|s| s.approach).max().unwrap_or(0);
            if best > 0 {
                return self.pick(moves, |s| s.approach == best && !s.wins);
            }
        }
        self.pick(moves, |s| !s.wins)
    }

    /// A command after the end of the game: mostly one that would be a legal move if the
    /// game went on.
    fn after_the_end(&mut self) -> Cmd {
        let board = self.board().clone();
        let side = board.side_to_move();
        let own: Vec<Square> = board
            .pieces()
            .filter(|(_, p)| p.color == side || self.rng.chance(0.2))
            .map(|(s, _)| s)
            .collect();
        if self.rng.chance(0.8) {
            if let Some(from) = self.rng.pick(&own) {
                let targets = rule_targets(&board, from);
                if let Some(to) = self.rng.pick(&targets) {
                    return cmd_of(from, to);
                }
            }
        }
        cmd_of(random_square(self.rng), random_square(self.rng))
    }

    /// An invalid command of a random kind: an empty source, the opponent's piece, a
    /// move against the rule, onto an own piece, through a blocking square, onto itself,
    /// or random; off the board too with `--messy`.
    pub fn invalid(&mut self, mode: Mode) -> Cmd {
        let board = self.board().clone();
        let side = board.side_to_move();
        let pieces = |color: Color| -> Vec<Square> {
            board
                .pieces()
                .filter(|(_, p)| p.color == color)
                .map(|(s, _)| s)
                .collect()
        };
        let (own, theirs) = (pieces(side), pieces(side.opponent()));
        let kinds = if self.messy { 8 } else { 7 };
        for _ in 0..16 {
            let kind = if mode == Mode::Blocked && self.rng.chance(0.6) {
                4
            } else {
                self.rng.below(kinds)
            };
            let c = match kind {
                0 => {
                    let empty: Vec<Square> = Square::all().filter(|&s| board.is_empty(s)).collect();
                    self.rng
                        .pick(&empty)
                        .map(|s| cmd_of(s, random_square(self.rng)))
                }
                1 => self.rng.pick(&theirs).map(|s| {
                    let targets = rule_targets(&board, s);
                    let to = self
                        .rng
                        .pick(&targets)
                        .unwrap_or_else(|| random_square(self.rng));
                    cmd_of(s, to)
                }),
                2..=4 => self.rng.pick(&own).and_then(|from| {
                    let kind_of = board.piece_at(from)?.kind;
                    let wanted: Vec<Square> = Square::all()
                        .filter(|&to| {
                            let path = rules::check_path(&board, kind_of, from, to);
                            let own_target = board.piece_at(to).is_some_and(|p| p.color == side);
                            match kind {
                                2 => path == Err(PathError::NotThatWay),
                                3 => path != Err(PathError::NotThatWay) && own_target,
                                _ => matches!(path, Err(PathError::Blocked(_))) && !own_target,
                            }
                        })
                        .collect();
                    self.rng.pick(&wanted).map(|to| cmd_of(from, to))
                }),
                5 => {
                    let s = random_square(self.rng);
                    Some(cmd_of(s, s))
                }
                6 => Some(cmd_of(random_square(self.rng), random_square(self.rng))),
                _ => {
                    let wild = [-1, 10, 9, -7, 99_999_999_999, i64::MIN / 2];
                    let mut c = cmd_of(random_square(self.rng), random_square(self.rng));
                    let at = self.rng.index(4);
                    c[at] = wild[self.rng.index(wild.len())];
                    Some(c)
                }
            };
            if let Some(c) = c {
                if self.game.validate(c[0], c[1], c[2], c[3]).is_err() {
                    return c;
                }
            }
        }
        let s = random_square(self.rng);
        cmd_of(s, s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_leaper(kind: PieceKind) -> bool {
        matches!(rules::reach(kind), rules::Reach::Leaps(_))
    }

    #[test]
    fn decisive_games_end_early_and_go_on_after_the_end() {
        let mut ended = Vec::new();
        for index in 0..60 {
            let mut rng = Rng::new(index);
            let c = Writer::new(&mut rng, false).play(Mode::Decisive, 80);
            let mut game = Game::new();
            let mut plies = 0;
            for (i, l) in c.lines.iter().enumerate() {
                let [a, b, x, y] = l.cmd;
                if game.play(a, b, x, y).is_ok() {
                    plies += 1;
                }
                if game.board().is_over() {
                    ended.push((plies, c.len() - i - 1));
                    break;
                }
            }
        }
        // Most games end, in few plies, and have commands after the end.
        assert!(ended.len() >= 45, "{} of 60 ended", ended.len());
        let mut plies: Vec<usize> = ended.iter().map(|e| e.0).collect();
        plies.sort();
        assert!(
            plies[plies.len() / 2] <= 40,
            "median {}",
            plies[plies.len() / 2]
        );
        assert!(ended.iter().all(|e| e.1 > 0));
    }

    #[test]
    fn the_invalid_mode_writes_every_kind_of_invalid_command() {
        use crate::judge::game::Invalid;
        let mut seen = [false; 6];
        for index in 0..40 {
            let mut rng = Rng::new(index);
            let c = Writer::new(&mut rng, false).play(Mode::Invalid, 60);
            let mut game = Game::new();
            for l in &c.lines {
                let [a, b, x, y] = l.cmd;
                match game.play(a, b, x, y) {
                    Err(Invalid::NoPiece(_)) => seen[0] = true,
                    Err(Invalid::OpponentPiece(..)) => seen[1] = true,
                    Err(Invalid::NotThatWay(_)) => seen[2] = true,
                    Err(Invalid::OwnPiece(_)) => seen[3] = true,
                    Err(Invalid::Blocked(p, _)) => seen[4] |= is_leaper(p.kind),
                    Err(Invalid::GameOver) => seen[5] = true,
                    _ => {}
                }
            }
        }
        assert!(seen[..5].iter().all(|&s| s), "{seen:?}");
    }

    #[test]
    fn distances_follow_the_rules() {
        let sq = |x, y| Square::new(x, y).expect("on the board");
        assert_eq!(distance(PieceKind::Captain, sq(0, 4), sq(9, 4)), 9);
        assert_eq!(distance(PieceKind::Car, sq(0, 0), sq(9, 8)), 2);
        assert_eq!(distance(PieceKind::Horse, sq(0, 1), sq(2, 2)), 1);
        assert_eq!(distance(PieceKind::Soldier, sq(3, 0), sq(6, 3)), 3);
        // An elephant keeps to the squares of one colour.
        assert_eq!(distance(PieceKind::Elephant, sq(0, 2), sq(0, 3)), u8::MAX);
    }
}
