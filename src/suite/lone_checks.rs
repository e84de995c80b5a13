//! Lone checks: games in which one chosen piece gives check while no other piece
//! threatens either captain. They expose a solution that leaves that piece out of its
//! look for check (a loop over the attackers that skips one id), which answers wrong
//! only where that piece's threat is the only one on the board. A greedy search valuing
//! one command at a time seldom brings a given piece and the other side's captain
//! together with nothing else in play; this module builds it.
//!
//! For each targeted piece: either it walks, by its own moves over the board as it
//! stands, to a square from which it alone threatens the other side's captain, or that
//! captain walks, one step a move, to a square the piece alone threatens; the shorter
//! walk, planned again after every move. The side that does not walk answers each move
//! with a quiet one (taking nothing, giving no check when it can, away from the walk);
//! the targeted piece itself never makes one. Nothing is taken. One game gives the lone
//! checks one after another, the nearest first, and shows the ghosts of
//! [`super::kept_after_capture`] too, which take pieces: each piece's lone check before it is taken.

use super::kept_after_capture::{self, between, route, shortest, Tour};
use crate::catalogue::for_suite::{starts, Fault, InstanceSlip, Mistake, Shaped};
use crate::generate::case::cmd_of;
use crate::generate::case::Cmd;
use crate::judge::board::Board;
use crate::judge::piece::{Piece, PieceKind, Square};
use crate::judge::rules;
use crate::sys::rng::Rng;

/// Moves the piece makes to where it threatens the captain, at most.
const PIECE_MOVES: usize = 6;
/// Steps of the captain to where the piece threatens it, at most.
const CAPTAIN_STEPS: usize = 12;
/// Quiet moves that try to open a walk when none is found, at most.
const STUCK: usize = 6;
/// Ways tried for one piece (each with its own quiet moves); the shortest is kept.
const WAYS: u64 = 3;

/// The starting piece (not a captain, whose slip is another: its own danger unseen)
/// that `m` leaves out of its look for check, if `m` is such a mistake.
pub fn lonely(m: Mistake) -> Option<u8> {
    match m.fault() {
        Fault::Shaped(Shaped::Instance(id, InstanceSlip::NoCheck))
            if starts()[id as usize].kind != PieceKind::Captain =>
        {
            Some(id)
        }
        _ => None,
    }
}

/// Whether on `board` (a game not over) the piece on `at` threatens the other side's
/// captain and no other piece threatens either captain.
pub fn alone(board: &Board, at: Square) -> bool {
    if board.is_over() {
        return false;
    }
    let mut threats = board
        .pieces()
        .filter(|&(from, p)| {
            board
                .captain(p.color.opponent())
                .is_some_and(|k| rules::check_path(board, p.kind, from, k).is_ok())
        })
        .map(|(from, _)| from);
    threats.next() == Some(at) && threats.next().is_none()
}

/// The shorter walk to a lone check by the piece on `p`: its own, or the other side's
/// captain's (the squares from where the walker stands). When neither finds one (an
/// elephant, on squares of one colour of rows, never threatens a captain on the other
/// rows), the captain's walk to where the piece's own walk finds one. `None` when none
/// is found.
fn walk(board: &Board, p: Square) -> Option<Vec<Square>> {
    let piece = board.piece_at(p)?;
    let captain = Piece::new(piece.color.opponent(), PieceKind::Captain);
    let king = board.captain(captain.color)?;
    let by_piece = |board: &Board| {
        route(board, p, PIECE_MOVES, |b, s| {
            let mut after = b.clone();
            after.put(s, Some(piece));
            alone(&after, s)
        })
    };
    let by_captain = route(board, king, CAPTAIN_STEPS, |b, s| {
        let mut after = b.clone();
        after.put(s, Some(captain));
        alone(&after, p)
    });
    let shorter = [by_piece(board), by_captain]
        .into_iter()
        .flatten()
        .min_by_key(|w| w.len());
    shorter.or_else(|| {
        route(board, king, CAPTAIN_STEPS, |b, s| {
            let mut after = b.clone();
            after.put(s, Some(captain));
            by_piece(&after).is_some()
        })
    })
}

