//! UCI conversations with the binary: scripted sessions on standard input, answers read
//! from standard output. Searches are bounded by depth or nodes, or stopped by the
//! script; nothing here depends on how fast the machine is.

use crate::common;

use common::live::Live;
use duckchess::judge::board::Board;
use duckchess::judge::rules;
use duckchess::play::notation::parse_move;
use duckchess::play::uci::GO_WORDS;

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

/// A GUI shows a player only what a player sets: the tuning options (the evaluation's
/// weights, the search's knobs) come with `--tuning` alone, and setting one without it
/// says how.
#[test]
fn tuning_options_only_with_tuning() {
    let plain = session(&["uci", "setoption name X Late value 2", "quit"]);
    let options = |lines: &[String]| {
        lines
            .iter()
            .filter(|l| l.starts_with("option name "))
            .count()
    };
    assert!(
        !plain.iter().any(|l| l.starts_with("option name X Late ")),
        "{plain:?}"
    );
    assert!(!plain
        .iter()
        .any(|l| l.starts_with("option name Value Car ")));
    assert!(
        plain.contains(&"info string \"x late\" is a tuning option: start the engine with 'duckchess uci --tuning' to set it".to_string()),
        "{plain:?}"
    );
    let out = common::run(
        &["uci", "--tuning"],
        b"uci\nsetoption name X Late value 2\nquit\n",
    );
    let tuning: Vec<String> = common::stdout(&out).lines().map(str::to_string).collect();
    assert!(tuning.iter().any(|l| l.starts_with("option name X Late ")));
    assert!(tuning
        .iter()
        .any(|l| l.starts_with("option name Value Car ")));
    assert!(
        !tuning.iter().any(|l| l.starts_with("info string")),
        "{tuning:?}"
    );
    // A dozen for a player; the tuning ones are many more.
    assert!(options(&plain) <= 12, "{}", options(&plain));
    assert!(options(&tuning) >= options(&plain) + 40);
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
        "go sideways depth 1",
        "setoption name Hash value 0",
        "setoption name Nonsense value 1",
        "setoption name UCI_Variant value chess",
        "position",
        "isready",
    ]);
    for note in [
        "info string unknown command \"xyzzy\"",
        "info string go: unknown parameter \"sideways\" ignored",
        "info string setoption hash: expected a number 1 to 4096",
        "info string unknown option \"nonsense\"",
        "info string unsupported variant \"chess\"",
        "info string position: expected",
    ] {
        assert!(has(&lines, note), "{note}: {lines:?}");
    }
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    // The go with a word it does not know was answered all the same.
    legal(&Board::start(), &bestmoves(&lines)[0]);
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
    assert_eq!(
        lines,
        [
            "info string no legal move: the game is over, blue captured red's captain",
            "info depth 0 seldepth 0 score mate 0 nodes 0 nps 0 time 0",
            "bestmove 0000"
        ]
    );
}

#[test]
fn wild_positions_answer_under_a_node_cap() {
    // Positions where the first iteration once ran for minutes.
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

const SECOND: std::time::Duration = std::time::Duration::from_secs(1);

#[test]
fn the_handshake_offers_ponder() {
    let lines = session(&["uci", "quit"]);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Ponder type check default false"),
        "{lines:?}"
    );
    let lines = session(&[
        "setoption name Ponder value true",
        "setoption name Ponder value maybe",
        "isready",
    ]);
    assert_eq!(
        lines,
        [
            "info string setoption ponder: expected true or false, found \"maybe\"",
            "readyok"
        ]
    );
}

