//! The counts a solution may keep, and how far an input takes each: commands, the
//! input's and the answer's bytes, legal moves, invalid commands and their longest run,
//! moves without a capture in a row, checks in a row, distinct positions, pieces taken.
//! A solution that sized an array, a buffer or a counter for what inputs usually reach
//! fails only past it; so each count has a cell for each value just past a size a
//! solution might pick (a power of two, a round number, a byte's largest) below its
//! most, and a cell for its most: the largest value a valid input (`Q <= 1000`) can give
//! it, proved in the tests below.

use crate::generate::case::Cmd;
use crate::generate::extremes::{key, FIRST_CHECK};
use crate::judge::game::Game;
use crate::judge::run::line_bytes;
use std::collections::HashSet;
use std::fmt;

/// The official limit on commands.
const Q: u32 = 1000;

/// The sizes a solution might pick: powers of two, round numbers, the largest of a
/// signed and an unsigned byte. A count's cells are the values just past each below its
/// most.
pub const SIZES: [u32; 23] = [
    8, 10, 16, 32, 50, 64, 100, 127, 128, 255, 256, 500, 512, 1000, 1024, 2048, 4096, 5000, 8000,
    8192, 10000, 16384, 20000,
];

/// The longest answer we know a valid input to have ([`crate::generate::extremes::longest_answer`]'s).
pub const LONGEST_ANSWER: u32 = 23_587;

/// No valid input's answer is longer (the proof is a test below): 500 lines of red's
/// longest non-capturing move with check (`red elephant;NA;yes;no`, 23 bytes) and 500
/// of blue's (24); no check on the first [`FIRST_CHECK`] - 1; each of the 30 pieces but
/// the captains taken once, its name in place of `NA`, an elephant by a piece with a
/// shorter name than the other side's elephant (elephants of the two sides never meet);
/// and one captain taken.
pub const ANSWER_BOUND: u32 = 23_748;

/// A count a solution may keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quantity {
    /// Commands in the input (and lines in the answer).
    Commands,
    /// Bytes of the input, in the official format.
    InputBytes,
    /// Bytes of the answer.
    AnswerBytes,
    /// Legal moves in the game.
    Moves,
    /// Invalid commands in the input.
    Invalid,
    /// Invalid commands in a row.
    InvalidRun,
    /// Legal moves in a row that take nothing (invalid commands between neither count
    /// nor break the run).
    QuietRun,
    /// Answer lines in a row that say check.
    CheckRun,
    /// Distinct positions of the game, the start among them.
    Positions,
    /// Pieces taken in the game, a captain among them.
    Taken,
}

impl Quantity {
    /// Every count, in report order.
    pub const ALL: [Quantity; 10] = [
        Quantity::Commands,
        Quantity::InputBytes,
        Quantity::AnswerBytes,
        Quantity::Moves,
        Quantity::Invalid,
        Quantity::InvalidRun,
        Quantity::QuietRun,
        Quantity::CheckRun,
        Quantity::Positions,
        Quantity::Taken,
    ];

    /// The largest value a valid input gives it (for the answer's bytes, the largest we
    /// know: at most [`ANSWER_BOUND`]).
    pub const fn most(self) -> u32 {
        match self {
            // `1000\n`, then 1000 lines of four one-digit numbers: `x y x y\n`.
            Quantity::InputBytes => 5 + 8 * Q,
            Quantity::AnswerBytes => LONGEST_ANSWER,
            // From the first command that can say check to the last.
            Quantity::CheckRun => Q + 1 - FIRST_CHECK as u32,
            Quantity::Positions => Q + 1,
            // The 30 pieces but the captains, then a captain, which ends the game.
            Quantity::Taken => 31,
            _ => Q,
        }
    }

