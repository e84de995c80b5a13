//! `duckchess analyze` through the binary: the verdicts on positions with a known
//! blunder (a captain walking into a car's reach) and a known missed win (a captain
//! left standing when it could be taken), the JSON read back with the crate's own JSON
//! reader and checked against itself, the table, bad input and usage errors. Every
//! search is bounded by depth or nodes, so the numbers are the same on every machine.

use crate::common;

use common::{run, stderr, stdout};
use duckchess::cli::json::Json;

/// `analyze ARGS` on `input`, which must succeed; its JSON.
fn analyze_json(args: &[&str], input: &str) -> Json {
    let mut all = vec!["analyze", "--json"];
    all.extend_from_slice(args);
    let out = run(&all, input.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "no progress bar when not on a terminal");
    Json::parse(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)))
}

fn moves(json: &Json) -> &[Json] {
    json.get("moves").and_then(Json::as_array).expect("moves")
}

fn field<'a>(json: &'a Json, name: &str) -> &'a str {
    json.get(name)
        .and_then(Json::as_str)
        .unwrap_or_else(|| panic!("{name} in {json}"))
}

#[test]
fn going_back_where_the_other_side_can_repeat_gives_the_lead_away() {
    // Red is a horse up. The horse steps out (1) and back (3) while blue's captain steps
    // aside (2): after 3, blue can return to the start position, which the search scores
    // as a draw, so the lead is lost by going round. The step out is not.
    let game = "4k4/9/9/9/9/9/9/9/9/H3K4 r\n4\n0 0 2 1\n9 4 9 3\n2 1 0 0\n9 3 9 4\n";
    let json = analyze_json(&["--depth", "4"], game);
    let list = moves(&json);
    assert_eq!(list.len(), 4);
    let cp = |m: &Json, at: &str| m.get(at).and_then(|e| e.get("cp")).and_then(Json::as_int);
    assert!(
        cp(&list[0], "after").is_some_and(|c| c > 200),
        "{}",
        list[0]
    );
    assert!(
        matches!(field(&list[0], "verdict"), "best" | "good"),
        "{}",
        list[0]
    );
    assert_eq!(cp(&list[2], "after"), Some(0), "{}", list[2]);
    assert!(list[2].get("loss").and_then(Json::as_int).unwrap() > 200);
    assert_ne!(field(&list[2], "verdict"), "good");
    // Back at the start, the lead is there again.
    assert!(
        cp(&list[3], "after").is_some_and(|c| c > 200),
        "{}",
        list[3]
    );
}

#[test]
fn a_captain_walking_into_a_car_is_a_blunder() {
    // Blue's car and captain against red's car and captain, blue to move. The blue
    // captain steps onto (9, 3), in the red car's column; red takes it.
    let game = "r3k4/9/9/9/9/9/9/9/9/3RK4 b\n2\n9 4 9 3\n0 3 9 3\n";
    let json = analyze_json(&["--depth", "4"], game);
    let list = moves(&json);
    assert_eq!(list.len(), 2);
    let blunder = &list[0];
    assert_eq!(field(blunder, "verdict"), "blunder", "{blunder}");
    assert_eq!(field(blunder, "piece"), "blue captain");
    assert_eq!(
        blunder.get("after").unwrap().to_string(),
        r#"{"mate":1,"winner":"red"}"#
    );
    // The material was level before: the loss is the whole cap and more.
    let before = blunder.get("before").and_then(|b| b.get("cp"));
    assert!(
        before
            .and_then(Json::as_int)
            .is_some_and(|cp| cp.abs() < 100),
        "{blunder}"
    );
    assert!(blunder.get("loss").and_then(Json::as_int).unwrap() >= 1000);
    // The engine's move keeps the captain away from the car; its line starts with it.
    let best = blunder.get("best").unwrap().to_string();
    assert_ne!(best, "[9,4,9,3]");
    let line = blunder.get("line").and_then(Json::as_array).unwrap();
    assert_eq!(line[0].to_string(), best);
    // Taking the captain is the best move, and the game is over.
    let take = &list[1];
    assert_eq!(field(take, "verdict"), "best");
    assert_eq!(take.get("loss").and_then(Json::as_int), Some(0));
    assert_eq!(
        json.get("end").unwrap().get("eval").unwrap().to_string(),
        r#"{"mate":0,"winner":"red"}"#
    );
    let summary = json.get("summary").unwrap();
    let blue = summary.get("blue").unwrap();
    assert_eq!(blue.get("blunder").and_then(Json::as_int), Some(1));
    assert_eq!(
        summary
            .get("red")
            .unwrap()
            .get("best")
            .and_then(Json::as_int),
        Some(1)
    );
}

