//! `duckchess match`: plays an engine against another through UCI, with the crate's own
//! rules as the arbiter. A fixed set of balanced openings (seeded, so every run plays
//! the same ones) is played with both colours, at a fixed time per move or on a clock.
//! Every move is checked against [`rules::legal_moves`]; an illegal move, a crash, a
//! silent engine or a fallen flag loses the game. Prints each game, then the score with
//! its error margin and each engine's average depth and speed. The engines are run
//! through [`Client`], which bounds every wait and line and ends each engine's process
//! group when the match is over. Not on the judge path.

use crate::cli::{self};
use crate::engine::search::{Engine, Limits, MOVE_LIMIT};
use crate::judge::board::Board;
use crate::judge::piece::Color;
use crate::judge::rules::{self, Move};
use crate::play::notation::{move_name, parse_move};
use crate::play::uciclient::{Client, ClientError, Thought};
use crate::sys::rng::Rng;
use crate::sys::{file, ordered};
use std::fs::File;
use std::io::{self, Write};
use std::sync::Mutex;
use std::time::Duration;

/// How a game ended for the engine under test, in the words of a result line, and the
/// engine's points: `fit` reads the records back through this same table.
pub const OUTCOMES: [(&str, f64); 3] =
    [("engine wins", 1.0), ("opponent wins", 0.0), ("draw", 0.5)];

/// The reasons, in a result line, for the ways a game ends on the board (any other
/// reason is a forfeit): `fit` checks the games it reads against them.
pub const CAPTURED: &str = "captain captured";
/// See [`CAPTURED`]: the side to move has no legal move, a draw.
pub const STUCK: &str = "side to move stuck";

/// See [`CAPTURED`]: the reason of a draw at the move limit.
pub fn move_limit_reason() -> String {
    format!("{MOVE_LIMIT}-move limit")
}

/// The largest opening score (centipawns, by a depth-4 search) still called balanced.
const BALANCED: i32 = 40;
/// How much past its time an engine may answer on a clock before its flag falls:
/// process start-up and scheduling on a loaded machine, not thinking time.
const CLOCK_GRACE: Duration = Duration::from_millis(100);
/// How much past a fixed time per move an engine may answer before it forfeits.
const MOVETIME_GRACE: Duration = Duration::from_millis(1000);
/// How long an engine may think on a move of [`Control::Nodes`].
pub const NODES_TIMEOUT: Duration = Duration::from_secs(10);

/// How the engines are timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// A fixed time per move: the engine under test's, then the opponent's (the same,
    /// or more for a match at time odds).
    PerMove(Duration, Duration),
    /// A number of nodes a move (`go nodes`), the engine under test's, then the
    /// opponent's: games that do not depend on the machine's speed or load. An engine
    /// that takes longer than [`NODES_TIMEOUT`] for a move forfeits.
    Nodes(u64, u64),
    /// A clock per side: the initial time and the increment per move.
    Clock(Duration, Duration),
}

/// Openings: `count` sequences of `plies` random quiet moves from the start position
/// that a short search finds balanced, the same for the same `seed`.
pub fn openings(count: usize, plies: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(seed);
    let mut found: Vec<Vec<Move>> = Vec::new();
    let mut engine = Engine::with_hash(1);
    // Most tries succeed; the bound only keeps a strange seed from looping for ever.
    for _ in 0..count * 200 {
        if found.len() == count {
            break;
        }
        let mut board = Board::start();
        let mut line = Vec::new();
        while line.len() < plies {
            let quiet: Vec<Move> = rules::legal_moves(&board)
                .into_iter()
                .filter(|m| board.is_empty(m.to))
                .collect();
            let Some(m) = rng.pick(&quiet) else { break };
            board.make_move(m.from, m.to);
            line.push(m);
        }
        if line.len() < plies || found.contains(&line) || rules::is_check(&board) {
            continue;
        }
        let r = engine.search(&board, Limits::depth(4));
        if r.score.abs() <= BALANCED {
            found.push(line);
        }
    }
    found
}

/// How one game ended, for the engine under test.
#[derive(Clone, Debug, Default, PartialEq)]
struct GameEnd {
    /// 1 for a win of the engine under test, 0.5 for a draw, 0 for a loss.
    points: f64,
    /// Why, in words.
    reason: String,
    /// Moves played, the opening's included.
    moves: u32,
}

