//! `duckchess gen`: a seeded generator of judge inputs for tests and benchmarks. The same
//! arguments always give the same bytes, and every command stays inside the official
//! constraints (`0 <= x < 10`, `0 <= y < 9`); only `Q` may exceed 1000.
//!
//! The generator plays the game it writes through [`Game`], so it knows the position
//! each command meets. Not on the judge path.

use crate::cli::{self, Opt, Spec};
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{PieceKind, Square, COLS, ROWS};
use crate::judge::rules::{self, Move};
use crate::tools::audit::suite;
use crate::sys::rng::Rng;
use crate::generate::games::Writer;
use std::fmt;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::str::FromStr;

/// The one list of input generators, shared by `gen`, `stress` and `gen --suite`: `gen`'s
/// own modes, which write a game command by command with fixed odds, and `stress`'s,
/// which steer a game towards situations ([`crate::generate::games`]). Their help is
/// [`modes_help!`], beside this list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Short decisive games: a captain falls within some 10-40 plies, then a few
    /// commands after the end.
    Decisive,
    /// The captains walk towards each other; what stands between them steps aside.
    Captains,
    /// Checks by every kind of piece, blocked and discovered.
    Attacks,
    /// Every kind of invalid command, among legal moves.
    Invalid,
    /// Moves and attacks through a taken blocking square.
    Blocked,
    /// The contest's own mix: about 7% fully random commands; otherwise a random occupied
    /// square of either colour, moved by its piece's rule 20% of the time, else not.
    Official,
    /// 80-95% legal moves, preferring captures and checks, avoiding the captain capture
    /// so games run long.
    Legal,
    /// A game that ends by a captain capture, followed by more commands.
    Endgame,
    /// Prefers moves that make check, own captain walking into attack included.
    Check,
    /// A game that never ends, about half legal moves: for throughput.
    Big,
}

impl Mode {
    /// Every mode, in the order the help lists them (and `stress` draws them).
    pub const ALL: [Mode; 10] = [
        Mode::Decisive,
        Mode::Captains,
        Mode::Attacks,
        Mode::Invalid,
        Mode::Blocked,
        Mode::Official,
        Mode::Legal,
        Mode::Endgame,
        Mode::Check,
        Mode::Big,
    ];

    /// The mode's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Decisive => "decisive",
            Mode::Captains => "captains",
            Mode::Attacks => "attacks",
            Mode::Invalid => "invalid",
            Mode::Blocked => "blocked",
            Mode::Official => "official",
            Mode::Legal => "legal",
            Mode::Endgame => "endgame",
            Mode::Check => "check",
            Mode::Big => "big",
        }
    }

    /// Whether the mode steers its game by what each move does (`stress`'s own modes,
    /// written by [`Writer`]) rather than by fixed odds.
    pub fn steers(self) -> bool {
        matches!(
            self,
            Mode::Decisive | Mode::Captains | Mode::Attacks | Mode::Invalid | Mode::Blocked
        )
    }
}

/// The modes as the help of `gen` and `stress` lists them, in the order of [`Mode::ALL`]
/// (a test keeps the two in step).
macro_rules! modes_help {
    () => {
        "  decisive  short decisive games: a captain falls within some 10-40 plies, then
            a few commands after the end
  captains  the captains walk towards each other; what stands between them
            steps aside
  attacks   every kind of piece giving check; checks blocked and discovered
  invalid   every kind of invalid command, among legal moves
  blocked   moves and attacks through a taken blocking square
  official  the contest's mix: 7% random commands, otherwise a random piece of
            either side moved by its rule 20% of the time
  legal     80-95% legal moves with captures and checks, long games
  endgame   a game that ends by a captain capture, then more commands
  check     prefers moves that make check (own captain into attack too)
  big       a game that never ends, about half legal moves (throughput)
"
    };
}
pub(crate) use modes_help;

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
                format!("unknown mode {s:?}; expected {}", names.join(", "))
            })
    }
}

type Command = [u8; 4];

fn command_of(m: Move) -> Command {
    [m.from.x(), m.from.y(), m.to.x(), m.to.y()]
}

/// A square drawn uniformly from the board.
pub fn random_square(rng: &mut Rng) -> Square {
    let x = rng.below(ROWS as u64) as i64;
    let y = rng.below(COLS as u64) as i64;
    // Both are in range by construction.
    Square::new(x, y).unwrap_or_else(|| unreachable!())
}

