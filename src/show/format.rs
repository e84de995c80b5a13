//! The strict input validator in the style of testlib, for problem setters (`duckchess
//! validate`, and `audit` on every input it reads). Where the judge is lenient (any whitespace, off-board numbers), the validator
//! accepts exactly the official format and nothing else:
//!
//! - the first line is `Q` alone, `0 <= Q <= 1000` (or `--max-q`), no sign, no leading zero;
//! - then exactly `Q` lines `xs ys xt yt`, single spaces, `0 <= xs, xt <= 9`,
//!   `0 <= ys, yt <= 8`, same rules for the digits;
//! - every line ends with `\n` (no `\r`), and nothing follows the last one.
//!
//! The input is streamed through a small look-ahead buffer, so memory does not grow with
//! the file. The first problem found is reported as `line L, column C: ...` (1-based,
//! columns count bytes), saying what was expected and what was found. A token over the
//! judge's limit, or a run of spaces over it, is refused as the judge refuses it
//! ([`crate::judge::scan`]): wherever the reads end, an endless input ends.

use crate::judge::piece::{COLS, ROWS};
use crate::judge::scan::{space_too_long, token_too_long, Found};
use std::fmt;
use std::io::{self, Read};

/// The official limit on `Q`.
pub const DEFAULT_MAX_Q: u64 = 1000;
/// Bytes read from the input at a time.
const CHUNK: usize = 1 << 16;
/// How many bytes of a bad token or line a message shows.
const SHOWN: usize = 24;
/// The names of the four fields of a command, in input order.
const FIELDS: [&str; 4] = ["xs", "ys", "xt", "yt"];

/// Where the input breaks the format, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Line, from 1.
    pub line: u64,
    /// Column (a byte offset within the line), from 1.
    pub column: u64,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for FormatError {}

/// Why validation did not succeed.
#[derive(Debug)]
pub enum ValidateError {
    /// The input breaks the strict format.
    Format(FormatError),
    /// Reading the input failed.
    Read(io::Error),
}

impl fmt::Display for ValidateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidateError::Format(e) => write!(f, "{e}"),
            ValidateError::Read(e) => write!(f, "cannot read the input: {e}"),
        }
    }
}

impl std::error::Error for ValidateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ValidateError::Format(e) => Some(e),
            ValidateError::Read(e) => Some(e),
        }
    }
}

impl From<io::Error> for ValidateError {
    fn from(e: io::Error) -> ValidateError {
        ValidateError::Read(e)
    }
}

/// A byte reader with a few bytes of look-ahead and a line/column counter.
struct Cursor<R> {
    src: R,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    eof: bool,
    line: u64,
    column: u64,
}

/// A number as read: its first digits (for messages), value and digit count. No
/// allocation: most numbers are read, checked and forgotten.
struct Number {
    shown: [u8; SHOWN],
    /// The value, or `None` when it does not fit in a `u64` (above every limit).
    value: Option<u64>,
    digits: usize,
    /// Whether the token (its sign included) is over the judge's limit: the digits
    /// beyond it are not read.
    too_long: bool,
}

impl Number {
    /// The digits as a message shows them, with `...` when there are more.
    fn text(&self) -> String {
        let shown = &self.shown[..self.digits.min(SHOWN)];
        let more = if self.digits > SHOWN { "..." } else { "" };
        format!("{}{more}", String::from_utf8_lossy(shown))
    }

    /// The token over the limit, as the judge's reader shows it: its first [`SHOWN`]
    /// bytes, `sign` first.
    fn over_limit(&self, sign: &str) -> Found {
        let mut text = sign.to_string();
        text.push_str(&String::from_utf8_lossy(&self.shown));
        text.truncate(SHOWN);
        Found::TooLong { text }
    }
}

impl<R: Read> Cursor<R> {
    fn new(src: R) -> Cursor<R> {
        Cursor {
            src,
            buf: vec![0; CHUNK],
            pos: 0,
            len: 0,
            eof: false,
            line: 1,
            column: 1,
        }
    }