/// One game as played: how it ended, its moves (the opening's included) and what each
/// engine did in it.
#[derive(Default)]
struct Played {
    end: GameEnd,
    moves: Vec<Move>,
    stats: [Stats; 2],
}

/// What one engine did over the match.
#[derive(Default)]
struct Stats {
    moves: u64,
    depth_sum: u64,
    depth_count: u64,
    nodes: u64,
    engine_ms: u64,
    max_over_ms: u64,
}

impl Stats {
    fn add(&mut self, t: &Thought, allowed: Duration) {
        self.moves += 1;
        if let Some(d) = t.depth {
            self.depth_sum += u64::from(d);
            self.depth_count += 1;
        }
        if let (Some(n), Some(ms)) = (t.nodes, t.time_ms) {
            self.nodes += n;
            self.engine_ms += ms;
        }
        let over = t.elapsed.saturating_sub(allowed).as_millis() as u64;
        self.max_over_ms = self.max_over_ms.max(over);
    }

    /// Adds what the engine did in another game.
    fn absorb(&mut self, other: &Stats) {
        self.moves += other.moves;
        self.depth_sum += other.depth_sum;
        self.depth_count += other.depth_count;
        self.nodes += other.nodes;
        self.engine_ms += other.engine_ms;
        self.max_over_ms = self.max_over_ms.max(other.max_over_ms);
    }

    fn line(&self, name: &str) -> String {
        let depth = self.depth_sum as f64 / self.depth_count.max(1) as f64;
        let nps = self.nodes * 1000 / self.engine_ms.max(1);
        format!(
            "{name}: average depth {depth:.1}, {nps} nodes/s, {} moves, longest overrun {} ms",
            self.moves, self.max_over_ms
        )
    }
}

/// The two players of a match.
pub struct Players {
    commands: [String; 2],
    options: [Vec<(String, String)>; 2],
    clients: [Option<Client>; 2],
}

impl Players {
    /// The two players: each one's command line and the UCI options it is given.
    pub fn new(commands: [String; 2], options: [Vec<(String, String)>; 2]) -> Players {
        Players {
            commands,
            options,
            clients: [None, None],
        }
    }

    /// The running client of player `i`, started if it is not running.
    fn client(&mut self, i: usize) -> Result<&mut Client, ClientError> {
        let client = match self.clients[i].take() {
            Some(c) => c,
            None => Client::start(&self.commands[i], &self.options[i])?,
        };
        Ok(self.clients[i].insert(client))
    }
}

