//! The notation UCI engines speak for this game, as Fairy-Stockfish writes it for a
//! 9 x 10 variant: squares `a1`..`i10` (file `a`-`i` is the column `y` 0-8, rank 1-10
//! is the row `x` 0-9), moves as two squares (`e4e5`), and positions as a FEN whose
//! side to move is `w` (red) or `b` (blue), optionally followed by the castling,
//! en-passant, half-move and full-move fields. The SPEC section 6 notation (`r`/`b`)
//! is read too.

use crate::judge::board::{Board, NotationError};
use crate::judge::piece::{Color, Square, COLS, ROWS};
use crate::judge::rules::Move;
use std::fmt;

/// A square in UCI form, e.g. `e4` for `(3, 4)` and `a10` for `(9, 0)`.
pub fn square_name(s: Square) -> String {
    format!("{}{}", (b'a' + s.y()) as char, s.x() + 1)
}

/// A move in UCI form, e.g. `e4e5`.
pub fn move_name(m: Move) -> String {
    format!("{}{}", square_name(m.from), square_name(m.to))
}

/// Why a move in UCI form does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove(pub String);

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a move: expected two squares a1..i10, e.g. e4e5",
            self.0
        )
    }
}

impl std::error::Error for BadMove {}

/// Reads a square at the start of `text`: the square and the rest of the text.
fn read_square(text: &str) -> Option<(Square, &str)> {
    let bytes = text.as_bytes();
    let file = *bytes.first()?;
    if !(b'a'..b'a' + COLS).contains(&file) {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || bytes[1] == b'0' {
        return None;
    }
    let rank: u8 = text[1..1 + digits].parse().ok()?;
    if !(1..=ROWS).contains(&rank) {
        return None;
    }
    let square = Square::new(i64::from(rank) - 1, i64::from(file - b'a'))?;
    Some((square, &text[1 + digits..]))
}

/// Reads a move in UCI form (`e4e5`, `a10a9`). Whether it is legal is not looked at.
pub fn parse_move(text: &str) -> Result<Move, BadMove> {
    let bad = || BadMove(text.to_string());
    let (from, rest) = read_square(text).ok_or_else(bad)?;
    let (to, rest) = read_square(rest).ok_or_else(bad)?;
    if !rest.is_empty() {
        return Err(bad());
    }
    Ok(Move { from, to })
}

/// Why a FEN does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadFen {
    /// The placement or side is wrong (as the position notation says).
    Notation(NotationError),
    /// One of the optional fields after the side to move is wrong.
    Field { name: &'static str, found: String },
}

impl fmt::Display for BadFen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadFen::Notation(e) => write!(f, "{e}"),
            BadFen::Field { name, found } => write!(f, "{name}: unexpected {found:?}"),
        }
    }
}

impl std::error::Error for BadFen {}

/// A position read from a FEN, with the number of moves the game had already seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fen {
    /// The position.
    pub board: Board,
    /// Moves played before it (both sides), from the full-move number: 0 without one.
    pub moves_played: u32,
}

/// Reads a FEN: placement, side to move (`w`, `r` or `b`), then optionally castling
/// (`-`), en passant (`-`), the half-move clock and the full-move number.
pub fn parse_fen(text: &str) -> Result<Fen, BadFen> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let side = match fields.get(1).copied() {
        Some("w") => Some("r"),
        other => other,
    };
    let notation = match side {
        Some(s) => format!("{} {s}", fields[0]),
        None => fields.first().copied().unwrap_or("").to_string(),
    };
    let board: Board = notation.parse().map_err(BadFen::Notation)?;
    let rest = fields.get(2..).unwrap_or(&[]);
    let names = [
        "castling",
        "en passant",
        "half-move clock",
        "full-move number",
    ];
    let mut full_move = 1u32;
    for (i, field) in rest.iter().enumerate() {
        let bad = |name: &'static str| BadFen::Field {
            name,
            found: field.to_string(),
        };
        match i {
            0 | 1 if *field == "-" => {}
            2 if field.parse::<u32>().is_ok() => {}
            3 => match field.parse::<u32>() {
                Ok(n) if n <= 10_000 => full_move = n.max(1),
                _ => return Err(bad(names[3])),
            },
            0..=3 => return Err(bad(names[i])),
            _ => return Err(bad("end")),
        }
    }
    let blue = u32::from(board.side_to_move() == Color::Blue);
    Ok(Fen {
        moves_played: (full_move - 1) * 2 + blue,
        board,
    })
}

/// The FEN of `board` as Fairy-Stockfish writes it (`w`/`b`, then `- - 0 1`).
pub fn fen(board: &Board) -> String {
    let text = board.to_string();
    let (placement, side) = text.split_at(text.len() - 1);
    let side = if side == "r" { "w" } else { "b" };
    format!("{placement}{side} - - 0 1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_moves_read_back() {
        for s in Square::all() {
            let m = Move { from: s, to: s };
            assert_eq!(parse_move(&move_name(m)), Ok(m));
        }
        let corner = Square::new(9, 0).unwrap();
        assert_eq!(square_name(corner), "a10");
        assert_eq!(square_name(Square::new(0, 8).unwrap()), "i1");
    }

    #[test]
    fn bad_moves_are_refused() {
        for text in [
            "", "e4", "e4e", "j1a1", "a0a1", "a11a1", "a1a1x", "e04e5", "E4E5",
        ] {
            assert!(parse_move(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn fens_in_both_forms() {
        let start = "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR";
        for text in [
            format!("{start} w"),
            format!("{start} r"),
            format!("{start} w - - 0 1"),
        ] {
            let f = parse_fen(&text).unwrap();
            assert_eq!(f.board, Board::start());
            assert_eq!(f.moves_played, 0);
        }
        let f = parse_fen(&format!("{start} b - - 3 12")).unwrap();
        assert_eq!(f.moves_played, 23);
        assert_eq!(fen(&Board::start()), format!("{start} w - - 0 1"));
        for bad in [
            format!("{start} x"),
            format!("{start} w KQ - 0 1"),
            format!("{start} w - - 0 one"),
            format!("{start} w - - 0 1 extra"),
            "9/9 w".to_string(),
            String::new(),
        ] {
            assert!(parse_fen(&bad).is_err(), "{bad:?}");
        }
    }
}