    /// The byte `ahead` places after the current one, reading more input when needed.
    #[inline]
    fn peek_at(&mut self, ahead: usize) -> io::Result<Option<u8>> {
        if let Some(&b) = self.buf[..self.len].get(self.pos + ahead) {
            return Ok(Some(b));
        }
        while self.pos + ahead >= self.len && !self.eof {
            // Look-ahead never exceeds a few dozen bytes, so moving the unread tail to the
            // front always leaves room to read into.
            if self.len == self.buf.len() {
                self.buf.copy_within(self.pos..self.len, 0);
                self.len -= self.pos;
                self.pos = 0;
            }
            match self.src.read(&mut self.buf[self.len..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(if self.pos + ahead < self.len {
            Some(self.buf[self.pos + ahead])
        } else {
            None
        })
    }

    #[inline]
    fn peek(&mut self) -> io::Result<Option<u8>> {
        self.peek_at(0)
    }

    /// Steps over the current byte (which the caller has peeked).
    #[inline]
    fn bump(&mut self) {
        if self.buf[self.pos] == b'\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        self.pos += 1;
    }

    /// An error at the current position.
    fn error(&self, message: String) -> ValidateError {
        self.error_at((self.line, self.column), message)
    }

    fn error_at(&self, (line, column): (u64, u64), message: String) -> ValidateError {
        ValidateError::Format(FormatError {
            line,
            column,
            message,
        })
    }

    fn here(&self) -> (u64, u64) {
        (self.line, self.column)
    }

    /// Up to [`SHOWN`] bytes from the current position while `keep` holds, quoted, with
    /// `...` when there are more.
    fn quote_while(&mut self, keep: impl Fn(u8) -> bool) -> io::Result<String> {
        let mut bytes = Vec::new();
        let mut more = false;
        let mut i = 0;
        while let Some(b) = self.peek_at(i)? {
            if !keep(b) {
                break;
            }
            if bytes.len() == SHOWN {
                more = true;
                break;
            }
            bytes.push(b);
            i += 1;
        }
        let text = String::from_utf8_lossy(&bytes);
        Ok(format!(
            "\"{}{}\"",
            text.escape_debug(),
            if more { "..." } else { "" }
        ))
    }

    /// The thing at the current position, as a message names it: a named whitespace
    /// character, the end of the file, or the token that starts here, quoted.
    fn describe(&mut self) -> io::Result<String> {
        Ok(match self.peek()? {
            None => "end of input".to_string(),
            Some(b' ') => "a space".to_string(),
            Some(b'\t') => "a tab".to_string(),
            Some(b'\r') => "a carriage return (\\r)".to_string(),
            Some(b'\n') => "end of line".to_string(),
            Some(0x0b) => "a vertical tab".to_string(),
            Some(0x0c) => "a form feed".to_string(),
            Some(_) => self.quote_while(|b| !b.is_ascii_whitespace() && b != 0x0b)?,
        })
    }

    /// Reads a run of digits (the caller has seen the first one, and stepped over the
    /// `sign` bytes before it), up to the judge's limit on a token's length.
    fn digits(&mut self, sign: usize) -> io::Result<Number> {
        let mut number = Number {
            shown: [0; SHOWN],
            value: Some(0),
            digits: 0,
            too_long: false,
        };
        while let Some(b) = self.peek()? {
            if !b.is_ascii_digit() {
                break;
            }
            if token_too_long(sign + number.digits + 1) {
                number.too_long = true;
                break;
            }
            if number.digits < SHOWN {
                number.shown[number.digits] = b;
            }
            number.value = number
                .value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(u64::from(b - b'0')));
            number.digits += 1;
            self.bump();
        }
        Ok(number)
    }

    /// Reads an unsigned integer named `name` in `0..=max`, without sign or leading zero;
    /// `what` names it when something else stands there.
    fn integer(
        &mut self,
        name: &str,
        what: impl Fn() -> String,
        max: u64,
    ) -> Result<u64, ValidateError> {
        let start = self.here();
        match self.peek()? {
            Some(b'-') if matches!(self.peek_at(1)?, Some(b'1'..=b'9')) => {
                self.bump();
                let n = self.digits(1)?;
                if n.too_long {
                    let found = n.over_limit("-");
                    return Err(self.error_at(start, format!("expected {}, found {found}", what())));
                }
                Err(self.error_at(
                    start,
                    format!("{name} = -{} is outside 0..={max}", n.text()),
                ))
            }
            Some(b'+' | b'-') => {
                let found = self.quote_while(|b| !b.is_ascii_whitespace())?;
                Err(self.error(format!("expected {name} without a sign, found {found}")))
            }
            Some(b'0'..=b'9') => {
                let n = self.digits(0)?;
                if n.too_long {
                    let found = n.over_limit("");
                    return Err(self.error_at(start, format!("expected {}, found {found}", what())));
                }
                if n.digits > 1 && n.shown[0] == b'0' {
                    return Err(self.error_at(
                        start,
                        format!(
                            "expected {name} without leading zeros, found \"{}\"",
                            n.text()
                        ),
                    ));
                }
                match n.value {
                    Some(v) if v <= max => Ok(v),
                    _ => {
                        Err(self
                            .error_at(start, format!("{name} = {} is outside 0..={max}", n.text())))
                    }
                }
            }
            _ => {
                let found = self.describe()?;
                Err(self.error(format!("expected {}, found {found}", what())))
            }
        }
    }

    /// Steps over the `\n` that must end a line; `after` names what came before it.
    fn end_of_line(&mut self, after: &str) -> Result<(), ValidateError> {
        if self.peek()? == Some(b'\n') {
            self.bump();
            return Ok(());
        }
        let found = self.describe()?;
        Err(self.error(format!("expected end of line after {after}, found {found}")))
    }

    /// Steps over the single space between two fields; `after` names the field before it.
    fn separator(&mut self, after: &str) -> Result<(), ValidateError> {
        if self.peek()? != Some(b' ') {
            let found = self.describe()?;
            return Err(self.error(format!(
                "expected a single space after {after}, found {found}"
            )));
        }
        let start = self.here();
        self.bump();
        if self.peek()? != Some(b' ') {
            return Ok(());
        }
        // Count the run up to the judge's limit on whitespace: stepping over it keeps
        // memory flat, and the message points back at its start.
        let mut spaces = 1u64;
        while self.peek()? == Some(b' ') {
            if space_too_long(spaces + 1) {
                return Err(self.error_at(
                    start,
                    format!(
                        "expected a single space after {after}, found {}",
                        Found::Blank
                    ),
                ));
            }
            self.bump();
            spaces += 1;
        }
        Err(self.error_at(
            start,
            format!("expected a single space after {after}, found {spaces} spaces"),
        ))
    }
}

/// Checks that `input` is exactly in the official format with `Q <= max_q`; returns `Q`.
pub fn validate<R: Read>(input: R, max_q: u64) -> Result<u64, ValidateError> {
    let mut cur = Cursor::new(input);
    let q = cur.integer("Q", || "the number of commands Q".to_string(), max_q)?;
    cur.end_of_line("Q")?;
    for index in 1..=q {
        if cur.peek()?.is_none() {
            return Err(cur.error(format!(
                "expected command {index} of {q}, found end of input"
            )));
        }
        if cur.peek()? == Some(b'\n') {
            return Err(cur.error(format!(
                "expected command {index} of {q}, found an empty line"
            )));
        }
        for (field, name) in FIELDS.iter().enumerate() {
            if field > 0 {
                cur.separator(FIELDS[field - 1])?;
            }
            // Rows are x, columns are y.
            let max = if field % 2 == 0 { ROWS - 1 } else { COLS - 1 };
            let what = || format!("{name} (an integer in 0..={max})");
            cur.integer(name, what, u64::from(max))?;
        }
        cur.end_of_line("yt")?;
    }
    match cur.peek()? {
        None => Ok(q),
        Some(b'\n') => Err(cur.error("expected end of input, found an empty line".to_string())),
        Some(_) => {
            let rest = cur.quote_while(|b| b != b'\n')?;
            Err(cur.error(format!("expected end of input, found {rest}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str) -> Result<u64, String> {
        validate(input.as_bytes(), DEFAULT_MAX_Q).map_err(|e| e.to_string())
    }

    /// Reads one byte at a time, so every look-ahead crosses a read boundary.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((&b, rest)), Some(slot)) => {
                    *slot = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn accepts_the_official_format() {
        assert_eq!(check("0\n"), Ok(0));
        assert_eq!(check("2\n0 0 9 8\n9 8 0 0\n"), Ok(2));
        // The statement's sample, with the final newline the strict format wants.
        let sample = format!(
            "{}\n",
            include_str!("../../samples/statement.in").trim_end()
        );
        assert_eq!(check(&sample), Ok(18));
    }

    #[test]
    fn trickled_input_gives_the_same_answers() {
        for input in ["2\n0 0 9 8\n9 8 0 0\n", "1\n0 0 1 0\n0 0 1 0 and more\n"] {
            let whole = check(input);
            let trickled =
                validate(Trickle(input.as_bytes()), DEFAULT_MAX_Q).map_err(|e| e.to_string());
            assert_eq!(whole, trickled);
        }
    }

    #[test]
    fn a_large_file_streams() {
        let mut input = String::from("1000\n");
        for _ in 0..1000 {
            input.push_str("3 4 5 6\n");
        }
        assert_eq!(check(&input), Ok(1000));
        assert!(validate(input.as_bytes(), 999).is_err());
    }

    #[test]
    fn messages_name_line_column_expected_and_found() {
        // The full table of messages is in tests/all/validate_cli.rs, through the binary.
        assert_eq!(
            check("1\n0 0 10 0\n"),
            Err("line 2, column 5: xt = 10 is outside 0..=9".to_string())
        );
    }

    #[test]
    fn max_q_is_configurable() {
        assert_eq!(
            validate(&b"3\n"[..], 2).map_err(|e| e.to_string()),
            Err("line 1, column 1: Q = 3 is outside 0..=2".to_string())
        );
        let mut input = String::from("1001\n");
        input.push_str(&"0 0 1 0\n".repeat(1001));
        assert_eq!(validate(input.as_bytes(), 5000).ok(), Some(1001));
    }
}
