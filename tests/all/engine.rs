//! The computer opponent on small hand-made positions, with fixed-depth searches so the
//! answers do not depend on the machine's speed, and the arena's players.

use duckchess::engine::search::{self, Limits, MATE};
use duckchess::judge::board::Board;
use duckchess::judge::piece::{Color, Square};
use duckchess::judge::rules::{self, Move};
use duckchess::play::arena::{self, End, Kind, Player};
use duckchess::sys::rng::Rng;
use std::time::Duration;

fn board(text: &str) -> Board {
    text.parse().expect("test positions are valid")
}

fn sq(x: i64, y: i64) -> Square {
    Square::new(x, y).unwrap()
}

/// Whether the side to move can take the opposing captain right now.
fn can_take_captain(b: &Board) -> bool {
    let side = b.side_to_move();
    match b.captain(side.opponent()) {
        Some(c) => rules::is_attacked(b, c, side),
        None => false,
    }
}

/// Whether playing `m` leaves the mover's captain capturable at once.
fn exposes_captain(b: &Board, m: Move) -> bool {
    let mut after = b.clone();
    after.make_move(m.from, m.to);
    !after.is_over() && can_take_captain(&after)
}

#[test]
fn takes_the_captain_in_one() {
    // The red car on (1, 4) can take the blue captain on (9, 4) or the blue car on
    // (1, 8); only the captain matters.
    let b = board("4k4/9/9/9/9/9/9/9/4R3r/3K5 r");
    for depth in 1..=3 {
        let r = search::search_depth(&b, depth);
        assert_eq!(
            r.best,
            Some(Move {
                from: sq(1, 4),
                to: sq(9, 4)
            }),
            "depth {depth}"
        );
        assert_eq!(r.score, MATE - 1);
        assert_eq!(r.mate_in(), Some(1));
    }
    let r = search::search_time(&b, Duration::from_millis(5));
    assert_eq!(
        r.best,
        Some(Move {
            from: sq(1, 4),
            to: sq(9, 4)
        })
    );
}

#[test]
fn avoids_losing_the_captain_in_one() {
    // The blue car on (5, 4) attacks the red captain on (0, 4). Taking the blue horse
    // on (3, 8) with the red car would lose the captain; stepping aside or blocking
    // with the car on (3, 4) saves it.
    let b = board("8k/9/9/9/4r4/9/R7h/9/9/4K4 r");
    assert!(rules::is_attacked(&b, sq(0, 4), Color::Blue));
    for depth in 1..=4 {
        let r = search::search_depth(&b, depth);
        let m = r.best.expect("red has moves");
        assert!(
            !exposes_captain(&b, m),
            "depth {depth}: {m} loses the captain"
        );
        assert!(
            r.score > -search::MATE / 2,
            "depth {depth}: red is not lost"
        );
    }
}

#[test]
fn finds_a_two_move_win() {
    // The blue captain on (9, 4) is walled in by its own guards and elephant. The red
    // horse goes to (7, 3) or (7, 5), attacking it, and nothing blue has can block the
    // horse's leg or take it: red takes the captain next move.
    let b = board("3gkg3/4e4/9/9/4H4/9/9/9/9/4K4 r");
    assert!(!can_take_captain(&b));
    let r = search::search_depth(&b, 3);
    assert_eq!(r.mate_in(), Some(3), "{r:?}");
    let m = r.best.expect("red has moves");
    assert_eq!(m.from, sq(5, 4));
    assert!(m.to == sq(7, 3) || m.to == sq(7, 5), "{m}");
    // Whatever blue answers, red can then take the captain.
    let mut after = b.clone();
    after.make_move(m.from, m.to);
    let replies = rules::legal_moves(&after);
    assert!(!replies.is_empty());
    for reply in replies {
        let captured = after.make_move(reply.from, reply.to);
        assert!(can_take_captain(&after), "blue escapes with {reply}");
        let r2 = search::search_depth(&after, 1);
        let win = r2.best.expect("red has moves");
        assert_eq!(
            after.piece_at(win.to).map(|p| p.kind.name()),
            Some("captain")
        );
        after.unmake_move(reply.from, reply.to, captured);
    }
}

