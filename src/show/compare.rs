//! Comparing a program's output with the expected answer while both stream by: one pass,
//! memory that does not grow with either (a 64 KiB buffer for the answer and a few short
//! lines kept for the report), and no size cap.
//!
//! One pass gives two verdicts: byte-for-byte equality, and equality the way Luogu
//! compares by default, where whitespace at the end of a line and blank lines at the end
//! of the output do not count but everything else does, spacing inside a line included.
//! When the outputs differ in the second sense, the first differing line is kept with a
//! few lines after it on both sides, so that a report can tell a missing or an extra
//! line from a wrong one.
//!
//! The output is fed through [`Write`] (from a pipe, or from the built-in judge); the
//! answer is pulled from any [`Read`] as far as the output needs it. Once the output is
//! sure to differ and [`SETTLE`] more bytes have come, the comparator says it has seen
//! enough ([`Comparator::settled`]): a program that floods its output is not read
//! forever.

use std::io::{self, Read, Write};

/// Bytes of a line kept for the report; a longer line is shown cut.
pub const KEPT: usize = 160;
/// Lines kept after the first differing one, on each side.
pub const AHEAD: usize = 4;
/// The answer is read this much at a time.
const BUFFER: usize = 1 << 16;
/// Once a line is sure to differ, this much more output is taken before the comparison
/// has seen enough: far more than the rest of an official case's output (about 30 KB),
/// so a wrong answer that simply ends is read to its end and its lines counted, while a
/// flood (with line breaks or without) is cut within a moment.
pub const SETTLE: u64 = 1 << 20;

/// One line as kept for a report: its first [`KEPT`] bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The bytes kept, without the line end.
    pub text: Vec<u8>,
    /// Whether the line was longer than what is kept.
    pub cut: bool,
}

impl Line {
    /// A line from its text (for tests and reports).
    pub fn of(text: &str) -> Line {
        Line {
            text: text.as_bytes().to_vec(),
            cut: false,
        }
    }

    /// The text as a string (lossy UTF-8), without marking a cut.
    pub fn lossy(&self) -> String {
        String::from_utf8_lossy(&self.text).into_owned()
    }

    /// The text for a report: control characters escaped, `...` when cut.
    pub fn shown(&self) -> String {
        let mut s = self.lossy().escape_debug().to_string();
        if self.cut {
            s.push_str("...");
        }
        s
    }

    fn push(&mut self, b: u8) {
        if self.text.len() < KEPT {
            self.text.push(b);
        } else {
            self.cut = true;
        }
    }
}

/// The first line that differs (not only in whitespace at its end), with up to [`AHEAD`]
/// lines after it on each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Its index, from 0.
    pub line: u64,
    /// The answer's line and those after it; empty when the answer has no such line.
    pub expected: Vec<Line>,
    /// The output's line and those after it; empty when the output has no such line.
    pub actual: Vec<Line>,
}

/// The result of one comparison.
#[derive(Debug)]
pub struct Compared {
    /// The output equals the answer byte for byte.
    pub exact: bool,
    /// Where they differ beyond trailing whitespace and blank lines at the end.
    pub difference: Option<Difference>,
    /// When they differ in whitespace only: what differs.
    pub whitespace: Option<String>,
    /// Lines in the answer.
    pub expected_lines: u64,
    /// Lines in the output.
    pub actual_lines: u64,
    /// The answer could not be read to its end.
    pub expected_error: Option<io::Error>,
}

impl Compared {
    /// Whether the output is right: byte for byte, or up to whitespace when that is
    /// allowed.
    pub fn passed(&self, ignore_whitespace: bool) -> bool {
        self.exact || (ignore_whitespace && self.difference.is_none())
    }
}

/// Whitespace as Luogu trims it from line ends.
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// The part of a line after what both lines share.
#[derive(Clone, Copy, Debug)]
struct Rest {
    len: u64,
    /// Only whitespace so far.
    space: bool,
    /// Exactly one `\r`.
    cr: bool,
}