#[test]
fn ponderhit_answers_on_the_clock_that_go_ponder_gave() {
    let mut uci = Live::start();
    uci.send("position startpos moves e4e5");
    uci.send("go ponder wtime 2000 btime 2000");
    // Pondering waits for the ponderhit however long it takes.
    assert_eq!(uci.wait_for("bestmove", SECOND / 2), None, "{:?}", uci.seen);
    let hit = std::time::Instant::now();
    uci.send("ponderhit");
    // 2 s on the clock: the answer comes well within it, without a 'stop' or 'quit'.
    let best = uci.wait_for("bestmove ", 5 * SECOND);
    let took = hit.elapsed();
    let best = best.unwrap_or_else(|| panic!("no bestmove after ponderhit: {:?}", uci.seen));
    assert!(took < 2 * SECOND, "{took:?}");
    let b = board("rhegkgehr/9/d7d/s1s1s1s1s/9/4S4/S1S3S1S/D7D/9/RHEGKGEHR b");
    legal(&b, &best["bestmove ".len()..]);
    // A ponder that is stopped answers at once, once.
    uci.send("go ponder wtime 2000 btime 2000");
    uci.send("stop");
    uci.send("isready");
    assert!(uci.wait_for("readyok", 5 * SECOND).is_some());
    let answers = uci
        .seen
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .count();
    assert_eq!(answers, 2, "{:?}", uci.seen);
}

#[test]
fn searchmoves_restricts_the_root_and_ignores_illegal_moves() {
    let lines = session(&[
        "position startpos",
        "go depth 3 searchmoves a1a2 a1a1 e4e5x",
        "go depth 2 searchmoves zz",
        "go searchmoves c4c5 i4i5 depth 4",
    ]);
    for note in [
        "info string go: searchmoves: a1a1 is not a legal move here; ignored",
        "info string go: searchmoves: e4e5x is not a legal move here; ignored",
        "info string go: searchmoves: no legal move given; searching them all",
    ] {
        assert!(has(&lines, note), "{note}: {lines:?}");
    }
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 3, "{lines:?}");
    assert_eq!(best[0], "a1a2");
    legal(&Board::start(), &best[1]);
    assert!(["c4c5", "i4i5"].contains(&best[2].as_str()), "{lines:?}");
    // Every line of the third search (after the second bestmove, up to the third)
    // starts with one of its moves.
    let ends: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("bestmove"))
        .map(|(i, _)| i)
        .collect();
    let (second_end, third_end) = (ends[1] + 1, ends[2]);
    for line in &lines[second_end..third_end] {
        if let Some((_, pv)) = line.split_once(" pv ") {
            assert!(pv.starts_with("c4c5") || pv.starts_with("i4i5"), "{line}");
        }
    }
}

/// A random `go` line of the fuzz test: known words, numbers of every shape, moves.
fn random_go(rng: &mut duckchess::sys::rng::Rng) -> String {
    const ODD: [&str; 14] = [
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999999",
        "-1",
        "-99999999999999999999",
        "1.5",
        "1e9",
        "0x10",
        "+5",
        "-",
        "ten",
        "e4e5",
        "a1a1",
        "zz9",
    ];
    let mut line = String::from("go");
    for _ in 0..rng.below(8) {
        let word = match rng.below(4) {
            0 | 1 => GO_WORDS[rng.index(GO_WORDS.len())].to_string(),
            2 => rng.below(3000).to_string(),
            _ => ODD[rng.index(ODD.len())].to_string(),
        };
        line.push(' ');
        line.push_str(&word);
    }
    line
}

