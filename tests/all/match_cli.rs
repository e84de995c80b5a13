//! `duckchess match` against hostile opponents, stand-ins written here as shell scripts
//! (or `yes`): one that floods its output before or after the handshake, one that
//! prints an overlong line, one that leaves children behind, one that hangs until the
//! match is interrupted. Every wait of the match is bounded, its memory stays flat, and
//! nothing an engine started outlives it. Wall-time bounds are generous; the figures
//! are in the report of the work, not asserted here. Games played side by side
//! (`--jobs`) are written in their order: at a node count a move the match is the same
//! for any number of jobs.

use crate::common;

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_duckchess");
/// The most a match may hold, in kB of resident memory, against any opponent.
const PEAK_KB: u64 = 64 * 1024;

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("match-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Writes an executable shell script and returns its path.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}")).expect("write the script");
    let made = Command::new("chmod")
        .args(["+x", &path.to_string_lossy()])
        .status()
        .expect("chmod runs");
    assert!(made.success());
    path.to_string_lossy().into_owned()
}

/// The stand-in engine's UCI loop: `uci` and `isready` answered, `go` handled by
/// `on_go`, `quit` obeyed.
fn engine_loop(on_go: &str) -> String {
    format!(
        "while read -r line; do\n  case \"$line\" in\n    uci) echo 'id name stub'; \
         echo uciok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  \
         esac\ndone\n"
    )
}

/// The peak resident memory of process `pid` so far, in kB (Linux).
fn peak_kb(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// What a bounded match run gave: exit code, standard output and error, peak memory.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    peak_kb: u64,
    took: Duration,
}

/// Runs `match` with `args`, watching its peak memory; kills it (and fails) past
/// `limit` of wall time or [`PEAK_KB`] of memory.
fn bounded_match(args: &[&str], limit: Duration) -> Run {
    let started = Instant::now();
    let mut child = Command::new(BIN)
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("match starts");
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let reader = thread::spawn(move || {
        let mut text = String::new();
        let _ = out.read_to_string(&mut text);
        text
    });
    let err_reader = thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let mut peak = 0;
    let status = loop {
        if let Some(kb) = peak_kb(child.id()) {
            peak = peak.max(kb);
        }
        if let Some(status) = child.try_wait().expect("wait works") {
            break status;
        }
        let over = started.elapsed() > limit || peak > PEAK_KB;
        if over {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "match still running after {:?} with a peak of {peak} kB",
                started.elapsed()
            );
        }
        thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        stdout: reader.join().expect("stdout read"),
        stderr: err_reader.join().expect("stderr read"),
        peak_kb: peak,
        took: started.elapsed(),
    }
}

/// Whether process `pid` has ended (gone, or a zombie waiting for its parent).
fn ended(pid: &str) -> bool {
    fs::read_to_string(format!("/proc/{}/stat", pid.trim())).map_or(true, |s| s.contains(") Z "))
}

/// Asserts that every process in `pids` ends within a second; kills survivors first,
/// so that a failing test leaves nothing running.
fn assert_all_ended(pids: &[String], what: &str) {
    let deadline = Instant::now() + Duration::from_secs(1);
    while Instant::now() < deadline && !pids.iter().all(|p| ended(p)) {
        thread::sleep(Duration::from_millis(10));
    }
    let survivors: Vec<&String> = pids.iter().filter(|p| !ended(p)).collect();
    for pid in &survivors {
        let _ = Command::new("kill").args(["-KILL", pid.trim()]).status();
    }
    assert!(survivors.is_empty(), "{what}: {survivors:?} still running");
}