#[test]
fn sees_a_forced_loss_and_delays_it() {
    // Same wall as above, seen from blue after the red horse arrived on (7, 3): every
    // blue move loses the captain, and the search says so.
    let b = board("3gkg3/4e4/3H5/9/9/9/9/9/9/4K4 b");
    let r = search::search_depth(&b, 2);
    assert_eq!(r.mate_in(), Some(-2), "{r:?}");
    assert!(r.best.is_some(), "a lost side still moves");
}

#[test]
fn finished_and_stuck_games_have_no_move() {
    let over = board("9/9/9/9/9/9/9/9/9/4K4 b");
    assert_eq!(search::search_depth(&over, 3).best, None);
    let mut rng = Rng::new(1);
    assert_eq!(arena::greedy(&over, &mut rng), None);
}

#[test]
fn fixed_depth_is_deterministic() {
    let b = Board::start();
    let a = search::search_depth(&b, 3);
    let c = search::search_depth(&b, 3);
    assert_eq!(a, c);
    assert_eq!(a.depth, 3);
    assert!(a.best.is_some());
}

/// Positions met along random games where a captain can be taken, or where some move
/// would leave the mover's captain capturable.
fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::start();
        for _ in 0..rng.below(80) + 10 {
            let moves = rules::legal_moves(&b);
            match rng.pick(&moves) {
                Some(m) => {
                    b.make_move(m.from, m.to);
                }
                None => break,
            }
        }
        let moves = rules::legal_moves(&b);
        if !b.is_over() && (can_take_captain(&b) || moves.iter().any(|&m| exposes_captain(&b, m))) {
            out.push(b);
        }
    }
    out
}

#[test]
fn always_takes_a_captain_and_never_exposes_its_own_needlessly() {
    let (mut takes, mut dangers) = (0, 0);
    for (i, b) in random_positions(40, 7).iter().enumerate() {
        let moves = rules::legal_moves(b);
        if moves.iter().any(|&x| exposes_captain(b, x)) {
            dangers += 1;
        }
        let r = search::search_depth(b, 2);
        let m = r.best.expect("random positions have moves");
        if can_take_captain(b) {
            takes += 1;
            assert!(
                b.piece_at(m.to).map(|p| p.kind.name()) == Some("captain"),
                "position {i} {b}: {m} does not take the captain"
            );
        } else if moves.iter().any(|&x| !exposes_captain(b, x)) {
            assert!(
                !exposes_captain(b, m),
                "position {i} {b}: {m} exposes the captain"
            );
        }
    }
    // The sample must exercise both rules.
    assert!(
        takes >= 5 && dangers >= 20,
        "takes {takes}, dangers {dangers}"
    );
}

#[test]
fn greedy_takes_the_most_valuable_piece() {
    // The red car on (4, 4) can take a blue soldier (4, 0), a blue horse (4, 8) or
    // the blue car (8, 4); it takes the car.
    let b = board("k8/4r4/9/9/9/s3R3h/9/9/9/K8 r");
    let mut rng = Rng::new(3);
    for _ in 0..5 {
        let m = arena::greedy(&b, &mut rng).unwrap();
        assert_eq!((m.from, m.to), (sq(4, 4), sq(8, 4)));
    }
}

#[test]
fn arena_games_finish() {
    for seed in 0..4 {
        let mut red = Player::new(Kind::Random, Limits::depth(1), seed);
        let mut blue = Player::new(Kind::Greedy, Limits::depth(1), seed + 100);
        let o = arena::play_game(Board::start(), &mut red, &mut blue).unwrap();
        assert!(o.moves <= arena::MAX_MOVES);
        match o.end {
            End::Capture => assert!(o.winner.is_some()),
            _ => assert_eq!(o.winner, None),
        }
    }
    // A shallow search already beats a random mover.
    let mut red = Player::new(Kind::Ai, Limits::depth(2), 0);
    let mut blue = Player::new(Kind::Random, Limits::depth(2), 5);
    let o = arena::play_game(Board::start(), &mut red, &mut blue).unwrap();
    assert_eq!(o.winner, Some(Color::Red), "{o:?}");
}

