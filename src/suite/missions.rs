//! Missions: candidate continuations aimed at one coverage cell that random play rarely
//! reaches. A piece of the side to move is routed, by its own moves over the board as it
//! stands, to the square from which it gives check along one row of its table (on a
//! captain at the edge, for a car; or would, but for a blocking square), or takes an
//! opposing piece by that row; or its captain walks to where an opposing piece's row
//! checks it. The other side answers each step with a quiet move. The suite's search scores a mission like
//! any candidate, on what the game really does: a mission the other side's answers
//! spoil simply gains nothing.

use crate::generate::case::cmd_of;
use crate::generate::case::Cmd;
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{PieceKind, Square};
use crate::judge::rules;
use crate::model::table::{row_towards, rows, ways, Cell};
use crate::sys::rng::Rng;
use std::collections::VecDeque;

/// Moves a piece may make on the way: at most this many (a captain, which steps one
/// square at a time, twice as many).
const DEPTH: usize = 3;
/// Missions tried in one step, at most.
const MISSIONS: usize = 24;
/// Missions at a blocking square's cells tried in one step, at most, besides.
const IN_THE_WAY: usize = 12;

/// The squares from `from` to `at` (both included) along a breadth-first search's
/// `came` links (each square's predecessor, `from` its own).
pub(super) fn path_back(
    came: &[Option<Square>; 90],
    from: Square,
    at: Square,
) -> Option<Vec<Square>> {
    let mut path = vec![at];
    let mut s = at;
    while s != from {
        s = came[s.bit() as usize]?;
        path.push(s);
    }
    path.reverse();
    Some(path)
}

/// The shortest way (at most [`DEPTH`] moves) for the piece on `from` to reach `goal`,
/// everything else standing still: each step a legal move of that piece by its rule,
/// onto an empty square (or onto `goal`, whatever holds it).
fn route(board: &Board, from: Square, goal: Square) -> Option<Vec<Square>> {
    let piece = board.piece_at(from)?;
    let mut empty = board.clone();
    empty.put(from, None);
    let mut came: [Option<Square>; 90] = [None; 90];
    let mut depth = [0usize; 90];
    let mut queue = VecDeque::from([from]);
    came[from.bit() as usize] = Some(from);
    while let Some(at) = queue.pop_front() {
        if at == goal {
            return path_back(&came, from, goal);
        }
        let limit = if piece.kind == PieceKind::Captain {
            2 * DEPTH
        } else {
            DEPTH
        };
        if depth[at.bit() as usize] == limit {
            continue;
        }
        for to in Square::all() {
            let seen = came[to.bit() as usize].is_some();
            let open = to == goal && board.piece_at(to).map(|p| p.color) != Some(piece.color)
                || empty.is_empty(to);
            if !seen && open && rules::check_path(&empty, piece.kind, at, to).is_ok() {
                came[to.bit() as usize] = Some(at);
                depth[to.bit() as usize] = depth[at.bit() as usize] + 1;
                queue.push_back(to);
            }
        }
    }
    None
}

/// A quiet legal move of the side to move in `game`: one that takes nothing and does not
/// land on `avoid`; the first of a random order.
fn quiet(game: &Game, avoid: &[Square], rng: &mut Rng) -> Option<Cmd> {
    let board = game.board();
    let moves: Vec<Cmd> = rules::legal_moves(board)
        .into_iter()
        .filter(|m| board.is_empty(m.to) && !avoid.contains(&m.to))
        .map(|m| cmd_of(m.from, m.to))
        .collect();
    rng.pick(&moves)
}

/// Plays `path` for the side to move, the other side answering with quiet moves;
/// `None` when a step turns out illegal.
fn walk(game: &Game, path: &[Square], rng: &mut Rng) -> Option<Vec<Cmd>> {
    let mut game = game.clone();
    let mut out = Vec::new();
    for (i, pair) in path.windows(2).enumerate() {
        let c = cmd_of(pair[0], pair[1]);
        game.play(c[0], c[1], c[2], c[3]).ok()?;
        out.push(c);
        if i + 2 < path.len() {
            let answer = quiet(&game, path, rng)?;
            game.play(answer[0], answer[1], answer[2], answer[3]).ok()?;
            out.push(answer);
        }
    }
    Some(out)
}

