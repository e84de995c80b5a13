//! The kind of a failure, so that two failures of one program can be told apart: the
//! verdict, and for a wrong answer at its first differing line, which answer of the line
//! differs, the judge's rule for that command and the piece it concerns. Two failures of
//! one kind are taken for one mistake, which one fix mends: `stress` reports one of each
//! kind it finds, and shrinks a failure only to cases that fail the same way.

use crate::judge::board::Board;
use crate::judge::game::{Game, Invalid, Verdict};
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules::{self, PathError};
use crate::judge::scan::Cmd;
use crate::show::compare::{Difference, Line};
use crate::show::diagnose::Kind;
use crate::show::explain;
use std::fmt;

/// What a wrong output line gets wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    /// A legal move called invalid.
    CalledInvalid,
    /// An invalid command answered as a move.
    CalledValid,
    /// The moved piece's name.
    MovedPiece,
    /// The captured piece's name (or `NA`).
    CapturedPiece,
    /// Check answered `no` where the position is check.
    MissedCheck,
    /// Check answered `yes` where the position is not check.
    FalseCheck,
    /// Game over answered wrongly.
    GameOver,
    /// A line that is no judge line (or one past the answer's end), or that differs
    /// some other way.
    Format,
    /// The output ends before this line.
    Missing,
}

/// The judge's rule for the command, as a kind: a legal move, or why it is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// A legal move.
    Legal,
    /// Refused: the game is over.
    GameOver,
    /// Refused: a square is off the board.
    OffBoard,
    /// Refused: no piece on the source square.
    NoPiece,
    /// Refused: the piece is the other side's.
    OpponentPiece,
    /// Refused: the piece does not move that way.
    NotThatWay,
    /// Refused: the target holds a piece of the mover's side.
    OwnPiece,
    /// Refused: a square on the way is taken.
    Blocked,
}

/// The kind of a failure. Ordered, so that a set of them lists alike on every run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fault {
    /// The verdict.
    pub kind: KindKey,
    /// For a wrong answer: the answer that differs.
    pub field: Option<Field>,
    /// For a wrong answer on a command the judge reads: its rule.
    pub rule: Option<Rule>,
    /// The kinds of piece the difference may hinge on, one bit each in
    /// [`PieceKind::ALL`]'s order: the mover for its validity and names; for a missed
    /// check the attackers; for a false check the pieces whose way to a captain is
    /// blocked. Several where the case cannot tell which.
    pub pieces: u8,
    /// The kinds of piece named in words, one bit each: [`Fault::pieces`], and for a
    /// missed check the attackers, which do not tell one mistake from another (a
    /// program that looks for check only on one side misses checks by every kind).
    pub named: u8,
}

/// [`Kind`] as an ordered key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KindKey {
    /// Wrong answer.
    WrongAnswer,
    /// Runtime error.
    RuntimeError,
    /// Time limit.
    TimeLimit,
    /// Memory limit.
    MemoryLimit,
}

impl Fault {
    /// The kind of a failure that is not a wrong answer (`None` for an accepted run).
    pub fn of_verdict(kind: Kind) -> Option<Fault> {
        let key = match kind {
            Kind::Accepted => return None,
            Kind::WrongAnswer => KindKey::WrongAnswer,
            Kind::RuntimeError => KindKey::RuntimeError,
            Kind::TimeLimit => KindKey::TimeLimit,
            Kind::MemoryLimit => KindKey::MemoryLimit,
        };
        Some(Fault {
            kind: key,
            field: None,
            rule: None,
            pieces: 0,
            named: 0,
        })
    }

