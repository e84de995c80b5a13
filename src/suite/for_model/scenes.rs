//! Scenes for the cells a greedy search leaves ([`crate::suite::staging`]): for one cell
//! of the statement's model or of the move table's map, the positions that reach it,
//! each as pieces on squares, squares empty and what is played there, the nearest to
//! the board first. A cell with no scene here is left to the search.

use super::super::staging::{Scene, Want};
use crate::generate::case::cmd_of;
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::model::statement::aliases::found_from;
use crate::model::statement::layout::Layout;
use crate::model::statement::refusals::shape_blocks;
use crate::model::statement::wraps;
use crate::model::statement::{self as model, Onto};
use crate::model::table::{self, rows};

/// Scenes tried for one cell, at most.
pub const SCENES: usize = 6;

/// The squares `side`'s `kind` can stand on in some game.
fn stand(side: Color, kind: PieceKind) -> impl Iterator<Item = Square> {
    let can = model::stands(side, kind);
    Square::all().filter(move |s| can & (1 << s.bit()) != 0)
}

/// The scenes that reach the model's `cell`, nearest first.
pub fn for_model(cell: model::Cell, board: &Board) -> Vec<Scene> {
    use model::Cell as C;
    let scenes = match cell {
        C::Alias(side, kind, v, layout) => stand(side, kind)
            .flat_map(|from| {
                found_from(kind, v, from, layout)
                    .into_iter()
                    .map(move |(captain, empty)| Scene {
                        place: vec![
                            (from, Want::piece(side, kind)),
                            (captain, Want::piece(side.opponent(), PieceKind::Captain)),
                        ],
                        empty,
                        calm: true,
                        ..Scene::default()
                    })
            })
            .collect(),
        C::Refused(side, kind, dx, dy) => {
            tried(side, kind, (dx, dy), |_, to| Some((Vec::new(), vec![to])))
        }
        C::ShapeOnto(side, kind, dx, dy, onto) => tried(side, kind, (dx, dy), |from, to| {
            let held = match onto {
                Onto::Own => Want::any(side),
                _ => Want::any(side.opponent()),
            };
            let blocks = shape_blocks(kind, (dx, dy))?;
            let empty = blocks.iter().filter_map(|&b| from.offset(b)).collect();
            Some((vec![(to, held)], empty))
        }),
        C::ShapeBlocked(side, kind, dx, dy, i, onto) => tried(side, kind, (dx, dy), |from, to| {
            let blocks = shape_blocks(kind, (dx, dy))?;
            let held = match onto {
                Onto::Own => Want::any(side),
                _ => Want::any(side.opponent()),
            };
            let at = from.offset(*blocks.get(usize::from(i))?)?;
            Some((vec![(at, held)], vec![to]))
        }),
        // Taking a captain ends the game: that is the ending's job.
        C::Line(side, kind, Some(taken), check) if taken != PieceKind::Captain => {
            captures(side, kind, taken, check)
        }
        C::Wrap(kind, v, edge, layout) => wrapped(kind, v, edge, layout),
        C::Row(side, kind, v, x) => lone(side, kind, v, |s| s.x() == x),
        C::Column(side, kind, v, y) => lone(side, kind, v, |s| s.y() == y),
        _ => Vec::new(),
    };
    nearest(board, scenes)
}

/// Scenes of `kind`'s vector `v` wrapped in `layout` from `edge`: a piece of a side that
/// stands there, the squares read on the way and the square it lands on empty, then the
/// command onto that square, which the judge refuses.
fn wrapped(kind: PieceKind, v: u8, edge: Square, layout: Layout) -> Vec<Scene> {
    let Some((to, mut empty)) = wraps::landing(kind, v, edge, layout) else {
        return Vec::new();
    };
    empty.push(to);
    Color::ALL
        .into_iter()
        .filter(|&side| stand(side, kind).any(|s| s == edge))
        .map(|side| Scene {
            place: vec![(edge, Want::piece(side, kind))],
            empty: empty.clone(),
            mover: Some(side),
            then: vec![cmd_of(edge, to)],
            ..Scene::default()
        })
        .collect()
}

