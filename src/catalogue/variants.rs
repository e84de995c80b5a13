//! Variants of the hand-written mistakes ([`super::handwritten`]) about the end of the game,
//! invalid commands and the answers as written: the same slip made in one situation, for
//! one side or for one kind only, or looking at another square. Check on the move that
//! takes a captain, for each square a solution might still look at; the turn passed
//! after one kind of invalid command only; a piece of one kind allowed onto its own side,
//! or kept from capturing; the captured piece named from the wrong square or side; the
//! names of two kinds swapped.
//!
//! Some candidates are no mistake at all, or the same as another; they stay here, named,
//! so that [`super::list`] can say why they are not listed and a test can hold it to
//! that.

use super::handwritten::{Topic, Written};
use crate::judge::piece::{Color, PieceKind};

/// Why a solution refuses a command, as it sees it (in its own order of checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Refusal {
    /// The game is over.
    Over,
    /// A square off the board.
    OffBoard,
    /// No piece on the source.
    NoPiece,
    /// The opponent's piece on the source.
    OpponentPiece,
    /// A piece of the mover's own side on the target.
    OwnPiece,
    /// The piece does not move that way.
    Shape,
    /// Something stands on a blocking square.
    Blocked,
    /// A xiangqi rule forbids the position after the move.
    Forbidden,
}

impl Refusal {
    /// The kinds of refusal a variant is written for.
    const VARIANTS: [Refusal; 5] = [
        Refusal::NoPiece,
        Refusal::OpponentPiece,
        Refusal::OwnPiece,
        Refusal::Shape,
        Refusal::Blocked,
    ];

    fn name(self) -> &'static str {
        match self {
            Refusal::Over => "the-end",
            Refusal::OffBoard => "off-board",
            Refusal::NoPiece => "empty-source",
            Refusal::OpponentPiece => "opponent-piece",
            Refusal::OwnPiece => "own-target",
            Refusal::Shape => "wrong-shape",
            Refusal::Blocked => "blocked-move",
            Refusal::Forbidden => "forbidden-position",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Refusal::Over => "any command after the end of the game",
            Refusal::OffBoard => "a command with a square off the board",
            Refusal::NoPiece => "a command from an empty square",
            Refusal::OpponentPiece => "a command that moves the opponent's piece",
            Refusal::OwnPiece => "a move onto a piece of the mover's own side",
            Refusal::Shape => "a move its piece cannot make",
            Refusal::Blocked => "a move stopped by a piece in the way",
            Refusal::Forbidden => "a move a xiangqi rule forbids",
        }
    }
}

/// A variant of a hand-written mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// On the move that takes a captain: check when the winner's captain stands attacked,
    /// or when another of the winner's pieces could move onto the taken captain's square
    /// (the captains' squares kept, and not updated when one is taken).
    CheckAtEndOnTakenSquare,
    /// On the move that takes a captain: check when the winner's captain stands attacked,
    /// or when the loser could take the piece that took the captain.
    CheckAtEndOnTaker,
    /// On the move that takes a captain: check when the winner's captain stands attacked,
    /// or when the winner could move onto (0, 0), where a search for the missing captain
    /// leaves its answer.
    CheckAtEndAtCorner,
    /// On the move by which this side takes the other's captain (and only then): check
    /// when the winner's captain stands attacked.
    CheckAtEndWhenWins(Color),
    /// The game does not end when this side takes the other's captain.
    GameGoesOnWhenWins(Color),
    /// The turn passes after this kind of invalid command.
    TurnPassesAfter(Refusal),
    /// A piece of this kind may take its own side's pieces.
    OwnPieceCapturedBy(PieceKind),
    /// A piece of this kind may not move onto any piece.
    CapturesRefusedBy(PieceKind),
    /// This side may move the other side's pieces.
    OpponentPieceMovedBy(Color),
    /// The captured piece named by what stands on the target after the move.
    CapturedIsMover,
    /// The captured piece named by what stands on the source after the move.
    CapturedFromSource,
    /// The captured piece's side named by the side to move after the move.
    CapturedSideToMove,
    /// Every captured piece named with this side.
    CapturedNamed(Color),
    /// NA for the captured piece when this side captures.
    CapturedNaWhen(Color),
    /// Every piece named with this side.
    SideNamesAll(Color),
    /// The names of this kind and the next (in the statement's order) swapped.
    KindNamesSwapped(PieceKind),
}

