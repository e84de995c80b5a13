//! Mistakes grown from the rules: every row of the judge's move table
//! ([`crate::judge::rules::REACH`]) and every blocking square of it, slipped once, in one
//! of the two places a solution uses the table (judging a move, deciding check). A real
//! solution's mistakes are, overwhelmingly, such a slip: a row missing (a loop bound one
//! short), a blocking square forgotten or misplaced (mirrored, measured from the target,
//! x and y swapped, copied from the neighbouring row), a car's loop that starts or stops
//! one square off, takes the edge it heads for as off the board, or does not stop at a
//! blocker; and for the soldier, whose "forward" depends on its side, a slip for one
//! side only, and whose eight neighbours a solution often tests one by one, each with
//! its own bounds test, a straight neighbour tested against another one's bound.
//!
//! Each candidate has a name, a sentence and the rule it breaks, all made from the table,
//! and an [`Effect`]: what it changes, reduced to its simplest form (a blocking square
//! moved onto the mover's own square drops the row; one that is off the board wherever
//! the move is on it is forgotten). Candidates with the same effect always behave alike,
//! and one whose effect is the rule's own is no mistake; [`super::list`] lists each
//! effect once.

use crate::judge::piece::{Color, PieceKind, COLS, ROWS};
use crate::judge::rules::{Leap, Reach, REACH};
use crate::show::explain::direction;

/// Where a solution uses the move table: to judge a move, or to decide check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Use {
    /// Judging whether a command is a legal move.
    Move,
    /// Deciding whether a piece threatens a captain.
    Check,
}

impl Use {
    /// Both uses, in catalogue order.
    pub const ALL: [Use; 2] = [Use::Move, Use::Check];

    /// The first word of a grown mistake's name.
    pub fn name(self) -> &'static str {
        match self {
            Use::Move => "move",
            Use::Check => "check",
        }
    }

    /// The end of its sentence.
    pub fn when(self) -> &'static str {
        match self {
            Use::Move => "when it judges a move",
            Use::Check => "when it looks for check",
        }
    }
}

/// A square relative to the moving piece, `(dx, dy)`.
pub type Offset = (i8, i8);

/// A slip on one of the car's four paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CarSlip {
    /// Does not stop at a piece in the way.
    Jumps,
    /// Starts looking for pieces in the way one square late.
    SkipsFirst,
    /// Stops looking one square short of the target.
    SkipsLast,
    /// Looks one square long: the target counts as in the way.
    TargetInPath,
    /// Takes the edge it heads for as off the board.
    EdgeOff,
}

impl CarSlip {
    const ALL: [CarSlip; 5] = [
        CarSlip::Jumps,
        CarSlip::SkipsFirst,
        CarSlip::SkipsLast,
        CarSlip::TargetInPath,
        CarSlip::EdgeOff,
    ];
}

/// How a blocking square is misplaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum How {
    /// `(dx, dy)` becomes `(-dx, dy)`.
    MirroredUpDown,
    /// `(dx, dy)` becomes `(dx, -dy)`.
    MirroredLeftRight,
    /// Counted back from the target instead of forward from the mover.
    FromTarget,
    /// `(dx, dy)` becomes `(dy, dx)`.
    Transposed,
    /// Copied from the table's row before.
    PreviousRow,
    /// Copied from the table's row after.
    NextRow,
}

impl How {
    fn name(self) -> &'static str {
        match self {
            How::MirroredUpDown => "mirrored-up-down",
            How::MirroredLeftRight => "mirrored-left-right",
            How::FromTarget => "from-target",
            How::Transposed => "transposed",
            How::PreviousRow => "from-previous-row",
            How::NextRow => "from-next-row",
        }
    }
}

/// What a slip does to its row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum What {
    /// The row is missing.
    Dropped,
    /// This blocking square is not looked at.
    Forgotten(Offset),
    /// This blocking square is looked for on another square.
    Moved {
        /// The square of the rule.
        block: Offset,
        /// Where the solution looks instead.
        to: Offset,
        /// How it got there.
        how: How,
    },
    /// A slip on a car's path.
    Car(CarSlip),
    /// Looking out from the captain, the bounds test of the square `captain - dir` is
    /// that of the square `captain - other`: the test of another row (`other`).
    GuardOf(Offset),
}