/// Missions for the cells `worth` says are worth reaching (more than nothing), at
/// most [`MISSIONS`], and [`in_the_way`]'s: for
/// the side to move, a piece to where it gives check by one row alone (a car's on a
/// captain at its edge too) or a check by it is stopped, or takes by one row; and its
/// captain to where one row of an opposing piece checks it, or would but for a
/// blocking square.
pub fn missions(game: &Game, worth: impl Fn(Cell) -> u64, rng: &mut Rng) -> Vec<Vec<Cmd>> {
    let wanted = |cell| worth(cell) > 0;
    let board = game.board();
    if board.is_over() {
        return Vec::new();
    }
    let side = board.side_to_move();
    let other = side.opponent();
    let (Some(captain), Some(own)) = (board.captain(other), board.captain(side)) else {
        return Vec::new();
    };
    // Whether a check (or one stopped) by `color`'s row `r` is wanted, the captain it
    // would be on standing at `at`.
    let checks = |color, r: u8, at: Square| {
        let row = rows()[r as usize];
        let stopped = (0..ways(row.kind).len()).any(|w| wanted(Cell::Stopped(color, r, w as u8)));
        wanted(Cell::Check(color, r))
            || stopped
            || (row.kind == PieceKind::Car
                && wanted(Cell::CheckAtEdge(color, r))
                && at.offset(row.dir).is_none())
    };
    // (the piece, where it goes, what it then takes from there)
    let mut goals: Vec<(Square, Square, Option<Square>)> = Vec::new();
    for (r, row) in rows().iter().enumerate() {
        let r = r as u8;
        let car = row.kind == PieceKind::Car;
        for (at, p) in board.pieces().filter(|(_, p)| p.kind == row.kind) {
            if p.color == side {
                let mut squares: Vec<(Square, Option<Square>)> = Vec::new();
                if checks(side, r, captain) {
                    squares.extend(stands(captain, row.dir, car).into_iter().map(|s| (s, None)));
                }
                if wanted(Cell::Takes(side, r)) {
                    for (s, q) in board.pieces() {
                        if q.color == other && q.kind != PieceKind::Captain {
                            let first = stands(s, row.dir, car).into_iter().next();
                            squares.extend(first.map(|from| (from, Some(s))));
                        }
                    }
                }
                goals.extend(squares.into_iter().map(|(goal, then)| (at, goal, then)));
            } else {
                // The captain walks into this piece's row.
                let reach = |k: i8| at.offset((k * row.dir.0, k * row.dir.1));
                let targets: Vec<Square> = if car {
                    (1..=9).filter_map(reach).collect()
                } else {
                    reach(1).into_iter().collect()
                };
                for t in targets {
                    if checks(other, r, t) {
                        goals.push((own, t, None));
                    }
                }
            }
        }
    }
    goals.retain(|&(from, goal, _)| {
        goal != from && board.piece_at(goal).map(|p| p.color) != Some(side)
    });
    let mut out = Vec::new();
    while out.len() < MISSIONS && !goals.is_empty() {
        let (from, goal, then) = goals.swap_remove(rng.index(goals.len()));
        let Some(mut path) = route(board, from, goal) else {
            continue;
        };
        // For a capture, one more step: from the goal onto the piece.
        path.extend(then);
        if let Some(walked) = walk(game, &path, rng) {
            out.push(walked);
        }
    }
    out.extend(in_the_way(game, &worth, rng));
    out
}

