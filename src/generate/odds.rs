//! `gen`'s own modes (`official`, `legal`, `endgame`, `check`, `big`): a game written
//! command by command with fixed odds of a legal move, a capture or a check, and
//! invalid commands of varied kinds in between. The writer plays the game it writes
//! through [`Game`], so it knows the position each command meets.

use super::mode::Mode;
use super::position::{random_square, rule_targets};
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{PieceKind, Square};
use crate::judge::rules::{self, Move};
use crate::sys::rng::Rng;
use std::io::{self, Write};

/// A command this writer makes: both squares on the board, so four small numbers.
type OnBoard = [u8; 4];

fn command_of(m: Move) -> OnBoard {
    [m.from.x(), m.from.y(), m.to.x(), m.to.y()]
}

fn random_command(rng: &mut Rng) -> OnBoard {
    let (a, b) = (random_square(rng), random_square(rng));
    [a.x(), a.y(), b.x(), b.y()]
}

fn occupied(board: &Board) -> Vec<Square> {
    board.pieces().map(|(s, _)| s).collect()
}

fn captures_captain(board: &Board, m: Move) -> bool {
    board.piece_at(m.to).map(|p| p.kind) == Some(PieceKind::Captain)
}

fn gives_check(board: &Board, m: Move) -> bool {
    let mut after = board.clone();
    after.make_move(m.from, m.to);
    rules::is_check(&after)
}

/// One command of the contest's own mix.
fn official_command(rng: &mut Rng, board: &Board) -> OnBoard {
    let squares = occupied(board);
    let from = match rng.pick(&squares) {
        Some(s) if !rng.chance(0.07) => s,
        _ => return random_command(rng),
    };
    let allowed = rule_targets(board, from);
    let to = if rng.chance(0.2) && !allowed.is_empty() {
        allowed[rng.index(allowed.len())]
    } else {
        let other: Vec<Square> = Square::all().filter(|s| !allowed.contains(s)).collect();
        // `from` itself is never an allowed target, so `other` is never empty.
        rng.pick(&other).unwrap_or(from)
    };
    [from.x(), from.y(), to.x(), to.y()]
}

/// A command the judge will answer `Invalid command`, of a varied kind: an empty source,
/// the opponent's piece, a move against the rule, or a fully random one.
fn invalid_command(rng: &mut Rng, game: &Game) -> OnBoard {
    let board = game.board();
    for _ in 0..20 {
        let c = match rng.below(4) {
            0 => random_command(rng),
            1 => {
                let empties: Vec<Square> = Square::all().filter(|&s| board.is_empty(s)).collect();
                match rng.pick(&empties) {
                    Some(s) => {
                        let t = random_square(rng);
                        [s.x(), s.y(), t.x(), t.y()]
                    }
                    None => continue,
                }
            }
            _ => official_command(rng, board),
        };
        if game
            .validate(c[0] as i64, c[1] as i64, c[2] as i64, c[3] as i64)
            .is_err()
        {
            return c;
        }
    }
    // Moving a piece onto its own square is never legal.
    let s = random_square(rng);
    [s.x(), s.y(), s.x(), s.y()]
}

/// How a side picks its legal moves.
#[derive(Clone, Copy)]
struct Prefs {
    /// Take the captain whenever possible (otherwise only when nothing else is legal).
    finish: bool,
    /// Probability of picking a move that makes check, when there is one.
    check: f64,
    /// Probability of picking a capture, when there is one.
    capture: f64,
}

/// Picks a legal move by `prefs`, or `None` when only captain captures are legal and
/// `prefs.finish` is off.
fn chosen_move(rng: &mut Rng, board: &Board, prefs: Prefs) -> Option<Move> {
    let finish = prefs.finish;
    let moves = rules::legal_moves(board);
    let (kills, others): (Vec<Move>, Vec<Move>) =
        moves.iter().partition(|&&m| captures_captain(board, m));
    if finish && !kills.is_empty() {
        return rng.pick(&kills);
    }
    if others.is_empty() {
        return if finish { rng.pick(&kills) } else { None };
    }
    if rng.chance(prefs.check) {
        let checks: Vec<Move> = others
            .iter()
            .copied()
            .filter(|&m| gives_check(board, m))
            .collect();
        if let Some(m) = rng.pick(&checks) {
            return Some(m);
        }
    }
    if rng.chance(prefs.capture) {
        let captures: Vec<Move> = others
            .iter()
            .copied()
            .filter(|m| !board.is_empty(m.to))
            .collect();
        if let Some(m) = rng.pick(&captures) {
            return Some(m);
        }
    }
    rng.pick(&others)
}

/// Writes `q` commands of the fixed-odds `mode` drawn from `rng` to `out`, command by
/// command (memory does not grow with `q`).
pub fn write<W: Write>(rng: &mut Rng, q: u64, mode: Mode, out: &mut W) -> io::Result<()> {
    let mut game = Game::new();
    let legal_rate = match mode {
        Mode::Legal => 0.80 + 0.15 * (rng.below(1001) as f64 / 1000.0),
        Mode::Check => 0.85,
        Mode::Big => 0.5,
        _ => 0.9,
    };
    // Endgame: an ordinary opening, then both sides go for the captain.
    let hunt_from = q / 10 + rng.below(q / 2 + 1);
    for i in 0..q {
        let legal = match mode {
            Mode::Official => None,
            _ if game.board().is_over() || !rng.chance(legal_rate) => None,
            Mode::Legal => {
                let prefs = Prefs {
                    finish: false,
                    check: 0.15,
                    capture: 0.1,
                };
                chosen_move(rng, game.board(), prefs)
            }
            Mode::Check => {
                let prefs = Prefs {
                    finish: rng.chance(0.003),
                    check: 0.75,
                    capture: 0.05,
                };
                chosen_move(rng, game.board(), prefs)
            }
            Mode::Big => {
                let prefs = Prefs {
                    finish: false,
                    check: 0.0,
                    capture: 0.0,
                };
                chosen_move(rng, game.board(), prefs)
            }
            // Endgame (the steering modes are written above).
            _ => {
                let hunting = i >= hunt_from;
                let prefs = Prefs {
                    finish: hunting,
                    check: if hunting { 0.8 } else { 0.1 },
                    capture: 0.1,
                };
                chosen_move(rng, game.board(), prefs)
            }
        };
        let c = match (mode, legal) {
            (_, Some(m)) => command_of(m),
            (Mode::Official, None) => official_command(rng, game.board()),
            // After the end every command is invalid; keep writing plausible moves.
            _ if game.board().is_over() => official_command(rng, game.board()),
            _ => invalid_command(rng, &game),
        };
        let _ = game.play(c[0] as i64, c[1] as i64, c[2] as i64, c[3] as i64);
        writeln!(out, "{} {} {} {}", c[0], c[1], c[2], c[3])?;
    }
    Ok(())
}
