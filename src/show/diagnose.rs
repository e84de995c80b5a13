//! A verdict in words, and a wrong answer explained in terms of the game: the verdict
//! (AC, WA, RE, TLE, MLE), the first differing line, the command behind it, what differs (a
//! format mistake, or which answers), why the judge decides as it does (also why a
//! position is not check), and the board before and after the command. `test` and
//! `stress` both explain through here; [`crate::harness::verdict`] decides the verdict.

use crate::cli;
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::scan::Cmd;
use crate::judge::{self, Expected, JudgeError, Scanner};
use crate::sandbox::memory::{self, Peak};
use crate::show::compare::{Compared, Difference, Line};
use crate::show::differs;
use crate::show::explain;
use crate::show::render::{self, Marks};
use std::io::{self, Read};
use std::time::Duration;

/// The outcome of one case.
#[derive(Debug)]
pub enum CaseVerdict {
    /// Accepted.
    Accepted,
    /// Accepted as the online judge compares by default, though whitespace at line ends
    /// or blank lines at the end differ (what differs).
    AcceptedWhitespace(String),
    /// Wrong answer, with the explanation to print under the verdict line.
    WrongAnswer(String),
    /// Runtime error: how it ended (an exit status, a signal), and the last lines of
    /// its standard error.
    RuntimeError(String, Vec<String>),
    /// Killed at this time limit.
    TimeLimit(Duration),
    /// Its memory went over this limit (in bytes); `killed` when the runner stopped it
    /// for it, rather than learning it at its end.
    MemoryLimit {
        /// The limit in bytes.
        limit: u64,
        /// Whether it was killed for it.
        killed: bool,
    },
    /// Its output went over this limit (in bytes): it was stopped there, as a judge
    /// stops it.
    OutputLimit(u64),
}

impl CaseVerdict {
    /// Whether the case passed.
    pub fn passed(&self) -> bool {
        matches!(
            self,
            CaseVerdict::Accepted | CaseVerdict::AcceptedWhitespace(_)
        )
    }

    /// The verdict's short word: `AC`, `WA`, `RE`, `TLE`, `MLE`.
    pub fn word(&self) -> &'static str {
        match self {
            CaseVerdict::Accepted | CaseVerdict::AcceptedWhitespace(_) => "AC",
            CaseVerdict::WrongAnswer(_) => "WA",
            CaseVerdict::RuntimeError(..) => "RE",
            CaseVerdict::TimeLimit(_) => "TLE",
            CaseVerdict::MemoryLimit { .. } => "MLE",
            CaseVerdict::OutputLimit(_) => "OLE",
        }
    }

    fn color(&self) -> &'static str {
        match self {
            CaseVerdict::Accepted | CaseVerdict::AcceptedWhitespace(_) => "32;1",
            CaseVerdict::WrongAnswer(_) => "31;1",
            CaseVerdict::RuntimeError(..)
            | CaseVerdict::TimeLimit(_)
            | CaseVerdict::MemoryLimit { .. }
            | CaseVerdict::OutputLimit(_) => "33;1",
        }
    }
}

/// The verdict of a run, without the explanation: what `stress` needs for each trial.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Accepted.
    Accepted,
    /// Wrong answer.
    WrongAnswer,
    /// Runtime error.
    RuntimeError,
    /// Time limit.
    TimeLimit,
    /// Memory limit.
    MemoryLimit,
}

impl Kind {
    /// The verdict's short word: `AC`, `WA`, `RE`, `TLE`, `MLE`.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Accepted => "AC",
            Kind::WrongAnswer => "WA",
            Kind::RuntimeError => "RE",
            Kind::TimeLimit => "TLE",
            Kind::MemoryLimit => "MLE",
        }
    }
}

/// A command as read from the input, with the line it starts on.
struct Read1 {
    command: Cmd,
    /// Its number, from 1.
    index: u64,
    line: u64,
}