/// Scenes of `side`'s `kind` giving check alone by vector `v` from a square `from`
/// accepts (a car, from each distance).
fn lone(side: Color, kind: PieceKind, v: u8, from: impl Fn(Square) -> bool) -> Vec<Scene> {
    let vector = model::vectors(kind)[v as usize];
    let reach = if vector.ray { 1..=9 } else { 1..=1 };
    let mut out = Vec::new();
    for at in stand(side, kind).filter(|&s| from(s)) {
        for k in reach.clone() {
            let Some(captain) = at.offset((k * vector.delta.0, k * vector.delta.1)) else {
                break;
            };
            let empty: Vec<Square> = match vector.ray {
                true => (1..k)
                    .filter_map(|j| at.offset((j * vector.delta.0, j * vector.delta.1)))
                    .collect(),
                false => vector.blocks.iter().filter_map(|&b| at.offset(b)).collect(),
            };
            out.push(Scene {
                place: vec![
                    (at, Want::piece(side, kind)),
                    (captain, Want::piece(side.opponent(), PieceKind::Captain)),
                ],
                empty,
                calm: true,
                lone: Some(at),
                ..Scene::default()
            });
        }
    }
    out
}

/// Scenes of `side`'s `kind` tried by `d` with the side to move: from each square it
/// stands on with the target on the board, what `more` adds (pieces, empty squares).
fn tried(
    side: Color,
    kind: PieceKind,
    d: (i8, i8),
    more: impl Fn(Square, Square) -> Option<(Vec<(Square, Want)>, Vec<Square>)>,
) -> Vec<Scene> {
    stand(side, kind)
        .filter_map(|from| {
            let to = from.offset(d)?;
            let (place, empty) = more(from, to)?;
            let mut all = vec![(from, Want::piece(side, kind))];
            all.extend(place);
            Some(Scene {
                place: all,
                empty,
                mover: Some(side),
                then: vec![cmd_of(from, to)],
                ..Scene::default()
            })
        })
        .collect()
}

/// Scenes of `side`'s `kind` taking the other side's `taken`: with check after it (the
/// taker then attacks the other captain) or with none on the board before it.
fn captures(side: Color, kind: PieceKind, taken: PieceKind, check: bool) -> Vec<Scene> {
    let other = side.opponent();
    let mut out = Vec::new();
    for from in stand(side, kind) {
        for v in model::vectors(kind) {
            let Some(to) = from.offset(v.delta) else {
                continue;
            };
            let empty: Vec<Square> = v.blocks.iter().filter_map(|&b| from.offset(b)).collect();
            let place = vec![
                (from, Want::piece(side, kind)),
                (to, Want::piece(other, taken)),
            ];
            if !check {
                out.push(Scene {
                    place,
                    empty,
                    mover: Some(side),
                    calm: true,
                    then: vec![cmd_of(from, to)],
                    ..Scene::default()
                });
                continue;
            }
            // From the square it takes on, a vector onto the other captain.
            for w in model::vectors(kind) {
                let Some(captain) = to.offset(w.delta).filter(|&c| c != from) else {
                    continue;
                };
                let mut empty = empty.clone();
                empty.extend(w.blocks.iter().filter_map(|&b| to.offset(b)));
                let mut place = place.clone();
                place.push((captain, Want::piece(other, PieceKind::Captain)));
                out.push(Scene {
                    place,
                    empty,
                    mover: Some(side),
                    then: vec![cmd_of(from, to)],
                    ..Scene::default()
                });
            }
        }
    }
    out
}

/// The scenes that reach the map's `cell`, nearest first.
pub fn for_map(cell: table::Cell, board: &Board) -> Vec<Scene> {
    use table::Cell as C;
    let scenes = match cell {
        C::Stopped(color, r, way) => leaps(color, r, way, true),
        C::Blocked(color, r, way) if rows()[r as usize].kind == PieceKind::Car => {
            car_blocked(color, r, way)
        }
        C::Blocked(color, r, way) => leaps(color, r, way, false),
        _ => Vec::new(),
    };
    nearest(board, scenes)
}

/// Scenes of `color`'s car tried along row `r` onto an empty square and blocked `way`
/// ([`table::ways`]): by one piece next to it, next to its target, between the two
/// (next to neither), or by two. Each with the blockers of either side, one scene each.
fn car_blocked(color: Color, r: u8, way: table::Way) -> Vec<Scene> {
    // The target's distance along the row, and the blockers' distances.
    let (reach, blockers): (i8, &[i8]) = match way {
        0 => (2, &[1]),
        1 => (3, &[2]),
        2 => (4, &[2]),
        _ => (3, &[1, 2]),
    };
    let (dx, dy) = rows()[r as usize].dir;
    let mut out = Vec::new();
    for from in stand(color, PieceKind::Car) {
        // The squares from the car's next one to its target.
        let line: Option<Vec<Square>> =
            (1..=reach).map(|k| from.offset((dx * k, dy * k))).collect();
        let Some(line) = line else { continue };
        let (&to, between) = line.split_last().expect("a target");
        for by in [color, color.opponent()] {
            let mut place = vec![(from, Want::piece(color, PieceKind::Car))];
            let mut empty = vec![to];
            for (k, &square) in (1..).zip(between) {
                match blockers.contains(&k) {
                    true => place.push((square, Want::any(by))),
                    false => empty.push(square),
                }
            }
            out.push(attempt(color, from, to, place, empty));
        }
    }
    out
}

