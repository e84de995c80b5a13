//! Files written whole or absent when the writer is stopped by a signal: `gen --suite`
//! stopped at each stage of writing a test set leaves the old suite or the new one,
//! whole, or none, and the next run cleans what was left hidden; `train` stopped
//! between writing its network and renaming it leaves a temporary file that its next
//! run removes.
//!
//! The binary pauses at a named point when `DUCKCHESS_PAUSE_AT` names it (and says so
//! on standard error), so each signal lands at exactly that point. It starts with the
//! default disposition of the signals the tests send ([`defaults`]), whatever this
//! process inherited: started from a script's background job, SIGINT comes ignored, and
//! a well-behaved program keeps an ignore it inherits.
//!
//! A test crate of its own, unlike the others (`tests/all/`): each of its tests stops
//! the binary at a point of a whole suite's making, and beside the many programs the
//! other tests run at once, that point came too late for its clock. Cargo runs it after
//! them, alone.
#![cfg(unix)]

#[path = "all/common/mod.rs"]
mod common;

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_duckchess");

unsafe extern "C" {
    fn signal(signum: i32, handler: usize) -> usize;
}

/// The signals the tests send (SIGHUP, SIGINT, SIGTERM), and the values of their
/// dispositions.
const SENT: [i32; 3] = [1, 2, 15];
const SIG_DFL: usize = 0;
const SIG_IGN: usize = 1;

/// `command` set to start its program with the default disposition of the signals the
/// tests send, whatever this process has.
fn defaults(command: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure calls only signal(2), which is
    // async-signal-safe, and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            for s in SENT {
                signal(s, SIG_DFL);
            }
            Ok(())
        })
    }
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("interrupted-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// The names in `dir`, sorted (hidden ones included).
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Every file of `dir`, by name, with its bytes.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    names(dir)
        .into_iter()
        .map(|n| {
            let bytes = fs::read(dir.join(&n)).expect("a file");
            (n, bytes)
        })
        .collect()
}

/// Runs the binary in `dir` with `args`, pausing at `point`; once it says it is
/// there, sends it `signal` (a name for kill(1)) and waits for it to end. Returns
/// false when it never reached the point (it ended first, or a minute passed).
fn stop_at(dir: &Path, args: &[&str], point: &str, signal: &str) -> bool {
    let mut child = defaults(&mut Command::new(BIN))
        .args(args)
        .current_dir(dir)
        .env("DUCKCHESS_PAUSE_AT", point)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stderr = child.stderr.take().expect("stderr is piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let wanted = format!("duckchess: paused at {point}");
    let mut reached = false;
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(60)) {
        if line == wanted {
            reached = true;
            break;
        }
    }
    let sent = Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    if !sent {
        let _ = child.kill();
    }
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting works") {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "it ends");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!status.success(), "ended by the signal");
    reached
}

/// Starts the binary in `dir` with `args` (a `gen --suite`), pausing for `seconds`
/// once its first file is written aside; returns when it says it is there, with the
/// rest of its standard error to read.
fn paused_once_begun(
    dir: &Path,
    args: &[&str],
    seconds: u32,
) -> (
    std::process::Child,
    std::io::Lines<BufReader<std::process::ChildStderr>>,
) {
    let mut child = defaults(&mut Command::new(BIN))
        .args(args)
        .current_dir(dir)
        .env("DUCKCHESS_PAUSE_AT", "suite-begun")
        .env("DUCKCHESS_PAUSE_SECONDS", seconds.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr is piped")).lines();
    let paused = lines
        .by_ref()
        .map_while(Result::ok)
        .any(|l| l == "duckchess: paused at suite-begun");
    assert!(paused, "it reaches the pause");
    (child, lines)
}

fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut command = Command::new(BIN);
    command.args(args).current_dir(dir);
    common::run_command(command, b"")
}

