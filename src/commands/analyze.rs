//! `duckchess analyze`: a game analysed move by move at the terminal, or as JSON for
//! programs. The judging is [`crate::play::review`]'s; this module reads the game,
//! drives the searches, and writes the table, the summary and a progress bar.

use crate::cli::json::{Json, Streamed};
use crate::cli::{self, Opt, Spec};
use crate::engine::search::{Limits, MAX_DEPTH, MAX_THREADS};
use crate::judge::board::Board;
use crate::judge::piece::Color;
use crate::judge::rules::Move;
use crate::play::arena::MAX_THINK_MS;
use crate::play::review::{units, Analyser, Eval, Finding, Grade, Reviewed, Tally};
use crate::play::saved::{load_text, Loaded};
use crate::show::render;
use crate::sys::os;
use std::io::{self, BufWriter, Read, Write};
use std::time::{Duration, Instant};

/// The thinking time a position when no limit is given, in milliseconds.
pub const DEFAULT_MOVETIME_MS: u64 = 300;
/// The largest input read (a judge input of a million commands is some 10 MB).
pub const MAX_INPUT: u64 = 64 << 20;
/// The most moves of a line shown after its first in the table (the JSON has all of
/// them).
const LINE_SHOWN: usize = 4;
/// The most nodes `--nodes` may ask for a position.
const MAX_NODES: u64 = 1_000_000_000;

/// The command line of `analyze`.
pub const SPEC: Spec = Spec {
    name: "analyze",
    summary: "the engine's view of a game: scores, best moves, mistakes",
    usage: &["[FILE] [--movetime MS | --depth D | --nodes N] [--threads N] [--json]"],
    about: "\
Reads a game from FILE (standard input when FILE is absent or '-'): a judge input
(Q and Q commands from the start position; invalid commands are skipped, as the
judge ignores them) or a saved game (as 'play' saves it: a position, then the
moves). The input is read and checked whole before the first search. Then the
engine searches every position of the game, each on its own, and judges each move
by what it cost the side that played it.

Scores are from red's side, in the engine's units: a horse is 3.00, so +1.50 means
red is ahead by half a horse. #+N means red takes the blue captain within N plies
(moves of either side) whatever blue does, #-N the same for blue; #+0 and #-0: the
captain has been taken.

A move's loss is the score before it (what the best move keeps) minus the score
after it, for the side that moved, with scores capped at 10.00 either way (a side
that far ahead is winning). Verdicts: best (the engine's own move); good (a loss
under 0.50); inaccuracy (under 1.50); mistake (under 3.00); blunder (3.00 or more,
a horse, or a move after which the other side can force the capture of the
captain, as it could not before); missed win (the mover could force the capture of
the captain, and after the move cannot).

For each move: its command's number and the command, the piece, the scores before
and after, the verdict and the loss; under it the engine's best move and line, in
the judge's notation. Then the position after the last move, a summary per side
(the average loss, the count of each verdict) and the time taken: about the
positions times --movetime. On a terminal a progress bar goes to standard error.",
    options: &[
        Opt::valued(
            "--movetime",
            "MS",
            "think MS milliseconds a position (default 300; --think is the same)",
        ),
        Opt::valued(
            "--depth",
            "D",
            "search D plies a position (the same numbers on every machine)",
        ),
        Opt::valued(
            "--nodes",
            "N",
            "visit at most N positions a search (the same numbers on every machine)",
        ),
        Opt::valued(
            "--threads",
            "N",
            "search on N threads, 1 to 256 (default 1; more than 1: deeper in the same time, but --depth and --nodes no longer give the same numbers on every run)",
        ),
        Opt::flag(
            "--json",
            "one JSON document: the start, the limit, each move (command, move, side, piece, before, after, loss, verdict, best, best_piece, line), the end and the summary",
        ),
    ],
    conflicts: &[
        ("--movetime", "--depth"),
        ("--movetime", "--nodes"),
        ("--depth", "--nodes"),
    ],
    exit: "0 success, 1 bad input or I/O error, 2 usage error",
};

