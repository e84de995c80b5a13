//! The `play` and `arena` commands through the binary, with scripted standard input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The output without the board diagrams (lines starting with a row or column number).
fn narrative(o: &Output) -> Vec<String> {
    text(&o.stdout)
        .lines()
        .filter(|l| !l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

fn temp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", std::process::id()))
}

#[test]
fn play_a_scripted_game() {
    let file = temp("scripted.txt");
    let file = file.to_str().unwrap();
    let script = format!(
        "0 1 2 2\n\
         moves 9 1\n\
         0 0 5 0\n\
         9 0 7 0\n\
         1 1 1\n\
         hello\n\
         9 1 7 2\n\
         undo\n\
         9 1 7 2\n\
         save {file}\n\
         new\n\
         load {file}\n\
         resign\n\
         0 0 1 0\n\
         quit\n\
         0 0 1 0\n"
    );
    let o = run(&["play"], &script);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
    let lines = narrative(&o);
    let expect = [
        "red> 0 1 2 2",
        "move 1: red horse 0 1 2 2",
        "blue> moves 9 1",
        "blue horse on (9, 1) can go to (7, 2)",
        "blue> 0 0 5 0",
        "invalid move 0 0 5 0: the piece on (0, 0) is the opponent's (red car)",
        "blue> 9 0 7 0",
        "invalid move 9 0 7 0: the target holds an own piece (blue duck)",
        "\"1 1 1\" has 3 numbers, and a move has four: xs ys xt yt, as 0 1 2 2",
        "unknown command \"hello\" (type help for the list)",
        "move 2: blue horse 9 1 7 2",
        "took back 1 move",
        "move 2: blue horse 9 1 7 2",
        &format!("saved 2 moves to {file}"),
        "new game",
        &format!("loaded {file}: 2 moves"),
        "red resigns",
        "game over: red resigned, blue wins",
        "game over> 0 0 1 0",
        "the game is over: undo, new, load or quit",
        "game over> quit",
        "goodbye",
    ];
    let mut at = 0;
    for e in expect {
        match lines[at..].iter().position(|l| l == e) {
            Some(i) => at += i + 1,
            None => panic!("missing {e:?} after line {at} in:\n{}", lines.join("\n")),
        }
    }
    // Nothing after quit is read.
    assert_eq!(lines.last().map(String::as_str), Some("goodbye"));
    // The highlighted target of `moves 9 1` is (7, 2), shown in parentheses; the
    // right edge names the ranks as UCI does.
    let out = text(&o.stdout);
    assert!(out.contains(" 7  d  . (.) .  .  .  .  .  d  8"), "{out}");

    // The saved file is the start position and then a judge input.
    let saved = std::fs::read_to_string(file).unwrap();
    assert_eq!(
        saved,
        "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r\n2\n0 1 2 2\n9 1 7 2\n"
    );
    let judge_input: String = saved.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let j = run(&["judge"], &judge_input);
    assert_eq!(text(&j.stdout), "red horse;NA;no;no\nblue horse;NA;no;no\n");
    let _ = std::fs::remove_file(file);
}

#[test]
fn play_reports_check_capture_and_the_winner() {
    // The statement's sample, through the prompt: the same reasons and results.
    let moves = "0 0 7 0\n0 3 1 2\n9 4 8 4\n3 2 2 3\n9 2 7 4\n2 0 4 3\n9 1 8 3\n\
                 4 3 6 6\n8 4 9 4\n6 6 9 4\n9 8 8 8\n";
    let o = run(&["play"], moves);
    assert_eq!(o.status.code(), Some(0));
    let lines = narrative(&o);
    for e in [
        "invalid move 0 0 7 0: the car is blocked at (2, 0)",
        "move 7: red duck 4 3 6 6, takes blue soldier",
        "move 8: blue captain 8 4 9 4, check",
        "move 9: red duck 6 6 9 4, takes blue captain",
        "red wins: the blue captain is taken",
        "game over: red wins",
        "invalid move 9 8 8 8: the game is already over",
        "end of input: goodbye",
    ] {
        assert!(
            lines.iter().any(|l| l == e),
            "missing {e:?} in:\n{}",
            lines.join("\n")
        );
    }
}

#[test]
fn play_ends_politely_at_end_of_input() {
    for input in ["", "0 1 2 2", "0 1 2 2\n\n", "\u{fffd}\n"] {
        let o = run(&["play"], input);
        assert_eq!(o.status.code(), Some(0), "{input:?}");
        assert!(o.stderr.is_empty());
        assert!(
            text(&o.stdout).ends_with("end of input: goodbye\n"),
            "{input:?}"
        );
    }
}

#[test]
fn play_against_the_computer() {
    // Red is the computer: it moves first, then the human (blue) answers; undo takes
    // back the human's move and the computer's reply.
    let o = run(
        &["play", "--red", "ai", "--depth", "1"],
        "9 1 7 2\nundo\nquit\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let lines = narrative(&o);
    let joined = lines.join("\n");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("red (ai) thinks: depth 1")),
        "{joined}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("move 1 (ai): red ")),
        "{joined}"
    );
    assert!(
        lines.iter().any(|l| l == "move 2: blue horse 9 1 7 2"),
        "{joined}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("move 3 (ai): red ")),
        "{joined}"
    );
    assert!(lines.iter().any(|l| l == "took back 2 moves"), "{joined}");
}