impl Rest {
    const EMPTY: Rest = Rest {
        len: 0,
        space: true,
        cr: false,
    };

    fn push(&mut self, b: u8) {
        self.cr = self.len == 0 && b == b'\r';
        self.len += 1;
        self.space &= is_space(b);
    }
}

/// One stream's current line and its counts.
#[derive(Debug)]
struct Side {
    kept: Line,
    rest: Rest,
    /// The current line has at least one byte.
    started: bool,
    newlines: u64,
    last: Option<u8>,
}

impl Side {
    fn new() -> Side {
        Side {
            kept: Line::default(),
            rest: Rest::EMPTY,
            started: false,
            newlines: 0,
            last: None,
        }
    }

    /// Counts one byte of the stream.
    fn count(&mut self, b: u8) {
        self.last = Some(b);
        if b == b'\n' {
            self.newlines += 1;
        }
    }

    fn take(&mut self, b: u8) {
        self.kept.push(b);
        self.started = true;
        self.count(b);
    }

    fn next_line(&mut self) {
        self.kept = Line::default();
        self.rest = Rest::EMPTY;
        self.started = false;
    }

    fn lines(&self) -> u64 {
        self.newlines + u64::from(self.last.is_some_and(|b| b != b'\n'))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Both lines agree so far.
    Match,
    /// They parted; the rest of each is being classified.
    Rest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// No difference yet.
    Compare,
    /// Keeping this many more lines after the first difference.
    Ahead(usize),
    /// Only counting lines.
    Drain,
}

/// Compares output written to it with the answer read from `E`.
pub struct Comparator<E> {
    source: E,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    eof: bool,
    error: Option<io::Error>,
    /// The index of the current line pair.
    line: u64,
    /// The answer has a line (possibly the empty one after its last newline) here.
    expected_present: bool,
    phase: Phase,
    stage: Stage,
    actual: Side,
    expected: Side,
    exact: bool,
    difference: Option<Difference>,
    /// The first line whose trailing whitespace differs.
    trailing: Option<u64>,
    /// Every such line differs by a `\r` at the end of the output's line.
    crlf_actual: bool,
    /// Every such line differs by a `\r` at the end of the answer's line.
    crlf_expected: bool,
    /// Output bytes taken since a difference became certain.
    since_certain: u64,
    /// Only a byte-for-byte match passes (`--exact`): the first line that breaks it
    /// makes the verdict certain too, so a flood of blank lines settles as a flood of
    /// text does.
    strict: bool,
}

impl<E: Read> Comparator<E> {
    /// The output differs beyond whitespace and has gone on for [`SETTLE`] bytes since
    /// that was certain: the rest would only be counted.
    pub fn settled(&self) -> bool {
        self.since_certain >= SETTLE
    }

    /// The same comparison for a byte-for-byte verdict when `strict` (`--exact`): it
    /// has seen enough once the output has gone on for [`SETTLE`] bytes after the first
    /// line that is not the answer's byte for byte.
    pub fn strict(self, strict: bool) -> Comparator<E> {
        Comparator { strict, ..self }
    }

    /// A comparison against the answer `source`.
    pub fn new(source: E) -> Comparator<E> {
        Comparator {
            source,
            buf: vec![0; BUFFER].into_boxed_slice(),
            pos: 0,
            len: 0,
            eof: false,
            error: None,
            line: 0,
            expected_present: true,
            phase: Phase::Match,
            stage: Stage::Compare,
            actual: Side::new(),
            expected: Side::new(),
            exact: true,
            difference: None,
            trailing: None,
            crlf_actual: true,
            crlf_expected: true,
            since_certain: 0,
            strict: false,
        }
    }

    /// Whether a difference beyond whitespace is certain: found, or the current line
    /// already has more than whitespace where the answer's line has ended or differs.
    fn certain(&self) -> bool {
        self.difference.is_some() || (self.phase == Phase::Rest && !self.actual.rest.space)
    }

