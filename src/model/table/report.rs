//! How often a test set reaches each cell of the move table's map, and the report
//! `audit --coverage` prints of it.

use super::cells::{
    blockable, cells, crossed, rows, ways, Act, Cell, Edge, Onto, Refused, Row, Way,
};
use super::counter::Counter;
use crate::cli;
use crate::generate::case::Cmd;
use crate::judge::piece::{Color, PieceKind};
use crate::model::pieces;
use crate::show::explain::direction;

/// How often a test set reaches each cell.
#[derive(Clone, Debug)]
pub struct Map {
    /// The count of each cell of [`cells`].
    pub counts: Vec<u64>,
    /// Tests counted.
    pub tests: usize,
    /// Commands counted.
    pub commands: usize,
}

impl Map {
    /// The map of `games`, each played from the start.
    pub fn of<'a>(games: impl IntoIterator<Item = &'a [Cmd]>) -> Map {
        let mut map = Map::new();
        for cmds in games {
            map.add(cmds);
        }
        map
    }

    /// The map of no test.
    pub fn new() -> Map {
        Map {
            counts: vec![0; cells().len()],
            tests: 0,
            commands: 0,
        }
    }

    /// Counts one test's commands, played from the start: a test set of any size is
    /// mapped as its tests come.
    pub fn add(&mut self, cmds: &[Cmd]) {
        let mut counter = Counter::new();
        for &c in cmds {
            counter.play(c, |cell| self.counts[cell.index()] += 1);
        }
        self.tests += 1;
        self.commands += cmds.len();
    }

    /// How often `cell` is reached.
    pub fn count(&self, cell: Cell) -> u64 {
        self.counts[cell.index()]
    }

    /// How many cells a valid input could reach are never reached.
    pub fn missing(&self) -> usize {
        cells()
            .iter()
            .filter(|&&c| c.reachable() && self.count(c) == 0)
            .count()
    }

    /// The report `audit --coverage` prints.
    pub fn render(&self) -> String {
        render(self)
    }
}

impl Default for Map {
    fn default() -> Map {
        Map::new()
    }
}

/// A row's name in the map: `up2-right1`.
fn row_name(row: &Row) -> String {
    direction(row.kind, row.dir)
}

