//! The question of `duckchess chase`: its input (`n r1 c1 r2 c2`, streamed), its
//! checks, its answer, and what can be wrong with it.

use std::error::Error;
use std::fmt;
use std::io::{self, BufRead, Read};

/// The smallest supported board size.
pub const MIN_N: u32 = 2;

/// The largest supported board size (the contest only needs 20).
pub const MAX_N: u32 = 100;

/// The result of a position under perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// White captures; the number counts the moves of both players up to and including it.
    White(u32),
    /// Black captures; the number counts the moves of both players up to and including it.
    Black(u32),
    /// Neither side can force a capture.
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::White(k) => write!(f, "WHITE {k}"),
            Outcome::Black(k) => write!(f, "BLACK {k}"),
            Outcome::Draw => write!(f, "DRAW"),
        }
    }
}

/// One of the two pieces, used to say which piece an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// The piece of player A, who moves first.
    White,
    /// The piece of player B.
    Black,
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Piece::White => "white",
            Piece::Black => "black",
        })
    }
}

/// The names of the five input numbers, in order.
const NAMES: [&str; 5] = ["n", "r1", "c1", "r2", "c2"];

/// How much of a token a message shows.
const SHOWN: usize = 32;

/// Everything that can be wrong with a query or its input text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChaseError {
    /// The input ended before the five integers `n r1 c1 r2 c2`.
    MissingNumbers {
        /// How many integers were present.
        found: usize,
    },
    /// A token is not an integer.
    NotAnInteger {
        /// 1-based number of the token in the input.
        position: usize,
        /// The start of the offending token.
        token: String,
    },
    /// A token is an integer too large to be meaningful.
    IntegerOutOfRange {
        /// 1-based number of the token in the input.
        position: usize,
        /// The start of the offending token.
        token: String,
    },
    /// There is more input after the five integers.
    ExtraInput {
        /// 1-based number of the first extra token.
        position: usize,
        /// The start of the first extra token.
        token: String,
    },
    /// `n` is below [`MIN_N`].
    BoardTooSmall {
        /// The requested board size.
        n: i64,
    },
    /// `n` is above [`MAX_N`].
    BoardTooLarge {
        /// The requested board size.
        n: i64,
    },
    /// A piece lies outside rows and columns `1..=n`.
    OffBoard {
        /// Which piece.
        piece: Piece,
        /// Its row as given.
        row: i64,
        /// Its column as given.
        col: i64,
        /// The board size.
        n: u32,
    },
    /// Both pieces were placed on one square.
    SameSquare {
        /// The shared row.
        row: u32,
        /// The shared column.
        col: u32,
    },
    /// Standard input could not be read.
    Io(String),
}

impl fmt::Display for ChaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |position: &usize| NAMES.get(position - 1).copied().unwrap_or("?");
        match self {
            ChaseError::MissingNumbers { found } => write!(
                f,
                "expected 5 integers 'n r1 c1 r2 c2', found end of input after {found}"
            ),
            ChaseError::NotAnInteger { position, token } => write!(
                f,
                "expected an integer ({}, token {position}), found \"{}\"",
                name(position),
                token.escape_debug()
            ),
            ChaseError::IntegerOutOfRange { position, token } => write!(
                f,
                "{} = {token} (token {position}) is too large for any board",
                name(position)
            ),
            ChaseError::ExtraInput { position, token } => write!(
                f,
                "expected end of input after 'n r1 c1 r2 c2', found \"{}\" (token {position})",
                token.escape_debug()
            ),
            ChaseError::BoardTooSmall { n } => {
                write!(f, "n = {n} is below the smallest board size, {MIN_N}")
            }
            ChaseError::BoardTooLarge { n } => {
                write!(f, "n = {n} is above the supported limit {MAX_N}")
            }
            ChaseError::OffBoard { piece, row, col, n } => write!(
                f,
                "the {piece} piece at ({row}, {col}) is off the {n} x {n} board \
                 (rows and columns 1..={n})"
            ),
            ChaseError::SameSquare { row, col } => {
                write!(f, "the white and black pieces are both at ({row}, {col})")
            }
            ChaseError::Io(msg) => write!(f, "cannot read the input: {msg}"),
        }
    }
}

impl Error for ChaseError {}

/// A validated question: board size and the two squares (1-based `(row, column)`), white to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Query {
    /// Board size.
    pub n: u32,
    /// White's square.
    pub white: (u32, u32),
    /// Black's square.
    pub black: (u32, u32),
}

/// One whitespace-separated token, streamed: its start (for messages), its length, and
/// its value when it is an integer that fits an `i64`.
struct Token {
    shown: Vec<u8>,
    length: usize,
    value: Option<i64>,
    integer: bool,
}

