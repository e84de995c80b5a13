//! UCI conversations with the binary: scripted sessions on standard input, answers read
//! from standard output. Searches are bounded by depth or nodes, or stopped by the
//! script; nothing here depends on how fast the machine is.

mod common;

use duckchess::engine::notation::parse_move;
use duckchess::judge::board::Board;
use duckchess::judge::rules;

/// Runs `duckchess uci` on `script` (one command a line); returns standard output's lines.
fn session(script: &[&str]) -> Vec<String> {
    let mut input = script.join("\n");
    input.push('\n');
    let out = common::run(&["uci"], input.as_bytes());
    assert!(out.status.success(), "exit {:?}", out.status);
    assert_eq!(common::stderr(&out), "", "nothing on stderr");
    common::stdout(&out).lines().map(str::to_string).collect()
}

/// The moves of every `bestmove` line, in order.
fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(str::to_string)
        .collect()
}

/// Asserts that `text` is a legal move of `board`.
fn legal(board: &Board, text: &str) {
    let m = parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    assert!(rules::legal_moves(board).contains(&m), "{text} in {board}");
}

fn board(text: &str) -> Board {
    text.parse().expect("test positions are valid")
}

fn has(lines: &[String], prefix: &str) -> bool {
    lines.iter().any(|l| l.starts_with(prefix))
}

#[test]
fn handshake() {
    let lines = session(&["uci", "isready", "quit"]);
    assert!(lines[0].starts_with("id name duckchess "), "{lines:?}");
    for option in [
        "option name Hash type spin default 16 min 1 max 4096",
        "option name UCI_Variant type combo default duckchess var duckchess",
        "option name Move Overhead type spin default 10 min 0 max 5000",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
    let ok = lines.iter().position(|l| l == "uciok").expect("uciok");
    assert_eq!(lines[ok + 1..], ["readyok".to_string()]);
}

#[test]
fn position_with_moves_then_go_depth() {
    let lines = session(&[
        "uci",
        "setoption name UCI_Variant value duckchess",
        "setoption name Hash value 8",
        "ucinewgame",
        "position startpos moves e4e5 e7e6",
        "d",
        "go depth 4",
    ]);
    let after = "rhegkgehr/9/d7d/s1s3s1s/4s4/4S4/S1S3S1S/D7D/9/RHEGKGEHR r";
    assert!(
        lines.contains(&format!("info string position {after}")),
        "{lines:?}"
    );
    assert!(!has(&lines, "info string unsupported") && !has(&lines, "info string setoption"));
    // One info line per depth, 1 to 4, then the move.
    for d in 1..=4 {
        assert!(
            has(&lines, &format!("info depth {d} ")),
            "depth {d}: {lines:?}"
        );
    }
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 4 "))
        .unwrap();
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field}: {info}");
    }
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1);
    legal(&board(after), &best[0]);
}

#[test]
fn fen_in_both_notations() {
    let placement = "4k4/9/9/9/9/9/9/9/4R3r/3K5";
    for side in ["w", "r", "w - - 0 1"] {
        let lines = session(&[
            &format!("position fen {placement} {side}"),
            "d",
            "go depth 2",
        ]);
        assert!(
            lines.contains(&format!("info string position {placement} r")),
            "{lines:?}"
        );
        // The car takes the captain: mate in one move.
        assert!(
            has(&lines, "info depth 0 seldepth 0 score mate 1 "),
            "{lines:?}"
        );
        assert_eq!(bestmoves(&lines), ["e2e10"]);
    }
}

#[test]
fn go_movetime_then_stop() {
    // A minute to think, stopped at once: the answer comes from the stop, not the clock.
    let lines = session(&["position startpos", "go movetime 60000", "stop", "isready"]);
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    legal(&Board::start(), &best[0]);
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

#[test]
fn isready_answers_during_an_infinite_search() {
    let lines = session(&["position startpos", "go infinite", "isready", "stop"]);
    let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .expect("bestmove");
    assert!(ready < best, "{lines:?}");
}

#[test]
fn bad_fen_is_reported_and_the_position_kept() {
    let lines = session(&[
        "position startpos moves e4e5",
        "position fen rhegkgehr/9/d7d w",
        "position fen rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR x",
        "isready",
        "d",
    ]);
    let bad: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("info string bad fen: "))
        .collect();
    assert_eq!(bad.len(), 2, "{lines:?}");
    assert!(bad[0].contains("3 ranks"), "{}", bad[0]);
    assert!(bad[1].contains("side to move"), "{}", bad[1]);
    assert!(lines.contains(&"readyok".to_string()));
    assert!(has(
        &lines,
        "info string position rhegkgehr/9/d7d/s1s1s1s1s/9/4S4/S1S3S1S/D7D/9/RHEGKGEHR b"
    ));
}

