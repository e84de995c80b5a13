//! The cross product of the model's cells (the universe), the reason for each cell no
//! valid input can reach, and the place of each reachable cell.

use super::aliases;
use super::cells::{block_words, Act, Cell, Class, InputEdge, Load, Onto};
use super::counts::Quantity;
use super::geometry::shift_words;
use super::geometry::{can_stand, shifts, stands, vector_name, vectors, Shift};
use super::layout::Layout;
use super::refusals::{self, named_blocks, own_shifts};
use super::wraps;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::model::pieces;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The vectors of `kind` by which it can give check from row `row` (`Some(row)`) or
/// column `column`: some square of the line it can stand on, with the captain it
/// attacks (and every blocking square) on the board.
fn attack_fits(side: Color, kind: PieceKind, v: u8, line: Line) -> bool {
    let vec = vectors(kind)[v as usize];
    Square::all().any(|a| {
        let on = match line {
            Line::Row(r) => a.x() == r,
            Line::Column(c) => a.y() == c,
        };
        on && can_stand(side, kind, a)
            && a.offset(vec.delta).is_some()
            && vec.blocks.iter().all(|&b| a.offset(b).is_some())
    })
}

#[derive(Clone, Copy)]
enum Line {
    Row(u8),
    Column(u8),
}

/// Every cell of the model's cross product, reachable or not, in report order.
pub fn universe() -> &'static [Cell] {
    static ALL: OnceLock<Vec<Cell>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                out.push(Cell::Line(side, kind, None, false));
                out.push(Cell::Line(side, kind, None, true));
                for taken in PieceKind::ALL {
                    out.push(Cell::Line(side, kind, Some(taken), false));
                    out.push(Cell::Line(side, kind, Some(taken), true));
                }
            }
        }
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                out.push(Cell::Ends(side, kind));
                out.push(Cell::Follows(side, kind));
            }
        }
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                for s in Square::all() {
                    out.push(Cell::From(side, kind, s));
                    out.push(Cell::Onto(side, kind, s));
                }
            }
        }
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                for v in 0..vectors(kind).len() as u8 {
                    for r in 0..10 {
                        out.push(Cell::Row(side, kind, v, r));
                    }
                    for c in 0..9 {
                        out.push(Cell::Column(side, kind, v, c));
                    }
                }
            }
        }
        for id in 0..pieces::by_square().len() as u8 {
            for act in Act::ALL {
                out.push(Cell::Piece(id, act));
            }
        }
        for class in Class::ALL {
            for kind in PieceKind::ALL {
                for onto in Onto::ALL {
                    out.push(Cell::Invalid(class, kind, onto));
                }
            }
        }
        refusal_cells(&mut out);
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                for v in 0..vectors(kind).len() as u8 {
                    for layout in Layout::ALL {
                        out.push(Cell::Alias(side, kind, v, layout));
                    }
                }
            }
        }
        out.extend(InputEdge::all().into_iter().map(Cell::Input));
        out.extend(Load::all().into_iter().map(Cell::Load));
        wraps::universe(&mut out);
        for q in Quantity::ALL {
            out.extend(q.ladder().into_iter().map(|v| Cell::Count(q, v)));
        }
        out
    })
}

/// The cells of the refusals: each kind of each side, every displacement it must refuse,
/// then its shapes onto each target and through each blocking square.
fn refusal_cells(out: &mut Vec<Cell>) {
    for side in Color::ALL {
        for kind in PieceKind::ALL {
            for d in shifts() {
                if refusals::shape_blocks(kind, d).is_none() {
                    out.push(Cell::Refused(side, kind, d.0, d.1));
                }
            }
            for d in own_shifts(kind) {
                out.push(Cell::ShapeOnto(side, kind, d.0, d.1, Onto::Own));
                out.push(Cell::ShapeOnto(side, kind, d.0, d.1, Onto::Enemy));
                for b in 0..named_blocks(kind, d) as u8 {
                    out.push(Cell::ShapeBlocked(side, kind, d.0, d.1, b, Onto::Own));
                    out.push(Cell::ShapeBlocked(side, kind, d.0, d.1, b, Onto::Enemy));
                }
            }
        }
    }
}

/// The squares a cell of the refusals needs on the board besides the target, relative
/// to the piece: a blocking square.
fn block_of(kind: PieceKind, d: Shift, b: u8) -> Vec<Shift> {
    let blocks = refusals::shape_blocks(kind, d).unwrap_or_default();
    match kind {
        // A car's line of two squares or more: its first square between.
        PieceKind::Car => blocks.first().copied().into_iter().collect(),
        _ => blocks.get(b as usize).copied().into_iter().collect(),
    }
}

