//! The board: where the pieces stand, whose move it is, whether the game is over, and the
//! text notation of SPEC section 6 (parse and print).
//!
//! The board knows nothing about how pieces move (that is `rules`); it only stores and
//! edits placements. On the judge path: Rust 1.63 only.

use super::piece::{Color, Piece, PieceKind, Square, COLS, ROWS, SQUARE_SLOTS};
use std::fmt;
use std::str::FromStr;

/// The notation of the start position.
pub const START_NOTATION: &str = "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r";

/// A position: the placement and the side to move.
///
/// Besides the square array, the board keeps one 90-bit mask per side and kind (bit
/// [`Square::bit`]), so attack detection can find candidate attackers with a few ANDs;
/// a captain's square is the one bit of its mask.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    squares: [Option<Piece>; SQUARE_SLOTS],
    masks: [[u128; 7]; 2],
    side: Color,
}

impl Board {
    /// A board with no pieces at all and red to move (a finished game; used to build positions).
    pub fn empty() -> Board {
        Board {
            squares: [None; SQUARE_SLOTS],
            masks: [[0; 7]; 2],
            side: Color::Red,
        }
    }

    /// The start position of SPEC section 1, red to move.
    pub fn start() -> Board {
        use self::PieceKind::*;
        const BACK: [PieceKind; 9] = [
            Car, Horse, Elephant, Guard, Captain, Guard, Elephant, Horse, Car,
        ];
        let mut board = Board::empty();
        for color in Color::ALL {
            // Blue's rows mirror red's: row r for red is row 9 - r for blue.
            let row = |r: i64| if color == Color::Red { r } else { 9 - r };
            for (y, &kind) in BACK.iter().enumerate() {
                board.put(sq(row(0), y as i64), Some(Piece::new(color, kind)));
            }
            for y in [0, 8] {
                board.put(sq(row(2), y), Some(Piece::new(color, Duck)));
            }
            for y in [0, 2, 4, 6, 8] {
                board.put(sq(row(3), y), Some(Piece::new(color, Soldier)));
            }
        }
        board
    }

    /// The piece on `square`, if any.
    #[inline]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.squares[square.index()]
    }

    /// Whether `square` is empty.
    #[inline]
    pub fn is_empty(&self, square: Square) -> bool {
        self.squares[square.index()].is_none()
    }

    /// The squares of `color`'s pieces of `kind`, as a mask of [`Square::bit`]s.
    #[inline]
    pub fn mask(&self, color: Color, kind: PieceKind) -> u128 {
        self.masks[color.index()][kind.index()]
    }

    #[inline]
    fn toggle(&mut self, square: Square, piece: Piece) {
        self.masks[piece.color.index()][piece.kind.index()] ^= 1u128 << square.bit();
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
    }

    /// Where `color`'s captain stands, or `None` once it has been captured.
    #[inline]
    pub fn captain(&self, color: Color) -> Option<Square> {
        match self.mask(color, PieceKind::Captain) {
            0 => None,
            mask => Some(Square::from_bit(mask.trailing_zeros())),
        }
    }

    /// Whether the game is over: a captain is missing.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.mask(Color::Red, PieceKind::Captain) == 0
            || self.mask(Color::Blue, PieceKind::Captain) == 0
    }

    /// The side whose captain still stands once the game is over; `None` while it goes on
    /// (and on a board with no captain at all).
    pub fn winner(&self) -> Option<Color> {
        match (self.captain(Color::Red), self.captain(Color::Blue)) {
            (Some(_), None) => Some(Color::Red),
            (None, Some(_)) => Some(Color::Blue),
            _ => None,
        }
    }

    /// Puts `piece` on `square` (or clears it). Nothing stops a second captain of one
    /// side here (then [`Board::captain`] names the lower square); notation parsing
    /// rejects such positions.
    pub fn put(&mut self, square: Square, piece: Option<Piece>) {
        if let Some(old) = self.squares[square.index()] {
            self.toggle(square, old);
        }
        if let Some(new) = piece {
            self.toggle(square, new);
        }
        self.squares[square.index()] = piece;
    }

    /// Moves the piece on `from` to `to`, capturing whatever stands there, and passes the
    /// turn. Does not check the rules (see `rules`); returns the captured piece.
    #[inline]
    pub fn make_move(&mut self, from: Square, to: Square) -> Option<Piece> {
        let moving = self.squares[from.index()];
        let captured = self.squares[to.index()];
        if let Some(c) = captured {
            self.toggle(to, c);
        }
        if let Some(m) = moving {
            self.toggle(from, m);
            self.toggle(to, m);
        }
        self.squares[to.index()] = moving;
        self.squares[from.index()] = None;
        self.side = self.side.opponent();
        captured
    }

    /// Takes back `make_move(from, to)` that captured `captured`.
    #[inline]
    pub fn unmake_move(&mut self, from: Square, to: Square, captured: Option<Piece>) {
        let moved = self.squares[to.index()];
        if let Some(m) = moved {
            self.toggle(to, m);
            self.toggle(from, m);
        }
        if let Some(c) = captured {
            self.toggle(to, c);
        }
        self.squares[from.index()] = moved;
        self.squares[to.index()] = captured;
        self.side = self.side.opponent();
    }

    /// Every piece with its square, row by row from `(0, 0)`.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(move |s| self.piece_at(s).map(|p| (s, p)))
    }
}

