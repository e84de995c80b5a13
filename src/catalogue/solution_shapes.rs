//! Mistakes that follow the shape of a solution rather than the rules: slips of a
//! solution that keeps the 32 pieces in a table by id, of one that judges a command in
//! another order than the judge, and of one that keeps its bookkeeping per side.
//!
//! - **One starting piece**: a table by id (red 0 to 15, blue 16 to 31; in each side the
//!   captain, the guards, elephants, horses, cars, ducks, then the soldiers, each kind
//!   from column 0 to column 8) with one entry wrong, or one id left out of a loop: that
//!   piece never found on its square (it never moves), named as another kind or with
//!   the other side's colour, or kept alive in the table when taken (it still
//!   threatens from where it was taken; a captain so kept: the game goes on, and the
//!   look for check still finds it there); never taken (a move onto it refused); left
//!   out of the look for check (a captain: its danger unseen; any other piece: its
//!   threats unseen, so a check by it alone is never reported); and at the boundary
//!   between the sides, the last id of one side counted among the other side's
//!   attackers. Every piece can give check (each of the 30 gives one alone in a game
//!   of the suite's lone checks), so none is left out of that slip. A greedy search
//!   seldom takes a given piece and then brings a captain where it would threaten it,
//!   or gives a check by a given piece alone: the suite's repair builds those
//!   games.
//! - **Validation order**: each class of invalid command (the opponent's piece, a shape
//!   the piece does not have, a piece in the way, a move after the end) skipped in one
//!   branch: for one kind of piece and one kind of target (empty, or the other side's
//!   piece; after the end, by target only, since only the loser is to move and which of
//!   its pieces are left is the end's chance); and the bookkeeping a wrong branch does before it refuses (the piece moved,
//!   the target's piece recorded as captured).
//! - **Bookkeeping per side**: the turn kept after one side moves one kind of piece; NA
//!   written when one side takes one kind of piece.
//!
//! Each is one mistake of [`super::list`], in the group of its family, and the
//! mutant judge ([`super::mutant`]) makes it.

use super::variants::Refusal;
use crate::judge::piece::{Color, PieceKind};

/// The families, in catalogue order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// One starting piece, in a table by id.
    Instance,
    /// The order invalid commands are judged in.
    Order,
    /// Each side's bookkeeping.
    Bookkeeping,
}

impl Family {
    /// Every family, in catalogue order.
    pub const ALL: [Family; 3] = [Family::Instance, Family::Order, Family::Bookkeeping];

    /// The family's title in tables.
    pub fn title(self) -> &'static str {
        match self {
            Family::Instance => "one starting piece, in a table of the 32 pieces by id",
            Family::Order => "the order invalid commands are judged in",
            Family::Bookkeeping => "each side's bookkeeping",
        }
    }
}

/// One of the 32 starting pieces, as a table by id keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    /// Its id: red 0 to 15, blue 16 to 31.
    pub id: u8,
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: PieceKind,
    /// Its starting row.
    pub x: i64,
    /// Its starting column.
    pub y: i64,
}

impl Start {
    /// `red-guard-0-3`: its side, kind and starting square.
    pub fn name(&self) -> String {
        format!("{}-{}-{}-{}", self.color, self.kind, self.x, self.y)
    }

    /// `the red guard that starts on (0, 3)`.
    pub fn words(&self) -> String {
        format!(
            "the {} {} that starts on ({}, {})",
            self.color, self.kind, self.x, self.y
        )
    }
}

