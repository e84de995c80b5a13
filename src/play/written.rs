//! A move as people type it: every notation the project prints reads back, so that a
//! move copied from any of its outputs can be played at `duckchess play`.
//!
//! - the judge's command `xs ys xt yt` (`0 1 2 2`): judge inputs, `trace`, `analyze`,
//!   `play`'s own lines and the board's move list; with commas and brackets as JSON
//!   writes it (`[0,1,2,2]`: the server's API, `analyze --json`);
//! - UCI's two squares (`b1c3`, also `b1 c3`): `uci`, `match` records and the engine's
//!   guide; the file `a`-`i` is the column y, the rank 1-10 the row x plus one;
//! - the sentence of `trace` and the board: `(0, 1) -> (2, 2)`;
//! - the four digits of a move in the board's address (`#moves=0122.9172`): `0122`.
//!
//! Each may follow the piece as `analyze` and `play` name it (`red horse 0 1 2 2`),
//! which the caller then holds to the piece on the square. The judge's form keeps any
//! integers (an off-board square is the judge's to refuse, with its reason); the other
//! forms name squares of the board only.

use crate::judge::piece::{Color, PieceKind, Square, COLS, ROWS};
use crate::judge::scan::Cmd;
use crate::play::notation;
use crate::play::saved::parse_int;
use std::fmt;

/// A move read from what a person typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// The command, as the judge reads it.
    pub command: Cmd,
    /// The piece the text named before the squares (`red horse`), if it named one.
    pub piece: Option<(Color, PieceKind)>,
}

/// Why a text is not a move; each says what to write instead, on one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadMove {
    /// Nothing of any notation.
    Unreadable(String),
    /// The judge's numbers and UCI's squares together: which was meant is anyone's
    /// guess.
    Mixed(String),
    /// Numbers of the judge's form, but not four of them.
    Count { text: String, found: usize },
    /// A square in UCI's form off the board (`j1`, `a11`).
    Square(String),
    /// `(x, y) -> (x, y)` with something else than two coordinates on a side.
    Sentence(String),
    /// A side, then no kind of piece (`red hors 0 1 2 2`).
    Piece(String),
}

/// What every message ends with: the forms that read.
const FORMS: &str = "write 0 1 2 2 (as the judge), b1c3 (as UCI) or (0, 1) -> (2, 2)";

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadMove::Unreadable(text) => write!(f, "cannot read {text:?} as a move: {FORMS}"),
            BadMove::Mixed(text) => write!(
                f,
                "{text:?} mixes the judge's numbers and UCI's squares: write both squares \
                 one way, 0 1 2 2 or b1c3"
            ),
            BadMove::Count { text, found } => write!(
                f,
                "{text:?} has {found} number{}, and a move has four: xs ys xt yt, as 0 1 2 2",
                if *found == 1 { "" } else { "s" }
            ),
            BadMove::Square(word) => write!(
                f,
                "{word:?} is not a square: the files are a to i and the ranks 1 to 10, as in b1c3"
            ),
            BadMove::Sentence(text) => write!(
                f,
                "cannot read {text:?}: expected two squares (x, y), as (0, 1) -> (2, 2)"
            ),
            BadMove::Piece(word) => {
                let kinds: Vec<&str> = PieceKind::ALL.iter().map(|k| k.name()).collect();
                write!(
                    f,
                    "{word:?} is no piece: after red or blue comes {}, as in red horse 0 1 2 2",
                    kinds.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for BadMove {}

/// Reads a move in any notation the project prints, after an optional piece.
pub fn read(text: &str) -> Result<Written, BadMove> {
    let text = text.trim();
    let (piece, rest) = split_piece(text)?;
    let command = read_squares(rest).map_err(|e| match e {
        // The message quotes what was typed, the piece included.
        BadMove::Unreadable(_) => BadMove::Unreadable(text.to_string()),
        BadMove::Mixed(_) => BadMove::Mixed(text.to_string()),
        BadMove::Count { found, .. } => BadMove::Count {
            text: text.to_string(),
            found,
        },
        other => other,
    })?;
    Ok(Written { command, piece })
}

/// A square in UCI's form alone (`b1`), as `moves` and the selection take it.
pub fn read_square(word: &str) -> Option<Square> {
    let lower = word.to_ascii_lowercase();
    match notation::parse_move(&format!("{lower}{lower}")) {
        Ok(m) => Some(m.from),
        Err(_) => None,
    }
}

/// Whether `text` is meant as a move (its first word starts one of the notations), so
/// that an unreadable one gets the move's message rather than "unknown command".
pub fn looks_like_a_move(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    let mut chars = first.chars();
    match (chars.next(), chars.next()) {
        (Some(c), _) if c.is_ascii_digit() || "+-([".contains(c) => true,
        (Some(c), Some(d)) => {
            (c.is_ascii_alphabetic() && d.is_ascii_digit()) || first == "red" || first == "blue"
        }
        _ => false,
    }
}

/// The piece in front and the squares after it.
type Split<'a> = (Option<(Color, PieceKind)>, &'a str);

/// `red horse 0 1 2 2` into the piece and `0 1 2 2`; text without a side in front is
/// all squares.
fn split_piece(text: &str) -> Result<Split<'_>, BadMove> {
    let mut words = text.splitn(3, char::is_whitespace);
    let (side, name) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let Some(color) = Color::ALL.into_iter().find(|c| c.to_string() == side) else {
        return Ok((None, text));
    };
    let Some(kind) = PieceKind::ALL.into_iter().find(|k| k.name() == name) else {
        return Err(BadMove::Piece(name.to_string()));
    };
    Ok((Some((color, kind)), words.next().unwrap_or("").trim()))
}