#[test]
fn play_computer_against_computer() {
    // The two-move win: the red horse attacks the walled-in blue captain.
    let o = run(
        &[
            "play",
            "--red",
            "ai",
            "--blue",
            "ai",
            "--depth",
            "2",
            "--from",
            "3gkg3/4e4/9/9/4H4/9/9/9/9/4K4 r",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let lines = narrative(&o);
    let joined = lines.join("\n");
    assert!(
        lines
            .iter()
            .any(|l| l == "red wins: the blue captain is taken"),
        "{joined}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("move 3 (ai): red horse")),
        "{joined}"
    );
}

#[test]
fn play_load_refuses_bad_files() {
    let file = temp("bad.txt");
    let path = file.to_str().unwrap();
    let cases = [
        ("", "line 1: expected a position, found nothing"),
        ("4k4/9 r\n", "line 1: 2 ranks, expected 10 separated by '/'"),
        (
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r\n1\n0 0 1 1\n",
            "line 3: move 1 is invalid: a car cannot move that way",
        ),
        (
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r\n2\n0 1 2 2\n",
            "expected 2 moves, found 1",
        ),
        (
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r\nx\n",
            "line 2: expected the number of moves, found \"x\"",
        ),
    ];
    for (content, reason) in cases {
        std::fs::write(&file, content).unwrap();
        let o = run(&["play"], &format!("load {path}\n0 1 2 2\n"));
        let lines = narrative(&o);
        let want = format!("cannot load {path}: {reason}");
        assert!(lines.contains(&want), "{want}\n{}", lines.join("\n"));
        // The game goes on from where it was.
        assert!(lines.iter().any(|l| l == "move 1: red horse 0 1 2 2"));
    }
    let o = run(&["play"], "load /nonexistent/game.txt\n");
    assert!(narrative(&o)
        .iter()
        .any(|l| l.starts_with("cannot load /nonexistent/game.txt: ")));
    let _ = std::fs::remove_file(file);
}

#[test]
fn play_bad_options() {
    for args in [
        &["play", "--red", "robot"][..],
        &["play", "--from", "4k4/9 r"],
        &["play", "--think", "soon"],
        &["play", "--depth", "0"],
        &["play", "extra"],
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.starts_with("duckchess: play: "), "{err}");
        assert_eq!(err.lines().count(), 1);
    }
    let o = run(&["play", "--help"], "");
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).starts_with("duckchess play:"));
}