/// The scene of `color`'s piece on `from` tried onto `to` once `place` and `empty` stand:
/// a refused move, when a blocking square among them is held.
fn attempt(
    color: Color,
    from: Square,
    to: Square,
    place: Vec<(Square, Want)>,
    empty: Vec<Square>,
) -> Scene {
    Scene {
        place,
        empty,
        mover: Some(color),
        then: vec![cmd_of(from, to)],
        ..Scene::default()
    }
}

/// Scenes of `color`'s leap by row `r` with its blocking squares held `way`: aimed at
/// the other captain with no check on the board (`stopped`), or tried onto an empty
/// square. Each held square by either side's piece, one scene each.
fn leaps(color: Color, r: u8, way: table::Way, stopped: bool) -> Vec<Scene> {
    let row = rows()[r as usize];
    if row.blocks.is_empty() {
        return Vec::new();
    }
    // Which blocking squares are held: a duck's ways are its first leg alone, its
    // second alone, both; another leap's one way is its one blocking square.
    let held = |i: usize| match (row.kind, way) {
        (PieceKind::Duck, 0) => i == 0,
        (PieceKind::Duck, 1) => i == 1,
        _ => true,
    };
    let mut out = Vec::new();
    for from in stand(color, row.kind) {
        let Some(to) = from.offset(row.dir) else {
            continue;
        };
        let legs: Option<Vec<Square>> = row.blocks.iter().map(|&b| from.offset(b)).collect();
        let Some(legs) = legs else { continue };
        for by in [color, color.opponent()] {
            let mut place = vec![(from, Want::piece(color, row.kind))];
            let mut empty = Vec::new();
            for (i, &leg) in legs.iter().enumerate() {
                // A piece on a leg that would itself attack the captain there spoils a
                // scene with no check.
                let attacks = |k: PieceKind| stopped && model::shape(k, leg, to).is_some();
                let want = PieceKind::ALL
                    .into_iter()
                    .filter(|&k| attacks(k))
                    .fold(Want::any(by), Want::but);
                match held(i) {
                    true => place.push((leg, want)),
                    false => empty.push(leg),
                }
            }
            let scene = if stopped {
                place.push((to, Want::piece(color.opponent(), PieceKind::Captain)));
                Scene {
                    place,
                    empty,
                    calm: true,
                    ..Scene::default()
                }
            } else {
                empty.push(to);
                attempt(color, from, to, place, empty)
            };
            out.push(scene);
        }
    }
    out
}