    /// The kind of a wrong answer to the commands `cmds` whose first difference is `d`.
    pub fn of_wrong_answer(cmds: &[Cmd], d: &Difference) -> Fault {
        let mut fault = Fault {
            kind: KindKey::WrongAnswer,
            field: None,
            rule: None,
            pieces: 0,
            named: 0,
        };
        let (expected, actual) = match (d.expected.first(), d.actual.first()) {
            (Some(e), Some(a)) => (e, a),
            (Some(_), None) => {
                return Fault {
                    field: Some(Field::Missing),
                    ..fault
                }
            }
            // A line past the answer's end: no judge line either.
            _ => {
                return Fault {
                    field: Some(Field::Format),
                    ..fault
                }
            }
        };
        let field = field_of(expected, actual);
        fault.field = Some(field);
        // A line that is no judge line is wrong whatever the command: a mistake of
        // format.
        let Some(&command) = cmds.get(d.line as usize).filter(|_| field != Field::Format) else {
            return fault;
        };
        let mut game = Game::new();
        for &[a, b, c, e] in &cmds[..d.line as usize] {
            let _ = game.play(a, b, c, e);
        }
        let verdict = game.play(command[0], command[1], command[2], command[3]);
        fault.rule = Some(rule_of(&verdict));
        fault.pieces = match field {
            Field::MissedCheck => 0,
            Field::FalseCheck => {
                kinds_where(game.board(), |board, kind, from, captain| {
                    matches!(
                        rules::check_path(board, kind, from, captain),
                        Err(PathError::Blocked(_))
                    )
                }) | facing(game.board())
            }
            Field::CapturedPiece => bits(
                verdict
                    .as_ref()
                    .ok()
                    .and_then(|m| m.captured.map(|p| p.kind)),
            ),
            Field::GameOver | Field::Format | Field::Missing => 0,
            Field::CalledInvalid | Field::CalledValid | Field::MovedPiece => bits(mover(&verdict)),
        };
        fault.named = match field {
            Field::MissedCheck => kinds_where(game.board(), |board, kind, from, captain| {
                rules::check_path(board, kind, from, captain).is_ok()
            }),
            _ => fault.pieces,
        };
        fault
    }

    /// Whether `other` is a failure of this kind: the same verdict, answer and rule,
    /// and a piece in common (or none named by either).
    pub fn same_kind(&self, other: &Fault) -> bool {
        self.kind == other.kind
            && self.field == other.field
            && self.rule == other.rule
            && (self.pieces & other.pieces != 0 || (self.pieces == 0 && other.pieces == 0))
    }

    /// The failure in words, its verdict first: "WA: a check missed (car)".
    pub fn words(&self) -> String {
        let kind = match self.kind {
            KindKey::WrongAnswer => "WA",
            KindKey::RuntimeError => "RE",
            KindKey::TimeLimit => "TLE",
            KindKey::MemoryLimit => "MLE",
        };
        match self.what() {
            Some(what) => format!("{kind}: {what}"),
            None => kind.to_string(),
        }
    }

    /// What a wrong answer gets wrong, in words: "a check missed (car)"; `None` for
    /// another verdict.
    pub fn what(&self) -> Option<String> {
        let field = self.field?;
        let what = match field {
            Field::CalledInvalid => "a legal move called invalid",
            Field::CalledValid => "an invalid command answered as a move",
            Field::MovedPiece => "the moved piece misnamed",
            Field::CapturedPiece => "the captured piece misnamed",
            Field::MissedCheck => "a check missed",
            Field::FalseCheck => "a check that is not there",
            Field::GameOver => "game over answered wrongly",
            Field::Format => "a line that is no judge line",
            Field::Missing => "a missing line",
        };
        let mut out = what.to_string();
        let rule = match self.rule {
            Some(Rule::GameOver) => Some("the game is over"),
            Some(Rule::OffBoard) => Some("a square off the board"),
            Some(Rule::NoPiece) => Some("no piece there"),
            Some(Rule::OpponentPiece) => Some("the other side's piece"),
            Some(Rule::NotThatWay) => Some("not the piece's way"),
            Some(Rule::OwnPiece) => Some("the target is the mover's own"),
            Some(Rule::Blocked) => Some("its way is blocked"),
            Some(Rule::Legal) | None => None,
        };
        let names: Vec<&str> = PieceKind::ALL
            .into_iter()
            .filter(|k| self.named & bits(Some(*k)) != 0)
            .map(PieceKind::name)
            .collect();
        let mut names = names;
        if self.named & FACING != 0 {
            names.push("the captains facing each other");
        }
        let piece = (!names.is_empty()).then(|| names.join(" or "));
        match (piece, rule) {
            (Some(p), Some(r)) => out.push_str(&format!(" ({p}: {r})")),
            (Some(p), None) => out.push_str(&format!(" ({p})")),
            (None, Some(r)) => out.push_str(&format!(" ({r})")),
            (None, None) => {}
        }
        Some(out)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words())
    }
}

