//! The cells of the statement's model: each one choice or combination of choices of a
//! dimension, in words.

use super::capacity::{Scan, CROWD, LATE, LATE_BOTH, LONG_RUN};
use super::counts::Quantity;
use super::geometry::shift_words;
use super::geometry::{can_stand, vector_name};
use super::layout::Layout;
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind, Square};
use crate::model::pieces;

/// What stands on a command's target, seen from the piece on its source (for an empty
/// source, from the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Onto {
    /// Nothing.
    Empty,
    /// A piece of its own side.
    Own,
    /// A piece of the other side.
    Enemy,
}

impl Onto {
    /// Every target.
    pub const ALL: [Onto; 3] = [Onto::Empty, Onto::Own, Onto::Enemy];

    pub(super) fn of(board: &Board, side: Color, to: Square) -> Onto {
        match board.piece_at(to) {
            None => Onto::Empty,
            Some(p) if p.color == side => Onto::Own,
            Some(_) => Onto::Enemy,
        }
    }

    /// Who holds a blocking square, in words.
    fn holder(self) -> &'static str {
        match self {
            Onto::Own => "its own side",
            _ => "the other side",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Onto::Empty => "onto an empty square",
            Onto::Own => "onto its own side's piece",
            Onto::Enemy => "onto the other side's piece",
        }
    }
}

/// The classes of invalid command, as the statement defines an invalid command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// From an empty square, with the shape of a kind's move.
    EmptySource,
    /// With the opponent's piece, by its move's shape.
    Opponent,
    /// Onto a piece of the mover's own side, by the mover's shape.
    OwnTarget,
    /// By the mover's shape, through a piece on a blocking square.
    Blocked,
    /// One square off a target of the mover's shape.
    OffShape,
    /// After the end, a move the piece's rule allows.
    AfterEnd,
}

impl Class {
    /// Every class.
    pub const ALL: [Class; 6] = [
        Class::EmptySource,
        Class::Opponent,
        Class::OwnTarget,
        Class::Blocked,
        Class::OffShape,
        Class::AfterEnd,
    ];

    fn words(self) -> &'static str {
        match self {
            Class::EmptySource => "from an empty square with the shape of the",
            Class::Opponent => "moving the opponent's",
            Class::OwnTarget => "moving the",
            Class::Blocked => "through a blocking square of the",
            Class::OffShape => "one square off a shape of the",
            Class::AfterEnd => "after the end, a move by its rule of the",
        }
    }
}

/// What happens to one starting piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Act {
    /// It moves.
    Moves,
    /// It takes a piece.
    Takes,
    /// It is taken.
    Taken,
    /// It gives the only check on the board (a captain: the captains' check on each
    /// other is the only one).
    Checks,
    /// A piece of its own side tries to move onto it by a shape and a way that would be
    /// a legal move onto an empty square (refused).
    Targeted,
}

impl Act {
    /// Every act.
    pub const ALL: [Act; 5] = [
        Act::Moves,
        Act::Takes,
        Act::Taken,
        Act::Checks,
        Act::Targeted,
    ];

    fn words(self) -> &'static str {
        match self {
            Act::Moves => "never moves",
            Act::Takes => "never takes",
            Act::Taken => "is never taken",
            Act::Checks => "never gives the only check",
            Act::Targeted => "is never the target of its own side",
        }
    }
}

/// An edge of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InputEdge {
    /// An input of no command: `Q = 0`.
    NoCommand,
    /// An input of one command.
    OneCommand,
    /// An input of the official limit's 1000 commands.
    FullLimit,
    /// A command whose source is its target, with a piece of the side to move on it,
    /// then a move.
    SourceIsTarget,
    /// A legal move with one of its four numbers (`xs`, `ys`, `xt`, `yt`: 0 to 3) at 0
    /// (`false`) or at its largest (`true`).
    Number(u8, bool),
    /// A command whose source and target are the same corner (0: `(0, 0)`, all zeros;
    /// 1: `(0, 8)`; 2: `(9, 0)`; 3: `(9, 8)`, every number at its largest).
    SameCorner(u8),
}

/// The corners of the board, in the order of [`InputEdge::SameCorner`].
pub const CORNERS: [(i64, i64); 4] = [(0, 0), (0, 8), (9, 0), (9, 8)];