/// Reads the input's commands up to number `upto` (1-based), replaying them on a game.
/// Returns the game before command `upto`, and that command; or a sentence saying why
/// the input does not get that far.
fn replay<R: Read>(input: io::Result<R>, upto: u64) -> Result<(Game, Read1), String> {
    let source = input.map_err(|e| format!("the input cannot be read: {e}"))?;
    let mut scanner = Scanner::new(source);
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
        let next = Expected::Coordinate {
            index,
            total,
            field: 0,
        };
        let line = match scanner.peek_token(next) {
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
            return Ok((
                game,
                Read1 {
                    command,
                    index,
                    line,
                },
            ));
        }
        let _ = game.play(command[0], command[1], command[2], command[3]);
    }
    Err("the input has no commands".to_string())
}

/// A wrong answer's first differing line, as data (`--json`): what the text of
/// [`wrong_answer`] says in its first lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explained {
    /// The output line, from 1.
    pub line: u64,
    /// The command behind it, when the input gets that far.
    pub command: Option<Cmd>,
    /// The input line the command starts on.
    pub input_line: Option<u64>,
    /// The answer's line (`None`: the answer ends before it).
    pub expected: Option<String>,
    /// The output's line (`None`: the output ends before it).
    pub actual: Option<String>,
    /// What differs, in words.
    pub differs: String,
    /// Why the judge answers as it does, when the input gets that far.
    pub why: Option<String>,
}

/// The first differing line `d` of a wrong answer as data, replaying the input read
/// from `input`; `complete` when the output was read to its end.
pub fn explained<R: Read>(
    input: io::Result<R>,
    d: &Difference,
    compared: &Compared,
    complete: bool,
) -> Explained {
    let (expected, actual) = (d.expected.first(), d.actual.first());
    let differs = what_differs(d, compared, complete);
    let mut out = Explained {
        line: d.line + 1,
        expected: expected.map(Line::lossy),
        actual: actual.map(Line::lossy),
        differs,
        ..Explained::default()
    };
    if let Ok((mut game, read)) = replay(input, d.line + 1) {
        out.command = Some(read.command);
        out.input_line = Some(read.line);
        let (verdict, why) = explain::play(&mut game, read.command);
        out.why = Some(if verdict.is_ok() {
            format!("valid: {why}")
        } else {
            why
        });
    }
    out
}

/// What differs at `d`, in words; `complete` when the output was read to its end.
fn what_differs(d: &Difference, compared: &Compared, complete: bool) -> String {
    differs::describe(
        &d.expected,
        &d.actual,
        compared.expected_lines,
        differs::Count {
            lines: compared.actual_lines,
            complete,
        },
    )
}

/// The explanation of a wrong answer whose first difference is `d`, replaying the
/// input read from `input`; `cut` says why the output was read only in part, if it was.
pub fn wrong_answer<R: Read>(
    input: io::Result<R>,
    d: &Difference,
    compared: &Compared,
    cut: Option<String>,
    ascii: bool,
) -> String {
    let number = d.line + 1;
    let shown = |l: Option<&Line>, whose: &str| match l {
        Some(l) => l.shown(),
        None => format!("(nothing: {whose} ends before this line)"),
    };
    let mut out = String::new();
    let replayed = replay(input, number);
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
    let (expected, actual) = (d.expected.first(), d.actual.first());
    out.push_str(&format!("  expected: {}\n", shown(expected, "the answer")));
    out.push_str(&format!("  actual:   {}\n", shown(actual, "the output")));
    let differs = what_differs(d, compared, cut.is_none());
    out.push_str(&format!("  differs:  {differs}\n"));
    if let Some(cut) = cut {
        out.push_str(&cut);
    }
    if let Ok((game, read)) = replayed {
        explain_command(&mut out, game, read, expected, actual, ascii);
    }
    out
}