/// One slip in one row of the move table, in one use, for one side or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slip {
    /// Judging moves or deciding check.
    pub at: Use,
    /// The piece.
    pub kind: PieceKind,
    /// The row: the leap's target or the car's direction, relative to the piece.
    pub dir: Offset,
    /// Only for this side's pieces, or for both.
    pub color: Option<Color>,
    /// What goes wrong.
    pub what: What,
}

/// What a slip changes, in its simplest form: slips with the same effect always behave
/// alike.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Effect {
    /// Answers exactly as the rule: no input can tell (why, in words).
    Rule(&'static str),
    /// The row never applies.
    Dropped,
    /// The row applies when these squares (relative to the piece) are empty.
    Blocks(Vec<Offset>),
    /// A car's path slip.
    Car(CarSlip),
    /// The row applies only where the row `other`'s attacker square, seen from the
    /// captain, is on the board.
    Guard(Offset),
}

/// The side of a slip, its use, piece and row, and what it changes.
pub type Key = (Use, PieceKind, Offset, Option<Color>, Effect);

/// One grown candidate.
#[derive(Clone, Debug)]
pub struct Grown {
    /// The slip.
    pub slip: Slip,
    /// Its kebab-case name.
    pub name: String,
    /// What the solution does, in one sentence.
    pub sentence: String,
    /// The rule it breaks.
    pub rule: String,
}

/// The blocking squares of `kind`'s row `dir` in the judge's table (none for a car).
fn rule_blocks(kind: PieceKind, dir: Offset) -> Vec<Offset> {
    match REACH[kind.index()] {
        Reach::Leaps(leaps) => leaps
            .iter()
            .find(|l| l.delta == dir)
            .map_or_else(Vec::new, |l| l.blocks.to_vec()),
        Reach::Rays(_) => Vec::new(),
    }
}

/// Whether a piece moving by `dir` can ever have `at` (relative to it) on the board.
fn ever_on_board(dir: Offset, at: Offset) -> bool {
    let inside = |x: i8, y: i8| (0..ROWS as i8).contains(&x) && (0..COLS as i8).contains(&y);
    (0..ROWS as i8).any(|x| {
        (0..COLS as i8).any(|y| inside(x + dir.0, y + dir.1) && inside(x + at.0, y + at.1))
    })
}

/// Why a slip that looks at the rule's own squares is no mistake.
pub const SAME_SQUARES: &str = "looks at the very squares the rule looks at";

/// Why a captain's check row dropped is no mistake.
pub const MUTUAL: &str = "a captain that threatens the other is threatened back along the \
                          opposite row, so the position is check all the same";

impl Slip {
    /// What the slip changes, in its simplest form.
    pub fn effect(&self) -> Effect {
        let rule = rule_blocks(self.kind, self.dir);
        let mut blocks = rule.clone();
        match self.what {
            // Captains next to each other threaten each other: one row of the pair is
            // enough for check.
            What::Dropped if self.at == Use::Check && self.kind == PieceKind::Captain => {
                return Effect::Rule(MUTUAL)
            }
            What::Dropped => return Effect::Dropped,
            What::Car(CarSlip::TargetInPath) if self.at == Use::Check => {
                // The captain always stands on the target.
                return Effect::Dropped;
            }
            What::Car(slip) => return Effect::Car(slip),
            What::GuardOf(other) if other == self.dir => return Effect::Rule(SAME_SQUARES),
            What::GuardOf(other) => return Effect::Guard(other),
            What::Forgotten(b) => blocks.retain(|&s| s != b),
            What::Moved { block, to, .. } => {
                for s in &mut blocks {
                    if *s == block {
                        *s = to;
                    }
                }
            }
        }
        // The mover's own square is never empty; nor, when check is decided, the target,
        // where the captain stands.
        if blocks.contains(&(0, 0)) || (self.at == Use::Check && blocks.contains(&self.dir)) {
            return Effect::Dropped;
        }
        // A square off the board wherever the move is on it is always empty.
        blocks.retain(|&s| ever_on_board(self.dir, s));
        blocks.sort_unstable();
        blocks.dedup();
        let mut rule = rule;
        rule.sort_unstable();
        if blocks == rule {
            Effect::Rule(SAME_SQUARES)
        } else {
            Effect::Blocks(blocks)
        }
    }

    /// What two slips must share to behave alike.
    pub fn key(&self) -> Key {
        (self.at, self.kind, self.dir, self.color, self.effect())
    }

    /// Whether the slip applies to a piece of `color`.
    pub fn for_color(&self, color: Color) -> bool {
        self.color.is_none_or(|c| c == color)
    }
}

