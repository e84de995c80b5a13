//! The inputs `stress` tries: `gen`'s modes, and generators made to meet the mistakes
//! solutions make within a few commands. Case `i` of a seed is always the same bytes,
//! whatever the number of jobs, and every case stays within the official constraints
//! unless `--messy` asks for what SPEC section 5 allows beyond them.
//!
//! The stress modes play the game they write, through [`Game`], choosing moves by what
//! they do to it (checks, approaches to the enemy captain, blocked attacks) with
//! [`rules::legal_moves`] and [`rules::check_path`]:
//!
//! - `decisive`: both sides attack; a captain falls within some 10-40 plies, and a few
//!   commands follow the end of the game.
//! - `captains`: the captains walk towards each other and the pieces between them step
//!   aside, so they soon face each other or meet.
//! - `attacks`: every kind of piece giving check, checks blocked and discovered.
//! - `invalid`: every kind of invalid command, among legal moves.
//! - `blocked`: moves and attacks whose blocking square is taken.
//!
//! Lengths are mixed, short ones first: the first failure found is usually short.

use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{Color, PieceKind, Square, COLS, ROWS};
use crate::judge::rules::{self, Move, PathError};
use crate::tools::gen;
use crate::tools::rng::Rng;
use crate::tools::stress::case::{Case, Cmd, Layout, Line};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// What a case is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One of `gen`'s modes.
    Gen(gen::Mode),
    /// Short decisive games and commands after their end.
    Decisive,
    /// The captains walk towards each other.
    Captains,
    /// Checks by every kind, blocked and discovered.
    Attacks,
    /// Every kind of invalid command.
    Invalid,
    /// Blocked moves and blocked attacks.
    Blocked,
}

impl Mode {
    /// Every mode, in the order the help lists them.
    pub const ALL: [Mode; 10] = [
        Mode::Decisive,
        Mode::Captains,
        Mode::Attacks,
        Mode::Invalid,
        Mode::Blocked,
        Mode::Gen(gen::Mode::Official),
        Mode::Gen(gen::Mode::Legal),
        Mode::Gen(gen::Mode::Endgame),
        Mode::Gen(gen::Mode::Check),
        Mode::Gen(gen::Mode::Big),
    ];

    /// The mode's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Gen(m) => m.name(),
            Mode::Decisive => "decisive",
            Mode::Captains => "captains",
            Mode::Attacks => "attacks",
            Mode::Invalid => "invalid",
            Mode::Blocked => "blocked",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
                format!("unknown mode {s:?}; expected all, {}", names.join(", "))
            })
    }
}

/// What the search asks for.
#[derive(Clone, Copy, Debug)]
pub struct Recipe {
    /// The seed of the whole run.
    pub seed: u64,
    /// One mode, or `None` for all of them mixed.
    pub mode: Option<Mode>,
    /// The most commands in a case.
    pub max_q: u64,
    /// Also what SPEC section 5 allows beyond the official constraints.
    pub messy: bool,
}

/// Case `index` of `recipe`, and the mode it was made in.
pub fn case(recipe: &Recipe, index: u64) -> (Case, Mode) {
    let mut rng = Rng::new(recipe.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64();
    let mode = recipe
        .mode
        .unwrap_or_else(|| Mode::ALL[rng.index(Mode::ALL.len())]);
    let q = length(&mut rng, index, recipe.max_q);
    let mut case = match mode {
        Mode::Gen(m) => from_gen(rng.next_u64(), q, m),
        _ => Writer::new(&mut rng, recipe.messy).play(mode, q),
    };
    if recipe.messy {
        for line in &mut case.lines {
            if rng.chance(0.3) {
                line.layout = Layout(rng.below(Layout::ALL_BITS as u64 + 1) as u8);
            }
        }
    }
    (case, mode)
}

/// The number of commands of case `index`: lengths double by classes (4, 8, ... 512,
/// then the maximum), and a class is open once enough shorter cases have been tried;
/// each case picks an open class, so short cases stay the most common.
fn length(rng: &mut Rng, index: u64, max_q: u64) -> u64 {
    let open = (64 - (index / 16 + 1).leading_zeros()) as usize;
    let mut classes: Vec<u64> = (2..10).map(|k| 1u64 << k).filter(|&l| l < max_q).collect();
    classes.push(max_q);
    let top = open.min(classes.len() - 1);
    let class = classes[rng.index(top + 1)];
    if class <= 1 {
        return class;
    }
    class / 2 + 1 + rng.below(class - class / 2)
}

/// A case written by `gen`.
fn from_gen(seed: u64, q: u64, mode: gen::Mode) -> Case {
    let mut bytes = Vec::new();
    // Writing to memory cannot fail.
    let _ = gen::generate(seed, q, mode, &mut bytes);
    let text = String::from_utf8_lossy(&bytes);
    let cmds: Vec<Cmd> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let n: Vec<i64> = l.split(' ').filter_map(|w| w.parse().ok()).collect();
            (n.len() == 4).then(|| [n[0], n[1], n[2], n[3]])
        })
        .collect();
    Case::of(&cmds)
}

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

fn random_square(rng: &mut Rng) -> Square {
    let x = rng.below(ROWS as u64) as i64;
    let y = rng.below(COLS as u64) as i64;
    Square::new(x, y).unwrap_or_else(|| unreachable!("in range by construction"))
}

fn cmd(from: Square, to: Square) -> Cmd {
    [
        from.x() as i64,
        from.y() as i64,
        to.x() as i64,
        to.y() as i64,
    ]
}