fn render(map: &Map) -> String {
    let reachable: Vec<Cell> = cells().iter().copied().filter(|c| c.reachable()).collect();
    let reached = reachable.iter().filter(|&&c| map.count(c) > 0).count();
    let mut out = format!(
        "coverage of {} ({}): {} of {} cells reached, {} never\n",
        cli::plural(map.tests as u64, "test"),
        cli::plural(map.commands as u64, "command"),
        reached,
        reachable.len(),
        reachable.len() - reached
    );
    out.push('\n');
    out.push_str(&unreachable_note());
    out.push_str(&cli::help::filled(
        "the move table, by piece, side and row (legal: moves judged legal; takes: \
         captures; blocked: moves refused for what stands in the way; check: checks that \
         row alone gives; stopped: checks a blocking square stops, no other check on the \
         board; edge, for the car: moves onto the edge it heads for, and checks alone on \
         a captain there)",
        "",
        "",
    ));
    let all = rows();
    for kind in PieceKind::ALL {
        let w = ways(kind);
        out.push('\n');
        out.push_str(&match w.len() {
            0 => format!("{kind}\n"),
            _ => cli::help::filled(
                &format!("{kind} (blocked, stopped: by {})", w.join(" / ")),
                "",
                "  ",
            ),
        });
        let car = kind == PieceKind::Car;
        let mut lines: Vec<[String; 8]> = vec![[
            "side".into(),
            "row".into(),
            "legal".into(),
            "takes".into(),
            "blocked".into(),
            "check".into(),
            "stopped".into(),
            if car { "edge".into() } else { String::new() },
        ]];
        for color in Color::ALL {
            for (r, row) in all.iter().enumerate().filter(|(_, row)| row.kind == kind) {
                let r = r as u8;
                let split = |cell: &dyn Fn(Way) -> Cell| -> String {
                    if w.is_empty() {
                        return "-".to_string();
                    }
                    (0..w.len())
                        .map(|i| map.count(cell(i as u8)).to_string())
                        .collect::<Vec<_>>()
                        .join("/")
                };
                lines.push([
                    color.name().to_string(),
                    row_name(row),
                    map.count(Cell::Legal(color, r)).to_string(),
                    map.count(Cell::Takes(color, r)).to_string(),
                    split(&|w| Cell::Blocked(color, r, w)),
                    map.count(Cell::Check(color, r)).to_string(),
                    split(&|w| Cell::Stopped(color, r, w)),
                    if car {
                        format!(
                            "{}/{}",
                            map.count(Cell::ToEdge(color, r)),
                            map.count(Cell::CheckAtEdge(color, r))
                        )
                    } else {
                        String::new()
                    },
                ]);
            }
        }
        let width = |i: usize| lines.iter().map(|l| l[i].len()).max().unwrap_or(0);
        let widths: Vec<usize> = (0..7).map(width).collect();
        for l in &lines {
            let mut text = format!(
                "  {:<w0$}  {:<w1$}",
                l[0],
                l[1],
                w0 = widths[0],
                w1 = widths[1]
            );
            for i in 2..7 {
                text.push_str(&format!("  {:>w$}", l[i], w = widths[i]));
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
    }
    out.push_str(&others(map));
    out.push_str(&pieces(map));
    out.push_str(&never(map));
    out
}

/// The starting pieces, each with how often it moves, is taken, takes and gives check
/// alone; then the invalid commands by kind, moving piece and target.
fn pieces(map: &Map) -> String {
    let mut out = String::from("\n");
    out.push_str(&cli::help::filled(
        "the starting pieces, by id (moved / taken / takes / gives check alone / would \
         give check alone from where it was taken, once taken; - for a captain, whose \
         taking ends the game):",
        "",
        "",
    ));
    let all = pieces::by_id();
    for side in all.chunks(16) {
        let items: Vec<String> = side
            .iter()
            .map(|s| {
                let n: Vec<String> = Act::ALL
                    .iter()
                    .map(|&a| match a.applies(s.kind) {
                        true => map.count(Cell::Piece(s.id, a)).to_string(),
                        false => "-".to_string(),
                    })
                    .collect();
                format!("{} {}", s.name(), n.join("/"))
            })
            .collect();
        out.push_str(&cli::help::filled(&items.join(", "), "  ", "  "));
    }
    out.push_str(&cli::help::filled(
        "invalid commands by moving piece and target (empty / enemy / own):",
        "",
        "",
    ));
    for (r, targets) in crossed() {
        let items: Vec<String> = PieceKind::ALL
            .iter()
            .filter(|&&k| r != Refused::Blocked || blockable(k))
            .map(|&k| {
                let n: Vec<String> = targets
                    .iter()
                    .map(|&t| map.count(Cell::Cross(r, k, t)).to_string())
                    .collect();
                format!("{k} {}", n.join("/"))
            })
            .collect();
        out.push_str(&cli::help::filled(
            &format!("{}: {}", r.words(), items.join(", ")),
            "  ",
            "    ",
        ));
    }
    out
}

/// `word N` pairs, joined.
fn counted(map: &Map, items: &[(String, Cell)]) -> String {
    items
        .iter()
        .map(|(word, cell)| match word.is_empty() {
            true => map.count(*cell).to_string(),
            false => format!("{word} {}", map.count(*cell)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The cells beyond the table, in words with their counts.
fn others(map: &Map) -> String {
    let mut out = String::from("\n");
    let line = |title: &str, items: Vec<(String, Cell)>| {
        cli::help::filled(&format!("{title}: {}", counted(map, &items)), "", "  ")
    };
    out.push_str(&line(
        "moves onto the edges",
        Edge::ALL
            .iter()
            .map(|&e| (e.words().to_string(), Cell::OntoEdge(e)))
            .collect(),
    ));
    out.push_str(&line(
        "moves from the edges",
        Edge::ALL
            .iter()
            .map(|&e| (e.words().to_string(), Cell::FromEdge(e)))
            .collect(),
    ));
    out.push_str(&line(
        "check",
        vec![
            ("on the mover's own captain".into(), Cell::CheckOnMover),
            ("on the side to move".into(), Cell::CheckOnOther),
            ("not given by the moved piece".into(), Cell::CheckNotByMover),
            ("made".into(), Cell::CheckAppears),
            ("ended".into(), Cell::CheckEnds),
            (
                "captains facing on an open column".into(),
                Cell::CaptainsFace,
            ),
        ],
    ));
    out.push_str(&line(
        "the end",
        vec![
            ("red wins".into(), Cell::Wins(Color::Red)),
            ("blue wins".into(), Cell::Wins(Color::Blue)),
            ("the winner's captain attacked".into(), Cell::WinnerAttacked),
            ("the taker attacked".into(), Cell::TakerAttacked),
            (
                "the taken captain's square covered by the winner".into(),
                Cell::SquareCovered,
            ),
            ("(0, 0) covered by the winner".into(), Cell::CornerCovered),
        ],
    ));
    out.push_str(&line(
        "after the end, moves a piece's rule allows",
        vec![
            ("by the side to move".into(), Cell::AfterEndByLoser),
            ("by the winner".into(), Cell::AfterEndByWinner),
        ],
    ));
    out.push_str(&line(
        "invalid commands",
        Refused::ALL
            .iter()
            .filter(|r| Cell::Invalid(**r).reachable())
            .map(|&r| (r.words().to_string(), Cell::Invalid(r)))
            .collect(),
    ));
    out.push_str(&line(
        "legal moves right after an invalid command",
        Refused::ALL
            .iter()
            .filter(|&&r| r != Refused::GameOver && Cell::LegalAfter(r).reachable())
            .map(|&r| (r.words().to_string(), Cell::LegalAfter(r)))
            .collect(),
    ));
    for c in Color::ALL {
        out.push_str(&line(
            &format!("{c} takes"),
            PieceKind::ALL
                .iter()
                .map(|&k| (k.name().to_string(), Cell::Captures(c, k)))
                .collect(),
        ));
    }
    out.push_str(&line(
        "moves that take nothing right after a capture",
        vec![(String::new(), Cell::NothingAfterCapture)],
    ));
    out
}

/// The words of a cell outside the table.
fn cell_words(cell: Cell) -> String {
    match cell {
        Cell::OntoEdge(e) => format!("a move onto {}", e.words()),
        Cell::FromEdge(e) => format!("a move from {}", e.words()),
        Cell::CheckOnMover => "check on the mover's own captain".into(),
        Cell::CheckOnOther => "check on the side to move".into(),
        Cell::CheckNotByMover => "a check the moved piece does not give".into(),
        Cell::CheckAppears => "a move that makes check".into(),
        Cell::CheckEnds => "a move that ends a check".into(),
        Cell::CaptainsFace => "captains facing each other on an open column".into(),
        Cell::Wins(c) => format!("{c} taking {}'s captain", c.opponent()),
        Cell::WinnerAttacked => "the winner's captain attacked at the end".into(),
        Cell::TakerAttacked => "the piece that takes the captain attacked at the end".into(),
        Cell::SquareCovered => {
            "the taken captain's square covered by another winner's piece at the end".into()
        }
        Cell::CornerCovered => "(0, 0) covered by the winner at the end".into(),
        Cell::AfterEndByLoser => "after the end, a move the side to move's rule allows".into(),
        Cell::AfterEndByWinner => "after the end, a move the winner's rule allows".into(),
        Cell::Invalid(r) => format!("an invalid command {}", r.words()),
        Cell::LegalAfter(r) => format!("a legal move right after a command {}", r.words()),
        Cell::Captures(c, k) => format!("{c} taking {} {k}", k.article()),
        Cell::NothingAfterCapture => "a move that takes nothing right after a capture".into(),
        Cell::Piece(id, act) => {
            let s = pieces::by_id()[id as usize];
            format!("{} {}", s.words(), act.words())
        }
        Cell::Cross(r, k, t) => format!(
            "an invalid command {}, by {} {k}, onto {} square",
            r.words(),
            k.article(),
            match t {
                Onto::Empty => "an empty",
                Onto::Enemy => "an enemy piece's",
                Onto::Own => "its own piece's",
            }
        ),
        _ => String::new(),
    }
}

/// The map's cells no valid input can reach, one a line: its words, then why.
pub fn unreachable_text() -> String {
    cells()
        .iter()
        .filter_map(|&c| Some(format!("{}: {}\n", cell_words(c), c.why_unreachable()?)))
        .collect()
}

/// The paragraph of the report on the cells left out of the count, each with why.
fn unreachable_note() -> String {
    let text = unreachable_text();
    let mut out = format!(
        "the move table's map leaves out the {} cells no valid input can reach:\n",
        text.lines().count()
    );
    for line in text.lines() {
        out.push_str(&cli::help::filled(line, "  ", "    "));
    }
    out.push('\n');
    out
}

/// The cells never reached, in words: the table's by piece, side and what is missing,
/// listing the rows; then the others.
fn never(map: &Map) -> String {
    let missing: Vec<Cell> = cells()
        .iter()
        .copied()
        .filter(|&c| c.reachable() && map.count(c) == 0)
        .collect();
    if missing.is_empty() {
        return "\nevery cell is reached\n".to_string();
    }
    let mut out = format!("\nnever reached ({}):\n", missing.len());
    let all = rows();
    for kind in PieceKind::ALL {
        for color in Color::ALL {
            let mut lines: Vec<(String, Vec<String>)> = Vec::new();
            let mut add = |what: String, row: String| match lines.iter_mut().find(|l| l.0 == what) {
                Some(l) => l.1.push(row),
                None => lines.push((what, vec![row])),
            };
            for &c in &missing {
                let of_kind = |r: u8| all[r as usize].kind == kind;
                let (what, r) = match c {
                    Cell::Legal(cc, r) if cc == color => ("no legal move".to_string(), r),
                    Cell::Takes(cc, r) if cc == color => ("no capture".to_string(), r),
                    Cell::Blocked(cc, r, w) if cc == color && of_kind(r) => {
                        (format!("never blocked by {}", ways(kind)[w as usize]), r)
                    }
                    Cell::Check(cc, r) if cc == color => ("no check alone".to_string(), r),
                    Cell::ToEdge(cc, r) if cc == color => {
                        ("no move to the edge ahead".to_string(), r)
                    }
                    Cell::CheckAtEdge(cc, r) if cc == color => (
                        "no check alone on a captain at the edge ahead".to_string(),
                        r,
                    ),
                    Cell::Stopped(cc, r, w) if cc == color && of_kind(r) => {
                        (format!("no check stopped by {}", ways(kind)[w as usize]), r)
                    }
                    _ => continue,
                };
                if of_kind(r) {
                    add(what, row_name(&all[r as usize]));
                }
            }
            for (what, rows) in lines {
                out.push_str(&cli::help::filled(
                    &format!("{color} {kind}, {what}: {}", rows.join(", ")),
                    "  ",
                    "    ",
                ));
            }
        }
    }
    for &c in &missing {
        let words = cell_words(c);
        if !words.is_empty() {
            out.push_str(&cli::help::filled(&words, "  ", "    "));
        }
    }
    out
}
