//! An output beside its answer, line by line (`test --diff`): line `n` of the answer is
//! set beside line `n` of the output, with its number, and a line that differs is
//! marked `!`. Lines differ as the comparison of the run says ([`super::compare`]): by
//! default whitespace at a line's end does not count, nor does a blank line past the
//! other side's end; with `--exact` every byte does.
//!
//! Both sides stream by: the output is written in as it comes, and the answer is read
//! from its own reader as far as the output goes. Memory is bounded whatever their
//! size: when neither has more than [`WHOLE`] lines every line is shown; otherwise only
//! the differing lines, each with [`AROUND`] line before and after it (a `...` row
//! stands for the lines between), at most [`ROWS`] rows, the differing lines past them
//! counted. A line is kept to its first [`KEPT`] bytes, and its text shown cut at
//! [`WIDTH`] characters.

use super::compare::{is_space, Line, KEPT};
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};

/// Outputs and answers of at most this many lines are shown whole.
pub const WHOLE: u64 = 100;
/// Otherwise, the lines shown before and after each differing line.
pub const AROUND: u64 = 1;
/// Otherwise, the most rows shown (`...` rows included).
pub const ROWS: usize = 60;
/// A line's text is shown cut at this many characters (`...` after it).
pub const WIDTH: usize = 40;

/// One line of a stream: the bytes kept for display, and two fingerprints of the whole
/// line, all of it and without the whitespace at its end.
#[derive(Clone, Debug, Default)]
struct Taken {
    kept: Line,
    all: (u64, u64),
    trimmed: (u64, u64),
}

/// FNV-1a, 64 bits.
const BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

impl Taken {
    fn new() -> Taken {
        Taken {
            kept: Line::default(),
            all: (BASIS, 0),
            trimmed: (BASIS, 0),
        }
    }

    fn push(&mut self, b: u8) {
        if self.kept.text.len() < KEPT {
            self.kept.text.push(b);
        } else {
            self.kept.cut = true;
        }
        self.all = (
            (self.all.0 ^ u64::from(b)).wrapping_mul(PRIME),
            self.all.1 + 1,
        );
        if !is_space(b) {
            self.trimmed = self.all;
        }
    }

    /// Only whitespace (or nothing).
    fn blank(&self) -> bool {
        self.trimmed.1 == 0
    }
}

/// A row of the diff.
#[derive(Clone, Debug)]
enum Row {
    /// Line `number` (from 1) of each side, if it has one, and whether they differ.
    Pair {
        number: u64,
        expected: Option<Line>,
        actual: Option<Line>,
        differs: bool,
    },
    /// Lines left out.
    Gap,
}

/// The answer, read a line at a time.
struct Answer<E> {
    reader: BufReader<E>,
    done: bool,
}

impl<E: Read> Answer<E> {
    /// The next line; `None` at the end (or when the answer cannot be read further).
    fn next(&mut self) -> Option<Taken> {
        if self.done {
            return None;
        }
        let mut line = Taken::new();
        let mut any = false;
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if buf.is_empty() {
                self.done = true;
                return any.then_some(line);
            }
            let (used, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (buf.len(), false),
            };
            for &b in &buf[..if end { used - 1 } else { used }] {
                line.push(b);
            }
            any = true;
            self.reader.consume(used);
            if end {
                return Some(line);
            }
        }
    }
}

/// The diff of an output against its answer, built as the output is written to it.
pub struct LineDiff<E> {
    answer: Answer<E>,
    exact: bool,
    /// The output's line being written.
    current: Taken,
    started: bool,
    /// Lines paired so far.
    number: u64,
    /// Every row so far, while there are at most [`WHOLE`] lines.
    rows: Vec<Row>,
    /// Past [`WHOLE`] lines: only the rows around differing lines.
    around: bool,
    /// The last [`AROUND`] rows not kept, in case a differing line follows.
    recent: VecDeque<Row>,
    /// Rows still to keep after a differing line.
    after: u64,
    /// The number of the last row kept.
    last_kept: u64,
    /// Differing lines, and those past the [`ROWS`] shown.
    differing: u64,
    untold: u64,
}

impl<E: Read> LineDiff<E> {
    /// A diff against the answer read from `answer`, line for line as `--exact` says
    /// (`exact`) or as the online judge compares.
    pub fn new(answer: E, exact: bool) -> LineDiff<E> {
        LineDiff {
            answer: Answer {
                reader: BufReader::with_capacity(1 << 16, answer),
                done: false,
            },
            exact,
            current: Taken::new(),
            started: false,
            number: 0,
            rows: Vec::new(),
            around: false,
            recent: VecDeque::new(),
            after: 0,
            last_kept: 0,
            differing: 0,
            untold: 0,
        }
    }

