//! Playing strength: levels from 1 (a beginner who blunders pieces) to
//! [`LEVELS`] (the full engine), the way chess programs offer them.
//!
//! A weakened level is honest about how it is weak. It searches within a fixed depth
//! and node budget (so it plays the same on every machine), and on a share of its
//! moves it makes a mistake on purpose: a move chosen at random among those that a
//! quick look at every root move scores no more than a drawn amount below the best.
//! How often, and how large that amount may be, follows the level: level 1 looks one
//! ply and makes a mistake on 80% of its moves, of any size (it may even leave its
//! captain to be taken); level 7 searches 9 plies within 60,000 nodes and makes a
//! mistake on 1% of its moves, never of more than 100 centipawns (a third of a
//! horse). Every level takes a captain that can be taken. Every random choice comes
//! from a seed, so a game can be played again move for move; the seed of a move is
//! made from the game's seed and the position ([`move_seed`]), so taking a move back
//! and playing it again brings the same answer.
//!
//! [`search`] is what the front ends call (`play`, `arena`, `uci`, `serve`): the full
//! level is the engine's own search within the caller's limits; a weakened level uses
//! the caller's limits only as a cap (the clock and the stop flag). Not on the judge
//! path.

use crate::engine::eval::{eval_mut, MATE};
use crate::engine::search::{self, Context, Engine, Limits, Report};
use crate::engine::tt::{hash_of, MATE_BOUND};
use crate::engine::tunables::Tunables;
use crate::judge::board::Board;
use crate::judge::piece::{Piece, PieceKind};
use crate::judge::rules::{self, Move};
use crate::sys::clock::Instant;
use crate::sys::rng::Rng;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The number of levels; the last one is the full engine.
pub const LEVELS: u8 = 8;

/// A playing strength, 1 to [`LEVELS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// How a weakened level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// A short name for people.
    pub name: &'static str,
    /// How far it looks at each root move: 1 is the position right after the move
    /// (material and activity, no reply considered); `d` above 1 is a search of
    /// `d - 1` plies (and captures to quiet) from there.
    pub depth: u32,
    /// The positions its search visits for one move, all root moves together (passed by
    /// less than [`crate::engine::alphabeta::CHECK_EVERY`]). On a move where it makes a
    /// mistake, the quick look that scores the root moves has a budget of its own,
    /// [`LOOK_NODES`] a root move.
    pub nodes: u64,
    /// How many of its moves in a hundred are mistakes.
    pub mistakes: u64,
    /// The largest mistake, in centipawns of its own scores (a horse is 300);
    /// [`ANY_MOVE`] for no limit at all.
    pub largest: i32,
}

/// [`Profile::largest`] of a level whose mistakes may be any legal move, even one that
/// leaves its captain to be taken.
pub const ANY_MOVE: i32 = i32::MAX;

/// The weakened levels, 1 to [`LEVELS`] - 1. Measured with `scripts/bench-levels.sh`
/// (40 games a line): each scores 65% or more against the one below it, losing at most
/// 3 games in 40, and level 1 scores 10% against the greedy player (which takes the
/// most valuable piece it can).
pub const PROFILES: [Profile; LEVELS as usize - 1] = [
    Profile {
        name: "beginner",
        depth: 1,
        nodes: 0,
        mistakes: 80,
        largest: ANY_MOVE,
    },
    Profile {
        name: "novice",
        depth: 1,
        nodes: 0,
        mistakes: 35,
        largest: 900,
    },
    Profile {
        name: "casual",
        depth: 2,
        nodes: 1_000,
        mistakes: 25,
        largest: 600,
    },
    Profile {
        name: "club",
        depth: 3,
        nodes: 2_500,
        mistakes: 14,
        largest: 450,
    },
    Profile {
        name: "strong",
        depth: 4,
        nodes: 5_000,
        mistakes: 9,
        largest: 350,
    },
    Profile {
        name: "expert",
        depth: 6,
        nodes: 20_000,
        mistakes: 4,
        largest: 200,
    },
    Profile {
        name: "master",
        depth: 9,
        nodes: 60_000,
        mistakes: 1,
        largest: 100,
    },
];

