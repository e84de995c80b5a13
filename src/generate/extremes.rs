//! Inputs that take a count a solution keeps to its largest value: a solution that sized
//! an array, a buffer or a counter for what inputs "usually" reach passes every input
//! below it. Each input here is `Q = 1000` commands, the official limit, and the same
//! bytes every time:
//!
//! - [`invalid_run`]: 1000 invalid commands, every one in a row (the four corners each
//!   named as its own source and target among them);
//! - [`quiet_game`]: 1000 legal moves that take nothing, every position new, and check
//!   from the earliest command that can give it ([`FIRST_CHECK`]) to the last;
//! - [`longest_answer`]: 1000 legal moves whose answer is as long as we know how to make
//!   it: check on almost every line, pieces walked to where the other side's elephants
//!   take them, and a captain taken by the last command;
//! - [`every_piece_taken`]: a game in which every piece but the captains is taken, then
//!   a captain, and invalid commands after the end.
//!
//! The model's counts (`model::statement::counts`) prove what each reaches is the most.

use super::case::{cmd_of, Cmd};
use crate::judge::board::Board;
use crate::judge::game::{Game, Moved};
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules::{self, Move};
use crate::judge::run::line_bytes;
use crate::sys::rng::Rng;
use std::collections::HashSet;
use std::sync::OnceLock;

/// Commands in each input: the official limit.
pub const Q: usize = 1000;

/// The earliest command (from 1) whose answer can say check: no game of fewer legal
/// moves has one (the model's counts prove it).
pub const FIRST_CHECK: usize = 4;

/// `Q` invalid commands from the start: the four corners each as its own target, then
/// sources and targets taken round the board, each refused by the judge.
pub fn invalid_run() -> Vec<Cmd> {
    let game = Game::new();
    let mut out: Vec<Cmd> = vec![[0, 0, 0, 0], [0, 8, 0, 8], [9, 0, 9, 0], [9, 8, 9, 8]];
    let squares: Vec<Square> = Square::all().collect();
    let mut k = 0usize;
    while out.len() < Q {
        // Strides prime to 90: every pair of squares comes, in an order that mixes
        // empty sources, the other side's pieces and red's own.
        let from = squares[(k * 7) % 90];
        let to = squares[(k * 13 + 5) % 90];
        k += 1;
        let c = cmd_of(from, to);
        if game.validate(c[0], c[1], c[2], c[3]).is_err() {
            out.push(c);
        }
    }
    out
}

/// A key of a position: every piece's mask and the side to move (two positions are the
/// same when their keys are).
pub fn key(board: &Board) -> ([u128; 14], bool) {
    let mut masks = [0u128; 14];
    for side in Color::ALL {
        for kind in PieceKind::ALL {
            masks[side.index() * 7 + kind.index()] = board.mask(side, kind);
        }
    }
    (masks, board.side_to_move() == Color::Red)
}

/// The legal moves of `game`, each with its answer and the game after it; a captain is
/// taken only when `end` allows it.
fn continuations(game: &Game, end: bool) -> Vec<(Move, Moved, Game)> {
    let mut out = Vec::new();
    for m in rules::legal_moves(game.board()) {
        let taken = game.board().piece_at(m.to);
        if !end && taken.is_some_and(|p| p.kind == PieceKind::Captain) {
            continue;
        }
        let mut next = game.clone();
        let c = cmd_of(m.from, m.to);
        if let Ok(moved) = next.play(c[0], c[1], c[2], c[3]) {
            out.push((m, moved, next));
        }
    }
    out
}

/// An opening: its commands, the bytes of its answer, and whether it takes nothing.
type Opening = (Vec<Cmd>, usize, bool);

/// The openings of [`FIRST_CHECK`] legal moves whose last answer says check, in the
/// judge's order of moves, walked once for both inputs that start with one.
fn openings() -> &'static [Opening] {
    fn walk(game: &Game, left: usize, path: &mut Vec<(Cmd, usize, bool)>, out: &mut Vec<Opening>) {
        for (m, moved, next) in continuations(game, false) {
            let quiet = moved.captured.is_none();
            path.push((cmd_of(m.from, m.to), line_bytes(&Ok(moved)), quiet));
            if left == 1 {
                if moved.check {
                    let bytes = path.iter().map(|p| p.1).sum();
                    let quiet = path.iter().all(|p| p.2);
                    out.push((path.iter().map(|p| p.0).collect(), bytes, quiet));
                }
            } else {
                walk(&next, left - 1, path, out);
            }
            path.pop();
        }
    }
    static ALL: OnceLock<Vec<Opening>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        walk(&Game::new(), FIRST_CHECK, &mut Vec::new(), &mut out);
        out
    })
}