/// `(x+1, y-2)`: a square relative to `(x, y)`.
pub fn square(o: Offset) -> String {
    let part = |axis: &str, d: i8| match d {
        0 => axis.to_string(),
        d if d > 0 => format!("{axis}+{d}"),
        d => format!("{axis}{d}"),
    };
    format!("({}, {})", part("x", o.0), part("y", o.1))
}

/// The name of a blocking square of a row: an elephant's eye, a horse's leg, a duck's
/// first or second leg.
fn block_name(kind: PieceKind, index: usize) -> &'static str {
    match (kind, index) {
        (PieceKind::Elephant, _) => "eye",
        (PieceKind::Horse, _) => "leg",
        (_, 0) => "first-leg",
        _ => "second-leg",
    }
}

/// A car's direction in words: `upwards`, `to the left`.
fn way(dir: Offset) -> &'static str {
    match dir {
        (1, 0) => "upwards",
        (-1, 0) => "downwards",
        (0, 1) => "to the right",
        _ => "to the left",
    }
}

/// Where a captain stands from a car that threatens it in direction `dir`.
fn seen(dir: Offset) -> &'static str {
    match dir {
        (1, 0) => "above it in its column",
        (-1, 0) => "below it in its column",
        (0, 1) => "to its right in its row",
        _ => "to its left in its row",
    }
}

/// The edge a car heads for in direction `dir`.
fn edge(dir: Offset) -> &'static str {
    match dir {
        (1, 0) => "row 9",
        (-1, 0) => "row 0",
        (0, 1) => "column 8",
        _ => "column 0",
    }
}

/// The edge a captain stands on where the square `captain - other` is off the board:
/// where the bounds test of row `other`, looking out from the captain, fails.
fn guard_edge(other: Offset) -> &'static str {
    match other {
        (1, 0) => "row 0",
        (-1, 0) => "row 9",
        (0, 1) => "column 0",
        _ => "column 8",
    }
}

/// `a red soldier` or `a horse`.
fn a_piece(kind: PieceKind, color: Option<Color>) -> String {
    match color {
        Some(c) => format!("a {c} {kind}"),
        None => format!("{} {kind}", kind.article()),
    }
}

/// The rule of one row, in words: what the slip breaks.
fn row_rule(at: Use, kind: PieceKind, dir: Offset) -> String {
    let blocks = rule_blocks(kind, dir);
    let empty = match blocks.len() {
        0 => String::new(),
        1 => format!(" when {} is empty", square(blocks[0])),
        _ => format!(
            " when {} and {} are empty",
            square(blocks[0]),
            square(blocks[1])
        ),
    };
    if kind == PieceKind::Car {
        return match at {
            Use::Move => format!(
                "a car moves {} any distance, up to {} included, while every square \
                 between is empty, and may take the piece at the end",
                way(dir),
                edge(dir)
            ),
            Use::Check => format!(
                "a car threatens a captain {}, up to {} included, when every square \
                 between is empty",
                seen(dir),
                edge(dir)
            ),
        };
    }
    let kind_a = kind.article();
    match at {
        Use::Move => format!(
            "{kind_a} {kind} may move from (x, y) to {}{empty}",
            square(dir)
        ),
        Use::Check => format!(
            "{kind_a} {kind} on (x, y) threatens a captain on {}{empty}",
            square(dir)
        ),
    }
}

/// The words of a car slip.
fn car_sentence(at: Use, color: Option<Color>, dir: Offset, slip: CarSlip) -> String {
    let way = way(dir);
    let car = a_piece(PieceKind::Car, color);
    match (at, slip) {
        (Use::Move, CarSlip::Jumps) => {
            format!("lets {car} moving {way} pass through pieces in its way")
        }
        (Use::Check, CarSlip::Jumps) => {
            format!(
                "sees check from {car} on a captain {}, through pieces in its way",
                seen(dir)
            )
        }
        (_, CarSlip::SkipsFirst) => format!(
            "forgets the square right next to {car} {} when it looks for pieces in its way",
            match at {
                Use::Move => format!("moving {way}"),
                Use::Check => format!("giving check {way}"),
            }
        ),
        (Use::Move, CarSlip::SkipsLast) => format!(
            "forgets the last square before the target of {car} moving {way} when it looks \
             for pieces in its way"
        ),
        (Use::Check, CarSlip::SkipsLast) => {
            format!("forgets the square right before the captain when {car} gives check {way}")
        }
        (Use::Move, CarSlip::TargetInPath) => format!(
            "counts the target of {car} moving {way} as a square in its way, so it never \
             captures {way}"
        ),
        (Use::Check, CarSlip::TargetInPath) => format!(
            "counts the captain's square as in the way of {car} giving check {way}, so it \
             never sees that check"
        ),
        (Use::Move, CarSlip::EdgeOff) => format!(
            "takes {} for off the board when {car} moves {way}, so it never gets there",
            edge(dir)
        ),
        (Use::Check, CarSlip::EdgeOff) => format!(
            "takes {} for off the board when {car} gives check {way}, so it misses a check \
             against a captain there",
            edge(dir)
        ),
    }
}