fn sq(x: i64, y: i64) -> Square {
    match Square::new(x, y) {
        Some(s) => s,
        None => unreachable!("start-position square ({}, {}) is on the board", x, y),
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::start()
    }
}

impl fmt::Display for Board {
    /// The position notation of SPEC section 6.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for x in (0..ROWS).rev() {
            let mut gap = 0;
            for y in 0..COLS {
                match self.piece_at(sq(x as i64, y as i64)) {
                    None => gap += 1,
                    Some(p) => {
                        if gap > 0 {
                            write!(f, "{gap}")?;
                            gap = 0;
                        }
                        write!(f, "{}", p.letter())?;
                    }
                }
            }
            if gap > 0 {
                write!(f, "{gap}")?;
            }
            if x > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.side.letter())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

/// Why a position string does not parse. Ranks count from 1 at the left of the string
/// (rank 1 is row 9); a column is a character's position within its rank, from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The string is empty (or only blanks).
    Empty,
    /// A character that is neither a piece letter, a digit 1-9, nor `/`.
    BadCharacter {
        rank: usize,
        column: usize,
        found: char,
    },
    /// A rank describes more than 9 squares.
    RankTooLong { rank: usize },
    /// A rank describes fewer than 9 squares.
    RankTooShort { rank: usize, squares: usize },
    /// Not exactly 10 ranks.
    RankCount { found: usize },
    /// No side to move after the ranks.
    MissingSide,
    /// The side to move is not `r` or `b`.
    BadSide { found: String },
    /// Text after the side to move.
    TrailingText { found: String },
    /// A side has two captains, which no game can reach.
    TwoCaptains { color: Color },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |rank: usize| ROWS as usize - rank;
        match self {
            NotationError::Empty => write!(f, "empty position"),
            NotationError::BadCharacter {
                rank,
                column,
                found,
            } => write!(
                f,
                "rank {rank} (row {}), column {column}: unexpected character {:?}; expected a piece letter (KGEHRDS, lower case for blue), a digit 1-9 or '/'",
                row(*rank),
                found
            ),
            NotationError::RankTooLong { rank } => write!(
                f,
                "rank {rank} (row {}): more than {COLS} squares",
                row(*rank)
            ),
            NotationError::RankTooShort { rank, squares } => write!(
                f,
                "rank {rank} (row {}): {squares} squares, expected {COLS}",
                row(*rank)
            ),
            NotationError::RankCount { found } => {
                write!(f, "{found} ranks, expected {ROWS} separated by '/'")
            }
            NotationError::MissingSide => {
                write!(f, "missing side to move: expected a space and 'r' or 'b'")
            }
            NotationError::BadSide { found } => {
                write!(f, "side to move: expected 'r' or 'b', found {found:?}")
            }
            NotationError::TrailingText { found } => {
                write!(f, "unexpected text after the side to move: {found:?}")
            }
            NotationError::TwoCaptains { color } => write!(f, "{color} has two captains"),
        }
    }
}

impl std::error::Error for NotationError {}

impl FromStr for Board {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Board, NotationError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(NotationError::Empty);
        }
        let mut parts = text.split_whitespace();
        let placement = parts.next().unwrap_or("");
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != ROWS as usize {
            return Err(NotationError::RankCount { found: ranks.len() });
        }
        let mut board = Board::empty();
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = i + 1;
            let x = (ROWS as usize - rank) as i64;
            let mut y = 0usize;
            for (j, c) in rank_text.chars().enumerate() {
                let (piece, width) = match c {
                    '1'..='9' => (None, c as usize - '0' as usize),
                    _ => match Piece::from_letter(c) {
                        Some(p) => (Some(p), 1),
                        None => {
                            return Err(NotationError::BadCharacter {
                                rank,
                                column: j + 1,
                                found: c,
                            })
                        }
                    },
                };
                if y + width > COLS as usize {
                    return Err(NotationError::RankTooLong { rank });
                }
                if let Some(p) = piece {
                    if p.kind == PieceKind::Captain && board.captain(p.color).is_some() {
                        return Err(NotationError::TwoCaptains { color: p.color });
                    }
                    board.put(sq(x, y as i64), Some(p));
                }
                y += width;
            }
            if y < COLS as usize {
                return Err(NotationError::RankTooShort { rank, squares: y });
            }
        }
        let side = match parts.next() {
            None => return Err(NotationError::MissingSide),
            Some("r") => Color::Red,
            Some("b") => Color::Blue,
            Some(other) => {
                return Err(NotationError::BadSide {
                    found: other.to_string(),
                })
            }
        };
        if let Some(extra) = parts.next() {
            return Err(NotationError::TrailingText {
                found: extra.to_string(),
            });
        }
        board.side = side;
        Ok(board)
    }
}
