//! A small JSON value of our own, with a reader that takes any client's bytes without
//! panicking (nesting and size bounded) and a compact writer: the one way the crate
//! reads and writes JSON (`serve`'s API, `analyze --json`). No dependency for a few
//! hundred lines.

use std::fmt::{self, Write as _};

/// The largest whole number a float holds exactly, 2^53.
pub const MAX_EXACT: u64 = 1 << 53;

/// How deep arrays and objects may nest in a request: the API needs 3, and a bound keeps
/// a hostile `[[[[...` from exhausting the stack.
pub const MAX_DEPTH: usize = 32;

/// A JSON value. Object members keep their order (and a repeated key keeps both; the
/// getter takes the first).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as a float (integers up to 2^53 are exact, which covers every
    /// coordinate that could be on a board).
    Num(f64),
    /// A whole number that no float holds exactly (beyond 2^53, or beyond any float
    /// like `1e400`), kept as written: an answer that refuses it quotes what was sent.
    Big(String),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object, members in order.
    Obj(Vec<(String, Json)>),
}

/// Why bytes are not JSON: where (byte offset from 0) and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// Byte offset of the problem.
    pub at: usize,
    /// What was expected or found.
    pub what: &'static str,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad JSON at byte {}: {}", self.at, self.what)
    }
}

impl std::error::Error for JsonError {}

impl Json {
    /// Parses a whole document (surrounding whitespace allowed, nothing else after it).
    pub fn parse(bytes: &[u8]) -> Result<Json, JsonError> {
        let mut r = Reader { bytes, pos: 0 };
        let value = r.value(0)?;
        r.skip_space();
        if r.pos != bytes.len() {
            return Err(r.error("unexpected text after the value"));
        }
        Ok(value)
    }

    /// The member `key` of an object, if this is one and has it.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Arr(items) => Some(items),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number as an integer, if it is a whole number. Magnitudes beyond `i64`
    /// saturate: far off any board either way, as the judge treats huge coordinates.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Json::Num(v) if v.is_infinite() || v.fract() == 0.0 => Some(*v as i64),
            Json::Big(text) if text.starts_with('-') => Some(i64::MIN),
            Json::Big(_) => Some(i64::MAX),
            _ => None,
        }
    }

    /// The number as an integer, if it is a whole number held exactly (at most 2^53
    /// in magnitude): a count or a seed, which must not be clamped.
    pub fn as_exact_int(&self) -> Option<i64> {
        match self {
            Json::Num(v) if v.fract() == 0.0 && v.abs() <= MAX_EXACT as f64 => Some(*v as i64),
            _ => None,
        }
    }

    /// The value as the client wrote it, for a message: a number as sent (`1e400`,
    /// `18446744073709551616`), anything else as JSON text.
    pub fn written(&self) -> String {
        self.to_string()
    }

    /// A string value.
    pub fn str(text: impl Into<String>) -> Json {
        Json::Str(text.into())
    }

    /// An integer value.
    pub fn int(value: i64) -> Json {
        Json::Num(value as f64)
    }

    /// A count, exact however large: written as a number, as digits beyond what a float
    /// holds exactly.
    pub fn count(value: u64) -> Json {
        if value <= MAX_EXACT {
            Json::Num(value as f64)
        } else {
            Json::Big(value.to_string())
        }
    }

    /// An object from `(key, value)` pairs.
    pub fn obj<const N: usize>(members: [(&str, Json); N]) -> Json {
        Json::Obj(
            members
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }
}

/// An object whose last member is an array written element by element, for output
/// that streams (a long analysis, a replay): [`Streamed::head`] is the text up to the
/// array's `[`, then come the elements (each a value's text, separated by commas), then
/// [`Streamed::tail`] closes the array and adds the members that follow it.
pub struct Streamed;

impl Streamed {
    /// `{"k":v,...,"array":[`: the members before the array, then the array's key.
    pub fn head<const N: usize>(members: [(&str, Json); N], array: &str) -> String {
        let mut text = Json::obj(members).to_string();
        text.pop(); // the closing brace
        if N > 0 {
            text.push(',');
        }
        // Writing to a String cannot fail.
        let _ = write_str(&mut text, array);
        text.push_str(":[");
        text
    }

    /// `],"k":v,...}`: the end of the array, the members after it, the end of the object.
    pub fn tail<const N: usize>(members: [(&str, Json); N]) -> String {
        let rest = Json::obj(members).to_string();
        let mut text = String::from("]");
        if N > 0 {
            text.push(',');
        }
        text.push_str(&rest[1..]);
        text
    }
}