/// Target `t` shown by a lone check of its piece, walked to move by move; `None` when
/// it cannot be.
fn lone_check(mut tour: Tour, t: usize, rng: &mut Rng) -> Option<Tour> {
    let id = tour.targets[t].id;
    let mut stuck = 0;
    for _ in 0..2 * (PIECE_MOVES + CAPTAIN_STEPS + STUCK) {
        if tour.targets[t].shown {
            return Some(tour);
        }
        let board = tour.game.board().clone();
        if board.is_over() {
            return None;
        }
        let p = tour.square_of(id)?;
        let moved = match walk(&board, p) {
            Some(w) => {
                let walker = board.piece_at(w[0])?.color;
                if walker == board.side_to_move() {
                    tour.play(cmd_of(w[0], w[1]))
                } else {
                    // Nothing onto the walk, nor between its end and what it threatens.
                    let end = w[w.len() - 1];
                    let (from, to) = if w[0] == p {
                        (end, board.captain(walker.opponent())?)
                    } else {
                        (p, end)
                    };
                    let mut avoid = w.clone();
                    avoid.extend(between(from, to));
                    tour.quiet(Some(p), &avoid, rng)
                }
            }
            None => {
                stuck += 1;
                let way = |b: &Board| walk(b, p);
                stuck <= STUCK && (tour.opening(&way, rng) || tour.quiet(Some(p), &[], rng))
            }
        };
        if !moved {
            return None;
        }
    }
    tour.targets[t].shown.then_some(tour)
}