/// Why no valid input can reach `cell`, or `None` when some can.
pub fn why_unreachable(cell: Cell) -> Option<String> {
    let kinds_blocked = |k: PieceKind| vectors(k).iter().any(|v| v.ray || !v.blocks.is_empty());
    match cell {
        Cell::Line(_, _, Some(PieceKind::Captain), true) => {
            Some("taking a captain ends the game, and a game over is never check".into())
        }
        Cell::Line(side, kind, Some(taken), _)
            if stands(side, kind) & stands(side.opponent(), taken) == 0 =>
        {
            Some(format!(
                "no square the {side} {kind} can stand on is one the {} {taken} can",
                side.opponent()
            ))
        }
        Cell::From(side, kind, s) | Cell::Onto(side, kind, s) if !can_stand(side, kind, s) => Some(
            format!("no move of the {side} {kind} from its starting squares leads to {s}"),
        ),
        Cell::Row(side, kind, v, r) if !attack_fits(side, kind, v, Line::Row(r)) => Some(format!(
            "the {side} {kind} cannot stand on row {r} with a square {} of it on the board",
            vector_name(kind, v)
        )),
        Cell::Column(side, kind, v, c) if !attack_fits(side, kind, v, Line::Column(c)) => {
            Some(format!(
                "the {side} {kind} cannot stand on column {c} with a square {} of it on the board",
                vector_name(kind, v)
            ))
        }
        Cell::Invalid(Class::OwnTarget, _, onto) if onto != Onto::Own => {
            Some("a move onto the mover's own piece has its own piece on the target".into())
        }
        Cell::Invalid(Class::Blocked, kind, _) if !kinds_blocked(kind) => {
            Some(format!("{} {kind} has no blocking square", kind.article()))
        }
        Cell::Invalid(Class::Blocked, _, Onto::Own) => {
            Some("a move onto its own piece is of the class onto the mover's own piece".into())
        }
        Cell::Invalid(Class::AfterEnd, _, Onto::Own) => {
            Some("no move by a piece's rule lands on its own side's piece".into())
        }
        Cell::Refused(side, kind, dx, dy) | Cell::ShapeOnto(side, kind, dx, dy, _)
            if !refusals::fits(side, kind, (dx, dy), &[]) =>
        {
            Some(format!(
                "no square the {side} {kind} can stand on has the square {} of it on the board",
                shift_words((dx, dy))
            ))
        }
        Cell::ShapeBlocked(side, kind, dx, dy, b, _)
            if !refusals::fits(side, kind, (dx, dy), &block_of(kind, (dx, dy), b)) =>
        {
            Some(format!(
                "no square the {side} {kind} can stand on has the square {} of it and its {} on the board",
                shift_words((dx, dy)),
                block_words(kind, b)
            ))
        }
        Cell::Alias(side, kind, v, layout) if !aliases::fits(side, kind, v, layout) => Some(format!(
            "no square the {side} {kind} can stand on has the square {} of it off the board where {layout} reads a square of the board",
            vector_name(kind, v)
        )),
        Cell::Wrap(kind, v, s, layout) => wraps::why_unreachable(kind, v, s, layout),
        _ => None,
    }
}

/// The cells some valid input can reach.
pub fn cells() -> &'static [Cell] {
    static CELLS: OnceLock<Vec<Cell>> = OnceLock::new();
    CELLS.get_or_init(|| {
        universe()
            .iter()
            .copied()
            .filter(|&c| why_unreachable(c).is_none())
            .collect()
    })
}

fn index_of() -> &'static HashMap<Cell, usize> {
    static INDEX: OnceLock<HashMap<Cell, usize>> = OnceLock::new();
    INDEX.get_or_init(|| cells().iter().enumerate().map(|(i, &c)| (c, i)).collect())
}

