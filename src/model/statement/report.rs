//! How often a test set reaches each cell of the statement's model, and the report
//! `audit --coverage` prints of it.

use super::capacity::{CROWD, RULES_BOUND};
use super::cells::{Cell, Dimension, Onto};
use super::counter::{input_cells, Counter};
use super::counts::{self, Counts, Quantity, ANSWER_BOUND};
use super::geometry::vector_name;
use super::geometry::Shift;
use super::universe::{cells, universe, why_unreachable};
use crate::cli;
use crate::generate::case::Cmd;

/// How often a test set reaches each cell of the model.
#[derive(Clone, Debug)]
pub struct Map {
    /// The count of each cell of [`cells`].
    pub counts: Vec<u64>,
    /// Tests counted.
    pub tests: usize,
    /// Commands counted.
    pub commands: usize,
    /// The most legal moves each side (red, blue) had when it moved, in any test.
    pub most_moves: [usize; 2],
    /// How far the test that takes it furthest takes each count.
    pub largest: Counts,
}

impl Default for Map {
    fn default() -> Map {
        Map::new()
    }
}

impl Map {
    /// The map of no test.
    pub fn new() -> Map {
        Map {
            counts: vec![0; cells().len()],
            tests: 0,
            commands: 0,
            most_moves: [0; 2],
            largest: Counts::default(),
        }
    }

    /// The map of `games`, each played from the start.
    pub fn of<'a>(games: impl IntoIterator<Item = &'a [Cmd]>) -> Map {
        let mut map = Map::new();
        for cmds in games {
            map.add(cmds);
        }
        map
    }

    /// Counts one test's commands, played from the start.
    pub fn add(&mut self, cmds: &[Cmd]) {
        let mut counter = Counter::new();
        let mut count = |cell: Cell| {
            if let Some(i) = cell.index() {
                self.counts[i] += 1;
            }
        };
        for &c in cmds {
            counter.play(c, &mut count);
        }
        for cell in input_cells(cmds) {
            count(cell);
        }
        self.largest = self.largest.max(counts::measure(cmds));
        for (most, side) in self.most_moves.iter_mut().zip(counter.most_moves()) {
            *most = (*most).max(side);
        }
        self.tests += 1;
        self.commands += cmds.len();
    }

    /// How often `cell` is reached (0 for a cell no input reaches).
    pub fn count(&self, cell: Cell) -> u64 {
        cell.index().map_or(0, |i| self.counts[i])
    }

    /// The reachable cells never reached.
    pub fn missing(&self) -> Vec<Cell> {
        cells()
            .iter()
            .copied()
            .filter(|&c| self.count(c) == 0)
            .collect()
    }

    /// Reached and reachable cells of `dim`.
    pub fn tally(&self, dim: Dimension) -> (usize, usize) {
        let of: Vec<Cell> = cells()
            .iter()
            .copied()
            .filter(|c| c.dimension() == dim)
            .collect();
        let reached = of.iter().filter(|&&c| self.count(c) > 0).count();
        (reached, of.len())
    }

    /// The report `audit --coverage` prints of the model: each dimension's count, then
    /// every cell never reached, by name.
    pub fn render(&self) -> String {
        let missing = self.missing();
        let total = cells().len();
        let mut out = format!(
            "the statement's model: {} of {total} cells reached, {} never\n  (the {} cells \
             no valid input can reach are not counted)\n",
            total - missing.len(),
            missing.len(),
            universe().len() - total
        );
        for dim in Dimension::ALL {
            let (reached, of) = self.tally(dim);
            out.push_str(&format!("  {:<17} {reached:>5} of {of}\n", dim.name()));
        }
        let [red, blue] = self.most_moves;
        out.push_str(&cli::help::filled(
            &format!(
                "the most legal moves a side had when it moved: red {red}, blue {blue} \
                 (crowded: {CROWD} or more; the rules allow at most {RULES_BOUND})"
            ),
            "  ",
            "    ",
        ));
        out.push_str(&self.counts_text());
        if missing.is_empty() {
            out.push_str("every cell of the model is reached\n");
            return out;
        }
        out.push_str(&format!(
            "never reached in the model ({}):\n",
            missing.len()
        ));
        out.push_str(&unreached(&missing));
        out
    }
}

