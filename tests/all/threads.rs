//! The search on several threads: the same mates and sensible moves as on one, node
//! counts that add up over the threads, every stop and clock obeyed by all of them,
//! memory that grows and shrinks with the thread count, and one thread searching the
//! very tree it always did. Searches are bounded by depth or nodes wherever the result
//! is compared; the clock tests give the engine the guide's figures plus a margin for
//! a loaded machine.

use crate::common;

use common::live::Live;
use duckchess::engine::clock::{self, Clock};
use duckchess::engine::search::{self, Engine, Limits, MAX_THREADS};
use duckchess::judge::board::Board;
use duckchess::judge::rules;
use std::time::{Duration, Instant};

fn board(text: &str) -> Board {
    text.parse().expect("test positions are valid")
}

/// An engine searching on `threads` threads.
fn engine(threads: usize) -> Engine {
    let mut e = Engine::new();
    e.set_threads(threads).expect("the memory of a few threads");
    assert_eq!(e.threads(), threads);
    e
}

#[test]
fn two_threads_find_the_same_mates_as_one() {
    // (position, plies to the captain capture for the side to move): from the
    // endgame tests.
    let table: [(&str, i32); 4] = [
        ("4k4/9/9/9/9/9/9/9/4R3r/3K5 r", 1),
        ("3gkg3/4e4/9/9/4H4/9/9/9/9/4K4 r", 3),
        ("3gkg3/4e4/3H5/9/9/9/9/9/9/4K4 b", -2),
        ("4k4/R8/1R7/9/9/9/9/9/9/4K4 r", 3),
    ];
    for threads in [2, 3] {
        let mut e = engine(threads);
        for (text, plies) in table {
            let b = board(text);
            let one = search::search_depth(&b, 6);
            let r = e.search(&b, Limits::depth(6));
            assert_eq!(r.mate_in(), Some(plies), "{threads} threads, {text}: {r:?}");
            assert_eq!(one.mate_in(), r.mate_in());
            let m = r.best.expect("a move");
            assert!(rules::legal_moves(&b).contains(&m));
            assert_eq!(e.line().first(), Some(&m), "the line starts with the move");
        }
    }
}

#[test]
fn two_threads_keep_the_captain_and_win_material() {
    // The blue car attacks the red captain: every answer but a few loses it.
    let b = board("8k/9/9/9/4r4/9/R7h/9/9/4K4 r");
    let mut e = engine(2);
    for nodes in [2_000, 20_000, 200_000] {
        let r = e.search(&b, Limits::nodes(nodes));
        let m = r.best.expect("red has moves");
        let mut after = b.clone();
        after.make_move(m.from, m.to);
        let mine = after.captain(duckchess::judge::piece::Color::Red).unwrap();
        assert!(
            !rules::is_attacked(&after, mine, duckchess::judge::piece::Color::Blue),
            "{nodes} nodes: {m} leaves the captain to be taken"
        );
    }
    // A free car: taken, as one thread takes it.
    let b = board("4k4/9/9/9/9/4r4/9/9/9/3RK4 r");
    let one = search::search_depth(&b, 5).best;
    let r = engine(2).search(&b, Limits::depth(5));
    assert_eq!(r.best, one, "{r:?}");
}

#[test]
fn the_nodes_of_every_thread_are_counted_and_capped_together() {
    let b = Board::start();
    const N: u64 = 300_000;
    for threads in [1, 2, 4] {
        let r = engine(threads).search(&b, Limits::nodes(N));
        // The cap is on the sum: each thread passes it by less than one look at the
        // clock (256 nodes) before it sees it, and the helpers by one more after the
        // main thread stops them.
        let slack = 512 * threads as u64;
        assert!(
            (N..N + slack).contains(&r.nodes),
            "{threads} threads: {} nodes for a cap of {N}",
            r.nodes
        );
        assert!(r.depth >= 3, "{threads} threads: {r:?}");
    }
}

/// `go nodes N` passes N by fewer than 256 nodes, as the engine's guide promises,
/// however many threads share the cap and wherever N falls between two looks at it.
#[test]
fn a_node_cap_is_passed_by_fewer_than_256_nodes() {
    let b = Board::start();
    for threads in [1, 2, 3, 4, 8, 64] {
        let mut e = engine(threads);
        for n in (1..=1_200)
            .step_by(13)
            .chain([255, 256, 257, 4_096, 10_000])
        {
            let r = e.search(&b, Limits::nodes(n));
            assert!(
                (n..n + 256).contains(&r.nodes),
                "{threads} threads: {} nodes for go nodes {n}",
                r.nodes
            );
        }
    }
}