/// `scenes` in the order of how far the board is from each (the king steps of its
/// pieces to their squares, summed), at most [`SCENES`] of them.
fn nearest(board: &Board, mut scenes: Vec<Scene>) -> Vec<Scene> {
    let far = |scene: &Scene| -> u32 {
        scene
            .place
            .iter()
            .map(|&(s, want)| {
                board
                    .pieces()
                    .filter(|&(_, p)| want.takes(p))
                    .map(|(q, _)| {
                        let (dx, dy) = s.delta_from(q);
                        u32::from(dx.unsigned_abs().max(dy.unsigned_abs()))
                    })
                    .min()
                    .unwrap_or(99)
            })
            .sum()
    };
    scenes.sort_by_key(|s| far(s));
    scenes.truncate(SCENES);
    scenes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::case::Cmd;
    use crate::judge::game::Game;
    use crate::model::statement::layout::Layout;
    use crate::suite::staging::stage;
    use crate::sys::rng::Rng;

    /// Whether some scene for a cell, staged from the start, reaches it as `hit` says.
    fn staged(scenes: Vec<Scene>, hit: impl Fn(&[Cmd]) -> bool) -> bool {
        let mut rng = Rng::new(7);
        scenes
            .iter()
            .filter_map(|scene| stage(&Game::new(), scene, &mut rng))
            .any(|cmds| hit(&cmds))
    }

    fn vector(kind: PieceKind, delta: (i8, i8)) -> u8 {
        let v = model::vectors(kind).iter().position(|v| v.delta == delta);
        v.expect("a vector") as u8
    }

    #[test]
    fn the_cells_the_search_leaves_are_staged_from_the_start() {
        use model::Cell as C;
        use Color::{Blue, Red};
        use PieceKind::*;
        let start = Board::start();
        let model_cells = [
            // A captain on the other side's back row, read off the board.
            C::Alias(Red, Elephant, vector(Elephant, (2, 2)), Layout::ColumnsOf10),
            C::Alias(
                Blue,
                Elephant,
                vector(Elephant, (-2, -2)),
                Layout::ColumnsOf10,
            ),
            // A capture that leaves check.
            C::Line(Red, Elephant, Some(Car), true),
            // A car onto its own piece on the far back row.
            C::ShapeOnto(Red, Car, 9, 0, Onto::Own),
            // A check alone from a row play seldom gives it from.
            C::Row(Red, Car, vector(Car, (0, 1)), 2),
            C::Refused(Blue, Horse, 3, 3),
            C::ShapeBlocked(Red, Duck, 3, 2, 1, Onto::Enemy),
        ];
        for cell in model_cells {
            let reaches = |cmds: &[Cmd]| {
                let mut counter = model::Counter::new();
                let mut hit = false;
                for &c in cmds {
                    counter.play(c, |x| hit |= x == cell);
                }
                hit
            };
            assert!(staged(for_model(cell, &start), reaches), "{cell:?}");
        }
        let duck = |dir| {
            let r = rows().iter().position(|w| w.kind == Duck && w.dir == dir);
            r.expect("a row") as u8
        };
        let car = |dir| {
            let r = rows().iter().position(|w| w.kind == Car && w.dir == dir);
            r.expect("a row") as u8
        };
        let mut map_cells = vec![
            table::Cell::Stopped(Red, duck((3, -2)), 2),
            table::Cell::Stopped(Blue, duck((-3, 2)), 2),
            table::Cell::Stopped(Red, duck((2, 3)), 0),
            table::Cell::Blocked(Blue, duck((-2, -3)), 2),
        ];
        // A car blocked each way (next to it, next to its target, between, by two),
        // along each of its rows, for each side.
        for color in [Red, Blue] {
            for dir in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                for way in 0..4 {
                    map_cells.push(table::Cell::Blocked(color, car(dir), way));
                }
            }
        }
        for cell in map_cells {
            let reaches = |cmds: &[Cmd]| {
                let mut counter = table::Counter::new();
                let mut hit = false;
                for &c in cmds {
                    counter.play(c, |x| hit |= x == cell);
                }
                hit
            };
            assert!(staged(for_map(cell, &start), reaches), "{cell:?}");
        }
    }

    /// Every move a flat board wraps is staged from the start: a piece of its kind
    /// walked to the square it leaves from, the squares read emptied, then the command.
    #[test]
    fn every_wrapped_move_is_staged_from_the_start() {
        let start = Board::start();
        let mut failed = Vec::new();
        for &cell in model::cells() {
            if !matches!(cell, model::Cell::Wrap(..)) {
                continue;
            }
            let reaches = |cmds: &[Cmd]| {
                let mut counter = model::Counter::new();
                let mut hit = false;
                for &c in cmds {
                    counter.play(c, |x| hit |= x == cell);
                }
                hit
            };
            if !staged(for_model(cell, &start), reaches) {
                failed.push(cell.words());
            }
        }
        assert!(
            failed.is_empty(),
            "{} not staged: {failed:#?}",
            failed.len()
        );
    }

    #[test]
    fn a_cell_with_no_scene_is_left_to_the_search() {
        let start = Board::start();
        use PieceKind::{Captain, Car};
        assert!(for_model(model::Cell::Ends(Color::Red, Car), &start).is_empty());
        let takes_captain = model::Cell::Line(Color::Red, Car, Some(Captain), false);
        assert!(for_model(takes_captain, &start).is_empty());
        assert!(for_map(table::Cell::CornerCovered, &start).is_empty());
    }

    #[test]
    fn the_nearest_scenes_come_first_and_no_more_than_asked() {
        let start = Board::start();
        let cell = model::Cell::Refused(Color::Red, PieceKind::Car, 1, 1);
        let scenes = for_model(cell, &start);
        assert_eq!(scenes.len(), SCENES);
        // A car stands on its square at the start: nothing to walk.
        assert!(scenes[0]
            .place
            .iter()
            .all(|&(s, w)| start.piece_at(s).is_some_and(|p| w.takes(p))));
    }
}
