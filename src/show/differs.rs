//! What differs between the answer's line and the output's line, in words: a format
//! mistake (letter case, spacing, spelling, a missing or an extra line) is named as such,
//! and a line that is not close to the answer's is called a different line;
//! two well-formed judge lines are compared answer by answer (moved piece, captured
//! piece, check, game over; or valid vs invalid). Shared by `test` and `stress` through
//! the diagnosis.

use crate::cli;
use crate::judge::piece::{Color, PieceKind};
use crate::show::compare::Line;

/// The names of the four answers of a legal move, in order.
const ANSWERS: [&str; 4] = ["moved piece", "captured piece", "check", "game over"];
const INVALID: &str = "Invalid command";

/// How many lines of the output were read, and whether that is all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Lines read.
    pub lines: u64,
    /// The output was read to its end.
    pub complete: bool,
}

impl Count {
    /// All of an output of `lines` lines.
    pub fn all(lines: u64) -> Count {
        Count {
            lines,
            complete: true,
        }
    }

    /// "3 lines", or "at least 3 lines" when the output was not read to its end.
    fn text(self) -> String {
        let lines = cli::plural(self.lines, "line");
        if self.complete {
            lines
        } else {
            format!("at least {lines}")
        }
    }
}

/// What differs, given the first differing line and a few after it on each side (the
/// first of either may be missing: that side has ended), and the line counts.
pub fn describe(
    expected: &[Line],
    actual: &[Line],
    expected_lines: u64,
    actual_count: Count,
) -> String {
    let (e, a) = match (expected.first(), actual.first()) {
        (Some(e), Some(a)) => (e, a),
        (Some(_), None) => {
            return format!(
                "a missing line: the output ends after {}, the answer has {}",
                actual_count.text(),
                expected_lines
            )
        }
        (None, _) => {
            return format!(
                "an extra line: the output has {}, the answer {}",
                actual_count.text(),
                expected_lines
            )
        }
    };
    if let Some(shift) = shifted(expected, actual, expected_lines, actual_count) {
        return shift;
    }
    lines(&e.lossy(), &a.lossy())
}

/// A missing or an extra line in the middle: the lines after it agree once shifted by
/// one, and agree better that way than in place.
fn shifted(expected: &[Line], actual: &[Line], e_count: u64, a: Count) -> Option<String> {
    let same = |x: &Line, y: &Line| x.lossy().trim_end() == y.lossy().trim_end();
    let in_place = (1..expected.len().min(actual.len()))
        .filter(|&k| same(&expected[k], &actual[k]))
        .count();
    // Enough evidence: two lines agreeing after the shift, or one when the line counts
    // differ by exactly one in that direction (and the output's count is complete).
    let a_count = a.lines;
    let convincing =
        |aligned: usize, counts_agree: bool| aligned >= 2 || (aligned == 1 && counts_agree);
    let missing = expected.len().saturating_sub(1).min(actual.len());
    if missing > 0
        && (0..missing).all(|k| same(&actual[k], &expected[k + 1]))
        && in_place < missing
        && convincing(missing, a.complete && e_count == a_count + 1)
    {
        return Some(format!(
            "a missing line: the output goes on with the answer's next line \
             (the output has {}, the answer {})",
            a.text(),
            e_count
        ));
    }
    let extra = actual.len().saturating_sub(1).min(expected.len());
    if extra > 0
        && (0..extra).all(|k| same(&actual[k + 1], &expected[k]))
        && in_place < extra
        && convincing(extra, a.complete && a_count == e_count + 1)
    {
        return Some(format!(
            "an extra line: the answer's line comes one line later in the output \
             (the output has {}, the answer {})",
            a.text(),
            e_count
        ));
    }
    None
}

/// What differs between two lines that are not equal up to trailing whitespace.
pub fn lines(expected: &str, actual: &str) -> String {
    let (e, a) = (expected.trim_end(), actual.trim_end());
    if let Some(spacing) = spacing(e, a) {
        return spacing;
    }
    if e.eq_ignore_ascii_case(a) {
        return format!("letter case: {}", first_word_difference(e, a));
    }
    match (shape(e), shape(a)) {
        (Shape::Invalid, Shape::Move(_)) => {
            "valid vs invalid: expected Invalid command, got a move".to_string()
        }
        (Shape::Move(_), Shape::Invalid) => {
            "valid vs invalid: expected a move, got Invalid command".to_string()
        }
        (Shape::Move(ef), Shape::Move(af)) => {
            let differ: Vec<&str> = (0..4)
                .filter(|&i| ef[i] != af[i])
                .map(|i| ANSWERS[i])
                .collect();
            if differ.is_empty() {
                "the same answers, written differently".to_string()
            } else {
                differ.join(", ")
            }
        }
        (Shape::Bad(_), _) => "the expected line is not a judge answer".to_string(),
        (_, Shape::Bad(why)) => match fields(e, a) {
            Some(each) => each,
            None => format!("the output line is not a judge answer: {why}"),
        },
        (Shape::Invalid, Shape::Invalid) => "the same answer, written differently".to_string(),
    }
}

