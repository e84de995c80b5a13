//! The judge I/O: reads `Q` and `Q` commands as C's `scanf` would (any whitespace between
//! tokens), answers each command with one output line, byte for byte as the THUPC judge
//! expects, and reports bad input with its line and column.
//!
//! Memory does not grow with the input: the reader works in fixed-size chunks (a token may
//! straddle two of them) and keeps at most a short prefix of a token for error messages.
//! On the judge path: Rust 1.63 only.

use crate::game::{Game, Verdict};
use crate::piece::Piece;
use std::fmt;
use std::io::{self, Read, Write};

/// Bytes read from the input at a time.
const CHUNK: usize = 1 << 16;
/// How much of a bad token an error message shows.
const SHOWN: usize = 24;
/// Integers are clamped to this magnitude while parsing: far off the board either way,
/// and no overflow however many digits a token has.
const CLAMP: i64 = 1 << 40;

/// Where a token starts, 1-based. Columns count bytes, which equals characters here:
/// everything before a token on its line is ASCII, or it would have been the bad token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Line number, from 1.
    pub line: u64,
    /// Column number, from 1.
    pub column: u64,
}

/// What the reader wanted when it met bad input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The command count `Q`.
    Count,
    /// Coordinate `field` (0..4: xs, ys, xt, yt) of command `index` (1-based) of `total`.
    Coordinate { index: u64, total: u64, field: u8 },
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Expected::Count => write!(f, "a non-negative integer (the number of commands Q)"),
            Expected::Coordinate {
                index,
                total,
                field,
            } => {
                let name = ["xs", "ys", "xt", "yt"][field as usize & 3];
                write!(f, "an integer ({name} of command {index} of {total})")
            }
        }
    }
}

/// What the reader found instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// The input ended.
    EndOfInput,
    /// A token that is not the expected integer; `text` is at most a short prefix of it.
    Token {
        /// The start of the token (lossy UTF-8).
        text: String,
        /// Whether the token was longer than `text`.
        truncated: bool,
    },
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::EndOfInput => f.write_str("end of input"),
            Found::Token { text, truncated } => {
                write!(f, "\"{}", text.escape_debug())?;
                if *truncated {
                    f.write_str("...")?;
                }
                f.write_str("\"")
            }
        }
    }
}

/// Input that breaks the judge format: where, what was expected, what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Where the bad token starts (or where the input ended).
    pub at: Position,
    /// What the reader wanted.
    pub expected: Expected,
    /// What it got.
    pub found: Found,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: expected {}, found {}",
            self.at.line, self.at.column, self.expected, self.found
        )
    }
}

impl std::error::Error for InputError {}

/// Why a judge run stopped early.
#[derive(Debug)]
pub enum JudgeError {
    /// The input broke the format; every earlier command was answered.
    Input(InputError),
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the output failed (a closed pipe among others).
    Write(io::Error),
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::Input(e) => write!(f, "{e}"),
            JudgeError::Read(e) => write!(f, "cannot read the input: {e}"),
            JudgeError::Write(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl std::error::Error for JudgeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JudgeError::Input(e) => Some(e),
            JudgeError::Read(e) | JudgeError::Write(e) => Some(e),
        }
    }
}

/// What a complete run saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Commands answered (equals `Q`).
    pub commands: u64,
    /// Where the first token after the `Q`-th command starts, if any input follows it.
    pub trailing: Option<Position>,
}

/// One token, as the scanner sees it.
enum Token {
    Int(i64),
    Bad(Found),
    End,
}

/// A whitespace-separated integer reader over any `Read`, in fixed-size chunks.
pub struct Scanner<R> {
    src: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    /// Absolute offset of `buf[0]` in the input.
    base: u64,
    line: u64,
    /// Absolute offset of the first byte of the current line.
    line_start: u64,
    eof: bool,
    /// The start of the last token read, for error messages.
    shown: [u8; SHOWN],
    /// The full length of the last token read.
    length: usize,
}

/// C's `isspace` in the "C" locale: what `scanf` skips between numbers.
#[inline]
fn is_space(b: u8) -> bool {
    b == b' ' || (b'\t'..=b'\r').contains(&b)
}