/// A level number out of range, or not a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLevel(pub String);

impl fmt::Display for BadLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "level {:?}: expected a number from 1 to {LEVELS}",
            self.0
        )
    }
}

impl std::error::Error for BadLevel {}

impl Level {
    /// Level 1, the beginner.
    pub const WEAKEST: Level = Level(1);
    /// The full engine.
    pub const FULL: Level = Level(LEVELS);
    /// The level a person meets first (`play`, the browser, `/api/ai`): casual, which a
    /// beginner can beat with care. Engines meet the full one (`uci`, `match`, `arena`'s
    /// `ai`).
    pub const DEFAULT: Level = Level(3);

    /// Level `n`, if it is 1 to [`LEVELS`].
    pub fn new(n: u64) -> Option<Level> {
        (1..=u64::from(LEVELS))
            .contains(&n)
            .then_some(Level(n as u8))
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=LEVELS).map(Level)
    }

    /// Its number, 1 to [`LEVELS`].
    pub fn number(self) -> u8 {
        self.0
    }

    /// Whether this is the full engine.
    pub fn is_full(self) -> bool {
        self.0 == LEVELS
    }

    /// How it plays, or `None` for the full engine.
    pub fn profile(self) -> Option<&'static Profile> {
        PROFILES.get(usize::from(self.0) - 1)
    }

    /// A short name for people ("beginner" ... "full strength").
    pub fn name(self) -> &'static str {
        self.profile().map_or("full strength", |p| p.name)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = BadLevel;

    fn from_str(s: &str) -> Result<Level, BadLevel> {
        s.trim()
            .parse::<u64>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| BadLevel(s.to_string()))
    }
}

/// A level and the seed of its random choices in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// How strong.
    pub level: Level,
    /// The game's seed (see [`move_seed`]).
    pub seed: u64,
}

impl Strength {
    /// The full engine (the seed plays no part).
    pub const FULL: Strength = Strength {
        level: Level::FULL,
        seed: 0,
    };
}

/// The seed of the choice in `board` in a game seeded with `game_seed`: the same
/// position in the same game always gets the same answer, whatever happened before.
pub fn move_seed(game_seed: u64, board: &Board) -> u64 {
    Rng::new(game_seed ^ hash_of(board)).next_u64()
}

/// Scores are clamped to this before a mistake's size is measured, so that a forced
/// win or loss found by the search counts as a very large, but finite, difference.
const CLAMP: i32 = 5_000;
/// Finds a move for the side to move of `board` at `strength`. The full level is
/// `engine`'s own search within `limits` and `context`. A weakened level plays by its
/// [`Profile`] with a fresh engine of its own (so its answer depends only on the
/// position and the seed), taking from `limits` and `context` only the clock, the stop
/// flag, the moves already played and the root moves to choose among; it reports no
/// iterations. A weakened level
/// given no clock plays the same move on every machine, however busy: its budget is
/// counted in nodes.
pub fn search(
    engine: &mut Engine,
    board: &Board,
    strength: Strength,
    limits: Limits,
    context: Context,
) -> Report {
    match strength.level.profile() {
        None => engine.search_in(board, limits, context),
        Some(profile) => {
            let seed = move_seed(strength.seed, board);
            weakened(board, profile, seed, limits.time, context).report
        }
    }
}

/// What a weakened level chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move, its score by the level's own search, the depth and nodes used.
    pub report: Report,
    /// How much worse than its best the move is by its own scores, when the move was a
    /// deliberate mistake (`Some(0)`: a mistake was drawn, but the move is as good as
    /// the best).
    pub mistake: Option<i32>,
}

