//! `duckchess match`: its command line.

use crate::cli::{self, Opt, Spec};
use crate::engine::search::MAX_THREADS;
use crate::play::matchrun::*;
use std::fs::OpenOptions;
use std::time::Duration;

/// The command line of `match`.
pub const SPEC: Spec = Spec {
    name: "match",
    summary: "play two UCI engines against each other from balanced openings",
    usage: &[
        "--opponent COMMAND [--engine COMMAND] [--movetime MS | --clock S+INC | --nodes N] [--opponent-movetime MS | --opponent-nodes N] [--threads N] [--opponent-threads N] [--openings N] [--plies P] [--seed S] [--jobs J] [--engine-options LIST] [--opponent-options LIST] [--record FILE] [--quiet]",
    ],
    about: "\
COMMAND is a program and its arguments separated by spaces; the engine under test
defaults to this program's own 'uci'. Both get 'setoption name UCI_Variant value
duckchess' when they offer that option, and LIST is 'Name=Value;Name=Value' for
more (--threads and --opponent-threads set the option Threads). Each opening (P random quiet moves that a depth-4 search scores within 40
centipawns) is played twice, each engine red once. The crate's rules judge every
move: an illegal move, a crash, no answer, or a flag that falls (on a clock, past
100 ms of grace) loses; 300 plies (moves of both sides
counted) or a side with no move is a draw.

Engines are not trusted: 'uciok' and each 'readyok' must come within 5 s, and a
'bestmove' within the time given (plus 1 s with --movetime), however much else
the engine prints; a line over 64 KiB is a protocol error. Each engine runs as
'test' runs a program: in a process group of its own, on Linux under a
supervisor (and in a control group where one can be made). When the match ends
it gets 'quit' and 0.5 s, then every process of it is killed, as on an
interrupt, so nothing an engine started outlives the match.

With --jobs J, J games are played side by side, each by engines of its own, and
their lines are written in the order of the games; give each game as many cores
as its engines search with. One line per game, then the score of the engine under test: wins, losses, draws,
the percentage with its 95% margin, and the Elo difference; and for both engines
the average depth, nodes per second and the longest overrun of the time given.",
    options: &[
        Opt::valued("--opponent", "COMMAND", "the other engine (required)"),
        Opt::valued(
            "--engine",
            "COMMAND",
            "the engine under test (default: this program's uci)",
        ),
        Opt::valued(
            "--movetime",
            "MS",
            "fixed time per move in milliseconds (default 100; --think is the same)",
        ),
        Opt::valued(
            "--opponent-movetime",
            "MS",
            "the opponent's time per move (default: --movetime), for time odds",
        ),
        Opt::valued(
            "--clock",
            "S+INC",
            "a clock instead: S seconds each plus INC seconds a move",
        ),
        Opt::valued(
            "--nodes",
            "N",
            "N nodes a move instead (go nodes; 10 s at most a move)",
        ),
        Opt::valued(
            "--opponent-nodes",
            "N",
            "the opponent's nodes a move (default: --nodes), for odds",
        ),
        Opt::valued(
            "--threads",
            "N",
            "the engine under test's Threads, 1 to 256 (default: not set, the engine's own)",
        ),
        Opt::valued(
            "--opponent-threads",
            "N",
            "the opponent's Threads, 1 to 256 (default: --threads)",
        ),
        Opt::valued("--openings", "N", "number of openings (default 10)"),
        Opt::valued("--plies", "P", "moves in each opening (default 4)"),
        Opt::valued("--seed", "S", "seed of the openings (default 1)"),
        Opt::valued(
            "--jobs",
            "J",
            "games played side by side, each with engines of its own (default 1); not the threads of a search",
        ),
        Opt::valued("--engine-options", "LIST", "UCI options of the engine"),
        Opt::valued("--opponent-options", "LIST", "UCI options of the opponent"),
        Opt::valued(
            "--record",
            "FILE",
            "append each game's line and its moves (UCI) to FILE",
        ),
        Opt::flag("--quiet", "only the summary"),
    ],
    conflicts: &[
        ("--movetime", "--clock"),
        ("--opponent-movetime", "--clock"),
        ("--nodes", "--clock"),
        ("--nodes", "--movetime"),
        ("--nodes", "--opponent-movetime"),
        ("--opponent-nodes", "--clock"),
        ("--opponent-nodes", "--movetime"),
        ("--opponent-nodes", "--opponent-movetime"),
    ],
    exit: "0 success, 1 I/O error or an engine that fails the handshake, 2 usage \
           error,\n             128+N ended by signal N (Ctrl-C: 130), after ending the engines",
};

/// Reads `Name=Value;Name=Value`.
fn option_list(text: Option<&str>) -> Result<Vec<(String, String)>, String> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    text.split(';')
        .filter(|s| !s.trim().is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().into(), v.trim().into())),
            _ => Err(format!("option {pair:?}: expected Name=Value")),
        })
        .collect()
}

