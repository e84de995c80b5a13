//! The failing position moved elsewhere on the board: a difference that shows in how a
//! few pieces stand to each other (a check, a blocked square, a captain walking into
//! attack) shows as well wherever those pieces stand, and a game that sets them up near
//! where they start can be far shorter than the one the random game played (a captain
//! that walked seven squares to meet soldiers that never moved, where the soldiers could
//! have come halfway).
//!
//! From a game whose last command is a legal move, [`relocations`] takes the pieces that
//! matter on the board after it (the mover, the pieces on its way, and every piece that
//! attacks a captain or is one blocking square short of it, with those blocking squares'
//! pieces and the captain), shifts all of them (or all but one: a second attacker is
//! seldom needed) by the same vector, builds a short legal game that brings them there
//! ([`route::realize`], pieces of both sides stepping out of the way), and plays the last
//! move shifted too. The shrinker tries the shortest of these; the program under test
//! says whether the shifted position still fails (a piece that was not in the picture may
//! now attack too).

use super::route::{self, Event, Takers};
use crate::generate::case::{cmd_of, Cmd};
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{Color, PieceKind, Square, SQUARE_SLOTS};
use crate::judge::rules::{self, Reach};

/// How many of the shortest relocated games the shrinker tries.
pub const TRIED: usize = 32;

/// The most pieces a ray may pass over and still count as blocked short of a captain.
const RAY_BLOCKERS: usize = 1;

/// Games that play the last move of `cmds` (which must be legal) with the pieces that
/// matter (or all of them but one) shifted by a vector, shortest first, each shorter than
/// `cmds` and each checked to set up every shifted piece and to make the shifted last
/// move legal.
pub fn relocations(cmds: &[Cmd]) -> Vec<Vec<Cmd>> {
    let Some((&last, before)) = cmds.split_last() else {
        return Vec::new();
    };
    let mut game = Game::new();
    for c in before {
        let _ = game.play(c[0], c[1], c[2], c[3]);
    }
    let (Some(from), Some(to)) = (Square::new(last[0], last[1]), Square::new(last[2], last[3]))
    else {
        return Vec::new();
    };
    let side = game.side_to_move();
    if game.play(last[0], last[1], last[2], last[3]).is_err() {
        return Vec::new();
    }
    let after = game.board().clone();
    let ids = ids(before, &after, from, to);
    let all: Vec<Square> = relevant(&after, from, to)
        .into_iter()
        .filter(|&s| s != to)
        .collect();
    // All of them, and all but one: a second attacker, say, is seldom needed, and a
    // piece fewer to bring can make the game shorter.
    let mut sets = vec![all.clone()];
    sets.extend((0..all.len()).map(|i| {
        let mut fewer = all.clone();
        fewer.remove(i);
        fewer
    }));
    let setting = Setting {
        after: &after,
        ids: &ids,
        side,
        from,
        to,
    };
    let mut found: Vec<Vec<Cmd>> = Vec::new();
    for placed in &sets {
        for dx in -9i8..=9 {
            for dy in -8i8..=8 {
                if (dx, dy) == (0, 0) {
                    continue;
                }
                let Some(game) = setting.shifted(placed, (dx, dy)) else {
                    continue;
                };
                if game.len() < cmds.len() && !found.contains(&game) {
                    found.push(game);
                }
            }
        }
    }
    // A stable sort: the order of the sets and vectors breaks ties.
    found.sort_by_key(Vec::len);
    found
}

/// The position after the last move of a game, and that move.
struct Setting<'a> {
    /// The board after it.
    after: &'a Board,
    /// The pieces on it, by their start squares ([`ids`]).
    ids: &'a [Option<Square>; SQUARE_SLOTS],
    /// The side that made it.
    side: Color,
    /// Where it went from.
    from: Square,
    /// Where it went to.
    to: Square,
}