impl InputEdge {
    /// Every edge.
    pub fn all() -> Vec<InputEdge> {
        let mut out = vec![
            InputEdge::NoCommand,
            InputEdge::OneCommand,
            InputEdge::FullLimit,
            InputEdge::SourceIsTarget,
        ];
        for which in 0..4 {
            out.push(InputEdge::Number(which, false));
            out.push(InputEdge::Number(which, true));
        }
        out.extend((0..4).map(InputEdge::SameCorner));
        out
    }

    fn words(self) -> String {
        match self {
            InputEdge::NoCommand => "an input of no command (Q = 0)".into(),
            InputEdge::OneCommand => "an input of one command (Q = 1)".into(),
            InputEdge::FullLimit => "an input of 1000 commands (Q = 1000)".into(),
            InputEdge::SourceIsTarget => {
                "a command whose source is its target, on a piece of the side to move, then a move"
                    .into()
            }
            InputEdge::Number(which, max) => {
                let name = ["xs", "ys", "xt", "yt"][which as usize];
                let value = match (max, which % 2) {
                    (false, _) => 0,
                    (true, 0) => 9,
                    (true, _) => 8,
                };
                format!("a legal move with {name} = {value}")
            }
            InputEdge::SameCorner(c) => {
                let (x, y) = CORNERS[c as usize];
                format!("the command {x} {y} {x} {y}: a corner as its own source and target")
            }
        }
    }
}

/// What a solution must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Load {
    /// In a position where this side has [`CROWD`] legal moves or more, a legal move by
    /// the piece this order scans last.
    Crowded(Color, Scan),
    /// After a move, the only check on the board is by a piece of this side, which has
    /// [`CROWD`] legal moves or more, whose moves this order lists after the first
    /// [`LATE`] (a solution that lists the squares a side attacks in an array too short
    /// finds no check).
    CrowdedCheck(Color, Scan),
    /// After a move, the only check on the board is by a piece of this side whose moves,
    /// in a list of both sides' moves (the other side's first, each side's in this
    /// order), all come after the first [`LATE_BOTH`] (a solution that lists every move
    /// in one array too short to find check finds none).
    LateCheck(Color, Scan),
    /// Every piece but the two captains taken in one game.
    AllTaken,
    /// [`LONG_RUN`] invalid commands in a row, then a legal move.
    LongRun,
}

impl Load {
    /// Every load.
    pub fn all() -> Vec<Load> {
        let mut out = Vec::new();
        for side in Color::ALL {
            for scan in Scan::ALL {
                out.push(Load::Crowded(side, scan));
            }
        }
        for side in Color::ALL {
            for scan in Scan::ALL {
                out.push(Load::CrowdedCheck(side, scan));
            }
        }
        for side in Color::ALL {
            for scan in Scan::ALL {
                out.push(Load::LateCheck(side, scan));
            }
        }
        out.push(Load::AllTaken);
        out.push(Load::LongRun);
        out
    }

    fn words(self) -> String {
        match self {
            Load::Crowded(side, scan) => format!(
                "with {CROWD} legal moves or more, {side} moves the piece a scan {scan} reaches last"
            ),
            Load::CrowdedCheck(side, scan) => format!(
                "with {CROWD} legal moves or more, {side}'s only check by a piece whose moves a scan {scan} lists after the first {LATE}"
            ),
            Load::LateCheck(side, scan) => format!(
                "{side}'s only check by a piece whose moves a scan {scan} lists after the first {LATE_BOTH} of both sides', the other side's first"
            ),
            Load::AllTaken => "every piece but the captains taken in one game".into(),
            Load::LongRun => format!("{LONG_RUN} invalid commands in a row, then a move"),
        }
    }
}