impl<R: Read> Scanner<R> {
    /// A scanner at the start of `src`.
    pub fn new(src: R) -> Scanner<R> {
        Scanner {
            src,
            buf: vec![0; CHUNK].into_boxed_slice(),
            pos: 0,
            len: 0,
            base: 0,
            line: 1,
            line_start: 0,
            eof: false,
            shown: [0; SHOWN],
            length: 0,
        }
    }

    /// Makes `buf[pos]` readable; false at the end of the input.
    #[inline]
    fn fill(&mut self) -> io::Result<bool> {
        if self.pos < self.len {
            return Ok(true);
        }
        if self.eof {
            return Ok(false);
        }
        self.base += self.len as u64;
        self.pos = 0;
        self.len = 0;
        loop {
            match self.src.read(&mut self.buf) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.len = n;
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Skips whitespace, counting lines; returns where the next token (or the end) is.
    #[inline]
    fn skip_space(&mut self) -> io::Result<Position> {
        while self.fill()? {
            let b = self.buf[self.pos];
            if !is_space(b) {
                break;
            }
            self.pos += 1;
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.base + self.pos as u64;
            }
        }
        Ok(Position {
            line: self.line,
            column: self.base + self.pos as u64 - self.line_start + 1,
        })
    }

    /// Reads the next token: an optionally signed run of digits is an integer (clamped,
    /// never overflowing), anything else is bad.
    #[inline]
    fn token(&mut self) -> io::Result<(Position, Token)> {
        let at = self.skip_space()?;
        if !self.fill()? {
            return Ok((at, Token::End));
        }
        let mut length = 0usize;
        let mut negative = false;
        let mut digits = 0usize;
        let mut good = true;
        let mut value: i64 = 0;
        while self.fill()? {
            let b = self.buf[self.pos];
            if is_space(b) {
                break;
            }
            if length < SHOWN {
                self.shown[length] = b;
            }
            if b.is_ascii_digit() {
                digits += 1;
                value = (value * 10 + (b - b'0') as i64).min(CLAMP);
            } else if length == 0 && (b == b'-' || b == b'+') {
                negative = b == b'-';
            } else {
                good = false;
            }
            length += 1;
            self.pos += 1;
        }
        self.length = length;
        if good && digits > 0 {
            return Ok((at, Token::Int(if negative { -value } else { value })));
        }
        Ok((at, Token::Bad(self.last_token())))
    }

    /// The last token read, as an error message shows it.
    fn last_token(&self) -> Found {
        Found::Token {
            text: String::from_utf8_lossy(&self.shown[..self.length.min(SHOWN)]).into_owned(),
            truncated: self.length > SHOWN,
        }
    }

    /// Reads one integer, or says what was wrong with the input.
    #[inline]
    pub fn int(&mut self, expected: Expected) -> Result<i64, JudgeError> {
        let (at, token) = self.token().map_err(JudgeError::Read)?;
        let found = match token {
            Token::Int(v) => return Ok(v),
            Token::Bad(found) => found,
            Token::End => Found::EndOfInput,
        };
        Err(JudgeError::Input(InputError {
            at,
            expected,
            found,
        }))
    }

    /// Reads the command count `Q`: a non-negative integer (clamped when huge).
    pub fn count(&mut self) -> Result<u64, JudgeError> {
        let (at, token) = self.token().map_err(JudgeError::Read)?;
        let found = match token {
            Token::Int(v) if v >= 0 => return Ok(v as u64),
            Token::Int(_) => self.last_token(),
            Token::Bad(found) => found,
            Token::End => Found::EndOfInput,
        };
        Err(JudgeError::Input(InputError {
            at,
            expected: Expected::Count,
            found,
        }))
    }

    /// Where the next token starts, or `None` when only whitespace is left.
    pub fn peek_token(&mut self) -> io::Result<Option<Position>> {
        let at = self.skip_space()?;
        Ok(if self.fill()? { Some(at) } else { None })
    }
}

/// The longest output line: "blue elephant;blue elephant;yes;yes\n" and the like.
const LINE_MAX: usize = 48;

fn push(line: &mut [u8; LINE_MAX], len: &mut usize, part: &[u8]) {
    line[*len..*len + part.len()].copy_from_slice(part);
    *len += part.len();
}

fn push_piece(line: &mut [u8; LINE_MAX], len: &mut usize, piece: Piece) {
    push(line, len, piece.color.name().as_bytes());
    push(line, len, b" ");
    push(line, len, piece.kind.name().as_bytes());
}

/// Writes the judge's output line for `verdict`, newline included, in one write.
#[inline]
pub fn write_verdict<W: Write>(out: &mut W, verdict: &Verdict) -> io::Result<()> {
    let moved = match verdict {
        Err(_) => return out.write_all(b"Invalid command\n"),
        Ok(m) => m,
    };
    let yes_no = |b: bool| if b { &b"yes"[..] } else { &b"no"[..] };
    let mut line = [0u8; LINE_MAX];
    let mut len = 0;
    push_piece(&mut line, &mut len, moved.piece);
    push(&mut line, &mut len, b";");
    match moved.captured {
        Some(p) => push_piece(&mut line, &mut len, p),
        None => push(&mut line, &mut len, b"NA"),
    }
    push(&mut line, &mut len, b";");
    push(&mut line, &mut len, yes_no(moved.check));
    push(&mut line, &mut len, b";");
    push(&mut line, &mut len, yes_no(moved.game_over));
    push(&mut line, &mut len, b"\n");
    out.write_all(&line[..len])
}

/// The judge line for `verdict` as a string, without the newline (for the tools).
pub fn verdict_line(verdict: &Verdict) -> String {
    let mut bytes = Vec::with_capacity(LINE_MAX);
    // Writing to a Vec cannot fail.
    let _ = write_verdict(&mut bytes, verdict);
    bytes.pop();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs the judge: reads `Q` and the commands from `input`, writes one line per command
/// to `output` (unbuffered here: pass a buffered writer), plays them from the start
/// position. On bad input every earlier command has been written (but not flushed).
pub fn run<R: Read, W: Write>(input: R, output: &mut W) -> Result<Summary, JudgeError> {
    let mut scanner = Scanner::new(input);
    let total = scanner.count()?;
    let mut game = Game::new();
    let mut index = 0;
    while index < total {
        index += 1;
        let mut c = [0i64; 4];
        for (field, slot) in c.iter_mut().enumerate() {
            *slot = scanner.int(Expected::Coordinate {
                index,
                total,
                field: field as u8,
            })?;
        }
        let verdict = game.play(c[0], c[1], c[2], c[3]);
        write_verdict(output, &verdict).map_err(JudgeError::Write)?;
    }
    let trailing = scanner.peek_token().map_err(JudgeError::Read)?;
    Ok(Summary {
        commands: total,
        trailing,
    })
}

/// Runs the judge from `input` to standard output, as the binary and the one-file bundle
/// do, and reports problems on standard error. Returns the exit status: 0 when all went
/// well (also when standard output was closed early: nobody is left to tell), 1 on bad
/// input or an I/O error, after flushing every answer already computed.
pub fn serve<R: Read>(input: R) -> u8 {
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(CHUNK, stdout.lock());
    let result = run(input, &mut out);
    let flushed = out.flush();
    let closed = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
    let mut status = 0;
    match result {
        Ok(Summary {
            commands,
            trailing: Some(at),
        }) => note(&format!(
            "note: ignoring the input after command {commands}, from line {}, column {}",
            at.line, at.column
        )),
        Ok(_) => {}
        Err(JudgeError::Write(ref e)) if closed(e) => return 0,
        Err(e) => {
            note(&e.to_string());
            status = 1;
        }
    }
    match flushed {
        Err(ref e) if closed(e) => status,
        Err(e) => {
            note(&JudgeError::Write(e).to_string());
            1
        }
        Ok(()) => status,
    }
}

/// One line on standard error, prefixed with the program name. A failing standard error
/// is ignored: there is nowhere left to report it.
pub fn note(message: &str) {
    let _ = writeln!(io::stderr(), "duckchess: {message}");
}