impl Setting<'_> {
    /// A game that brings the pieces on `placed` and the mover (to its square before the
    /// move) to their squares shifted by `shift`, then makes the move shifted; `None` when
    /// a square leaves the board or the game does not set them all up.
    fn shifted(&self, placed: &[Square], shift: (i8, i8)) -> Option<Vec<Cmd>> {
        let (f, t) = (self.from.offset(shift)?, self.to.offset(shift)?);
        let targets = placed
            .iter()
            .map(|&s| s.offset(shift))
            .collect::<Option<Vec<_>>>()?;
        let mut events: Vec<Event> = placed
            .iter()
            .zip(&targets)
            .map(|(&s, &target)| {
                Some(Event::Reach {
                    piece: self.ids[s.index()]?,
                    to: target,
                })
            })
            .collect::<Option<_>>()?;
        events.push(Event::Reach {
            piece: self.ids[self.to.index()]?,
            to: f,
        });
        let mut game = route::realize(&events, self.side, Takers::Fastest, true)?;
        game.push(cmd_of(f, t));
        let expected: Vec<(Square, Square)> = placed
            .iter()
            .copied()
            .zip(targets)
            .chain([(self.to, t)])
            .collect();
        sets_up(&game, self.after, &expected).then_some(game)
    }
}

/// Whether `cmds` are all legal and end with each piece of `after` named in `expected`
/// (its square there, its square at the end) standing, as the same kind and side, on its
/// square at the end.
fn sets_up(cmds: &[Cmd], after: &Board, expected: &[(Square, Square)]) -> bool {
    let mut game = Game::new();
    for c in cmds {
        if game.play(c[0], c[1], c[2], c[3]).is_err() {
            return false;
        }
    }
    expected
        .iter()
        .all(|&(s, t)| after.piece_at(s).is_some() && game.board().piece_at(t) == after.piece_at(s))
}

/// For each square of `after` (the board after the game `before` and the move `from` to
/// `to`), the piece standing there, by the square it started on.
fn ids(before: &[Cmd], after: &Board, from: Square, to: Square) -> [Option<Square>; SQUARE_SLOTS] {
    let mut id_at: [Option<Square>; SQUARE_SLOTS] = [None; SQUARE_SLOTS];
    for (s, _) in after.pieces() {
        id_at[s.index()] = Some(s);
    }
    for event in route::story(before).events {
        if let Event::Reach { piece, to } = event {
            id_at[to.index()] = Some(piece);
        }
    }
    // The mover's identity goes with it to its new square.
    let mover = id_at[from.index()].unwrap_or(from);
    id_at[from.index()] = None;
    id_at[to.index()] = Some(mover);
    id_at
}

/// The squares of the pieces that matter on `board`, after a move from `from` to `to`:
/// the mover and what stood on its way, and every piece that attacks a captain (or would
/// but for at most [`RAY_BLOCKERS`] pieces or a blocking square), with those pieces and
/// the captain.
pub fn relevant(board: &Board, from: Square, to: Square) -> Vec<Square> {
    let mut keep = vec![to];
    if let Some(piece) = board.piece_at(to) {
        let mut without = board.clone();
        without.put(to, None);
        keep.extend(between(&without, piece.kind, from, to));
    }
    for color in Color::ALL {
        let Some(captain) = board.captain(color) else {
            continue;
        };
        for (at, piece) in board.pieces() {
            if piece.color == color {
                continue;
            }
            let Some(blocking) = reaches(board, piece.kind, at, captain) else {
                continue;
            };
            keep.push(at);
            keep.push(captain);
            keep.extend(blocking);
        }
    }
    keep.sort();
    keep.dedup();
    keep
}

/// The occupied squares on the way of a piece of `kind` from `from` to `to` on `board`
/// (its blocking squares, or the squares of the ray between).
fn between(board: &Board, kind: PieceKind, from: Square, to: Square) -> Vec<Square> {
    reaches(board, kind, from, to).unwrap_or_default()
}