/// The 32 starting pieces, by id.
pub fn starts() -> Vec<Start> {
    use PieceKind::*;
    // Each kind's starting squares on red's side, from column 0 to column 8.
    let squares: [(PieceKind, &[(i64, i64)]); 7] = [
        (Captain, &[(0, 4)]),
        (Guard, &[(0, 3), (0, 5)]),
        (Elephant, &[(0, 2), (0, 6)]),
        (Horse, &[(0, 1), (0, 7)]),
        (Car, &[(0, 0), (0, 8)]),
        (Duck, &[(2, 0), (2, 8)]),
        (Soldier, &[(3, 0), (3, 2), (3, 4), (3, 6), (3, 8)]),
    ];
    let mut out = Vec::with_capacity(32);
    for color in Color::ALL {
        for (kind, at) in squares {
            for &(x, y) in at {
                out.push(Start {
                    id: out.len() as u8,
                    color,
                    kind,
                    x: if color == Color::Red { x } else { 9 - x },
                    y,
                });
            }
        }
    }
    out
}

/// What goes wrong for one starting piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InstanceSlip {
    /// Never found on its square: its moves are refused.
    Frozen,
    /// A move onto it is refused, as if it were the mover's own.
    Uncapturable,
    /// Named as the kind next to it in the statement's order.
    KindName,
    /// Named with the other side's colour.
    SideName,
    /// Left out of the look for check: a piece's threats, or a captain's danger.
    NoCheck,
    /// Kept in the table as alive when taken: from the square it was taken on it still
    /// threatens in the look for check, and a captain so kept still stands there to be
    /// threatened, and its side has not lost.
    KeptWhenTaken,
}

impl InstanceSlip {
    const ALL: [InstanceSlip; 6] = [
        InstanceSlip::Frozen,
        InstanceSlip::Uncapturable,
        InstanceSlip::KindName,
        InstanceSlip::SideName,
        InstanceSlip::NoCheck,
        InstanceSlip::KeptWhenTaken,
    ];
}

/// What stands on a command's target, seen from the moving piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// Nothing.
    Empty,
    /// A piece of the other side than the moving piece's.
    Enemy,
}

impl Target {
    const ALL: [Target; 2] = [Target::Empty, Target::Enemy];

    fn name(self) -> &'static str {
        match self {
            Target::Empty => "onto-empty",
            Target::Enemy => "onto-enemy",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Target::Empty => "onto an empty square",
            Target::Enemy => "onto a piece of the other side",
        }
    }
}

/// A mistake of a solution's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shaped {
    /// A slip for the starting piece of this id alone.
    Instance(u8, InstanceSlip),
    /// The piece of this id counted among the other side's attackers (a side's loop of
    /// ids one too long or starting one too early).
    OtherSidesAttacker(u8),
    /// This class of invalid command not refused for this kind of piece moving onto
    /// this kind of target.
    Order(Refusal, PieceKind, Target),
    /// A move onto this kind of target after the end accepted, whatever the piece.
    AfterTheEnd(Target),
    /// A command refused for this reason after the piece was already moved.
    MovedWhenRefused(Refusal),
    /// A command refused for its shape or a piece in the way records the piece on its
    /// target as captured; the next move that takes nothing names it.
    CaptureRecordedWhenRefused,
    /// The turn not passed after this side moves this kind of piece.
    TurnKeptAfter(Color, PieceKind),
    /// NA for the captured piece when this side takes this kind.
    CapturedNaFor(Color, PieceKind),
}

impl Shaped {
    /// Its family.
    pub fn family(self) -> Family {
        match self {
            Shaped::Instance(..) | Shaped::OtherSidesAttacker(_) => Family::Instance,
            Shaped::Order(..)
            | Shaped::AfterTheEnd(_)
            | Shaped::MovedWhenRefused(_)
            | Shaped::CaptureRecordedWhenRefused => Family::Order,
            Shaped::TurnKeptAfter(..) | Shaped::CapturedNaFor(..) => Family::Bookkeeping,
        }
    }
}

/// The kind a piece of `kind` is misnamed as: the next in the statement's order, the
/// soldier's the one before.
pub fn misnamed(kind: PieceKind) -> PieceKind {
    super::variants::next_kind(kind).unwrap_or(PieceKind::Duck)
}

/// Whether a candidate is listed, and if not, why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// A mistake of its own.
    Listed,
    /// It always answers as the rules (why, in words).
    Rule(&'static str),
}