/// The lines are the same once every space is taken out: where the spacing differs.
fn spacing(e: &str, a: &str) -> Option<String> {
    let squash = |s: &str| -> String { s.chars().filter(|c| !c.is_whitespace()).collect() };
    if squash(e) != squash(a) {
        return None;
    }
    let (eb, ab) = (e.as_bytes(), a.as_bytes());
    let at = eb.iter().zip(ab).take_while(|(x, y)| x == y).count();
    // Around the first difference: the character before it, the run of spaces, the
    // character after it.
    let around = |b: &[u8]| {
        let start = at.saturating_sub(1);
        let mut end = at;
        while end < b.len() && (b[end] as char).is_ascii_whitespace() {
            end += 1;
        }
        let end = (end + 1).min(b.len());
        String::from_utf8_lossy(&b[start..end])
            .escape_debug()
            .to_string()
    };
    let what = match (eb.get(at), ab.get(at)) {
        (_, Some(b'\t')) => "a tab",
        (_, Some(c)) if c.is_ascii_whitespace() => "an extra space",
        _ => "a missing space",
    };
    Some(format!(
        "spacing: `{}` instead of `{}` at column {} ({what})",
        around(ab),
        around(eb),
        at + 1
    ))
}

/// The first word that differs in letter case: "`No` for `no`".
fn first_word_difference(e: &str, a: &str) -> String {
    let split = |s: &str| -> Vec<String> {
        s.split(|c: char| c == ';' || c.is_whitespace())
            .map(str::to_string)
            .collect()
    };
    let (ew, aw) = (split(e), split(a));
    match ew.iter().zip(&aw).find(|(x, y)| x != y) {
        Some((x, y)) => format!("`{y}` for `{x}`"),
        None => format!("`{a}` for `{e}`"),
    }
}

/// A judge line's shape.
enum Shape {
    Invalid,
    /// The four answers.
    Move([String; 4]),
    /// Not a judge line, and why.
    Bad(String),
}

fn piece_name(s: &str) -> bool {
    let mut words = s.split(' ');
    let (side, kind) = (words.next(), words.next());
    words.next().is_none()
        && Color::ALL.iter().any(|c| Some(c.name()) == side)
        && PieceKind::ALL.iter().any(|k| Some(k.name()) == kind)
}

/// Why answer `i` is not one the judge can print, if it is not.
fn answer_problem(i: usize, s: &str) -> Option<String> {
    let ok = match i {
        0 => piece_name(s),
        1 => s == "NA" || piece_name(s),
        _ => s == "yes" || s == "no",
    };
    if ok {
        return None;
    }
    let wanted = match i {
        0 => "a side and a piece, like `red car`",
        1 => "a side and a piece, or `NA`",
        _ => "`yes` or `no`",
    };
    Some(format!("the {} is `{s}`, not {wanted}", ANSWERS[i]))
}

fn shape(line: &str) -> Shape {
    if line == INVALID {
        return Shape::Invalid;
    }
    let parts: Vec<&str> = line.split(';').collect();
    if parts.len() != 4 {
        return Shape::Bad(format!(
            "{} separated by `;`, where a move has 4 and an invalid command is `{INVALID}`",
            cli::plural(parts.len() as u64, "part")
        ));
    }
    if let Some(problem) = (0..4).find_map(|i| answer_problem(i, parts[i])) {
        return Shape::Bad(problem);
    }
    Shape::Move([0, 1, 2, 3].map(|i| parts[i].to_string()))
}

/// Answer by answer, for an output line with four parts where some are misspelt: what
/// each differing part is ("check: `No` for `no` (letter case)").
fn fields(e: &str, a: &str) -> Option<String> {
    let ep: Vec<&str> = e.split(';').collect();
    let ap: Vec<&str> = a.split(';').collect();
    if ep.len() != 4 || ap.len() != 4 {
        if e == INVALID && ap.len() == 1 {
            return Some(if misspelt(INVALID, a) {
                format!("spelling: `{a}` for `{INVALID}`")
            } else {
                format!("a different line: `{a}` where the answer is `{INVALID}`")
            });
        }
        return None;
    }
    let each: Vec<String> = (0..4)
        .filter(|&i| ep[i] != ap[i])
        .map(|i| {
            let (x, y) = (ep[i], ap[i]);
            let why = if x.eq_ignore_ascii_case(y) {
                " (letter case)"
            } else if answer_problem(i, &y.to_ascii_lowercase()).is_none() {
                " (letter case, and a different answer)"
            } else if answer_problem(i, y).is_some() {
                " (spelling)"
            } else {
                ""
            };
            format!("{}: `{y}` for `{x}`{why}", ANSWERS[i])
        })
        .collect();
    Some(each.join(", "))
}