/// Words for where a misplaced blocking square came from.
fn how_words(how: How, kind: PieceKind, neighbour: Option<Offset>) -> String {
    match how {
        How::MirroredUpDown => "mirrored up and down".to_string(),
        How::MirroredLeftRight => "mirrored left and right".to_string(),
        How::FromTarget => "counted back from the target".to_string(),
        How::Transposed => "x and y swapped".to_string(),
        How::PreviousRow | How::NextRow => format!(
            "copied from the {kind}'s table row for {}",
            square(neighbour.unwrap_or((0, 0)))
        ),
    }
}

/// One candidate with its words.
fn grown(slip: Slip, neighbour: Option<Offset>) -> Grown {
    let Slip {
        at,
        kind,
        dir,
        color,
        what,
    } = slip;
    let side = color.map_or(String::new(), |c| format!("{c}-"));
    let stem = format!("{}-{side}{kind}-{}", at.name(), direction(kind, dir));
    let piece = a_piece(kind, color);
    let blocks = rule_blocks(kind, dir);
    let index = |b: Offset| blocks.iter().position(|&s| s == b).unwrap_or(0);
    // "a horse's move from (x, y) to (x+2, y+1)", "a horse's check from (x, y) on a
    // captain at (x+2, y+1)".
    let whose = format!("{piece}'s");
    let its = match at {
        Use::Move => format!("{whose} move from (x, y) to {}", square(dir)),
        Use::Check => format!("{whose} check from (x, y) on a captain at {}", square(dir)),
    };
    let to = square(dir);
    let other_side = color.map(|c| c.opponent());
    let (suffix, sentence) = match what {
        What::Dropped if kind == PieceKind::Car => (
            "dropped".to_string(),
            match at {
                Use::Move => format!(
                    "never lets {piece} move {}, as if that direction were missing from its \
                     table",
                    way(dir)
                ),
                Use::Check => format!(
                    "misses the check of {piece} on a captain {}, as if that direction were \
                     missing from its table",
                    seen(dir)
                ),
            },
        ),
        What::Dropped => (
            "dropped".to_string(),
            match (at, other_side) {
                (Use::Move, None) => format!(
                    "never lets {piece} move from (x, y) to {to}, as if that row were \
                     missing from its table"
                ),
                (Use::Move, Some(o)) => {
                    format!("never lets {piece} move from (x, y) to {to}, though it lets a {o} one")
                }
                (Use::Check, None) => {
                    format!("misses {its}, as if that row were missing from its table")
                }
                (Use::Check, Some(o)) => format!("misses {its}, though it sees a {o} one's"),
            },
        ),
        What::Forgotten(b) => (
            format!("{}-forgotten", block_name(kind, index(b))),
            match at {
                Use::Move => format!(
                    "lets {piece} move from (x, y) to {to} over a piece at {}",
                    square(b)
                ),
                Use::Check => format!("sees {its} over a piece at {}", square(b)),
            },
        ),
        What::Moved { block, to, how } => (
            format!("{}-{}", block_name(kind, index(block)), how.name()),
            format!(
                "looks for the blocking square {} of {its} at {} instead ({})",
                square(block),
                square(to),
                how_words(how, kind, neighbour),
            ),
        ),
        What::Car(s) => (
            match s {
                CarSlip::Jumps => "jumps",
                CarSlip::SkipsFirst => "skips-first-square",
                CarSlip::SkipsLast => "skips-last-square",
                CarSlip::TargetInPath => "target-in-path",
                CarSlip::EdgeOff => "edge-off-board",
            }
            .to_string(),
            car_sentence(at, color, dir, s),
        ),
        What::GuardOf(other) => (
            format!("wrong-guard-{}", guard_edge(other).replace(' ', "-")),
            format!(
                "misses {its} when the captain stands on {}: it looks at the captain's \
                 neighbours one by one and guards this one with another one's bounds test",
                guard_edge(other),
            ),
        ),
    };
    let mut rule = row_rule(at, kind, dir);
    if let Some(c) = color {
        // "a soldier may move ..." becomes "a red soldier may move ..., as a blue one may".
        let o = c.opponent();
        let tail = match at {
            Use::Move => format!(", as a {o} one may"),
            Use::Check => format!(", as a {o} one does"),
        };
        rule = format!("a {c} {}{tail}", rule.trim_start_matches("a "));
    }
    Grown {
        slip,
        name: format!("{stem}-{suffix}"),
        sentence,
        rule,
    }
}