/// One candidate with its words.
#[derive(Clone, Debug)]
pub struct Described {
    /// The mistake.
    pub shaped: Shaped,
    /// Its kebab-case name.
    pub name: String,
    /// What the solution does, in one sentence.
    pub sentence: String,
    /// The rule it breaks.
    pub rule: String,
    /// Listed, or why not.
    pub standing: Standing,
}

fn listed(shaped: Shaped, name: String, sentence: String, rule: &str) -> Described {
    Described {
        shaped,
        name,
        sentence,
        rule: rule.to_string(),
        standing: Standing::Listed,
    }
}

/// Where in a table by id a piece's slip comes from, in words: the boundaries of a
/// side's and a kind's range named as such.
fn why_id(s: &Start, all: &[Start]) -> String {
    let same: Vec<u8> = all
        .iter()
        .filter(|o| o.color == s.color && o.kind == s.kind)
        .map(|o| o.id)
        .collect();
    let side_first = if s.color == Color::Red { 0 } else { 16 };
    if s.id == side_first {
        format!("id {}, the first of {}'s range", s.id, s.color)
    } else if s.id == side_first + 15 {
        format!("id {}, the last of {}'s range", s.id, s.color)
    } else if same.len() > 1 && s.id == same[same.len() - 1] {
        format!(
            "id {}, the last of the {} {}s' range",
            s.id, s.color, s.kind
        )
    } else if same.len() > 1 && s.id == same[0] {
        format!(
            "id {}, the first of the {} {}s' range",
            s.id, s.color, s.kind
        )
    } else {
        format!("id {}", s.id)
    }
}

/// Every candidate, in catalogue order.
pub fn all() -> Vec<Described> {
    let mut out = one_starting_piece();
    out.extend(validation_order());
    out.extend(bookkeeping());
    out
}

/// The slips of a table by id: one starting piece wrong in it, and the boundaries of the
/// sides' ranges.
fn one_starting_piece() -> Vec<Described> {
    let mut out = Vec::new();
    let all = starts();
    for s in &all {
        let who = s.words();
        let id = why_id(s, &all);
        for slip in InstanceSlip::ALL {
            let (suffix, sentence, rule) = match slip {
                InstanceSlip::Frozen => (
                    "never-moves",
                    format!("never finds {who} on its square ({id} left out of the loop that looks for the piece on a square), so its moves are refused"),
                    "any piece of the side to move may move by its rule".to_string(),
                ),
                InstanceSlip::Uncapturable => (
                    "never-taken",
                    format!("refuses every move onto {who} ({id} counted as the mover's own), so it is never taken"),
                    "a piece may move onto an opposing piece and take it".to_string(),
                ),
                InstanceSlip::KindName => (
                    "named-as-next-kind",
                    format!("calls {who} a {} ({id} given the wrong name in its table), as mover and as captured piece", misnamed(s.kind)),
                    format!("a {} is called a {}", s.kind, s.kind),
                ),
                InstanceSlip::SideName => (
                    "named-other-side",
                    format!("calls {who} a {} piece ({id} given the wrong colour in its name table), as mover and as captured piece", s.color.opponent()),
                    format!("a {} piece is called {}", s.color, s.color),
                ),
                InstanceSlip::NoCheck if s.kind == PieceKind::Captain => (
                    "never-in-check",
                    format!("never sees a threat on {who} ({id} left out of the look for check), so it never reports check on it"),
                    "a threat on either captain is check".to_string(),
                ),
                InstanceSlip::NoCheck => (
                    "never-gives-check",
                    format!("leaves {who} out of its look for check ({id} left out of the loop over attackers), so it never sees check by it"),
                    "a threat by any piece on a captain is check".to_string(),
                ),
                InstanceSlip::KeptWhenTaken if s.kind == PieceKind::Captain => (
                    "kept-when-taken",
                    format!("keeps {who} alive in its table when it is taken ({id} never marked as taken), so the game goes on, and its look for check still sees that captain on the square it was taken on"),
                    "taking a captain ends the game".to_string(),
                ),
                InstanceSlip::KeptWhenTaken => (
                    "kept-when-taken",
                    format!("keeps {who} alive in its table when it is taken ({id} never marked as taken), so its look for check still sees it threaten from the square it was taken on"),
                    "a taken piece threatens nothing".to_string(),
                ),
            };
            out.push(listed(
                Shaped::Instance(s.id, slip),
                format!("piece-{}-{suffix}", s.name()),
                sentence,
                &rule,
            ));
        }
    }
    // The boundaries of the sides' ranges: a side's loop over its attackers one too
    // long or starting one too early.
    for id in [0u8, 15, 16, 31] {
        let s = all[id as usize];
        let standing = if s.kind == PieceKind::Captain {
            Standing::Rule(
                "the first id of a side is its captain, which never threatens the square it \
                 stands on",
            )
        } else {
            Standing::Listed
        };
        out.push(Described {
            shaped: Shaped::OtherSidesAttacker(id),
            name: format!("piece-{}-attacks-for-{}", s.name(), s.color.opponent()),
            sentence: format!(
                "counts {} (id {}) among {}'s attackers, by a loop over that side's range off by one at its boundary, so it sees check when that piece threatens its own captain",
                s.words(),
                id,
                s.color.opponent()
            ),
            rule: "a piece never threatens its own side's captain".to_string(),
            standing,
        });
    }
    out
}