/// `Q` legal moves from the start that take nothing, each to a position the game has not
/// had, the answer check from command [`FIRST_CHECK`] to the last.
pub fn quiet_game() -> Vec<Cmd> {
    static GAME: OnceLock<Vec<Cmd>> = OnceLock::new();
    GAME.get_or_init(|| {
        let opening = openings()
            .iter()
            .find(|o| o.2)
            .map(|o| o.0.clone())
            .expect("a quiet opening gives check");
        let mut game = Game::new();
        let mut seen = HashSet::from([key(game.board())]);
        for c in &opening {
            game.play(c[0], c[1], c[2], c[3]).expect("legal");
            seen.insert(key(game.board()));
        }
        let mut rng = Rng::new(0x7175_6965_7467_616D); // "quietgam"
        let mut cmds = opening;
        // A depth-first walk: the first continuation that keeps the check, takes nothing
        // and finds a new position; back one move when none does.
        let mut stack: Vec<(Game, Vec<Cmd>)> = Vec::new();
        let mut choices = quiet_steps(&game, &seen, &mut rng);
        while cmds.len() < Q {
            match choices.pop() {
                Some(c) => {
                    let mut next = game.clone();
                    next.play(c[0], c[1], c[2], c[3]).expect("legal");
                    seen.insert(key(next.board()));
                    stack.push((std::mem::replace(&mut game, next), choices));
                    cmds.push(c);
                    choices = quiet_steps(&game, &seen, &mut rng);
                }
                None => {
                    let (back, rest) = stack.pop().expect("a quiet game goes on");
                    cmds.pop();
                    game = back;
                    choices = rest;
                }
            }
        }
        cmds
    })
    .clone()
}

/// The quiet moves of `game` that keep a check and reach a position not in `seen`,
/// shuffled, the captains' last (to be popped first: the end of the list).
fn quiet_steps(game: &Game, seen: &HashSet<([u128; 14], bool)>, rng: &mut Rng) -> Vec<Cmd> {
    let mut steps: Vec<(bool, Cmd)> = continuations(game, false)
        .into_iter()
        .filter(|(_, moved, next)| {
            moved.captured.is_none() && moved.check && !seen.contains(&key(next.board()))
        })
        .map(|(m, moved, _)| (moved.piece.kind != PieceKind::Captain, cmd_of(m.from, m.to)))
        .collect();
    for i in (1..steps.len()).rev() {
        steps.swap(i, rng.index(i + 1));
    }
    // Stable: captains first, so the others are popped first.
    steps.sort_by_key(|s| s.0);
    steps.into_iter().map(|s| s.1).collect()
}

/// The bytes a capture of `taken` adds to a line, over `NA`.
fn gain(taken: crate::judge::piece::Piece) -> f64 {
    (taken.color.name().len() + 1 + taken.kind.name().len()) as f64 - 2.0
}

/// What a position promises the answer's later lines: pieces the other side's elephant
/// can take for nothing (its name is the longest), soldiers on their way to such a
/// square, and a check standing.
fn promise(board: &Board, left: usize) -> f64 {
    let keep = (left as f64 / 2.0).min(20.0);
    let mut value = 0.0;
    for side in Color::ALL {
        // The squares `side`'s elephants take on now; and each elephant with a square
        // to step to, which keeps the longest name moving.
        let mut taken_on: Vec<Square> = Vec::new();
        for (at, p) in board.pieces() {
            if p.color != side || p.kind != PieceKind::Elephant {
                continue;
            }
            let mut free = false;
            for d in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
                let eye = at.offset((d.0 / 2, d.1 / 2));
                if let (Some(to), Some(eye)) = (at.offset(d), eye) {
                    if board.is_empty(eye) {
                        taken_on.push(to);
                        free |= board.is_empty(to);
                    }
                }
            }
            // An elephant is worth a byte on each of its side's lines to come: kept,
            // and kept free to step, until the end is near.
            value += keep * if free { 2.0 } else { 1.0 };
        }
        for (at, p) in board.pieces() {
            if p.color == side || matches!(p.kind, PieceKind::Captain | PieceKind::Elephant) {
                continue;
            }
            let near = taken_on
                .iter()
                .map(|s| at.x().abs_diff(s.x()).max(at.y().abs_diff(s.y())))
                .min();
            let steps = match (near, p.kind) {
                (Some(0), _) => 0.0,
                (Some(d), PieceKind::Soldier) => f64::from(d),
                _ => continue,
            };
            value += (0.95 * gain(p) - 1.05 * steps).max(0.0);
        }
    }
    if rules::is_check(board) {
        value += 4.0;
    }
    value
}