#[test]
fn illegal_move_in_the_list_stops_the_list_there() {
    // e4e6 is two steps for a soldier; the position stays after e4e5.
    let lines = session(&[
        "position startpos moves e4e5 e7e6 e5e7 a10a9",
        "d",
        "position startpos moves e4e5 zz9",
        "go nodes 2000",
    ]);
    let notes: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("info string move "))
        .collect();
    assert_eq!(notes.len(), 2, "{lines:?}");
    assert!(notes[0].starts_with("info string move 3 of the list: e5e7 is not a legal move"));
    assert!(notes[1].contains("\"zz9\" is not a move"), "{}", notes[1]);
    assert!(has(
        &lines,
        "info string position rhegkgehr/9/d7d/s1s3s1s/4s4/4S4/S1S3S1S/D7D/9/RHEGKGEHR r"
    ));
    let after_e4e5 = board("rhegkgehr/9/d7d/s1s1s1s1s/9/4S4/S1S3S1S/D7D/9/RHEGKGEHR b");
    legal(&after_e4e5, &bestmoves(&lines)[0]);
}

#[test]
fn unknown_input_is_answered_not_fatal() {
    let lines = session(&[
        "xyzzy",
        "go sideways",
        "setoption name Hash value 0",
        "setoption name Nonsense value 1",
        "setoption name UCI_Variant value chess",
        "position",
        "isready",
    ]);
    for note in [
        "info string unknown command \"xyzzy\"",
        "info string go: unknown parameter \"sideways\"",
        "info string setoption hash: expected a number 1 to 4096",
        "info string unknown option \"nonsense\"",
        "info string unsupported variant \"chess\"",
        "info string position: expected",
    ] {
        assert!(has(&lines, note), "{note}: {lines:?}");
    }
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

#[test]
fn quit_ends_the_session_at_once() {
    let out = common::run(&["uci"], b"isready\nquit\nisready\nuci\n");
    assert!(out.status.success());
    assert_eq!(common::stdout(&out), "readyok\n");
}

#[test]
fn a_finished_game_has_no_move() {
    let lines = session(&["position fen 4k4/9/9/9/9/9/9/9/9/9 w", "go depth 3"]);
    assert_eq!(bestmoves(&lines), ["(none)"]);
}

#[test]
fn wild_positions_answer_under_a_node_cap() {
    // The positions of issue 12 where the first iteration used to run for minutes.
    for fen in [
        "9/7k1/5h1E1/s2S3D1/2K2h3/1H1h3D1/hHdGesSS1/r1SS5/1Grd4e/4Rs3 w",
        "E8/D4r1kh/ddSDSh1E1/s2S2DD1/r1K2h2E/eH1h2gD1/hHdGesSSE/r1SS5/1Grd4e/4Rs1H1 w",
    ] {
        let lines = session(&[
            &format!("position fen {fen}"),
            "go nodes 3000",
            "go depth 1",
        ]);
        let best = bestmoves(&lines);
        assert_eq!(best.len(), 2, "{lines:?}");
        let b = board(&fen.replace(" w", " r"));
        for m in &best {
            legal(&b, m);
        }
        let nodes: Vec<u64> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let i = w.iter().position(|x| *x == "nodes")?;
                w.get(i + 1)?.parse().ok()
            })
            .collect();
        assert!(nodes[0] < 3000 + 256, "{lines:?}");
    }
}

#[test]
fn a_clock_game_plays_legal_moves() {
    // Ten moves each on a clock, through the protocol, as a match runner plays them.
    let mut b = Board::start();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..20 {
        let position = format!("position startpos moves {}", moves.join(" "));
        let lines = session(&[
            &position,
            "go wtime 2000 btime 2000 winc 10 binc 10 nodes 4000",
        ]);
        let best = bestmoves(&lines);
        legal(&b, &best[0]);
        let m = parse_move(&best[0]).unwrap();
        b.make_move(m.from, m.to);
        moves.push(best[0].clone());
        if b.is_over() {
            break;
        }
    }
    assert!(moves.len() >= 10);
}
