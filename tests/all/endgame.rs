//! The engine's endgames and hard limits, bounded by node counts (never by the clock):
//! forced captain captures found and carried out, a lone captain hunted down well
//! before the 300-move draw, repetitions avoided when winning, and every search, on
//! any position, answering with a legal move under a node cap or an immediate stop.

use duckchess::engine::search::{self, Context, Engine, Limits, Report, MOVE_LIMIT};
use duckchess::generate::position;
use duckchess::judge::board::Board;
use duckchess::judge::piece::Color;
use duckchess::judge::rules;
use duckchess::sys::rng::Rng;
use std::sync::atomic::AtomicBool;

fn board(text: &str) -> Board {
    text.parse().expect("test positions are valid")
}

/// Two positions that once took seconds at depth 1 and minutes at
/// 100 ms: boards full of mutual attacks.
const WILD: [&str; 2] = [
    "9/7k1/5h1E1/s2S3D1/2K2h3/1H1h3D1/hHdGesSS1/r1SS5/1Grd4e/4Rs3 r",
    "E8/D4r1kh/ddSDSh1E1/s2S2DD1/r1K2h2E/eH1h2gD1/hHdGesSSE/r1SS5/1Grd4e/4Rs1H1 r",
];

/// Plays `board` out with one engine per side, each searching `nodes` nodes a move,
/// repetitions known to both; returns the winner and the number of moves played.
fn play_out(start: &Board, nodes: u64, max_moves: u32) -> (Option<Color>, u32) {
    let mut engines = [Engine::with_hash(4), Engine::with_hash(4)];
    let mut b = start.clone();
    let mut history: Vec<Board> = Vec::new();
    for played in 0..max_moves {
        if b.is_over() {
            return (b.winner(), played);
        }
        let side = b.side_to_move().index();
        let context = Context {
            history: &history,
            moves_played: played,
            ..Context::default()
        };
        let r = engines[side].search_in(&b, Limits::nodes(nodes), context);
        let m = r.best.expect("a side with a captain has moves here");
        assert!(rules::legal_moves(&b).contains(&m), "{m} in {b}");
        history.push(b.clone());
        b.make_move(m.from, m.to);
    }
    (b.winner(), max_moves)
}

#[test]
fn mates_are_found_at_their_distance() {
    // (position, plies to the captain capture for the side to move)
    let table: [(&str, i32); 4] = [
        // The car takes the captain at once.
        ("4k4/9/9/9/9/9/9/9/4R3r/3K5 r", 1),
        // The horse attacks the walled-in captain; nothing can parry.
        ("3gkg3/4e4/9/9/4H4/9/9/9/9/4K4 r", 3),
        // Blue to move, every move loses to the horse on (7, 3).
        ("3gkg3/4e4/3H5/9/9/9/9/9/9/4K4 b", -2),
        // Two cars against a captain on the back row: the one on row 7 goes to row
        // 9 and attacks it, the other keeps row 8, and every escape is covered.
        ("4k4/R8/1R7/9/9/9/9/9/9/4K4 r", 3),
    ];
    for (text, plies) in table {
        let b = board(text);
        let r = search::search_depth(&b, 6);
        assert_eq!(r.mate_in(), Some(plies), "{text}: {r:?}");
        let m = r.best.expect("a move");
        assert!(rules::legal_moves(&b).contains(&m));
    }
}

#[test]
fn forced_captures_are_carried_out() {
    // From a mate-in-3 position, with the engine on both sides, red takes the captain
    // on its second move.
    let (winner, moves) = play_out(&board("4k4/R8/1R7/9/9/9/9/9/9/4K4 r"), 50_000, 10);
    assert_eq!((winner, moves), (Some(Color::Red), 3));
}

#[test]
fn a_lone_captain_is_hunted_down() {
    // One piece and the captain against a lone captain: the stronger side must take
    // the captain long before the move limit, not shuffle. The node budget is small
    // (a few milliseconds a move), so this is about the plan, not deep search.
    let table = [
        "4k4/9/9/9/9/9/9/9/R8/4K4 r",
        "4k4/9/9/9/9/9/9/9/9/3SK4 r",
        "4k4/9/9/9/9/9/9/9/9/H3K4 r",
        "9/9/9/9/4k4/9/9/9/9/R3K4 b",
        "4K4/9/9/9/9/9/9/9/9/2r1k4 r",
    ];
    for text in table {
        let b = board(text);
        let stronger = if text.contains('R') || text.contains('S') || text.contains('H') {
            Color::Red
        } else {
            Color::Blue
        };
        let (winner, moves) = play_out(&b, 30_000, 120);
        assert_eq!(
            winner,
            Some(stronger),
            "{text}: no capture in {moves} moves"
        );
    }
}

