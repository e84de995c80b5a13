//! `duckchess play`: its command line.

use crate::cli::{self, Opt, Spec};
use crate::engine::search::MAX_THREADS;
use crate::judge::board::Board;
use crate::play::arena::limits_option;
use crate::play::level::{Level, Strength};
use crate::play::terminal::*;
use crate::show::render::Style;
use std::io::{self, IsTerminal};

/// The command line of `play`.
pub const SPEC: Spec = Spec {
    name: "play",
    summary: "play at the terminal, against a person or the computer",
    usage: &["[--red human|ai] [--blue human|ai] [--level N] [--seed S] [--think MS | --depth D] [--threads N] [--from POSITION] [--ascii]"],
    about: "\
Commands at the prompt:
  xs ys xt yt   move the piece on (xs, ys) to (xt, yt), as the judge reads it;
                b1c3 (UCI), (0, 1) -> (2, 2) (trace), 0122, [0,1,2,2] and a
                move after its piece (red horse 0 1 2 2) read too
  X Y           select the piece on (X, Y), or on b1, and mark its legal targets
  moves X Y     the same
  history       the moves so far, each with the judge's output line
  undo          take back the last move (against the computer, its reply too),
                or a resignation
  new           start again from the first position (the --from or loaded one)
  resign        the side to move gives up
  save FILE     save the game; load FILE loads a saved game or a judge input
  board, help, quit

The computer plays at --level 1 (a beginner who blunders pieces) to 8 (the full
engine); 3 (casual) by default, as in the browser. Levels 1-7 search a fixed number of nodes and make mistakes
on purpose, more and larger ones the lower the level; their random choices come
from --seed (shown at the start), so the same seed and the same moves replay the
same game. --think, --depth and --threads apply to level 8, which they choose when
--level is not given.

The board names the rows and columns as the judge numbers them (on the left and
at the top) and as UCI does (the ranks 1-10 on the right, the files a-i at the
bottom).

An invalid move is refused with the judge's reason and the same side moves again.
When the input is not a terminal, each command is repeated after its prompt. With
both sides ai the computer plays a whole game (a draw after 300 plies,
moves of both sides counted). The end of
the input ends the session.

Saved games: line 1 the start position, line 2 the number of moves Q, then Q
lines 'xs ys xt yt'. From the start position, 'tail -n +2 FILE | duckchess'
replays it.",
    options: &[
        Opt::valued("--red", "WHO", "who plays red: human (default) or ai"),
        Opt::valued("--blue", "WHO", "who plays blue: human (default) or ai"),
        Opt::valued(
            "--level",
            "N",
            "the computer's strength, 1 (beginner) to 8 (full strength); default 3, as in the browser",
        ),
        Opt::valued(
            "--seed",
            "S",
            "the seed of a weakened computer's choices (default: from the\n\
             clock, and shown)",
        ),
        Opt::valued(
            "--think",
            "MS",
            "the computer's thinking time per move (default 1000 ms; --movetime is the same)",
        ),
        Opt::valued(
            "--depth",
            "D",
            "the computer searches D plies instead (no clock)",
        ),
        Opt::valued(
            "--threads",
            "N",
            "the computer searches on N threads, 1 to 256 (default 1)",
        ),
        Opt::valued(
            "--from",
            "POSITION",
            "start from POSITION (notation) instead of the start position",
        ),
        Opt::flag("--ascii", "letters instead of Chinese names on a terminal"),
    ],
    conflicts: &[("--think", "--depth")],
    exit: "0 success (also: end of input), 1 I/O error, 2 usage error",
};

/// The `play` subcommand.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        let who = |name: &str| match parsed.value(name) {
            None | Some("human") => Ok(Controller::Human),
            Some("ai") => Ok(Controller::Ai),
            Some(other) => Err(format!("{name}: expected human or ai, found {other:?}")),
        };
        let players = [who("--red")?, who("--blue")?];
        let limits = limits_option(parsed, 1000)?;
        let threads = parsed.int("--threads", 1, MAX_THREADS as u64)?.unwrap_or(1) as usize;
        let level = match parsed.value("--level") {
            // A thinking time, a depth or threads are for the full engine.
            None if ["--think", "--depth", "--threads"]
                .iter()
                .any(|o| parsed.flag(o)) =>
            {
                Level::FULL
            }
            None => Level::DEFAULT,
            Some(_) if !players.contains(&Controller::Ai) => {
                return Err(
                    "--level N sets the computer's strength: give it a side too \
                            (--red ai or --blue ai)"
                        .to_string(),
                )
            }
            Some(text) => text.parse().map_err(|e| format!("--level: {e}"))?,
        };
        let seed = match parsed.int("--seed", 0, u64::MAX)? {
            Some(s) => s,
            None => crate::sys::rng::clock_seed() % 1_000_000,
        };
        let start = match parsed.value("--from") {
            None => Board::start(),
            Some(text) => text.parse().map_err(|e| format!("--from: {e}"))?,
        };
        let options = Options {
            players,
            limits,
            strength: Strength { level, seed },
            threads,
            start,
            // The judge's numbers and UCI's files and ranks on the edges: `play`
            // takes moves in both.
            style: Style {
                uci_edges: true,
                ..Style::for_stdout(parsed.flag("--ascii"))
            },
            echo: !io::stdin().is_terminal(),
        };
        let stdin = io::stdin();
        let stdout = io::stdout();
        Ok(cli::output_status(
            "play",
            run(options, stdin.lock(), io::BufWriter::new(stdout.lock())),
        ))
    })
}
