//! What `duckchess test` does for wrong answers and for `stress`, through the binary: the
//! `differs:` line names format mistakes; a "no" is explained as well as a "yes", with
//! the board after the move; the online judge's comparison is the default; a closed
//! stdout does not hide failures; output is compared as it streams (no cap, flat
//! memory); a lone `X.in` is judged against the built-in judge; the samples are built in.

use crate::common;

use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_duckchess");
const SAMPLE_OUT: &str = include_str!("../../samples/statement.out");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn test_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("test")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// The sample's answer with line `n` (from 1) replaced, removed (`None`), or doubled.
fn sample_with(n: usize, line: Option<&str>) -> String {
    let mut lines: Vec<&str> = SAMPLE_OUT.lines().collect();
    match line {
        Some(l) => lines[n - 1] = l,
        None => {
            lines.remove(n - 1);
        }
    }
    lines.join("\n") + "\n"
}

/// The `differs:` line of a report.
fn differs(stdout: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("differs:  "))
        .unwrap_or_else(|| panic!("no differs line in {stdout}"))
        .to_string()
}

#[test]
fn format_mistakes_are_named_for_what_they_are() {
    let dir = common::sample_folder("diag", "format");
    let extra = {
        let mut lines: Vec<&str> = SAMPLE_OUT.lines().collect();
        lines.insert(6, "Invalid command");
        lines.join("\n") + "\n"
    };
    let cases = [
        (
            sample_with(1, Some("invalid command")),
            "letter case: `invalid` for `Invalid`",
        ),
        (
            sample_with(5, Some("red guard; NA;no;no")),
            "spacing: `; N` instead of `;N` at column 11 (an extra space)",
        ),
        (
            sample_with(5, Some("red guard;NA;No;no")),
            "letter case: `No` for `no`",
        ),
        (
            sample_with(5, Some("red gaurd;NA;no;no")),
            "moved piece: `red gaurd` for `red guard` (spelling)",
        ),
        (
            sample_with(7, None),
            "a missing line: the output goes on with the answer's next line (the output has \
             17 lines, the answer 18)",
        ),
        (
            extra,
            "an extra line: the answer's line comes one line later in the output (the output \
             has 19 lines, the answer 18)",
        ),
        (sample_with(16, Some("blue captain;NA;no;no")), "check"),
    ];
    for (i, (output, want)) in cases.iter().enumerate() {
        let cmd = common::printing(&dir, &format!("p{i}"), output);
        let out = test_in(&dir, &["case.in", "--cmd", &cmd]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        assert_eq!(differs(&stdout), *want, "{stdout}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_no_is_explained_and_the_board_after_is_shown() {
    let dir = common::sample_folder("diag", "no");
    // A blocked horse: the blue horse on (2, 4) would take the red captain on (0, 3),
    // but the red guard stands on (1, 4). (A case `stress` found against a solution
    // that forgets the horse's blocking square in its check test.)
    let input = "17\n0 3 1 4\n6 2 5 2\n0 5 1 6\n5 2 4 2\n1 6 0 5\n9 7 7 6\n0 5 1 6\n7 6 8 4\n\
                 1 6 0 5\n8 4 6 3\n0 5 1 6\n6 3 5 1\n1 6 0 5\n5 1 4 3\n0 5 1 6\n4 3 2 4\n0 4 0 3\n";
    fs::write(dir.join("horse.in"), input).expect("write");
    let mut answer = Vec::new();
    duckchess::judge::run(input.as_bytes(), &mut answer).expect("well formed");
    let answer = text(&answer);
    assert!(answer.ends_with("red captain;NA;no;no\n"));
    let wrong = answer.replace("red captain;NA;no;no\n", "red captain;NA;yes;no\n");
    let cmd = common::printing(&dir, "horse", &wrong);
    // No answer file: the built-in judge is the reference.
    let out = test_in(&dir, &["horse.in", "--cmd", &cmd, "--ascii"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(
        "      why:      valid: red captain (0, 4) -> (0, 3)\n                no check from the \
         blue horse on (2, 4): its way to the red captain on (0, 3) is blocked at (1, 4)\n"
    ), "{stdout}");
    assert!(!stdout.contains("note:"), "{stdout}");
    // After the move: the captain on (0, 3) marked, the blocking guard in ( ).
    assert!(
        stdout.contains("      board after command 17, blue to move:\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  1  .  .  .  . (G) .  G  .  .  1\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  0  R  H  E [K][.] .  E  H  R  0\n"),
        "{stdout}"
    );

    // The game is over after the capture: never check then.
    let cmd = common::printing(
        &dir,
        "over",
        &sample_with(17, Some("red duck;blue captain;yes;yes")),
    );
    let stdout = text(&test_in(&dir, &["case.in", "--cmd", &cmd]).stdout);
    assert!(stdout.contains(
        "                no check once the game is over: the blue captain has been captured, red wins\n"
    ), "{stdout}");
    assert!(
        stdout.contains("board after command 17, game over: red wins:\n"),
        "{stdout}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_default_comparison_ignores_line_ends_and_final_blank_lines_only() {
    let dir = common::sample_folder("diag", "ws");
    let trailing = SAMPLE_OUT.replace('\n', "  \r\n") + "\n\n";
    let cmd = common::printing(&dir, "trailing", &trailing);
    let out = test_in(&dir, &["case.in", "--cmd", &cmd, "--exact"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains(
        "only whitespace differs: trailing whitespace differs (first on line 1); 2 extra blank \
         lines at the end (the online judge's default comparison accepts this; --exact does not)"
    ), "{}", text(&out.stdout));
    let out = test_in(&dir, &["case.in", "--cmd", &cmd]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    // Spacing inside a line counts, as on Luogu.
    let cmd = common::printing(&dir, "inside", &sample_with(5, Some("red guard;NA;no; no")));
    let out = test_in(&dir, &["case.in", "--cmd", &cmd]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(
        differs(&stdout),
        "spacing: `; n` instead of `;n` at column 17 (an extra space)"
    );
    // So does a blank line in the middle.
    let cmd = common::printing(&dir, "blank", &sample_with(5, Some("\nred guard;NA;no;no")));
    let out = test_in(&dir, &["case.in", "--cmd", &cmd]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_stdout_does_not_turn_a_failure_into_success() {
    let dir = common::sample_folder("diag", "closed");
    // a passes, b fails.
    fs::rename(dir.join("case.in"), dir.join("a.in")).expect("rename");
    fs::rename(dir.join("case.out"), dir.join("a.out")).expect("rename");
    fs::write(dir.join("b.in"), "1\n0 0 1 0\n").expect("write");
    fs::write(dir.join("b.out"), "Invalid command\n").expect("write");
    let mut child = Command::new(BIN)
        .args(["test", "."])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ends");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_huge_output_is_compared_as_it_streams_in_flat_memory() {
    let dir = common::sample_folder("diag", "huge");
    // 4 million legal moves back and forth: 32 MB of input, 68 MB of output (above the
    // old 64 MiB cap, and the default output limit: raised here), no answer file (the
    // built-in judge answers as it goes).
    let n = 4_000_000;
    let moves = ["0 0 1 0\n", "9 0 8 0\n", "1 0 0 0\n", "8 0 9 0\n"];
    let mut input = format!("{n}\n").into_bytes();
    input.reserve(n * 8);
    for i in 0..n {
        input.extend_from_slice(moves[i % 4].as_bytes());
    }
    fs::write(dir.join("huge.in"), &input).expect("write");
    drop(input);
    let mut child = Command::new(BIN)
        .args(["test", "huge.in", "--cmd", BIN, "--timeout", "60"])
        .args(["--output-limit", "128"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdout = String::new();
    let reader = child.stdout.take().expect("piped");
    let read = std::thread::spawn(move || {
        let mut s = String::new();
        let mut r = reader;
        r.read_to_string(&mut s).expect("read");
        s
    });
    let peak = if cfg!(target_os = "linux") {
        common::peak_kb(&mut child)
    } else {
        0
    };
    let status = child.wait().expect("ends");
    stdout.push_str(&read.join().expect("read"));
    assert_eq!(status.code(), Some(0), "{stdout}");
    assert!(stdout.starts_with("AC  huge  "), "{stdout}");
    if cfg!(target_os = "linux") {
        assert!(peak > 0 && peak < 32 * 1024, "peak RSS {peak} kB");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_lone_input_is_judged_against_the_built_in_judge() {
    let dir = common::sample_folder("diag", "lone");
    fs::remove_file(dir.join("case.out")).expect("rm");
    let out = test_in(&dir, &["case.in"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let cmd = common::printing(&dir, "wrong", &sample_with(1, Some("red car;NA;no;no")));
    let stdout = text(&test_in(&dir, &["case.in", "--cmd", &cmd]).stdout);
    assert!(
        stdout.contains("      expected: Invalid command\n"),
        "{stdout}"
    );
    // An input the judge cannot read has no reference answer.
    fs::write(dir.join("bad.in"), "2\n0 0 1 0\n").expect("write");
    let out = test_in(&dir, &["bad.in"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .starts_with("duckchess: test: bad.in: the built-in judge cannot answer this input: "),
        "{}",
        text(&out.stderr)
    );
    // In a directory, an input without an answer is still skipped, with a note.
    let out = test_in(&dir, &["."]);
    assert!(
        text(&out.stderr).contains("skipping ./case.in"),
        "{}",
        text(&out.stderr)
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_samples_are_built_in() {
    // From a folder without samples/, the built-in ones run.
    let dir = common::sample_folder("diag", "elsewhere");
    let out = test_in(&dir, &["--cmd", BIN]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("AC  built-in/statement  "), "{stdout}");
    let count = fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"))
        .expect("samples/")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "in"))
        })
        .count();
    assert!(
        stdout.ends_with(&format!("{count} passed, 0 failed\n")),
        "{stdout}"
    );
    // --samples picks them with other paths too.
    let out = test_in(&dir, &["--samples", "case.in"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.ends_with(&format!("{} passed, 0 failed\n", count + 1)),
        "{stdout}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_line_unlike_the_answer_is_a_different_line_not_a_misspelling() {
    let dir = common::sample_folder("diag", "different");
    let out = test_in(&dir, &["--samples", "--cmd", "echo hi"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout
            .contains("  differs:  a different line: `hi` where the answer is `Invalid command`\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("spelling"), "{stdout}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_on_board_end_of_an_off_board_command_is_marked_as_a_move_not_as_a_block() {
    let dir = common::sample_folder("diag", "off-board");
    // The red car on (0, 0) told to leave the board: the judge says Invalid command.
    fs::write(dir.join("off.in"), "1\n0 0 -1 0\n").expect("write");
    let cmd = common::printing(&dir, "moves", "red car;NA;no;no\n");
    let out = test_in(&dir, &["off.in", "--cmd", &cmd]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let board = stdout
        .split("board before command 1")
        .nth(1)
        .unwrap_or_else(|| panic!("a board before in {stdout}"));
    let row0 = board
        .lines()
        .find(|l| l.trim_start().starts_with("0 ") && l.contains('H'))
        .unwrap_or_else(|| panic!("row 0 in {board}"));
    assert!(row0.contains("[R]"), "{row0}");
    assert!(
        !board.contains('('),
        "( ) is for blocking squares only: {board}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// A legal move the solution refused: `why:` names the squares on its way, all empty,
/// and the board marks them as it marks a blocking square.
#[test]
fn a_refused_legal_move_names_its_free_way() {
    let dir = common::sample_folder("diagnosis", "free-way");
    // The red horse (0, 1) to (2, 2): its leg (1, 1) is empty. The red elephant (0, 2)
    // to (2, 4): its eye (1, 3) is empty.
    fs::write(dir.join("horse.in"), "1\n0 1 2 2\n").expect("write");
    fs::write(dir.join("horse.ans"), "red horse;NA;no;no\n").expect("write");
    fs::write(dir.join("elephant.in"), "1\n0 2 2 4\n").expect("write");
    fs::write(dir.join("elephant.ans"), "red elephant;NA;no;no\n").expect("write");
    let out = test_in(
        &dir,
        &[
            "--ascii",
            "--cmd",
            "printf 'Invalid command\\n'",
            "horse.in",
            "elephant.in",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "      why:      valid: red horse (0, 1) -> (2, 2)\n                the square on \
             its way, (1, 1), is empty\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("the square on its way, (1, 3), is empty\n"),
        "{stdout}"
    );
    let _ = fs::remove_dir_all(&dir);
}