#[test]
#[ignore = "slow (about 2 min: suites stopped at each stage): the full tier runs it"]
fn a_suite_stopped_at_any_stage_is_old_new_or_absent() {
    let dir = scratch("suite");
    let old_args = ["gen", "--suite", "s", "--files", "1", "--seed", "1"];
    let new_args = ["gen", "--suite", "s", "--files", "1", "--seed", "2"];
    // One file lets a few mistakes survive (exit status 1): the suite is written all
    // the same.
    let written = |out: &std::process::Output| {
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            common::stderr(out)
        );
    };
    let out = run_in(&dir, &old_args);
    written(&out);
    let old = contents(&dir.join("s"));
    assert_eq!(
        old.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["1.ans", "1.in", "suite.txt"]
    );
    // Stopped before the old suite is touched: it is whole.
    for (point, signal) in [("suite-begun", "INT"), ("suite-written", "TERM")] {
        assert!(stop_at(&dir, &new_args, point, signal), "{point}");
        assert_eq!(contents(&dir.join("s")), old, "stopped at {point}");
    }
    // Stopped between the two renames: no suite in its place for now, never half of
    // one, and the old one hidden beside it.
    assert!(stop_at(&dir, &new_args, "suite-aside", "INT"));
    assert!(!dir.join("s").exists());
    // The next run puts the old suite back first: stopped inside the write of its
    // first file (written aside, not yet renamed), it leaves the old suite whole.
    assert!(stop_at(&dir, &new_args, "file-written", "TERM"));
    assert_eq!(contents(&dir.join("s")), old, "the old suite is back");
    // The next run is not blocked by what was left, and cleans it up.
    let out = run_in(&dir, &new_args);
    written(&out);
    assert_eq!(names(&dir), ["s"], "nothing left hidden");
    let new = contents(&dir.join("s"));
    assert_eq!(
        new.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["1.ans", "1.in", "suite.txt"]
    );
    assert_ne!(new, old);
    // Stopped once the new suite is whole beside the old: the old stays.
    assert!(stop_at(&dir, &old_args, "suite-written", "KILL"));
    assert_eq!(contents(&dir.join("s")), new);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn train_stopped_before_its_rename_leaves_a_file_its_next_run_removes() {
    let dir = scratch("train");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/train/positions.txt");
    fs::copy(fixture, dir.join("games.txt")).expect("the positions");
    let train = ["train", "games.txt", "--out", "my.net", "--epochs", "1"];
    assert!(stop_at(&dir, &train, "file-written", "INT"));
    let left: Vec<String> = names(&dir)
        .into_iter()
        .filter(|n| n.starts_with(".my.net."))
        .collect();
    assert_eq!(left.len(), 1, "{:?}", names(&dir));
    assert!(!dir.join("my.net").exists());
    let out = run_in(&dir, &train);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    assert_eq!(names(&dir), ["games.txt", "my.net"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "slow (about 30 s: two suites of one file): the full tier runs it"]
fn a_file_put_into_the_folder_while_the_suite_is_made_stays_and_the_suite_is_refused() {
    let dir = scratch("foreign");
    let args = ["gen", "--suite", "s", "--files", "1", "--seed", "1"];
    let out = run_in(&dir, &args);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        common::stderr(&out)
    );
    let old = contents(&dir.join("s"));
    // The next run pauses once its first file is written aside; a user's file comes
    // into the folder then.
    let args = ["gen", "--suite", "s", "--files", "1", "--seed", "2"];
    let (mut child, lines) = paused_once_begun(&dir, &args, 1);
    fs::write(dir.join("s").join("notes.txt"), b"mine\n").expect("a user's file");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().expect("it ends");
    assert_eq!(status.code(), Some(1), "{rest:?}");
    assert!(
        rest.iter()
            .any(|l| l.contains("notes.txt is not a file the suite writes")),
        "{rest:?}"
    );
    let mut expected = old;
    expected.push(("notes.txt".to_string(), b"mine\n".to_vec()));
    expected.sort();
    assert_eq!(
        contents(&dir.join("s")),
        expected,
        "the folder as the user left it"
    );
    assert_eq!(names(&dir), ["s"], "nothing left hidden");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "slow (about 20 s: a suite of one file, another refused beside it): the full tier runs it"]
fn a_second_run_into_the_same_folder_is_refused_and_takes_nothing() {
    let dir = scratch("busy");
    let args = ["gen", "--suite", "s", "--files", "1", "--seed", "1"];
    // The first run pauses once its first file is written aside.
    let (mut first, lines) = paused_once_begun(&dir, &args, 2);
    let hidden: Vec<String> = names(&dir).into_iter().filter(|n| n != "s").collect();
    // The second is refused at once, and removes none of the first's work.
    let out = run_in(&dir, &args);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    assert_eq!(
        common::stderr(&out),
        "duckchess: gen: another gen --suite is writing s: wait for it to end, or give \
         another folder\n"
    );
    let now: Vec<String> = names(&dir).into_iter().filter(|n| n != "s").collect();
    assert_eq!(now, hidden, "the first run's work is as it was");
    let _: Vec<String> = lines.map_while(Result::ok).collect();
    let status = first.wait().expect("it ends");
    assert!(
        matches!(status.code(), Some(0 | 1)),
        "the first run ends well"
    );
    assert_eq!(
        contents(&dir.join("s"))
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>(),
        ["1.ans", "1.in", "suite.txt"]
    );
    assert_eq!(names(&dir), ["s"], "nothing left hidden, the lock gone");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "slow (about 10 s: a suite stopped twice): the full tier runs it"]
fn the_binary_is_stopped_even_where_this_process_ignores_the_signals() {
    // As in a script's background job: the signals come ignored. Every test of this
    // crate starts the binary with their defaults, so each still stops it.
    for s in SENT {
        // SAFETY: signal(2) with SIG_IGN changes only this process's disposition.
        unsafe { signal(s, SIG_IGN) };
    }
    let dir = scratch("ignored");
    let args = ["gen", "--suite", "s", "--files", "1", "--seed", "3"];
    for sent in ["INT", "TERM"] {
        assert!(stop_at(&dir, &args, "suite-begun", sent), "{sent}");
    }
    assert!(!dir.join("s").exists());
    let _ = fs::remove_dir_all(&dir);
}
