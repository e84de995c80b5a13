//! Staging: a game steered, by moves onto empty squares only, to a *scene*: chosen kinds
//! of chosen sides on chosen squares, other squares empty, possibly with no check on the
//! board and a chosen side to move; then a few commands played there. A greedy search
//! reaches a cell one move ahead at a time, and seldom one that wants several pieces
//! far from where play takes them (a captain on the other side's back row, a duck with
//! both legs held); a scene asks for all of them at once.
//!
//! Each side, on its turn, first moves its own piece off a square the scene wants
//! otherwise; else takes one step of the shortest route of one of its pieces to a square
//! the scene wants it on; else moves its own piece out of the way of a route the scene
//! needs (either side's); else waits with a quiet move off the scene's squares. Nothing
//! is ever taken while staging, so no captain is. When the scene wants no check and a
//! piece outside it gives one, that piece's square joins the squares to empty (or, for
//! a piece of the scene, the square of the captain it attacks).

use super::kept_after_capture::route;
use crate::generate::case::{cmd_of, Cmd};
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{Color, Piece, PieceKind, Square};
use crate::judge::rules;
use crate::sys::rng::Rng;

/// Moves of a staging, at most.
const PLIES: usize = 160;
/// Moves a piece's route takes, at most (a captain, which steps one square at a time,
/// twice as many).
const ROUTE: usize = 8;

/// What a scene wants on one square: a piece of this side, of one of these kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Want {
    /// The side.
    pub color: Color,
    /// The kinds, one bit each by [`PieceKind::index`].
    kinds: u8,
}

impl Want {
    /// A piece of `color`'s `kind`.
    pub fn piece(color: Color, kind: PieceKind) -> Want {
        Want {
            color,
            kinds: 1 << kind.index(),
        }
    }

    /// Any piece of `color` but its captain.
    pub fn any(color: Color) -> Want {
        Want {
            color,
            kinds: 0x7f & !(1 << PieceKind::Captain.index()),
        }
    }

    /// The same, but not of `kind`.
    pub fn but(self, kind: PieceKind) -> Want {
        Want {
            kinds: self.kinds & !(1 << kind.index()),
            ..self
        }
    }

    /// Whether `p` is such a piece.
    pub fn takes(self, p: Piece) -> bool {
        p.color == self.color && self.kinds & (1 << p.kind.index()) != 0
    }
}

/// A position to steer to, and what is played there.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    /// The squares that must hold a piece, and what piece.
    pub place: Vec<(Square, Want)>,
    /// The squares that must be empty.
    pub empty: Vec<Square>,
    /// The side to move once the scene stands, when it matters.
    pub mover: Option<Color>,
    /// Whether the scene wants no check on the board ...
    pub calm: bool,
    /// ... but this square's piece's.
    pub lone: Option<Square>,
    /// The commands played once it stands (invalid ones included), followed by a quiet
    /// move.
    pub then: Vec<Cmd>,
}

/// The commands that take `game` to `scene` and then play its commands; `None` when
/// the staging does not get there within [`PLIES`] moves or the game ends.
pub fn stage(game: &Game, scene: &Scene, rng: &mut Rng) -> Option<Vec<Cmd>> {
    let mut game = game.clone();
    let mut out = Vec::new();
    // Pieces outside the scene that give check, moved away when the scene wants calm.
    let mut away: Vec<Square> = Vec::new();
    loop {
        let board = game.board();
        if board.is_over() || out.len() >= PLIES {
            return None;
        }
        if stands(board, scene) {
            let mut checks = if scene.calm {
                checks(board)
            } else {
                Vec::new()
            };
            checks.retain(|&(by, _)| Some(by) != scene.lone);
            let turn = scene.mover.is_none_or(|m| m == board.side_to_move());
            if checks.is_empty() && turn {
                break;
            }
            // The piece that gives check moves away, or else the captain it attacks.
            let placed = |s: Square| scene.place.iter().any(|p| p.0 == s);
            for (by, on) in checks {
                let s = [by, on].into_iter().find(|&s| !placed(s))?;
                if !away.contains(&s) {
                    away.push(s);
                }
            }
        }
        let c = step(board, scene, &away, rng)?;
        game.play(c[0], c[1], c[2], c[3]).ok()?;
        out.push(c);
    }
    // Then its commands, and a quiet move of the side to move after them (a refused
    // command counts only before a move of the same side).
    for &c in &scene.then {
        let _ = game.play(c[0], c[1], c[2], c[3]);
        out.push(c);
    }
    let after: Vec<Cmd> = rules::legal_moves(game.board())
        .into_iter()
        .filter(|m| game.board().is_empty(m.to))
        .map(|m| cmd_of(m.from, m.to))
        .collect();
    out.extend(rng.pick(&after));
    Some(out)
}