/// The pids stand-ins wrote to `file`, one a line, once `count` are there; `None`
/// after ten seconds.
fn wait_for_pids(file: &Path, count: usize) -> Option<Vec<String>> {
    for _ in 0..1000 {
        if let Ok(text) = fs::read_to_string(file) {
            let pids: Vec<String> = text.lines().map(str::to_string).collect();
            if pids.len() >= count && text.ends_with('\n') {
                return Some(pids);
            }
        }
        thread::sleep(Duration::from_millis(10));
    }
    None
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn an_opponent_that_floods_before_the_handshake_fails_it_in_time_and_flat_memory() {
    let run = bounded_match(
        &[
            "--opponent",
            "yes garbage",
            "--movetime",
            "20",
            "--openings",
            "1",
        ],
        Duration::from_secs(30),
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "duckchess: match: yes garbage: no uciok within 5 s\n"
    );
    assert!(run.took >= Duration::from_secs(5), "{:?}", run.took);
    assert!(run.peak_kb < PEAK_KB, "{} kB", run.peak_kb);
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn an_opponent_that_floods_while_thinking_loses_on_time_in_flat_memory() {
    let dir = scratch("flood");
    let flood = script(
        &dir,
        "flood.sh",
        &engine_loop("yes 'info depth 1 score cp 0 nodes 1 time 1 pv a1a2'"),
    );
    let run = bounded_match(
        &["--opponent", &flood, "--movetime", "20", "--openings", "1"],
        Duration::from_secs(40),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let games: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .collect();
    assert_eq!(games.len(), 2, "{}", run.stdout);
    for game in games {
        assert!(
            game.contains(": engine wins (stub: no bestmove within 1020 ms) after "),
            "{game}"
        );
    }
    assert!(run.peak_kb < PEAK_KB, "{} kB", run.peak_kb);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_overlong_line_is_a_protocol_error() {
    let dir = scratch("long");
    // 70,000 characters on one line, in answer to 'uci'.
    let long = script(
        &dir,
        "long.sh",
        "read -r line\nprintf 'id name %070000d\\n' 0\necho uciok\nsleep 30\n",
    );
    let started = Instant::now();
    let out = Command::new(BIN)
        .args(["match", "--opponent", &long, "--openings", "1"])
        .stdin(Stdio::null())
        .output()
        .expect("match runs");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("duckchess: match: {long}: a line longer than 65536 bytes\n")
    );
    // Not the 30 s the stand-in sleeps: its group is ended.
    assert!(started.elapsed() < Duration::from_secs(20));
    let _ = fs::remove_dir_all(&dir);
}

/// The output of a match of one opening at 20 ms a move against `opponent`, which must
/// end with status 0.
fn one_opening_against(opponent: &str) -> String {
    let out = Command::new(BIN)
        .args(["match", "--opponent", opponent])
        .args(["--openings", "1", "--movetime", "20"])
        .stdin(Stdio::null())
        .output()
        .expect("match runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    stdout
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn the_match_ends_what_an_opponent_started() {
    let dir = scratch("children");
    let pids = dir.join("pids");
    // Two children left behind: one that ends on TERM, one that ignores it. The
    // stand-in itself plays an illegal move, so each game ends at once.
    let body = format!(
        "sleep 1000 &\necho $! >> '{p}'\nsh -c \"trap '' TERM; exec sleep 1000\" &\n\
         echo $! >> '{p}'\n{}",
        engine_loop("echo 'bestmove z9z9'"),
        p = pids.display()
    );
    let stub = script(&dir, "children.sh", &body);
    let stdout = one_opening_against(&stub);
    assert!(
        stdout.contains("engine: wins 2, losses 0, draws 0"),
        "{stdout}"
    );
    let left = wait_for_pids(&pids, 2).expect("the stand-in started its children");
    assert_all_ended(&left, "children of the opponent after the match");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn a_helper_that_leaves_the_group_holding_the_output_is_ended_too() {
    common::needs_setsid();
    let dir = scratch("setsid");
    let pids = dir.join("pids");
    // A helper in a session of its own (out of reach of a kill of the engine's group)
    // that holds the engine's output open; the engine plays an illegal move, so each
    // game ends at once and the engine is ended and started again.
    let body = format!(
        "setsid sh -c 'echo $$ >> \"{p}\"; exec sleep 1000' &\n{}",
        engine_loop("echo 'bestmove z9z9'"),
        p = pids.display()
    );
    let stub = script(&dir, "setsid.sh", &body);
    one_opening_against(&stub);
    let left = wait_for_pids(&pids, 1).expect("the stand-in started its helper");
    assert_all_ended(&left, "setsid helpers of the opponent after the match");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn a_daemon_an_opponent_starts_in_a_session_of_its_own_is_ended_too() {
    common::needs_setsid();
    let dir = scratch("daemon");
    let pids = dir.join("pids");
    // A daemon as a daemon is started: a session of its own, its streams elsewhere,
    // its parent gone at once. It holds none of the engine's pipes and is in none of
    // its groups: only the engine's supervisor, its subreaper, or its control group
    // find it.
    let body = format!(
        "( setsid sh -c 'echo $$ >> \"{p}\"; exec sleep 61' </dev/null >/dev/null 2>&1 & )\n{}",
        engine_loop("echo 'bestmove z9z9'"),
        p = pids.display()
    );
    let stub = script(&dir, "daemon.sh", &body);
    one_opening_against(&stub);
    let left = wait_for_pids(&pids, 1).expect("the stand-in started its daemon");
    assert_all_ended(&left, "daemons of the opponent after the match");
    // The same as an ordinary user, with no control group: the supervisor finds it.
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).expect("chmod");
    }
    fs::remove_file(&pids).expect("the pids of the first match");
    let out = common::as_ordinary_user()
        .args(["match", "--opponent", &stub])
        .args(["--openings", "1", "--movetime", "20"])
        .stdin(Stdio::null())
        .output()
        .expect("match runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let left = wait_for_pids(&pids, 1).expect("the stand-in started its daemon");
    assert_all_ended(
        &left,
        "daemons of the opponent after an ordinary user's match",
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn an_interrupted_match_ends_the_engines_and_their_children() {
    let dir = scratch("interrupt");
    let pids = dir.join("pids");
    // An engine that starts a child, and asked to move waits for it: for ever. Both
    // players are this one, so the first 'go' hangs whoever is red.
    let body = format!(
        "echo $$ >> '{p}'\nsleep 1000 &\necho $! >> '{p}'\n{}",
        engine_loop("wait"),
        p = pids.display()
    );
    let stub = script(&dir, "hang.sh", &body);
    let mut child: Child = Command::new(BIN)
        .args(["match", "--engine", &stub, "--opponent", &stub])
        .args(["--openings", "1", "--movetime", "60000"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("match starts");
    let Some(running) = wait_for_pids(&pids, 4) else {
        let _ = child.kill();
        let _ = child.wait();
        let started = fs::read_to_string(&pids).unwrap_or_default();
        let started: Vec<String> = started.lines().map(str::to_string).collect();
        assert_all_ended(&started, "stand-ins of a match that did not start");
        panic!("the stand-ins did not start");
    };
    // Both handshakes done: the match is waiting for the first move.
    thread::sleep(Duration::from_millis(300));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait works") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            assert_all_ended(&running, "after a match that ignored the interrupt");
            panic!("match did not end on the interrupt");
        }
        thread::sleep(Duration::from_millis(10));
    };
    assert_all_ended(&running, "the opponent and its child after the interrupt");
    assert_eq!(status.code(), Some(130));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn time_odds_give_the_opponent_its_own_time_a_move_and_nodes_replace_time() {
    let dir = scratch("odds");
    let seen = dir.join("go");
    // An opponent that notes each go and answers with an illegal move (so loses).
    let opponent = script(
        &dir,
        "noting",
        &engine_loop(&format!(
            "echo \"$line\" >>'{}'; echo 'bestmove a1a1'",
            seen.display()
        )),
    );
    let out = Command::new(BIN)
        .args(["match", "--opponent", &opponent, "--openings", "1"])
        .args(["--movetime", "20", "--opponent-movetime", "60"])
        .stdin(Stdio::null())
        .output()
        .expect("match runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("1 opening, 20 ms a move against 60 ms"),
        "{stdout}"
    );
    assert!(stdout.contains("engine: wins 2, losses 0"), "{stdout}");
    let gos = fs::read_to_string(&seen).expect("the opponent was asked to move");
    assert_eq!(gos.lines().collect::<Vec<_>>(), ["go movetime 60"; 2]);
    // A node count a move instead of a time.
    fs::remove_file(&seen).expect("the notes of the first match");
    let out = Command::new(BIN)
        .args(["match", "--opponent", &opponent, "--openings", "1"])
        .args(["--nodes", "500"])
        .stdin(Stdio::null())
        .output()
        .expect("match runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("1 opening, 500 nodes a move"), "{stdout}");
    let gos = fs::read_to_string(&seen).expect("the opponent was asked to move");
    assert_eq!(gos.lines().collect::<Vec<_>>(), ["go nodes 500"; 2]);
    // Node odds: each engine its own count.
    fs::remove_file(&seen).expect("the notes of the second match");
    let out = Command::new(BIN)
        .args(["match", "--opponent", &opponent, "--openings", "1"])
        .args(["--nodes", "500", "--opponent-nodes", "1500"])
        .stdin(Stdio::null())
        .output()
        .expect("match runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("500 nodes a move against 1500"), "{stdout}");
    let gos = fs::read_to_string(&seen).expect("the opponent was asked to move");
    assert_eq!(gos.lines().collect::<Vec<_>>(), ["go nodes 1500"; 2]);
    // Time odds are for a time a move: with a clock they are refused.
    let refused = common::run(
        &[
            "match",
            "--opponent",
            &opponent,
            "--clock",
            "1+0",
            "--opponent-movetime",
            "60",
        ],
        b"",
    );
    assert_eq!(refused.status.code(), Some(2));
    // Node odds need a node count of the engine's own.
    let refused = common::run(
        &["match", "--opponent", &opponent, "--opponent-nodes", "60"],
        b"",
    );
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn threads_are_set_on_both_engines() {
    let dir = scratch("threads");
    let seen = dir.join("lines");
    // An opponent that notes every line it reads and answers each go with an illegal
    // move (so loses).
    let opponent = script(
        &dir,
        "noting",
        &format!(
            "while read -r line; do\n  echo \"$line\" >>'{}'\n  case \"$line\" in\n    \
             uci) echo 'id name stub'; echo uciok;;\n    isready) echo readyok;;\n    \
             go*) echo 'bestmove a1a1';;\n    quit) exit 0;;\n  esac\ndone\n",
            seen.display()
        ),
    );
    let threads_set = |args: &[&str]| -> Vec<String> {
        let _ = fs::remove_file(&seen);
        let out = Command::new(BIN)
            .args(["match", "--opponent", &opponent, "--openings", "1"])
            .args(["--movetime", "20"])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("match runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stdout}");
        // The engine under test (this program, on 2 threads) wins both games.
        assert!(stdout.contains("engine: wins 2, losses 0"), "{stdout}");
        let lines = fs::read_to_string(&seen).expect("the opponent read its input");
        lines
            .lines()
            .filter(|l| l.contains("Threads"))
            .map(str::to_string)
            .collect()
    };
    let theirs = threads_set(&["--threads", "2", "--opponent-threads", "3"]);
    assert_eq!(theirs, ["setoption name Threads value 3"]);
    let theirs = threads_set(&["--threads", "2"]);
    assert_eq!(theirs, ["setoption name Threads value 2"]);
    assert!(threads_set(&[]).is_empty(), "no Threads unless asked");
    // A thread count out of range, or given twice, is a usage error.
    for args in [
        &["--threads", "0"][..],
        &["--opponent-threads", "257"],
        &["--threads", "2", "--engine-options", "Threads=4"],
    ] {
        let mut all = vec!["match", "--opponent", &opponent];
        all.extend_from_slice(args);
        let refused = common::run(&all, b"");
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        assert_eq!(common::stderr(&refused).lines().count(), 1, "{args:?}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn games_side_by_side_are_written_in_their_order() {
    let dir = scratch("jobs");
    let own = format!("{BIN} uci");
    let play = |jobs: &str| {
        let record = dir.join(format!("record-{jobs}"));
        let out = Command::new(BIN)
            .args([
                "match",
                "--opponent",
                &own,
                "--openings",
                "3",
                "--plies",
                "2",
            ])
            .args(["--nodes", "300", "--seed", "4", "--jobs", jobs])
            .args(["--record", &record.display().to_string()])
            .stdin(Stdio::null())
            .output()
            .expect("match runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(0), "--jobs {jobs}: {stdout}");
        // The speeds of the summary depend on the machine; everything else is fixed.
        let fixed: Vec<String> = stdout
            .lines()
            .filter(|l| !l.contains("nodes/s"))
            .map(str::to_string)
            .collect();
        let record = fs::read_to_string(&record).expect("the record");
        (fixed, record)
    };
    let (one, record) = play("1");
    assert_eq!(one.iter().filter(|l| l.starts_with("game ")).count(), 6);
    assert!(
        one.iter().any(|l| l.starts_with("engine: wins ")),
        "{one:?}"
    );
    assert_eq!(record.lines().count(), 12, "{record}");
    for jobs in ["2", "4"] {
        let (many, many_record) = play(jobs);
        assert_eq!(many, one, "--jobs {jobs}");
        assert_eq!(many_record, record, "--jobs {jobs}");
    }
    // A bad count is a usage error on one line.
    for bad in ["0", "65", "x"] {
        let refused = common::run(&["match", "--opponent", &own, "--jobs", bad], b"");
        assert_eq!(refused.status.code(), Some(2), "--jobs {bad}");
        let err = common::stderr(&refused);
        assert!(
            err.starts_with("duckchess: match: --jobs") && err.lines().count() == 1,
            "{err}"
        );
    }
}