#[test]
fn arena_openings_make_deterministic_games_differ() {
    use duckchess::play::arena::{start_of, ArenaSetup};
    let setup = ArenaSetup {
        players: [Kind::Ai, Kind::Ai],
        limits: Limits::depth(2),
        seed: 1,
        opening: 2,
    };
    let starts: Vec<Board> = (1..=10).map(|i| start_of(&setup, i).0).collect();
    let mut distinct = starts.clone();
    distinct.sort_by_key(|b| b.to_string());
    distinct.dedup();
    assert!(distinct.len() >= 8, "{} distinct openings", distinct.len());
    for b in &starts {
        // Two quiet moves: red to move again, every piece still there, no captain
        // hanging.
        assert_eq!(b.side_to_move(), Color::Red);
        assert_eq!(b.pieces().count(), Board::start().pieces().count());
        let red = b.captain(Color::Red).unwrap();
        assert!(!rules::is_attacked(b, red, Color::Blue));
    }
    // The same run gives the same games; no opening means the start position.
    assert_eq!(start_of(&setup, 3), start_of(&setup, 3));
    let none = ArenaSetup {
        opening: 0,
        ..setup
    };
    assert_eq!(start_of(&none, 3), (Board::start(), 0));
}

/// Each search owns its tunables: with process-wide values, one search's settings would
/// reach the other (here on two threads at once). Each must play as if it were alone.
#[test]
fn two_searches_with_different_tunables_do_not_affect_each_other() {
    use duckchess::engine::search::{Context, Engine};
    use duckchess::engine::tunables::Tunables;
    let position = board("2e1kg3/3r5/d3eg3/4h4/3s1ds2/1S1D5/3S5/2H1H4/7R1/2EGKGE2 r");
    let mut changed = Tunables::default();
    changed.set("Value Car", 100);
    changed.set("Mobility", 40);
    changed.set("Reduction", 50);
    let run = |t: Option<&Tunables>| {
        let context = Context {
            tunables: t,
            ..Context::default()
        };
        Engine::new().search_in(&position, Limits::nodes(20_000), context)
    };
    let alone = run(None);
    let other = run(Some(&changed));
    assert_ne!(alone, other, "the settings change the search");
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| run(None));
        let b = scope.spawn(|| run(Some(&changed)));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(a, alone);
    assert_eq!(b, other);
    assert_eq!(run(None), alone);
}

/// Each search owns its evaluation too (the UCI options `Use NNUE` and `EvalFile` of
/// one session): a search with the hand-written evaluation beside one with the network
/// plays as each would alone.
#[test]
fn two_searches_with_different_evaluations_do_not_affect_each_other() {
    use duckchess::engine::nnue::Evaluation;
    use duckchess::engine::search::{Context, Engine};
    let position = board("2e1kg3/3r5/d3eg3/4h4/3s1ds2/1S1D5/3S5/2H1H4/7R1/2EGKGE2 r");
    let classic = Evaluation {
        classic: true,
        file: None,
    };
    let run = |e: Option<&Evaluation>| {
        let context = Context {
            evaluation: e,
            ..Context::default()
        };
        Engine::new().search_in(&position, Limits::nodes(20_000), context)
    };
    let network = run(None);
    assert_eq!(
        run(Some(&Evaluation::default())),
        network,
        "the default is the network"
    );
    let hand = run(Some(&classic));
    assert_ne!(network, hand, "the evaluation changes the search");
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| run(None));
        let b = scope.spawn(|| run(Some(&classic)));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(a, network);
    assert_eq!(b, hand);
}