/// The position after up to `max_plies - 1` random legal moves from the start (fewer
/// when a side has none left): a game in some random state, for tests and benchmarks.
pub fn random_position(rng: &mut Rng, max_plies: u64) -> Board {
    let mut board = Board::start();
    for _ in 0..rng.below(max_plies) {
        match rng.pick(&rules::legal_moves(&board)) {
            Some(m) => {
                board.make_move(m.from, m.to);
            }
            None => break,
        }
    }
    board
}

fn random_command(rng: &mut Rng) -> Command {
    let (a, b) = (random_square(rng), random_square(rng));
    [a.x(), a.y(), b.x(), b.y()]
}

/// The squares a piece on `from` may move to by its own rule (blocking squares
/// included, not onto its own side), whoever is to move and whether or not the game is
/// over: what a careless solution might accept.
pub fn rule_targets(board: &Board, from: Square) -> Vec<Square> {
    let piece = match board.piece_at(from) {
        Some(p) => p,
        None => return Vec::new(),
    };
    Square::all()
        .filter(|&to| {
            rules::check_path(board, piece.kind, from, to).is_ok()
                && board.piece_at(to).map(|p| p.color) != Some(piece.color)
        })
        .collect()
}

fn occupied(board: &Board) -> Vec<Square> {
    board.pieces().map(|(s, _)| s).collect()
}

fn captures_captain(board: &Board, m: Move) -> bool {
    board.piece_at(m.to).map(|p| p.kind) == Some(PieceKind::Captain)
}

fn gives_check(board: &Board, m: Move) -> bool {
    let mut after = board.clone();
    after.make_move(m.from, m.to);
    rules::is_check(&after)
}

/// One command of the contest's own mix.
fn official_command(rng: &mut Rng, board: &Board) -> Command {
    let squares = occupied(board);
    let from = match rng.pick(&squares) {
        Some(s) if !rng.chance(0.07) => s,
        _ => return random_command(rng),
    };
    let allowed = rule_targets(board, from);
    let to = if rng.chance(0.2) && !allowed.is_empty() {
        allowed[rng.index(allowed.len())]
    } else {
        let other: Vec<Square> = Square::all().filter(|s| !allowed.contains(s)).collect();
        // `from` itself is never an allowed target, so `other` is never empty.
        rng.pick(&other).unwrap_or(from)
    };
    [from.x(), from.y(), to.x(), to.y()]
}

/// A command the judge will answer `Invalid command`, of a varied kind: an empty source,
/// the opponent's piece, a move against the rule, or a fully random one.
fn invalid_command(rng: &mut Rng, game: &Game) -> Command {
    let board = game.board();
    for _ in 0..20 {
        let c = match rng.below(4) {
            0 => random_command(rng),
            1 => {
                let empties: Vec<Square> = Square::all().filter(|&s| board.is_empty(s)).collect();
                match rng.pick(&empties) {
                    Some(s) => {
                        let t = random_square(rng);
                        [s.x(), s.y(), t.x(), t.y()]
                    }
                    None => continue,
                }
            }
            _ => official_command(rng, board),
        };
        if game
            .validate(c[0] as i64, c[1] as i64, c[2] as i64, c[3] as i64)
            .is_err()
        {
            return c;
        }
    }
    // Moving a piece onto its own square is never legal.
    let s = random_square(rng);
    [s.x(), s.y(), s.x(), s.y()]
}

/// How a side picks its legal moves.
#[derive(Clone, Copy)]
struct Prefs {
    /// Take the captain whenever possible (otherwise only when nothing else is legal).
    finish: bool,
    /// Probability of picking a move that makes check, when there is one.
    check: f64,
    /// Probability of picking a capture, when there is one.
    capture: f64,
}