/// Plays one move by `profile` with the random choices drawn from `seed`, within
/// `time` (from now) if given.
///
/// First it draws whether this move is a mistake. A mistake is a move chosen at random
/// among those that a quick look (each root move searched [`MISTAKE_DEPTH`] plies)
/// scores no more than a drawn amount below the best. Otherwise the level plays its
/// best: by that look alone at depth 1, else by the engine's search bounded by the
/// profile's depth and nodes.
pub fn weakened(
    board: &Board,
    profile: &Profile,
    seed: u64,
    time: Option<Duration>,
    context: Context,
) -> Choice {
    let started = Instant::now();
    let deadline = time.and_then(|t| started.checked_add(t));
    let mut moves = rules::legal_moves(board);
    // UCI's searchmoves: choose among those of them that are legal, if any are.
    if moves.iter().any(|m| context.root_moves.contains(m)) {
        moves.retain(|m| context.root_moves.contains(m));
    }
    let mut report = Report {
        best: None,
        score: 0,
        depth: profile.depth,
        nodes: 0,
        seldepth: profile.depth,
    };
    if moves.is_empty() {
        report.score = eval_mut(&mut board.clone(), tunables(&context).weights());
        return Choice {
            report,
            mistake: None,
        };
    }
    let side = board.side_to_move();
    let captain = Some(Piece::new(side.opponent(), PieceKind::Captain));
    // Even a beginner sees that the game can be won now: the board shows the check.
    if let Some(&win) = moves.iter().find(|m| board.piece_at(m.to) == captain) {
        report.best = Some(win);
        report.score = MATE - 1;
        return Choice {
            report,
            mistake: None,
        };
    }

    let mut rng = Rng::new(seed);
    let mistake = rng.below(100) < profile.mistakes;
    if !mistake && profile.depth > 1 {
        let limits = Limits {
            depth: profile.depth,
            time: time.map(|t| t.saturating_sub(started.elapsed())),
            soft: None,
            nodes: Some(profile.nodes),
        };
        let inner = Context {
            moves_played: context.moves_played,
            stop: context.stop,
            root_moves: context.root_moves,
            tunables: context.tunables,
            evaluation: context.evaluation,
            ..Context::default()
        };
        let found = Engine::with_hash(SEARCH_MB).search_in(board, limits, inner);
        return Choice {
            report: found,
            mistake: None,
        };
    }

    let depth = profile.depth.min(MISTAKE_DEPTH);
    let (scored, nodes) = search::look(board, &moves, depth, LOOK_NODES, deadline, &context);
    report.nodes = nodes;
    report.depth = depth;
    report.seldepth = depth;
    let best = scored.iter().map(|&(_, s)| s).max().unwrap_or(0);
    let loss = |s: i32| best.clamp(-CLAMP, CLAMP) - s.clamp(-CLAMP, CLAMP);
    // A mistake: any move no more than a drawn amount below the best. Otherwise the
    // best, ties at random.
    let allowed = match (mistake, profile.largest) {
        (false, _) => 0,
        (true, ANY_MOVE) => i32::MAX,
        (true, largest) => rng.below(largest as u64 + 1) as i32,
    };
    let pool: Vec<(Move, i32)> = scored
        .iter()
        .copied()
        .filter(|&(_, s)| loss(s) <= allowed)
        // A limited mistake never walks into a forced loss the look has seen.
        .filter(|&(_, s)| profile.largest == ANY_MOVE || s == best || s > -MATE_BOUND)
        .collect();
    let (chosen, score) = pool[rng.index(pool.len())];
    report.best = Some(chosen);
    report.score = score;
    Choice {
        report,
        mistake: mistake.then(|| loss(score)),
    }
}

/// How deep the look at every root move goes when a mistake is chosen: the move, the
/// reply, and the captures after it, enough to see a piece left hanging.
pub const MISTAKE_DEPTH: u32 = 2;
/// The table of a weakened level's search, in megabytes: fresh for every move.
const SEARCH_MB: usize = 2;
/// The most nodes of the look at one root move, when a mistake is drawn (a depth-1
/// search and its captures).
pub const LOOK_NODES: u64 = 2_000;

