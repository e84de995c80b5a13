//! `duckchess selfplay`: its command line, and the games played and written out.

use crate::cli::{self, Opt, Spec};
use crate::engine::nnue;
use crate::engine::search::Engine;
use crate::lab::selfplay::*;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

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
seed); a forced result found by the search ends the game. Games are written
whole as they end, so an interrupted run keeps the games it finished; with
more than one job they may end out of order. At the end, a line on standard
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
        Opt::valued("--jobs", "J", "games played at once (default 1)"),
    ],
    conflicts: &[],
    exit: "0 success (also when standard output was closed early), 1 I/O error, 2 usage\nerror",
};

/// The `selfplay` subcommand. Returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        let games = parsed.int("--games", 1, 100_000_000)?.unwrap_or(100);
        let setup = Setup {
            nodes: parsed.int("--nodes", 1, 100_000_000)?.unwrap_or(6000),
            opening: parsed.int("--opening", 0, 100)?.unwrap_or(10) as u32,
            seed: parsed.int("--seed", 0, u64::MAX)?.unwrap_or(1),
        };
        let jobs = parsed.int("--jobs", 1, 64)?.unwrap_or(1);
        match parsed.value("--eval").unwrap_or("net") {
            "classic" => nnue::enable(false),
            "net" => nnue::enable(true),
            path => {
                if let Err(e) = nnue::use_file(path) {
                    return Ok(cli::fail("selfplay", &format!("--eval: {e}")));
                }
                nnue::enable(true);
            }
        }
        Ok(run(&setup, games, jobs))
    })
}

/// Plays `games` games on `jobs` threads, writing each as it ends.
fn run(setup: &Setup, games: u64, jobs: u64) -> u8 {
    let next = AtomicU64::new(1);
    let written = Mutex::new((0u64, 0u64));
    let failed: Mutex<Option<io::Error>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                let mut engine = Engine::new();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index > games || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let samples = play(setup, index, &mut engine);
                    let mut text = String::new();
                    for s in &samples {
                        text.push_str(&s.line());
                        text.push('\n');
                    }
                    let mut count = written.lock().unwrap_or_else(|e| e.into_inner());
                    let mut out = io::stdout().lock();
                    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                        Ok(()) => {
                            count.0 += 1;
                            count.1 += samples.len() as u64;
                        }
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                            break;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return cli::output_status("selfplay", Err(e));
    }
    let (g, p) = written.into_inner().unwrap_or_else(|e| e.into_inner());
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