/// Plays one game: player `red` (0 the engine under test, 1 the opponent) has red.
fn play(
    players: &mut Players,
    stats: &mut [Stats; 2],
    opening: &[Move],
    red: usize,
    control: Control,
    moves: &mut Vec<Move>,
) -> GameEnd {
    let who = |color: Color| if color == Color::Red { red } else { 1 - red };
    let verdict = |winner: usize, reason: String, moves: u32| GameEnd {
        points: if winner == 0 { 1.0 } else { 0.0 },
        reason,
        moves,
    };
    for i in 0..2 {
        if let Err(e) = players.client(i).and_then(|c| c.new_game()) {
            players.clients[i] = None;
            return verdict(1 - i, format!("player {} failed to start: {e}", i + 1), 0);
        }
    }
    let mut board = Board::start();
    moves.clear();
    for &m in opening {
        board.make_move(m.from, m.to);
        moves.push(m);
    }
    let mut left = match control {
        Control::Clock(t, _) => [t, t],
        Control::PerMove(..) | Control::Nodes(..) => [Duration::ZERO; 2],
    };
    loop {
        let n = moves.len() as u32;
        if let Some(w) = board.winner() {
            return verdict(who(w), CAPTURED.into(), n);
        }
        if n >= MOVE_LIMIT {
            return GameEnd {
                points: 0.5,
                reason: move_limit_reason(),
                moves: n,
            };
        }
        if rules::legal_moves(&board).is_empty() {
            return GameEnd {
                points: 0.5,
                reason: STUCK.into(),
                moves: n,
            };
        }
        let side = board.side_to_move();
        let p = who(side);
        let list: Vec<String> = moves.iter().map(|&m| move_name(m)).collect();
        let position = format!("position startpos moves {}", list.join(" "));
        let (go, allowed, timeout) = match control {
            Control::PerMove(mine, theirs) => {
                let t = if p == 0 { mine } else { theirs };
                (
                    format!("go movetime {}", t.as_millis()),
                    t,
                    t + MOVETIME_GRACE,
                )
            }
            Control::Nodes(mine, theirs) => (
                format!("go nodes {}", if p == 0 { mine } else { theirs }),
                NODES_TIMEOUT,
                NODES_TIMEOUT,
            ),
            Control::Clock(_, inc) => (
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    left[0].as_millis(),
                    left[1].as_millis(),
                    inc.as_millis(),
                    inc.as_millis()
                ),
                left[side.index()],
                left[side.index()] + CLOCK_GRACE,
            ),
        };
        let thought = match players
            .client(p)
            .and_then(|c| c.think(&position, &go, timeout))
        {
            Ok(t) => t,
            Err(e) => {
                players.clients[p] = None; // restarted for the next game
                return verdict(1 - p, e.to_string(), n);
            }
        };
        stats[p].add(&thought, allowed);
        if let Control::Clock(_, inc) = control {
            let i = side.index();
            if thought.elapsed > left[i] + CLOCK_GRACE {
                return verdict(1 - p, format!("{side} lost on time"), n);
            }
            left[i] = left[i].saturating_sub(thought.elapsed) + inc;
        }
        let m = match parse_move(&thought.best) {
            Ok(m) if rules::legal_moves(&board).contains(&m) => m,
            _ => {
                let reason = format!(
                    "{side} played the illegal move {:?} in {board}",
                    thought.best
                );
                return verdict(1 - p, reason, n);
            }
        };
        board.make_move(m.from, m.to);
        moves.push(m);
    }
}

/// Writes a line and flushes it; on failure, the exit status to end with.
fn emit(out: &mut impl Write, line: &str) -> Result<(), u8> {
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| cli::output_status("match", Err(e)))
}