/// The tunables a search under `context` uses.
fn tunables(context: &Context) -> Tunables {
    context.tunables.copied().unwrap_or_default()
}

/// The strength options of the UCI protocol: `Skill Level` (1 to [`LEVELS`]), and the
/// standard `UCI_LimitStrength` with `UCI_Elo`, which picks the strongest level whose
/// rating ([`ELO`]) is at most the one asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciStrength {
    skill: Level,
    limit: bool,
    elo: u32,
}

/// The nominal rating of levels 1 to [`LEVELS`] - 1 for `UCI_Elo`: level 1 is set at
/// 400, and each level above it adds the rating difference that its score against
/// the level below in `scripts/bench-levels.sh` stands for (capped at 400 a step;
/// measured: +800 or more, +436, +284, +107, +157, +168). A scale of this engine's
/// levels, not one measured against people.
pub const ELO: [u32; LEVELS as usize - 1] = [400, 800, 1200, 1484, 1591, 1748, 1916];

impl Default for UciStrength {
    fn default() -> UciStrength {
        UciStrength {
            skill: Level::FULL,
            limit: false,
            elo: ELO[ELO.len() - 1],
        }
    }
}

impl UciStrength {
    /// The level the options ask for.
    pub fn level(self) -> Level {
        if !self.limit {
            return self.skill;
        }
        let below = ELO.iter().filter(|&&e| e <= self.elo).count().max(1);
        Level(below as u8)
    }

    /// The `option` lines of the answer to `uci`.
    pub fn options() -> [String; 3] {
        [
            format!("option name Skill Level type spin default {LEVELS} min 1 max {LEVELS}"),
            "option name UCI_LimitStrength type check default false".to_string(),
            format!(
                "option name UCI_Elo type spin default {} min {} max {}",
                ELO[ELO.len() - 1],
                ELO[0],
                ELO[ELO.len() - 1]
            ),
        ]
    }

