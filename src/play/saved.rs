//! Saved games, as `play save` writes them and `play load` (and the browser board) read
//! them back: the position the game started from, then the judge's input for the moves.
//!
//! ```text
//! rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r
//! 2
//! 0 1 2 2
//! 9 1 7 2
//! ```
//!
//! Line 1 is the position notation; line 2 the number of moves `Q`; then one move
//! `xs ys xt yt` per line. From the start position, everything after line 1 is exactly a
//! judge input: `tail -n +2 FILE | duckchess` replays the game. Reading it back replays
//! every move through the judge's rules and refuses the whole file, with its line
//! number, if any move is invalid.

use crate::judge::board::{Board, NotationError};
use crate::judge::game::Game;
use crate::judge::rules::Move;
use crate::judge::scan::Cmd;
use crate::judge::Scanner;
use std::fmt;

/// Why a saved game cannot be loaded. Lines count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file holds no position.
    Empty,
    /// Line 1 is not a position.
    Position(NotationError),
    /// The move count is not a non-negative integer.
    Count { line: usize, found: String },
    /// A move line is not four integers.
    Malformed { line: usize, found: String },
    /// A move the rules refuse.
    Invalid {
        line: usize,
        number: usize,
        reason: String,
    },
    /// Fewer moves than the count says.
    MissingMoves { expected: usize, found: usize },
    /// Text after the last move.
    Trailing { line: usize },
    /// A judge input that the judge itself could not read to its end.
    JudgeInput(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Empty => write!(f, "line 1: expected a position, found nothing"),
            LoadError::Position(e) => write!(f, "line 1: {e}"),
            LoadError::Count { line, found } => write!(
                f,
                "line {line}: expected the number of moves, found {found:?}"
            ),
            LoadError::Malformed { line, found } => write!(
                f,
                "line {line}: expected a move 'xs ys xt yt', found {found:?}"
            ),
            LoadError::Invalid {
                line,
                number,
                reason,
            } => write!(f, "line {line}: move {number} is invalid: {reason}"),
            LoadError::MissingMoves { expected, found } => {
                write!(f, "expected {expected} moves, found {found}")
            }
            LoadError::Trailing { line } => {
                write!(f, "line {line}: unexpected text after the moves")
            }
            LoadError::JudgeInput(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// The text `save` writes for a game that started from `start` and played `moves`.
pub fn save_text(start: &Board, moves: &[Move]) -> String {
    let mut text = format!("{start}\n{}\n", moves.len());
    for m in moves {
        text.push_str(&format!("{m}\n"));
    }
    text
}

/// Reads what [`save_text`] writes: the start position and the moves, each checked by
/// the judge's rules.
pub fn parse_saved(text: &str) -> Result<(Board, Vec<Move>), LoadError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let start: Board = match lines.next() {
        None => return Err(LoadError::Empty),
        Some((_, l)) => l.parse().map_err(LoadError::Position)?,
    };
    let count = match lines.next() {
        None => 0,
        Some((line, l)) => l.parse::<usize>().map_err(|_| LoadError::Count {
            line,
            found: l.to_string(),
        })?,
    };
    let mut game = Game::from_board(start.clone());
    let mut moves = Vec::new();
    while moves.len() < count {
        let (line, l) = match lines.next() {
            Some(x) => x,
            None => {
                return Err(LoadError::MissingMoves {
                    expected: count,
                    found: moves.len(),
                })
            }
        };
        let c = match parse_move(l) {
            Some(c) => c,
            None => {
                return Err(LoadError::Malformed {
                    line,
                    found: l.to_string(),
                })
            }
        };
        match game.validate(c[0], c[1], c[2], c[3]) {
            Ok((from, to, _)) => {
                let _ = game.play(c[0], c[1], c[2], c[3]);
                moves.push(Move { from, to });
            }
            Err(e) => {
                return Err(LoadError::Invalid {
                    line,
                    number: moves.len() + 1,
                    reason: e.to_string(),
                })
            }
        }
    }
    if let Some((line, _)) = lines.next() {
        return Err(LoadError::Trailing { line });
    }
    Ok((start, moves))
}

/// A game read back by [`load_text`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The position the game started from.
    pub start: Board,
    /// The moves played, all valid.
    pub moves: Vec<Move>,
    /// For a judge input, how many of its commands were invalid (and skipped, as the
    /// judge ignores them); `None` for a saved game.
    pub skipped: Option<u64>,
    /// The number of each move's command in the input, from 1 (for a saved game, the
    /// move's own number).
    pub commands: Vec<u64>,
}