#[test]
fn a_thread_count_is_clamped() {
    let mut e = Engine::with_hash(1);
    e.set_threads(0).unwrap();
    assert_eq!(e.threads(), 1);
    e.set_threads(MAX_THREADS + 5).unwrap();
    assert_eq!(e.threads(), MAX_THREADS);
    let r = e.search(&Board::start(), Limits::depth(2));
    assert!(r.best.is_some());
    e.set_threads(1).unwrap();
    assert_eq!(e.threads(), 1);
}

const SECOND: Duration = Duration::from_secs(1);
/// What a loaded machine may add to a time limit: the process's reading and writing,
/// and a thread that waits for a core.
const MARGIN: Duration = Duration::from_millis(300);

#[test]
fn the_handshake_offers_threads_and_bad_values_are_said() {
    let out = common::run(
        &["uci"],
        b"uci\nsetoption name Threads value 0\nsetoption name Threads value 257\n\
          setoption name Threads value two\nsetoption name Threads value 256\n\
          setoption name Threads value 2\nisready\n",
    );
    let text = common::stdout(&out);
    assert!(
        text.contains("option name Threads type spin default 1 min 1 max 256\n"),
        "{text}"
    );
    for bad in ["0", "257", "two"] {
        assert!(
            text.contains(&format!(
                "info string setoption threads: expected a number 1 to 256, found \"{bad}\"\n"
            )),
            "{bad}: {text}"
        );
    }
    assert!(text.ends_with("readyok\n"), "{text}");
    assert_eq!(text.matches("info string").count(), 3, "{text}");
}

#[test]
fn stop_quit_and_the_end_of_input_end_every_thread_at_once() {
    let mut uci = Live::start();
    uci.ready(&["setoption name Threads value 2", "position startpos"]);
    uci.send("go infinite");
    assert!(uci.wait_for("info depth 3 ", 30 * SECOND).is_some());
    let stopped = Instant::now();
    uci.send("stop");
    assert!(uci.wait_for("bestmove ", 5 * SECOND).is_some());
    assert!(stopped.elapsed() < MARGIN, "{:?}", stopped.elapsed());
    // Pondering on 2 threads: the ponderhit starts the clock, a stop ends it.
    uci.send("go ponder movetime 200");
    assert_eq!(uci.wait_for("bestmove", SECOND / 2), None, "{:?}", uci.seen);
    let hit = Instant::now();
    uci.send("ponderhit");
    assert!(uci.wait_for("bestmove ", 5 * SECOND).is_some());
    assert!(hit.elapsed() < Duration::from_millis(200) + MARGIN);
    // 'quit' during a search on 4 threads: the process is gone at once.
    uci.ready(&["setoption name Threads value 4"]);
    uci.send("go infinite");
    assert!(uci.wait_for("info depth 2 ", 30 * SECOND).is_some());
    uci.send("quit");
    assert!(uci.exits_within(2 * SECOND), "{:?}", uci.seen);
    // The end of the input stops a search that would wait for 'stop'.
    let mut uci = Live::start();
    uci.ready(&["setoption name Threads value 4"]);
    uci.send("go infinite");
    assert!(uci.wait_for("info depth 2 ", 30 * SECOND).is_some());
    uci.input = None;
    assert!(uci.wait_for("bestmove ", 5 * SECOND).is_some());
    assert!(uci.exits_within(2 * SECOND), "{:?}", uci.seen);
}

/// Far more threads than cores: every clock and node count holds all the same, by wall
/// time, by the nodes searched and by the processor time used (which load cannot hide).
/// At most two threads a core search at once; the rest only wait their turn.
#[cfg(target_os = "linux")]
#[test]
fn many_threads_on_few_cores_keep_every_limit() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let mut uci = Live::start();
    uci.ready(&["setoption name Threads value 256", "position startpos"]);
    let cpu_before = uci.cpu_time().expect("/proc stat");
    let nodes_of = |seen: &[String]| -> u64 {
        let info = seen
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .cloned()
            .unwrap_or_default();
        let words: Vec<&str> = info.split(' ').collect();
        let at = words.iter().position(|w| *w == "nodes").expect("nodes");
        words[at + 1].parse().expect("a number")
    };
    for go in ["go movetime 1", "go movetime 20", "go wtime 50 btime 50"] {
        for _ in 0..3 {
            let took = uci.timed_go(go);
            assert!(took < Duration::from_millis(50) + MARGIN, "{go}: {took:?}");
            // Two threads a core for some milliseconds: far from the 400,000 and more
            // that 256 threads fighting for two cores searched.
            let nodes = nodes_of(&uci.seen);
            assert!(nodes < 100_000 * cores, "{go}: {nodes} nodes");
        }
    }
    // Nine searches of at most 50 ms on every core.
    let cpu = uci.cpu_time().expect("/proc stat") - cpu_before;
    let most = Duration::from_millis(1_000 + 500 * cores);
    assert!(cpu < most, "{cpu:?} of processor time");
    // The node cap: passed by fewer than 256 nodes however many threads.
    uci.ready(&["setoption name Threads value 64"]);
    for n in [1, 1000] {
        uci.timed_go(&format!("go nodes {n}"));
        let nodes = nodes_of(&uci.seen);
        assert!(nodes < n + 256, "go nodes {n}: {nodes}");
    }
}