/// Picks a legal move by `prefs`, or `None` when only captain captures are legal and
/// `prefs.finish` is off.
fn chosen_move(rng: &mut Rng, board: &Board, prefs: Prefs) -> Option<Move> {
    let finish = prefs.finish;
    let moves = rules::legal_moves(board);
    let (kills, others): (Vec<Move>, Vec<Move>) =
        moves.iter().partition(|&&m| captures_captain(board, m));
    if finish && !kills.is_empty() {
        return rng.pick(&kills);
    }
    if others.is_empty() {
        return if finish { rng.pick(&kills) } else { None };
    }
    if rng.chance(prefs.check) {
        let checks: Vec<Move> = others
            .iter()
            .copied()
            .filter(|&m| gives_check(board, m))
            .collect();
        if let Some(m) = rng.pick(&checks) {
            return Some(m);
        }
    }
    if rng.chance(prefs.capture) {
        let captures: Vec<Move> = others
            .iter()
            .copied()
            .filter(|m| !board.is_empty(m.to))
            .collect();
        if let Some(m) = rng.pick(&captures) {
            return Some(m);
        }
    }
    rng.pick(&others)
}

/// Writes a judge input of `q` commands in `mode` from `seed` to `out`, command by
/// command (memory does not grow with `q`).
pub fn generate<W: Write>(seed: u64, q: u64, mode: Mode, out: &mut W) -> io::Result<()> {
    let mut rng = Rng::new(seed ^ 0x6475_636B_6368_6573); // "duckches": seeds 0 and 1 differ well
    writeln!(out, "{q}")?;
    if mode.steers() {
        return Writer::new(&mut rng, false).play_each(mode, q, |c| {
            writeln!(out, "{} {} {} {}", c[0], c[1], c[2], c[3])
        });
    }
    let mut game = Game::new();
    let legal_rate = match mode {
        Mode::Legal => 0.80 + 0.15 * (rng.below(1001) as f64 / 1000.0),
        Mode::Check => 0.85,
        Mode::Big => 0.5,
        _ => 0.9,
    };
    // Endgame: an ordinary opening, then both sides go for the captain.
    let hunt_from = q / 10 + rng.below(q / 2 + 1);
    for i in 0..q {
        let legal = match mode {
            Mode::Official => None,
            _ if game.board().is_over() || !rng.chance(legal_rate) => None,
            Mode::Legal => {
                let prefs = Prefs {
                    finish: false,
                    check: 0.15,
                    capture: 0.1,
                };
                chosen_move(&mut rng, game.board(), prefs)
            }
            Mode::Check => {
                let prefs = Prefs {
                    finish: rng.chance(0.003),
                    check: 0.75,
                    capture: 0.05,
                };
                chosen_move(&mut rng, game.board(), prefs)
            }
            Mode::Big => {
                let prefs = Prefs {
                    finish: false,
                    check: 0.0,
                    capture: 0.0,
                };
                chosen_move(&mut rng, game.board(), prefs)
            }
            // Endgame (the steering modes are written above).
            _ => {
                let hunting = i >= hunt_from;
                let prefs = Prefs {
                    finish: hunting,
                    check: if hunting { 0.8 } else { 0.1 },
                    capture: 0.1,
                };
                chosen_move(&mut rng, game.board(), prefs)
            }
        };
        let c = match (mode, legal) {
            (_, Some(m)) => command_of(m),
            (Mode::Official, None) => official_command(&mut rng, game.board()),
            // After the end every command is invalid; keep writing plausible moves.
            _ if game.board().is_over() => official_command(&mut rng, game.board()),
            _ => invalid_command(&mut rng, &game),
        };
        let _ = game.play(c[0] as i64, c[1] as i64, c[2] as i64, c[3] as i64);
        writeln!(out, "{} {} {} {}", c[0], c[1], c[2], c[3])?;
    }
    Ok(())
}

/// The largest `--q`: a billion commands (8 GB of input) is far past any benchmark.
pub const MAX_Q: u64 = 1_000_000_000;