#[test]
fn every_go_gets_exactly_one_bestmove() {
    // Seeded random 'go' lines, each followed by 'stop' and 'isready': between two
    // readyok there must be exactly one legal bestmove, and the whole run is bounded.
    let mut rng = duckchess::sys::rng::Rng::new(2019);
    let after = board("rhegkgehr/9/d7d/s1s1s1s1s/9/4S4/S1S3S1S/D7D/9/RHEGKGEHR b");
    let mut uci = Live::start();
    uci.send("position startpos moves e4e5");
    let count = 1500;
    let mut sent = Vec::new();
    for _ in 0..count {
        let go = random_go(&mut rng);
        uci.send(&go);
        uci.send("stop");
        uci.send("isready");
        sent.push(go);
    }
    let started = std::time::Instant::now();
    for go in &sent {
        let left = (120 * SECOND).saturating_sub(started.elapsed());
        let before = uci.seen.len();
        assert!(
            uci.wait_for("readyok", left).is_some(),
            "no answer to {go:?}"
        );
        let answers: Vec<&String> = uci.seen[before..]
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .collect();
        assert_eq!(answers.len(), 1, "{go:?}: {:?}", &uci.seen[before..]);
        legal(&after, &answers[0]["bestmove ".len()..]);
    }
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn setting_the_hash_twice_never_holds_two_tables() {
    let mut uci = Live::start();
    for _ in 0..2 {
        uci.send("setoption name Hash value 512");
        uci.send("isready");
        assert!(uci.wait_for("readyok", 60 * SECOND).is_some());
    }
    let peak = uci.status_kb("VmHWM:").expect("/proc status");
    // One table is 512 MB; the old one freed before the new one is made.
    assert!(peak < 512 * 1024 * 3 / 2, "peak {peak} kB");
    assert!(peak > 512 * 1024, "peak {peak} kB: is the table there?");
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn the_first_search_does_not_fault_in_the_whole_history() {
    // The move-ordering history is 3 MB: ageing it before the first search touched
    // every page of it at once (some 800 page faults, a few ms of a 'movetime 1'). The
    // engine now touches them before 'readyok', and ages the history after answering.
    let mut uci = Live::start();
    uci.send("isready");
    assert!(uci.wait_for("readyok", 10 * SECOND).is_some());
    let before = uci.minor_faults().expect("/proc stat");
    uci.send("go depth 1");
    assert!(uci.wait_for("bestmove", 10 * SECOND).is_some());
    let faults = uci.minor_faults().expect("/proc stat") - before;
    assert!(faults < 1000, "{faults} page faults in a depth-1 search");
}

#[test]
fn the_last_info_line_carries_the_whole_pv() {
    // A node cap ends the search inside an iteration: the line printed for the end
    // (GUIs record it) has the whole PV of the last completed iteration.
    let lines = session(&["position startpos", "go nodes 20000"]);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    let pv = |l: &str| l.split_once(" pv ").map(|(_, p)| p.to_string());
    let last = pv(infos[infos.len() - 1]).expect("a pv");
    let completed = pv(infos[infos.len() - 2]).expect("a pv");
    assert!(last.split(' ').count() >= 2, "{infos:?}");
    if last.split(' ').next() == completed.split(' ').next() {
        assert_eq!(last, completed, "{infos:?}");
    }
}

/// Runs `duckchess uci ARGS` on `script` (one command a line, then the end of input),
/// under `sh -c` with `limit` shell commands before it (`ulimit -v 1000000`, or none),
/// and waits at most `within` for it to exit: a session that outlives its input fails
/// the test (and is killed). Returns the exit status, standard output and standard
/// error.
fn session_within(
    limit: &str,
    args: &[&str],
    script: &[&str],
    within: std::time::Duration,
) -> (std::process::ExitStatus, String, String) {
    use std::io::{Read, Write};
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{limit}\nexec \"$0\" uci \"$@\""))
        .arg(env!("CARGO_BIN_EXE_duckchess"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("sh starts");
    let mut input = child.stdin.take().expect("piped");
    let text = format!("{}\n", script.join("\n"));
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let collect = |mut source: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = source.read_to_string(&mut text);
            text
        })
    };
    let out = collect(Box::new(child.stdout.take().expect("piped")));
    let err = collect(Box::new(child.stderr.take().expect("piped")));
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if started.elapsed() > within {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{script:?}: still running after {within:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let _ = feeder.join();
    (
        status,
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    )
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn a_table_too_large_for_the_memory_keeps_the_old_one() {
    // An address space of about 1 GB: a 2 GB table cannot be had.
    let limit = "ulimit -v 1000000 || exit 99";
    let (status, out, err) = session_within(
        limit,
        &[],
        &[
            "setoption name Hash value 2048",
            "isready",
            "setoption name Hash value 64",
            "position startpos",
            "go depth 3",
            "isready",
        ],
        60 * SECOND,
    );
    assert!(status.success(), "{status:?}: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..2],
        [
            "info string setoption hash: cannot allocate 2048 MB for the hash table; keeping the 16 MB one",
            "readyok"
        ],
        "{out}"
    );
    assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{out}");
    assert_eq!(
        lines.iter().filter(|l| **l == "readyok").count(),
        2,
        "{out}"
    );
    // The same size on the command line: one line on standard error, and the default.
    let (status, out, err) = session_within(limit, &["--hash", "2048"], &["isready"], 60 * SECOND);
    assert!(status.success(), "{status:?}: {err}");
    assert_eq!(out, "readyok\n");
    assert_eq!(
        err,
        "duckchess: uci: cannot allocate 2048 MB for the hash table; using 16 MB\n"
    );
}

#[test]
fn a_go_with_no_readable_limit_still_ends() {
    // Each of these once searched without a limit: the commands after it waited for
    // ever, and so did the end of the input. A clock of any kind, readable or not,
    // thinks on the side to move's clock, a second when it has none.
    let (status, out, _) =
        session_within("", &[], &["position startpos", "go btime 100"], 60 * SECOND);
    assert!(status.success());
    assert!(
        out.contains(
            "info string go: no time left given for red; thinking as with 1000 ms on its clock\n"
        ),
        "{out}"
    );
    legal(&Board::start(), &bestmoves(&lines_of(&out))[0]);
    for go in [
        "go wtime 1.5",
        "go movetime abc",
        "go depth",
        "go wtime 100 btime",
        "go nodes x depth -",
        "go winc 50 binc 50",
        "go movestogo 3",
        "go mate ten",
    ] {
        let (status, out, err) = session_within(
            "",
            &[],
            &[
                "position startpos",
                go,
                "isready",
                "position startpos moves e4e5",
                "d",
                "go depth 1",
            ],
            60 * SECOND,
        );
        assert!(status.success(), "{go}: {err}");
        let lines = lines_of(&out);
        assert_eq!(bestmoves(&lines).len(), 2, "{go}: {out}");
        assert!(lines.iter().any(|l| l == "readyok"), "{go}: {out}");
        assert!(
            has(
                &lines,
                "info string position rhegkgehr/9/d7d/s1s1s1s1s/9/4S4/"
            ),
            "{go}: {out}"
        );
        assert!(has(&lines, "info string go: "), "{go}: {out}");
    }
}

#[test]
fn every_clamped_or_unreadable_value_is_said() {
    let (_, out, _) = session_within(
        "",
        &[],
        &[
            "position startpos",
            "go depth -1 movetime -1 winc -5 nodes 9999999999999999999999999",
        ],
        60 * SECOND,
    );
    for note in [
        "info string go: depth: -1 clamped to 1",
        "info string go: movetime: -1 clamped to 0",
        "info string go: winc: -5 clamped to 0",
        "info string go: nodes: 9999999999999999999999999 clamped to 18446744073709551615",
    ] {
        assert!(out.lines().any(|l| l == note), "{note}: {out}");
    }
    assert_eq!(bestmoves(&lines_of(&out)).len(), 1, "{out}");
}

#[test]
fn a_bare_go_and_go_infinite_wait_for_stop_or_the_end() {
    // Both wait for 'stop'; a command that would wait for them stops them, and so does
    // the end of the input.
    for script in [
        &["position startpos", "go"][..],
        &["position startpos", "go infinite"],
        &["position startpos", "go searchmoves a1a2", "go depth 1"],
        &[
            "position startpos",
            "go ponder",
            "ucinewgame",
            "go infinite",
        ],
    ] {
        let (status, out, _) = session_within("", &[], script, 60 * SECOND);
        assert!(status.success());
        let expected = script.iter().filter(|l| l.starts_with("go")).count();
        assert_eq!(
            bestmoves(&lines_of(&out)).len(),
            expected,
            "{script:?}: {out}"
        );
    }
    // Until then it waits: no answer without a 'stop'.
    let mut uci = Live::start();
    uci.send("go");
    assert_eq!(uci.wait_for("bestmove", SECOND), None, "{:?}", uci.seen);
    uci.send("stop");
    assert!(uci.wait_for("bestmove", 10 * SECOND).is_some());
}

#[test]
fn the_input_is_read_while_the_engine_thinks() {
    // A ten-minute search, then commands that must wait for it: isready is answered
    // in its turn, and stop and quit still act at once.
    let mut uci = Live::start();
    uci.send("position startpos");
    uci.send("go movetime 600000");
    uci.send("isready");
    assert!(
        uci.wait_for("readyok", 10 * SECOND).is_some(),
        "readyok during the search: {:?}",
        uci.seen
    );
    uci.send("position startpos moves e4e5");
    uci.send("isready");
    uci.send("d");
    // The second readyok follows the position, which waits for the search.
    assert_eq!(uci.wait_for("readyok", SECOND), None, "{:?}", uci.seen);
    uci.send("stop");
    let best = uci
        .wait_for("bestmove ", 10 * SECOND)
        .expect("stop answers");
    legal(&Board::start(), &best["bestmove ".len()..]);
    // The waiting commands then run, in order.
    assert!(uci.wait_for("readyok", 10 * SECOND).is_some());
    let d = uci
        .wait_for("info string position ", 10 * SECOND)
        .expect("d answers");
    assert_eq!(
        d,
        "info string position rhegkgehr/9/d7d/s1s1s1s1s/9/4S4/S1S3S1S/D7D/9/RHEGKGEHR b"
    );
    // quit during a long search, with a command waiting, ends the session at once.
    uci.send("go movetime 600000");
    uci.send("go depth 1");
    uci.send("quit");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = uci.child.try_wait().expect("waits") {
            break status;
        }
        assert!(
            started.elapsed() < 10 * SECOND,
            "quit did not end the session"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    assert!(status.success());
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn a_flood_of_commands_during_a_search_costs_no_memory() {
    // 40 MB of commands that wait while a ten-minute search runs (long lines, cheap to
    // carry out): the search gives way, and the input is read no faster than it is
    // carried out, so the session holds a megabyte of them at most.
    let mut uci = Live::start();
    uci.send("go movetime 600000");
    let line = format!("position fen {}", "x".repeat(1000));
    for _ in 0..40_000 {
        uci.send(&line);
    }
    uci.send("isready");
    assert!(uci.wait_for("readyok", 60 * SECOND).is_some());
    let peak = uci.status_kb("VmHWM:").expect("/proc status");
    assert!(peak < 48 * 1024, "peak {peak} kB");
    assert_eq!(
        uci.seen
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count(),
        1
    );
}

fn lines_of(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// A named pipe given as the network file is refused at once with an info line: the
/// session answers `isready` and reads `quit`, where opening the pipe would wait for a
/// writer forever.
#[cfg(unix)]
#[test]
fn a_named_pipe_as_evalfile_is_refused_without_waiting() {
    let Some(fifo) = common::fifo("uci-fifo") else {
        return;
    };
    let script = format!(
        "uci\nsetoption name EvalFile value {}\nisready\nquit\n",
        fifo.display()
    );
    let out = common::run_within(
        &["uci"],
        script.as_bytes(),
        std::time::Duration::from_secs(20),
    );
    let _ = std::fs::remove_file(&fifo);
    let out = out.expect("the session ends on quit");
    let lines: Vec<String> = common::stdout(&out).lines().map(str::to_string).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string setoption evalfile:")
                && l.ends_with("it is not a regular file")),
        "{lines:?}"
    );
    assert!(has(&lines, "readyok"), "{lines:?}");
}

/// `selfplay --eval` refuses a named pipe with one line, without waiting for a writer.
#[cfg(unix)]
#[test]
fn a_named_pipe_as_selfplay_network_is_refused() {
    let Some(fifo) = common::fifo("selfplay-fifo") else {
        return;
    };
    let path = fifo.display().to_string();
    let args = [
        "selfplay", "--eval", &path, "--games", "1", "--nodes", "100",
    ];
    let out = common::run_within(&args, b"", std::time::Duration::from_secs(20));
    let _ = std::fs::remove_file(&fifo);
    let out = out.expect("selfplay ends at once");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        common::stderr(&out),
        format!("duckchess: selfplay: --eval: cannot read {path}: it is not a regular file\n")
    );
}
