//! `duckchess fit`: piece values fitted on played games. It reads the records that
//! `match --record` writes, replays every game through the judge's rules, and fits a
//! logistic model of red's score on the material difference of the quiet positions
//! (Newton's method, a few dozen iterations): the fitted weight of each kind, scaled so
//! that the horse is worth 300 as in [`eval::VALUES`], is its value in the games. This
//! is how the built-in values were tuned (see docs/engine-internals.md).
//!
//! Not on the judge path; uses the judge's rules and the engine's move notation.

use crate::cli::{self};
use crate::engine::eval::{self, VALUES};
use crate::engine::search::MOVE_LIMIT;
use crate::judge::board::Board;
use crate::judge::piece::{Color, PieceKind};
use crate::judge::rules::{self, Move};
use crate::play::matchrun::{self, CAPTURED, OUTCOMES, STUCK};
use crate::play::notation::parse_move;
use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

/// The kinds that have a value: every kind but the captain, in [`PieceKind::ALL`] order.
pub const KINDS: usize = 6;
/// The fitted parameters: one weight per kind, then red's and blue's edge for having the
/// move.
const PARAMS: usize = KINDS + 2;
/// The longest line a record may have (a 300-move game takes under 2 KB).
const MAX_LINE: u64 = 1 << 16;
/// One position of `fit --terms`: its features and red's score.
pub type TermRow = ([i16; eval::FEATURES], f32);

/// The most positions `fit --terms` keeps (the first ones read): each holds every
/// feature of the evaluation (70 bytes), so that memory stays bounded (about 70 MB)
/// however many records are read.
pub const MAX_TERM_POSITIONS: usize = 1_000_000;
/// What [`fit`] adds to the curvature of every parameter: keeps the system solvable
/// when a kind never differs between the sides, and barely moves the others.
const RIDGE: f64 = 1e-3;

/// One quiet position's features: red's count of each kind minus blue's, and the side
/// to move.
type Features = ([i8; KINDS], Color);

/// The positions taken from the games, identical ones merged: for each, red's total
/// score in the games it came from and how many times it was seen. Its size is bounded
/// by the number of distinct material balances, not by the number of games.
#[derive(Default, Debug)]
pub struct Samples {
    seen: HashMap<Features, (f64, f64)>,
    /// With `--terms`: every kept position's [`eval::features`] (red's point of view;
    /// in the captain's slot, which has no feature, a 1 for red's edge) and red's score
    /// in its game, at most [`MAX_TERM_POSITIONS`] of them; `None` when only the
    /// material is fitted.
    pub terms: Option<Vec<TermRow>>,
    /// Games read.
    pub games: u64,
    /// Games drawn among them.
    pub draws: u64,
    /// Games red won among them.
    pub red_wins: u64,
    /// Games blue won among them.
    pub blue_wins: u64,
    /// Positions kept.
    pub positions: u64,
}