#[test]
fn arena_final_line() {
    let o = run(
        &[
            "arena", "--red", "random", "--blue", "greedy", "--games", "3", "--seed", "9",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (i, l) in lines[..3].iter().enumerate() {
        assert!(l.starts_with(&format!("game {}: ", i + 1)), "{l}");
    }
    let last = lines[3];
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 8, "{last}");
    assert_eq!(
        (words[0], words[1], words[3], words[4], words[6]),
        ("red", "wins", "blue", "wins", "draws")
    );
    let total: u32 = [words[2], words[5], words[7]]
        .iter()
        .map(|w| w.trim_end_matches(',').parse::<u32>().unwrap())
        .sum();
    assert_eq!(total, 3);
    // The same seed gives the same games.
    let again = run(
        &[
            "arena", "--red", "random", "--blue", "greedy", "--games", "3", "--seed", "9",
        ],
        "",
    );
    assert_eq!(text(&again.stdout), out);

    // A one-ply search already beats the random mover, from either side.
    let o = run(
        &[
            "arena", "--red", "ai", "--blue", "random", "--depth", "1", "--games", "2", "--quiet",
        ],
        "",
    );
    assert_eq!(text(&o.stdout), "red wins 2, blue wins 0, draws 0\n");
    let o = run(
        &[
            "arena", "--red", "random", "--blue", "ai", "--depth", "1", "--games", "2", "--quiet",
        ],
        "",
    );
    assert_eq!(text(&o.stdout), "red wins 0, blue wins 2, draws 0\n");
}

#[test]
fn arena_bad_options() {
    for args in [
        &["arena", "--red", "random"][..],
        &["arena", "--red", "robot", "--blue", "ai"],
        &["arena", "--red", "ai", "--blue", "ai", "--games", "-1"],
        &["arena", "--red", "ai", "--blue", "ai", "--seed", "x"],
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(text(&o.stderr).starts_with("duckchess: arena: "));
    }
    let o = run(&["arena", "--help"], "");
    assert_eq!(o.status.code(), Some(0));
}

/// How many board diagrams an output holds: the judge's columns above each, UCI's
/// files below.
fn boards(o: &Output) -> usize {
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let above = lines
        .iter()
        .filter(|l| **l == "0  1  2  3  4  5  6  7  8")
        .count();
    let below = lines
        .iter()
        .filter(|l| **l == "a  b  c  d  e  f  g  h  i")
        .count();
    assert_eq!(above, below, "each board has both edges");
    above
}

#[test]
fn play_against_the_computer_draws_one_board_per_round() {
    // The opening board, then one board after each computer reply: 1 + 2. The person's
    // moves draw none, since the reply follows at once.
    let o = run(
        &["play", "--blue", "ai", "--depth", "1", "--ascii"],
        "0 1 2 2\n0 7 2 6\nquit\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(boards(&o), 3, "{}", text(&o.stdout));
    // The computer's score names its side and is in material units.
    let thinks: Vec<String> = narrative(&o)
        .into_iter()
        .filter(|l| l.starts_with("blue (ai) thinks: depth 1, "))
        .collect();
    assert_eq!(thinks.len(), 2, "{thinks:?}");
    for line in &thinks {
        let score = line.rsplit("score blue ").next().expect("a score");
        assert!(
            score.starts_with(['+', '-']) && score[1..].parse::<f64>().is_ok(),
            "{line}"
        );
    }
}

#[test]
fn play_history_selection_and_judge_input_loading() {
    let statement = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/statement.in");
    let o = run(
        &["play", "--ascii"],
        &format!("history\n0 3 1 2\n9 1\nhistory\nload {statement}\nhistory\nquit\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("no moves yet\n"), "{out}");
    assert!(out.contains("  1. 0 3 1 2   red guard;NA;no;no\n"), "{out}");
    // `X Y` selects: the piece in [ ], its target in ( ), the list sorted.
    assert!(out.contains(" 9  r [h] e  g  k  g  e  h  r  10\n"), "{out}");
    assert!(out.contains(" 7  d  . (.) .  .  .  .  .  d  8\n"), "{out}");
    assert!(
        out.contains("blue horse on (9, 1) can go to (7, 2)\n"),
        "{out}"
    );
    // A judge input loads from the start position, its invalid commands skipped; the
    // history then shows the judge's own lines.
    assert!(
        out.contains(": a judge input, 9 moves and 9 invalid commands skipped\n"),
        "{out}"
    );
    assert!(
        out.contains("  9. 6 6 9 4   red duck;blue captain;no;yes\n"),
        "{out}"
    );
}

#[test]
fn play_takes_every_notation_the_project_prints() {
    // The same game as the board's address `#moves=0122.9172.3444.6454.4454`, each
    // move written another way, then pieces selected by UCI's squares, and what does
    // not read.
    let o = run(
        &["play", "--ascii"],
        "b1c3\n\
         (9, 1) -> (7, 2)\n\
         red soldier 3 4 4 4\n\
         [6,4,5,4]\n\
         4454\n\
         blue horse 0 0 1 0\n\
         blue horse 5 5 6 6\n\
         c3\n\
         moves h10\n\
         0 1 c3\n\
         j1a1\n\
         e4\n\
         e4e\n\
         blue hors 9 7 7 6\n\
         h10 g8\n\
         quit\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let lines = narrative(&o);
    let expect = [
        "move 1: red horse 0 1 2 2",
        "move 2: blue horse 9 1 7 2",
        "move 3: red soldier 3 4 4 4",
        "move 4: blue soldier 6 4 5 4",
        "move 5: red soldier 4 4 5 4, takes blue soldier",
        "there is no blue horse on (0, 0): the red car is there",
        "there is no blue horse on (5, 5): the square is empty",
        "red horse on (2, 2) (not its turn) can go to (0, 1), (1, 0), (1, 4), (3, 4)",
        "blue horse on (9, 7) can go to (7, 6)",
        "\"0 1 c3\" mixes the judge's numbers and UCI's squares: write both squares one way, \
         0 1 2 2 or b1c3",
        "\"j1\" is not a square: the files are a to i and the ranks 1 to 10, as in b1c3",
        // A square alone selects its piece, or says there is none.
        "no piece on (3, 4)",
        "cannot read \"e4e\" as a move: write 0 1 2 2 (as the judge), b1c3 (as UCI) or \
         (0, 1) -> (2, 2)",
        "\"hors\" is no piece: after red or blue comes captain, guard, elephant, horse, car, \
         duck, soldier, as in red horse 0 1 2 2",
        "move 6: blue horse 9 7 7 6",
        "goodbye",
    ];
    let mut at = 0;
    for e in expect {
        match lines[at..].iter().position(|l| l == e) {
            Some(i) => at += i + 1,
            None => panic!("missing {e:?} after line {at} in:\n{}", lines.join("\n")),
        }
    }
    // A move that does not read leaves the game as it was: six moves, no more.
    assert!(!lines.iter().any(|l| l.starts_with("move 7")), "{lines:?}");
}

#[test]
fn play_marks_captures_in_the_target_list() {
    // The red car on (4, 4) reaches the blue soldier on (4, 0) and the blue horse on
    // (4, 8); the list is sorted by row, then column.
    let o = run(
        &["play", "--ascii", "--from", "k8/9/9/9/9/s3R3h/9/9/9/K8 r"],
        "moves 4 4\nquit\n",
    );
    let out = text(&o.stdout);
    assert!(
        out.contains(
            "red car on (4, 4) can go to (0, 4), (1, 4), (2, 4), (3, 4), (4, 0) takes blue \
             soldier, (4, 1), (4, 2), (4, 3), (4, 5), (4, 6), (4, 7), (4, 8) takes blue horse, \
             (5, 4), (6, 4), (7, 4), (8, 4), (9, 4)\n"
        ),
        "{out}"
    );
}
