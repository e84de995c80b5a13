//! Judging a run against the answer and explaining a wrong answer in terms of the game:
//! the verdict (AC, WA, RE, TLE), the first differing line, the command behind it, which
//! answers differ, why the judge decides as it does, and the board.

use crate::cli;
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::{self, Expected, JudgeError, Scanner};
use crate::tools::explain::{self, Command};
use crate::tools::process::Run;
use crate::tools::render::{self, Marks};
use std::time::Duration;

/// How many lines of a failing program's standard error are shown.
const STDERR_LINES: usize = 5;

/// The outcome of one case.
#[derive(Debug)]
pub enum Outcome {
    /// Accepted.
    Accepted,
    /// Accepted with `--ignore-whitespace`, though whitespace differs (what differs).
    AcceptedWhitespace(String),
    /// Wrong answer, with the explanation to print under the verdict line.
    WrongAnswer(String),
    /// Runtime error: exit status or signal, and the first lines of standard error.
    RuntimeError(String, Vec<String>),
    /// Killed at this time limit.
    TimeLimit(Duration),
}

impl Outcome {
    /// Whether the case passed.
    pub fn passed(&self) -> bool {
        matches!(self, Outcome::Accepted | Outcome::AcceptedWhitespace(_))
    }

    fn word(&self) -> &'static str {
        match self {
            Outcome::Accepted | Outcome::AcceptedWhitespace(_) => "AC",
            Outcome::WrongAnswer(_) => "WA",
            Outcome::RuntimeError(..) => "RE",
            Outcome::TimeLimit(_) => "TLE",
        }
    }

    fn color(&self) -> &'static str {
        match self {
            Outcome::Accepted | Outcome::AcceptedWhitespace(_) => "32;1",
            Outcome::WrongAnswer(_) => "31;1",
            Outcome::RuntimeError(..) | Outcome::TimeLimit(_) => "33;1",
        }
    }
}

/// Lines of `text` split on `\n` only (a `\r` stays part of its line); a final newline
/// does not start another line.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    let mut out: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if text.ends_with(b"\n") || text.is_empty() {
        out.pop();
    }
    out
}

