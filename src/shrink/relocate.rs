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
//!
//! The mover, unless it is a captain, often matters only by where it ends (on a blocking
//! square, in a piece's way): another piece of its side that gets there in fewer moves
//! may play its part, moving onto its square from wherever that piece's rule allows
//! (also with no shift at all). Its kind may differ; the program says whether it still
//! fails. There, too, a piece of the other side that never moves is taken where a piece
//! arrives, while the pieces of the other side walk on their turns.

use super::route::{self, Event, Takers};
use crate::generate::case::{cmd_of, Cmd};
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{Color, Piece, PieceKind, Square, SQUARE_SLOTS};
use crate::judge::rules::{self, Reach};

/// How many of the shortest relocated games the shrinker tries.
pub const TRIED: usize = 32;

/// The most pieces a ray may pass over and still count as blocked short of a captain.
const RAY_BLOCKERS: usize = 1;

/// How many stand-ins for the mover (the nearest first) are tried for each shift.
const STAND_INS: usize = 2;

/// Games that play the last move of `cmds` (which must be legal) with the pieces that
/// matter (or all of them but one) shifted by a vector, shortest first, each shorter than
/// `cmds` and each checked to set up every shifted piece and to make the shifted last
/// move legal; with `stand_ins`, also those in which another piece makes the last move
/// ([`STAND_INS`]).
pub fn relocations(cmds: &[Cmd], stand_ins: bool) -> Vec<Vec<Cmd>> {
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
    let others: Vec<_> = after
        .pieces()
        .filter(|(_, p)| p.kind != PieceKind::Captain)
        .filter_map(|(at, p)| {
            let id = ids[at.index()]?;
            Some((id, p, moves_from(p.kind, id)))
        })
        .collect();
    let setting = Setting {
        after: &after,
        ids: &ids,
        side,
        from,
        to,
        others: &others,
        stand_ins,
    };
    let mut found: Vec<Vec<Cmd>> = Vec::new();
    for placed in &sets {
        for dx in -9i8..=9 {
            for dy in -8i8..=8 {
                let mut games = match stand_ins {
                    true => setting.stand_ins(placed, (dx, dy)),
                    false => Vec::new(),
                };
                if (dx, dy) != (0, 0) {
                    games.extend(setting.shifted(placed, (dx, dy)));
                }
                for game in games {
                    if game.len() < cmds.len() && !found.contains(&game) {
                        found.push(game);
                    }
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
    /// The pieces on it other than captains, by their start squares, each with the
    /// fewest moves it needs to each square ([`moves_from`]).
    others: &'a [(Square, Piece, [Option<usize>; SQUARE_SLOTS])],
    /// Whether other pieces may make the last move, and pieces that never move are
    /// taken where another arrives ([`taking_the_way`]).
    stand_ins: bool,
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
        let mover = self.ids[self.to.index()]?;
        let events = self.arrivals(placed, &targets, (mover, f))?;
        let piece = self.after.piece_at(self.to)?;
        self.play(placed, &targets, events, (f, t), piece)
    }

    /// The arrivals of the pieces on `placed` on `targets`, then of the piece that makes
    /// the last move (by its start square) on the square it moves from.
    fn arrivals(
        &self,
        placed: &[Square],
        targets: &[Square],
        (mover, from): (Square, Square),
    ) -> Option<Vec<Event>> {
        let mut events: Vec<Event> = placed
            .iter()
            .zip(targets)
            .map(|(&s, &to)| {
                Some(Event::Reach {
                    piece: self.ids[s.index()]?,
                    to,
                })
            })
            .collect::<Option<_>>()?;
        events.push(Event::Reach {
            piece: mover,
            to: from,
        });
        Some(events)
    }

    /// Games like [`Setting::shifted`]'s in which another piece of the mover's side, one
    /// of the [`STAND_INS`] that get to a square from which they reach the shifted
    /// target in the fewest moves, makes the last move in its place; none when the mover
    /// is a captain.
    fn stand_ins(&self, placed: &[Square], shift: (i8, i8)) -> Vec<Vec<Cmd>> {
        let Some(mover) = self.after.piece_at(self.to) else {
            return Vec::new();
        };
        let Some(t) = self.to.offset(shift) else {
            return Vec::new();
        };
        let Some(targets) = placed
            .iter()
            .map(|&s| s.offset(shift))
            .collect::<Option<Vec<_>>>()
        else {
            return Vec::new();
        };
        if mover.kind == PieceKind::Captain {
            return Vec::new();
        }
        let busy: Vec<Square> = placed
            .iter()
            .chain([&self.to])
            .filter_map(|s| self.ids[s.index()])
            .collect();
        let mut nearest: Vec<(usize, Square, Square, Piece)> = Vec::new();
        for &(id, piece, ref dist) in self.others {
            if piece.color != mover.color || busy.contains(&id) {
                continue;
            }
            let best = rules::empty_board_reach(piece.kind, t, true)
                .into_iter()
                .filter(|s| !targets.contains(s))
                .filter_map(|s| Some((dist[s.index()]?, s)))
                .min_by_key(|&(d, _)| d);
            if let Some((d, from)) = best {
                nearest.push((d, id, from, piece));
            }
        }
        // A stable sort: the order of the squares breaks ties.
        nearest.sort_by_key(|&(d, ..)| d);
        nearest
            .into_iter()
            .take(STAND_INS)
            .filter_map(|(_, id, from, piece)| {
                let events = self.arrivals(placed, &targets, (id, from))?;
                self.play(placed, &targets, events, (from, t), piece)
            })
            .collect()
    }

    /// The game that makes `events` happen and then the move from `f` to `t` (by
    /// `mover`), when it is legal and ends with the pieces on `placed` on `targets` and
    /// `mover` on `t`.
    fn play(
        &self,
        placed: &[Square],
        targets: &[Square],
        events: Vec<Event>,
        (f, t): (Square, Square),
        mover: Piece,
    ) -> Option<Vec<Cmd>> {
        let events = match self.stand_ins {
            true => taking_the_way(&events),
            false => events,
        };
        let mut game = route::realize(&events, self.side, Takers::Fastest, true)?;
        game.push(cmd_of(f, t));
        let expected: Vec<(Square, Piece)> = placed
            .iter()
            .zip(targets)
            .map(|(&s, &target)| Some((target, self.after.piece_at(s)?)))
            .chain([Some((t, mover))])
            .collect::<Option<_>>()?;
        sets_up(&game, &expected).then_some(game)
    }
}

/// `events` with a capture before each arrival on a square where a piece of the other
/// side starts and stays (no event names it), those arrivals first: [`route::realize`]
/// does not take a piece to arrive, and a piece that never moves does not make way.
fn taking_the_way(events: &[Event]) -> Vec<Event> {
    let start = Board::start();
    let named: Vec<Square> = events.iter().flat_map(Event::pieces).collect();
    let (mut taking, mut rest) = (Vec::new(), Vec::new());
    for &event in events {
        match event {
            Event::Reach { piece, to }
                if !named.contains(&to)
                    && start.piece_at(to).is_some_and(|v| {
                        start.piece_at(piece).map(|p| p.color.opponent()) == Some(v.color)
                    }) =>
            {
                taking.extend([
                    Event::Capture {
                        by: piece,
                        victim: to,
                    },
                    event,
                ]);
            }
            _ => rest.push(event),
        }
    }
    // Those that take come first: the other pieces' arrivals go ahead on their side's
    // turns meanwhile, where a capture later in the story would wait for them.
    taking.extend(rest);
    taking
}

/// For each square, the fewest moves a piece of `kind` needs from `from` to it on an
/// empty board; `None` where it never gets.
fn moves_from(kind: PieceKind, from: Square) -> [Option<usize>; SQUARE_SLOTS] {
    let mut dist: [Option<usize>; SQUARE_SLOTS] = [None; SQUARE_SLOTS];
    dist[from.index()] = Some(0);
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(s) = queue.pop_front() {
        let d = dist[s.index()].unwrap_or(0);
        let next = rules::empty_board_reach(kind, s, false);
        for n in next {
            if dist[n.index()].is_none() {
                dist[n.index()] = Some(d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Whether `cmds` are all legal and end with each piece of `expected` on its square.
fn sets_up(cmds: &[Cmd], expected: &[(Square, Piece)]) -> bool {
    let mut game = Game::new();
    for c in cmds {
        if game.play(c[0], c[1], c[2], c[3]).is_err() {
            return false;
        }
    }
    expected
        .iter()
        .all(|&(t, piece)| game.board().piece_at(t) == Some(piece))
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
    use crate::shrink::route::tests::replay;

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
        let games = relocations(&cmds, false);
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

    #[test]
    fn a_mover_that_only_blocks_is_played_by_a_nearer_piece_of_its_side() {
        // A red soldier walks two squares and steps onto the eye (2, 5) of the blue
        // elephant on (3, 4), between it and the red captain that walked to (1, 6): the
        // elephant reaches twelve squares and no shift brings it closer, but the soldier
        // that starts on (3, 6) is one step from the eye.
        let cmds = cmds_of(
            "3 2 3 3|9 3 8 2|3 3 2 4|8 2 9 3|3 4 2 3|9 2 7 4|0 4 1 4|7 4 5 6|1 4 1 5|5 6 3 4|1 5 1 6|9 3 8 2|2 4 2 5",
        );
        let games = relocations(&cmds, true);
        let blocked = |game: &Vec<Cmd>| {
            let board = replay(game);
            let kind = |x, y| board.piece_at(sq(x, y)).map(|p| (p.color, p.kind));
            let &[_, _, x, y] = game.last().expect("a move");
            (x, y) == (2, 5)
                && kind(3, 4) == Some((Color::Blue, PieceKind::Elephant))
                && kind(1, 6) == Some((Color::Red, PieceKind::Captain))
                && kind(2, 5).map(|(c, _)| c) == Some(Color::Red)
        };
        let best = games
            .iter()
            .take(TRIED)
            .filter(|g| blocked(g))
            .min_by_key(|g| g.len())
            .expect("the position set up among the games tried");
        assert_eq!(best.len(), 7, "{best:?}");
        assert_eq!(best.last(), Some(&[3, 6, 2, 5]), "{best:?}");
    }

    #[test]
    fn a_piece_that_never_moves_is_taken_where_another_arrives() {
        let reach = |piece, to| Event::Reach { piece, to };
        let cases = [
            // A blue elephant arriving where a red soldier starts takes it first.
            (
                vec![reach(sq(9, 2), sq(3, 4))],
                vec![
                    Event::Capture {
                        by: sq(9, 2),
                        victim: sq(3, 4),
                    },
                    reach(sq(9, 2), sq(3, 4)),
                ],
            ),
            // Those arrivals first.
            (
                vec![reach(sq(0, 4), sq(1, 6)), reach(sq(9, 2), sq(3, 4))],
                vec![
                    Event::Capture {
                        by: sq(9, 2),
                        victim: sq(3, 4),
                    },
                    reach(sq(9, 2), sq(3, 4)),
                    reach(sq(0, 4), sq(1, 6)),
                ],
            ),
            // Not a piece of its own side, nor one the story moves.
            (
                vec![reach(sq(0, 4), sq(0, 3))],
                vec![reach(sq(0, 4), sq(0, 3))],
            ),
            (
                vec![reach(sq(9, 2), sq(3, 4)), reach(sq(3, 4), sq(2, 3))],
                vec![reach(sq(9, 2), sq(3, 4)), reach(sq(3, 4), sq(2, 3))],
            ),
        ];
        for (events, expected) in cases {
            assert_eq!(taking_the_way(&events), expected, "{events:?}");
        }
    }

    #[test]
    fn the_fewest_moves_on_an_empty_board() {
        let cases = [
            (PieceKind::Soldier, sq(3, 2), sq(2, 5), Some(3)),
            (PieceKind::Soldier, sq(3, 6), sq(3, 6), Some(0)),
            (PieceKind::Elephant, sq(9, 2), sq(3, 4), Some(3)),
            (PieceKind::Elephant, sq(9, 2), sq(9, 3), None),
            (PieceKind::Car, sq(0, 0), sq(5, 7), Some(2)),
            (PieceKind::Horse, sq(9, 1), sq(7, 2), Some(1)),
        ];
        for (kind, from, to, expected) in cases {
            assert_eq!(
                moves_from(kind, from)[to.index()],
                expected,
                "{kind:?} {from} {to}"
            );
            // The one-move sources are exactly the squares one move away.
            for s in rules::empty_board_reach(kind, to, true) {
                assert_eq!(
                    moves_from(kind, s)[to.index()],
                    Some(1),
                    "{kind:?} {s} {to}"
                );
            }
        }
    }
}