    /// The values of its cells: just past each of [`SIZES`] below its most, and its most.
    pub fn ladder(self) -> Vec<u32> {
        let most = self.most();
        let mut out: Vec<u32> = SIZES.iter().map(|s| s + 1).filter(|&v| v < most).collect();
        out.push(most);
        out
    }

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Quantity::Commands => "commands",
            Quantity::InputBytes => "input bytes",
            Quantity::AnswerBytes => "answer bytes",
            Quantity::Moves => "legal moves",
            Quantity::Invalid => "invalid commands",
            Quantity::InvalidRun => "invalid in a row",
            Quantity::QuietRun => "moves without a capture in a row",
            Quantity::CheckRun => "checks in a row",
            Quantity::Positions => "distinct positions",
            Quantity::Taken => "pieces taken",
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How far one input takes each count, in the order of [`Quantity::ALL`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts(pub [u32; 10]);

impl Counts {
    /// The value of `q`.
    pub fn get(&self, q: Quantity) -> u32 {
        self.0[q as usize]
    }

    fn raise(&mut self, q: Quantity, value: u32) {
        let at = &mut self.0[q as usize];
        *at = (*at).max(value);
    }

    /// Each count the larger of the two.
    pub fn max(self, other: Counts) -> Counts {
        let mut out = self;
        for q in Quantity::ALL {
            out.raise(q, other.get(q));
        }
        out
    }

    /// The values of each count's ladder these counts reach.
    pub fn reached(&self) -> Vec<(Quantity, u32)> {
        let mut out = Vec::new();
        for q in Quantity::ALL {
            for v in q.ladder() {
                if self.get(q) >= v {
                    out.push((q, v));
                }
            }
        }
        out
    }
}

/// The bytes of `n` written in decimal.
fn digits(n: i64) -> u32 {
    let sign = u32::from(n < 0);
    sign + n.unsigned_abs().checked_ilog10().unwrap_or(0) + 1
}

/// How far the input of `cmds`, played from the start, takes each count.
pub fn measure(cmds: &[Cmd]) -> Counts {
    let mut counts = Counts::default();
    let q = cmds.len() as u32;
    counts.raise(Quantity::Commands, q);
    let mut input = digits(cmds.len() as i64) + 1;
    let mut game = Game::new();
    let mut seen = HashSet::from([key(game.board())]);
    let (mut answer, mut moves, mut invalid, mut taken) = (0, 0, 0, 0);
    let (mut invalid_run, mut quiet_run, mut check_run) = (0, 0, 0);
    for c in cmds {
        input += c.iter().map(|&n| digits(n)).sum::<u32>() + 4;
        let verdict = game.play(c[0], c[1], c[2], c[3]);
        answer += line_bytes(&verdict) as u32;
        match verdict {
            Err(_) => {
                invalid += 1;
                invalid_run += 1;
                check_run = 0;
            }
            Ok(m) => {
                moves += 1;
                invalid_run = 0;
                seen.insert(key(game.board()));
                if m.captured.is_some() {
                    taken += 1;
                    quiet_run = 0;
                } else {
                    quiet_run += 1;
                }
                check_run = if m.check { check_run + 1 } else { 0 };
            }
        }
        counts.raise(Quantity::InvalidRun, invalid_run);
        counts.raise(Quantity::QuietRun, quiet_run);
        counts.raise(Quantity::CheckRun, check_run);
    }
    counts.raise(Quantity::InputBytes, input);
    counts.raise(Quantity::AnswerBytes, answer);
    counts.raise(Quantity::Moves, moves);
    counts.raise(Quantity::Invalid, invalid);
    counts.raise(Quantity::Positions, seen.len() as u32);
    counts.raise(Quantity::Taken, taken);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::case::cmd_of;
    use crate::generate::extremes::{every_piece_taken, invalid_run, longest_answer, quiet_game};
    use crate::judge::piece::{Color, PieceKind};
    use crate::judge::rules;
    use crate::model::statement::geometry::stands;

    #[test]
    fn a_short_input_is_measured_command_by_command() {
        // The statement's sample, as the samples folder holds it.
        let numbers: Vec<i64> = include_str!("../../../samples/statement.in")
            .split_ascii_whitespace()
            .skip(1)
            .map(|w| w.parse().expect("a number"))
            .collect();
        let cmds: Vec<Cmd> = numbers
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect();
        let counts = measure(&cmds);
        let answer = include_str!("../../../samples/statement.out");
        assert_eq!(counts.get(Quantity::AnswerBytes) as usize, answer.len());
        // The strict form of the input: `18\n` and 18 lines of eight bytes.
        assert_eq!(counts.get(Quantity::InputBytes), 3 + 18 * 8);
        assert_eq!(counts.get(Quantity::Moves), 9);
        assert_eq!(counts.get(Quantity::Invalid), 9);
        assert_eq!(counts.get(Quantity::InvalidRun), 4);
        assert_eq!(counts.get(Quantity::CheckRun), 1);
        assert_eq!(counts.get(Quantity::Taken), 2);
        assert_eq!(counts.get(Quantity::QuietRun), 6);
        assert_eq!(counts.get(Quantity::Positions), 10);
        assert_eq!(digits(-1), 2);
        assert_eq!(digits(0), 1);
        assert_eq!(digits(1000), 4);
    }

    /// No game has check before command [`FIRST_CHECK`]: every game of fewer legal
    /// moves, played out (invalid commands only put check later).
    #[test]
    fn no_check_comes_before_the_first_check() {
        let mut layer = vec![Game::new()];
        let mut seen = HashSet::new();
        for _ in 1..FIRST_CHECK {
            let mut next = Vec::new();
            for game in &layer {
                for m in rules::legal_moves(game.board()) {
                    let mut g = game.clone();
                    let c = cmd_of(m.from, m.to);
                    let moved = g.play(c[0], c[1], c[2], c[3]).expect("legal");
                    assert!(!moved.check && !moved.game_over);
                    if seen.insert(key(g.board())) {
                        next.push(g);
                    }
                }
            }
            layer = next;
        }
        assert!(layer.len() > 1000);
    }

    /// The answer's bound: the argument of [`ANSWER_BOUND`], counted.
    #[test]
    fn no_answer_is_longer_than_the_bound() {
        let line = |side: Color, kind: PieceKind, taken: &str, yes: bool| {
            let mover = side.name().len() + 1 + kind.name().len();
            mover + 1 + taken.len() + 1 + if yes { 6 } else { 5 } + 1
        };
        // The longest line of each side that takes nothing: an elephant's, with check;
        // an invalid command's is shorter than any.
        let longest = |side: Color| {
            PieceKind::ALL
                .into_iter()
                .map(|k| line(side, k, "NA", true))
                .max()
                .expect("kinds")
        };
        assert_eq!((longest(Color::Red), longest(Color::Blue)), (23, 24));
        assert!("Invalid command\n".len() < line(Color::Red, PieceKind::Car, "NA", false));
        // Red moves first and the sides alternate: of the legal lines, blue has at most
        // as many as red, so 500 and 500 is the most.
        let mut bound = 500 * 23 + 500 * 24;
        // No line before the first check says check (or that the game is over).
        bound -= FIRST_CHECK - 1;
        // Each piece taken once, its name for `NA`.
        for side in Color::ALL {
            for (kind, n) in [
                (PieceKind::Guard, 2),
                (PieceKind::Elephant, 2),
                (PieceKind::Horse, 2),
                (PieceKind::Car, 2),
                (PieceKind::Duck, 2),
                (PieceKind::Soldier, 5),
            ] {
                let name = side.name().len() + 1 + kind.name().len();
                bound += n * (name - 2);
            }
        }
        // An elephant is taken by no elephant: one byte shorter a mover at least.
        assert_eq!(
            stands(Color::Red, PieceKind::Elephant) & stands(Color::Blue, PieceKind::Elephant),
            0
        );
        let shorter = |side: Color| {
            PieceKind::ALL
                .into_iter()
                .filter(|&k| k != PieceKind::Elephant)
                .map(|k| k.name().len())
                .max()
                .map(|n| side.name().len() + 1 + n)
        };
        assert_eq!(shorter(Color::Red), Some("red elephant".len() - 1));
        bound -= 4;
        // One captain taken: the longer name.
        bound += "blue captain".len() - 2;
        assert_eq!(bound as u32, ANSWER_BOUND);
        const { assert!(LONGEST_ANSWER <= ANSWER_BOUND) };
    }

    /// Each count's most is reached: the inputs of [`crate::generate::extremes`] take
    /// them there.
    #[test]
    fn the_extreme_inputs_reach_each_most() {
        let run = measure(&invalid_run());
        for q in [
            Quantity::Commands,
            Quantity::InputBytes,
            Quantity::Invalid,
            Quantity::InvalidRun,
        ] {
            assert_eq!(run.get(q), q.most(), "{q}");
        }
        let quiet = measure(&quiet_game());
        for q in [
            Quantity::Moves,
            Quantity::QuietRun,
            Quantity::CheckRun,
            Quantity::Positions,
        ] {
            assert_eq!(quiet.get(q), q.most(), "{q}");
        }
        let longest = measure(&longest_answer());
        assert_eq!(longest.get(Quantity::AnswerBytes), LONGEST_ANSWER);
        let taken = measure(&every_piece_taken());
        assert_eq!(taken.get(Quantity::Taken), Quantity::Taken.most());
        // None passes its most: the counts no input takes further.
        for counts in [run, quiet, longest, taken] {
            for q in Quantity::ALL {
                if q != Quantity::AnswerBytes {
                    assert!(counts.get(q) <= q.most(), "{q}");
                }
            }
        }
    }

    #[test]
    fn each_ladder_ends_at_its_most() {
        assert_eq!(
            Quantity::Commands.ladder(),
            [9, 11, 17, 33, 51, 65, 101, 128, 129, 256, 257, 501, 513, 1000]
        );
        assert_eq!(Quantity::Taken.ladder(), [9, 11, 17, 31]);
        assert_eq!(Quantity::CheckRun.most(), 997);
        for q in Quantity::ALL {
            let l = q.ladder();
            assert!(l.windows(2).all(|w| w[0] < w[1]), "{q}");
        }
    }
}
