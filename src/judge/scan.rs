//! The judge's reader: `Q` and the commands, read as C's `scanf` would (any whitespace
//! between tokens), with bad input reported by line and column.
//!
//! Memory does not grow with the input: the reader works in fixed-size chunks (a token may
//! straddle two of them) and keeps at most a short prefix of a token for error messages.
//!
//! Two limits end an endless input (a token or whitespace that never ends) with its
//! position, one rule wherever the chunks end, shared with `validate`'s strict reader
//! ([`token_too_long`], [`space_too_long`]): a token of more than [`MAX_TOKEN`] bytes
//! (sign and leading zeros included), and a run of more than [`MAX_SPACE`] bytes of
//! whitespace (before the first token, between two, or after the last), each refused
//! at the position where it starts.

use std::fmt;
use std::io::{self, Read};

/// One judge command `xs ys xt yt`, as read: any integers, on the board or not.
pub type Cmd = [i64; 4];

/// Bytes read from the input at a time.
pub const CHUNK: usize = 1 << 16;
/// How much of a bad token an error message shows.
const SHOWN: usize = 24;
/// How much of a number's text is kept to show it as written: any `u64` and more.
const WRITTEN: usize = 40;
/// The longest token the reader takes: far longer than any number a valid input holds
/// (leading zeros and all), so that one endless token (`/dev/zero`) ends the run with
/// its position instead of being read forever.
pub const MAX_TOKEN: usize = 4096;
/// The longest run of whitespace the reader takes, 16 MiB: far beyond any judge input,
/// so that endless whitespace (blank lines forever) ends the run.
pub const MAX_SPACE: u64 = 1 << 24;

/// Whether a token of `length` bytes is over the limit ([`MAX_TOKEN`]).
#[inline]
pub fn token_too_long(length: usize) -> bool {
    length > MAX_TOKEN
}

/// Whether a run of `length` bytes of whitespace is over the limit ([`MAX_SPACE`]).
#[inline]
pub fn space_too_long(length: u64) -> bool {
    length > MAX_SPACE
}

/// Integers are clamped to this magnitude while parsing: far off the board either way,
/// and no overflow however many digits a token has.
const CLAMP: i64 = 1 << 40;

/// Where a token starts, 1-based. Columns count bytes, which equals characters here:
/// everything before a token on its line is ASCII, or it would have been the bad token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
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
    Coordinate { index: u64, total: Count, field: u8 },
    /// The end of the input, after the last of `total` commands (more input is only
    /// noted, but the whitespace before it is held to the limit all the same).
    End { total: Count },
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
            Expected::End { total } => {
                write!(
                    f,
                    "the end of the input after the last command (Q = {total})"
                )
            }
        }
    }
}

/// A number's text as the input wrote it (sign, leading zeros and all), for messages:
/// values are clamped while parsing, so only the text can show a huge one exactly. Keeps
/// [`WRITTEN`] bytes; a longer number shows its start and `...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    bytes: [u8; WRITTEN],
    len: usize,
    truncated: bool,
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Only digits and one sign get here, so the bytes are ASCII.
        for &b in &self.bytes[..self.len] {
            write!(f, "{}", b as char)?;
        }
        if self.truncated {
            f.write_str("...")?;
        }
        Ok(())
    }
}

/// The command count `Q`: its value (clamped, which is far more commands than any input
/// can hold) and its text as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The value, clamped to 2^40.
    pub value: u64,
    /// The text as written.
    pub written: Written,
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.written.fmt(f)
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
    /// More than [`MAX_SPACE`] bytes of whitespace; the position is where they start.
    Blank,
    /// A token longer than [`MAX_TOKEN`] bytes, of which `text` is the start.
    TooLong {
        /// The start of the token (lossy UTF-8).
        text: String,
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
            Found::Blank => write!(f, "more than {MAX_SPACE} bytes of whitespace"),
            Found::TooLong { text } => write!(
                f,
                "\"{}...\", a token of more than {MAX_TOKEN} bytes",
                text.escape_debug()
            ),
        }
    }
}