/// Whether a variant is listed, and if not, why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// A mistake of its own.
    Listed,
    /// It always answers as this hand-written mistake.
    SameAs(Written),
    /// It always answers as the rules: no input can expose it.
    Rule(&'static str),
    /// Only an input beyond the official limits could expose it.
    Outside(&'static str),
}

/// One variant with its words.
#[derive(Clone, Debug)]
pub struct Described {
    /// The variant.
    pub variant: Variant,
    /// Its kebab-case name.
    pub name: String,
    /// What the solution does, in one sentence.
    pub sentence: String,
    /// The rule it breaks.
    pub rule: String,
    /// The topic it is listed under.
    pub topic: Topic,
    /// Listed, or why not.
    pub standing: Standing,
}

/// The kind after `kind` in the statement's order, if any.
pub fn next_kind(kind: PieceKind) -> Option<PieceKind> {
    PieceKind::ALL.get(kind.index() + 1).copied()
}

fn described(
    variant: Variant,
    name: String,
    sentence: String,
    rule: &str,
    topic: Topic,
    standing: Standing,
) -> Described {
    Described {
        variant,
        name,
        sentence,
        rule: rule.to_string(),
        topic,
        standing,
    }
}

/// Every variant, in catalogue order, the unlisted ones among them.
pub fn all() -> Vec<Described> {
    let mut out = at_the_end();
    out.extend(invalid_commands());
    out.extend(answers_as_written());
    out
}

/// The variants about the end of the game: check on the move that takes a captain, a
/// game that goes on.
fn at_the_end() -> Vec<Described> {
    use Standing::Listed;
    let mut out = Vec::new();
    let no_check = "once the game is over there is no check";
    out.push(described(
        Variant::CheckAtEndOnTakenSquare,
        "check-after-the-end-on-taken-square".into(),
        "on the move that takes a captain, reports check when the winner's captain stands \
         attacked or another of the winner's pieces could move onto the taken captain's \
         square, as a solution that keeps the captains' squares and does not clear one"
            .into(),
        no_check,
        Topic::End,
        Listed,
    ));
    out.push(described(
        Variant::CheckAtEndOnTaker,
        "check-after-the-end-on-taker".into(),
        "on the move that takes a captain, reports check when the winner's captain stands \
         attacked or the loser could take the piece that took the captain"
            .into(),
        no_check,
        Topic::End,
        Listed,
    ));
    out.push(described(
        Variant::CheckAtEndAtCorner,
        "check-after-the-end-at-corner".into(),
        "on the move that takes a captain, reports check when the winner's captain stands \
         attacked or the winner could move onto (0, 0), where its search for the missing \
         captain gives up"
            .into(),
        no_check,
        Topic::End,
        Listed,
    ));
    for c in Color::ALL {
        out.push(described(
            Variant::CheckAtEndWhenWins(c),
            format!("check-after-the-end-when-{c}-wins"),
            format!(
                "on the move by which {c} takes {}'s captain, and only then, reports check \
                 when {c}'s captain stands attacked",
                c.opponent()
            ),
            no_check,
            Topic::End,
            Listed,
        ));
    }
    for c in Color::ALL {
        out.push(described(
            Variant::GameGoesOnWhenWins(c),
            format!("game-goes-on-when-{c}-wins"),
            format!(
                "does not end the game when {c} takes {}'s captain",
                c.opponent()
            ),
            "taking the opposing captain ends the game, whichever side takes it",
            Topic::End,
            Listed,
        ));
    }
    out
}

/// The variants about invalid commands: the turn passed after one kind, a kind allowed
/// onto its own side or kept from capturing, one side allowed to move the other's pieces.
fn invalid_commands() -> Vec<Described> {
    use Standing::Listed;
    let mut out = Vec::new();
    let unchanged = "an invalid command changes nothing: the same side is still to move";
    for r in [Refusal::Over, Refusal::OffBoard]
        .into_iter()
        .chain(Refusal::VARIANTS)
    {
        let standing = match r {
            Refusal::Over => {
                Standing::Rule("after the end every command is invalid, whoever is to move")
            }
            Refusal::OffBoard => {
                Standing::Outside("no command within the official limits leaves the board")
            }
            _ => Listed,
        };
        out.push(described(
            Variant::TurnPassesAfter(r),
            format!("turn-passes-after-{}", r.name()),
            format!(
                "passes the turn to the other side after {}, though not after other invalid \
                 commands",
                r.words()
            ),
            unchanged,
            Topic::Invalid,
            standing,
        ));
    }
    for k in PieceKind::ALL {
        let k_a = k.article();
        out.push(described(
            Variant::OwnPieceCapturedBy(k),
            format!("own-piece-captured-by-{k}"),
            format!("lets {k_a} {k} move onto and capture a piece of its own side"),
            "a piece may not move onto a square held by its own side",
            Topic::Invalid,
            Listed,
        ));
    }
    for k in PieceKind::ALL {
        let k_a = k.article();
        out.push(described(
            Variant::CapturesRefusedBy(k),
            format!("captures-refused-for-{k}"),
            format!("refuses {k_a} {k}'s move onto any piece, as if every piece were its own"),
            "a piece may move onto an opposing piece and take it",
            Topic::Invalid,
            Listed,
        ));
    }
    for c in Color::ALL {
        out.push(described(
            Variant::OpponentPieceMovedBy(c),
            format!("opponent-piece-moved-by-{c}"),
            format!(
                "lets {c} move {}'s pieces when {c} is to move",
                c.opponent()
            ),
            "the source square must hold a piece of the side to move",
            Topic::Invalid,
            Listed,
        ));
    }
    out
}

/// The variants about the answers as written: the captured piece named from the wrong
/// square or side, the names of two kinds swapped.
fn answers_as_written() -> Vec<Described> {
    use Standing::Listed;
    let mut out = Vec::new();
    let own_name = "the captured piece is named with its own side and kind";
    out.push(described(
        Variant::CapturedIsMover,
        "captured-is-mover".into(),
        "names the captured piece by what stands on the target after the move: the mover \
         itself"
            .into(),
        own_name,
        Topic::Output,
        Listed,
    ));
    out.push(described(
        Variant::CapturedFromSource,
        "captured-from-source".into(),
        "names the captured piece by what stands on the source square after the move".into(),
        own_name,
        Topic::Output,
        Standing::SameAs(Written::CapturedAlwaysNa),
    ));
    out.push(described(
        Variant::CapturedSideToMove,
        "captured-side-is-side-to-move".into(),
        "names the captured piece's side by the side to move after the move".into(),
        own_name,
        Topic::Output,
        Standing::Rule("the side to move after a move is always the captured piece's side"),
    ));
    for c in Color::ALL {
        out.push(described(
            Variant::CapturedNamed(c),
            format!("captured-always-{c}"),
            format!("names every captured piece a {c} one"),
            own_name,
            Topic::Output,
            Listed,
        ));
    }
    for c in Color::ALL {
        out.push(described(
            Variant::CapturedNaWhen(c),
            format!("captured-na-when-{c}-captures"),
            format!("writes NA for the captured piece when {c} captures"),
            "the second answer names the captured piece, whichever side captures",
            Topic::Output,
            Listed,
        ));
    }
    for c in Color::ALL {
        out.push(described(
            Variant::SideNamesAll(c),
            format!("side-names-all-{c}"),
            format!("calls every piece {c}, the mover and the captured piece alike"),
            "red is the side that starts on rows 0 to 3, blue the other",
            Topic::Output,
            Listed,
        ));
    }
    for k in PieceKind::ALL {
        if let Some(n) = next_kind(k) {
            let (k_a, n_a) = (k.article(), n.article());
            out.push(described(
                Variant::KindNamesSwapped(k),
                format!("kind-names-{k}-{n}-swapped"),
                format!("calls {k_a} {k} {n_a} {n} and {n_a} {n} {k_a} {k}"),
                "each kind has its own name: captain, guard, elephant, horse, car, duck, \
                 soldier",
                Topic::Output,
                Listed,
            ));
        }
    }
    out
}