impl Map {
    /// The largest value one test gives each count, beside its most.
    fn counts_text(&self) -> String {
        let mut out =
            String::from("  the largest counts in one test, of the most a valid input gives:\n");
        for q in Quantity::ALL {
            let bound = match q {
                Quantity::AnswerBytes => format!(" (known; at most {ANSWER_BOUND})"),
                _ => String::new(),
            };
            out.push_str(&format!(
                "    {:<33} {:>5} of {}{bound}\n",
                q.name(),
                self.largest.get(q),
                q.most()
            ));
        }
        out
    }
}

/// The cells of `missing`, by name: lines and invalid commands one a line; squares and
/// rows gathered by side and kind.
fn unreached(missing: &[Cell]) -> String {
    let mut out = String::new();
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |head: String, item: String| match groups.iter_mut().find(|g| g.0 == head) {
        Some(g) => g.1.push(item),
        None => groups.push((head, vec![item])),
    };
    for &c in missing {
        match c {
            Cell::Line(..) => add("output lines never written".into(), c.words()),
            Cell::From(side, kind, s) => add(
                format!("the {side} {kind} never moves from"),
                format!("{},{}", s.x(), s.y()),
            ),
            Cell::Onto(side, kind, s) => add(
                format!("the {side} {kind} never moves onto"),
                format!("{},{}", s.x(), s.y()),
            ),
            Cell::Row(side, kind, v, r) => add(
                format!(
                    "the {side} {kind} never alone gives check {} from row",
                    vector_name(kind, v)
                ),
                r.to_string(),
            ),
            Cell::Column(side, kind, v, col) => add(
                format!(
                    "the {side} {kind} never alone gives check {} from column",
                    vector_name(kind, v)
                ),
                col.to_string(),
            ),
            Cell::Refused(side, kind, dx, dy) => add(
                format!("the {side} {kind} never refused onto an empty square by"),
                shift((dx, dy)),
            ),
            Cell::ShapeOnto(side, kind, dx, dy, onto) => add(
                format!(
                    "the {side} {kind} never tried onto {} by",
                    if onto == Onto::Own {
                        "its own side"
                    } else {
                        "the other side"
                    }
                ),
                shift((dx, dy)),
            ),
            Cell::ShapeBlocked(side, kind, dx, dy, b, by) => add(
                format!(
                    "the {side} {kind} never blocked by {} by",
                    if by == Onto::Own {
                        "its own side"
                    } else {
                        "the other side"
                    }
                ),
                format!("{}/{b}", shift((dx, dy))),
            ),
            _ => add(c.dimension().name().to_string(), c.words()),
        }
    }
    for (head, items) in groups {
        let one_a_line = items.iter().any(|i| i.contains(' '));
        if one_a_line {
            out.push_str(&format!("  {head}:\n"));
            for i in items {
                out.push_str(&cli::help::filled(&i, "    ", "      "));
            }
        } else {
            out.push_str(&cli::help::filled(
                &format!("{head}: {}", items.join(" ")),
                "  ",
                "    ",
            ));
        }
    }
    out
}

/// A displacement as an item of a list: `+3,-1`.
fn shift(d: Shift) -> String {
    format!("{:+},{:+}", d.0, d.1)
}

/// Every cell no valid input can reach, with why, one a line.
pub fn unreachable_text() -> String {
    let mut out = String::new();
    for &c in universe() {
        if let Some(why) = why_unreachable(c) {
            out.push_str(&format!("{}: {why}\n", c.words()));
        }
    }
    out
}