/// Whether a piece of `kind` on `from` reaches `to` by its rule when at most its blocking
/// squares, or at most [`RAY_BLOCKERS`] pieces on a ray, are in the way; the squares of
/// the pieces in the way if so.
fn reaches(board: &Board, kind: PieceKind, from: Square, to: Square) -> Option<Vec<Square>> {
    let occupied = |s: &Square| !board.is_empty(*s);
    match rules::reach(kind) {
        Reach::Leaps(leaps) => leaps.iter().find_map(|l| {
            (from.offset(l.delta) == Some(to)).then(|| {
                l.blocks
                    .iter()
                    .filter_map(|&b| from.offset(b))
                    .filter(occupied)
                    .collect()
            })
        }),
        Reach::Rays(dirs) => dirs.iter().find_map(|&d| {
            let mut way = Vec::new();
            let mut at = from;
            while let Some(next) = at.offset(d) {
                if next == to {
                    return (way.len() <= RAY_BLOCKERS).then_some(way);
                }
                if occupied(&next) {
                    way.push(next);
                }
                at = next;
            }
            None
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(x: i64, y: i64) -> Square {
        Square::new(x, y).expect("on the board")
    }

    /// Commands written as in an input file, four numbers a line.
    fn cmds_of(text: &str) -> Vec<Cmd> {
        text.split('|')
            .map(|l| {
                let n: Vec<i64> = l.split(' ').map(|x| x.parse().expect("a number")).collect();
                [n[0], n[1], n[2], n[3]]
            })
            .collect()
    }

    /// The board after `cmds`, all legal.
    fn replay(cmds: &[Cmd]) -> Board {
        let mut game = Game::new();
        for c in cmds {
            assert!(game.play(c[0], c[1], c[2], c[3]).is_ok(), "{c:?} is legal");
        }
        game.board().clone()
    }

    #[test]
    fn the_pieces_that_matter_are_the_mover_and_those_about_a_captain() {
        // The blue captain walks down to (2, 5), between two red soldiers that attack it
        // from above (for a soldier, backwards).
        let cmds = cmds_of(
            "0 0 1 0|9 4 8 4|0 3 1 2|8 4 7 4|1 2 0 3|7 4 7 5|0 3 1 2|7 5 6 5|1 2 0 3|6 5 5 5|0 3 1 2|5 5 4 5|1 2 0 3|4 5 3 5|0 3 1 2|3 5 2 5",
        );
        let board = replay(&cmds);
        let kept = relevant(&board, sq(3, 5), sq(2, 5));
        for s in [sq(2, 5), sq(3, 4), sq(3, 6)] {
            assert!(kept.contains(&s), "{s} in {kept:?}");
        }
        // The red captain's guard is next to nothing that attacks.
        assert!(!kept.contains(&sq(0, 3)), "{kept:?}");
    }

    #[test]
    fn an_elephant_keeps_its_row_minus_its_column_modulo_four() {
        // Why few shifts keep an elephant's position: it reaches twelve squares, its row
        // and column changing by two at a time and its row minus its column keeping its
        // remainder modulo 4.
        let Reach::Leaps(leaps) = rules::reach(PieceKind::Elephant) else {
            panic!("an elephant leaps");
        };
        let start = sq(9, 2);
        let mut seen = vec![start];
        let mut next = vec![start];
        while let Some(s) = next.pop() {
            for l in leaps {
                if let Some(t) = s.offset(l.delta) {
                    if !seen.contains(&t) {
                        seen.push(t);
                        next.push(t);
                    }
                }
            }
        }
        let class = |s: &Square| {
            (
                s.x() % 2,
                s.y() % 2,
                (s.x() as i64 - s.y() as i64).rem_euclid(4),
            )
        };
        assert!(seen.iter().all(|s| class(s) == class(&start)), "{seen:?}");
        assert_eq!(seen.len(), 12, "{seen:?}");
    }

    #[test]
    fn a_far_walk_is_relocated_nearer_and_legally() {
        let cmds = cmds_of(
            "0 0 1 0|9 4 8 4|0 3 1 2|8 4 7 4|1 2 0 3|7 4 7 5|0 3 1 2|7 5 6 5|1 2 0 3|6 5 5 5|0 3 1 2|5 5 4 5|1 2 0 3|4 5 3 5|0 3 1 2|3 5 2 5",
        );
        let games = relocations(&cmds);
        assert!(!games.is_empty());
        assert!(games.windows(2).all(|w| w[0].len() <= w[1].len()));
        let best = &games[0];
        assert!(best.len() <= 12, "{best:?}");
        // Each ends with the blue captain next to a red soldier on the row above it.
        for game in &games {
            let board = replay(game);
            let &[_, _, x, y] = game.last().expect("a move");
            assert_eq!(
                board.piece_at(sq(x, y)).map(|p| (p.color, p.kind)),
                Some((Color::Blue, PieceKind::Captain))
            );
            let soldier = [-1, 1].into_iter().any(|dy| {
                Square::new(x + 1, y + dy)
                    .and_then(|s| board.piece_at(s))
                    .map(|p| (p.color, p.kind))
                    == Some((Color::Red, PieceKind::Soldier))
            });
            assert!(soldier, "{game:?}");
        }
    }
}