impl Samples {
    /// Adds the positions of one game that ended as `ending` says: those from ply
    /// `skip` on where neither the move that led there nor the move played there is a
    /// capture (an exchange half done is not a material balance). Every move is
    /// checked against the rules from the start position, and the end of the game
    /// against `ending`: on a fault, nothing of the game is added.
    pub fn add_game(
        &mut self,
        moves: &[Move],
        ending: &Ending,
        skip: usize,
    ) -> Result<(), GameFault> {
        let mut board = Board::start();
        let mut kept = Vec::new();
        let mut kept_terms = Vec::new();
        let room = self
            .terms
            .as_ref()
            .map_or(0, |t| MAX_TERM_POSITIONS.saturating_sub(t.len()));
        let mut last_captured = false;
        for (ply, m) in moves.iter().enumerate() {
            if !rules::legal_moves(&board).contains(m) {
                return Err(GameFault::Illegal(ply));
            }
            let captures = board.piece_at(m.to).is_some();
            if ply >= skip && !captures && !last_captured {
                kept.push(features(&board));
                if kept_terms.len() < room {
                    if let Some(mut f) = eval::features(&board) {
                        f[0] = 1; // the captain's slot: red's edge
                        kept_terms.push(f.map(|x| x.clamp(-9999, 9999) as i16));
                    }
                }
            }
            board.make_move(m.from, m.to);
            last_captured = captures;
        }
        check_ending(&board, moves.len(), ending).map_err(GameFault::Ending)?;
        let red_score = ending.red_score;
        if let Some(terms) = self.terms.as_mut() {
            terms.extend(kept_terms.into_iter().map(|f| (f, red_score as f32)));
        }
        for position in kept {
            let entry = self.seen.entry(position).or_insert((0.0, 0.0));
            entry.0 += red_score;
            entry.1 += 1.0;
            self.positions += 1;
        }
        self.games += 1;
        let tally = if red_score == 1.0 {
            &mut self.red_wins
        } else if red_score == 0.0 {
            &mut self.blue_wins
        } else {
            &mut self.draws
        };
        *tally += 1;
        Ok(())
    }

    /// When every game read has the same result (with at least one position to fit),
    /// why that cannot be fitted: no material balance then tells a win from a loss.
    pub fn one_sided(&self) -> Option<String> {
        let kinds = [
            (self.red_wins, "won by red", "won by blue or drawn"),
            (self.blue_wins, "won by blue", "won by red or drawn"),
            (self.draws, "a draw", "won by either side"),
        ];
        let present: Vec<(&str, &str)> = kinds
            .iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|&(_, is, others)| (is, others))
            .collect();
        match present[..] {
            [(is, others)] if self.positions > 0 => Some(format!(
                "every game is {is}: the fit also needs games {others}"
            )),
            _ => None,
        }
    }
}

/// How a game's moves go against what its result line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameFault {
    /// The move at this index (from 0) is not legal where it is played.
    Illegal(usize),
    /// The game ends otherwise than its result says: how, in words.
    Ending(String),
}

/// How a result line says a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// Red's score: 1, 0.5 or 0.
    pub red_score: f64,
    /// Why it ended, the words in brackets: one of the board's endings of
    /// [`matchrun`] ([`CAPTURED`], [`STUCK`], the move limit), or a forfeit.
    pub reason: String,
    /// The moves it had, the opening's included.
    pub moves: usize,
}

/// A game's result in words.
fn result_words(red_score: f64) -> &'static str {
    if red_score == 1.0 {
        "red won"
    } else if red_score == 0.0 {
        "blue won"
    } else {
        "a draw"
    }
}

/// Whether a game of `count` moves that reached `board` ended as `ending` says; if
/// not, how it differs.
fn check_ending(board: &Board, count: usize, ending: &Ending) -> Result<(), String> {
    if count != ending.moves {
        return Err(format!(
            "the result says {}, the moves are {count}",
            cli::plural(ending.moves as u64, "move")
        ));
    }
    let said = result_words(ending.red_score);
    let reason = ending.reason.as_str();
    // What the board says: the game is over or not, and how.
    let (over, result) = match board.winner() {
        Some(w) => (Some(CAPTURED.to_string()), Some(w)),
        None if board.is_over() => (Some("no captain left".to_string()), None),
        // In the order `match` looks: the move limit before a stuck side.
        None if count >= MOVE_LIMIT as usize => (Some(matchrun::move_limit_reason()), None),
        None if rules::legal_moves(board).is_empty() => (Some(STUCK.to_string()), None),
        None => (None, None),
    };
    match over {
        Some(how) if how != reason => Err(format!(
            "the result says {reason:?}, but the game ended by {how:?} after its last move"
        )),
        None if reason == CAPTURED
            || reason == STUCK
            || reason == matchrun::move_limit_reason() =>
        {
            Err(format!(
                "the result says {reason:?}, but the game goes on after its last move"
            ))
        }
        Some(_) => {
            let board_says = result_words(match result {
                Some(Color::Red) => 1.0,
                Some(Color::Blue) => 0.0,
                None => 0.5,
            });
            if board_says == said {
                Ok(())
            } else {
                Err(format!(
                    "the result says {said}, but the board says {board_says}"
                ))
            }
        }
        // A forfeit: an illegal move, a fallen flag, an engine that failed.
        None if ending.red_score == 0.5 => Err(format!(
            "the result says a draw by {reason:?}, which no game ends in"
        )),
        None => Ok(()),
    }
}

