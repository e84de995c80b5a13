//! Replaying a judge input for the page, as `trace` does for a terminal: every command
//! with the judge's exact line, the reason behind it, and the position after it, read
//! with the judge's own [`Scanner`] under the judge's contract (a bad token ends the
//! replay with its line and column, after every command before it).

use super::http::PART;
use super::state::{checked, move_json, pieces_json, square_json};
use crate::cli::json::{Json, Streamed};
use crate::judge::game::Game;
use crate::judge::rules;
use crate::judge::run::ignored_after;
use crate::judge::scan::Cmd;
use crate::judge::{verdict_line, Count, Expected, JudgeError, Scanner};
use crate::show::explain;
use std::io::{self, Read, Write};

/// `value` as a JSON number, exactly (beyond 2^53 as its digits, which no float holds).
fn number(value: i64) -> Json {
    if value.unsigned_abs() <= crate::cli::json::MAX_EXACT {
        Json::int(value)
    } else {
        Json::Big(value.to_string())
    }
}

/// The most commands one replay shows; the official limit is 1000, and a bound keeps
/// the answer to any body bounded (some 6 MB, written a step at a time).
pub const MAX_COMMANDS: u64 = 10_000;

/// The replay of `input` as JSON: `total` (Q, a number), `steps` (one per command:
/// `command`, its four numbers as the judge reads them (a huge one clamped, far off
/// the board, as the judge clamps it), `written` when any of them is written otherwise
/// (`+1`, `007`, a huge number: the four as written), `line`, `text`, `legal`, the squares to mark, and the position
/// after it with its side to move, check and end), `invalid`
/// (the numbers of the invalid commands), `error` (why the replay stopped early, or
/// null) and `note` (input ignored after the last command, or null). The server writes
/// the same text with [`write_replay`], without holding it whole.
pub fn replay(input: &[u8]) -> Json {
    let mut replayer = Replayer::new(input);
    let total = replayer.total_json();
    let steps = std::iter::from_fn(|| replayer.next_step()).collect();
    let [invalid, error, note] = replayer.finish();
    Json::obj([
        ("total", total),
        ("steps", Json::Arr(steps)),
        ("invalid", invalid),
        ("error", error),
        ("note", note),
    ])
}

/// Writes the text of [`replay`] to `out` a step at a time: each step is built, written
/// and dropped, so memory does not grow with the input.
pub fn write_replay(input: &[u8], out: &mut dyn Write) -> io::Result<()> {
    let mut parts = parts(input.to_vec());
    let mut part = Vec::new();
    loop {
        part.clear();
        let more = parts(&mut part)?;
        out.write_all(&part)?;
        if !more {
            return Ok(());
        }
    }
}

/// The text of [`replay`], made a part of some [`PART`] bytes at a time, for an answer
/// streamed at the pace its client reads: each call appends the next steps to the
/// buffer (however much it holds already) and says whether more is to come. It owns
/// its input, so the parts can be made on any thread, between writes.
pub fn parts(input: Vec<u8>) -> impl FnMut(&mut Vec<u8>) -> io::Result<bool> + Send {
    let mut replayer = Some(Replayer::new(io::Cursor::new(input)));
    let (mut started, mut first) = (false, true);
    move |out: &mut Vec<u8>| {
        let Some(r) = replayer.as_mut() else {
            return Ok(false);
        };
        // A part is measured from what the buffer held before it: a caller that
        // gathers every part in one buffer gets the next one all the same.
        let part_start = out.len();
        if !started {
            out.extend_from_slice(Streamed::head([("total", r.total_json())], "steps").as_bytes());
            started = true;
        }
        while out.len() - part_start < PART {
            let Some(step) = r.next_step() else {
                let Some(r) = replayer.take() else {
                    return Ok(false);
                };
                let [invalid, error, note] = r.finish();
                let tail = Streamed::tail([("invalid", invalid), ("error", error), ("note", note)]);
                out.extend_from_slice(tail.as_bytes());
                return Ok(false);
            };
            if !first {
                out.push(b',');
            }
            first = false;
            write!(out, "{step}")?;
        }
        Ok(true)
    }
}

/// A replay under way: the steps one at a time, then what is known at the end.
struct Replayer<R> {
    scanner: Scanner<R>,
    game: Game,
    /// Q, unless it could not be read.
    total: Option<Count>,
    /// The number of the last command read.
    index: u64,
    invalid: Vec<Json>,
    error: Option<JudgeError>,
    note: Option<String>,
    done: bool,
}