/// Input that breaks the judge format: where, what was expected, what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Where the bad token starts (or where the input ended).
    pub at: LineCol,
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
    Input(Box<InputError>),
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
            JudgeError::Input(e) => Some(e.as_ref()),
            JudgeError::Read(e) | JudgeError::Write(e) => Some(e),
        }
    }
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
    /// The start of the last token read, for messages.
    shown: [u8; WRITTEN],
    /// The full length of the last token read.
    length: usize,
    /// Whether the last skip stopped at [`MAX_SPACE`] bytes of whitespace.
    blank: bool,
    /// Where a run of whitespace over the limit starts, once one was found: nothing
    /// after it is read, and every later read meets it again.
    refused: Option<LineCol>,
}

/// Where the reader is in what it buffered, with its line count: the fast paths go
/// back to it when they give up, so that the general path starts where they did.
#[derive(Clone, Copy)]
struct Mark {
    pos: usize,
    line: u64,
    line_start: u64,
}

/// C's `isspace` in the "C" locale, as a byte table: what `scanf` skips between numbers.
static SPACE: [bool; 256] = space_table();

const fn space_table() -> [bool; 256] {
    let mut table = [false; 256];
    table[b' ' as usize] = true;
    let mut b = b'\t';
    while b <= b'\r' {
        table[b as usize] = true;
        b += 1;
    }
    table
}