#[test]
fn a_captain_left_standing_is_a_missed_win() {
    // Red to move can take the blue captain on (9, 3) with its car; it moves its own
    // captain instead, and blue's captain steps out of the car's column.
    let game = "r2k5/9/9/9/9/9/9/9/9/3RK4 r\n2\n0 4 1 4\n9 3 9 4\n";
    let json = analyze_json(&["--depth", "4"], game);
    let missed = &moves(&json)[0];
    assert_eq!(field(missed, "verdict"), "missed win", "{missed}");
    assert_eq!(
        missed.get("before").unwrap().to_string(),
        r#"{"mate":1,"winner":"red"}"#
    );
    assert_eq!(missed.get("best").unwrap().to_string(), "[0,3,9,3]");
    assert_eq!(field(missed, "best_piece"), "red car");
    assert!(missed.get("after").unwrap().get("cp").is_some(), "{missed}");
    let red = json.get("summary").unwrap().get("red").unwrap();
    assert_eq!(red.get("missed_win").and_then(Json::as_int), Some(1));
}

#[test]
fn the_json_agrees_with_itself_and_with_the_judge() {
    let input = std::fs::read_to_string("samples/statement.in").unwrap();
    let json = analyze_json(&["--nodes", "3000"], &input);
    assert_eq!(
        field(&json, "start"),
        "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r"
    );
    assert_eq!(json.get("skipped").and_then(Json::as_int), Some(9));
    assert_eq!(json.get("limit").unwrap().to_string(), r#"{"nodes":3000}"#);
    let list = moves(&json);
    // The judge's legal commands, numbered as in the input.
    let commands: Vec<i64> = list
        .iter()
        .filter_map(|m| m.get("command").and_then(Json::as_int))
        .collect();
    assert_eq!(commands, [5, 7, 8, 11, 12, 13, 14, 16, 17]);
    assert_eq!(list[0].get("move").unwrap().to_string(), "[0,3,1,2]");
    // Each position is analysed once: a move's score after is the next one's before.
    for pair in list.windows(2) {
        assert_eq!(pair[0].get("after"), pair[1].get("before"), "{}", pair[0]);
    }
    // The last move takes the blue captain: the best move, ending the game.
    let last = &list[8];
    assert_eq!(field(last, "verdict"), "best");
    assert_eq!(field(last, "side"), "red");
    // Blue's captain walking into the duck's reach (command 16) is a blunder.
    assert_eq!(field(&list[7], "verdict"), "blunder");
    // The summary counts every move once.
    let summary = json.get("summary").unwrap();
    for (side, expected) in [("red", 5), ("blue", 4)] {
        let tally = summary.get(side).unwrap();
        assert_eq!(tally.get("moves").and_then(Json::as_int), Some(expected));
        let counted: i64 = [
            "best",
            "good",
            "inaccuracy",
            "mistake",
            "blunder",
            "missed_win",
        ]
        .iter()
        .filter_map(|v| tally.get(v).and_then(Json::as_int))
        .sum();
        assert_eq!(counted, expected, "{side}");
        let verdicts = list.iter().filter(|m| field(m, "side") == side);
        let blunders = verdicts
            .filter(|m| field(m, "verdict") == "blunder")
            .count();
        assert_eq!(
            tally.get("blunder").and_then(Json::as_int),
            Some(blunders as i64)
        );
    }
}

#[test]
fn the_table_shows_every_move_and_the_summary() {
    let args = ["analyze", "--depth", "3", "samples/statement.in"];
    let out = run(&args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "analysis: 9 moves from the start position, each position to depth 3"
    );
    assert_eq!(
        lines[1],
        "9 invalid commands skipped, as the judge ignores them"
    );
    assert!(lines[3].starts_with("cmd move     piece"), "{text}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(" 5. 0 3 1 2  red guard ")),
        "{text}"
    );
    let blunder = lines
        .iter()
        .position(|l| l.starts_with("16. 8 4 9 4  blue captain "))
        .expect("command 16");
    assert!(
        lines[blunder].contains("#+1  blunder, loss "),
        "{}",
        lines[blunder]
    );
    assert!(
        lines[blunder + 1].starts_with("    best: blue "),
        "{}",
        lines[blunder + 1]
    );
    assert!(text.contains("\n17. 6 6 9 4  red duck          #+1     #+0  best\n"));
    assert!(text.contains("\nend: game over, red wins\n"));
    assert!(text.contains("\nred: 5 moves, average loss "));
    assert!(text.contains("\nblue: 4 moves, average loss "));
    assert!(lines.last().unwrap().ends_with(" s for 10 positions"));
    // The same numbers every time: only the time differs.
    let again = stdout(&run(&args, b""));
    let cut = |t: &str| t.rsplit_once("\ntime: ").map(|(a, _)| a.to_string());
    assert_eq!(cut(&again), cut(&text));
}

#[test]
fn a_game_analysed_in_parts_has_the_same_numbers() {
    // A saved game and the same moves as a judge input from the start: the same
    // analysis, numbered the same way (a saved game's commands are its moves).
    let saved = "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r\n3\n\
                 0 1 2 2\n9 1 7 2\n3 4 4 4\n";
    let input = "3\n0 1 2 2\n9 1 7 2\n3 4 4 4\n";
    let a = analyze_json(&["--nodes", "2000"], saved);
    let b = analyze_json(&["--nodes", "2000"], input);
    assert_eq!(moves(&a), moves(&b));
    assert_eq!(a.get("skipped"), Some(&Json::Null));
    assert_eq!(b.get("skipped").and_then(Json::as_int), Some(0));
    // The first two moves alone: the same two analyses.
    let part = analyze_json(&["--nodes", "2000"], "2\n0 1 2 2\n9 1 7 2\n");
    assert_eq!(moves(&part), &moves(&a)[..2]);
}

#[test]
fn bad_input_is_refused_before_any_search() {
    let cases: &[(&[u8], &str)] = &[
        (
            b"2\n0 3 1 2\n9 x",
            "duckchess: analyze: line 3, column 3: expected an integer (ys of command 2 \
             of 2), found \"x\"\n",
        ),
        (
            b"4k4/9/9/9/9/9/9/9/9/3RK4 r\n1\n0 0 1 0\n",
            "duckchess: analyze: line 3: move 1 is invalid: no piece on the source square \
             (0, 0)\n",
        ),
        (
            b"",
            "duckchess: analyze: line 1: expected a position, found nothing\n",
        ),
    ];
    for (input, message) in cases {
        let out = run(&["analyze", "--depth", "2"], input);
        assert_eq!(out.status.code(), Some(1), "{message}");
        assert_eq!(stdout(&out), "", "{message}");
        assert_eq!(stderr(&out), *message);
    }
}

#[test]
fn limits_are_checked() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["analyze", "--movetime", "100", "--depth", "3"],
            "duckchess: analyze: --movetime and --depth cannot be used together \
             (see 'duckchess analyze --help')\n",
        ),
        (
            &["analyze", "--depth", "0"],
            "duckchess: analyze: --depth: 0 is below the smallest allowed, 1 \
             (see 'duckchess analyze --help')\n",
        ),
        (
            &["analyze", "--nodes", "x"],
            "duckchess: analyze: --nodes: expected an integer from 1 to 1000000000, \
             found \"x\" (see 'duckchess analyze --help')\n",
        ),
    ];
    for (args, message) in cases {
        let out = run(args, b"0\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&out), *message);
    }
}

/// Without the memory for every thread asked for, the analysis goes on with the threads
/// it has, and says so.
#[cfg(target_os = "linux")]
#[test]
fn too_many_threads_for_the_memory_keep_the_ones_there_are() {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 600000; exec '{}' analyze --depth 2 --threads 256 samples/statement.in",
            env!("CARGO_BIN_EXE_duckchess")
        ))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("sh runs");
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).starts_with(
            "duckchess: analyze: note: cannot allocate the memory of 256 threads; keeping "
        ),
        "{}",
        common::stderr(&out)
    );
    assert!(common::stdout(&out).starts_with("analysis: 9 moves from the start position"));
}