impl<R: Read> Replayer<R> {
    fn new(input: R) -> Replayer<R> {
        let mut scanner = Scanner::new(input);
        let (total, error) = match scanner.count() {
            Ok(total) => (Some(total), None),
            Err(e) => (None, Some(e)),
        };
        Replayer {
            scanner,
            game: Game::new(),
            total,
            index: 0,
            invalid: Vec::new(),
            error,
            note: None,
            done: total.is_none(),
        }
    }

    fn total_json(&self) -> Json {
        self.total
            .map_or(Json::Null, |total| Json::int(total.value as i64))
    }

    /// The next command's step, or `None` once the replay has ended.
    fn next_step(&mut self) -> Option<Json> {
        let total = self.total.filter(|_| !self.done)?;
        self.index += 1;
        let index = self.index;
        if index > total.value {
            self.done = true;
            match self.scanner.peek_token(Expected::End { total }) {
                Ok(Some(at)) => self.note = Some(ignored_after(total.value, at)),
                Ok(None) => {}
                Err(e) => self.error = Some(e),
            }
            return None;
        }
        if index > MAX_COMMANDS {
            self.done = true;
            self.note = Some(format!(
                "the replay stops after {MAX_COMMANDS} commands (Q is {total})"
            ));
            return None;
        }
        let mut c: Cmd = [0; 4];
        let mut written = Vec::with_capacity(4);
        let mut numbers = Vec::with_capacity(4);
        let mut as_read = true;
        for (field, slot) in c.iter_mut().enumerate() {
            let expected = Expected::Coordinate {
                index,
                total,
                field: field as u8,
            };
            match self.scanner.int_as_written(expected) {
                Ok((value, text)) => {
                    *slot = value;
                    let text = text.to_string();
                    as_read &= text == value.to_string();
                    written.push(Json::str(text));
                    numbers.push(number(value));
                }
                Err(e) => {
                    self.error = Some(e);
                    self.done = true;
                    return None;
                }
            }
        }
        let (verdict, text) = explain::play(&mut self.game, c);
        if verdict.is_err() {
            self.invalid.push(Json::int(index as i64));
        }
        let board = self.game.board();
        let written = if as_read {
            Json::Null
        } else {
            Json::Arr(written)
        };
        Some(Json::obj([
            ("command", Json::Arr(numbers)),
            ("written", written),
            ("line", Json::str(verdict_line(&verdict))),
            ("text", Json::str(text)),
            ("legal", Json::Bool(verdict.is_ok())),
            (
                "move",
                explain::command_move(c).map_or(Json::Null, move_json),
            ),
            (
                "highlight",
                Json::Arr(
                    explain::highlights(c, &verdict)
                        .into_iter()
                        .map(square_json)
                        .collect(),
                ),
            ),
            ("position", Json::str(board.to_string())),
            ("side", Json::str(board.side_to_move().name())),
            ("over", Json::Bool(board.is_over())),
            (
                "winner",
                board.winner().map_or(Json::Null, |c| Json::str(c.name())),
            ),
            ("check", Json::Bool(rules::is_check(board))),
            ("pieces", pieces_json(board)),
            (
                "checked",
                Json::Arr(checked(board).into_iter().map(square_json).collect()),
            ),
        ]))
    }