/// The command line of `gen`.
pub const SPEC: Spec = Spec {
    name: "gen",
    summary: "write a seeded judge input, or a strong test set (--suite)",
    usage: &[
        "--seed S [--q N] [--mode M]",
        "--suite DIR [--seed S] [--files N]",
    ],
    about: concat!(
        "\
The same arguments always give the same bytes. Coordinates always stay within
0..=9 and 0..=8, one command a line, as the official data does.

modes (--mode; default official):
",
        modes_help!(),
        "
--suite DIR writes a compact test set into DIR: 1.in and 1.ans, 2.in and 2.ans,
... (each valid under 'duckchess validate', Q = 1000, answers from the judge)
and suite.txt, which says what each file has and which mistakes of the
'duckchess audit' catalogue it kills. Every mistake is killed, usually by the
first file alone: one game written by a greedy search that keeps the
continuation killing the most mistakes still alive, with a stretch of invalid
commands of every kind, and its end followed by commands after the end. Room
permitting, the longest legal game follows (1000 legal moves). DIR is created
when missing; an existing DIR may hold only files a suite writes (N.in, N.ans,
suite.txt), which are replaced: anything else makes gen refuse."
    ),
    options: &[
        Opt::valued(
            "--seed",
            "S",
            "any integer from 0 to 18446744073709551615; required without --suite (default 1 with it)",
        ),
        Opt::valued(
            "--q",
            "N",
            "number of commands (default 1000; up to 1000000000)",
        ),
        Opt::valued("--mode", "M", "one of the modes above (default official)"),
        Opt::valued("--suite", "DIR", "write a test set into DIR instead"),
        Opt::valued(
            "--files",
            "N",
            "at most N files in the suite (default 10; from 1 to 100)",
        ),
    ],
    conflicts: &[("--suite", "--q"), ("--suite", "--mode")],
    exit: "0 success, 1 I/O error, a DIR with other files, or a mistake that\n             \
           survives the suite, 2 usage error",
};

/// The largest `--files`.
pub const MAX_FILES: u64 = 100;

/// The `gen` subcommand.
pub fn cli(args: &[String]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        if let Some(dir) = parsed.value("--suite") {
            let seed = parsed.int("--seed", 0, u64::MAX)?.unwrap_or(1);
            let files = parsed
                .int("--files", 1, MAX_FILES)?
                .map_or(suite::DEFAULT_FILES, |n| n as usize);
            return Ok(write_suite(Path::new(dir), seed, files));
        }
        if parsed.flag("--files") {
            return Err("--files N goes with --suite DIR".to_string());
        }
        let seed = parsed
            .int("--seed", 0, u64::MAX)?
            .ok_or("--seed S is required")?;
        let q = parsed.int("--q", 0, MAX_Q)?.unwrap_or(1000);
        let mode = match parsed.value("--mode") {
            None => Mode::Official,
            Some(m) => m.parse::<Mode>().map_err(|e| format!("--mode: {e}"))?,
        };
        let stdout = io::stdout();
        let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
        Ok(cli::output_status(
            "gen",
            generate(seed, q, mode, &mut out).and_then(|()| out.flush()),
        ))
    })
}

/// `gen --suite`: writes the suite and says what it wrote; returns the exit status.
fn write_suite(dir: &Path, seed: u64, files: usize) -> u8 {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let written = match suite::write(dir, seed, files, jobs) {
        Ok(w) => w,
        Err(e) => return cli::fail("gen", &e.to_string()),
    };
    let commands: usize = written.files.iter().map(|f| f.cmds.len()).sum();
    let total = crate::tools::audit::catalogue::Mistake::ALL.len();
    let text = format!(
        "wrote {} ({}) and suite.txt to {}: {} of {total} mistakes killed\n",
        cli::plural(written.files.len() as u64, "file"),
        cli::plural(commands as u64, "command"),
        dir.display(),
        total - written.survivors.len()
    );
    let mut out = io::stdout().lock();
    let status = cli::output_status(
        "gen",
        out.write_all(text.as_bytes()).and_then(|()| out.flush()),
    );
    if written.survivors.is_empty() {
        return status;
    }
    let names: Vec<&str> = written.survivors.iter().map(|m| m.name()).collect();
    cli::fail(
        "gen",
        &format!(
            "{} the suite: {} (try another --seed or more --files)",
            match names.len() {
                1 => "1 mistake survives".to_string(),
                n => format!("{n} mistakes survive"),
            },
            names.join(", ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_modes_help_lists_every_mode_in_order() {
        let listed: Vec<&str> = modes_help!()
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(listed, names);
        for m in Mode::ALL {
            assert_eq!(m.name().parse::<Mode>(), Ok(m));
        }
    }

    #[test]
    fn a_steering_mode_streams_the_game_stress_writes() {
        // `gen --mode attacks` is the game of stress's writer, command for command.
        let mut bytes = Vec::new();
        generate(3, 200, Mode::Attacks, &mut bytes).expect("a Vec");
        let mut rng = Rng::new(3 ^ 0x6475_636B_6368_6573);
        let case = Writer::new(&mut rng, false).play(Mode::Attacks, 200);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        assert_eq!(text.as_bytes(), &case.to_bytes()[..]);
    }
}