/// Whether `scene`'s pieces and empty squares stand on `board`.
fn stands(board: &Board, scene: &Scene) -> bool {
    scene
        .place
        .iter()
        .all(|&(s, w)| board.piece_at(s).is_some_and(|p| w.takes(p)))
        && scene.empty.iter().all(|&s| board.is_empty(s))
}

/// The checks on `board`, either side's: the square of the piece that gives one, and
/// of the captain it attacks.
fn checks(board: &Board) -> Vec<(Square, Square)> {
    let mut out = Vec::new();
    for side in Color::ALL {
        if let Some(c) = board.captain(side.opponent()) {
            out.extend(rules::attackers(board, c, side).into_iter().map(|s| (s, c)));
        }
    }
    out
}

/// One move of the side to move towards `scene`: a piece of its moved off a square the
/// scene wants otherwise, else one step of a route to a square the scene wants it on,
/// else a piece of its moved out of the way of a route the scene needs (either side's),
/// else a quiet move off the scene's squares. `None` when it has no such move.
fn step(board: &Board, scene: &Scene, away: &[Square], rng: &mut Rng) -> Option<Cmd> {
    let mut busy: Vec<Square> = scene
        .place
        .iter()
        .map(|p| p.0)
        .chain(scene.empty.iter().copied())
        .chain(away.iter().copied())
        .collect();
    // A piece placed where the scene wants it stays.
    let placed = |s: Square| {
        scene
            .place
            .iter()
            .any(|&(q, w)| q == s && board.piece_at(s).is_some_and(|p| w.takes(p)))
    };
    let moves: Vec<rules::Move> = rules::legal_moves(board)
        .into_iter()
        .filter(|m| board.is_empty(m.to))
        .collect();
    // The moves of the pieces `from` accepts, off `avoid`.
    let off = |from: &dyn Fn(Square) -> bool, avoid: &[Square]| -> Vec<Cmd> {
        moves
            .iter()
            .filter(|m| from(m.from) && !avoid.contains(&m.to))
            .map(|m| cmd_of(m.from, m.to))
            .collect()
    };
    let wrong = |s: Square| busy.contains(&s) && !placed(s);
    if let Some(c) = rng.pick(&off(&wrong, &busy)) {
        return Some(c);
    }
    let (open, barred) = routes(board, scene, &placed);
    if let Some(path) = open {
        return Some(cmd_of(path[0], path[1]));
    }
    busy.extend(barred.iter().flat_map(|(_, path)| path.iter().copied()));
    let side = board.side_to_move();
    let mine = |s: Square| {
        barred.iter().any(|b| b.0 == s)
            && board.piece_at(s).is_some_and(|p| p.color == side)
            && !placed(s)
    };
    if let Some(c) = rng.pick(&off(&mine, &busy)) {
        return Some(c);
    }
    let free = |s: Square| {
        !placed(s)
            && board
                .piece_at(s)
                .is_some_and(|p| p.kind != PieceKind::Captain)
    };
    rng.pick(&off(&free, &busy))
}

/// A piece in the way of a route the scene needs: its square, and the route.
type Barred = (Square, Vec<Square>);