/// A line with its whitespace normalised: the words, single-spaced.
fn words(line: &[u8]) -> Vec<&[u8]> {
    line.split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The lines as compared when whitespace is ignored: words per line, without the blank
/// lines at the end.
fn normalised(text: &[u8]) -> Vec<Vec<&[u8]>> {
    let mut out: Vec<Vec<&[u8]>> = lines(text).into_iter().map(words).collect();
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

/// What differs between two outputs that are equal up to whitespace.
fn whitespace_difference(expected: &[u8], actual: &[u8]) -> String {
    let mut what = Vec::new();
    let crlf = |t: &[u8]| lines(t).iter().any(|l| l.ends_with(b"\r"));
    match (crlf(expected), crlf(actual)) {
        (false, true) => what.push("the output has CRLF line ends".to_string()),
        (true, false) => what.push("the expected output has CRLF line ends".to_string()),
        _ => {}
    }
    let (e, a) = (lines(expected), lines(actual));
    let strip = |l: &[u8]| l.strip_suffix(b"\r").unwrap_or(l).to_vec();
    let mut trailing = None;
    let mut spacing = None;
    for (i, (x, y)) in e.iter().zip(a.iter()).enumerate() {
        let (x, y) = (strip(x), strip(y));
        if x == y {
            continue;
        }
        let trim = |l: &[u8]| l.trim_ascii_end().to_vec();
        if trim(&x) == trim(&y) {
            trailing.get_or_insert(i + 1);
        } else {
            spacing.get_or_insert(i + 1);
        }
    }
    if let Some(line) = trailing {
        what.push(format!(
            "trailing whitespace differs (first on line {line})"
        ));
    }
    if let Some(line) = spacing {
        what.push(format!(
            "spacing within a line differs (first on line {line})"
        ));
    }
    if a.len() > e.len() {
        what.push(format!(
            "{} extra blank line(s) at the end",
            a.len() - e.len()
        ));
    } else if a.len() < e.len() {
        what.push(format!(
            "{} blank line(s) missing at the end",
            e.len() - a.len()
        ));
    }
    match (expected.ends_with(b"\n"), actual.ends_with(b"\n")) {
        (true, false) if !actual.is_empty() => what.push("the final newline is missing".into()),
        (false, true) => what.push("the output has a final newline, the answer not".into()),
        _ => {}
    }
    if what.is_empty() {
        what.push("whitespace differs".to_string());
    }
    what.join("; ")
}

/// Judges one run against the answer.
pub fn judge_run(run: Run, input: &[u8], answer: &[u8], ignore_ws: bool, ascii: bool) -> Outcome {
    let (failure, stdout, stderr) = match run {
        Run::TimedOut { limit, .. } => return Outcome::TimeLimit(limit),
        Run::Finished {
            failure,
            stdout,
            stderr,
            ..
        } => (failure, stdout, stderr),
    };
    if let Some(failure) = failure {
        let text = String::from_utf8_lossy(&stderr);
        let tail: Vec<String> = text
            .lines()
            .take(STDERR_LINES)
            .map(str::to_string)
            .collect();
        return Outcome::RuntimeError(failure, tail);
    }
    if stdout == answer {
        return Outcome::Accepted;
    }
    let (e, a) = (normalised(answer), normalised(&stdout));
    if e == a {
        let what = whitespace_difference(answer, &stdout);
        return if ignore_ws {
            Outcome::AcceptedWhitespace(what)
        } else {
            Outcome::WrongAnswer(format!(
                "only whitespace differs: {what} (--ignore-whitespace accepts this)\n"
            ))
        };
    }
    let line = e.iter().zip(a.iter()).take_while(|(x, y)| x == y).count();
    let raw = |text: &[u8], i: usize| {
        lines(text)
            .get(i)
            .map(|l| String::from_utf8_lossy(l).into_owned())
    };
    Outcome::WrongAnswer(diagnose(
        input,
        line,
        raw(answer, line),
        raw(&stdout, line),
        ascii,
    ))
}

/// Which of the four answers differ between two judge lines.
fn answers_differ(expected: &str, actual: &str) -> String {
    let split = |l: &str| -> Option<Vec<String>> {
        let parts: Vec<String> = l.trim_end().split(';').map(str::to_string).collect();
        (parts.len() == 4).then_some(parts)
    };
    let invalid = |l: &str| l.trim_end() == "Invalid command";
    match (invalid(expected), invalid(actual)) {
        (true, false) => return "valid vs invalid: expected Invalid command, got a move".into(),
        (false, true) => return "valid vs invalid: expected a move, got Invalid command".into(),
        _ => {}
    }
    match (split(expected), split(actual)) {
        (Some(e), Some(a)) => {
            let names = ["moved piece", "captured piece", "check", "game over"];
            let differ: Vec<&str> = (0..4).filter(|&i| e[i] != a[i]).map(|i| names[i]).collect();
            if differ.is_empty() {
                "the same answers, written differently".to_string()
            } else {
                differ.join(", ")
            }
        }
        (Some(_), None) => "the output line is not a judge answer".to_string(),
        _ => "the expected line is not a judge answer".to_string(),
    }
}

/// A command as read from the input, with the line it starts on.
struct Read1 {
    command: Command,
    line: u64,
}

/// Reads the input's commands up to number `upto` (1-based), replaying them on a game.
/// Returns the game before command `upto`, and that command; or a sentence saying why
/// the input does not get that far.
fn replay(input: &[u8], upto: u64) -> Result<(Game, Read1), String> {
    let mut scanner = Scanner::new(input);
    let total = scanner
        .count()
        .map_err(|e| format!("the input cannot be read: {e}"))?;
    if upto > total.value {
        return Err(format!(
            "the input has only {}",
            cli::plural(total.value, "command")
        ));
    }
    let mut game = Game::new();
    for index in 1..=upto {
        let line = match scanner.peek_token() {
            Ok(Some(at)) => at.line,
            _ => 0,
        };
        let mut command = [0i64; 4];
        for (field, slot) in command.iter_mut().enumerate() {
            *slot = scanner
                .int(Expected::Coordinate {
                    index,
                    total,
                    field: field as u8,
                })
                .map_err(|e| match e {
                    JudgeError::Input(e) => format!("the input cannot be read: {e}"),
                    e => e.to_string(),
                })?;
        }
        if index == upto {
            return Ok((game, Read1 { command, line }));
        }
        let _ = game.play(command[0], command[1], command[2], command[3]);
    }
    Err("the input has no commands".to_string())
}

/// The explanation of a wrong answer whose first differing line is `line` (0-based).
fn diagnose(
    input: &[u8],
    line: usize,
    expected: Option<String>,
    actual: Option<String>,
    ascii: bool,
) -> String {
    let number = line + 1;
    let shown = |l: &Option<String>, whose: &str| match l {
        Some(l) => l.escape_debug().to_string(),
        None => format!("(nothing: {whose} ends before this line)"),
    };
    let mut out = String::new();
    let command = number as u64;
    let replayed = replay(input, command);
    match &replayed {
        Ok((_, read)) => {
            let c = read.command;
            out.push_str(&format!(
                "output line {number} differs: command {number}, on input line {}: {} {} {} {}\n",
                read.line, c[0], c[1], c[2], c[3]
            ));
        }
        Err(why) => out.push_str(&format!("output line {number} differs ({why})\n")),
    }
    out.push_str(&format!("  expected: {}\n", shown(&expected, "the answer")));
    out.push_str(&format!("  actual:   {}\n", shown(&actual, "the output")));
    if let (Some(e), Some(a)) = (&expected, &actual) {
        out.push_str(&format!("  differs:  {}\n", answers_differ(e, a)));
    }
    if let Ok((game, read)) = replayed {
        let before: Board = game.board().clone();
        let mut after = game;
        let (verdict, why) = explain::play(&mut after, read.command);
        let why = if verdict.is_ok() {
            format!("valid: {why}")
        } else {
            why
        };
        out.push_str(&format!("  why:      {why}\n"));
        // The answer file may be the thing that is wrong: say so when the judge disagrees.
        let ours = judge::verdict_line(&verdict);
        if expected.as_deref().map(str::trim_end) != Some(ours.as_str()) {
            out.push_str(&format!(
                "  note:     the built-in judge answers {ours:?} here, not the expected line\n"
            ));
        }
        out.push_str(&format!(
            "  board before command {number}, {}:\n",
            render::status(&before)
        ));
        let highlight = explain::highlights(read.command, &verdict);
        let marks = Marks {
            last: explain::command_move(read.command),
            highlight: &highlight,
            selected: None,
        };
        let diagram = render::diagram(&before, render::Style::for_stdout(ascii), marks);
        for l in diagram.lines() {
            out.push_str("    ");
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// The verdict line and the details under it.
pub fn report(name: &str, outcome: &Outcome, elapsed: Duration, color: bool) -> String {
    let mut word = String::new();
    render::paint(
        &format!("{:<3}", outcome.word()),
        outcome.color(),
        color,
        &mut word,
    );
    let mut out = format!("{word} {}  {} ms", name, elapsed.as_millis());
    match outcome {
        Outcome::Accepted => out.push('\n'),
        Outcome::AcceptedWhitespace(what) => {
            out.push_str(&format!("  (whitespace differs: {what})\n"));
        }
        Outcome::WrongAnswer(details) => {
            out.push('\n');
            for l in details.lines() {
                out.push_str("    ");
                out.push_str(l);
                out.push('\n');
            }
        }
        Outcome::RuntimeError(status, stderr) => {
            out.push_str(&format!("  {status}\n"));
            for l in stderr {
                out.push_str(&format!("    stderr: {l}\n"));
            }
        }
        Outcome::TimeLimit(limit) => {
            out.push_str(&format!("  killed after {} s\n", limit.as_secs_f64()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_only_differences_are_named() {
        let e = b"a b\nc\n";
        assert_eq!(
            whitespace_difference(e, b"a b\r\nc\r\n"),
            "the output has CRLF line ends"
        );
        assert_eq!(
            whitespace_difference(e, b"a b  \nc\n"),
            "trailing whitespace differs (first on line 1)"
        );
        assert_eq!(
            whitespace_difference(e, b"a b\nc"),
            "the final newline is missing"
        );
        assert_eq!(
            whitespace_difference(e, b"a  b\nc\n\n"),
            "spacing within a line differs (first on line 1); 1 extra blank line(s) at the end"
        );
        assert_eq!(normalised(e), normalised(b"a  b \r\n c\n\n\n"));
    }

    #[test]
    fn which_answers_differ() {
        assert_eq!(
            answers_differ("red car;NA;no;no", "red car;blue soldier;yes;no"),
            "captured piece, check"
        );
        assert_eq!(
            answers_differ("Invalid command", "red car;NA;no;no"),
            "valid vs invalid: expected Invalid command, got a move"
        );
        assert_eq!(
            answers_differ("red car;NA;no;no", "Invalid command"),
            "valid vs invalid: expected a move, got Invalid command"
        );
        assert_eq!(
            answers_differ("red car;NA;no;no", "banana"),
            "the output line is not a judge answer"
        );
    }
}