impl Cell {
    /// The cell's place in [`cells`]; `None` for a cell no valid input reaches.
    pub fn index(self) -> Option<usize> {
        index_of().get(&self).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::board::Board;
    use crate::judge::game::Game;
    use crate::model::statement::cells::Dimension;
    use crate::model::statement::geometry::shape;

    /// Each unreachable cell is unreachable: the squares a kind can stand on are
    /// closed under its moves and hold its starting squares (so no game leaves them);
    /// no square of a line a kind can stand on has the attack on the board; a game
    /// over is never check (played on a real game).
    #[test]
    fn every_unreachable_cell_is_proved_so() {
        for side in Color::ALL {
            for kind in PieceKind::ALL {
                let set = stands(side, kind);
                for s in Square::all().filter(|s| set & (1 << s.bit()) != 0) {
                    for t in Square::all() {
                        if shape(kind, s, t).is_some() {
                            assert!(set & (1 << t.bit()) != 0, "{side} {kind} {s} {t}");
                        }
                    }
                }
                for (s, p) in Board::start().pieces() {
                    if p.color == side && p.kind == kind {
                        assert!(set & (1 << s.bit()) != 0);
                    }
                }
            }
        }
        let mut n = 0;
        for &c in universe() {
            let Some(_) = why_unreachable(c) else {
                continue;
            };
            n += 1;
            match c {
                Cell::From(side, kind, s) | Cell::Onto(side, kind, s) => {
                    assert!(!can_stand(side, kind, s), "{c:?}")
                }
                Cell::Row(side, kind, v, _) | Cell::Column(side, kind, v, _) => {
                    for a in Square::all().filter(|&a| can_stand(side, kind, a)) {
                        let on = match c {
                            Cell::Row(.., r) => a.x() == r,
                            Cell::Column(.., col) => a.y() == col,
                            _ => unreachable!(),
                        };
                        if on {
                            // Every captain square: none is attacked from here.
                            for t in Square::all() {
                                assert!(shape(kind, a, t) != Some(v), "{c:?} {a} {t}");
                            }
                        }
                    }
                }
                Cell::Line(_, _, Some(PieceKind::Captain), true) => {}
                Cell::Line(side, kind, Some(taken), _) => {
                    assert_eq!(stands(side, kind) & stands(side.opponent(), taken), 0)
                }
                Cell::Invalid(..) => {}
                // No square the piece stands on has the target (and the blocking
                // square) on the board.
                Cell::Refused(side, kind, dx, dy) | Cell::ShapeOnto(side, kind, dx, dy, _) => {
                    for a in Square::all().filter(|&a| can_stand(side, kind, a)) {
                        assert!(a.offset((dx, dy)).is_none(), "{c:?} {a}");
                    }
                }
                Cell::ShapeBlocked(side, kind, dx, dy, b, _) => {
                    for a in Square::all().filter(|&a| can_stand(side, kind, a)) {
                        let block = block_of(kind, (dx, dy), b);
                        let all_on = a.offset((dx, dy)).is_some()
                            && block.iter().all(|&o| a.offset(o).is_some());
                        assert!(!all_on, "{c:?} {a}");
                    }
                }
                // No square the piece stands on reads anything off the board so.
                Cell::Alias(side, kind, v, layout) => {
                    assert!(!aliases::fits(side, kind, v, layout), "{c:?}");
                    let vec = vectors(kind)[v as usize];
                    if !vec.ray {
                        for a in Square::all().filter(|&a| can_stand(side, kind, a)) {
                            let off = a.offset(vec.delta).is_none();
                            let x = i64::from(a.x()) + i64::from(vec.delta.0);
                            let y = i64::from(a.y()) + i64::from(vec.delta.1);
                            let index = match layout {
                                Layout::RowsOf9 => 9 * x + y,
                                Layout::RowsOf10 => 10 * x + y,
                                Layout::ColumnsOf10 => 10 * y + x,
                                Layout::RowsOf11 => 11 * x + y,
                            };
                            let lands = match layout {
                                Layout::RowsOf10 => (0..100).contains(&index) && index % 10 < 9,
                                _ => (0..90).contains(&index),
                            };
                            // Off the board and read off the array (or the padding).
                            assert!(!off || !lands || !vec.blocks.is_empty(), "{c:?} {a}");
                        }
                    }
                }
                // The kind stands there on neither side, or the layout reads nothing.
                Cell::Wrap(kind, v, s, layout) => {
                    let stands_there = Color::ALL.into_iter().any(|side| can_stand(side, kind, s));
                    assert!(!stands_there || wraps::landing(kind, v, s, layout).is_none());
                }
                _ => panic!("no proof for {c:?}"),
            }
        }
        assert!(n > 0);
        // Taking a captain, on a real game: the answer is never check, even with the
        // winner's captain attacked (the statement's sample's last move).
        let mut game = Game::new();
        let walk = [
            [0, 4, 1, 4],
            [9, 4, 8, 4],
            [1, 4, 2, 4],
            [8, 4, 7, 4],
            [2, 4, 2, 5],
            [7, 4, 7, 5],
            [2, 5, 3, 5],
            [7, 5, 6, 5],
            [3, 5, 4, 5],
            [6, 5, 5, 5],
        ];
        for c in walk {
            game.play(c[0], c[1], c[2], c[3]).expect("legal");
        }
        // The red captain takes the blue one on (5, 5), where the blue soldier on
        // (6, 4) attacks it.
        let end = game.play(4, 5, 5, 5).expect("legal");
        assert!(end.game_over && !end.check);
        let winner = game.board().captain(Color::Red).expect("red's captain");
        assert!(crate::judge::rules::is_attacked(
            game.board(),
            winner,
            Color::Blue
        ));
    }

    #[test]
    fn the_model_counts_its_dimensions() {
        let lines = cells()
            .iter()
            .filter(|c| c.dimension() == Dimension::Lines)
            .count();
        // 14 movers, each: nothing or 6 kinds taken, check or not; or the captain taken;
        // but a guard never meets the other side's guards (red's stand where x + y is
        // odd, blue's where it is even), nor an elephant the other's elephants.
        assert_eq!(lines, 14 * (7 * 2 + 1) - 4 * 2);
        let places = cells()
            .iter()
            .filter(|c| c.dimension() == Dimension::Places)
            .count();
        // Captain, horse, car, duck, soldier: 90 squares; guard 45 (x + y odd for red,
        // even for blue); elephant 12 (even rows and columns for red, with x/2 + y/2
        // odd; odd rows for blue).
        assert_eq!(places, 2 * 2 * (5 * 90 + 45 + 12));
        assert_eq!(
            cells()
                .iter()
                .filter(|c| c.dimension() == Dimension::Endings)
                .count(),
            28
        );
    }

    /// Every reachable wrap is a command the judge refuses, from some square the kind
    /// stands on, with its reads empty: a board with the piece, the two captains out of
    /// the way and nothing else shows it.
    #[test]
    fn every_reachable_wrap_is_refused_and_counted_on_a_bare_board() {
        let mut reachable = 0;
        for &cell in cells() {
            let Cell::Wrap(kind, v, edge, layout) = cell else {
                continue;
            };
            reachable += 1;
            assert!(why_unreachable(cell).is_none());
            let side = if can_stand(Color::Red, kind, edge) {
                Color::Red
            } else {
                Color::Blue
            };
            let (to, _) = wraps::landing(kind, v, edge, layout).expect("a landing");
            let mut board = Board::empty();
            // Captains where no read of this cell goes: two squares found by trying.
            let spare: Vec<Square> = Square::all()
                .filter(|&s| s != edge && s != to)
                .filter(|&s| {
                    wraps::landing(kind, v, edge, layout).is_some_and(|(_, e)| !e.contains(&s))
                })
                .collect();
            if kind != PieceKind::Captain {
                board.put(
                    spare[0],
                    Some(crate::judge::piece::Piece::new(side, PieceKind::Captain)),
                );
            }
            board.put(
                spare[spare.len() - 1],
                Some(crate::judge::piece::Piece::new(
                    side.opponent(),
                    PieceKind::Captain,
                )),
            );
            board.put(edge, Some(crate::judge::piece::Piece::new(side, kind)));
            board.set_side_to_move(side);
            let game = Game::from_board(board.clone());
            let c = [edge.x(), edge.y(), to.x(), to.y()].map(i64::from);
            assert!(game.validate(c[0], c[1], c[2], c[3]).is_err(), "{cell:?}");
            assert!(
                wraps::cells(&board, side, edge, to).contains(&cell),
                "{cell:?}"
            );
        }
        // The count the guide gives (docs/test-data-internals.md).
        assert_eq!(reachable, WRAP_CELLS);
    }

    /// The reachable cells of the dimension.
    const WRAP_CELLS: usize = 943;

    /// The longest line of the answer, as the setters' guide gives it: 32 bytes and a
    /// newline (a red elephant never meets a blue one).
    #[test]
    fn the_longest_line_is_thirty_three_bytes() {
        let longest = crate::model::statement::cells()
            .iter()
            .filter(|c| matches!(c, Cell::Line(..)))
            .map(|c| c.words().len() + 1)
            .max();
        assert_eq!(longest, Some(33));
        let line = Cell::Line(
            Color::Blue,
            PieceKind::Elephant,
            Some(PieceKind::Soldier),
            true,
        );
        assert_eq!(line.words(), "blue elephant;red soldier;yes;no");
        assert!(line.index().is_some());
    }
}