/// Plays the match: each opening twice, `jobs` games side by side (each with engines
/// of its own), their lines written in the order of the games; then the summary.
/// Returns the exit status.
pub fn run_match(
    mut players: Players,
    control: Control,
    openings: &[Vec<Move>],
    quiet: bool,
    mut record: Option<File>,
    jobs: usize,
) -> u8 {
    let mut out = io::stdout().lock();
    let mut stats = [Stats::default(), Stats::default()];
    let mut scores = Vec::new();
    let mut tally = [0u32; 3]; // wins, losses, draws of the engine under test
    for i in 0..2 {
        if let Err(e) = players.client(i) {
            return cli::fail("match", &e.to_string());
        }
    }
    let names: Vec<String> = (0..2)
        .map(|i| {
            players.clients[i]
                .as_ref()
                .map_or(String::new(), |c| c.name.clone())
        })
        .collect();
    let mut lines = vec![format!(
        "{} (engine) against {} (opponent), {}, {}",
        names[0],
        names[1],
        cli::plural(openings.len() as u64, "opening"),
        match control {
            Control::PerMove(mine, theirs) if mine == theirs =>
                format!("{} ms a move", mine.as_millis()),
            Control::PerMove(mine, theirs) => format!(
                "{} ms a move against {} ms",
                mine.as_millis(),
                theirs.as_millis()
            ),
            Control::Nodes(mine, theirs) if mine == theirs => format!("{mine} nodes a move"),
            Control::Nodes(mine, theirs) => format!("{mine} nodes a move against {theirs}"),
            Control::Clock(t, i) =>
                format!("{:.1} s + {:.2} s a move", t.as_secs_f64(), i.as_secs_f64()),
        }
    )];
    for (k, o) in openings.iter().enumerate() {
        let list: Vec<String> = o.iter().map(|&m| move_name(m)).collect();
        lines.push(format!("opening {}: {}", k + 1, list.join(" ")));
    }
    if !quiet {
        for l in &lines {
            if let Err(s) = emit(&mut out, l) {
                return s;
            }
        }
    }
    let total = openings.len() * 2;
    // The players already started serve the first game; each other thread starts its
    // own engines.
    let (commands, options) = (players.commands.clone(), players.options.clone());
    let spare = Mutex::new(vec![players]);
    let played = ordered::in_order(
        total as u64,
        jobs,
        jobs,
        || {
            let mut spare = spare.lock().unwrap_or_else(|e| e.into_inner());
            spare
                .pop()
                .unwrap_or_else(|| Players::new(commands.clone(), options.clone()))
        },
        |players, g| {
            // Game g plays opening g / 2, the engine under test red in the first.
            let (k, red) = ((g / 2) as usize, (g % 2) as usize);
            let mut game = Played::default();
            game.end = play(
                players,
                &mut game.stats,
                &openings[k],
                red,
                control,
                &mut game.moves,
            );
            game
        },
        |g, game| {
            let (k, red, r) = (g / 2 + 1, g % 2, &game.end);
            for (total, more) in stats.iter_mut().zip(&game.stats) {
                total.absorb(more);
            }
            scores.push(r.points);
            let slot = OUTCOMES
                .iter()
                .position(|&(_, points)| points == r.points)
                .unwrap_or(2);
            tally[slot] += 1;
            let outcome = OUTCOMES[slot].0;
            let line = format!(
                "game {}/{total}: opening {k}, engine {}: {outcome} ({}) after {} moves; score {:.1}/{}",
                scores.len(),
                if red == 0 { "red" } else { "blue" },
                r.reason,
                r.moves,
                scores.iter().sum::<f64>(),
                scores.len()
            );
            if !quiet {
                emit(&mut out, &line)?;
            }
            if let Some(file) = record.as_mut() {
                let list: Vec<String> = game.moves.iter().map(|&m| move_name(m)).collect();
                // A game's lines are whole or absent, even on a full disk.
                let text = format!("{line}\nmoves {}\n", list.join(" "));
                if let Err(e) = file::append_whole(file, text.as_bytes()) {
                    return Err(cli::fail("match", &format!("cannot write the record: {e}")));
                }
            }
            Ok(())
        },
    );
    if let Err(status) = played {
        return status;
    }
    let n = scores.len().max(1) as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (var / n).sqrt();
    let elo = elo_text(mean);
    let summary = [
        format!(
            "engine: wins {}, losses {}, draws {}: {:.1}% +- {:.1}% (95%), Elo {elo}",
            tally[0],
            tally[1],
            tally[2],
            mean * 100.0,
            margin * 100.0
        ),
        stats[0].line(&format!("engine {}", names[0])),
        stats[1].line(&format!("opponent {}", names[1])),
    ];
    for l in &summary {
        if let Err(s) = emit(&mut out, l) {
            return s;
        }
    }
    cli::EXIT_OK
}

/// The Elo difference a score (0 to 1) stands for, signed and rounded: `+0` for an
/// even score, never `-0`; "beyond measure" for a score of nothing or everything.
fn elo_text(score: f64) -> String {
    if score <= 0.0 || score >= 1.0 {
        return "beyond measure".to_string();
    }
    // Adding 0.0 turns a rounded -0 into +0.
    let elo = (-400.0 * (1.0 / score - 1.0).log10()).round() + 0.0;
    format!("{elo:+.0}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_elo_difference_has_its_sign_and_no_negative_zero() {
        assert_eq!(elo_text(0.5), "+0");
        assert_eq!(elo_text(0.4995), "+0");
        assert_eq!(elo_text(0.75), "+191");
        assert_eq!(elo_text(0.25), "-191");
        assert_eq!(elo_text(0.0), "beyond measure");
        assert_eq!(elo_text(1.0), "beyond measure");
    }

    #[test]
    fn openings_are_fixed_distinct_and_balanced() {
        let a = openings(3, 4, 7);
        assert_eq!(a, openings(3, 4, 7));
        assert_eq!(a.len(), 3);
        for (i, line) in a.iter().enumerate() {
            assert_eq!(line.len(), 4);
            assert!(!a[..i].contains(line));
            let mut b = Board::start();
            for &m in line {
                assert!(rules::legal_moves(&b).contains(&m));
                b.make_move(m.from, m.to);
            }
        }
    }
}