/// Puts `Threads=N` first in an engine's `options` when `threads` is given; the same
/// option in the list too is an error that names the two `flags`.
fn with_threads(
    mut options: Vec<(String, String)>,
    threads: Option<u64>,
    flags: (&str, &str),
) -> Result<Vec<(String, String)>, String> {
    let Some(n) = threads else {
        return Ok(options);
    };
    if options
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("threads"))
    {
        return Err(format!(
            "{} and Threads in {}: give the thread count once",
            flags.0, flags.1
        ));
    }
    options.insert(0, ("Threads".to_string(), n.to_string()));
    Ok(options)
}

/// Reads `S+INC` (seconds, decimals allowed).
fn clock(text: &str) -> Result<Control, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let base = cli::args::seconds(base, 86_400.0).map_err(|e| format!("--clock: {e}"))?;
    let inc = match inc {
        "0" => Duration::ZERO,
        _ => cli::args::seconds(inc, 3_600.0).map_err(|e| format!("--clock: {e}"))?,
    };
    Ok(Control::Clock(base, inc))
}

/// The `match` subcommand. Returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        let opponent = parsed
            .value("--opponent")
            .ok_or("missing --opponent COMMAND")?
            .to_string();
        let engine = match parsed.value("--engine") {
            Some(c) => c.to_string(),
            None => {
                let me = std::env::current_exe().map_err(|e| format!("own path: {e}"))?;
                format!("{} uci", me.display())
            }
        };
        let nodes = parsed.int("--nodes", 1, 1_000_000_000)?;
        let control = match (parsed.value("--clock"), nodes) {
            (Some(c), _) => clock(c)?,
            (None, Some(n)) => {
                let theirs = parsed.int("--opponent-nodes", 1, 1_000_000_000)?;
                Control::Nodes(n, theirs.unwrap_or(n))
            }
            (None, None) if parsed.value("--opponent-nodes").is_some() => {
                return Err("--opponent-nodes needs --nodes".into());
            }
            (None, None) => {
                let ms = parsed.int("--movetime", 1, 3_600_000)?.unwrap_or(100);
                let odds = parsed.int("--opponent-movetime", 1, 3_600_000)?;
                Control::PerMove(
                    Duration::from_millis(ms),
                    Duration::from_millis(odds.unwrap_or(ms)),
                )
            }
        };
        let count = parsed.int("--openings", 1, 1000)?.unwrap_or(10) as usize;
        let plies = parsed.int("--plies", 0, 40)?.unwrap_or(4) as usize;
        let seed = parsed.int("--seed", 0, u64::MAX)?.unwrap_or(1);
        let threads = parsed.int("--threads", 1, MAX_THREADS as u64)?;
        let opponent_threads = parsed.int("--opponent-threads", 1, MAX_THREADS as u64)?;
        let jobs = parsed.int("--jobs", 1, 64)?.unwrap_or(1) as usize;
        let players = Players::new(
            [engine, opponent],
            [
                with_threads(
                    option_list(parsed.value("--engine-options"))?,
                    threads,
                    ("--threads", "--engine-options"),
                )?,
                with_threads(
                    option_list(parsed.value("--opponent-options"))?,
                    opponent_threads.or(threads),
                    ("--opponent-threads", "--opponent-options"),
                )?,
            ],
        );
        let record = match parsed.path("--record")? {
            Some(path) => Some(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("--record {path}: {e}"))?,
            ),
            None => None,
        };
        Ok(run_match(
            players,
            control,
            &openings(count, plies, seed),
            parsed.flag("--quiet"),
            record,
            jobs,
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn options_and_clocks_read() {
        assert_eq!(
            option_list(Some("Hash=16; VariantPath = /x.ini")).unwrap(),
            vec![
                ("Hash".to_string(), "16".to_string()),
                ("VariantPath".to_string(), "/x.ini".to_string())
            ]
        );
        assert!(option_list(Some("Hash")).is_err());
        assert_eq!(
            clock("10+0.1").unwrap(),
            Control::Clock(Duration::from_secs(10), Duration::from_millis(100))
        );
        assert!(clock("ten").is_err());
        let hash = vec![("Hash".to_string(), "16".to_string())];
        let flags = ("--threads", "--engine-options");
        assert_eq!(with_threads(hash.clone(), None, flags).unwrap(), hash);
        assert_eq!(
            with_threads(hash.clone(), Some(2), flags).unwrap(),
            [("Threads".to_string(), "2".to_string()), hash[0].clone()]
        );
        let twice = vec![("threads".to_string(), "4".to_string())];
        assert_eq!(
            with_threads(twice, Some(2), flags).unwrap_err(),
            "--threads and Threads in --engine-options: give the thread count once"
        );
    }
}