/// Writes `text` as a JSON string literal, quotes included.
pub fn write_str(out: &mut impl fmt::Write, text: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in text.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32)?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

impl fmt::Display for Json {
    /// Compact JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            // Whole numbers print without a fraction; anything else JSON cannot say
            // (infinities, NaN) is null.
            Json::Num(v) if !v.is_finite() => f.write_str("null"),
            Json::Num(v) if v.fract() == 0.0 && v.abs() < 1e15 => write!(f, "{}", *v as i64),
            Json::Num(v) => write!(f, "{v}"),
            Json::Big(text) => f.write_str(text),
            Json::Str(s) => write_str(f, s),
            Json::Arr(items) => {
                f.write_char('[')?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    item.fmt(f)?;
                }
                f.write_char(']')
            }
            Json::Obj(members) => {
                f.write_char('{')?;
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write_str(f, k)?;
                    f.write_char(':')?;
                    v.fmt(f)?;
                }
                f.write_char('}')
            }
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn error(&self, what: &'static str) -> JsonError {
        JsonError { at: self.pos, what }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &'static str, value: Json) -> Result<Json, JsonError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.skip_space();
        match self.peek() {
            None => Err(self.error("expected a value, found the end")),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => self.array(depth + 1),
            Some(b'{') => self.object(depth + 1),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
        }
    }

    fn nest(&self, depth: usize) -> Result<(), JsonError> {
        if depth > MAX_DEPTH {
            Err(self.error("nested too deeply"))
        } else {
            Ok(())
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.nest(depth)?;
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Arr(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.nest(depth)?;
        self.pos += 1;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Obj(members));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a member name in quotes"));
            }
            let key = self.string()?;
            self.skip_space();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':'"));
            }
            self.pos += 1;
            members.push((key, self.value(depth)?));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Obj(members));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.pos;
        let digits = |r: &mut Reader| {
            let from = r.pos;
            while let Some(b'0'..=b'9') = r.peek() {
                r.pos += 1;
            }
            r.pos - from
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        if digits(self) == 0 {
            return Err(self.error("expected a digit"));
        }
        if self.bytes[int_start] == b'0' && self.pos - int_start > 1 {
            return Err(JsonError {
                at: int_start,
                what: "a number may not start with 0",
            });
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if digits(self) == 0 {
                return Err(self.error("expected a digit after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("expected a digit in the exponent"));
            }
        }
        // Only ASCII digits, signs, '.' and 'e' got here, so the text is valid UTF-8
        // and a valid float literal (a huge one parses as infinity).
        let text = std::str::from_utf8(&self.bytes[start..self.pos]).unwrap_or("0");
        match text.parse::<f64>() {
            // A whole number no float holds exactly keeps its text.
            Ok(v) if v.is_infinite() || v.fract() == 0.0 && v.abs() > MAX_EXACT as f64 => {
                Ok(Json::Big(text.to_string()))
            }
            Ok(v) => Ok(Json::Num(v)),
            Err(_) => Err(JsonError {
                at: start,
                what: "a number out of range",
            }),
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut value = 0;
        for _ in 0..4 {
            let digit = self
                .peek()
                .and_then(|b| (b as char).to_digit(16))
                .ok_or_else(|| self.error("expected four hex digits after \\u"))?;
            value = value * 16 + digit;
            self.pos += 1;
        }
        Ok(value)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            let b = self
                .peek()
                .ok_or_else(|| self.error("unterminated string"))?;
            match b {
                b'"' => {
                    self.pos += 1;
                    break;
                }
                b'\\' => {
                    self.pos += 1;
                    let e = self
                        .peek()
                        .ok_or_else(|| self.error("unterminated string"))?;
                    self.pos += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => {
                            self.pos -= 1;
                            return Err(self.error("unknown escape"));
                        }
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => return Err(self.error("control character in a string")),
                _ => {
                    out.push(b);
                    self.pos += 1;
                }
            }
        }
        String::from_utf8(out).map_err(|_| JsonError {
            at: start,
            what: "a string that is not UTF-8",
        })
    }

    /// After `\u`: one escape, or a surrogate pair of two.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let high = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&high) {
            if !self.bytes[self.pos..].starts_with(b"\\u") {
                return Err(self.error("expected the second half of a surrogate pair"));
            }
            self.pos += 2;
            let low = self.hex4()?;
            if !(0xDC00..0xE000).contains(&low) {
                return Err(self.error("expected a low surrogate"));
            }
            0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        } else {
            high
        };
        char::from_u32(code).ok_or_else(|| self.error("a lone surrogate"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip() {
        let text = r#"{"a":[1,-2,3.5,1e3],"b":"x\"y\\z\n\u00e9\ud83e\udd86","c":[true,false,null],"d":{}}"#;
        let v = Json::parse(text.as_bytes()).expect("valid JSON");
        assert_eq!(
            v.get("a").and_then(|a| a.as_array()).map(|a| a.len()),
            Some(4)
        );
        assert_eq!(v.get("b").and_then(Json::as_str), Some("x\"y\\z\né🦆"));
        assert_eq!(
            v.to_string(),
            r#"{"a":[1,-2,3.5,1000],"b":"x\"y\\z\né🦆","c":[true,false,null],"d":{}}"#
        );
        assert_eq!(Json::parse(v.to_string().as_bytes()), Ok(v));
    }

    #[test]
    fn integers_and_their_limits() {
        let v = Json::parse(b"[7, 7.5, -0, 1e400, -99999999999999999999999]").expect("valid");
        let ints: Vec<Option<i64>> = v.as_array().unwrap().iter().map(Json::as_int).collect();
        assert_eq!(
            ints,
            vec![Some(7), None, Some(0), Some(i64::MAX), Some(i64::MIN)]
        );
        assert_eq!(Json::Num(f64::NAN).to_string(), "null");
        // Beyond what a float holds exactly, a number keeps what was sent.
        let v = Json::parse(b"[1e400, 18446744073709551616, 9007199254740992, 2e20, 1.5]")
            .expect("valid");
        let items = v.as_array().unwrap();
        let written: Vec<String> = items.iter().map(Json::written).collect();
        assert_eq!(
            written,
            [
                "1e400",
                "18446744073709551616",
                "9007199254740992",
                "2e20",
                "1.5"
            ]
        );
        let exact: Vec<Option<i64>> = items.iter().map(Json::as_exact_int).collect();
        assert_eq!(exact, [None, None, Some(1 << 53), None, None]);
        assert_eq!(
            v.to_string(),
            "[1e400,18446744073709551616,9007199254740992,2e20,1.5]"
        );
        assert_eq!(Json::str("\u{1}").to_string(), "\"\\u0001\"");
    }

    #[test]
    fn bad_input_says_where() {
        let cases: &[(&[u8], usize, &str)] = &[
            (b"", 0, "expected a value, found the end"),
            (b"[1,]", 3, "expected a value"),
            (b"[1 2]", 3, "expected ',' or ']'"),
            (b"{1:2}", 1, "expected a member name in quotes"),
            (b"{\"a\" 2}", 5, "expected ':'"),
            (b"\"abc", 4, "unterminated string"),
            (b"\"a\\qb\"", 3, "unknown escape"),
            (
                b"\"\\ud800\"",
                7,
                "expected the second half of a surrogate pair",
            ),
            (b"\"\\udc00\"", 7, "a lone surrogate"),
            (b"\"\xff\"", 0, "a string that is not UTF-8"),
            (b"\"a\nb\"", 2, "control character in a string"),
            (b"01", 0, "a number may not start with 0"),
            (b"-", 1, "expected a digit"),
            (b"1.", 2, "expected a digit after '.'"),
            (b"1e", 2, "expected a digit in the exponent"),
            (b"nul", 0, "expected a value"),
            (b"{} x", 3, "unexpected text after the value"),
        ];
        for &(text, at, what) in cases {
            assert_eq!(
                Json::parse(text),
                Err(JsonError { at, what }),
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(Json::parse(deep.as_bytes()).is_ok());
        let deeper = "[".repeat(100_000);
        assert_eq!(
            Json::parse(deeper.as_bytes()),
            Err(JsonError {
                at: MAX_DEPTH,
                what: "nested too deeply"
            })
        );
    }

    #[test]
    fn a_streamed_object_is_the_object_written_whole() {
        let head = Streamed::head([("a", Json::int(1)), ("b", Json::str("x\"y"))], "items");
        let tail = Streamed::tail([("end", Json::Null)]);
        let text = format!("{head}{},{}{tail}", Json::int(5), Json::Bool(true));
        let whole = Json::obj([
            ("a", Json::int(1)),
            ("b", Json::str("x\"y")),
            ("items", Json::Arr(vec![Json::int(5), Json::Bool(true)])),
            ("end", Json::Null),
        ]);
        assert_eq!(text, whole.to_string());
        assert_eq!(Json::parse(text.as_bytes()), Ok(whole));
        assert_eq!(
            format!("{}{}", Streamed::head([], "s"), Streamed::tail([])),
            "{\"s\":[]}"
        );
    }
}