/// How a search is bounded, as the command line said it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Milliseconds a position.
    Movetime(u64),
    /// Plies a position.
    Depth(u32),
    /// Nodes a position.
    Nodes(u64),
}

impl Limit {
    /// The search limits it stands for.
    pub fn limits(self) -> Limits {
        match self {
            Limit::Movetime(ms) => Limits::time(Duration::from_millis(ms)),
            Limit::Depth(d) => Limits::depth(d),
            Limit::Nodes(n) => Limits::nodes(n),
        }
    }

    /// How long each position is searched: `0.3 s a position`, `each position to depth
    /// 5`, `20000 nodes a position`.
    fn text(self) -> String {
        match self {
            Limit::Movetime(ms) => format!("{} s a position", ms as f64 / 1000.0),
            Limit::Depth(d) => format!("each position to depth {d}"),
            Limit::Nodes(n) => format!("{n} nodes a position"),
        }
    }

    /// `{"movetime":300}`, `{"depth":5}`, `{"nodes":20000}`.
    fn json(self) -> Json {
        match self {
            Limit::Movetime(ms) => Json::obj([("movetime", Json::count(ms))]),
            Limit::Depth(d) => Json::obj([("depth", Json::count(d.into()))]),
            Limit::Nodes(n) => Json::obj([("nodes", Json::count(n))]),
        }
    }
}

/// The `analyze` subcommand; returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        let limit = if let Some(d) = parsed.int("--depth", 1, u64::from(MAX_DEPTH))? {
            Limit::Depth(d as u32)
        } else if let Some(n) = parsed.int("--nodes", 1, MAX_NODES)? {
            Limit::Nodes(n)
        } else {
            let ms = parsed.int("--movetime", 1, MAX_THINK_MS)?;
            Limit::Movetime(ms.unwrap_or(DEFAULT_MOVETIME_MS))
        };
        let threads = parsed.int("--threads", 1, MAX_THREADS as u64)?.unwrap_or(1) as usize;
        let json = parsed.flag("--json");
        let input = match cli::open_input(SPEC.name, parsed.file()?) {
            Ok(input) => input,
            Err(status) => return Ok(status),
        };
        let loaded = match read_game(input) {
            Ok(loaded) => loaded,
            Err(e) => return Ok(cli::fail(SPEC.name, &e)),
        };
        let stdout = io::stdout();
        let format = if json {
            Format::Json
        } else {
            Format::Text {
                color: os::escapes_shown(os::Console::Stdout) && !render::no_color(),
            }
        };
        let mut out = Writer::new(BufWriter::new(stdout.lock()), format);
        let bar = Bar {
            on: os::escapes_shown(os::Console::Stderr),
            total: loaded.moves.len() as u64 + 1,
        };
        let result = analyze(&loaded, limit, threads, &mut out, &bar);
        bar.clear();
        Ok(cli::output_status(
            SPEC.name,
            result.and_then(|()| out.out.flush()),
        ))
    })
}

/// Reads the whole input (at most [`MAX_INPUT`] bytes) and the game in it.
fn read_game(input: impl Read) -> Result<Loaded, String> {
    let mut bytes = Vec::new();
    input
        .take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the input: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(format!("the input is larger than {} MiB", MAX_INPUT >> 20));
    }
    // Bytes that are not UTF-8 become U+FFFD, which the judge's reader reports with
    // its line and column as any other bad token.
    load_text(&String::from_utf8_lossy(&bytes)).map_err(|e| e.to_string())
}