#[inline]
fn is_space(b: u8) -> bool {
    SPACE[b as usize]
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
            shown: [0; WRITTEN],
            length: 0,
            blank: false,
            refused: None,
        }
    }

    #[inline]
    fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            line: self.line,
            line_start: self.line_start,
        }
    }

    /// Goes back to `mark`, taken in the same buffer.
    #[inline]
    fn back_to(&mut self, mark: Mark) {
        self.pos = mark.pos;
        self.line = mark.line;
        self.line_start = mark.line_start;
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
    /// It starts where the last token ended (the fast paths go back there before they
    /// call it), so the run is counted whole, wherever the reads end: past
    /// [`MAX_SPACE`] bytes it stops, `blank` set, and returns where the run starts.
    #[inline]
    fn skip_space(&mut self) -> io::Result<LineCol> {
        if let Some(at) = self.refused {
            self.blank = true;
            return Ok(at);
        }
        let start = self.base + self.pos as u64;
        let run = LineCol {
            line: self.line,
            column: start - self.line_start + 1,
        };
        self.blank = false;
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
            if space_too_long(self.base + self.pos as u64 - start) {
                // Nothing after it is read: the fast paths find nothing buffered, and
                // the general path meets the refusal again (a caller that went on).
                self.refused = Some(run);
                self.blank = true;
                self.pos = self.len;
                self.eof = true;
                return Ok(run);
            }
        }
        Ok(LineCol {
            line: self.line,
            column: self.base + self.pos as u64 - self.line_start + 1,
        })
    }

    /// Reads the next token: an optionally signed run of digits is an integer (clamped,
    /// never overflowing), anything else is bad.
    #[inline]
    fn token(&mut self) -> io::Result<(LineCol, Token)> {
        let at = self.skip_space()?;
        if self.blank {
            return Ok((at, Token::Bad(Found::Blank)));
        }
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
            if length < WRITTEN {
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
            // A bad token is known by its start: the rest is not read (it may never end).
            if !good && length > SHOWN {
                break;
            }
            if token_too_long(length) {
                self.length = length;
                return Ok((
                    at,
                    Token::Bad(Found::TooLong {
                        text: String::from_utf8_lossy(&self.shown[..SHOWN]).into_owned(),
                    }),
                ));
            }
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

    /// Skips the whitespace in what is buffered, counting lines, and returns the new
    /// position; the fast paths start here (the general path reads on past the buffer).
    #[inline]
    fn skip_buffered_space(&mut self) -> usize {
        let mut p = self.pos;
        while p < self.len && is_space(self.buf[p]) {
            if self.buf[p] == b'\n' {
                self.line += 1;
                self.line_start = self.base + p as u64 + 1;
            }
            p += 1;
        }
        self.pos = p;
        p
    }

    /// Reads one integer, or says what was wrong with the input.
    #[inline]
    pub fn int(&mut self, expected: Expected) -> Result<i64, JudgeError> {
        // Fast path for the common case, an unsigned number wholly inside the buffer and
        // followed by whitespace there; anything else goes the general way, which picks
        // up from where this left off (the lines skipped so far are already counted).
        let mark = self.mark();
        let start = self.skip_buffered_space();
        let buf = &self.buf[..self.len];
        let mut p = start;
        let mut value: i64 = 0;
        while p < buf.len() && buf[p].is_ascii_digit() {
            value = (value * 10 + (buf[p] - b'0') as i64).min(CLAMP);
            p += 1;
        }
        if p > start && p < buf.len() && is_space(buf[p]) && !token_too_long(p - start) {
            self.pos = p;
            return Ok(value);
        }
        // The general way from the end of the last token: the whitespace before the
        // next one is counted whole there.
        self.back_to(mark);
        self.int_slow(expected)
    }

    /// Reads the four coordinates of command `index` of `total`.
    #[inline]
    pub fn command(&mut self, index: u64, total: Count) -> Result<Cmd, JudgeError> {
        // Fast path for the canonical "a b c d" of four single digits separated by single
        // spaces and followed by whitespace, checked as one 8-byte word: digits in the
        // even bytes, spaces in the odd ones. The whitespace after it is left for the
        // next skip, which counts the line.
        let mark = self.mark();
        let p = self.skip_buffered_space();
        let buf = &self.buf[..self.len];
        if let Some(bytes) = buf.get(p..p + 8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(bytes);
            let w = u64::from_le_bytes(word);
            const SPACES: u64 = 0x0000_2000_2000_2000;
            const ODD: u64 = 0x0000_FF00_FF00_FF00;
            const HIGH: u64 = 0x00F0_00F0_00F0_00F0;
            const LOW: u64 = 0x000F_000F_000F_000F;
            let low = w & LOW;
            // A low nibble above 9 carries into bit 4 when 6 is added.
            let digits = (w & HIGH) == 0x0030_0030_0030_0030
                && ((low + 0x0006_0006_0006_0006) & 0x0010_0010_0010_0010) == 0;
            if digits && (w & ODD) == SPACES && is_space(bytes[7]) {
                self.pos = p + 7;
                return Ok([
                    (low & 0xF) as i64,
                    ((low >> 16) & 0xF) as i64,
                    ((low >> 32) & 0xF) as i64,
                    ((low >> 48) & 0xF) as i64,
                ]);
            }
        }
        // Field by field from the end of the last token, as `int` goes.
        self.back_to(mark);
        let mut c = [0i64; 4];
        for (field, slot) in c.iter_mut().enumerate() {
            *slot = self.int(Expected::Coordinate {
                index,
                total,
                field: field as u8,
            })?;
        }
        Ok(c)
    }

    fn int_slow(&mut self, expected: Expected) -> Result<i64, JudgeError> {
        self.int_within(expected, i64::MIN)
    }

    /// Reads the command count `Q`: a non-negative integer (clamped when huge, and kept
    /// as written for messages).
    pub fn count(&mut self) -> Result<Count, JudgeError> {
        let value = self.int_within(Expected::Count, 0)? as u64;
        Ok(Count {
            value,
            written: self.written(),
        })
    }

    /// Reads one integer by the general path and returns it with its text as written.
    pub fn int_as_written(&mut self, expected: Expected) -> Result<(i64, Written), JudgeError> {
        let value = self.int_slow(expected)?;
        Ok((value, self.written()))
    }

    /// The last token read by the general path, as written (a number: ASCII only).
    fn written(&self) -> Written {
        Written {
            bytes: self.shown,
            len: self.length.min(WRITTEN),
            truncated: self.length > WRITTEN,
        }
    }

    /// Reads an integer of at least `min`; anything else is an input error that names
    /// `expected` and shows what was found.
    fn int_within(&mut self, expected: Expected, min: i64) -> Result<i64, JudgeError> {
        let (at, token) = self.token().map_err(JudgeError::Read)?;
        let found = match token {
            Token::Int(v) if v >= min => return Ok(v),
            Token::Int(_) => self.last_token(),
            Token::Bad(found) => found,
            Token::End => Found::EndOfInput,
        };
        Err(JudgeError::Input(Box::new(InputError {
            at,
            expected,
            found,
        })))
    }

    /// Where the next token starts, or `None` when only whitespace is left; a run of
    /// whitespace over the limit is an input error that names `expected` (after the last
    /// command, [`Expected::End`]).
    pub fn peek_token(&mut self, expected: Expected) -> Result<Option<LineCol>, JudgeError> {
        let at = self.skip_space().map_err(JudgeError::Read)?;
        if self.blank {
            return Err(JudgeError::Input(Box::new(InputError {
                at,
                expected,
                found: Found::Blank,
            })));
        }
        Ok(if self.fill().map_err(JudgeError::Read)? {
            Some(at)
        } else {
            None
        })
    }
}