/// The shortest of a few ways found to show target `t` by a lone check.
fn show(tour: &Tour, t: usize, seed: u64) -> Option<Tour> {
    shortest((0..WAYS).filter_map(|k| {
        let mut rng = Rng::new(seed ^ (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        lone_check(tour.clone(), t, &mut rng)
    }))
}

/// Commands that, played after `prefix`, expose the pieces left out of the look for
/// check among `mistakes` ([`lonely`]) by a lone check of each, and the pieces kept
/// when taken ([`kept_after_capture::haunted`]) as [`kept_after_capture::tour`] does, one after another; at most
/// `room` of them. A piece's lone check comes before any piece is taken, the elephants'
/// first, while the board is fresh (an elephant threatens only four squares, two
/// diagonal steps away with the middle one empty, which a crowded board covers or
/// fills): the elephants' lone checks, the elephants taken, the other lone checks, the
/// other pieces taken. Those it cannot show in that room are left; the same commands
/// for the same arguments.
pub fn tour(prefix: &[Cmd], mistakes: &[Mistake], room: usize, seed: u64) -> Vec<Cmd> {
    let targets: Vec<(Mistake, u8)> = mistakes
        .iter()
        .filter_map(|&m| {
            lonely(m)
                .or_else(|| kept_after_capture::haunted(m))
                .map(|id| (m, id))
        })
        .collect();
    let show = |tour: &Tour, t: usize, seed: u64| {
        if lonely(targets[t].0).is_some() {
            show(tour, t, seed)
        } else {
            tour.show(t, seed)
        }
    };
    let rank = |m: Mistake, kind: PieceKind| {
        let elephant = kind == PieceKind::Elephant;
        let stage = 2 * u8::from(!elephant) + u8::from(lonely(m).is_none());
        (stage, false)
    };
    kept_after_capture::run(prefix, &targets, room, seed, &show, &rank)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::for_suite::Mutant;
    use crate::catalogue::for_suite::{first_difference, judge_answers};
    use crate::judge::game::Game;

    fn lonely_ones() -> Vec<Mistake> {
        Mistake::all()
            .iter()
            .copied()
            .filter(|&m| lonely(m).is_some())
            .collect()
    }

    #[test]
    fn every_piece_but_the_captains_is_targeted_once() {
        let mut ids: Vec<u8> = lonely_ones().into_iter().filter_map(lonely).collect();
        ids.sort_unstable();
        let expected: Vec<u8> = (0..32).filter(|&id| id != 0 && id != 16).collect();
        assert_eq!(ids, expected);
    }

    #[test]
    fn alone_means_one_threat_on_the_board() {
        let start = Board::start();
        let sq = |x, y| Square::new(x, y).expect("on the board");
        // Nothing threatens a captain at the start.
        assert!(Board::start().pieces().all(|(s, _)| !alone(&start, s)));
        // A red car on (5, 4), the column to the blue captain open: alone.
        let mut b = Board::start();
        b.put(sq(3, 4), None);
        b.put(sq(6, 4), None);
        b.put(
            sq(5, 4),
            Some(Piece::new(crate::judge::piece::Color::Red, PieceKind::Car)),
        );
        assert!(alone(&b, sq(5, 4)));
        assert!(!alone(&b, sq(0, 4)));
        // A blue soldier next to the red captain too: two threats, neither alone.
        b.put(
            sq(1, 4),
            Some(Piece::new(
                crate::judge::piece::Color::Blue,
                PieceKind::Soldier,
            )),
        );
        assert!(!alone(&b, sq(5, 4)));
        assert!(!alone(&b, sq(1, 4)));
    }

    #[test]
    fn each_piece_alone_gives_a_lone_check_from_the_start() {
        let mut missed = Vec::new();
        for m in lonely_ones() {
            let cmds = tour(&[], &[m], 200, 7);
            let expected = judge_answers(&cmds);
            let Some(at) = first_difference(m, &cmds, &expected) else {
                missed.push(m.name());
                continue;
            };
            // Legal moves only, nothing taken, and it ends on the lone check: a check
            // by the piece alone.
            let mut game = Game::new();
            for c in &cmds {
                let a = game.play(c[0], c[1], c[2], c[3]);
                assert!(a.is_ok_and(|a| a.captured.is_none()), "{m}: {c:?}");
            }
            assert_eq!(at, cmds.len() - 1, "{m}");
            assert!(expected[at].is_some_and(|a| a.check));
            let id = lonely(m).expect("targeted");
            let s = starts()[id as usize];
            let mut ids = Mutant::new(None);
            for &c in &cmds {
                ids.play(c);
            }
            let at = Square::all()
                .find(|&q| ids.id_on(q) == Some(id))
                .expect("on the board");
            assert!(alone(game.board(), at), "{m}");
            assert_eq!(game.board().piece_at(at).map(|p| p.kind), Some(s.kind));
            assert_eq!(cmds, tour(&[], &[m], 200, 7));
        }
        assert!(missed.is_empty(), "{missed:?}");
    }

    /// The tour of `seed` gives every lone check, shows every ghost and takes every piece
    /// but the captains, the same way each time.
    fn one_game_of_seed(seed: u64) {
        let mut all = lonely_ones();
        all.extend(kept_after_capture::tests::ghosts());
        let cmds = tour(&[], &all, 1000, seed);
        assert!(cmds.len() <= 700, "{}", cmds.len());
        let expected = judge_answers(&cmds);
        assert!(expected.iter().all(Option::is_some));
        let missed: Vec<&str> = all
            .iter()
            .filter(|&&m| first_difference(m, &cmds, &expected).is_none())
            .map(|m| m.name())
            .collect();
        assert!(missed.is_empty(), "seed {seed}: {missed:?}");
        assert_eq!(cmds, tour(&[], &all, 1000, seed));
        // It takes every piece but the captains: a solution that never lets one of
        // them be taken is shown too.
        let untaken: Vec<&str> = Mistake::all()
            .iter()
            .filter(|m| {
                matches!(m.fault(), Fault::Shaped(Shaped::Instance(id, InstanceSlip::Uncapturable))
                    if starts()[id as usize].kind != PieceKind::Captain)
            })
            .filter(|&&m| first_difference(m, &cmds, &expected).is_none())
            .map(|m| m.name())
            .collect();
        assert!(untaken.is_empty(), "seed {seed}: {untaken:?}");
    }

    #[test]
    #[ignore = "slow (about 8 s): the full tier runs it"]
    fn one_game_gives_every_lone_check_and_shows_every_ghost() {
        one_game_of_seed(1);
        // The lone checks alone take nothing.
        let cmds = tour(&[], &lonely_ones(), 1000, 1);
        let expected = judge_answers(&cmds);
        assert!(expected
            .iter()
            .all(|a| a.is_some_and(|a| a.captured.is_none())));
    }

    #[test]
    #[ignore = "slow (about 20 s): the full tier runs it"]
    fn so_does_the_game_of_other_seeds() {
        for seed in 2..=3 {
            one_game_of_seed(seed);
        }
    }

    #[test]
    fn the_room_is_kept() {
        let cmds = tour(&[], &lonely_ones(), 20, 3);
        assert!(cmds.len() <= 20);
    }
}