/// The judge's reasons for command `read` on `game` and the boards around it.
fn explain_command(
    out: &mut String,
    game: Game,
    read: Read1,
    expected: Option<&Line>,
    actual: Option<&Line>,
    ascii: bool,
) {
    let before: Board = game.board().clone();
    let mut after = game;
    let (verdict, why) = explain::play(&mut after, read.command);
    let why = if verdict.is_ok() {
        format!("valid: {why}")
    } else {
        why
    };
    out.push_str(&format!("  why:      {why}\n"));
    // A "no" explained too, when the output says "yes" where the judge says "no".
    let says_check = |l: Option<&Line>| {
        l.map(Line::lossy)
            .and_then(|t| {
                t.split(';')
                    .nth(2)
                    .map(|a| a.trim().eq_ignore_ascii_case("yes"))
            })
            .unwrap_or(false)
    };
    // A legal move the output calls invalid: the squares on its way were free.
    let says_invalid = actual.is_some_and(|l| l.lossy().trim_end() == "Invalid command");
    let mut free = Vec::new();
    if let (Ok(_), true, Some(m)) = (&verdict, says_invalid, explain::command_move(read.command)) {
        if let Some((sentence, squares)) = explain::free_way(&before, m) {
            out.push_str(&format!("            {sentence}\n"));
            free = squares;
        }
    }
    let mut marks_after = Vec::new();
    if let Ok(moved) = &verdict {
        if !moved.check && says_check(actual) {
            let (reasons, blocked) = explain::no_check(after.board());
            for r in reasons {
                out.push_str(&format!("            {r}\n"));
            }
            marks_after = blocked;
        }
    }
    // The answer file may be the thing that is wrong: say so when the judge disagrees.
    let ours = judge::verdict_line(&verdict);
    if expected.map(Line::lossy).as_deref().map(str::trim_end) != Some(ours.as_str()) {
        out.push_str(&format!(
            "  note:     the built-in judge answers {ours:?} here, not the expected line\n"
        ));
    }
    let style = render::Style::for_stdout(ascii);
    let number = read.index;
    let last = explain::command_move(read.command);
    // `( )` marks the square that blocks a move, or the free squares on the way of a
    // legal move the output refused; the one end of an off-board command on the board
    // is marked `[ ]`, as a move's squares are.
    let mut highlight: Vec<_> = explain::blocking(&verdict).into_iter().collect();
    highlight.extend(free);
    let selected = explain::lone_end(read.command);
    let mut board = |title: String, board: &Board, marks: Marks| {
        out.push_str(&format!("  {title}:\n"));
        for l in render::diagram(board, style, marks).lines() {
            out.push_str("    ");
            out.push_str(l);
            out.push('\n');
        }
    };
    board(
        format!("board before command {number}, {}", render::status(&before)),
        &before,
        Marks {
            last,
            highlight: &highlight,
            selected,
        },
    );
    if verdict.is_ok() {
        board(
            format!(
                "board after command {number}, {}",
                render::status(after.board())
            ),
            after.board(),
            Marks {
                last,
                highlight: &marks_after,
                selected: None,
            },
        );
    }
}

/// The verdict line and the details under it: the verdict, the case, the time, the peak
/// memory where it was measured, and what the verdict needs said.
pub fn report(
    name: &str,
    outcome: &CaseVerdict,
    elapsed: Duration,
    peak: Option<Peak>,
    color: bool,
) -> String {
    let mut word = String::new();
    render::paint(
        &format!("{:<3}", outcome.word()),
        outcome.color(),
        color,
        &mut word,
    );
    let mut out = format!("{word} {}  {} ms", name, elapsed.as_millis());
    if let Some(peak) = peak {
        out.push_str(&format!("  {}", peak.shown()));
    }
    match outcome {
        CaseVerdict::Accepted => out.push('\n'),
        CaseVerdict::AcceptedWhitespace(what) => {
            out.push_str(&format!(
                "  (accepted: {what}, which the online judge ignores)\n"
            ));
        }
        CaseVerdict::WrongAnswer(details) => {
            out.push('\n');
            for l in details.lines() {
                out.push_str("    ");
                out.push_str(l);
                out.push('\n');
            }
        }
        CaseVerdict::RuntimeError(status, stderr) => {
            out.push_str(&format!("  {status}\n"));
            for l in stderr {
                out.push_str(&format!("    stderr: {l}\n"));
            }
        }
        CaseVerdict::TimeLimit(limit) => {
            out.push_str(&format!("  killed after {} s\n", limit.as_secs_f64()));
        }
        CaseVerdict::MemoryLimit { limit, killed } => {
            let limit = limit / memory::MIB;
            if *killed {
                out.push_str(&format!("  killed over the {limit} MB limit\n"));
            } else {
                out.push_str(&format!("  over the {limit} MB limit\n"));
            }
        }
        CaseVerdict::OutputLimit(limit) => {
            let limit = limit / memory::MIB;
            out.push_str(&format!(
                "  output over the {limit} MB limit: stopped there\n"
            ));
        }
    }
    out
}
