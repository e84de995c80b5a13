//! `duckchess trace`: replays a judge input and shows the game as a person wants to see
//! it: every command with the judge's exact output line and the reason behind it, and
//! board diagrams along the way.
//!
//! The input is read with the judge's own [`Scanner`] under the judge's contract (bad
//! input is reported by line and column after everything before it has been shown), and
//! every verdict comes from [`Game::play`], so the lines shown are the judge's lines.

use crate::cli::{self, Opt, Spec};
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::rules::Move;
use crate::judge::scan::Cmd;
use crate::judge::{self, Expected, JudgeError, Scanner};
use crate::show::explain;
use crate::show::render::{self, Marks, Style};
use std::io::{self, BufWriter, Read, Write};

/// When diagrams are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// After the start position and after each legal move.
    Legal,
    /// After the start position and after commands N, 2N, 3N, ...
    Every(u64),
    /// Only after command K.
    At(u64),
}

/// Options of one trace.
#[derive(Clone, Debug)]
pub struct Options {
    /// The position the commands start from.
    pub from: Board,
    /// When to draw the board.
    pub show: Show,
    /// How diagrams look.
    pub style: Style,
}

/// What a trace saw, for its closing line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    legal: u64,
    invalid: u64,
}

/// Writes the diagram of `board` followed by its status line and a blank line.
fn board_block(out: &mut String, board: &Board, last: Option<Move>, style: Style) {
    let marks = Marks {
        last,
        highlight: &[],
        selected: None,
    };
    out.push_str(&render::diagram(board, style, marks));
    out.push_str(&render::status(board));
    out.push_str("\n\n");
}

/// Replays the judge input `input` and writes the trace to `out`. Stops at bad input
/// (every earlier command has been written) exactly where the judge would.
pub fn trace<R: Read, W: Write>(
    input: R,
    out: &mut W,
    options: &Options,
) -> Result<judge::Summary, JudgeError> {
    let mut scanner = Scanner::new(input);
    let mut game = Game::from_board(options.from.clone());
    let style = options.style;
    let mut text = format!("start: {}\n", game.board());
    if !matches!(options.show, Show::At(_)) {
        board_block(&mut text, game.board(), None, style);
    }
    out.write_all(text.as_bytes()).map_err(JudgeError::Write)?;
    let total = scanner.count()?;
    let mut tally = Tally::default();
    let mut last: Option<Move> = None;
    for index in 1..=total.value {
        let mut c: Cmd = [0; 4];
        let mut text = format!("{index}.");
        for (field, slot) in c.iter_mut().enumerate() {
            // Shown as written: a huge number is clamped when read, never when shown.
            let (value, written) = scanner.int_as_written(Expected::Coordinate {
                index,
                total,
                field: field as u8,
            })?;
            *slot = value;
            text.push_str(&format!(" {written}"));
        }
        let (verdict, why) = explain::play(&mut game, c);
        text.push_str(&format!(
            " => {}\n   {why}\n",
            judge::verdict_line(&verdict)
        ));
        if verdict.is_ok() {
            tally.legal += 1;
            last = explain::command_move(c);
        } else {
            tally.invalid += 1;
        }
        let draw = match options.show {
            Show::Legal => verdict.is_ok(),
            Show::Every(n) => index % n == 0,
            Show::At(k) => index == k,
        };
        if draw {
            text.push('\n');
            board_block(&mut text, game.board(), last, style);
        }
        out.write_all(text.as_bytes()).map_err(JudgeError::Write)?;
    }
    let trailing = scanner.peek_token(Expected::End { total })?;
    let end = format!(
        "end: {}, {} legal, {} invalid; {}; position {}\n",
        cli::plural(total.value, "command"),
        tally.legal,
        tally.invalid,
        render::status(game.board()),
        game.board()
    );
    out.write_all(end.as_bytes()).map_err(JudgeError::Write)?;
    Ok(judge::Summary {
        commands: total.value,
        trailing,
    })
}