/// The slips of a solution that judges a command in another order: a class of invalid
/// command skipped in one branch, and what a wrong branch does before it refuses.
fn validation_order() -> Vec<Described> {
    let mut out = Vec::new();
    let blockable = [
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Car,
        PieceKind::Duck,
    ];
    for class in [Refusal::OpponentPiece, Refusal::Shape, Refusal::Blocked] {
        for kind in PieceKind::ALL {
            if class == Refusal::Blocked && !blockable.contains(&kind) {
                continue;
            }
            let kind_a = kind.article();
            for target in Target::ALL {
                let (stem, sentence, rule) = match class {
                    Refusal::OpponentPiece => (
                        "opponent-piece",
                        format!("lets the side to move move the other side's {kind} {}, since it asks whose piece it is only in the other branch", target.words()),
                        "the source square must hold a piece of the side to move",
                    ),
                    Refusal::Shape => (
                        "wrong-shape",
                        format!("accepts a move {kind_a} {kind} cannot make when it goes {}, since that branch never asks the piece's shape", target.words()),
                        "a piece moves only by its own rule",
                    ),
                    _ => (
                        "blocked-move",
                        format!("lets {kind_a} {kind} move {} through a piece in its way, since that branch never looks for blocking pieces", target.words()),
                        "a move stopped by a piece in the way is invalid",
                    ),
                };
                // After the end, by target only (below): only the loser is to move,
                // and which of its pieces are left is the end's chance.
                out.push(listed(
                    Shaped::Order(class, kind, target),
                    format!("order-{stem}-{kind}-{}-accepted", target.name()),
                    sentence,
                    rule,
                ));
            }
        }
    }
    for target in Target::ALL {
        out.push(listed(
            Shaped::AfterTheEnd(target),
            format!("order-after-the-end-{}-accepted", target.name()),
            format!(
                "accepts a move {} after the end of the game, whatever the piece, since that \
                 branch never asks whether the game is over",
                target.words()
            ),
            "once a captain is taken, every command is invalid",
        ));
    }
    for class in [Refusal::OwnPiece, Refusal::Blocked] {
        let (name, what) = match class {
            Refusal::OwnPiece => ("own-target", "a move onto a piece of its own side"),
            _ => ("blocked-move", "a move stopped by a piece in the way"),
        };
        out.push(listed(
            Shaped::MovedWhenRefused(class),
            format!("order-{name}-moved-then-refused"),
            format!("answers {what} as invalid, but only after moving the piece there, and keeps the turn"),
            "an invalid command changes nothing",
        ));
    }
    out.push(listed(
        Shaped::CaptureRecordedWhenRefused,
        "order-refused-capture-recorded".into(),
        "records the piece on the target of a refused move (of a wrong shape, or blocked) as captured, and names it for the next move that takes nothing".into(),
        "an invalid command changes nothing",
    ));
    out
}

