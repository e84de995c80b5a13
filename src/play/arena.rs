//! The arena: plays whole games between two kinds of player (the search engine at full
//! strength or at a [`Level`], a uniformly random mover, a greedy capturer) and keeps
//! the score. Every move goes
//! through [`Game::play`], so the arena also checks that the players only ever choose
//! moves the judge accepts. Not on the judge path.

use crate::cli::Parsed;
use crate::engine::eval;
use crate::engine::search::{self, Context, Engine, Limits};
use crate::judge::board::Board;
use crate::judge::game::Game;
use crate::judge::piece::{Color, PieceKind};
use crate::judge::rules::{self, Move};
use crate::play::level::{self, Level, Strength, LEVELS};
use crate::sys::rng::Rng;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A game that reaches this many moves (both sides' moves counted, so 150 each) without
/// a captain capture is a draw.
pub const MAX_MOVES: u32 = 300;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The alpha-beta search of [`crate::engine::search`].
    Ai,
    /// A uniformly random legal move.
    Random,
    /// The most valuable capture (the captain above all), else a random move.
    Greedy,
    /// The search at a playing strength (`level1` to `level8`; the last is `ai`),
    /// its random choices seeded by the game.
    Level(Level),
}

impl fmt::Display for Kind {
    /// The name used on the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Ai => f.write_str("ai"),
            Kind::Random => f.write_str("random"),
            Kind::Greedy => f.write_str("greedy"),
            Kind::Level(l) => write!(f, "level{l}"),
        }
    }
}

/// A player kind that is not `ai`, `random`, `greedy` or a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKind(pub String);

impl fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown player {:?}: expected ai, random, greedy or level1 to level{LEVELS}",
            self.0
        )
    }
}

impl std::error::Error for UnknownKind {}

impl FromStr for Kind {
    type Err = UnknownKind;

    fn from_str(s: &str) -> Result<Kind, UnknownKind> {
        match s {
            "ai" => Ok(Kind::Ai),
            "random" => Ok(Kind::Random),
            "greedy" => Ok(Kind::Greedy),
            _ => s
                .strip_prefix("level")
                .and_then(|n| n.parse::<Level>().ok())
                .map(Kind::Level)
                .ok_or_else(|| UnknownKind(s.to_string())),
        }
    }
}

/// A player with its state: the engine's tables, or the random generator.
pub struct Player {
    kind: Kind,
    limits: Limits,
    engine: Option<Engine>,
    rng: Rng,
    seed: u64,
}

impl Player {
    /// A player of `kind`; the engine at full strength searches within `limits`, the
    /// others draw their random numbers from `seed` (a weakened level: the seed of its
    /// game, see [`level::move_seed`]).
    pub fn new(kind: Kind, limits: Limits, seed: u64) -> Player {
        Player {
            kind,
            limits,
            engine: None,
            rng: Rng::new(seed),
            seed,
        }
    }

    /// The kind of player.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The move this player chooses, or `None` when the side to move has none.
    pub fn choose(&mut self, board: &Board) -> Option<Move> {
        // `ai` is the full level by its old name: one way to play it.
        let level = match self.kind {
            Kind::Random => return self.rng.pick(&rules::legal_moves(board)),
            Kind::Greedy => return greedy(board, &mut self.rng),
            Kind::Ai => Level::FULL,
            Kind::Level(level) => level,
        };
        let strength = Strength {
            level,
            seed: self.seed,
        };
        // A weakened level brings its own small engine; only the full one keeps a table
        // from move to move.
        let engine = self.engine.get_or_insert_with(|| {
            Engine::with_hash(if level.is_full() { search::NEW_MB } else { 1 })
        });
        // A weakened level plays by nodes alone, not by the clock: the same games on
        // every machine, however busy.
        let limits = if level.is_full() {
            self.limits
        } else {
            Limits {
                time: None,
                soft: None,
                ..self.limits
            }
        };
        level::search(engine, board, strength, limits, Context::default()).best
    }
}

/// The most valuable capture (the captain counts above everything), ties broken at
/// random; a random move when nothing can be captured.
pub fn greedy(board: &Board, rng: &mut Rng) -> Option<Move> {
    let moves = rules::legal_moves(board);
    let gain = |m: &Move| match board.piece_at(m.to) {
        Some(p) if p.kind == PieceKind::Captain => i32::MAX,
        Some(p) => eval::value(p.kind).max(1),
        None => 0,
    };
    let best = moves.iter().map(gain).max()?;
    let top: Vec<Move> = moves.iter().copied().filter(|m| gain(m) == best).collect();
    rng.pick(&top)
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The side that took the other's captain; `None` for a draw.
    pub winner: Option<Color>,
    /// Moves played (both sides counted).
    pub moves: u32,
    /// Why the game ended.
    pub end: End,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A captain was captured.
    Capture,
    /// [`MAX_MOVES`] moves were played.
    MoveLimit,
    /// The side to move had no legal move (every piece stuck): a draw.
    Stuck,
}