#[test]
fn two_threads_keep_to_the_clock() {
    let mut uci = Live::start();
    uci.ready(&["setoption name Threads value 2", "position startpos"]);
    // 'go movetime T' stops at T less the overhead: never later than T.
    for ms in [50, 300] {
        let took = uci.timed_go(&format!("go movetime {ms}"));
        assert!(
            took < Duration::from_millis(ms) + MARGIN,
            "{ms} ms: {took:?}"
        );
    }
    // A clock: at most the hard limit the clock gives (three shares of the time left,
    // at most a third of it).
    let overhead = Duration::from_millis(10);
    for (left, inc) in [(2_000, 0), (10_000, 100)] {
        let c = Clock {
            left: Duration::from_millis(left),
            increment: Duration::from_millis(inc),
            moves_to_go: None,
        };
        let hard = clock::allocate(c, 150, overhead).hard;
        assert!(hard <= Duration::from_millis(left) / 3);
        let took = uci.timed_go(&format!(
            "go wtime {left} btime {left} winc {inc} binc {inc}"
        ));
        assert!(
            took < hard + MARGIN,
            "{left}+{inc}: {took:?} against {hard:?}"
        );
    }
}

#[test]
fn many_threads_on_a_small_table_work_and_give_their_memory_back() {
    let mut uci = Live::start();
    uci.ready(&[
        "setoption name Hash value 1",
        "setoption name Threads value 64",
        "position startpos",
    ]);
    uci.send("go depth 5");
    assert!(uci.wait_for("bestmove ", 60 * SECOND).is_some());
    let info = uci
        .seen
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .cloned()
        .unwrap_or_default();
    assert!(info.contains(" pv "), "{info}");
    if !cfg!(target_os = "linux") {
        println!("note: the /proc check is Linux only; skipping it");
        return;
    }
    let busy = uci.status_kb("VmRSS:").expect("/proc status");
    let peak = uci.status_kb("VmHWM:").expect("/proc status");
    // 63 helpers of about 3.5 MB each, the rest well under 100 MB.
    assert!(peak < 63 * 3_600 + 100_000, "peak {peak} kB");
    assert!(
        busy > 63 * 3_000,
        "{busy} kB: are the helpers' tables there?"
    );
    uci.ready(&["setoption name Threads value 1"]);
    let idle = uci.status_kb("VmRSS:").expect("/proc status");
    assert!(
        idle + 60 * 3_000 < busy,
        "{busy} kB with 64 threads, {idle} kB with one"
    );
}

/// What `uci` prints for `input`, its `info` and `bestmove` lines without their times
/// and speeds.
fn uci_lines(input: &str) -> Vec<String> {
    let out = common::run(&["uci", "--tuning"], input.as_bytes());
    common::stdout(&out)
        .lines()
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let mut kept = Vec::new();
            let mut i = 0;
            while i < words.len() {
                if matches!(words[i], "nps" | "time") {
                    i += 2;
                } else {
                    kept.push(words[i]);
                    i += 1;
                }
            }
            kept.join(" ")
        })
        .collect()
}

#[test]
fn one_thread_searches_the_tree_it_always_did() {
    // The lines of the single-threaded engine before the search could use threads
    // (scripts/threads-identity.sh compares whole benchmarks with another build): the
    // shared table must keep every entry exactly as the old one did, and going back to
    // one thread must leave nothing of the others. With the network at a fixed depth,
    // and with the hand-written evaluation at a node count; reverse futility's smaller
    // margin when improving and the table's bound as the evaluation, which came later,
    // off.
    let back_to_one = "setoption name Threads value 3\nsetoption name Threads value 1\n\
                       setoption name X RFP Improving value 0\n\
                       setoption name X TT Eval value 0\n";
    for (script, pinned) in [
        (
            "position startpos moves e4e5 e7e6\ngo depth 6\n",
            &PINNED_DEPTH[..],
        ),
        (
            "setoption name Use NNUE value false\nposition startpos\ngo nodes 20000\n",
            &PINNED_NODES[..],
        ),
    ] {
        assert_eq!(
            uci_lines(&format!("{back_to_one}{script}")),
            pinned,
            "{script}"
        );
    }
    // With every default, one thread after three searches as a fresh engine does.
    let script = "position startpos moves e4e5 e7e6\ngo depth 6\n";
    let fresh = uci_lines(script);
    let three_then_one = "setoption name Threads value 3\nsetoption name Threads value 1\n";
    assert_eq!(uci_lines(&format!("{three_then_one}{script}")), fresh);
    assert!(
        fresh.iter().any(|l| l.starts_with("info depth 6 ")),
        "{fresh:?}"
    );
}