/// The material difference (red minus blue) and the side to move of `board`.
fn features(board: &Board) -> Features {
    let mut diff = [0i8; KINDS];
    for (d, kind) in diff.iter_mut().zip(&PieceKind::ALL[1..]) {
        let count = |c| board.mask(c, *kind).count_ones() as i8;
        *d = count(Color::Red) - count(Color::Blue);
    }
    (diff, board.side_to_move())
}

/// The fitted model, in logits of red's expected score.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The weight of one piece of each kind, in [`PieceKind::ALL`] order from the guard.
    pub weights: [f64; KINDS],
    /// Red's edge with equal material when red is to move.
    pub red_to_move: f64,
    /// Red's edge with equal material when blue is to move.
    pub blue_to_move: f64,
}

impl Fit {
    /// The values in the evaluation's units, the horse at its built-in value; `None`
    /// when the horse's weight is not positive (too few or too one-sided games).
    pub fn values(&self) -> Option<[i32; KINDS]> {
        let horse = self.weights[PieceKind::Horse.index() - 1];
        // Also refuses a NaN weight.
        if horse.partial_cmp(&1e-9) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        let scale = f64::from(VALUES[PieceKind::Horse.index()]) / horse;
        Some(self.weights.map(|w| (w * scale).round() as i32))
    }
}

/// Fits red's score on the samples by logistic regression (maximum likelihood with a
/// tiny ridge), by Newton's method; `None` without any position.
pub fn fit(samples: &Samples) -> Option<Fit> {
    if samples.positions == 0 {
        return None;
    }
    let mut rows: Vec<([f64; PARAMS], f64, f64)> = samples
        .seen
        .iter()
        .map(|(&(diff, side), &(score, count))| {
            let mut x = [0.0; PARAMS];
            for (xi, d) in x.iter_mut().zip(diff) {
                *xi = f64::from(d);
            }
            x[KINDS + side.index()] = 1.0;
            (x, score, count)
        })
        .collect::<Vec<_>>();
    // The same sums in the same order on every run, whatever the map's order.
    rows.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    let (w, _) = logistic(rows.iter().map(|(x, s, c)| (&x[..], *s, *c)), PARAMS)?;
    let mut weights = [0.0; KINDS];
    weights.copy_from_slice(&w[..KINDS]);
    Some(Fit {
        weights,
        red_to_move: w[KINDS],
        blue_to_move: w[KINDS + 1],
    })
}

/// A fit of every weight of the evaluation ([`eval::WEIGHTS`], the captain's slot
/// aside), in the evaluation's units (the horse at its built-in value).
#[derive(Clone, Debug, PartialEq)]
pub struct TermFit {
    /// For each weight: its index in [`eval::WEIGHTS`], its fitted value and the 95%
    /// margin of that value (1.96 standard errors, the scale taken as exact).
    pub weights: Vec<(usize, i32, i32)>,
    /// Red's edge with everything else equal, in logits of red's score.
    pub red_edge: f64,
}