    /// Whether two lines differ (a missing one is `None`).
    fn differ(&self, expected: Option<&Taken>, actual: Option<&Taken>) -> bool {
        match (expected, actual) {
            (Some(e), Some(a)) if self.exact => e.all != a.all || e.kept != a.kept,
            (Some(e), Some(a)) => {
                let shown = |t: &Taken| t.kept.text.len().min(t.trimmed.1 as usize);
                e.trimmed != a.trimmed || e.kept.text[..shown(e)] != a.kept.text[..shown(a)]
            }
            // A blank line past the other's end is a blank line at the end.
            (Some(t), None) | (None, Some(t)) => self.exact || !t.blank(),
            (None, None) => false,
        }
    }

    /// Pairs the output's line `actual` (`None` past its end) with the answer's next.
    fn pair(&mut self, actual: Option<Taken>) {
        let expected = self.answer.next();
        if expected.is_none() && actual.is_none() {
            return;
        }
        let differs = self.differ(expected.as_ref(), actual.as_ref());
        self.number += 1;
        let row = Row::Pair {
            number: self.number,
            expected: expected.map(|t| t.kept),
            actual: actual.map(|t| t.kept),
            differs,
        };
        if differs {
            self.differing += 1;
        }
        if !self.around {
            self.rows.push(row);
            if self.number > WHOLE {
                self.narrow();
            }
            return;
        }
        self.take(row, differs);
    }

    /// Past [`WHOLE`] lines: the rows kept so far are cut down to those around
    /// differing lines.
    fn narrow(&mut self) {
        self.around = true;
        let rows = std::mem::take(&mut self.rows);
        self.differing = 0;
        for row in rows {
            let differs = matches!(row, Row::Pair { differs: true, .. });
            if differs {
                self.differing += 1;
            }
            self.take(row, differs);
        }
    }

    /// Keeps `row` if it is near a differing line, within [`ROWS`].
    fn take(&mut self, row: Row, differs: bool) {
        let Row::Pair { number, .. } = row else {
            return;
        };
        if differs {
            if self.rows.len() >= ROWS {
                self.untold += 1;
                return;
            }
            let first = self.recent.front().map_or(number, |r| match r {
                Row::Pair { number, .. } => *number,
                Row::Gap => number,
            });
            if first > self.last_kept + 1 {
                self.rows.push(Row::Gap);
            }
            self.rows.extend(self.recent.drain(..));
            self.rows.push(row);
            self.last_kept = number;
            self.after = AROUND;
        } else if self.after > 0 && self.rows.len() < ROWS {
            self.after -= 1;
            self.rows.push(row);
            self.last_kept = number;
        } else {
            self.recent.push_back(row);
            if self.recent.len() as u64 > AROUND {
                self.recent.pop_front();
            }
        }
    }

    /// The diff, once the output is over: the answer's lines past the output's end
    /// are paired with none (while the answer lasts: past [`WHOLE`] rows shown, only
    /// counted).
    pub fn finish(mut self) -> Diff {
        if self.started {
            let last = std::mem::replace(&mut self.current, Taken::new());
            self.pair(Some(last));
        }
        while !self.answer.done {
            self.pair(None);
        }
        if self.around && self.last_kept < self.number && !self.rows.is_empty() {
            self.rows.push(Row::Gap);
        }
        Diff {
            rows: self.rows,
            lines: self.number,
            differing: self.differing,
            untold: self.untold,
        }
    }
}