/// One cell of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cell {
    /// The answer to a legal move: the mover's side and kind, the kind it takes (or
    /// none), and whether the position is then check.
    Line(Color, PieceKind, Option<PieceKind>, bool),
    /// This side's kind takes the other captain.
    Ends(Color, PieceKind),
    /// After such an end, a command the loser's piece could make by its rule.
    Follows(Color, PieceKind),
    /// A legal move of this side's kind from the square.
    From(Color, PieceKind, Square),
    /// A legal move of this side's kind onto the square.
    Onto(Color, PieceKind, Square),
    /// After a move, the only check on the board is this side's kind's, along this
    /// vector (an index into [`vectors`]), from this row.
    Row(Color, PieceKind, u8, u8),
    /// ... from this column.
    Column(Color, PieceKind, u8, u8),
    /// What happens to one starting piece (an index into [`starts`]).
    Piece(u8, Act),
    /// An invalid command of this class, with this kind's shape, onto this target.
    Invalid(Class, PieceKind, Onto),
    /// This side's kind tried by a displacement `(dx, dy)` no shape of its move has,
    /// onto an empty square (refused), before a move of the same side.
    Refused(Color, PieceKind, i8, i8),
    /// ... by a displacement of its move's shape onto its own side's piece (refused,
    /// before a move) or the other side's (a capture).
    ShapeOnto(Color, PieceKind, i8, i8, Onto),
    /// ... by a displacement of its move's shape through its blocking square of this
    /// number (a car's: some square between) held by its own side's piece or the other
    /// side's (refused, before a move of the same side).
    ShapeBlocked(Color, PieceKind, i8, i8, u8, Onto),
    /// After a move, no check; but this side's kind, by this vector (an index into
    /// [`vectors`]) off the board, reads the other captain on a board stored flat so.
    Alias(Color, PieceKind, u8, Layout),
    /// An edge of the input.
    Input(InputEdge),
    /// A load a solution must hold.
    Load(Load),
    /// This kind's vector (an index into [`vectors`]), from this square where it leaves
    /// the board (a car's: the last square of its line), wrapped by a board stored flat
    /// so onto a square of the board: tried, and refused.
    Wrap(PieceKind, u8, Square, Layout),
    /// A count one input takes to this value or past it.
    Count(Quantity, u32),
}

/// The dimensions of the model, in report order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dimension {
    /// Every output line.
    Lines,
    /// Every game ending.
    Endings,
    /// Every square each kind stands on.
    Places,
    /// Every check by each vector from each row and column.
    Attacks,
    /// The 32 starting pieces.
    Pieces,
    /// Every class of invalid command.
    Invalid,
    /// Every displacement each kind must refuse, and its shapes onto each target and
    /// through each blocking square.
    Refusals,
    /// Every vector off the board that a flat board reads elsewhere.
    Aliases,
    /// The edges of the input.
    InputEdges,
    /// What a solution must hold: crowded positions, captures, runs.
    Capacity,
    /// Every move a flat board wraps, from every square, in every layout.
    Wraps,
    /// Every count a solution may keep, past each size it might pick, and at its most.
    Counts,
}

impl Dimension {
    /// Every dimension.
    pub const ALL: [Dimension; 12] = [
        Dimension::Lines,
        Dimension::Endings,
        Dimension::Places,
        Dimension::Attacks,
        Dimension::Pieces,
        Dimension::Invalid,
        Dimension::Refusals,
        Dimension::Aliases,
        Dimension::InputEdges,
        Dimension::Capacity,
        Dimension::Wraps,
        Dimension::Counts,
    ];

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Dimension::Lines => "output lines",
            Dimension::Endings => "game endings",
            Dimension::Places => "places",
            Dimension::Attacks => "attacks",
            Dimension::Pieces => "starting pieces",
            Dimension::Invalid => "invalid commands",
            Dimension::Refusals => "refusals",
            Dimension::Aliases => "aliased squares",
            Dimension::InputEdges => "input edges",
            Dimension::Capacity => "capacity",
            Dimension::Wraps => "wrapped moves",
            Dimension::Counts => "counts",
        }
    }
}

impl Cell {
    /// The dimension the cell belongs to.
    pub fn dimension(self) -> Dimension {
        match self {
            Cell::Line(..) => Dimension::Lines,
            Cell::Ends(..) | Cell::Follows(..) => Dimension::Endings,
            Cell::From(..) | Cell::Onto(..) => Dimension::Places,
            Cell::Row(..) | Cell::Column(..) => Dimension::Attacks,
            Cell::Piece(..) => Dimension::Pieces,
            Cell::Invalid(..) => Dimension::Invalid,
            Cell::Refused(..) | Cell::ShapeOnto(..) | Cell::ShapeBlocked(..) => Dimension::Refusals,
            Cell::Alias(..) => Dimension::Aliases,
            Cell::Input(..) => Dimension::InputEdges,
            Cell::Load(..) => Dimension::Capacity,
            Cell::Wrap(..) => Dimension::Wraps,
            Cell::Count(..) => Dimension::Counts,
        }
    }

