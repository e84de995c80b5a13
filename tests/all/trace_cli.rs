//! The `trace` subcommand through the binary: golden outputs (`tests/golden/trace_*.txt`;
//! run with `UPDATE_GOLDEN=1` to rewrite them after an intended change), verdict lines
//! identical to the judge's, bad input reported exactly as the judge reports it, and the
//! usage errors.

use crate::common;
use crate::official;

use common::run;
use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Compares `actual` with the golden file `name`, or rewrites it under `UPDATE_GOLDEN`.
fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        fs::write(&path, actual).expect("write golden");
        return;
    }
    let expected = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if expected != actual {
        for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
            assert_eq!(e, a, "{name}: first difference on line {}", i + 1);
        }
        assert_eq!(expected, actual, "{name}");
    }
}

/// The judge lines a trace shows, in order.
fn verdict_lines(trace: &str) -> String {
    trace
        .lines()
        .filter(|l| {
            l.split('.')
                .next()
                .is_some_and(|n| n.parse::<u64>().is_ok())
        })
        .filter_map(|l| l.split_once(" => ").map(|(_, v)| format!("{v}\n")))
        .collect()
}

#[test]
fn golden_statement_sample() {
    let out = run(&["trace", "--ascii", "samples/statement.in"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    golden("trace_statement.txt", &text(&out.stdout));
}

#[test]
fn golden_every_and_at() {
    // Not a terminal: letters without --ascii too.
    let out = run(&["trace", "samples/statement.in", "--every", "5"], b"");
    assert_eq!(out.status.code(), Some(0));
    golden("trace_statement_every5.txt", &text(&out.stdout));
    let input = fs::read("samples/statement.in").expect("the sample");
    let out = run(&["trace", "--at", "14", "-"], &input);
    assert_eq!(out.status.code(), Some(0));
    golden("trace_statement_at14.txt", &text(&out.stdout));
}

#[test]
fn golden_from_a_position() {
    // Blue captain and soldier against red captain and car. Every kind of invalid command
    // the position allows, both captains attacked at once, two attackers, the end.
    let input = b"11
10 0 9 0
7 4 7 -1
0 0 1 0
3 3 4 4
7 4 5 4
7 4 7 5
7 4 6 4
0 0 6 0
6 4 5 4
0 0 1 0
7 5 6 5
";
    let out = run(
        &["trace", "--ascii", "--from", "9/9/4ks3/9/4K4/9/9/9/9/R8 b"],
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    golden("trace_from.txt", &text(&out.stdout));
}

/// Inputs whose judge output the trace must reproduce line for line.
fn judged_inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = vec![(
        "samples/statement.in".to_string(),
        fs::read("samples/statement.in").expect("the sample"),
    )];
    for mode in ["official", "legal", "endgame", "check", "big"] {
        for seed in ["1", "2"] {
            let out = run(&["gen", "--seed", seed, "--mode", mode, "--q", "300"], b"");
            inputs.push((format!("gen {mode} {seed}"), out.stdout));
        }
    }
    inputs
}

/// The official cases.
fn official_inputs() -> Vec<(String, Vec<u8>)> {
    let official = official::cases();
    (1..=4)
        .map(|i| {
            let path = official.join(format!("{i}.in"));
            let bytes = fs::read(&path).expect("an official input");
            (path.display().to_string(), bytes)
        })
        .collect()
}

#[test]
fn verdict_lines_are_the_judges() {
    verdict_lines_match(judged_inputs());
}

#[test]
#[cfg_attr(
    lacks_official,
    ignore = "needs the official cases (../shared/official/duckchess; scripts/fetch-official.sh)"
)]
fn verdict_lines_are_the_judges_on_the_official_cases() {
    verdict_lines_match(official_inputs());
}

/// The trace of each of `inputs` shows the judge's output lines.
fn verdict_lines_match(inputs: Vec<(String, Vec<u8>)>) {
    for (name, input) in inputs {
        let judged = run(&["judge"], &input);
        let traced = run(&["trace", "--at", "1"], &input);
        assert_eq!(traced.status.code(), Some(0), "{name}");
        assert_eq!(
            verdict_lines(&text(&traced.stdout)),
            text(&judged.stdout),
            "{name}"
        );
    }
}

#[test]
fn bad_input_is_reported_as_the_judge_reports_it() {
    let cases: &[&[u8]] = &[
        b"",
        b"abc\n",
        b"-3\n",
        b"2\n0 3 1 2\n",
        b"2\n0 3 1 2\n9 x 1 1\n",
        b"1\n0 0 1.5 0\n",
        b"3\r\n0 3\t1 2\r\n\r\n9 4\n8 4 0 0 oops",
    ];
    for input in cases {
        let judged = run(&["judge"], input);
        let traced = run(&["trace"], input);
        let name = text(input);
        assert_eq!(traced.status.code(), judged.status.code(), "{name:?}");
        // The same message, in the trace's voice.
        assert_eq!(
            text(&traced.stderr),
            text(&judged.stderr).replacen("duckchess: judge: ", "duckchess: trace: ", 1),
            "{name:?}"
        );
        assert_eq!(
            verdict_lines(&text(&traced.stdout)),
            text(&judged.stdout),
            "{name:?}"
        );
    }
    // Trailing input gets the judge's note, and the trace still ends normally.
    let traced = run(&["trace"], b"1\n0 3 1 2\n5 5 5 5\n");
    assert_eq!(traced.status.code(), Some(0));
    assert_eq!(
        text(&traced.stderr),
        "duckchess: trace: note: ignoring the input after command 1, from line 3, column 1\n"
    );
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let input = run(&["gen", "--seed", "3", "--mode", "big", "--q", "5000"], b"").stdout;
    let mut child = Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .args(["trace"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("piped");
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("piped");
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    let out = child.wait_with_output().expect("finishes");
    let _ = feeder.join();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn usage_errors() {
    for args in [
        &["trace", "--every", "0"][..],
        &["trace", "--at", "0"],
        &["trace", "--every", "2", "--at", "3"],
        &["trace", "--every", "two"],
        &["trace", "--from", "rhegkgehr/9 r"],
        &["trace", "--from"],
        &["trace", "a.in", "b.in"],
        &["trace", "--bogus"],
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.starts_with("duckchess: trace: "), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let out = run(
        &[
            "trace",
            "--from",
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHX r",
        ],
        b"",
    );
    assert_eq!(
        text(&out.stderr),
        "duckchess: trace: --from: rank 10 (row 0), column 9: unexpected character 'X'; expected a piece letter (KGEHRDS, lower case for blue), a digit 1-9 or '/' (see 'duckchess trace --help')\n"
    );
    let out = run(&["trace", "/nonexistent/x.in"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("duckchess: trace: cannot open /nonexistent/x.in: "));
    let out = run(&["trace", "samples"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "duckchess: trace: cannot open samples: it is a directory\n"
    );
    let out = run(&["trace", "--at", "99", "samples/statement.in"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stderr),
        "duckchess: trace: note: --at 99 is past the last command (18)\n"
    );
    let out = run(&["trace", "--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("usage: duckchess trace [FILE]"));
}