/// Whether `actual` reads as `expected` misspelt rather than as another line: it starts
/// with the same word, or a few letters changed make it (at most a third of them).
fn misspelt(expected: &str, actual: &str) -> bool {
    let first = |s: &str| s.split_whitespace().next().map(str::to_ascii_lowercase);
    if first(expected).is_some() && first(expected) == first(actual) {
        return true;
    }
    let (e, a): (Vec<char>, Vec<char>) = (
        expected.to_lowercase().chars().collect(),
        actual.to_lowercase().chars().collect(),
    );
    // Levenshtein's distance, one row at a time.
    let mut row: Vec<usize> = (0..=a.len()).collect();
    for (i, x) in e.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, y) in a.iter().enumerate() {
            let substitute = diagonal + usize::from(x != y);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[a.len()] * 3 <= e.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ls(texts: &[&str]) -> Vec<Line> {
        texts.iter().map(|t| Line::of(t)).collect()
    }

    #[test]
    fn format_mistakes_are_named() {
        let cases = [
            (
                "Invalid command",
                "invalid command",
                "letter case: `invalid` for `Invalid`",
            ),
            (
                "red car;NA;no;no",
                "red car;NA;No;no",
                "letter case: `No` for `no`",
            ),
            (
                "red car;NA;no;no",
                "red car; NA;no;no",
                "spacing: `; N` instead of `;N` at column 9 (an extra space)",
            ),
            (
                "red car;NA;no;no",
                "redcar;NA;no;no",
                "spacing: `dc` instead of `d c` at column 4 (a missing space)",
            ),
            (
                "red car;NA;no;no",
                "red\tcar;NA;no;no",
                "spacing: `d\\tc` instead of `d c` at column 4 (a tab)",
            ),
            (
                "red car;NA;no;no",
                "red cart;NA;no;no",
                "moved piece: `red cart` for `red car` (spelling)",
            ),
            (
                "red car;NA;no;no",
                "red car;NA;Yes;no",
                "check: `Yes` for `no` (letter case, and a different answer)",
            ),
            (
                "Invalid command",
                "Invalid move",
                "spelling: `Invalid move` for `Invalid command`",
            ),
            (
                "Invalid command",
                "Invlid comand",
                "spelling: `Invlid comand` for `Invalid command`",
            ),
            (
                "Invalid command",
                "hi",
                "a different line: `hi` where the answer is `Invalid command`",
            ),
            (
                "Invalid command",
                "Nothing to do",
                "a different line: `Nothing to do` where the answer is `Invalid command`",
            ),
            (
                "red car;NA;no;no",
                "red car,NA,no,no",
                "the output line is not a judge answer: 1 part separated by `;`, where a move \
                 has 4 and an invalid command is `Invalid command`",
            ),
        ];
        for (e, a, want) in cases {
            assert_eq!(lines(e, a), want, "{e:?} vs {a:?}");
        }
    }

    #[test]
    fn answers_that_differ_are_listed() {
        assert_eq!(
            lines("red car;NA;no;no", "red car;blue soldier;yes;no"),
            "captured piece, check"
        );
        assert_eq!(
            lines("Invalid command", "red car;NA;no;no"),
            "valid vs invalid: expected Invalid command, got a move"
        );
        assert_eq!(
            lines("red car;NA;no;no", "Invalid command"),
            "valid vs invalid: expected a move, got Invalid command"
        );
        assert_eq!(
            lines("red car;NA;no;no", "banana"),
            "the output line is not a judge answer: 1 part separated by `;`, where a move has 4 \
             and an invalid command is `Invalid command`"
        );
        assert_eq!(
            lines("banana", "red car;NA;no;no"),
            "the expected line is not a judge answer"
        );
    }

    #[test]
    fn missing_and_extra_lines() {
        // Line 2 of the answer is missing from the output.
        let e = ls(&["b", "c", "d", "e"]);
        let a = ls(&["c", "d", "e"]);
        assert_eq!(
            describe(&e, &a, 5, Count::all(4)),
            "a missing line: the output goes on with the answer's next line (the output has \
             4 lines, the answer 5)"
        );
        let (e, a) = (ls(&["b", "c", "d"]), ls(&["x", "b", "c", "d"]));
        assert_eq!(
            describe(&e, &a, 4, Count::all(5)),
            "an extra line: the answer's line comes one line later in the output (the output \
             has 5 lines, the answer 4)"
        );
        // A wrong line among equal ones is not a shift.
        let same = "Invalid command";
        let e = ls(&["red car;NA;no;no", same, same, same]);
        let a = ls(&[same, same, same, same]);
        assert_eq!(
            describe(&e, &a, 9, Count::all(9)),
            "valid vs invalid: expected a move, got Invalid command"
        );
        // The last line missing or one line too many.
        assert_eq!(
            describe(&ls(&["z"]), &[], 3, Count::all(2)),
            "a missing line: the output ends after 2 lines, the answer has 3"
        );
        assert_eq!(
            describe(&[], &ls(&["z"]), 2, Count::all(3)),
            "an extra line: the output has 3 lines, the answer 2"
        );
        // The second-to-last line missing: one line of evidence and the counts.
        assert_eq!(
            describe(&ls(&["y", "z"]), &ls(&["z"]), 3, Count::all(2)),
            "a missing line: the output goes on with the answer's next line (the output has \
             2 lines, the answer 3)"
        );
    }
}