/// A player chose a move the judge rejects: a bug in the player, reported not hidden.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalChoice {
    /// Who chose it.
    pub kind: Kind,
    /// The position, in notation.
    pub position: String,
    /// The move.
    pub chosen: Move,
    /// The judge's reason.
    pub reason: String,
}

impl fmt::Display for IllegalChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "player {} chose the invalid move {} in {}: {}",
            self.kind, self.chosen, self.position, self.reason
        )
    }
}

impl std::error::Error for IllegalChoice {}

/// Plays one game from `board` between `red` and `blue` to a captain capture, the move
/// limit, or a side without moves.
pub fn play_game(
    board: Board,
    red: &mut Player,
    blue: &mut Player,
) -> Result<GameEnd, IllegalChoice> {
    play_game_after(board, 0, red, blue)
}

/// [`play_game`] from a position reached after `played` moves, which count towards the
/// move limit.
pub fn play_game_after(
    board: Board,
    played: u32,
    red: &mut Player,
    blue: &mut Player,
) -> Result<GameEnd, IllegalChoice> {
    let mut game = Game::from_board(board);
    let mut moves = played;
    loop {
        let board = game.board();
        if board.is_over() {
            return Ok(GameEnd {
                winner: board.winner(),
                moves,
                end: End::Capture,
            });
        }
        if moves >= MAX_MOVES {
            return Ok(GameEnd {
                winner: None,
                moves,
                end: End::MoveLimit,
            });
        }
        let player = match board.side_to_move() {
            Color::Red => &mut *red,
            Color::Blue => &mut *blue,
        };
        let m = match player.choose(board) {
            Some(m) => m,
            None => {
                return Ok(GameEnd {
                    winner: None,
                    moves,
                    end: End::Stuck,
                })
            }
        };
        let (f, t) = (m.from, m.to);
        if let Err(e) = game.play(f.x().into(), f.y().into(), t.x().into(), t.y().into()) {
            return Err(IllegalChoice {
                kind: player.kind(),
                position: game.board().to_string(),
                chosen: m,
                reason: e.to_string(),
            });
        }
        moves += 1;
    }
}

/// The opening of a game: `plies` random quiet moves drawn from `rng` (no capture, and
/// none that lets the opponent take the mover's captain at once), so that games between
/// two deterministic players (`--depth`) still differ from each other, and none starts
/// lost. Returns the position after them and how many were played (fewer when a side
/// has no such move).
pub fn opening(rng: &mut Rng, plies: u32) -> (Board, u32) {
    let mut board = Board::start();
    for played in 0..plies {
        let side = board.side_to_move();
        let quiet: Vec<Move> = rules::legal_moves(&board)
            .into_iter()
            .filter(|m| board.piece_at(m.to).is_none())
            .filter(|&m| {
                let mut after = board.clone();
                after.make_move(m.from, m.to);
                after
                    .captain(side)
                    .is_some_and(|c| !rules::is_attacked(&after, c, side.opponent()))
            })
            .collect();
        match rng.pick(&quiet) {
            Some(m) => {
                board.make_move(m.from, m.to);
            }
            None => return (board, played),
        }
    }
    (board, plies)
}

/// The seed of game `index` of a run started with `seed`: different for every game, the
/// same for every run.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    Rng::new(seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F)).next_u64()
}

/// The longest thinking time per move, in milliseconds (an hour).
pub const MAX_THINK_MS: u64 = 3_600_000;

/// The search limits that `--think MS` (default `default_ms`) or `--depth D` ask for:
/// the options `arena` and `play` share.
pub fn limits_option(parsed: &Parsed, default_ms: u64) -> Result<Limits, String> {
    let think = parsed
        .int("--think", 1, MAX_THINK_MS)?
        .unwrap_or(default_ms);
    Ok(
        match parsed.int("--depth", 1, search::MAX_PLY as u64 / 2)? {
            Some(d) => Limits::depth(d as u32),
            None => Limits::time(Duration::from_millis(think)),
        },
    )
}

/// What every game of a run shares.
#[derive(Clone, Copy, Debug)]
pub struct ArenaSetup {
    /// Who plays red and blue.
    pub players: [Kind; 2],
    /// How the `ai` players search.
    pub limits: Limits,
    /// The run's seed; game `i` plays from [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// Random quiet moves at the start of each game.
    pub opening: u32,
}

/// The position game `index` of a run starts from, after its opening, and the number of
/// opening moves played.
pub fn start_of(setup: &ArenaSetup, index: u64) -> (Board, u32) {
    let s = game_seed(setup.seed, index);
    opening(&mut Rng::new(s ^ 0x0BE0_0BE0), setup.opening)
}

/// Plays game `index` of a run.
pub fn play_indexed(setup: &ArenaSetup, index: u64) -> Result<GameEnd, IllegalChoice> {
    let s = game_seed(setup.seed, index);
    let [red, blue] = setup.players;
    let mut red_player = Player::new(red, setup.limits, s);
    let mut blue_player = Player::new(blue, setup.limits, s ^ 0x5555_5555_5555_5555);
    let (start, opened) = start_of(setup, index);
    play_game_after(start, opened, &mut red_player, &mut blue_player)
}