impl<E: Read> Write for LineDiff<E> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        for &b in bytes {
            if b == b'\n' {
                let line = std::mem::replace(&mut self.current, Taken::new());
                self.started = false;
                self.pair(Some(line));
            } else {
                self.current.push(b);
                self.started = true;
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A finished diff.
#[derive(Debug)]
pub struct Diff {
    rows: Vec<Row>,
    /// Line pairs in all.
    lines: u64,
    differing: u64,
    /// Differing lines not shown.
    untold: u64,
}

impl Diff {
    /// How many lines differ.
    pub fn differing(&self) -> u64 {
        self.differing
    }

    /// The diff as text, one row a line: a header, then `  ! N  ANSWER | OUTPUT` rows
    /// (`!` for a line that differs, `(none)` for a line one side lacks, `...` for
    /// lines left out), then what was not shown.
    pub fn render(&self) -> String {
        let shown = |l: &Option<Line>| match l {
            Some(line) => cut(&line.shown()),
            None => "(none)".to_string(),
        };
        let pairs = || {
            self.rows.iter().filter_map(|r| match r {
                Row::Pair {
                    number,
                    expected,
                    actual,
                    differs,
                } => Some((*number, expected, actual, *differs)),
                Row::Gap => None,
            })
        };
        let width = pairs()
            .map(|(_, e, _, _)| shown(e).chars().count())
            .chain(["answer".len()])
            .max()
            .unwrap_or(0);
        let digits = pairs()
            .map(|(n, ..)| n.to_string().len())
            .max()
            .unwrap_or(1);
        let which = if self.lines <= WHOLE {
            "every line".to_string()
        } else {
            format!("the differing lines with {AROUND} around each")
        };
        let mut out = format!(
            "diff, line by line ({which}; ! marks a line that differs, {} of {}):\n",
            self.differing, self.lines
        );
        out.push_str(&format!(
            "  {:>digits$}  {:<width$} | output\n",
            "",
            "answer",
            digits = digits + 2
        ));
        for row in &self.rows {
            match row {
                Row::Pair {
                    number,
                    expected,
                    actual,
                    differs,
                } => {
                    let mark = if *differs { '!' } else { ' ' };
                    let expected = shown(expected);
                    let pad = width - expected.chars().count();
                    out.push_str(&format!(
                        "  {mark} {number:>digits$}  {expected}{:pad$} | {}\n",
                        "",
                        shown(actual)
                    ));
                }
                Row::Gap => out.push_str(&format!("    {:>digits$}\n", "...")),
            }
        }
        if self.untold > 0 {
            out.push_str(&format!(
                "  and {} more differing {} not shown\n",
                self.untold,
                if self.untold == 1 { "line" } else { "lines" }
            ));
        }
        out
    }
}

/// `text` cut at [`WIDTH`] characters.
fn cut(text: &str) -> String {
    if text.chars().count() <= WIDTH {
        return text.to_string();
    }
    let mut s: String = text.chars().take(WIDTH).collect();
    s.push_str("...");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(answer: &str, output: &str, exact: bool) -> Diff {
        let mut d = LineDiff::new(answer.as_bytes(), exact);
        d.write_all(output.as_bytes()).unwrap();
        d.finish()
    }

    #[test]
    fn a_short_output_is_shown_whole_with_its_differing_lines_marked() {
        let d = diff("a\nb\nc\n", "a\nx  \nc\nd\n", false);
        assert_eq!(
            d.render(),
            "diff, line by line (every line; ! marks a line that differs, 2 of 4):\n\
             \x20      answer | output\n\
             \x20   1  a      | a\n\
             \x20 ! 2  b      | x  \n\
             \x20   3  c      | c\n\
             \x20 ! 4  (none) | d\n"
        );
    }

    #[test]
    fn whitespace_counts_as_the_comparison_says() {
        let d = diff("a\nb\n", "a  \r\nb\n\n\n", false);
        assert_eq!(d.differing(), 0);
        let d = diff("a\nb\n", "a  \r\nb\n\n\n", true);
        assert_eq!(d.differing(), 3);
        // No final newline is no line of difference either way.
        assert_eq!(diff("a\nb\n", "a\nb", false).differing(), 0);
        assert_eq!(diff("a\n", "a", true).differing(), 0);
        // Long lines compare whole, not by what is shown.
        let long = "x".repeat(KEPT + 10);
        let other = format!("{}y", "x".repeat(KEPT + 9));
        assert_eq!(
            diff(&format!("{long}\n"), &format!("{other}\n"), false).differing(),
            1
        );
        assert_eq!(
            diff(&format!("{long}\n"), &format!("{long} \n"), false).differing(),
            0
        );
    }

    #[test]
    fn a_long_output_shows_the_lines_around_each_difference_within_bounds() {
        let answer: String = (1..=1000).map(|i| format!("{i}\n")).collect();
        let mut output: Vec<String> = (1..=1000).map(|i| i.to_string()).collect();
        output[499] = "wrong".to_string();
        output.truncate(998);
        let output = output.join("\n") + "\n";
        let d = diff(&answer, &output, false);
        assert_eq!(d.differing(), 3);
        let text = d.render();
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(
            rows[0],
            "diff, line by line (the differing lines with 1 around each; ! marks a line \
             that differs, 3 of 1000):"
        );
        assert_eq!(rows[2], "     ...");
        assert_eq!(rows[3], "     499  499    | 499");
        assert_eq!(rows[4], "  !  500  500    | wrong");
        assert_eq!(rows[5], "     501  501    | 501");
        assert_eq!(rows[6], "     ...");
        assert_eq!(rows[7], "     998  998    | 998");
        assert_eq!(rows[8], "  !  999  999    | (none)");
        assert_eq!(rows[9], "  ! 1000  1000   | (none)");
        assert_eq!(rows.len(), 10);
        // Every line wrong: the rows stop, the rest is counted.
        let wrong: String = (1..=1000).map(|_| "x\n").collect();
        let text = diff(&answer, &wrong, false).render();
        assert_eq!(text.lines().count(), 2 + ROWS + 2);
        assert!(text.ends_with(&format!(
            "  and {} more differing lines not shown\n",
            1000 - ROWS
        )));
    }

    #[test]
    fn long_lines_are_cut_and_control_characters_escaped() {
        let text = diff(&format!("{}\n", "a".repeat(50)), "b\tc\n", false).render();
        assert!(
            text.contains(&format!("  ! 1  {}... | b\\tc\n", "a".repeat(WIDTH))),
            "{text}"
        );
    }
}
