//! The computer's playing strengths: the ladder on a small seeded sample of arena
//! games (levels 1-7 play by node counts and seeded mistakes, so the sample is the same
//! on every machine), and the levels through `play`, `arena` and `uci`.

use crate::common;

use duckchess::engine::search::Limits;
use duckchess::judge::piece::Color;
use duckchess::play::arena::{self, ArenaSetup, Kind};
use duckchess::play::level::Level;

/// The score of `upper` against `lower` over `games` games with each colour, in half
/// points (a win 2, a draw 1), and the games' count of wins, losses and draws.
fn score(upper: Kind, lower: Kind, games: u64, seed: u64) -> (u64, [u64; 3]) {
    let mut record = [0u64; 3];
    for (players, upper_side) in [([upper, lower], Color::Red), ([lower, upper], Color::Blue)] {
        let setup = ArenaSetup {
            players,
            limits: Limits::depth(2),
            seed,
            opening: 2,
        };
        for index in 1..=games {
            let outcome = arena::play_indexed(&setup, index).expect("legal games");
            match outcome.winner {
                Some(w) if w == upper_side => record[0] += 1,
                Some(_) => record[1] += 1,
                None => record[2] += 1,
            }
        }
    }
    (2 * record[0] + record[2], record)
}

fn level(n: u64) -> Kind {
    Kind::Level(Level::new(n).expect("a level"))
}

#[test]
#[ignore = "slow (about 10 s: arena games): the full tier runs it"]
fn each_level_beats_a_weaker_one_and_level_one_loses_to_greedy() {
    // Greedy (the most valuable capture, else a random move) beats level 1.
    let (points, record) = score(level(1), Kind::Greedy, 8, 3);
    assert!(
        points < 16,
        "level 1 against greedy: {record:?} (won, lost, drawn)"
    );
    assert!(
        record[1] > record[0] * 2,
        "level 1 against greedy: {record:?}"
    );
    for (upper, lower, games) in [(2, 1, 6), (4, 2, 4), (6, 4, 5)] {
        let (points, record) = score(level(upper), level(lower), games, 3);
        let most = 4 * games;
        assert!(
            points * 10 >= most * 7 && record[0] > record[1],
            "level {upper} against level {lower}: {record:?} (won, lost, drawn)"
        );
    }
}

#[test]
fn a_seeded_arena_game_is_the_same_game_again() {
    let setup = ArenaSetup {
        players: [level(3), level(2)],
        limits: Limits::depth(2),
        seed: 11,
        opening: 2,
    };
    let first = arena::play_indexed(&setup, 1).unwrap();
    assert_eq!(arena::play_indexed(&setup, 1).unwrap(), first);
}

#[test]
fn arena_takes_levels_by_name() {
    assert_eq!("level3".parse::<Kind>(), Ok(level(3)));
    assert_eq!(level(3).to_string(), "level3");
    let bad = "level9".parse::<Kind>().unwrap_err().to_string();
    assert_eq!(
        bad,
        "unknown player \"level9\": expected ai, random, greedy or level1 to level8"
    );
    let out = common::run(
        &[
            "arena", "--red", "level2", "--blue", "level1", "--games", "2", "--seed", "4",
        ],
        b"",
    );
    assert!(out.status.success());
    let text = common::stdout(&out);
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("red wins "),
        "{text}"
    );
    let out = common::run(&["arena", "--red", "level0", "--blue", "ai"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out).starts_with("duckchess: arena: --red: unknown player \"level0\""),
        "{}",
        common::stderr(&out)
    );
}

#[test]
fn play_at_a_level_with_a_seed_replays_the_same_game() {
    let script = b"3 4 4 4\n3 0 4 0\nhistory\nquit\n";
    let args = [
        "play", "--blue", "ai", "--level", "2", "--seed", "7", "--ascii",
    ];
    let first = common::run(&args, script);
    assert!(first.status.success());
    let text = common::stdout(&first);
    assert!(
        text.starts_with(
            "duck chess: red human, blue ai; the computer at level 2 (novice), seed 7"
        ),
        "{text}"
    );
    assert!(text.contains("move 2 (ai): blue"), "{text}");
    assert_eq!(common::stdout(&common::run(&args, script)), text);

    let out = common::run(&["play", "--blue", "ai", "--level", "9"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out)
            .starts_with("duckchess: play: --level: level \"9\": expected a number from 1 to 8"),
        "{}",
        common::stderr(&out)
    );
}