/// `Q` legal moves whose answer is the longest we know how to make: the opening of
/// [`FIRST_CHECK`] moves with the longest answer that ends in check, then each move the
/// one whose line and promise ([`promise`]) are the most, a captain taken only by the
/// last.
pub fn longest_answer() -> Vec<Cmd> {
    static GAME: OnceLock<Vec<Cmd>> = OnceLock::new();
    GAME.get_or_init(|| {
        let opening = openings()
            .iter()
            .max_by_key(|o| o.1)
            .map(|o| o.0.clone())
            .expect("an opening gives check");
        let mut game = Game::new();
        for c in &opening {
            game.play(c[0], c[1], c[2], c[3]).expect("legal");
        }
        let mut cmds = opening;
        while cmds.len() < Q {
            let last = cmds.len() + 1 == Q;
            let best = continuations(&game, last)
                .into_iter()
                .map(|(m, moved, next)| {
                    let line = line_bytes(&Ok(moved)) as f64;
                    let left = Q - cmds.len();
                    let worth = if last {
                        line
                    } else {
                        line + promise(next.board(), left)
                    };
                    (worth, m, next)
                })
                .fold(None, |best: Option<(f64, Move, Game)>, c| match &best {
                    Some(b) if b.0 >= c.0 => best,
                    _ => Some(c),
                });
            let (_, m, next) = best.expect("a legal move");
            cmds.push(cmd_of(m.from, m.to));
            game = next;
        }
        cmds
    })
    .clone()
}

/// The inputs of this module by number, taken round: [`invalid_run`], [`quiet_game`],
/// [`longest_answer`], [`every_piece_taken`].
pub fn numbered(k: u64) -> Vec<Cmd> {
    match k % NUMBERED {
        0 => invalid_run(),
        1 => quiet_game(),
        2 => longest_answer(),
        _ => every_piece_taken(),
    }
}

/// How many inputs [`numbered`] takes round.
pub const NUMBERED: u64 = 4;

/// `Q` commands from the start in which every piece but the captains is taken, then a
/// captain: each side takes a piece when it can (never a captain while other pieces
/// stand), else steps the piece nearest to an enemy piece towards it, else any move; the
/// game ends with a captain taken, and invalid commands follow.
pub fn every_piece_taken() -> Vec<Cmd> {
    static GAME: OnceLock<Vec<Cmd>> = OnceLock::new();
    GAME.get_or_init(|| {
        let mut game = Game::new();
        let mut cmds = Vec::new();
        let mut rng = Rng::new(0x6D61_7373_6163_7265); // "massacre"
        while cmds.len() < Q && !game.board().is_over() {
            let board = game.board().clone();
            let others = board.pieces().count() > 2;
            let moves = rules::legal_moves(&board);
            let takes = |m: &&Move| {
                board
                    .piece_at(m.to)
                    .is_some_and(|p| p.kind != PieceKind::Captain || !others)
            };
            let chosen = moves
                .iter()
                .filter(takes)
                .max_by_key(|m| board.piece_at(m.to).map(|p| p.kind != PieceKind::Captain))
                .copied()
                .or_else(|| nearer(&board, &moves, &mut rng));
            let Some(m) = chosen else { break };
            let c = cmd_of(m.from, m.to);
            game.play(c[0], c[1], c[2], c[3]).expect("legal");
            cmds.push(c);
        }
        while cmds.len() < Q {
            cmds.push([0, 0, 0, 0]);
        }
        cmds
    })
    .clone()
}

/// A move that takes nothing and brings a piece of the side to move (its captain too: an
/// elephant takes no elephant) nearest to an enemy piece but the captain (ties drawn by
/// `rng`).
fn nearer(board: &Board, moves: &[Move], rng: &mut Rng) -> Option<Move> {
    let side = board.side_to_move();
    let apart = |s: Square| {
        board
            .pieces()
            .filter(|(_, p)| p.color != side && p.kind != PieceKind::Captain)
            .map(|(t, _)| t.x().abs_diff(s.x()) + t.y().abs_diff(s.y()))
            .min()
            .unwrap_or(0)
    };
    let quiet: Vec<&Move> = moves.iter().filter(|m| board.is_empty(m.to)).collect();
    let best = quiet.iter().map(|m| apart(m.to)).min()?;
    let closest: Vec<Move> = quiet
        .into_iter()
        .filter(|m| apart(m.to) == best)
        .copied()
        .collect();
    rng.pick(&closest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(cmds: &[Cmd]) -> Vec<Result<Moved, ()>> {
        let mut game = Game::new();
        cmds.iter()
            .map(|c| game.play(c[0], c[1], c[2], c[3]).map_err(|_| ()))
            .collect()
    }

    #[test]
    fn each_input_is_what_it_says() {
        let run = invalid_run();
        assert_eq!(run.len(), Q);
        assert!(answers(&run).iter().all(|a| a.is_err()));
        let quiet = quiet_game();
        assert_eq!(quiet.len(), Q);
        let played = answers(&quiet);
        assert!(played.iter().all(|a| a.is_ok_and(|m| m.captured.is_none())));
        assert!(played[FIRST_CHECK - 1..]
            .iter()
            .all(|a| a.is_ok_and(|m| m.check)));
        let longest = longest_answer();
        assert_eq!(longest.len(), Q);
        let played = answers(&longest);
        assert!(played.iter().all(|a| a.is_ok()));
        assert!(played[..Q - 1]
            .iter()
            .all(|a| a.is_ok_and(|m| !m.game_over)));
    }
}