    /// Sets the option `name` (lower case) to `value`. `None` when `name` is not one of
    /// these options; `Some(Err)` says what is wrong with the value.
    pub fn set(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        let number = |min: u32, max: u32| match value.trim().parse::<u32>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!(
                "setoption {name}: expected a number {min} to {max}, found {value:?}"
            )),
        };
        Some(match name {
            "skill level" => number(1, u32::from(LEVELS)).map(|n| self.skill = Level(n as u8)),
            "uci_elo" => number(ELO[0], ELO[ELO.len() - 1]).map(|n| self.elo = n),
            "uci_limitstrength" => match value.trim().to_ascii_lowercase().as_str() {
                "true" | "false" => {
                    self.limit = value.trim().eq_ignore_ascii_case("true");
                    Ok(())
                }
                _ => Err(format!(
                    "setoption {name}: expected true or false, found {value:?}"
                )),
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_and_name() {
        assert_eq!("1".parse::<Level>(), Ok(Level::WEAKEST));
        assert_eq!(" 8 ".parse::<Level>(), Ok(Level::FULL));
        assert_eq!(
            "9".parse::<Level>().unwrap_err().to_string(),
            "level \"9\": expected a number from 1 to 8"
        );
        assert!("0".parse::<Level>().is_err());
        assert!("x".parse::<Level>().is_err());
        assert_eq!(Level::all().count(), usize::from(LEVELS));
        assert!(Level::FULL.profile().is_none());
        assert_eq!(Level::FULL.name(), "full strength");
        assert_eq!(Level::WEAKEST.name(), "beginner");
    }

    #[test]
    fn the_profiles_grow_stronger() {
        for pair in PROFILES.windows(2) {
            let (weak, strong) = (&pair[0], &pair[1]);
            assert!(strong.depth >= weak.depth, "{}", strong.name);
            assert!(strong.nodes >= weak.nodes, "{}", strong.name);
            assert!(strong.mistakes < weak.mistakes, "{}", strong.name);
            assert!(strong.largest < weak.largest, "{}", strong.name);
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_move() {
        for board in crate::engine::random_positions(11, 12) {
            for level in Level::all().filter(|l| !l.is_full()) {
                let profile = level.profile().unwrap();
                let a = weakened(&board, profile, 7, None, Context::default());
                let b = weakened(&board, profile, 7, None, Context::default());
                assert_eq!(a, b, "{board} at level {level}");
            }
        }
    }

    #[test]
    fn every_level_takes_a_captain_that_can_be_taken() {
        let board: Board = "4k4/9/9/9/9/9/9/9/9/R3K4 r".parse().unwrap();
        let mut after = board.clone();
        after.make_move(
            crate::judge::piece::Square::new(0, 0).unwrap(),
            crate::judge::piece::Square::new(9, 0).unwrap(),
        );
        // Blue moves its captain aside; red's car can take it on row 9.
        after.make_move(
            crate::judge::piece::Square::new(9, 4).unwrap(),
            crate::judge::piece::Square::new(9, 3).unwrap(),
        );
        for seed in 0..20 {
            let c = weakened(&after, &PROFILES[0], seed, None, Context::default());
            assert_eq!(c.report.best.map(|m| m.to.y()), Some(3), "seed {seed}");
        }
    }

    #[test]
    fn a_limited_mistake_never_leaves_the_captain_to_be_taken() {
        // Red's captain on (0, 4) beside a blue car on (1, 0): stepping up to row 1
        // walks into the car. Level 2 may make mistakes up to a car, never that one.
        let board: Board = "4k4/9/9/9/9/9/9/9/r8/4K4 r".parse().unwrap();
        for seed in 0..200 {
            let c = weakened(&board, &PROFILES[1], seed, None, Context::default());
            let m = c.report.best.unwrap();
            assert_ne!(m.to.x(), 1, "seed {seed}: {m}");
        }
    }

    #[test]
    fn mistakes_are_as_frequent_and_as_large_as_the_level_says() {
        let boards = crate::engine::random_positions(5, 40);
        for (i, profile) in PROFILES.iter().enumerate().skip(1) {
            let mut made = 0;
            for (n, board) in boards.iter().enumerate() {
                let c = weakened(board, profile, n as u64, None, Context::default());
                if let Some(size) = c.mistake {
                    made += 1;
                    assert!(size <= profile.largest, "level {}: {size}", i + 1);
                }
            }
            // 40 draws: within a generous band around the profile's rate.
            let expected = profile.mistakes as f64 * 0.4;
            assert!(
                (made as f64 - expected).abs() <= 4.0 + expected * 0.8,
                "level {}: {made} mistakes in 40, expected about {expected}",
                i + 1
            );
        }
    }

    #[test]
    fn uci_options_choose_the_level() {
        let mut u = UciStrength::default();
        assert_eq!(u.level(), Level::FULL);
        assert_eq!(u.set("skill level", "3"), Some(Ok(())));
        assert_eq!(u.level(), Level(3));
        assert!(matches!(u.set("skill level", "9"), Some(Err(_))));
        assert_eq!(u.set("hash", "3"), None);
        // UCI_Elo counts only with UCI_LimitStrength.
        assert_eq!(u.set("uci_elo", &ELO[1].to_string()), Some(Ok(())));
        assert_eq!(u.level(), Level(3));
        assert_eq!(u.set("uci_limitstrength", "true"), Some(Ok(())));
        assert_eq!(u.level(), Level(2));
        assert_eq!(u.set("uci_elo", &(ELO[1] + 1).to_string()), Some(Ok(())));
        assert_eq!(u.level(), Level(2));
        assert_eq!(u.set("uci_elo", &ELO[0].to_string()), Some(Ok(())));
        assert_eq!(u.level(), Level::WEAKEST);
        assert!(matches!(u.set("uci_elo", "5"), Some(Err(_))));
        assert!(matches!(u.set("uci_limitstrength", "maybe"), Some(Err(_))));
        for pair in ELO.windows(2) {
            assert!(pair[0] < pair[1]);
        }
    }
}