/// The routes `scene` still needs: the shortest open route of one of the side to move's
/// pieces to an empty square the scene wants it on, if any; and, for every square the
/// scene still wants a piece on (either side's), the pieces that bar the shortest route
/// there with every piece that may move aside lifted, each with that route.
fn routes(
    board: &Board,
    scene: &Scene,
    placed: &impl Fn(Square) -> bool,
) -> (Option<Vec<Square>>, Vec<Barred>) {
    let side = board.side_to_move();
    let mut lifted = board.clone();
    for (s, p) in board.pieces() {
        if p.kind != PieceKind::Captain && !placed(s) {
            lifted.put(s, None);
        }
    }
    let mut open: Option<Vec<Square>> = None;
    let mut barred = Vec::new();
    for &(goal, want) in &scene.place {
        if placed(goal) {
            continue;
        }
        let mut shortest: Option<Vec<Square>> = None;
        for (at, p) in board.pieces() {
            if !want.takes(p) || placed(at) {
                continue;
            }
            let limit = if p.kind == PieceKind::Captain {
                2 * ROUTE
            } else {
                ROUTE
            };
            if want.color == side && board.is_empty(goal) {
                if let Some(path) = route(board, at, limit, |_, s| s == goal) {
                    if open.as_ref().is_none_or(|o| path.len() < o.len()) {
                        open = Some(path);
                    }
                }
            }
            let mut alone = lifted.clone();
            alone.put(at, Some(p));
            if let Some(path) = route(&alone, at, limit, |_, s| s == goal) {
                if shortest.as_ref().is_none_or(|o| path.len() < o.len()) {
                    shortest = Some(path);
                }
            }
        }
        if let Some(path) = shortest {
            for by in in_the_way(board, &path) {
                barred.push((by, path.clone()));
            }
        }
    }
    (open, barred)
}

/// The squares holding a piece that the route `path` of the piece on its first square
/// passes over or through (a blocking square of one of its moves).
fn in_the_way(board: &Board, path: &[Square]) -> Vec<Square> {
    let Some(p) = board.piece_at(path[0]) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for pair in path.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        let squares: Vec<Square> = match rules::reach(p.kind) {
            rules::Reach::Leaps(leaps) => leaps
                .iter()
                .filter(|l| from.offset(l.delta) == Some(to))
                .flat_map(|l| l.blocks.iter().filter_map(|&b| from.offset(b)))
                .collect(),
            rules::Reach::Rays(_) => super::kept_after_capture::between(from, to)
                .filter(|&s| s != from && s != to)
                .collect(),
        };
        for s in squares.into_iter().chain([to]) {
            if s != path[0] && !board.is_empty(s) && !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(x: i64, y: i64) -> Square {
        Square::new(x, y).expect("on the board")
    }

    #[test]
    fn a_captain_is_walked_to_the_other_back_row_with_no_check() {
        // Blue's captain next to red's, a red elephant to row 8 with its eye emptied of
        // a blue guard: a scene no greedy search comes near.
        let scene = Scene {
            place: vec![
                (sq(0, 5), Want::piece(Color::Blue, PieceKind::Captain)),
                (sq(8, 2), Want::piece(Color::Red, PieceKind::Elephant)),
            ],
            empty: vec![sq(9, 3)],
            calm: true,
            ..Scene::default()
        };
        let mut rng = Rng::new(1);
        let cmds = stage(&Game::new(), &scene, &mut rng).expect("staged");
        let mut game = Game::new();
        for c in &cmds {
            assert!(game.play(c[0], c[1], c[2], c[3]).is_ok(), "{c:?}");
        }
        let b = game.board();
        assert!(stands(b, &scene));
        assert!(!rules::is_check(b));
        assert!(b.pieces().count() == 32, "nothing is taken");
    }

    #[test]
    fn a_scene_waits_for_its_mover_and_then_plays() {
        let scene = Scene {
            place: vec![(sq(2, 4), Want::any(Color::Red))],
            mover: Some(Color::Red),
            then: vec![[0, 0, 0, 0]],
            ..Scene::default()
        };
        let mut rng = Rng::new(2);
        let cmds = stage(&Game::new(), &scene, &mut rng).expect("staged");
        // The scene's command, then a quiet move.
        assert_eq!(cmds[cmds.len() - 2], [0, 0, 0, 0]);
        let mut game = Game::new();
        for c in &cmds[..cmds.len() - 2] {
            assert!(game.play(c[0], c[1], c[2], c[3]).is_ok(), "{c:?}");
        }
        assert_eq!(game.side_to_move(), Color::Red);
        assert!(game.board().piece_at(sq(2, 4)).is_some());
    }
}