/// Every candidate, in catalogue order: for each use and piece, each row of its table
/// with its slips (the row dropped; then each blocking square forgotten and misplaced
/// every way; a car's path slips), then the soldier's rows dropped for one side only.
/// Equivalent candidates are all here; [`super::list`] sorts them out.
pub fn candidates() -> Vec<Grown> {
    let mut out = Vec::new();
    for at in Use::ALL {
        for kind in PieceKind::ALL {
            let base = |dir: Offset, what: What| Slip {
                at,
                kind,
                dir,
                color: None,
                what,
            };
            match REACH[kind.index()] {
                Reach::Rays(dirs) => {
                    for &dir in dirs {
                        out.push(grown(base(dir, What::Dropped), None));
                        for slip in CarSlip::ALL {
                            out.push(grown(base(dir, What::Car(slip)), None));
                        }
                    }
                }
                Reach::Leaps(leaps) => {
                    for (i, leap) in leaps.iter().enumerate() {
                        let dir = leap.delta;
                        out.push(grown(base(dir, What::Dropped), None));
                        for (j, &block) in leap.blocks.iter().enumerate() {
                            out.push(grown(base(dir, What::Forgotten(block)), None));
                            let (bx, by) = block;
                            let mut moved = vec![
                                (How::MirroredUpDown, (-bx, by), None),
                                (How::MirroredLeftRight, (bx, -by), None),
                                (How::FromTarget, (dir.0 - bx, dir.1 - by), None),
                                (How::Transposed, (by, bx), None),
                            ];
                            let rows = [
                                (How::PreviousRow, i.checked_sub(1)),
                                (How::NextRow, Some(i + 1)),
                            ];
                            for (how, row) in rows {
                                if let Some(other) = row.and_then(|r| leaps.get(r)) {
                                    if let Some(&to) = other.blocks.get(j) {
                                        moved.push((how, to, Some(other.delta)));
                                    }
                                }
                            }
                            for (how, to, neighbour) in moved {
                                let what = What::Moved { block, to, how };
                                out.push(grown(base(dir, what), neighbour));
                            }
                        }
                    }
                    if kind == PieceKind::Soldier && at == Use::Check {
                        for (dir, other) in wrong_guards(leaps) {
                            out.push(grown(base(dir, What::GuardOf(other)), None));
                        }
                    }
                    if kind == PieceKind::Soldier {
                        // A soldier's "forward" depends on its side: a solution may write
                        // its steps per side, and slip in one side's.
                        for color in Color::ALL {
                            for leap in leaps {
                                let slip = Slip {
                                    color: Some(color),
                                    ..base(leap.delta, What::Dropped)
                                };
                                out.push(grown(slip, None));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// The soldier's straight check rows, each paired with each other straight row whose
/// bounds test it takes: a solution that looks at the captain's four neighbours one by
/// one, each behind its own bounds test, and pairs a square with the wrong test. (Its
/// diagonal rows test two bounds, and the captain's rows are mutual; they are left out.)
fn wrong_guards(leaps: &[Leap]) -> Vec<(Offset, Offset)> {
    let straight: Vec<Offset> = leaps
        .iter()
        .map(|l| l.delta)
        .filter(|d| d.0 == 0 || d.1 == 0)
        .collect();
    let pairs = straight
        .iter()
        .flat_map(|&dir| straight.iter().map(move |&o| (dir, o)));
    pairs.filter(|(dir, other)| dir != other).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slip(at: Use, kind: PieceKind, dir: Offset, what: What) -> Slip {
        Slip {
            at,
            kind,
            dir,
            color: None,
            what,
        }
    }

    #[test]
    fn effects_reduce_to_their_simplest_form() {
        use PieceKind::*;
        // A horse's leg mirrored across the axis it lies on is the leg itself.
        let leg = What::Moved {
            block: (1, 0),
            to: (1, 0),
            how: How::MirroredLeftRight,
        };
        assert_eq!(
            slip(Use::Move, Horse, (2, 1), leg).effect(),
            Effect::Rule(SAME_SQUARES)
        );
        // An elephant's eye counted back from the target is the eye.
        let eye = What::Moved {
            block: (1, 1),
            to: (1, 1),
            how: How::FromTarget,
        };
        assert_eq!(
            slip(Use::Check, Elephant, (2, 2), eye).effect(),
            Effect::Rule(SAME_SQUARES)
        );
        // A captain's check is mutual.
        let captain = slip(Use::Check, Captain, (1, 0), What::Dropped);
        assert_eq!(captain.effect(), Effect::Rule(MUTUAL));
        // A duck's first leg moved onto its second is the first leg forgotten.
        let onto = What::Moved {
            block: (1, 0),
            to: (2, 1),
            how: How::PreviousRow,
        };
        let forgotten = What::Forgotten((1, 0));
        assert_eq!(
            slip(Use::Move, Duck, (3, 2), onto).effect(),
            slip(Use::Move, Duck, (3, 2), forgotten).effect()
        );
        // A car that counts the captain's square as in its way never gives check.
        let car = What::Car(CarSlip::TargetInPath);
        assert_eq!(slip(Use::Check, Car, (1, 0), car).effect(), Effect::Dropped);
        assert_eq!(
            slip(Use::Move, Car, (1, 0), car).effect(),
            Effect::Car(CarSlip::TargetInPath)
        );
        let behind = What::Moved {
            block: (1, 0),
            to: (-1, 0),
            how: How::MirroredUpDown,
        };
        assert_eq!(
            slip(Use::Move, Horse, (2, 1), behind).effect(),
            Effect::Blocks(vec![(-1, 0)])
        );
    }

    #[test]
    fn a_soldiers_straight_check_row_may_take_another_rows_bound() {
        let all = candidates();
        let guards: Vec<&Grown> = all
            .iter()
            .filter(|g| matches!(g.slip.what, What::GuardOf(_)))
            .collect();
        // Four straight rows, each with the bound of each of the other three.
        assert_eq!(guards.len(), 12);
        assert!(guards.iter().all(|g| g.slip.kind == PieceKind::Soldier
            && g.slip.at == Use::Check
            && matches!(g.slip.what, What::GuardOf(o) if o != g.slip.dir)));
        // A soldier left of a captain, guarded as if it stood above: missed on row 9.
        let left = all
            .iter()
            .find(|g| g.name == "check-soldier-right1-wrong-guard-row-9")
            .expect("listed");
        assert_eq!(left.slip.dir, (0, 1));
        assert_eq!(left.slip.effect(), Effect::Guard((-1, 0)));
        assert_eq!(
            left.sentence,
            "misses a soldier's check from (x, y) on a captain at (x, y+1) when the captain \
             stands on row 9: it looks at the captain's neighbours one by one and guards this \
             one with another one's bounds test"
        );
        // Its own bound is the rule.
        let own = slip(
            Use::Check,
            PieceKind::Soldier,
            (0, 1),
            What::GuardOf((0, 1)),
        );
        assert_eq!(own.effect(), Effect::Rule(SAME_SQUARES));
    }

    #[test]
    fn names_are_unique_and_words_come_from_the_table() {
        let all = candidates();
        let mut names: Vec<&str> = all.iter().map(|g| g.name.as_str()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a name is used twice");
        let horse = all
            .iter()
            .find(|g| g.name == "move-horse-up2-right1-leg-forgotten")
            .expect("the horse's first row");
        assert_eq!(
            horse.sentence,
            "lets a horse move from (x, y) to (x+2, y+1) over a piece at (x+1, y)"
        );
        assert_eq!(
            horse.rule,
            "a horse may move from (x, y) to (x+2, y+1) when (x+1, y) is empty"
        );
        assert_eq!(square((-2, 0)), "(x-2, y)");
        assert_eq!(direction(PieceKind::Duck, (-3, 2)), "down3-right2");
        assert_eq!(direction(PieceKind::Car, (0, -1)), "left");
    }
}