#[test]
fn an_army_against_a_lone_captain_converts() {
    // A whole army against a lone captain, which the search once shuffled to a draw.
    let b = board("4k4/9/9/9/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r");
    let (winner, moves) = play_out(&b, 30_000, 100);
    assert_eq!(winner, Some(Color::Red), "no capture in {moves} moves");
}

#[test]
fn the_move_limit_is_known_to_the_search() {
    // Red can take a blue car, but only 1 move remains before the 300-move draw: the
    // score is a draw whatever is played.
    let b = board("4k4/9/9/9/9/9/9/9/R7r/4K4 r");
    let mut e = Engine::new();
    let near_end = Context {
        moves_played: MOVE_LIMIT - 1,
        ..Context::default()
    };
    let r = e.search_in(&b, Limits::depth(4), near_end);
    assert_eq!(r.score, 0, "{r:?}");
    let r = e.search_in(&b, Limits::depth(4), Context::default());
    assert!(r.score > 300, "{r:?}");
}

/// Checks that `r` carries a legal move of `b`.
fn answers(b: &Board, r: &Report) {
    let m = r.best.expect("a position with moves gets a move");
    assert!(rules::legal_moves(b).contains(&m), "{m} in {b}");
}

#[test]
fn wild_positions_answer_within_a_node_cap() {
    for text in WILD {
        let b = board(text);
        for nodes in [1, 100, 5_000, 50_000] {
            let r = Engine::new().search(&b, Limits::nodes(nodes));
            answers(&b, &r);
            // The cap is looked at every 256 nodes.
            assert!(
                r.nodes < nodes + 256,
                "{text}: {} nodes for {nodes}",
                r.nodes
            );
        }
        // A depth search is node-capped too (by DEPTH_NODE_CAP unless told less).
        let deep = Limits::depth(40);
        assert_eq!(deep.nodes, Some(search::DEPTH_NODE_CAP));
        let r = Engine::new().search(
            &b,
            Limits {
                nodes: Some(20_000),
                ..deep
            },
        );
        answers(&b, &r);
        assert!(r.nodes < 20_000 + 256);
    }
}

#[test]
fn a_search_stopped_before_it_starts_still_answers() {
    let stop = AtomicBool::new(true);
    let mut positions: Vec<Board> = WILD.iter().map(|t| board(t)).collect();
    positions.push(Board::start());
    for b in &positions {
        let context = Context {
            stop: Some(&stop),
            ..Context::default()
        };
        let r = Engine::new().search_in(b, Limits::depth(10), context);
        answers(b, &r);
        assert!(r.nodes <= 256, "{} nodes after the stop", r.nodes);
    }
}

#[test]
fn the_fallback_does_not_hand_over_the_captain() {
    // The blue car attacks the red captain; a search stopped at once must still step
    // aside or block, not play the first move generated.
    let b = board("8k/9/9/9/4r4/9/R7h/9/9/4K4 r");
    let stop = AtomicBool::new(true);
    let context = Context {
        stop: Some(&stop),
        ..Context::default()
    };
    let r = Engine::new().search_in(&b, Limits::depth(5), context);
    let m = r.best.expect("a move");
    let mut after = b.clone();
    after.make_move(m.from, m.to);
    let captain = after.captain(Color::Red).expect("the captain stands");
    assert!(!rules::is_attacked(&after, captain, Color::Blue), "{m}");
}

#[test]
fn random_positions_always_get_a_legal_move() {
    let mut rng = Rng::new(12);
    for _ in 0..30 {
        let b = position::random_position(&mut rng, 120);
        if rules::legal_moves(&b).is_empty() {
            continue;
        }
        let r = Engine::with_hash(1).search(&b, Limits::nodes(3_000));
        answers(&b, &r);
    }
}