    /// `invalid`, `error` and `note`, once the steps are done.
    fn finish(self) -> [Json; 3] {
        [
            Json::Arr(self.invalid),
            self.error.map_or(Json::Null, |e| Json::str(e.to_string())),
            self.note.map_or(Json::Null, Json::Str),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statement_sample_has_the_judges_lines() {
        let input = "18\n0 0 7 0\n9 0 8 0\n0 1 1 3\n0 2 2 0\n0 3 1 2\n0 4 0 3\n9 4 8 4\n\
                     3 2 2 3\n7 0 4 2\n7 0 5 3\n9 2 7 4\n2 0 4 3\n9 1 8 3\n4 3 6 6\n7 4 9 2\n\
                     8 4 9 4\n6 6 9 4\n9 8 8 8\n";
        let r = replay(input.as_bytes());
        let steps = r.get("steps").and_then(Json::as_array).unwrap();
        assert_eq!(steps.len(), 18);
        let lines: Vec<&str> = steps
            .iter()
            .filter_map(|s| s.get("line").and_then(Json::as_str))
            .collect();
        assert_eq!(lines[4], "red guard;NA;no;no");
        assert_eq!(lines[13], "red duck;blue soldier;no;no");
        assert_eq!(lines[15], "blue captain;NA;yes;no");
        assert_eq!(lines[16], "red duck;blue captain;no;yes");
        assert_eq!(
            steps[0].get("text").and_then(Json::as_str),
            Some("invalid: the car is blocked at (2, 0)")
        );
        assert_eq!(steps[0].get("highlight").unwrap().to_string(), "[[2,0]]");
        assert_eq!(
            r.get("invalid").unwrap().to_string(),
            "[1,2,3,4,6,9,10,15,18]"
        );
        assert_eq!(r.get("error"), Some(&Json::Null));
        assert_eq!(r.get("total").and_then(Json::as_int), Some(18));
        assert_eq!(steps[0].get("command").unwrap().to_string(), "[0,0,7,0]");
        assert_eq!(steps[0].get("written"), Some(&Json::Null));
        assert_eq!(steps[15].get("check"), Some(&Json::Bool(true)));
        assert_eq!(steps[16].get("winner").and_then(Json::as_str), Some("red"));
        assert_eq!(steps[17].get("over"), Some(&Json::Bool(true)));
    }

    #[test]
    fn bad_input_stops_where_the_judge_stops() {
        let r = replay(b"3\n0 3 1 2\n99999999999999999999999 0 0 0\n9 x");
        let steps = r.get("steps").and_then(Json::as_array).unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!(
            steps[1].get("command").unwrap().to_string(),
            "[1099511627776,0,0,0]"
        );
        assert_eq!(
            steps[1].get("written").unwrap().to_string(),
            r#"["99999999999999999999999","0","0","0"]"#
        );
        assert_eq!(
            steps[1].get("text").and_then(Json::as_str),
            Some("invalid: the source square is off the board")
        );
        assert_eq!(
            r.get("error").and_then(Json::as_str),
            Some("line 4, column 3: expected an integer (ys of command 3 of 3), found \"x\"")
        );
        let r = replay(b"");
        assert_eq!(
            r.get("error").and_then(Json::as_str),
            Some("line 1, column 1: expected a non-negative integer (the number of commands Q), found end of input")
        );
        let r = replay(b"1\n0 3 1 2\n5 5");
        assert_eq!(
            r.get("note").and_then(Json::as_str),
            Some("ignoring the input after command 1, from line 3, column 1")
        );
    }

    #[test]
    fn a_huge_count_is_bounded_by_the_input() {
        let r = replay(b"99999999999999999999\n0 3 1 2\n");
        assert_eq!(
            r.get("steps").and_then(Json::as_array).map(|s| s.len()),
            Some(1)
        );
        assert!(r.get("error").and_then(Json::as_str).is_some());
        let many = format!("20000\n{}", "0 0 0 0\n".repeat(20_000));
        let r = replay(many.as_bytes());
        assert_eq!(
            r.get("steps").and_then(Json::as_array).map(|s| s.len()),
            Some(MAX_COMMANDS as usize)
        );
        assert_eq!(
            r.get("note").and_then(Json::as_str),
            Some("the replay stops after 10000 commands (Q is 20000)")
        );
    }

    #[test]
    fn the_written_replay_is_the_replay() {
        for input in [
            &b"3\n0 3 1 2\n99999999999999999999999 0 0 0\n9 x"[..],
            b"",
            b"x",
            b"0\n",
            b"1\n0 3 1 2\n5 5",
            b"2\n0 0 7 0\n9 0 8 0\n",
            b"12001\n",
        ] {
            let mut out = Vec::new();
            write_replay(input, &mut out).unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                replay(input).to_string(),
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
        let many = format!("10001\n{}", "0 3 1 2\n".repeat(10_001));
        let mut out = Vec::new();
        write_replay(many.as_bytes(), &mut out).unwrap();
        assert_eq!(out, replay(many.as_bytes()).to_string().into_bytes());
    }

    /// A caller that gathers every part in one buffer (the static site's answer is made
    /// whole in memory) gets a part at each call, whatever the buffer holds already.
    #[test]
    fn each_part_is_added_to_a_full_buffer() {
        // 1,000 legal moves: some 600 KB of replay, nine parts and the last.
        let input = format!(
            "1000\n{}",
            "0 0 1 0\n9 0 8 0\n1 0 0 0\n8 0 9 0\n".repeat(250)
        );
        let mut next = parts(input.clone().into_bytes());
        let mut gathered = Vec::new();
        let mut calls = 0;
        loop {
            let before = gathered.len();
            let more = next(&mut gathered).unwrap();
            calls += 1;
            if !more {
                break;
            }
            assert!(
                gathered.len() >= before + PART,
                "call {calls}: {} bytes added to {before}",
                gathered.len() - before
            );
        }
        assert!(calls >= 5, "{calls} parts");
        assert_eq!(gathered, replay(input.as_bytes()).to_string().into_bytes());
    }
}