#[test]
fn people_meet_one_beatable_level_first_and_engines_the_full_one() {
    assert_eq!(Level::DEFAULT, Level::new(3).expect("a level"));
    // play without --level: the default level, named at the start.
    let out = common::run(&["play", "--blue", "ai", "--seed", "1"], b"quit\n");
    assert!(
        common::stdout(&out).starts_with(
            "duck chess: red human, blue ai; the computer at level 3 (casual), seed 1"
        ),
        "{}",
        common::stdout(&out)
    );
    // A thinking time or a depth is for the full engine, which says no level but its
    // limit.
    let out = common::run(&["play", "--blue", "ai", "--depth", "1"], b"quit\n");
    assert!(common::stdout(&out).starts_with(
        "duck chess: red human, blue ai; the computer at full strength, depth 1 (type help"
    ));
    let out = common::run(&["play", "--blue", "ai", "--movetime", "300"], b"quit\n");
    assert!(common::stdout(&out).starts_with(
        "duck chess: red human, blue ai; the computer at full strength, 300 ms a move (type"
    ));
    // A level with no computer side is a mistake, not a silent no-op.
    let out = common::run(&["play", "--level", "3"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).starts_with(
        "duckchess: play: --level N sets the computer's strength: give it a side too"
    ));
    // The page starts at the same level.
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/web/page/game.js"))
            .expect("the page's module of the game");
    let wanted = format!(
        "export const DEFAULT_LEVEL = '{}';",
        Level::DEFAULT.number()
    );
    assert!(page.contains(&wanted), "game.js should say {wanted}");
}

#[test]
fn uci_offers_the_strength_options() {
    let script = "uci\nsetoption name Skill Level value 1\nposition startpos\ngo depth 4\n\
                  setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 3\n\
                  setoption name Skill Level value 0\nisready\nquit\n";
    let out = common::run(&["uci"], script.as_bytes());
    assert!(out.status.success());
    let text = common::stdout(&out);
    for option in [
        "option name Skill Level type spin default 8 min 1 max 8",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default ",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(option)),
            "{option}: {text}"
        );
    }
    assert!(text.contains("\nbestmove "), "{text}");
    assert!(
        text.contains("info string setoption uci_elo: expected a number"),
        "{text}"
    );
    assert!(
        text.contains("info string setoption skill level: expected a number 1 to 8, found \"0\""),
        "{text}"
    );
    assert!(text.ends_with("readyok\n"), "{text}");
}

/// What each weakened level searches is what its documentation says: on a move it plays
/// its best, the profile's nodes (passed by less than `CHECK_EVERY`, how often the
/// search looks at its cap); on a move where it draws a mistake, the quick look at
/// every root move, at most `LOOK_NODES` a root move (and one for each).
#[test]
fn each_level_searches_within_its_documented_budget() {
    use duckchess::engine::alphabeta::CHECK_EVERY;
    use duckchess::engine::search::Context;
    use duckchess::generate::position::random_position;
    use duckchess::judge::rules;
    use duckchess::play::level::{weakened, LOOK_NODES, PROFILES};
    use duckchess::sys::rng::Rng;
    let mut rng = Rng::new(2019);
    let boards: Vec<_> = (0..6).map(|_| random_position(&mut rng, 60)).collect();
    let (mut best, mut mistakes) = (0, 0);
    for profile in PROFILES.iter().filter(|p| p.depth > 1) {
        for board in &boards {
            let roots = rules::legal_moves(board).len() as u64;
            for seed in 0..8 {
                let choice = weakened(board, profile, seed, None, Context::default());
                let nodes = choice.report.nodes;
                match choice.mistake {
                    None => {
                        best += 1;
                        let most = profile.nodes + CHECK_EVERY;
                        assert!(nodes < most, "{}: {nodes} nodes", profile.name);
                    }
                    Some(_) => {
                        mistakes += 1;
                        let most = roots * (LOOK_NODES + 1);
                        assert!(nodes <= most, "{}: {nodes} nodes", profile.name);
                    }
                }
            }
        }
    }
    assert!(
        best > 0 && mistakes > 0,
        "{best} best moves, {mistakes} mistakes"
    );
}