/// Fits red's score on every feature of the evaluation of the positions kept with
/// `--terms`, by logistic regression; `None` without positions, or when the horse's
/// weight does not come out positive.
pub fn fit_terms(samples: &Samples) -> Option<TermFit> {
    let positions = samples.terms.as_ref().filter(|t| !t.is_empty())?;
    let n = eval::FEATURES; // the captain's slot holds red's edge
    let rows = positions
        .iter()
        .map(|(f, score)| (&f[..], f64::from(*score), 1.0));
    let (w, cov) = logistic(rows, n)?;
    let horse = PieceKind::Horse.index();
    if w[horse].partial_cmp(&1e-9) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let scale = f64::from(VALUES[horse]) / w[horse];
    let weights = (1..n)
        .map(|i| {
            let margin = 1.96 * cov[i][i].max(0.0).sqrt() * scale;
            (i, (w[i] * scale).round() as i32, margin.round() as i32)
        })
        .collect();
    Some(TermFit {
        weights,
        red_edge: w[0],
    })
}

/// Logistic regression of the scores on the rows `(features, score, count)` (a row
/// seen `count` times, its scores summed), `n` features each: maximum likelihood with
/// a tiny ridge, by Newton's method. Returns the weights and the inverse of the
/// curvature at them (their covariance), or `None` when the system is singular.
#[allow(clippy::type_complexity)]
fn logistic<'r, T: Copy + Into<f64> + 'r>(
    rows: impl Iterator<Item = (&'r [T], f64, f64)> + Clone,
    n: usize,
) -> Option<(Vec<f64>, Vec<Vec<f64>>)> {
    let mut w = vec![0.0; n];
    let mut hess = vec![vec![0.0; n]; n];
    // One row's features as numbers, reused from row to row.
    let mut x = vec![0.0; n];
    for round in 0..51 {
        let mut grad = vec![0.0; n];
        for row in hess.iter_mut() {
            row.iter_mut().for_each(|h| *h = 0.0);
        }
        for (features, score, count) in rows.clone() {
            for (xi, &f) in x.iter_mut().zip(features) {
                *xi = f.into();
            }
            let z: f64 = x.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let curve = count * p * (1.0 - p);
            for i in 0..n {
                grad[i] += (count * p - score) * x[i];
                if x[i] != 0.0 {
                    for j in 0..n {
                        hess[i][j] += curve * x[i] * x[j];
                    }
                }
            }
        }
        for i in 0..n {
            grad[i] += RIDGE * w[i];
            hess[i][i] += RIDGE;
        }
        if round == 50 {
            break;
        }
        let step = solve(hess.clone(), grad)?;
        let mut largest: f64 = 0.0;
        for i in 0..n {
            w[i] -= step[i];
            largest = largest.max(step[i].abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    // The covariance: the inverse of the curvature, one column at a time.
    let mut cov = vec![vec![0.0; n]; n];
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        let col = solve(hess.clone(), e)?;
        for i in 0..n {
            cov[i][j] = col[i];
        }
    }
    Some((w, cov))
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when `a` is
/// singular (it is not: the ridge keeps it positive definite).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            let (above, below) = a.split_at_mut(row);
            for (x, p) in below[0][col..].iter_mut().zip(&above[col][col..]) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// Why a record cannot be read. Lines count from 1.
#[derive(Debug)]
pub enum RecordError {
    /// Reading failed.
    Io(io::Error),
    /// A line longer than any record line.
    TooLong { line: usize },
    /// A line that is neither a game's result nor its moves where one was expected.
    Unexpected { line: usize, expected: &'static str },
    /// A result line without its colour or outcome.
    Result { line: usize },
    /// A move that does not read or that the rules refuse.
    Move {
        line: usize,
        number: usize,
        found: String,
    },
    /// A game that does not end as its result line (at `line`) says.
    Ending { line: usize, problem: String },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Io(e) => write!(f, "cannot read: {e}"),
            RecordError::TooLong { line } => {
                write!(f, "line {line}: longer than {MAX_LINE} bytes")
            }
            RecordError::Unexpected { line, expected } => {
                write!(f, "line {line}: expected {expected}")
            }
            RecordError::Result { line } => write!(
                f,
                "line {line}: expected 'engine red|blue: engine wins|opponent wins|draw (REASON) \
                 after N moves'"
            ),
            RecordError::Move {
                line,
                number,
                found,
            } => write!(f, "line {line}: move {number} {found:?} is not legal here"),
            RecordError::Ending { line, problem } => write!(
                f,
                "line {line}: the game does not end as its result says: {problem}"
            ),
        }
    }
}

/// How a game ended from its result line (`game 3/10: opening 2, engine blue:
/// opponent wins (captain captured) after 88 moves; ...`), if the line says who played
/// red, how it ended, why, and after how many moves.
pub fn ending(line: &str) -> Option<Ending> {
    let (_, rest) = line.split_once(", engine ")?;
    let (colour, outcome) = rest.split_once(": ")?;
    let &(words, engine_score) = OUTCOMES
        .iter()
        .find(|(words, _)| outcome.starts_with(words))?;
    let red_score = match colour {
        "red" => engine_score,
        "blue" => 1.0 - engine_score,
        _ => return None,
    };
    // The reason may hold brackets of its own (an engine's error): the count follows
    // the last ") after ".
    let (reason, count) = outcome[words.len()..]
        .strip_prefix(" (")?
        .rsplit_once(") after ")?;
    let moves = count.split_whitespace().next()?.parse().ok()?;
    Some(Ending {
        red_score,
        reason: reason.to_string(),
        moves,
    })
}

/// Reads one record (result lines, each followed by a `moves` line; blank lines
/// ignored) into `samples`, every move checked by the rules. On an error, the games
/// before it stay in `samples`.
pub fn read_record(
    input: impl io::Read,
    samples: &mut Samples,
    skip: usize,
) -> Result<(), RecordError> {
    let mut reader = BufReader::new(input);
    let mut result: Option<(Ending, usize)> = None;
    let mut buf = Vec::new();
    let mut line = 0;
    loop {
        buf.clear();
        let n = reader
            .by_ref()
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut buf)
            .map_err(RecordError::Io)?;
        if n == 0 {
            break;
        }
        line += 1;
        if n as u64 > MAX_LINE {
            return Err(RecordError::TooLong { line });
        }
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match result.take() {
            None => {
                if !text.starts_with("game ") {
                    return Err(RecordError::Unexpected {
                        line,
                        expected: "a result line ('game ...')",
                    });
                }
                result = Some((ending(text).ok_or(RecordError::Result { line })?, line));
            }
            Some((ending, result_line)) => {
                let list = text
                    .strip_prefix("moves")
                    .filter(|rest| rest.is_empty() || rest.starts_with(' '))
                    .ok_or(RecordError::Unexpected {
                        line,
                        expected: "the game's moves ('moves ...')",
                    })?;
                let words: Vec<&str> = list.split_whitespace().collect();
                let bad = |i: usize| RecordError::Move {
                    line,
                    number: i + 1,
                    found: words[i].to_string(),
                };
                let moves = words
                    .iter()
                    .enumerate()
                    .map(|(i, w)| parse_move(w).map_err(|_| bad(i)))
                    .collect::<Result<Vec<Move>, _>>()?;
                samples
                    .add_game(&moves, &ending, skip)
                    .map_err(|fault| match fault {
                        GameFault::Illegal(i) => bad(i),
                        GameFault::Ending(problem) => RecordError::Ending {
                            line: result_line,
                            problem,
                        },
                    })?;
            }
        }
    }
    match result {
        Some(_) => Err(RecordError::Unexpected {
            line: line + 1,
            expected: "the game's moves ('moves ...')",
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::rng::Rng;

    #[test]
    fn the_result_line_says_what_red_scored() {
        let line = |colour: &str, outcome: &str| {
            format!(
                "game 3/10: opening 2, engine {colour}: {outcome} (x) after 90 moves; score 1.0/3"
            )
        };
        for (colour, outcome, score) in [
            ("red", "engine wins", 1.0),
            ("red", "opponent wins", 0.0),
            ("red", "draw", 0.5),
            ("blue", "engine wins", 0.0),
            ("blue", "opponent wins", 1.0),
            ("blue", "draw", 0.5),
        ] {
            assert_eq!(
                ending(&line(colour, outcome)),
                Some(Ending {
                    red_score: score,
                    reason: "x".into(),
                    moves: 90
                }),
                "{colour} {outcome}"
            );
        }
        assert_eq!(ending(&line("green", "draw")), None);
        assert_eq!(ending(&line("red", "nobody wins")), None);
        assert_eq!(ending("game 1/2: draw"), None);
        // The reason and the count are part of the result.
        assert_eq!(
            ending("game 1/2: opening 1, engine red: draw after 9 moves"),
            None
        );
        assert_eq!(
            ending("game 1/2: opening 1, engine red: draw (x) after"),
            None
        );
        // An engine's error may hold brackets.
        let e = ending(
            "game 1/2: opening 1, engine red: opponent wins (x: cannot start: gone (os \
             error 2)) after 0 moves; score 0.0/1",
        )
        .unwrap();
        assert_eq!(
            (e.reason.as_str(), e.moves),
            ("x: cannot start: gone (os error 2)", 0)
        );
    }

    #[test]
    fn the_fit_of_every_term_finds_the_weights_that_made_the_scores() {
        // Red's expected score in each position, exactly as a known model over every
        // feature of the evaluation says: the fit must give that model back, scaled so
        // that the horse is 300, with margins that shrink as the positions grow.
        let n = eval::FEATURES;
        let truth: Vec<f64> = (0..n)
            .map(|i| ((i * 37 % 23) as f64 - 11.0) / 40.0)
            .collect();
        let horse = PieceKind::Horse.index();
        assert!(truth[horse] > 0.0);
        let mut rng = Rng::new(11);
        let mut make = |positions: usize| {
            let mut samples = Samples {
                terms: Some(Vec::new()),
                ..Samples::default()
            };
            for _ in 0..positions {
                // Slot 0 is red's edge: always 1.
                let mut f = [1i16; eval::FEATURES];
                for x in f.iter_mut().skip(1) {
                    *x = rng.below(5) as i16 - 2;
                }
                let z: f64 = truth[0] + (1..n).map(|i| f64::from(f[i]) * truth[i]).sum::<f64>();
                let score = 1.0 / (1.0 + (-z).exp());
                samples.terms.as_mut().unwrap().push((f, score as f32));
            }
            samples
        };
        let got = fit_terms(&make(4000)).expect("enough positions");
        assert!((got.red_edge - truth[0]).abs() < 0.01, "{got:?}");
        assert_eq!(got.weights.len(), n - 1);
        for &(i, value, margin) in &got.weights {
            let expected = truth[i] / truth[horse] * 300.0;
            assert!(
                (f64::from(value) - expected).abs() <= 2.0,
                "{}: {value} against {expected}",
                eval::WEIGHTS[i].name
            );
            assert!(margin > 0, "{}: margin {margin}", eval::WEIGHTS[i].name);
        }
        let wider = fit_terms(&make(1000)).expect("enough positions");
        let sum = |f: &TermFit| f.weights.iter().map(|w| w.2).sum::<i32>();
        assert!(sum(&wider) > sum(&got), "{wider:?} against {got:?}");
        assert_eq!(fit_terms(&Samples::default()), None);
    }

    #[test]
    fn the_fit_finds_the_weights_that_made_the_scores() {
        // Red's expected score in each material balance, exactly as a known model says:
        // the maximum-likelihood fit must give that model back.
        let truth = [0.5, 0.25, 0.95, 2.3, 0.65, 1.4];
        let (red_edge, blue_edge) = (0.25, 0.3);
        let mut rng = Rng::new(7);
        let mut samples = Samples::default();
        for _ in 0..3000 {
            let mut diff = [0i8; KINDS];
            for d in diff.iter_mut() {
                *d = rng.below(5) as i8 - 2;
            }
            let side = Color::ALL[rng.index(2)];
            let edge = if side == Color::Red {
                red_edge
            } else {
                blue_edge
            };
            let z: f64 = edge
                + diff
                    .iter()
                    .zip(truth)
                    .map(|(&d, w)| f64::from(d) * w)
                    .sum::<f64>();
            let count = 1.0 + rng.below(4) as f64;
            let entry = samples.seen.entry((diff, side)).or_insert((0.0, 0.0));
            entry.0 += count / (1.0 + (-z).exp());
            entry.1 += count;
            samples.positions += count as u64;
        }
        let got = fit(&samples).expect("enough positions");
        for (g, t) in got.weights.iter().zip(truth) {
            assert!((g - t).abs() < 0.01, "{:?} against {truth:?}", got.weights);
        }
        assert!((got.red_to_move - red_edge).abs() < 0.01, "{got:?}");
        assert!((got.blue_to_move - blue_edge).abs() < 0.01, "{got:?}");
        // Scaled so that the horse is 300: the car is 2.3 / 0.95 horses.
        let values = got.values().unwrap();
        assert_eq!(values[PieceKind::Horse.index() - 1], 300);
        assert!(
            (values[PieceKind::Car.index() - 1] - 726).abs() <= 2,
            "{values:?}"
        );
        assert_eq!(fit(&Samples::default()), None);
    }

    /// A random legal game of `plies` moves from the start, in UCI notation.
    fn random_game(seed: u64, plies: usize) -> Vec<String> {
        let mut rng = Rng::new(seed);
        let mut board = Board::start();
        let mut names = Vec::new();
        for _ in 0..plies {
            let moves = rules::legal_moves(&board);
            let Some(m) = rng.pick(&moves) else { break };
            board.make_move(m.from, m.to);
            names.push(crate::play::notation::move_name(m));
            if board.is_over() {
                break;
            }
        }
        names
    }

    /// The result line of a game of `moves` moves that blue forfeited on time.
    fn forfeit(moves: usize) -> String {
        format!("game 1/1: opening 1, engine blue: opponent wins (blue lost on time) after {moves} moves; score 0.0/1")
    }

    /// A random game that ended with a captain captured, and the colour that won.
    fn finished_game() -> (Vec<String>, Color) {
        for seed in 0..1000 {
            let game = random_game(seed, 300);
            let mut board = Board::start();
            for name in &game {
                let m = parse_move(name).unwrap();
                board.make_move(m.from, m.to);
            }
            if let Some(w) = board.winner() {
                return (game, w);
            }
        }
        panic!("no random game ended");
    }

    #[test]
    fn a_record_is_replayed_and_its_quiet_positions_kept() {
        let game = random_game(3, 60);
        let record = format!(
            "{}\nmoves {}\n\n{}\nmoves\n",
            forfeit(game.len()),
            game.join(" "),
            forfeit(0)
        );
        let mut samples = Samples::default();
        read_record(record.as_bytes(), &mut samples, 16).unwrap();
        assert_eq!((samples.games, samples.draws), (2, 0));
        // Count the positions again, by hand: from ply 16 on, no capture either side.
        let mut board = Board::start();
        let mut captured = Vec::new();
        for name in &game {
            let m = parse_move(name).unwrap();
            captured.push(board.make_move(m.from, m.to).is_some());
        }
        let quiet = (16..game.len())
            .filter(|&i| !captured[i] && !captured[i - 1])
            .count();
        assert!(quiet > 0 && quiet < game.len() - 16, "{quiet}");
        assert_eq!(samples.positions, quiet as u64);
        // Every position kept is one red won (blue lost on time).
        assert!(samples.seen.values().all(|&(score, n)| score == n));
        let mut none = Samples::default();
        read_record(record.as_bytes(), &mut none, 1000).unwrap();
        assert_eq!((none.games, none.positions), (2, 0));
    }

    #[test]
    fn a_broken_record_says_which_line() {
        let game = random_game(5, 30);
        let mut illegal = game.clone();
        illegal[6] = illegal[5].clone(); // the same move again, by the other side
        let long = "x".repeat(MAX_LINE as usize + 5);
        const RESULT: &str =
            "game 1/1: opening 1, engine red: engine wins (blue lost on time) after 30 moves";
        let (done, winner) = finished_game();
        let moves = done.join(" ");
        let n = done.len();
        let says = |outcome: &str, reason: &str, count: usize| {
            format!("game 1/1: opening 1, engine red: {outcome} ({reason}) after {count} moves; score 0.5/1")
        };
        let (red_won, blue_won) = match winner {
            Color::Red => ("engine wins", "opponent wins"),
            Color::Blue => ("opponent wins", "engine wins"),
        };
        let (won, lost) = match winner {
            Color::Red => ("red won", "blue won"),
            Color::Blue => ("blue won", "red won"),
        };
        let cut = done[..n - 1].join(" ");
        let ending = "line 1: the game does not end as its result says: the result says";
        for (record, message) in [
            // Cut at a move boundary: one move short of the capture.
            (
                format!("{}\nmoves {cut}\n", says(red_won, CAPTURED, n)),
                format!("{ending} {n} moves, the moves are {}", n - 1),
            ),
            (
                format!("{}\nmoves {cut}\n", says(red_won, CAPTURED, n - 1)),
                format!("{ending} \"captain captured\", but the game goes on"),
            ),
            (
                format!("{}\nmoves {moves}\n", says(blue_won, CAPTURED, n)),
                format!("{ending} {lost}, but the board says {won}"),
            ),
            (
                format!("{}\nmoves {moves}\n", says(red_won, "red lost on time", n)),
                format!(
                    "{ending} \"red lost on time\", but the game ended by \"captain captured\""
                ),
            ),
            (
                format!("{}\nmoves {cut}\n", says("draw", "300-move limit", n - 1)),
                format!("{ending} \"300-move limit\", but the game goes on"),
            ),
            (
                format!("{}\nmoves {cut}\n", says("draw", "agreed", n - 1)),
                format!("{ending} a draw by \"agreed\", which no game ends in"),
            ),
            (
                "hello\n".to_string(),
                "line 1: expected a result line".to_string(),
            ),
            (
                format!("{RESULT}\n{RESULT}\n"),
                "line 2: expected the game's moves".to_string(),
            ),
            (
                format!("{RESULT}\n"),
                "line 2: expected the game's moves".to_string(),
            ),
            (
                "game 1/1: over\nmoves\n".to_string(),
                "line 1: expected 'engine red|blue".to_string(),
            ),
            (
                format!("\n{RESULT}\nmoves {}\n", illegal.join(" ")),
                "line 3: move 7 ".to_string(),
            ),
            (
                format!("{RESULT}\nmoves a1\n"),
                "line 2: move 1 \"a1\" is not legal".to_string(),
            ),
            (
                format!("{RESULT}\nmovesx\n"),
                "line 2: expected the game's moves".to_string(),
            ),
            (
                format!("{RESULT}\nmoves {long}\n"),
                "line 2: longer than 65536 bytes".to_string(),
            ),
        ] {
            let mut samples = Samples::default();
            let got = read_record(record.as_bytes(), &mut samples, 0).unwrap_err();
            assert!(
                got.to_string().starts_with(&message),
                "{got} for {record:.80}"
            );
            // A game with a bad move adds nothing.
            assert_eq!((samples.games, samples.positions), (0, 0), "{record:.80}");
        }
    }
}