/// The squares a piece on `from` reaches by its rule (blocking squares included), side
/// to move and game over aside, not holding a piece of its own side.
fn rule_targets(board: &Board, from: Square) -> Vec<Square> {
    let piece = match board.piece_at(from) {
        Some(p) => p,
        None => return Vec::new(),
    };
    Square::all()
        .filter(|&to| {
            rules::check_path(board, piece.kind, from, to).is_ok()
                && board.piece_at(to).map(|p| p.color) != Some(piece.color)
        })
        .collect()
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
struct Writer<'r> {
    rng: &'r mut Rng,
    game: Game,
    lines: Vec<Line>,
    messy: bool,
}

impl<'r> Writer<'r> {
    fn new(rng: &'r mut Rng, messy: bool) -> Writer<'r> {
        Writer {
            rng,
            game: Game::new(),
            lines: Vec::new(),
            messy,
        }
    }

    fn board(&self) -> &Board {
        self.game.board()
    }

    fn push(&mut self, c: Cmd) {
        let _ = self.game.play(c[0], c[1], c[2], c[3]);
        self.lines.push(Line::plain(c));
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
    fn play(mut self, mode: Mode, q: u64) -> Case {
        // Per case: the kind of piece the attacks mode favours.
        let focus = PieceKind::ALL[self.rng.index(7)];
        let invalid_rate = match mode {
            Mode::Invalid => 0.55,
            Mode::Blocked => 0.35,
            _ => 0.06,
        };
        for _ in 0..q {
            if self.board().is_over() {
                let c = self.after_the_end();
                self.push(c);
                continue;
            }
            if self.rng.chance(invalid_rate) {
                let c = self.invalid(mode);
                self.push(c);
                continue;
            }
            let moves = self.scored();
            let chosen = match mode {
                Mode::Decisive => self.decisive(&moves),
                Mode::Captains => self.captains(&moves),
                Mode::Attacks => self.attacks(&moves, focus),
                Mode::Blocked => self.blocked(&moves),
                _ => self.pick(&moves, |s| !s.wins || moves.len() == 1),
            };
            match chosen.or_else(|| self.pick(&moves, |_| true)) {
                Some(m) => self.push(cmd(m.from, m.to)),
                None => {
                    let c = self.invalid(mode);
                    self.push(c);
                }
            }
        }
        Case { lines: self.lines }
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
                    return cmd(from, to);
                }
            }
        }
        cmd(random_square(self.rng), random_square(self.rng))
    }

    /// An invalid command of a random kind: an empty source, the opponent's piece, a
    /// move against the rule, onto an own piece, through a blocking square, onto itself,
    /// or random; off the board too with `--messy`.
    fn invalid(&mut self, mode: Mode) -> Cmd {
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
                        .map(|s| cmd(s, random_square(self.rng)))
                }
                1 => self.rng.pick(&theirs).map(|s| {
                    let targets = rule_targets(&board, s);
                    let to = self
                        .rng
                        .pick(&targets)
                        .unwrap_or_else(|| random_square(self.rng));
                    cmd(s, to)
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
                    self.rng.pick(&wanted).map(|to| cmd(from, to))
                }),
                5 => {
                    let s = random_square(self.rng);
                    Some(cmd(s, s))
                }
                6 => Some(cmd(random_square(self.rng), random_square(self.rng))),
                _ => {
                    let wild = [-1, 10, 9, -7, 99_999_999_999, i64::MIN / 2];
                    let mut c = cmd(random_square(self.rng), random_square(self.rng));
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
        cmd(s, s)
    }
}

/// Whether every command of `case` is within the official constraints.
pub fn official(case: &Case) -> bool {
    case.len() <= 1000
        && case.lines.iter().all(|l| {
            l.layout == Layout::PLAIN
                && (0..ROWS as i64).contains(&l.cmd[0])
                && (0..COLS as i64).contains(&l.cmd[1])
                && (0..ROWS as i64).contains(&l.cmd[2])
                && (0..COLS as i64).contains(&l.cmd[3])
        })
}

/// The moves of the table for `kind`, for the tests.
#[cfg(test)]
fn is_leaper(kind: PieceKind) -> bool {
    matches!(rules::reach(kind), rules::Reach::Leaps(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipe(seed: u64, mode: Option<Mode>) -> Recipe {
        Recipe {
            seed,
            mode,
            max_q: 1000,
            messy: false,
        }
    }

    #[test]
    fn the_same_index_gives_the_same_case() {
        for index in [0, 1, 77, 5000] {
            let r = recipe(9, None);
            assert_eq!(case(&r, index), case(&r, index));
        }
        assert_ne!(case(&recipe(1, None), 3).0, case(&recipe(2, None), 3).0);
    }

    #[test]
    fn cases_stay_within_the_official_constraints() {
        for mode in Mode::ALL {
            for index in 0..40 {
                let (c, m) = case(&recipe(index, Some(mode)), index * 50);
                assert_eq!(m, mode);
                assert!(official(&c), "{mode} {index}");
                assert!(c.len() as u64 <= 1000);
            }
        }
        let mut r = recipe(3, None);
        r.messy = true;
        let messy = (0..200).any(|i| !official(&case(&r, i).0));
        assert!(messy, "--messy goes beyond the official form");
    }

    #[test]
    fn short_cases_come_first_and_lengths_respect_the_maximum() {
        let r = recipe(4, None);
        assert!((0..16).all(|i| case(&r, i).0.len() <= 8));
        let long = (0..4000)
            .map(|i| case(&Recipe { max_q: 300, ..r }, i).0.len())
            .max();
        assert!(long.is_some_and(|l| (200..=300).contains(&l)), "{long:?}");
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