    /// The answer's next byte, not consumed; `None` at its end.
    fn peek(&mut self) -> Option<u8> {
        while self.pos == self.len && !self.eof {
            match self.source.read(&mut self.buf) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.pos = 0;
                    self.len = n;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.error = Some(e);
                    self.eof = true;
                }
            }
        }
        (self.pos < self.len).then(|| self.buf[self.pos])
    }

    /// The answer's next byte within its current line, not consumed.
    fn peek_in_line(&mut self) -> Option<u8> {
        if !self.expected_present {
            return None;
        }
        self.peek().filter(|&b| b != b'\n')
    }

    /// Moves the rest of the answer's current line into its [`Rest`].
    fn drain_expected_line(&mut self) {
        while let Some(b) = self.peek_in_line() {
            self.pos += 1;
            self.expected.take(b);
            self.expected.rest.push(b);
        }
    }

    /// Feeds output bytes.
    fn feed(&mut self, bytes: &[u8]) {
        self.take(bytes);
        if self.certain() || (self.strict && !self.exact) {
            self.since_certain += bytes.len() as u64;
        }
    }

    fn take(&mut self, bytes: &[u8]) {
        if self.stage == Stage::Drain {
            for &b in bytes {
                self.actual.count(b);
            }
            return;
        }
        let mut i = 0;
        while i < bytes.len() {
            // The usual case, equal text, goes by whole runs rather than byte by byte.
            if self.stage == Stage::Compare && self.phase == Phase::Match && self.expected_present {
                if self.pos == self.len {
                    self.peek();
                }
                let n = common_prefix(&bytes[i..], &self.buf[self.pos..self.len]);
                if n > 0 {
                    self.equal_run(&bytes[i..i + n]);
                    self.pos += n;
                    i += n;
                    continue;
                }
            }
            self.byte(bytes[i]);
            i += 1;
        }
    }

    /// Takes a run that both streams have, from where the lines agree so far: every
    /// line it ends is equal on both sides.
    fn equal_run(&mut self, run: &[u8]) {
        let newlines = run.iter().filter(|&&b| b == b'\n').count() as u64;
        let last = run.last().copied();
        self.line += newlines;
        let tail = match run.iter().rposition(|&b| b == b'\n') {
            Some(p) => {
                self.actual.next_line();
                self.expected.next_line();
                &run[p + 1..]
            }
            None => run,
        };
        for side in [&mut self.actual, &mut self.expected] {
            side.newlines += newlines;
            side.last = last.or(side.last);
            let room = KEPT.saturating_sub(side.kept.text.len());
            side.kept
                .text
                .extend_from_slice(&tail[..tail.len().min(room)]);
            side.kept.cut |= tail.len() > room;
            side.started |= !tail.is_empty();
        }
    }

    /// Feeds one output byte.
    fn byte(&mut self, b: u8) {
        if b == b'\n' {
            self.actual.count(b);
            self.end_line(true, true);
            return;
        }
        self.actual.take(b);
        if self.phase == Phase::Match {
            if self.peek_in_line() == Some(b) {
                self.pos += 1;
                self.expected.take(b);
                return;
            }
            self.drain_expected_line();
            self.phase = Phase::Rest;
        }
        self.actual.rest.push(b);
    }

    /// Ends the current pair of lines: the output's line is present (or not: the output
    /// has ended before this line) and ends in a newline (or at the end of the output).
    fn end_line(&mut self, actual_present: bool, actual_newline: bool) {
        if self.phase == Phase::Match {
            self.drain_expected_line();
        }
        let expected_newline = self.expected_present && self.peek() == Some(b'\n');
        // "Present" includes the empty piece after a final newline; a line shown in a
        // report is one with a newline after it or some text.
        let expected_line = self.expected_present && (expected_newline || self.expected.started);
        let actual_line = actual_present && (actual_newline || self.actual.started);
        let (a, e) = (self.actual.rest, self.expected.rest);
        let exact = actual_present && self.expected_present && a.len == 0 && e.len == 0;
        let lenient = a.space && e.space;
        match self.stage {
            Stage::Compare => {
                if !exact {
                    self.exact = false;
                    if lenient && actual_line && expected_line {
                        self.trailing.get_or_insert(self.line + 1);
                        self.crlf_actual &= a.cr && e.len == 0;
                        self.crlf_expected &= e.cr && a.len == 0;
                    }
                }
                if !lenient {
                    let keep = |present: bool, side: &Side| {
                        if present {
                            vec![side.kept.clone()]
                        } else {
                            Vec::new()
                        }
                    };
                    self.difference = Some(Difference {
                        line: self.line,
                        expected: keep(expected_line, &self.expected),
                        actual: keep(actual_line, &self.actual),
                    });
                    self.stage = Stage::Ahead(AHEAD);
                }
            }
            Stage::Ahead(left) => {
                if let Some(d) = &mut self.difference {
                    if expected_line {
                        d.expected.push(self.expected.kept.clone());
                    }
                    if actual_line {
                        d.actual.push(self.actual.kept.clone());
                    }
                }
                self.stage = if left > 1 {
                    Stage::Ahead(left - 1)
                } else {
                    Stage::Drain
                };
            }
            Stage::Drain => {}
        }
        if expected_newline {
            self.pos += 1;
            self.expected.count(b'\n');
        } else {
            self.expected_present = false;
        }
        self.actual.next_line();
        self.expected.next_line();
        self.phase = Phase::Match;
        self.line += 1;
    }

    /// Ends the comparison once the output is complete.
    pub fn finish(mut self) -> Compared {
        if self.stage != Stage::Drain {
            // The output's last line, ended by the end of the output.
            self.end_line(true, false);
        }
        // The answer's lines after the end of the output.
        while self.expected_present && self.stage != Stage::Drain {
            self.end_line(false, false);
        }
        while let Some(b) = self.peek() {
            self.pos += 1;
            self.expected.count(b);
        }
        let whitespace = (!self.exact && self.difference.is_none()).then(|| self.whitespace());
        Compared {
            exact: self.exact,
            difference: self.difference,
            whitespace,
            expected_lines: self.expected.lines(),
            actual_lines: self.actual.lines(),
            expected_error: self.error,
        }
    }

    /// What differs when only whitespace does.
    fn whitespace(&self) -> String {
        let mut what = Vec::new();
        if let Some(line) = self.trailing {
            what.push(if self.crlf_actual {
                "the output has CRLF line ends".to_string()
            } else if self.crlf_expected {
                "the expected output has CRLF line ends".to_string()
            } else {
                format!("trailing whitespace differs (first on line {line})")
            });
        }
        let (a, e) = (self.actual.lines(), self.expected.lines());
        if a > e {
            what.push(format!("{} at the end", plural_blank(a - e, "extra")));
        } else if e > a {
            what.push(format!("{} at the end", plural_blank(e - a, "missing")));
        }
        let newline = |side: &Side| side.last == Some(b'\n');
        match (newline(&self.expected), newline(&self.actual)) {
            (true, false) if self.actual.last.is_some() => {
                what.push("the final newline is missing".to_string());
            }
            (false, true) if self.expected.last.is_some() => {
                what.push("the output has a final newline, the answer not".to_string());
            }
            _ => {}
        }
        if what.is_empty() {
            what.push("whitespace differs".to_string());
        }
        what.join("; ")
    }
}

