//! `duckchess selfplay`: the engine plays itself and writes the positions of its games
//! with its own score of each and the game's result: the training data of the learnt
//! evaluation ([`crate::lab::train`], `duckchess train`).
//!
//! Each game opens with random quiet moves drawn from its seed (a position the engine
//! scores as lopsided after them is skipped), then both sides search a fixed number of
//! nodes a move (a little more, drawn from the seed, so that games differ), keeping
//! their tables from move to move. A game ends at a captain capture, a forced result
//! found by the search, the 300-move limit or a side without moves. Only quiet
//! positions are written: neither captain attacked and the move chosen not a capture,
//! where the static evaluation can be expected to agree with the search. Games are
//! written whole, one after another, so an interrupted run loses only the games under
//! way. Not on the judge path.

use crate::engine::nnue::Evaluation;
use crate::engine::search::{Context, Engine, Limits};
use crate::engine::tt::MATE_BOUND;
use crate::judge::board::Board;
use crate::judge::piece::Color;
use crate::judge::rules;
use crate::play::arena;
use crate::sys::rng::Rng;

/// A game's start is skipped when a shallow search scores it beyond this either way.
const LOPSIDED: i32 = 300;
/// The depth of that search.
const OPENING_CHECK_DEPTH: u32 = 3;

/// One position of a game: its notation, red's score from the search, and (once the
/// game is over) red's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position, with the side to move.
    pub board: Board,
    /// The search's score, from red's point of view, in centipawns.
    pub score: i32,
    /// Red's result: 1 a win, 0.5 a draw, 0 a loss.
    pub result: f32,
}

impl Sample {
    /// The line that `selfplay` writes and `train` reads: `NOTATION;SCORE;RESULT`.
    pub fn line(&self) -> String {
        format!("{};{};{}", self.board, self.score, self.result)
    }
}

/// A line of a positions file that is not `NOTATION;SCORE;RESULT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine(pub String);

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for Sample {
    type Err = BadLine;

    fn from_str(line: &str) -> Result<Sample, BadLine> {
        let mut parts = line.split(';');
        let (Some(position), Some(score), Some(result), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(BadLine(
                "expected NOTATION;SCORE;RESULT (three fields separated by ';')".into(),
            ));
        };
        let board: Board = position
            .parse()
            .map_err(|e| BadLine(format!("the position: {e}")))?;
        if board.is_over() {
            return Err(BadLine("the position: a captain is missing".into()));
        }
        let score: i32 = score
            .trim()
            .parse()
            .ok()
            // A range, not `abs()`, which overflows on the least integer.
            .filter(|s: &i32| (1 - MATE_BOUND..MATE_BOUND).contains(s))
            .ok_or_else(|| BadLine(format!("the score {score:?}: expected centipawns")))?;
        let result = match result.trim() {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => {
                return Err(BadLine(format!(
                    "the result {other:?}: expected 1, 0.5 or 0"
                )))
            }
        };
        Ok(Sample {
            board,
            score,
            result,
        })
    }
}

/// How the games are played.
#[derive(Clone)]
pub struct SelfplaySetup {
    /// Nodes a move (each move adds up to a quarter more, drawn from the game's seed).
    pub nodes: u64,
    /// Random quiet moves before the engine plays.
    pub opening: u32,
    /// The seed of the run: game `i` plays from [`arena::game_seed`] of it.
    pub seed: u64,
    /// What both sides evaluate with.
    pub evaluation: Evaluation,
}

/// Plays game `index` of the run and returns its quiet positions with their scores and
/// the result; empty when the opening was lopsided.
pub fn play(setup: &SelfplaySetup, index: u64, engine: &mut Engine) -> Vec<Sample> {
    let mut rng = Rng::new(arena::game_seed(setup.seed, index));
    let (start, played) = arena::opening(&mut rng, setup.opening);
    engine.clear();
    let look = Context {
        evaluation: Some(&setup.evaluation),
        ..Context::default()
    };
    if start.is_over()
        || engine
            .search_in(&start, Limits::depth(OPENING_CHECK_DEPTH), look)
            .score
            .abs()
            > LOPSIDED
    {
        return Vec::new();
    }
    engine.clear();
    let mut board = start;
    let mut history: Vec<Board> = Vec::new();
    let mut moves = played;
    let mut samples = Vec::new();
    let red_result = loop {
        if let Some(winner) = board.winner() {
            break if winner == Color::Red { 1.0 } else { 0.0 };
        }
        if moves >= arena::MAX_MOVES {
            break 0.5;
        }
        let nodes = setup.nodes + rng.below(setup.nodes / 4 + 1);
        let context = Context {
            history: &history,
            moves_played: moves,
            evaluation: Some(&setup.evaluation),
            ..Context::default()
        };
        let report = engine.search_in(&board, Limits::nodes(nodes), context);
        let Some(best) = report.best else {
            break 0.5; // stuck: a draw
        };
        let red = board.side_to_move() == Color::Red;
        if report.score.abs() >= MATE_BOUND {
            // A forced result: the game would end so.
            break if (report.score > 0) == red { 1.0 } else { 0.0 };
        }
        if board.is_empty(best.to) && !rules::is_check(&board) {
            samples.push(Sample {
                board: board.clone(),
                score: if red { report.score } else { -report.score },
                result: 0.0,
            });
        }
        history.push(board.clone());
        board.make_move(best.from, best.to);
        moves += 1;
    };
    for s in samples.iter_mut() {
        s.result = red_result;
    }
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_line_reads_back() {
        let s = Sample {
            board: Board::start(),
            score: -42,
            result: 0.5,
        };
        assert_eq!(s.line().parse::<Sample>(), Ok(s));
        // The range of scores is the same either way.
        for score in [MATE_BOUND - 1, 1 - MATE_BOUND] {
            let line = format!("4k4/9/9/9/9/9/9/9/9/4K4 r;{score};1");
            assert_eq!(line.parse::<Sample>().map(|s| s.score), Ok(score));
        }
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (line, says) in [
            ("", "three fields"),
            ("9/9/9/9/9/9/9/9/9/9 r;0;1", "captain"),
            ("4k4/9/9/9/9/9/9/9/9/4K4 r;x;1", "score"),
            ("4k4/9/9/9/9/9/9/9/9/4K4 r;-2147483648;1", "score"),
            ("4k4/9/9/9/9/9/9/9/9/4K4 r;-2147483647;1", "score"),
            ("4k4/9/9/9/9/9/9/9/9/4K4 r;2147483647;1", "score"),
            ("4k4/9/9/9/9/9/9/9/9/4K4 r;2147483648;1", "score"),
            ("4k4/9/9/9/9/9/9/9/9/4K4 r;0;2", "result"),
            ("4k4/9/9/9/9/9/9/9/9/4K4 r;0;1;1", "three fields"),
        ] {
            let e = line.parse::<Sample>().unwrap_err();
            assert!(e.0.contains(says), "{line:?}: {e}");
        }
    }

    #[test]
    fn a_game_gives_quiet_positions_with_one_result() {
        let setup = SelfplaySetup {
            nodes: 300,
            opening: 6,
            seed: 5,
            evaluation: Evaluation::default(),
        };
        let mut engine = Engine::with_hash(1);
        let mut total = 0;
        for index in 1..=3 {
            let samples = play(&setup, index, &mut engine);
            assert_eq!(
                samples,
                play(&setup, index, &mut engine),
                "the same game again"
            );
            for s in &samples {
                assert!(!rules::is_check(&s.board), "{}", s.board);
                assert_eq!(s.result, samples[0].result);
            }
            total += samples.len();
        }
        assert!(total > 20, "{total} positions");
    }
}
