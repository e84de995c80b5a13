//! `duckchess arena`: its command line, and the tournament table written as the games end.

use crate::cli::{self, Opt, Spec};
use crate::judge::piece::Color;
use crate::play::arena::*;
use crate::play::level::LEVELS;
use std::io::{self, Write};

/// The command line of `arena`.
pub const SPEC: Spec = Spec {
    name: "arena",
    summary: "play games between computer players and keep the score",
    usage: &["--red KIND --blue KIND [--games N] [--think MS | --depth D] [--seed S] [--opening PLIES] [--quiet]"],
    about: "\
KIND is ai (the alpha-beta search), random (uniform legal moves), greedy (the most
valuable capture, else a random move) or level1 to level8 (the search at a playing
strength: level1 a beginner who blunders pieces, level8 the same as ai; the levels
below 8 search a fixed number of nodes and make mistakes drawn from the game's
seed, so their games are the same on every machine). One line per game ('game 3: red (ai)
wins after 41 moves'), then 'red wins W, blue wins B, draws D'. A game that reaches
300 plies (moves of both sides counted, as in 'after 41 moves') without a captain
capture is a draw, and so is a
side left without a move.",
    options: &[
        Opt::valued(
            "--red",
            "KIND",
            "who plays red: ai, random, greedy or level1 to level8",
        ),
        Opt::valued(
            "--blue",
            "KIND",
            "who plays blue: ai, random, greedy or level1 to level8",
        ),
        Opt::valued(
            "--games",
            "N",
            "games to play from the start position (default 10)",
        ),
        Opt::valued(
            "--think",
            "MS",
            "ai (and level8) thinking time per move in milliseconds\n\
             (default 100; --movetime is the same)",
        ),
        Opt::valued(
            "--depth",
            "D",
            "ai searches D plies instead (no clock: the same games on every machine)",
        ),
        Opt::valued(
            "--seed",
            "S",
            "seed of the random choices (default 1); game i uses a seed derived from S and i",
        ),
        Opt::valued(
            "--opening",
            "PLIES",
            "each game opens with PLIES random quiet moves drawn from its seed (default 2; 0 starts every game from the start position)",
        ),
        Opt::flag("--quiet", "only the final line"),
    ],
    conflicts: &[("--think", "--depth")],
    exit: "0 success, 1 I/O error, 2 usage error",
};

/// The `arena` subcommand. Returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        let kind = |name: &str| -> Result<Kind, String> {
            match parsed.value(name) {
                None => Err(format!(
                    "missing {name} KIND (ai, random, greedy or level1 to level{LEVELS})"
                )),
                Some(v) => v.parse().map_err(|e: UnknownKind| format!("{name}: {e}")),
            }
        };
        let red = kind("--red")?;
        let blue = kind("--blue")?;
        let games = parsed.int("--games", 0, 1_000_000_000)?.unwrap_or(10);
        let limits = limits_option(parsed, 100)?;
        let seed = parsed.int("--seed", 0, u64::MAX)?.unwrap_or(1);
        let opening = parsed
            .int("--opening", 0, u64::from(MAX_MOVES))?
            .unwrap_or(2) as u32;
        let setup = ArenaSetup {
            players: [red, blue],
            limits,
            seed,
            opening,
        };
        Ok(tournament(&setup, games, parsed.flag("--quiet")))
    })
}

/// Plays the games and writes a line for each (unless `quiet`) and the score.
fn tournament(setup: &ArenaSetup, games: u64, quiet: bool) -> u8 {
    let [red, blue] = setup.players;
    let mut wins = [0u64; 2];
    let mut draws = 0u64;
    let mut out = io::stdout().lock();
    for index in 1..=games {
        let outcome = match play_indexed(setup, index) {
            Ok(o) => o,
            Err(e) => return cli::fail("arena", &format!("game {index}: {e}")),
        };
        let moves = cli::plural(outcome.moves as u64, "move");
        let line = match (outcome.winner, outcome.end) {
            (Some(w), _) => {
                wins[w.index()] += 1;
                let kind = if w == Color::Red { red } else { blue };
                format!("game {index}: {w} ({kind}) wins after {moves}")
            }
            (None, End::Stuck) => {
                draws += 1;
                format!("game {index}: draw, the side to move is stuck after {moves}")
            }
            (None, _) => {
                draws += 1;
                format!("game {index}: draw after {moves}")
            }
        };
        if !quiet {
            if let Err(status) = write_line(&mut out, &line) {
                return status;
            }
        }
    }
    let last = format!("red wins {}, blue wins {}, draws {draws}", wins[0], wins[1]);
    match write_line(&mut out, &last) {
        Ok(()) => cli::EXIT_OK,
        Err(status) => status,
    }
}

/// Writes one line and flushes it (games are slow: show each as it ends). On failure,
/// the exit status to end with: quietly 0 when standard output was closed.
fn write_line(out: &mut impl Write, line: &str) -> Result<(), u8> {
    writeln!(out, "{line}")
        .and_then(|_| out.flush())
        .map_err(|e| cli::output_status("arena", Err(e)))
}