/// The squares of a move, in whichever notation they are written.
fn read_squares(text: &str) -> Result<Cmd, BadMove> {
    if text.contains("->") {
        return read_sentence(text);
    }
    let numbers_only = text
        .chars()
        .all(|c| c.is_ascii_digit() || c.is_whitespace() || "+-,[]".contains(c));
    if numbers_only {
        return read_numbers(text);
    }
    read_uci(text)
}

/// `0 1 2 2`, `[0,1,2,2]` or the four digits `0122`.
fn read_numbers(text: &str) -> Result<Cmd, BadMove> {
    let inner = match text.strip_prefix('[') {
        Some(rest) => rest
            .strip_suffix(']')
            .ok_or_else(|| BadMove::Unreadable(text.to_string()))?,
        None => text,
    };
    if inner.contains(['[', ']']) {
        return Err(BadMove::Unreadable(text.to_string()));
    }
    let words: Vec<&str> = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if let [packed] = words[..] {
        if packed.len() == 4 && packed.bytes().all(|b| b.is_ascii_digit()) {
            let mut command = [0i64; 4];
            for (slot, digit) in command.iter_mut().zip(packed.bytes()) {
                *slot = i64::from(digit - b'0');
            }
            return Ok(command);
        }
    }
    if words.len() != 4 {
        return Err(BadMove::Count {
            text: text.to_string(),
            found: words.len(),
        });
    }
    let mut command = [0i64; 4];
    for (slot, word) in command.iter_mut().zip(&words) {
        *slot = parse_int(word).ok_or_else(|| BadMove::Unreadable(text.to_string()))?;
    }
    Ok(command)
}

/// `(0, 1) -> (2, 2)`.
fn read_sentence(text: &str) -> Result<Cmd, BadMove> {
    let bad = || BadMove::Sentence(text.to_string());
    let (from, to) = text.split_once("->").ok_or_else(bad)?;
    let mut command = [0i64; 4];
    for (i, side) in [from, to].iter().enumerate() {
        let inner = side
            .trim()
            .strip_prefix('(')
            .and_then(|s| s.strip_suffix(')'))
            .ok_or_else(bad)?;
        let (x, y) = inner.split_once(',').ok_or_else(bad)?;
        command[2 * i] = parse_int(x.trim()).ok_or_else(bad)?;
        command[2 * i + 1] = parse_int(y.trim()).ok_or_else(bad)?;
    }
    Ok(command)
}

/// `b1c3` or `b1 c3`, in either case.
fn read_uci(text: &str) -> Result<Cmd, BadMove> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let square_like = |w: &str| {
        let mut chars = w.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.next().is_some_and(|c| c.is_ascii_digit())
    };
    if words.iter().any(|w| square_like(w)) && words.iter().any(|w| parse_int(w).is_some()) {
        return Err(BadMove::Mixed(text.to_string()));
    }
    let joined: String = words.concat().to_ascii_lowercase();
    if !joined.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(BadMove::Unreadable(text.to_string()));
    }
    match notation::parse_move(&joined) {
        Ok(m) => Ok([
            i64::from(m.from.x()),
            i64::from(m.from.y()),
            i64::from(m.to.x()),
            i64::from(m.to.y()),
        ]),
        Err(_) => Err(off_board_square(&words).unwrap_or(BadMove::Unreadable(text.to_string()))),
    }
}