/// The slips of each side's bookkeeping: the turn kept, NA written.
fn bookkeeping() -> Vec<Described> {
    let mut out = Vec::new();
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            out.push(listed(
                Shaped::TurnKeptAfter(color, kind),
                format!("turn-kept-after-{color}-{kind}-moves"),
                format!("keeps the turn with {color} after a {color} {kind} moves"),
                "after a legal move the other side is to move",
            ));
        }
    }
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            let kind_a = kind.article();
            out.push(listed(
                Shaped::CapturedNaFor(color, kind),
                format!("captured-na-when-{color}-takes-{kind}"),
                format!("writes NA for the captured piece when {color} takes {kind_a} {kind}"),
                "the second answer names the captured piece, whichever side takes whichever kind",
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_are_the_start_position_by_id() {
        let all = starts();
        assert_eq!(all.len(), 32);
        let board = crate::judge::board::Board::start();
        for s in &all {
            let sq = crate::judge::piece::Square::new(s.x, s.y).expect("on the board");
            let p = board.piece_at(sq).expect("a piece");
            assert_eq!((p.color, p.kind), (s.color, s.kind), "{}", s.name());
        }
        assert_eq!(all[15].name(), "red-soldier-3-8");
        assert_eq!(all[16].name(), "blue-captain-9-4");
        let names: std::collections::HashSet<String> = all.iter().map(|s| s.name()).collect();
        assert_eq!(names.len(), 32);
    }

    #[test]
    fn names_are_unique_and_boundaries_are_named() {
        let all = super::all();
        let names: std::collections::HashSet<&str> = all.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names.len(), all.len());
        let last_horse = all
            .iter()
            .find(|d| d.name == "piece-red-horse-0-7-never-moves")
            .expect("listed");
        assert!(last_horse
            .sentence
            .contains("id 6, the last of the red horses' range"));
        // Kept alive when taken, never taken and left out of the look for check: listed
        // for every piece.
        let named = |slip: InstanceSlip| -> Vec<&str> {
            all.iter()
                .filter(|d| matches!(d.shaped, Shaped::Instance(_, s) if s == slip))
                .map(|d| d.name.as_str())
                .collect()
        };
        let kept = named(InstanceSlip::KeptWhenTaken);
        assert_eq!(kept.len(), 32);
        assert_eq!(kept[0], "piece-red-captain-0-4-kept-when-taken");
        assert_eq!(kept[1], "piece-red-guard-0-3-kept-when-taken");
        assert_eq!(kept[31], "piece-blue-soldier-6-8-kept-when-taken");
        let untaken = named(InstanceSlip::Uncapturable);
        assert_eq!(untaken.len(), 32);
        assert_eq!(untaken[0], "piece-red-captain-0-4-never-taken");
        assert_eq!(untaken[31], "piece-blue-soldier-6-8-never-taken");
        let unseen = named(InstanceSlip::NoCheck);
        assert_eq!(unseen.len(), 32);
        assert_eq!(unseen[0], "piece-red-captain-0-4-never-in-check");
        assert_eq!(unseen[1], "piece-red-guard-0-3-never-gives-check");
        assert_eq!(unseen[16], "piece-blue-captain-9-4-never-in-check");
        assert_eq!(unseen[31], "piece-blue-soldier-6-8-never-gives-check");
        let guard = all
            .iter()
            .find(|d| d.name == "piece-red-guard-0-3-kept-when-taken")
            .expect("listed");
        assert_eq!(guard.rule, "a taken piece threatens nothing");
        assert_eq!(misnamed(PieceKind::Soldier), PieceKind::Duck);
        assert_eq!(misnamed(PieceKind::Captain), PieceKind::Guard);
    }
}
