//! `duckchess selfplay`: its command line, and the games played and written out.

use crate::cli::{self, Opt, Spec};
use crate::engine::nnue::{self, Evaluation};
use crate::engine::search::Engine;
use crate::lab::selfplay::*;
use crate::sys::ordered;
use std::io::{self, Write};

/// The command line of `selfplay`.
pub const SPEC: Spec = Spec {
    name: "selfplay",
    summary: "write positions of the engine's games against itself",
    usage: &["[--games N] [--nodes N] [--opening PLIES] [--seed S] [--eval EVAL] [--jobs J]"],
    about: "\
Writes one line per quiet position of each game on standard output:
'NOTATION;SCORE;RESULT', the position in the notation of 'perft --from', the
engine's score of it in centipawns for red (its search of the move played
there), and red's result in the game (1, 0.5 or 0). 'duckchess train' reads
these lines. A position is quiet when neither captain is attacked and the move
chosen is not a capture. Each game opens with PLIES random quiet moves drawn
from its seed (a start the engine scores beyond 300 either way is skipped),
then both sides search N nodes a move (up to a quarter more, drawn from the
seed); a forced result found by the search ends the game. Games are played
side by side, J at a time, and written whole in their order as they end, so
the output is the same for any J and an interrupted run keeps the games it
wrote. At the end, a line on standard
error says how many games and positions were written.",
    options: &[
        Opt::valued("--games", "N", "games to play (default 100)"),
        Opt::valued("--nodes", "N", "nodes a move (default 6000)"),
        Opt::valued(
            "--opening",
            "PLIES",
            "random quiet moves before the engine plays (default 10)",
        ),
        Opt::valued("--seed", "S", "seed of the run (default 1)"),
        Opt::valued(
            "--eval",
            "EVAL",
            "the evaluation both sides search with: net (the built-in network, the default), classic (the hand-written one) or the path of a network file",
        ),
        Opt::valued(
            "--jobs",
            "J",
            "games played side by side, one a thread (default: the number of cores)",
        ),
    ],
    conflicts: &[],
    exit: "0 success (also when standard output was closed early), 1 I/O error, 2 usage\nerror",
};

/// The `selfplay` subcommand. Returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        let games = parsed.int("--games", 1, 100_000_000)?.unwrap_or(100);
        let nodes = parsed.int("--nodes", 1, 100_000_000)?.unwrap_or(6000);
        let opening = parsed.int("--opening", 0, 100)?.unwrap_or(10) as u32;
        let seed = parsed.int("--seed", 0, u64::MAX)?.unwrap_or(1);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let jobs = parsed.int("--jobs", 1, 64)?.map_or(cores, |j| j as usize);
        let evaluation = match parsed.value("--eval").unwrap_or("net") {
            "classic" => Evaluation {
                classic: true,
                file: None,
            },
            "net" => Evaluation::default(),
            path => match nnue::read_file(path) {
                Ok(file) => Evaluation {
                    classic: false,
                    file,
                },
                Err(e) => return Ok(cli::fail("selfplay", &format!("--eval: {e}"))),
            },
        };
        let setup = SelfplaySetup {
            nodes,
            opening,
            seed,
            evaluation,
        };
        Ok(run(&setup, games, jobs))
    })
}

/// Games a thread may play past the last one written: enough that a long game does not
/// leave the other threads idle, few enough that the games waiting take little memory
/// (at most 300 lines each).
const AHEAD_PER_JOB: usize = 4;

/// Plays `games` games on `jobs` threads and writes each whole, in the order of the
/// games, as soon as it and every game before it have ended.
fn run(setup: &SelfplaySetup, games: u64, jobs: usize) -> u8 {
    let mut out = io::stdout().lock();
    let (mut g, mut p) = (0u64, 0u64);
    let written = ordered::in_order(
        games,
        jobs,
        jobs * AHEAD_PER_JOB,
        Engine::new,
        |engine, i| play(setup, i + 1, engine),
        |_, samples| {
            let mut text = String::new();
            for s in &samples {
                text.push_str(&s.line());
                text.push('\n');
            }
            out.write_all(text.as_bytes()).and_then(|_| out.flush())?;
            g += 1;
            p += samples.len() as u64;
            Ok(())
        },
    );
    if let Err(e) = written {
        return cli::output_status("selfplay", Err(e));
    }
    cli::say(
        "selfplay",
        &format!(
            "{} written, {}",
            cli::plural(g, "game"),
            cli::plural(p, "position")
        ),
    );
    cli::EXIT_OK
}