/// The first word that has a square's shape (a letter, then digits) but is off the
/// board, as `j1` or `a11`; two squares written together are split first.
fn off_board_square(words: &[&str]) -> Option<BadMove> {
    for word in words {
        let lower = word.to_ascii_lowercase();
        let bytes = lower.as_bytes();
        // The second square of `e4e5` starts at the second letter.
        let split = bytes
            .iter()
            .skip(1)
            .position(u8::is_ascii_alphabetic)
            .map_or(bytes.len(), |p| p + 1);
        for part in [&lower[..split], &lower[split..]] {
            let b = part.as_bytes();
            let shaped =
                b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1..].iter().all(u8::is_ascii_digit);
            if !shaped {
                continue;
            }
            let file_ok = (b'a'..b'a' + COLS).contains(&b[0]);
            let rank_ok = part[1..]
                .parse::<u8>()
                .is_ok_and(|r| (1..=ROWS).contains(&r) && !part[1..].starts_with('0'));
            if !(file_ok && rank_ok) {
                return Some(BadMove::Square(part.to_string()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(text: &str) -> Cmd {
        read(text)
            .unwrap_or_else(|e| panic!("{text:?}: {e}"))
            .command
    }

    #[test]
    fn every_printed_notation_reads_as_the_same_move() {
        for text in [
            "0 1 2 2",
            "  0 1 2 2  ",
            "[0,1,2,2]",
            "[0, 1, 2, 2]",
            "0122",
            "b1c3",
            "B1C3",
            "b1 c3",
            "(0, 1) -> (2, 2)",
            "(0,1)->(2,2)",
            "red horse 0 1 2 2",
            "red horse b1c3",
            "red horse (0, 1) -> (2, 2)",
        ] {
            assert_eq!(command(text), [0, 1, 2, 2], "{text:?}");
        }
        assert_eq!(command("a10a9"), [9, 0, 8, 0]);
        assert_eq!(command("i10 i1"), [9, 8, 0, 8]);
        assert_eq!(command("9 4 8 4"), [9, 4, 8, 4]);
    }

    #[test]
    fn the_piece_named_in_front_is_kept_for_the_caller() {
        let w = read("blue elephant 9 2 7 4").unwrap();
        assert_eq!(w.piece, Some((Color::Blue, PieceKind::Elephant)));
        assert_eq!(w.command, [9, 2, 7, 4]);
        assert_eq!(read("0 1 2 2").unwrap().piece, None);
    }

    #[test]
    fn the_judges_form_keeps_any_integer_for_the_judge_to_refuse() {
        assert_eq!(command("10 0 -1 +3"), [10, 0, -1, 3]);
        assert_eq!(command("99999999999999999999 0 0 0")[0], i64::MAX);
    }

    #[test]
    fn what_is_not_a_move_says_what_to_write_on_one_line() {
        for (text, starts) in [
            (
                "0 1 c3",
                "\"0 1 c3\" mixes the judge's numbers and UCI's squares",
            ),
            ("b1 2 2", "\"b1 2 2\" mixes the judge's numbers"),
            ("0 1 2", "\"0 1 2\" has 3 numbers, and a move has four"),
            ("0 1 2 2 3", "\"0 1 2 2 3\" has 5 numbers"),
            ("012", "\"012\" has 1 number"),
            ("j1a1", "\"j1\" is not a square: the files are a to i"),
            ("a11a1", "\"a11\" is not a square"),
            ("a0a1", "\"a0\" is not a square"),
            ("e4", "cannot read \"e4\" as a move"),
            ("e4e5x", "cannot read \"e4e5x\" as a move"),
            ("[0,1,2,2", "cannot read \"[0,1,2,2\" as a move"),
            (
                "(0, 1) -> 2 2",
                "cannot read \"(0, 1) -> 2 2\": expected two squares",
            ),
            ("(0, 1, 3) -> (2, 2)", "cannot read \"(0, 1, 3) -> (2, 2)\""),
            ("red horse 0 1", "\"red horse 0 1\" has 2 numbers"),
            ("red horse", "\"red horse\" has 0 numbers"),
            (
                "blue hors 9 7 7 6",
                "\"hors\" is no piece: after red or blue comes captain, ",
            ),
            ("z9a1", "\"z9\" is not a square"),
            ("e4-e5", "cannot read \"e4-e5\" as a move"),
        ] {
            let message = read(text)
                .map(|w| format!("{w:?}"))
                .unwrap_or_else(|e| e.to_string());
            assert!(message.starts_with(starts), "{text:?}: {message}");
            assert!(!message.contains('\n'), "{message}");
        }
    }

    #[test]
    fn single_squares_and_the_look_of_a_move() {
        assert_eq!(read_square("b1"), Square::new(0, 1));
        assert_eq!(read_square("I10"), Square::new(9, 8));
        for bad in ["j1", "a0", "a11", "b", "1", "b1c3"] {
            assert_eq!(read_square(bad), None, "{bad}");
        }
        for text in [
            "0 1 2 2",
            "-1 0 0 0",
            "b1c3",
            "(0, 1) -> (2, 2)",
            "[0,1,2,2]",
            "red horse 0 1 2 2",
        ] {
            assert!(looks_like_a_move(text), "{text}");
        }
        for text in ["hello", "quit", "", "history", "board"] {
            assert!(!looks_like_a_move(text), "{text}");
        }
    }
}
