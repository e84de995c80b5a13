//! The judge I/O: reads `Q` and `Q` commands as C's `scanf` would (any whitespace between
//! tokens), answers each command with one output line, byte for byte as the THUPC judge
//! expects, and reports bad input with its line and column.
//!
//! Memory does not grow with the input: the reader works in fixed-size chunks (a token may
//! straddle two of them) and keeps at most a short prefix of a token for error messages.
//! On the judge path: Rust 1.63 only.

use crate::game::{Game, Moved, Verdict};
use crate::piece::{Color, Piece, PieceKind};
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
        let start = self.skip_buffered_space();
        let buf = &self.buf[..self.len];
        let mut p = start;
        let mut value: i64 = 0;
        while p < buf.len() && buf[p].is_ascii_digit() {
            value = (value * 10 + (buf[p] - b'0') as i64).min(CLAMP);
            p += 1;
        }
        if p > start && p < buf.len() && is_space(buf[p]) {
            self.pos = p;
            return Ok(value);
        }
        self.pos = start;
        self.int_slow(expected)
    }

    /// Reads the four coordinates of command `index` of `total`.
    #[inline]
    pub fn command(&mut self, index: u64, total: u64) -> Result<[i64; 4], JudgeError> {
        // Fast path for the canonical "a b c d" of four single digits separated by single
        // spaces and followed by whitespace, checked as one 8-byte word: digits in the
        // even bytes, spaces in the odd ones. The whitespace after it is left for the
        // next skip, which counts the line.
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

    /// Reads the command count `Q`: a non-negative integer (clamped when huge).
    pub fn count(&mut self) -> Result<u64, JudgeError> {
        self.int_within(Expected::Count, 0).map(|v| v as u64)
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
        Err(JudgeError::Input(InputError {
            at,
            expected,
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

/// Writes the judge's line for a legal move, newline included, into `line`; returns
/// its length.
fn format_moved(moved: &Moved, line: &mut [u8; LINE_MAX]) -> usize {
    let mut len = 0;
    let mut push = |part: &[u8]| {
        line[len..len + part.len()].copy_from_slice(part);
        len += part.len();
    };
    let yes_no = |b: bool| if b { &b"yes"[..] } else { &b"no"[..] };
    push(moved.piece.color.name().as_bytes());
    push(b" ");
    push(moved.piece.kind.name().as_bytes());
    push(b";");
    match moved.captured {
        Some(p) => {
            push(p.color.name().as_bytes());
            push(b" ");
            push(p.kind.name().as_bytes());
        }
        None => push(b"NA"),
    }
    push(b";");
    push(yes_no(moved.check));
    push(b";");
    push(yes_no(moved.game_over));
    push(b"\n");
    len
}

const INVALID_LINE: &[u8] = b"Invalid command\n";

/// Every output line the judge can print, formatted once, each padded to [`LINE_MAX`]
/// bytes, so answering a command is a table look-up and one fixed-size copy.
struct Lines {
    /// Line `i` of [`Lines::index`] with its length; the invalid line is last.
    entries: Vec<([u8; LINE_MAX], usize)>,
}

/// The index of `Invalid command` in [`Lines`], after the 840 legal-move lines.
const INVALID_INDEX: usize = 14 * 15 * 2 * 2;

impl Lines {
    fn new() -> Lines {
        let mut entries = Vec::with_capacity(INVALID_INDEX + 1);
        let pieces = || {
            Color::ALL
                .iter()
                .flat_map(|&c| PieceKind::ALL.iter().map(move |&k| Piece::new(c, k)))
        };
        for piece in pieces() {
            for captured in pieces().map(Some).chain(Some(None)) {
                for check in [false, true] {
                    for game_over in [false, true] {
                        let moved = Moved {
                            piece,
                            captured,
                            check,
                            game_over,
                        };
                        debug_assert_eq!(Lines::index(&Ok(moved)), entries.len());
                        let mut line = [0u8; LINE_MAX];
                        let len = format_moved(&moved, &mut line);
                        entries.push((line, len));
                    }
                }
            }
        }
        let mut invalid = [0u8; LINE_MAX];
        invalid[..INVALID_LINE.len()].copy_from_slice(INVALID_LINE);
        entries.push((invalid, INVALID_LINE.len()));
        Lines { entries }
    }

    /// The position of a verdict's line: pieces in colour-then-kind order, the captured
    /// piece likewise with "none" last, then check, then game over; invalid last.
    #[inline]
    fn index(verdict: &Verdict) -> usize {
        let m = match verdict {
            Err(_) => return INVALID_INDEX,
            Ok(m) => m,
        };
        let piece = |p: Piece| p.color.index() * 7 + p.kind.index();
        let captured = m.captured.map_or(14, piece);
        ((piece(m.piece) * 15 + captured) * 2 + m.check as usize) * 2 + m.game_over as usize
    }
}

/// The judge's answers on their way out: a fixed buffer that takes each padded line with
/// one fixed-size copy and goes to the writer in [`CHUNK`]-sized writes.
struct Answers<'w, W> {
    sink: &'w mut W,
    buf: Box<[u8]>,
    len: usize,
}

impl<'w, W: Write> Answers<'w, W> {
    fn new(sink: &'w mut W) -> Answers<'w, W> {
        Answers {
            sink,
            buf: vec![0; CHUNK].into_boxed_slice(),
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, (line, len): &([u8; LINE_MAX], usize)) -> io::Result<()> {
        if self.len + LINE_MAX > self.buf.len() {
            self.flush()?;
        }
        // The whole padded line is copied (a fixed size compiles to a few stores); only
        // its real length counts, and the padding is overwritten by the next line.
        self.buf[self.len..self.len + LINE_MAX].copy_from_slice(line);
        self.len += len;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        let pending = self.len;
        self.len = 0;
        self.sink.write_all(&self.buf[..pending])
    }
}

/// The judge's line for `verdict`, without the newline (for the tools).
pub fn verdict_line(verdict: &Verdict) -> String {
    let mut line = [0u8; LINE_MAX];
    let bytes: &[u8] = match verdict {
        Err(_) => INVALID_LINE,
        Ok(m) => {
            let len = format_moved(m, &mut line);
            &line[..len]
        }
    };
    String::from_utf8_lossy(&bytes[..bytes.len() - 1]).into_owned()
}

/// Runs the judge: reads `Q` and the commands from `input`, writes one line per command
/// to `output`, plays them from the start position. Output is buffered here, in large
/// writes, so `output` needs no buffer of its own. On bad input every earlier command
/// has been written to `output` before the error returns.
pub fn run<R: Read, W: Write>(input: R, output: &mut W) -> Result<Summary, JudgeError> {
    let mut scanner = Scanner::new(input);
    let total = scanner.count()?;
    let lines = Lines::new();
    let mut answers = Answers::new(output);
    let mut game = Game::new();
    let mut answer_all = || -> Result<(), JudgeError> {
        for index in 1..=total {
            let c = scanner.command(index, total)?;
            let verdict = game.play(c[0], c[1], c[2], c[3]);
            answers
                .push(&lines.entries[Lines::index(&verdict)])
                .map_err(JudgeError::Write)?;
        }
        Ok(())
    };
    let answered = answer_all();
    // Whatever happened, what was answered goes out first (a write error aside).
    if !matches!(answered, Err(JudgeError::Write(_))) {
        answers.flush().map_err(JudgeError::Write)?;
    }
    answered?;
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
    let mut out = stdout.lock();
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