/// The command line of `trace`.
pub const SPEC: Spec = Spec {
    name: "trace",
    summary: "replay a judge input and show the game",
    usage: &["[FILE] [--from POSITION] [--every N | --at K] [--ascii]"],
    about: "\
Reads Q and Q commands from FILE (standard input when FILE is absent or '-'), with
the judge's contract: any whitespace between numbers, off-board numbers are invalid
commands, a bad token stops the trace with its line and column after everything
before it.

For each command: its number, the command, '=>' and the judge's exact output line;
under it, for an invalid command the reason (no piece on the source, the
opponent's piece, the target off the board, the piece cannot move that way,
blocked at (x, y), an own piece on the target, the game already over); for a legal
move the piece and its squares, the capture, and for check which captain is
attacked by which pieces.

Board diagrams have row numbers on the left and right and column numbers above and
below; the last move is marked with [ ]. On a terminal, pieces are the Chinese
names (王士象马车鸭兵) in red and blue; --ascii, output that is not a terminal, and
NO_COLOR use the notation letters (upper case red, lower case blue). A closing line
gives the counts, the state of the game and the final position in notation.",
    options: &[
        Opt::valued(
            "--from",
            "POSITION",
            "start from this position (notation, e.g. 'rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r')",
        ),
        Opt::valued(
            "--every",
            "N",
            "draw the board after commands N, 2N, 3N, ... (and at the start)",
        ),
        Opt::valued(
            "--at",
            "K",
            "draw the board only after command K (without --every or --at: at the start and after every legal move)",
        ),
        Opt::flag("--ascii", "notation letters even on a terminal"),
    ],
    conflicts: &[("--every", "--at")],
    exit: "0 success, 1 bad input or I/O error, 2 usage error",
};

/// The `trace` subcommand; returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        let from = match parsed.value("--from") {
            None => Board::start(),
            Some(text) => text.parse::<Board>().map_err(|e| format!("--from: {e}"))?,
        };
        let show = match (
            parsed.int("--every", 1, u64::MAX)?,
            parsed.int("--at", 1, u64::MAX)?,
        ) {
            (Some(n), _) => Show::Every(n),
            (_, Some(k)) => Show::At(k),
            _ => Show::Legal,
        };
        let options = Options {
            from,
            show,
            style: render::Style::for_stdout(parsed.flag("--ascii")),
        };
        let path = parsed.file()?;
        Ok(match cli::open_input("trace", path) {
            Ok(input) => serve(input, &options),
            Err(status) => status,
        })
    })
}

/// Traces `input` to standard output and reports problems as the judge does.
fn serve<R: Read>(input: R, options: &Options) -> u8 {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = trace(input, &mut out, options);
    let flushed = out.flush();
    let say = |message: &str| cli::say("trace", message);
    if let (Ok(summary), Show::At(k)) = (&result, options.show) {
        if k > summary.commands {
            say(&format!(
                "note: --at {k} is past the last command ({})",
                summary.commands
            ));
        }
    }
    judge::run::conclude(result, flushed, &say)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str, show: Show) -> String {
        let options = Options {
            from: Board::start(),
            show,
            style: Style::ASCII,
        };
        let mut out = Vec::new();
        let _ = trace(input.as_bytes(), &mut out, &options);
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn lines_are_the_judges() {
        let text = run("2\n0 0 7 0\n0 3 1 2\n", Show::At(5));
        assert_eq!(
            text,
            "start: rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r
1. 0 0 7 0 => Invalid command
   invalid: the car is blocked at (2, 0)
2. 0 3 1 2 => red guard;NA;no;no
   red guard (0, 3) -> (1, 2)
end: 2 commands, 1 legal, 1 invalid; blue to move; position rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/2G6/RHE1KGEHR b
"
        );
    }

    #[test]
    fn bad_input_stops_after_what_came_before() {
        let options = Options {
            from: Board::start(),
            show: Show::At(1),
            style: Style::ASCII,
        };
        let mut out = Vec::new();
        let err = trace(&b"2\n0 3 1 2\n9 x"[..], &mut out, &options);
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("1. 0 3 1 2 => red guard;NA;no;no\n"));
        match err {
            Err(JudgeError::Input(e)) => assert_eq!(
                e.to_string(),
                "line 3, column 3: expected an integer (ys of command 2 of 2), found \"x\""
            ),
            other => panic!("{other:?}"),
        }
    }
}