impl Token {
    fn text(&self) -> String {
        let more = if self.length > SHOWN { "..." } else { "" };
        format!("{}{more}", String::from_utf8_lossy(&self.shown))
    }
}

/// Reads the next token of `input` byte by byte through a buffer: memory stays flat
/// however long the token or the whitespace before it.
fn next_token<R: BufRead>(input: &mut R) -> Result<Option<Token>, ChaseError> {
    let io = |e: io::Error| ChaseError::Io(e.to_string());
    let mut token = Token {
        shown: Vec::new(),
        length: 0,
        value: Some(0),
        integer: true,
    };
    let mut negative = false;
    loop {
        let buf = input.fill_buf().map_err(io)?;
        if buf.is_empty() {
            break;
        }
        let mut used = 0;
        let mut ended = false;
        for &b in buf {
            if b.is_ascii_whitespace() || b == 0x0b {
                if token.length > 0 {
                    ended = true;
                    break;
                }
                used += 1;
                continue;
            }
            used += 1;
            if token.shown.len() < SHOWN {
                token.shown.push(b);
            }
            match b {
                b'+' | b'-' if token.length == 0 => negative = b == b'-',
                b'0'..=b'9' => {
                    token.value = token
                        .value
                        .and_then(|v| v.checked_mul(10))
                        .and_then(|v| v.checked_add(i64::from(b - b'0')));
                }
                _ => token.integer = false,
            }
            token.length += 1;
        }
        input.consume(used);
        if ended {
            break;
        }
    }
    if token.length == 0 {
        return Ok(None);
    }
    let digits = token.length - usize::from(matches!(token.shown[0], b'+' | b'-'));
    token.integer &= digits > 0;
    if negative {
        token.value = token.value.map(|v| -v);
    }
    Ok(Some(token))
}

/// Reads `n r1 c1 r2 c2` (whitespace-separated integers) from `input` and validates the
/// position. Only the five numbers and the start of a sixth token are read, through a
/// fixed buffer: memory is flat on any input.
pub fn read_query<R: Read>(input: R) -> Result<Query, ChaseError> {
    let mut input = io::BufReader::with_capacity(1 << 16, input);
    let mut values = [0i64; 5];
    for (i, value) in values.iter_mut().enumerate() {
        let position = i + 1;
        let token = next_token(&mut input)?.ok_or(ChaseError::MissingNumbers { found: i })?;
        *value = match (token.integer, token.value) {
            (true, Some(v)) => v,
            (true, None) => {
                return Err(ChaseError::IntegerOutOfRange {
                    position,
                    token: token.text(),
                })
            }
            (false, _) => {
                return Err(ChaseError::NotAnInteger {
                    position,
                    token: token.text(),
                })
            }
        };
    }
    if let Some(token) = next_token(&mut input)? {
        return Err(ChaseError::ExtraInput {
            position: 6,
            token: token.text(),
        });
    }
    let n = check_n(values[0])?;
    let white = check_square(Piece::White, values[1], values[2], n)?;
    let black = check_square(Piece::Black, values[3], values[4], n)?;
    check_distinct(white, black)?;
    Ok(Query { n, white, black })
}

/// [`read_query`] on a text.
pub fn parse_query(text: &str) -> Result<Query, ChaseError> {
    read_query(text.as_bytes())
}

pub(super) fn check_n(n: i64) -> Result<u32, ChaseError> {
    if n < i64::from(MIN_N) {
        Err(ChaseError::BoardTooSmall { n })
    } else if n > i64::from(MAX_N) {
        Err(ChaseError::BoardTooLarge { n })
    } else {
        // In range 2..=100 after the checks above, so the conversion cannot fail.
        u32::try_from(n).map_err(|_| ChaseError::BoardTooLarge { n })
    }
}

fn check_square(piece: Piece, row: i64, col: i64, n: u32) -> Result<(u32, u32), ChaseError> {
    let on = |v: i64| (1..=i64::from(n)).contains(&v);
    match (u32::try_from(row), u32::try_from(col)) {
        (Ok(r), Ok(c)) if on(row) && on(col) => Ok((r, c)),
        _ => Err(ChaseError::OffBoard { piece, row, col, n }),
    }
}

fn check_distinct(white: (u32, u32), black: (u32, u32)) -> Result<(), ChaseError> {
    if white == black {
        Err(ChaseError::SameSquare {
            row: white.0,
            col: white.1,
        })
    } else {
        Ok(())
    }
}

pub(super) fn check_query(
    n: u32,
    white: (u32, u32),
    black: (u32, u32),
) -> Result<Query, ChaseError> {
    let n = check_n(i64::from(n))?;
    let white = check_square(Piece::White, i64::from(white.0), i64::from(white.1), n)?;
    let black = check_square(Piece::Black, i64::from(black.0), i64::from(black.1), n)?;
    check_distinct(white, black)?;
    Ok(Query { n, white, black })
}
