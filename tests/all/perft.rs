//! Perft golden numbers (computed by two independent engines) and the `perft` command.

use duckchess::engine::perft::{divide, perft};
use duckchess::judge::board::Board;
use std::process::{Command, Output};

const SECOND: &str = "4k4/9/9/2D6/9/9/4R4/3h5/9/4K4 r";

#[test]
fn start_position_depths_1_to_4() {
    let mut board = Board::start();
    let expected = [1, 43, 1_849, 80_066, 3_466_638];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(perft(&mut board, depth as u32), count, "depth {depth}");
    }
    assert_eq!(board, Board::start(), "perft restores the board");
}

#[test]
fn second_position_depths_1_to_3() {
    let mut board: Board = SECOND.parse().unwrap();
    for (depth, count) in [(1, 24), (2, 238), (3, 5_126)] {
        assert_eq!(perft(&mut board, depth), count, "depth {depth}");
    }
}

#[test]
fn finished_game_has_no_moves() {
    // Blue's captain is gone: nothing moves, whoever is to move.
    for side in ["r", "b"] {
        let mut board: Board = format!("9/9/9/9/9/9/9/9/9/4K4 {side}").parse().unwrap();
        assert_eq!(perft(&mut board, 1), 0);
        assert_eq!(perft(&mut board, 3), 0);
        assert_eq!(perft(&mut board, 0), 1);
    }
}

#[test]
fn captain_capture_is_a_leaf_without_children() {
    // The red car can take the blue captain; after that nothing moves, so at depth 2
    // that branch contributes nothing while at depth 1 it is one leaf.
    let mut board: Board = "4k4/9/9/9/9/9/9/9/9/4RK3 r".parse().unwrap();
    let split = divide(&mut board, 2);
    let take = split
        .iter()
        .find(|(m, _)| m.to.x() == 9 && m.to.y() == 4)
        .expect("the car can take the captain");
    assert_eq!(take.1, 0);
    let leaves: u64 = split.iter().map(|(_, c)| c).sum();
    assert_eq!(leaves, perft(&mut board, 2));
    let one = divide(&mut board, 1);
    assert!(one.iter().all(|(_, c)| *c == 1));
    assert_eq!(one.len() as u64, perft(&mut board, 1));
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn cli_counts() {
    let o = run(&["perft", "3"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "80066\n");
    let o = run(&["perft", "2", "--from", SECOND]);
    assert_eq!(stdout(&o), "238\n");
    let o = run(&["perft", "--from=", "1"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an empty position is a usage error"
    );
    assert!(stderr(&o).contains("--from: empty position"));
}

#[test]
fn cli_divide() {
    let o = run(&["perft", "2", "--divide"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 44, "43 first moves and the total");
    assert_eq!(lines[43], "total: 1849");
    let mut sum = 0;
    for line in &lines[..43] {
        let (mv, count) = line.split_once(": ").expect("'xs ys xt yt: count'");
        assert_eq!(mv.split(' ').count(), 4, "{line}");
        sum += count.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 1849);
    // The horse on (0, 1) jumping to (2, 2) is one of red's first moves.
    assert!(lines.contains(&"0 1 2 2: 43"), "{text}");

    let o = run(&["perft", "1", "--divide", "--from", SECOND]);
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 25);
    assert!(text.ends_with("total: 24\n"));
}

#[test]
fn cli_time_line() {
    let o = run(&["perft", "1", "--time"]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "43");
    assert!(
        lines[1].starts_with("time: ") && lines[1].ends_with(" nodes/s"),
        "{text}"
    );
}

#[test]
fn cli_bad_input() {
    for depth in ["x", "-1", "1.5", "33", ""] {
        let o = run(&["perft", depth]);
        assert_eq!(o.status.code(), Some(2), "depth {depth:?}");
        let err = stderr(&o);
        assert!(err.starts_with("duckchess: perft: DEPTH"), "{err}");
        assert_eq!(err.lines().count(), 1);
        assert!(o.stdout.is_empty());
    }
    let o = run(&["perft"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing DEPTH"));

    let o = run(&["perft", "1", "--from", "4k4/9/9/2X6/9/9/4R4/3h5/9/4K4 r"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.starts_with(
            "duckchess: perft: --from: rank 4 (row 6), column 2: unexpected character 'X'"
        ),
        "{err}"
    );
    let o = run(&["perft", "1", "--from", "4k4/9 r"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("2 ranks, expected 10"));
    let o = run(&["perft", "1", "--bogus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown option --bogus"));
}

#[test]
fn cli_help() {
    let o = run(&["perft", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("duckchess perft:"));
}