fn rule_of(verdict: &Verdict) -> Rule {
    match verdict {
        Ok(_) => Rule::Legal,
        Err(Invalid::GameOver) => Rule::GameOver,
        Err(Invalid::SourceOffBoard | Invalid::TargetOffBoard) => Rule::OffBoard,
        Err(Invalid::NoPiece(_)) => Rule::NoPiece,
        Err(Invalid::OpponentPiece(..)) => Rule::OpponentPiece,
        Err(Invalid::NotThatWay(_)) => Rule::NotThatWay,
        Err(Invalid::OwnPiece(_)) => Rule::OwnPiece,
        Err(Invalid::Blocked(..)) => Rule::Blocked,
    }
}

/// The four answers of a judge line, trimmed; `None` for `Invalid command` or a line
/// that is no judge line.
fn answers(line: &Line) -> Option<Vec<String>> {
    let text = line.lossy();
    let parts: Vec<String> = text.split(';').map(|p| p.trim().to_string()).collect();
    (parts.len() == 4).then_some(parts)
}

fn is_invalid(line: &Line) -> bool {
    line.lossy().trim() == "Invalid command"
}

fn field_of(expected: &Line, actual: &Line) -> Field {
    match (answers(expected), answers(actual)) {
        (Some(_), _) if is_invalid(actual) => Field::CalledInvalid,
        (None, Some(_)) if is_invalid(expected) => Field::CalledValid,
        (Some(e), Some(a)) => {
            let differs = |i: usize| !e[i].eq_ignore_ascii_case(&a[i]);
            if differs(0) {
                Field::MovedPiece
            } else if differs(1) {
                Field::CapturedPiece
            } else if differs(2) {
                if e[2].eq_ignore_ascii_case("yes") {
                    Field::MissedCheck
                } else {
                    Field::FalseCheck
                }
            } else if differs(3) {
                Field::GameOver
            } else {
                Field::Format
            }
        }
        _ => Field::Format,
    }
}

/// The kind of the piece that moves, where the judge's rule for the command is the
/// piece's own (a legal move, or one refused by the piece's way); none where the
/// refusal holds whatever the piece (the game is over, a square off the board, no
/// piece, the other side's, a target of its own side).
fn mover(verdict: &Verdict) -> Option<PieceKind> {
    match verdict {
        Ok(m) => Some(m.piece.kind),
        Err(Invalid::NotThatWay(p) | Invalid::Blocked(p, _)) => Some(p.kind),
        Err(_) => None,
    }
}

/// The bit in [`Fault::pieces`] that stands for the two captains facing each other on
/// a clear column, which a program may take for check (there is no flying-captain
/// rule).
const FACING: u8 = 1 << 7;

/// [`FACING`] where the captains face each other on a clear column, else 0.
fn facing(board: &Board) -> u8 {
    if explain::captains_face(board) {
        FACING
    } else {
        0
    }
}

/// The bit of `kind` in [`Fault::pieces`] (none for no kind).
fn bits(kind: Option<PieceKind>) -> u8 {
    kind.map_or(0, |k| {
        1 << PieceKind::ALL
            .iter()
            .position(|&a| a == k)
            .expect("every kind is in ALL")
    })
}