/// Analyses every position of `game` within `limit` on `threads` threads and writes
/// each move as soon as it is judged. Stops at the first failed write.
pub fn analyze<W: Write>(
    game: &Loaded,
    limit: Limit,
    threads: usize,
    out: &mut Writer<W>,
    bar: &Bar,
) -> io::Result<()> {
    let started = Instant::now();
    let mut analyser = Analyser::new(limit.limits());
    // Without the memory for every thread asked for, the threads kept search: say so.
    if let Err(e) = analyser.set_threads(threads) {
        cli::say("analyze", &format!("note: {e}"));
    }
    out.header(game, limit)?;
    let mut board = game.start.clone();
    let mut before = analyser.next(&board, None);
    bar.show(1, started);
    let mut tallies = [Tally::default(); 2];
    for (i, (&played, &command)) in game.moves.iter().zip(&game.commands).enumerate() {
        let previous = board.clone();
        board.make_move(played.from, played.to);
        let after = analyser.next(&board, None);
        // A loaded game holds only legal moves: each moves a piece.
        if let Some(r) = Reviewed::new(command, &previous, played, &before, &after) {
            tallies[r.piece.color.index()].add(&r);
            bar.clear();
            out.reviewed(&r)?;
        }
        bar.show(i as u64 + 2, started);
        before = after;
    }
    bar.clear();
    out.end(&board, &before, &tallies, started.elapsed())
}

/// How the analysis is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The table for people; `color` paints the verdicts (a terminal without
    /// `NO_COLOR`).
    Text {
        /// Whether to paint.
        color: bool,
    },
    /// One JSON document.
    Json,
}

/// Writes the analysis as it goes.
pub struct Writer<W: Write> {
    /// Where.
    pub out: W,
    /// How.
    pub format: Format,
    /// Moves written so far.
    moves: u64,
    /// The width of the command numbers' column.
    width: usize,
}

impl<W: Write> Writer<W> {
    /// A writer to `out` in `format`.
    pub fn new(out: W, format: Format) -> Writer<W> {
        Writer {
            out,
            format,
            moves: 0,
            width: 2,
        }
    }

    fn header(&mut self, game: &Loaded, limit: Limit) -> io::Result<()> {
        let text = match self.format {
            Format::Json => Streamed::head(
                [
                    ("start", Json::str(game.start.to_string())),
                    ("skipped", game.skipped.map_or(Json::Null, Json::count)),
                    ("limit", limit.json()),
                ],
                "moves",
            ),
            Format::Text { .. } => {
                let from = if game.start == Board::start() {
                    "the start position".to_string()
                } else {
                    game.start.to_string()
                };
                let skipped = match game.skipped {
                    Some(n) if n > 0 => format!(
                        "{} skipped, as the judge ignores them\n",
                        cli::plural(n, "invalid command")
                    ),
                    _ => String::new(),
                };
                // The command numbers' column: as wide as the largest number, at least
                // 2 digits (with its '.', as wide as the heading 'cmd').
                let last = game.commands.last().copied().unwrap_or(0);
                self.width = last.to_string().len().max(2);
                format!(
                    "analysis: {} from {from}, {}\n{skipped}\
                     scores from red's side, a horse is 3.00; #+N: red takes the captain in \
                     N plies\n{:>w$} {:<7}  {:<13}  {:>6}  {:>6}  verdict\n",
                    cli::plural(game.moves.len() as u64, "move"),
                    limit.text(),
                    "cmd",
                    "move",
                    "piece",
                    "before",
                    "after",
                    w = self.width + 1,
                )
            }
        };
        self.out.write_all(text.as_bytes())
    }

    fn reviewed(&mut self, r: &Reviewed) -> io::Result<()> {
        let text = match self.format {
            Format::Json => {
                let comma = if self.moves > 0 { "," } else { "" };
                format!("{comma}\n{}", r.json())
            }
            Format::Text { color } => {
                let mut verdict = String::new();
                render::paint(r.verdict.name(), paint_code(r.verdict), color, &mut verdict);
                if r.verdict != Grade::Best {
                    verdict.push_str(&format!(", loss {}", loss(r.loss)));
                }
                let indent = " ".repeat(self.width + 2);
                // The engine's move and what it expects next (for the best move, what
                // it expects after it).
                let then = line(r.before.line.get(1..).unwrap_or(&[]));
                let next = match (r.verdict, r.best_piece, r.before.best) {
                    (Grade::Best, _, _) | (_, None, _) | (_, _, None) if then.is_empty() => {
                        String::new()
                    }
                    (Grade::Best, _, _) | (_, None, _) | (_, _, None) => {
                        format!("{indent}then {then}\n")
                    }
                    (_, Some(piece), Some(best)) if then.is_empty() => {
                        format!("{indent}best: {piece} {best}\n")
                    }
                    (_, Some(piece), Some(best)) => {
                        format!("{indent}best: {piece} {best}, then {then}\n")
                    }
                };
                format!(
                    "{:>w$}. {}  {:<13}  {:>6}  {:>6}  {verdict}\n{next}",
                    r.command,
                    r.played,
                    r.piece.to_string(),
                    r.before.eval.to_string(),
                    r.after.to_string(),
                    w = self.width,
                )
            }
        };
        self.moves += 1;
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }

    fn end(
        &mut self,
        board: &Board,
        last: &Finding,
        tallies: &[Tally; 2],
        elapsed: Duration,
    ) -> io::Result<()> {
        let text = match self.format {
            Format::Json => {
                let summary = Json::obj([("red", tallies[0].json()), ("blue", tallies[1].json())]);
                let tail = Streamed::tail([("end", last.json()), ("summary", summary)]);
                format!("\n{tail}\n")
            }
            Format::Text { .. } => {
                let mut text = match (last.eval, last.best) {
                    (Eval::Mate { winner, plies: 0 }, _) => {
                        format!("end: game over, {winner} wins\n")
                    }
                    (eval, None) => format!(
                        "end: {eval}, {} to move has no legal move\n",
                        board.side_to_move()
                    ),
                    (eval, Some(best)) => {
                        let piece = board
                            .piece_at(best.from)
                            .map_or(String::new(), |p| format!("{p} "));
                        let then = line(last.line.get(1..).unwrap_or(&[]));
                        let then = if then.is_empty() {
                            String::new()
                        } else {
                            format!(", then {then}")
                        };
                        format!(
                            "end: {eval}, {} to move; best: {piece}{best}{then}\n",
                            board.side_to_move(),
                        )
                    }
                };
                for side in Color::ALL {
                    text.push_str(&format!("{side}: {}\n", tallies[side.index()].text()));
                }
                text.push_str(&format!(
                    "time: {:.1} s for {}\n",
                    elapsed.as_secs_f64(),
                    cli::plural(self.moves + 1, "position")
                ));
                text
            }
        };
        self.out.write_all(text.as_bytes())
    }
}

/// The ANSI colour of a verdict's word on a terminal.
fn paint_code(verdict: Grade) -> &'static str {
    match verdict {
        Grade::Best | Grade::Good => "32",
        Grade::Inaccuracy => "33",
        Grade::Mistake => "33;1",
        Grade::Blunder => "31;1",
        Grade::MissedWin => "35;1",
    }
}

/// A loss as people read it: `0.27`, `10.40`.
fn loss(value: i32) -> String {
    units(value).trim_start_matches('+').to_string()
}

/// The first moves of a line: `3 4 4 4, 9 1 7 2, 4 4 5 4`.
fn line(moves: &[Move]) -> String {
    let shown: Vec<String> = moves.iter().take(LINE_SHOWN).map(Move::to_string).collect();
    shown.join(", ")
}

/// The progress bar on standard error, on a terminal only.
pub struct Bar {
    /// Whether to show it.
    pub on: bool,
    /// The positions to search.
    pub total: u64,
}

impl Bar {
    /// Shows `done` of the positions searched, `started` being when the first began.
    fn show(&self, done: u64, started: Instant) {
        if self.on {
            const WIDTH: u64 = 20;
            let filled = (done * WIDTH / self.total.max(1)).min(WIDTH) as usize;
            let _ = write!(
                io::stderr(),
                "\r\x1b[Kduckchess: analyze: [{}{}] {done}/{} positions, {:.1} s",
                "#".repeat(filled),
                "-".repeat(WIDTH as usize - filled),
                self.total,
                started.elapsed().as_secs_f64()
            );
        }
    }

    /// Takes the bar off the screen.
    fn clear(&self) {
        if self.on {
            let _ = write!(io::stderr(), "\r\x1b[K");
        }
    }
}