/// Reads a saved game ([`parse_saved`]), or a plain judge input: `Q` and the commands,
/// from the start position, read as the judge reads them (any whitespace); invalid
/// commands are skipped as the judge ignores them, and so is anything after the `Q`-th
/// command. A saved game's first line holds a position, with its `/` between ranks; a
/// judge input's first token is a number.
pub fn load_text(text: &str) -> Result<Loaded, LoadError> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    if first.is_none_or(|l| l.contains('/')) {
        let (start, moves) = parse_saved(text)?;
        return Ok(Loaded {
            start,
            commands: (1..=moves.len() as u64).collect(),
            moves,
            skipped: None,
        });
    }
    let mut scanner = Scanner::new(text.as_bytes());
    let judge = |e: crate::judge::JudgeError| LoadError::JudgeInput(e.to_string());
    let total = scanner.count().map_err(judge)?;
    let mut game = Game::new();
    let mut moves = Vec::new();
    let mut commands = Vec::new();
    let mut skipped = 0;
    for index in 1..=total.value {
        let c = scanner.command(index, total).map_err(judge)?;
        match game.validate(c[0], c[1], c[2], c[3]) {
            Ok((from, to, _)) => {
                let _ = game.play(c[0], c[1], c[2], c[3]);
                moves.push(Move { from, to });
                commands.push(index);
            }
            Err(_) => skipped += 1,
        }
    }
    Ok(Loaded {
        start: Board::start(),
        moves,
        skipped: Some(skipped),
        commands,
    })
}

/// Four integers `xs ys xt yt`, or `None`. Integers too large for `i64` become huge
/// (and so off the board), as the judge treats them.
pub fn parse_move(text: &str) -> Option<Cmd> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() != 4 {
        return None;
    }
    let mut c = [0i64; 4];
    for (slot, w) in c.iter_mut().zip(&words) {
        *slot = parse_int(w)?;
    }
    Some(c)
}

pub fn parse_int(word: &str) -> Option<i64> {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(word.parse::<i64>().unwrap_or(if word.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::game::Game;
    use crate::judge::rules::Move;

    #[test]
    fn saved_games_round_trip() {
        let start: Board = "4k4/9/9/2D6/9/9/4R4/3h5/9/4K4 r".parse().unwrap();
        let mut game = Game::from_board(start.clone());
        let mut moves = Vec::new();
        for c in [[3, 4, 8, 4], [2, 3, 0, 4]] {
            let (from, to, _) = game.validate(c[0], c[1], c[2], c[3]).unwrap();
            game.play(c[0], c[1], c[2], c[3]).unwrap();
            moves.push(Move { from, to });
        }
        let text = save_text(&start, &moves);
        assert_eq!(
            text,
            "4k4/9/9/2D6/9/9/4R4/3h5/9/4K4 r\n2\n3 4 8 4\n2 3 0 4\n"
        );
        assert_eq!(parse_saved(&text), Ok((start.clone(), moves)));
        // Windows line ends, blank lines and a position without moves also load.
        let crlf = text.replace('\n', "\r\n\r\n");
        assert!(parse_saved(&crlf).is_ok());
        assert_eq!(parse_saved(&format!("{start}\n")), Ok((start, Vec::new())));
        assert_eq!(
            parse_saved(&format!("{text}0 0 1 0\n")),
            Err(LoadError::Trailing { line: 5 })
        );
    }

    #[test]
    fn a_judge_input_loads_from_the_start_skipping_invalid_commands() {
        let statement = include_str!("../../samples/statement.in");
        let loaded = load_text(statement).expect("the statement sample loads");
        assert_eq!(loaded.start, Board::start());
        assert_eq!(loaded.skipped, Some(9));
        assert_eq!(loaded.moves.len(), 9);
        assert_eq!(loaded.moves[0].to_string(), "0 3 1 2");
        assert_eq!(loaded.commands, [5, 7, 8, 11, 12, 13, 14, 16, 17]);
        // The same as a saved game of those moves.
        let saved = save_text(&Board::start(), &loaded.moves);
        assert_eq!(parse_saved(&saved), Ok((Board::start(), loaded.moves)));
        assert_eq!(
            load_text("2\n0 3 1 2\n"),
            Err(LoadError::JudgeInput(
                "line 3, column 1: expected an integer (xs of command 2 of 2), found end of input"
                    .to_string()
            ))
        );
        assert!(load_text("").is_err());
    }

    #[test]
    fn moves_parse_like_the_judge() {
        assert_eq!(parse_move("0 1 2 2"), Some([0, 1, 2, 2]));
        assert_eq!(parse_move(" +0\t1 -2 2 "), Some([0, 1, -2, 2]));
        assert_eq!(
            parse_move("99999999999999999999 0 0 -99999999999999999999"),
            Some([i64::MAX, 0, 0, i64::MIN])
        );
        for bad in ["", "0 1 2", "0 1 2 2 3", "0 1 2 x", "0 1 2 1.5", "- 1 2 2"] {
            assert_eq!(parse_move(bad), None, "{bad:?}");
        }
    }
}