/// The kinds of the pieces, of either side, for which `test` holds with the other
/// side's captain.
fn kinds_where(board: &Board, test: impl Fn(&Board, PieceKind, Square, Square) -> bool) -> u8 {
    let mut found = 0;
    for attacker in Color::ALL {
        let Some(captain) = board.captain(attacker.opponent()) else {
            continue;
        };
        for (from, piece) in board.pieces().filter(|(_, p)| p.color == attacker) {
            if test(board, piece.kind, from, captain) {
                found |= bits(Some(piece.kind));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fault of the output line `actual` for the last of `cmds`.
    fn fault(cmds: &[Cmd], actual: Option<&str>) -> Fault {
        let mut game = Game::new();
        let mut expected = String::new();
        for &[a, b, c, d] in cmds {
            expected = crate::judge::verdict_line(&game.play(a, b, c, d));
        }
        let d = Difference {
            line: cmds.len() as u64 - 1,
            expected: vec![Line::of(&expected)],
            actual: actual.map(Line::of).into_iter().collect(),
        };
        Fault::of_wrong_answer(cmds, &d)
    }

    #[test]
    fn each_answer_of_a_line_is_told_apart_with_its_rule_and_piece() {
        let car = bits(Some(PieceKind::Car));
        let horse = bits(Some(PieceKind::Horse));
        let wa = |field, rule, pieces| Fault {
            kind: KindKey::WrongAnswer,
            field: Some(field),
            rule,
            pieces,
            named: pieces,
        };
        for (cmds, actual, want) in [
            // A legal car move called invalid.
            (
                &[[0, 0, 1, 0]][..],
                Some("Invalid command"),
                wa(Field::CalledInvalid, Some(Rule::Legal), car),
            ),
            // A car blocked by the duck on its way, answered as a move.
            (
                &[[0, 0, 4, 0]],
                Some("red car;NA;no;no"),
                wa(Field::CalledValid, Some(Rule::Blocked), car),
            ),
            // Onto its own piece: a rule of every piece.
            (
                &[[0, 0, 3, 0]],
                Some("red car;NA;no;no"),
                wa(Field::CalledValid, Some(Rule::OwnPiece), 0),
            ),
            // Off the board: no piece's rule.
            (
                &[[0, 0, -1, 0]],
                Some("red car;NA;no;no"),
                wa(Field::CalledValid, Some(Rule::OffBoard), 0),
            ),
            (
                &[[0, 1, 2, 2]],
                Some("red car;NA;no;no"),
                wa(Field::MovedPiece, Some(Rule::Legal), horse),
            ),
            (
                &[[0, 1, 2, 2]],
                Some("red horse;NA;no;yes"),
                wa(Field::GameOver, Some(Rule::Legal), 0),
            ),
            // Not a judge line: a mistake of format, whatever the command.
            (
                &[[0, 1, 2, 2]],
                Some("red horse NA no no"),
                wa(Field::Format, None, 0),
            ),
            (&[[0, 1, 2, 2]], None, wa(Field::Missing, None, 0)),
        ] {
            assert_eq!(fault(cmds, actual), want, "{cmds:?} {actual:?}");
        }
    }

    #[test]
    fn a_false_check_names_the_pieces_whose_way_is_blocked_and_facing_captains() {
        use crate::judge::piece::Piece;
        let at = |x, y| Square::new(x, y).expect("on the board");
        let mut board = Board::empty();
        let put = |board: &mut Board, x, y, color, kind| {
            board.put(at(x, y), Some(Piece { color, kind }));
        };
        put(&mut board, 0, 4, Color::Red, PieceKind::Captain);
        put(&mut board, 9, 4, Color::Blue, PieceKind::Captain);
        // A red horse two rows from the blue captain, its leg taken.
        put(&mut board, 7, 3, Color::Red, PieceKind::Horse);
        put(&mut board, 8, 3, Color::Blue, PieceKind::Soldier);
        let blocked = kinds_where(&board, |board, kind, from, captain| {
            matches!(
                rules::check_path(board, kind, from, captain),
                Err(PathError::Blocked(_))
            )
        });
        assert_eq!(blocked, bits(Some(PieceKind::Horse)));
        assert_eq!(facing(&board), FACING, "nothing between the captains");
        put(&mut board, 5, 4, Color::Blue, PieceKind::Soldier);
        assert_eq!(facing(&board), 0, "a soldier between them");
    }

    #[test]
    fn kinds_are_the_same_where_a_piece_is_shared() {
        let f = |pieces| Fault {
            kind: KindKey::WrongAnswer,
            field: Some(Field::FalseCheck),
            rule: Some(Rule::Legal),
            pieces,
            named: pieces,
        };
        let (horse, duck) = (bits(Some(PieceKind::Horse)), bits(Some(PieceKind::Duck)));
        assert!(f(horse | duck).same_kind(&f(duck)));
        assert!(!f(horse).same_kind(&f(duck)));
        assert!(f(0).same_kind(&f(0)));
        assert!(!f(0).same_kind(&f(horse)));
        let other = Fault {
            field: Some(Field::MissedCheck),
            ..f(horse)
        };
        assert!(!other.same_kind(&f(horse)), "another answer");
        assert_eq!(
            f(horse | FACING).words(),
            "WA: a check that is not there (horse or the captains facing each other)"
        );
    }
}