/// Missions at the cells of a blocking square, chosen where the board as it stands
/// already has the pieces in the way (a duck's two legs both taken is seldom met by
/// chance): a leaping piece of the side to move routed to where its move by one row
/// is blocked the wanted way, then that refused command after the other side's quiet
/// answer; a leaping piece routed to where its check by one row is stopped the wanted
/// way, or another piece onto an empty blocking square of a leaping piece aimed at a
/// captain; the captain walked to where an opposing leaping piece's check is. At most
/// [`IN_THE_WAY`], those of the cells worth most first.
fn in_the_way(game: &Game, worth: &impl Fn(Cell) -> u64, rng: &mut Rng) -> Vec<Vec<Cmd>> {
    let board = game.board();
    let side = board.side_to_move();
    let (Some(captain), Some(own)) = (board.captain(side.opponent()), board.captain(side)) else {
        return Vec::new();
    };
    // The board with the piece on `at` moved to `to`.
    let moved = |at: Square, to: Square| {
        let mut b = board.clone();
        b.put(at, None);
        b.put(to, board.piece_at(at));
        b
    };
    // The row and way of `kind` from `from` to `to` on `b`, when something is in it.
    let way = |b: &Board, kind: PieceKind, from: Square, to: Square| {
        row_towards(b, kind, from, to).and_then(|(r, w)| Some((r, w?)))
    };
    // (what it is worth, the piece, where it goes, the target of its refused command)
    let mut goals: Vec<(u64, Square, Square, Option<Square>)> = Vec::new();
    let mut add = |cell, goal: (Square, Square, Option<Square>)| {
        let w = worth(cell);
        if w > 0 {
            goals.push((w, goal.0, goal.1, goal.2));
        }
    };
    for (r, row) in rows()
        .iter()
        .enumerate()
        .filter(|(_, row)| !row.blocks.is_empty())
    {
        let r = r as u8;
        for (at, p) in board.pieces().filter(|(_, p)| p.kind == row.kind) {
            // A piece of the side to move steps onto an empty blocking square of this
            // piece's row towards the other captain.
            let aimed = board.captain(p.color.opponent());
            if aimed.is_some_and(|c| at.offset(row.dir) == Some(c)) {
                let legs = row.blocks.iter().filter_map(|&b| at.offset(b));
                for leg in legs.filter(|&l| board.is_empty(l)) {
                    let mine = board.pieces().filter(|&(q, qp)| {
                        qp.color == side && q != at && qp.kind != PieceKind::Captain
                    });
                    for (q, _) in mine {
                        let target = at.offset(row.dir).unwrap_or(at);
                        if let Some((_, w)) = way(&moved(q, leg), p.kind, at, target) {
                            add(Cell::Stopped(p.color, r, w), (q, leg, None));
                        }
                    }
                }
            }
            if p.color != side {
                // The captain steps in front of it.
                if let Some(t) = at.offset(row.dir).filter(|&t| board.is_empty(t)) {
                    if let Some((_, w)) = way(&moved(own, t), p.kind, at, t) {
                        add(Cell::Stopped(p.color, r, w), (own, t, None));
                    }
                }
                continue;
            }
            let back = captain.offset((-row.dir.0, -row.dir.1));
            if let Some(s) = back.filter(|&s| s != at && board.is_empty(s)) {
                if let Some((_, w)) = way(&moved(at, s), p.kind, s, captain) {
                    add(Cell::Stopped(side, r, w), (at, s, None));
                }
            }
            for s in Square::all().filter(|&s| s != at && board.is_empty(s)) {
                let Some(t) = s.offset(row.dir) else { continue };
                let open = t == at || board.piece_at(t).map(|q| q.color) != Some(side);
                match way(&moved(at, s), p.kind, s, t) {
                    Some((_, w)) if open => add(Cell::Blocked(side, r, w), (at, s, Some(t))),
                    _ => {}
                }
            }
        }
    }
    let mut out = Vec::new();
    while out.len() < IN_THE_WAY && !goals.is_empty() {
        // One of those worth most, at random.
        let most = goals.iter().map(|g| g.0).max().unwrap_or(0);
        let best: Vec<usize> = (0..goals.len()).filter(|&i| goals[i].0 == most).collect();
        let (_, from, goal, refused) = goals.swap_remove(best[rng.index(best.len())]);
        let Some(path) = route(board, from, goal) else {
            continue;
        };
        let Some(mut walked) = walk(game, &path, rng) else {
            continue;
        };
        if let Some(t) = refused {
            // The other side answers, then the refused command.
            let mut after = game.clone();
            for c in &walked {
                let _ = after.play(c[0], c[1], c[2], c[3]);
            }
            let Some(answer) = quiet(&after, &[goal, t], rng) else {
                continue;
            };
            walked.push(answer);
            walked.push(cmd_of(goal, t));
        }
        out.push(walked);
    }
    out
}

/// The squares from which a piece moving by `dir` reaches `target`: one for a leap, the
/// first few along the line for a car.
fn stands(target: Square, dir: (i8, i8), car: bool) -> Vec<Square> {
    let back = |k: i8| target.offset((-k * dir.0, -k * dir.1));
    if car {
        (1..=4).filter_map(back).collect()
    } else {
        back(1).into_iter().collect()
    }
}