/// See [`one_thread_searches_the_tree_it_always_did`].
const PINNED_DEPTH: [&str; 7] = [
    "info depth 1 seldepth 1 score cp 486 nodes 87 pv e5e6",
    "info depth 2 seldepth 4 score cp 491 nodes 217 pv e5e6 a7b6",
    "info depth 3 seldepth 5 score cp 515 nodes 838 pv e5e6 i7h6 i4h5",
    "info depth 4 seldepth 6 score cp 539 nodes 1648 pv e5e6 a7b7 g4f4 i7h6",
    "info depth 5 seldepth 7 score cp 568 nodes 2490 pv e5e6 a7b7 c4d4 c7d8 a3d5",
    "info depth 6 seldepth 8 score cp 569 nodes 3453 pv e5e6 a7b7 c4d4 c7d8 a4b5 b10c8",
    "bestmove e5e6",
];

/// See [`one_thread_searches_the_tree_it_always_did`].
const PINNED_NODES: [&str; 9] = [
    "info depth 1 seldepth 1 score cp 38 nodes 95 pv a4b5",
    "info depth 2 seldepth 2 score cp 5 nodes 408 pv a4b5 i7h6",
    "info depth 3 seldepth 5 score cp 38 nodes 854 pv a4b5 i7h6 i4h5",
    "info depth 4 seldepth 8 score cp 5 nodes 1761 pv a4b5 i7h6 i4h5 a7b6",
    "info depth 5 seldepth 10 score cp 19 nodes 4133 pv a4b5 g7f6 c4c5 a7b7 c5d5",
    "info depth 6 seldepth 12 score cp 20 nodes 8782 pv a4b5 h10g8 i4h5 a7b6 b5b6 c7b6",
    "info depth 7 seldepth 13 score cp 29 nodes 12716 pv a4b5 a7b6 b5b6 c7b6 i4h5 i7h6 c4d5",
    "info depth 7 seldepth 13 score cp 29 nodes 20224 pv a4b5 a7b6 b5b6 c7b6 i4h5 i7h6 c4d5",
    "bestmove a4b5",
];

#[test]
fn play_and_analyze_search_on_the_threads_asked() {
    let game = b"2\n3 4 4 4\n6 4 5 4\n";
    let out = common::run(&["analyze", "--threads", "2", "--nodes", "3000"], game);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = common::stdout(&out);
    assert!(
        text.starts_with("analysis: 2 moves from the start position, 3000 nodes"),
        "{text}"
    );
    let out = common::run(
        &[
            "play",
            "--blue",
            "ai",
            "--threads",
            "2",
            "--depth",
            "2",
            "--ascii",
        ],
        b"3 4 4 4\nquit\n",
    );
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(
        common::stdout(&out).contains("blue "),
        "{}",
        common::stdout(&out)
    );
    // A count out of range or not a number: a usage error, one line.
    for (args, message) in [
        (
            &["analyze", "--threads", "0"][..],
            "duckchess: analyze: --threads",
        ),
        (&["play", "--threads", "257"], "duckchess: play: --threads"),
        (&["play", "--threads", "two"], "duckchess: play: --threads"),
    ] {
        let out = common::run(args, game);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = common::stderr(&out);
        assert!(
            err.starts_with(message) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
}

/// Under a memory limit that cannot hold 256 threads, `Threads 256` keeps what it can
/// have, says so, and every `go` still gets its move in time (no abort at `go`).
#[cfg(target_os = "linux")]
#[test]
fn threads_beyond_the_memory_search_with_the_ones_there_are() {
    let script = "setoption name Threads value 256\nposition startpos\n\
                  go movetime 100\ngo movetime 100\ngo movetime 100\ngo movetime 100\n";
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 500000; exec '{}' uci",
            env!("CARGO_BIN_EXE_duckchess")
        ))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("piped")
                .write_all(script.as_bytes())?;
            child.wait_with_output()
        })
        .expect("sh runs");
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let text = common::stdout(&out);
    assert!(
        text.contains(
            "info string setoption threads: cannot allocate the memory of 256 threads; keeping "
        ),
        "{text}"
    );
    assert_eq!(text.matches("bestmove ").count(), 4, "{text}");
}