/// How many bytes `a` and `b` share at their starts.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    // Whole blocks first: a slice comparison is a vectorised memcmp.
    const BLOCK: usize = 64;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

fn plural_blank(n: u64, how: &str) -> String {
    if n == 1 {
        format!("1 blank line {how}")
    } else if how == "extra" {
        format!("{n} extra blank lines")
    } else {
        format!("{n} blank lines {how}")
    }
}

impl<E: Read> Write for Comparator<E> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.feed(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Compares two complete texts (for tests and small in-memory cases).
pub fn compare(expected: &[u8], actual: &[u8]) -> Compared {
    let mut c = Comparator::new(expected);
    c.feed(actual);
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `actual` in pieces of `step` bytes.
    fn in_steps(expected: &[u8], actual: &[u8], step: usize) -> Compared {
        let mut c = Comparator::new(expected);
        for piece in actual.chunks(step.max(1)) {
            c.write_all(piece).expect("never fails");
        }
        c.finish()
    }

    fn ws(expected: &str, actual: &str) -> Option<String> {
        let c = compare(expected.as_bytes(), actual.as_bytes());
        assert!(c.difference.is_none(), "{expected:?} vs {actual:?}: {c:?}");
        assert!(!c.exact);
        c.whitespace
    }

    /// Feeds `start`, then `chunk` until the comparator has seen enough (`None` if not
    /// within `most` bytes); returns how many bytes that took.
    fn settle_after(expected: &[u8], start: &[u8], chunk: &[u8], most: u64) -> Option<u64> {
        let mut c = Comparator::new(expected);
        c.write_all(start).expect("never fails");
        let mut fed = start.len() as u64;
        while fed < most {
            c.write_all(chunk).expect("never fails");
            fed += chunk.len() as u64;
            if c.settled() {
                return Some(fed);
            }
        }
        None
    }

    #[test]
    fn a_flood_that_differs_is_settled_within_a_bound() {
        let answer = b"red car;NA;no;no\nInvalid command\n";
        // Lines without end, one line without end, and a right answer then extra
        // lines: each settles once SETTLE bytes have followed a sure difference.
        for (chunk, what) in [
            (&b"y\n"[..], "lines"),
            (&b"yyyy"[..], "one line"),
            (&b"Invalid command\n"[..], "extra lines"),
        ] {
            let fed = settle_after(answer, b"", chunk, 4 * SETTLE);
            assert!(
                fed.is_some_and(|n| (SETTLE..=SETTLE + 64).contains(&n)),
                "{what}: {fed:?}"
            );
        }
        // Right so far, or differing only in whitespace: never settled (the verdict
        // may still be AC, or depends on --ignore-whitespace and the line counts).
        let long: Vec<u8> = b"Invalid command\n".repeat(1 << 17);
        let mut c = Comparator::new(&long[..]);
        c.write_all(&long).expect("never fails");
        assert!(!c.settled());
        assert_eq!(settle_after(b"a\n", b"a\n", b"\n", 4 * SETTLE), None);
        assert_eq!(settle_after(b"a\n", b"a", b" ", 4 * SETTLE), None);
        // A wrong answer that simply ends is never cut: its lines are all counted.
        let mut c = Comparator::new(&answer[..]);
        c.write_all(b"Invalid command\nInvalid command\n")
            .expect("never fails");
        assert!(!c.settled());
        assert_eq!(c.finish().actual_lines, 2);
    }

    #[test]
    fn equal_texts_are_exact() {
        for text in ["", "a\n", "a\nb\n", "a\nb", "\n\n"] {
            let c = compare(text.as_bytes(), text.as_bytes());
            assert!(
                c.exact && c.difference.is_none() && c.whitespace.is_none(),
                "{text:?}"
            );
        }
        let c = compare(b"a\nb\n", b"a\nb\n");
        assert_eq!((c.expected_lines, c.actual_lines), (2, 2));
    }

    #[test]
    fn whitespace_only_differences_are_named() {
        let table = [
            ("a b\nc\n", "a b\r\nc\r\n", "the output has CRLF line ends"),
            (
                "a b\r\nc\r\n",
                "a b\nc\n",
                "the expected output has CRLF line ends",
            ),
            (
                "a b\nc\n",
                "a b  \nc\n",
                "trailing whitespace differs (first on line 1)",
            ),
            ("a b\nc\n", "a b\nc", "the final newline is missing"),
            (
                "a b\nc",
                "a b\nc\n",
                "the output has a final newline, the answer not",
            ),
            (
                "a b\nc\n",
                "a b\nc\t\n\n \n",
                "trailing whitespace differs (first on line 2); 2 extra blank lines at the end",
            ),
            ("a\n\n", "a\n", "1 blank line missing at the end"),
        ];
        for (expected, actual, said) in table {
            assert_eq!(
                ws(expected, actual).as_deref(),
                Some(said),
                "{expected:?} {actual:?}"
            );
        }
    }

    #[test]
    fn spacing_inside_a_line_and_leading_blank_lines_count() {
        let c = compare(b"a;b\nc\n", b"a; b\nc\n");
        let d = c.difference.expect("a difference");
        assert_eq!(d.line, 0);
        assert_eq!(d.expected[0], Line::of("a;b"));
        assert_eq!(d.actual[0], Line::of("a; b"));
        let c = compare(b"a\nb\n", b"\na\nb\n");
        assert_eq!(c.difference.expect("a difference").line, 0);
        let c = compare(b"a\nb\n", b" a\nb\n");
        assert_eq!(c.difference.expect("a difference").line, 0);
    }

    #[test]
    fn the_first_difference_keeps_lines_after_it() {
        let expected = b"1\n2\n3\n4\n5\n6\n7\n8\n";
        let actual = b"1\n2\n4\n5\n6\n7\n8\n";
        for step in [1, 2, 3, 100] {
            let c = in_steps(expected, actual, step);
            let d = c.difference.expect("a difference");
            assert_eq!(d.line, 2);
            let texts = |v: &[Line]| v.iter().map(Line::lossy).collect::<Vec<_>>();
            assert_eq!(texts(&d.expected), ["3", "4", "5", "6", "7"]);
            assert_eq!(texts(&d.actual), ["4", "5", "6", "7", "8"]);
            assert_eq!((c.expected_lines, c.actual_lines), (8, 7));
        }
    }

    #[test]
    fn output_that_ends_early_or_goes_on() {
        let c = compare(b"a\nb\n", b"a\n");
        let d = c.difference.expect("a difference");
        assert_eq!((d.line, d.actual.len()), (1, 0));
        assert_eq!(d.expected, vec![Line::of("b")]);
        let c = compare(b"a\n", b"a\nb\nc\n");
        let d = c.difference.expect("a difference");
        assert_eq!((d.line, d.expected.len()), (1, 0));
        assert_eq!(d.actual, vec![Line::of("b"), Line::of("c")]);
        let c = compare(b"a\n", b"");
        assert_eq!(c.difference.expect("a difference").line, 0);
        assert_eq!((c.expected_lines, c.actual_lines), (1, 0));
    }

    #[test]
    fn long_lines_are_compared_whole_and_kept_cut() {
        let long = "x".repeat(10_000);
        let expected = format!("{long}\n");
        let actual = format!("{long}y\n");
        let c = in_steps(expected.as_bytes(), actual.as_bytes(), 4096);
        let d = c.difference.expect("a difference");
        assert_eq!(d.actual[0].text.len(), KEPT);
        assert!(d.actual[0].cut);
        assert!(d.actual[0].shown().ends_with("..."));
        // Trailing whitespace of any length is still only whitespace.
        let actual = format!("{long}{}\n", " ".repeat(100_000));
        let c = in_steps(expected.as_bytes(), actual.as_bytes(), 777);
        assert!(c.difference.is_none() && !c.exact);
    }

    #[test]
    fn a_line_ended_early_differs_in_the_answer_s_rest() {
        let c = compare(b"abc\n", b"ab\n");
        assert_eq!(c.difference.expect("a difference").line, 0);
        let c = compare(b"ab \n", b"ab\n");
        assert!(c.difference.is_none());
        assert_eq!(
            c.whitespace.as_deref(),
            Some("trailing whitespace differs (first on line 1)")
        );
    }

    /// The same comparison the slow, obvious way: split into lines, trim their ends,
    /// drop blank lines at the end.
    fn naive(expected: &[u8], actual: &[u8]) -> (bool, Option<u64>, u64, u64) {
        let segments =
            |t: &[u8]| -> Vec<Vec<u8>> { t.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect() };
        let trim = |l: &[u8]| -> Vec<u8> {
            let end = l.iter().rposition(|&b| !is_space(b)).map_or(0, |p| p + 1);
            l[..end].to_vec()
        };
        let (e, a) = (segments(expected), segments(actual));
        let n = e.len().max(a.len());
        let first = (0..n).find(|&i| {
            let get = |v: &Vec<Vec<u8>>| v.get(i).map(|l| trim(l)).unwrap_or_default();
            get(&e) != get(&a)
        });
        let lines = |t: &[u8]| {
            let nl = t.iter().filter(|&&b| b == b'\n').count() as u64;
            nl + u64::from(t.last().is_some_and(|&b| b != b'\n'))
        };
        (
            expected == actual,
            first.map(|i| i as u64),
            lines(expected),
            lines(actual),
        )
    }

    #[test]
    fn agrees_with_the_obvious_comparison_however_the_output_arrives() {
        let mut rng = crate::sys::rng::Rng::new(5);
        let pieces: [&[u8]; 8] = [
            b"red car;NA;no;no",
            b"Invalid command",
            b" ",
            b"\r",
            b"\n",
            b"\t",
            b"x",
            b"\n\n",
        ];
        for _ in 0..3000 {
            let text = |rng: &mut crate::sys::rng::Rng| {
                let mut t = Vec::new();
                for _ in 0..rng.below(12) {
                    t.extend_from_slice(pieces[rng.index(pieces.len())]);
                }
                t
            };
            let expected = text(&mut rng);
            // Often a copy with a small change, sometimes unrelated.
            let mut actual = expected.clone();
            match rng.below(4) {
                0 => actual = text(&mut rng),
                1 if !actual.is_empty() => {
                    let at = rng.index(actual.len());
                    actual.insert(at, pieces[rng.index(pieces.len())][0]);
                }
                2 if !actual.is_empty() => {
                    actual.remove(rng.index(actual.len()));
                }
                _ => {}
            }
            let step = 1 + rng.index(20);
            let c = in_steps(&expected, &actual, step);
            let (exact, first, el, al) = naive(&expected, &actual);
            let what = format!(
                "{:?} vs {:?}",
                String::from_utf8_lossy(&expected),
                String::from_utf8_lossy(&actual)
            );
            assert_eq!(c.exact, exact, "{what}");
            assert_eq!(c.difference.as_ref().map(|d| d.line), first, "{what}");
            assert_eq!((c.expected_lines, c.actual_lines), (el, al), "{what}");
            assert_eq!(c.whitespace.is_some(), !exact && first.is_none(), "{what}");
            if let (Some(d), Some(i)) = (&c.difference, first) {
                // The line kept for the report, when that side has one there.
                let line = |t: &[u8]| {
                    let segs: Vec<&[u8]> = t.split(|&b| b == b'\n').collect();
                    let i = i as usize;
                    segs.get(i)
                        .filter(|l| i + 1 < segs.len() || !l.is_empty())
                        .map(|l| l.to_vec())
                };
                assert_eq!(
                    d.expected.first().map(|l| l.text.clone()),
                    line(&expected),
                    "{what}"
                );
                assert_eq!(
                    d.actual.first().map(|l| l.text.clone()),
                    line(&actual),
                    "{what}"
                );
            }
        }
    }

    #[test]
    fn passed_follows_the_whitespace_switch() {
        let c = compare(b"a\n", b"a \n");
        assert!(!c.passed(false) && c.passed(true));
        let c = compare(b"a\n", b"b\n");
        assert!(!c.passed(false) && !c.passed(true));
    }
}