    /// The side and kind whose move or piece the cell is about, if one (for a command
    /// after the end, a side whose piece of that kind is likely to stand beside the
    /// other side's pieces when it has taken the captain).
    pub fn mover(self) -> Option<(Color, PieceKind)> {
        match self {
            Cell::Line(side, kind, ..)
            | Cell::Ends(side, kind)
            | Cell::Follows(side, kind)
            | Cell::From(side, kind, _)
            | Cell::Onto(side, kind, _)
            | Cell::Row(side, kind, ..)
            | Cell::Column(side, kind, ..)
            | Cell::Refused(side, kind, ..)
            | Cell::ShapeOnto(side, kind, ..)
            | Cell::ShapeBlocked(side, kind, ..)
            | Cell::Alias(side, kind, ..) => Some((side, kind)),
            Cell::Piece(id, _) => pieces::by_square()
                .get(id as usize)
                .map(|s| (s.color, s.kind)),
            // After the end, the winner's pieces are the ones left beside the other
            // side's: red's, say.
            Cell::Invalid(Class::AfterEnd, kind, _) => Some((Color::Red, kind)),
            // A kind's wrap: the side whose piece of the kind stands on its square.
            Cell::Wrap(kind, _, s, _) => {
                let side = match can_stand(Color::Red, kind, s) {
                    true => Color::Red,
                    false => Color::Blue,
                };
                Some((side, kind))
            }
            Cell::Invalid(..) | Cell::Input(..) | Cell::Load(..) | Cell::Count(..) => None,
        }
    }

    /// The cell in words.
    pub fn words(self) -> String {
        let starts = pieces::by_square();
        match self {
            Cell::Line(side, kind, taken, check) => line(side, kind, taken, check),
            Cell::Ends(side, kind) => format!("the {side} {kind} takes the captain"),
            Cell::Follows(side, kind) => format!(
                "a command the loser's piece could make after the {side} {kind} takes the captain"
            ),
            Cell::From(side, kind, s) => format!("the {side} {kind} moves from {s}"),
            Cell::Onto(side, kind, s) => format!("the {side} {kind} moves onto {s}"),
            Cell::Row(side, kind, v, r) => format!(
                "the {side} {kind} alone gives check {} from row {r}",
                vector_name(kind, v)
            ),
            Cell::Column(side, kind, v, c) => format!(
                "the {side} {kind} alone gives check {} from column {c}",
                vector_name(kind, v)
            ),
            Cell::Piece(id, act) => format!("{} {}", starts[id as usize].name(), act.words()),
            Cell::Invalid(class, kind, onto) => {
                let then = if class == Class::AfterEnd {
                    ""
                } else {
                    ", then a move"
                };
                let piece = if class == Class::OwnTarget {
                    format!("{kind} onto its own side's piece")
                } else {
                    format!("{kind} {}", onto.words())
                };
                format!("{} {piece}{then}", class.words())
            }
            Cell::Refused(side, kind, dx, dy) => format!(
                "the {side} {kind} refused {} onto an empty square, then a move",
                shift_words((dx, dy))
            ),
            Cell::ShapeOnto(side, kind, dx, dy, onto) => {
                let then = if onto == Onto::Own { ", refused, then a move" } else { "" };
                format!("the {side} {kind} by {} {}{then}", shift_words((dx, dy)), onto.words())
            }
            Cell::ShapeBlocked(side, kind, dx, dy, b, by) => format!(
                "the {side} {kind} by {} through its {} held by {}, refused, then a move",
                shift_words((dx, dy)),
                block_words(kind, b),
                by.holder()
            ),
            Cell::Alias(side, kind, v, layout) => format!(
                "no check, but the {side} {kind} {} off the board reads the other captain in {layout}",
                vector_name(kind, v)
            ),
            Cell::Input(edge) => edge.words(),
            Cell::Load(load) => load.words(),
            Cell::Wrap(kind, v, s, layout) => format!(
                "the {kind} on {s}, {} off the board, wrapped in {layout}: tried and refused",
                vector_name(kind, v)
            ),
            Cell::Count(q, v) if v == q.most() => format!("{q}: {v}, the most"),
            Cell::Count(q, v) => format!("{q}: {v}"),
        }
    }
}

/// A blocking square of `kind` by number, in words.
pub(super) fn block_words(kind: PieceKind, b: u8) -> &'static str {
    match (kind, b) {
        (PieceKind::Elephant, _) => "eye",
        (PieceKind::Horse, _) => "leg",
        (PieceKind::Car, _) => "line",
        (_, 0) => "first leg",
        _ => "second leg",
    }
}

/// An output line as the judge writes it.
fn line(side: Color, kind: PieceKind, taken: Option<PieceKind>, check: bool) -> String {
    let taken = taken.map_or("NA".to_string(), |k| format!("{} {k}", side.opponent()));
    let over = taken.ends_with("captain");
    let yn = |b: bool| if b { "yes" } else { "no" };
    format!("{side} {kind};{taken};{};{}", yn(check), yn(over))
}
