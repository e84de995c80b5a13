//! The judge through the real binary: the SPEC sample and every case of the input
//! contract (SPEC section 5), checking stdout, stderr and the exit status.

use crate::common;

use common::{run, stderr, stdout};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

const SAMPLE_IN: &str = include_str!("../../samples/statement.in");
const SAMPLE_OUT: &str = include_str!("../../samples/statement.out");

fn assert_clean(o: &std::process::Output, expected_stdout: &str) {
    assert_eq!(stdout(o), expected_stdout);
    assert_eq!(stderr(o), "");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn the_statement_sample_on_stdin_and_from_a_file() {
    assert_clean(&run(&[], SAMPLE_IN.as_bytes()), SAMPLE_OUT);
    assert_clean(&run(&["judge"], SAMPLE_IN.as_bytes()), SAMPLE_OUT);
    assert_clean(&run(&["judge", "-"], SAMPLE_IN.as_bytes()), SAMPLE_OUT);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/statement.in");
    assert_clean(&run(&["judge", path], b""), SAMPLE_OUT);
}

#[test]
fn any_whitespace_separates_tokens() {
    let crlf = SAMPLE_IN.replace('\n', "\r\n");
    assert_clean(&run(&[], crlf.as_bytes()), SAMPLE_OUT);
    let tabs = SAMPLE_IN.replace(' ', "\t");
    assert_clean(&run(&[], tabs.as_bytes()), SAMPLE_OUT);
    let split = SAMPLE_IN.replace(' ', "\n\n \x0b\x0c");
    assert_clean(&run(&[], split.as_bytes()), SAMPLE_OUT);
    let one_line = SAMPLE_IN.replace('\n', " ");
    assert_clean(&run(&[], one_line.as_bytes()), SAMPLE_OUT);
    let no_final_newline = SAMPLE_IN.trim_end();
    assert_clean(&run(&[], no_final_newline.as_bytes()), SAMPLE_OUT);
    let with_final_newline = format!("{no_final_newline}\n\n\n");
    assert_clean(&run(&[], with_final_newline.as_bytes()), SAMPLE_OUT);
}

#[test]
fn zero_commands() {
    assert_clean(&run(&[], b"0\n"), "");
    assert_clean(&run(&[], b"0"), "");
}

#[test]
fn off_board_coordinates_are_invalid_commands() {
    let input = "6\n10 0 9 0\n-1 0 0 0\n0 0 0 -1\n3 0 3 9\n\
                 99999999999999999999999999999 0 0 0\n+3 +0 +4 +0\n";
    let expected = "Invalid command\n".repeat(5) + "red soldier;NA;no;no\n";
    assert_clean(&run(&[], input.as_bytes()), &expected);
}

#[test]
fn q_above_the_official_limit_is_accepted() {
    // 1001 commands: red soldier forward and back, blue likewise, over and over.
    let moves = ["3 0 4 0", "6 0 5 0", "4 0 3 0", "5 0 6 0"];
    let mut input = String::from("1001\n");
    let mut expected = String::new();
    for i in 0..1001 {
        input.push_str(moves[i % 4]);
        input.push('\n');
        expected.push_str(if i % 2 == 0 {
            "red soldier;NA;no;no\n"
        } else {
            "blue soldier;NA;no;no\n"
        });
    }
    assert_clean(&run(&[], input.as_bytes()), &expected);
}

#[test]
fn input_after_the_last_command_is_ignored_with_a_note() {
    let o = run(&[], b"1\n0 0 1 0\n0 0 2 0\n  junk\n");
    assert_eq!(stdout(&o), "red car;NA;no;no\n");
    assert_eq!(
        stderr(&o),
        "duckchess: note: ignoring the input after command 1, from line 3, column 1\n"
    );
    assert_eq!(o.status.code(), Some(0));
    let o = run(&[], b"0 xyz");
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "duckchess: note: ignoring the input after command 0, from line 1, column 3\n"
    );
    assert_eq!(o.status.code(), Some(0));
}

/// Runs `input` and checks the answered lines, the one-line error and exit status 1.
fn assert_input_error(input: &[u8], answered: &str, message: &str) {
    let o = run(&[], input);
    assert_eq!(
        stdout(&o),
        answered,
        "input {:?}",
        String::from_utf8_lossy(input)
    );
    assert_eq!(stderr(&o), format!("duckchess: {message}\n"));
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn malformed_tokens_stop_after_answering_every_earlier_command() {
    assert_input_error(
        b"3\n0 0 1 0\n9 0 abc 0\n",
        "red car;NA;no;no\n",
        "line 3, column 5: expected an integer (xt of command 2 of 3), found \"abc\"",
    );
    assert_input_error(
        b"2\n0 0 1.5 0\n",
        "",
        "line 2, column 5: expected an integer (xt of command 1 of 2), found \"1.5\"",
    );
    assert_input_error(
        b"2\r\n3 0 4 0\r\n\t6 0 5 -\r\n",
        "red soldier;NA;no;no\n",
        "line 3, column 8: expected an integer (yt of command 2 of 2), found \"-\"",
    );
    assert_input_error(
        b"x\n",
        "",
        "line 1, column 1: expected a non-negative integer (the number of commands Q), found \"x\"",
    );
    assert_input_error(
        b"\n\n  -5\n",
        "",
        "line 3, column 3: expected a non-negative integer (the number of commands Q), found \"-5\"",
    );
    assert_input_error(
        "1\n0 0 \u{e9}t\u{e9} 0\n".as_bytes(),
        "",
        "line 2, column 5: expected an integer (xt of command 1 of 1), found \"\u{e9}t\u{e9}\"",
    );
    assert_input_error(
        b"1\n0 0 12345678901234567890123456789x 0\n",
        "",
        "line 2, column 5: expected an integer (xt of command 1 of 1), found \"123456789012345678901234...\"",
    );
}

#[test]
fn input_ending_early_is_an_error() {
    assert_input_error(
        b"",
        "",
        "line 1, column 1: expected a non-negative integer (the number of commands Q), found end of input",
    );
    assert_input_error(
        b"3\n0 0 1 0\n",
        "red car;NA;no;no\n",
        "line 3, column 1: expected an integer (xs of command 2 of 3), found end of input",
    );
    assert_input_error(
        b"2\n0 0 1 0\n9 0 8",
        "red car;NA;no;no\n",
        "line 3, column 6: expected an integer (yt of command 2 of 2), found end of input",
    );
}

#[test]
fn arbitrary_bytes_never_panic() {
    let mut rng = duckchess::sys::rng::Rng::new(2019);
    for round in 0..200 {
        let len = rng.below(300) as usize;
        let alphabet: &[u8] = if round % 2 == 0 {
            b"0123456789 \n\r\t-+"
        } else {
            b"0123456789 \n-x.\xff\x00\xe9"
        };
        let mut input: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.index(alphabet.len())])
            .collect();
        if round % 3 == 0 {
            input.insert(0, b'9');
        }
        let o = run(&[], &input);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{err}");
        match o.status.code() {
            Some(0) => assert!(
                err.is_empty() || err.starts_with("duckchess: note:"),
                "{err}"
            ),
            Some(1) => {
                assert!(err.starts_with("duckchess: line "), "{err}");
                assert_eq!(err.lines().count(), 1, "{err}");
            }
            other => panic!("exit status {other:?} for {input:?}"),
        }
    }
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let mut input = String::from("200000\n");
    for _ in 0..50_000 {
        input.push_str("3 0 4 0\n6 0 5 0\n4 0 3 0\n5 0 6 0\n");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().expect("piped");
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut first = String::new();
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    out.read_line(&mut first).expect("one line");
    assert_eq!(first, "red soldier;NA;no;no\n");
    drop(out); // like `| head -1`
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut err)
        .expect("stderr");
    let status = child.wait().expect("exits");
    let _ = feeder.join();
    assert_eq!(err, "");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn usage_errors_exit_2() {
    for args in [&["judge", "a", "b"][..], &["nosuch"], &["judge", "--bogus"]] {
        let o = run(args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).starts_with("duckchess: "), "{args:?}");
        assert_eq!(stdout(&o), "");
    }
    let o = run(&["judge", "/nonexistent/x.in"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("duckchess: judge: cannot open /nonexistent/x.in: "));
    // Every message of the judge subcommand names it; the bare judge does not.
    let o = run(&["judge"], b"2\n0 0 1 0\nabc\n");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "duckchess: judge: line 3, column 1: expected an integer (xs of command 2 of 2), found \"abc\"\n"
    );
    let o = run(&[], b"2\n0 0 1 0\nabc\n");
    assert!(stderr(&o).starts_with("duckchess: line 3, column 1: "));
}

#[test]
fn help_everywhere() {
    for args in [&["--help"][..], &["help"], &["gen", "-h"]] {
        let o = run(args, b"");
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(stdout(&o).contains("usage:"), "{args:?}");
    }
    let subcommands = [
        "judge", "gen", "test", "trace", "validate", "bundle", "chase", "perft", "arena", "play",
    ];
    let top = stdout(&run(&["--help"], b""));
    for sub in subcommands {
        let o = run(&[sub, "--help"], b"");
        assert_eq!(o.status.code(), Some(0), "{sub}");
        assert!(stdout(&o).to_lowercase().contains("usage"), "{sub}");
        assert_eq!(stderr(&o), "", "{sub}");
        assert!(
            top.contains(&format!("\n  {sub} ")),
            "the top help lists {sub}"
        );
    }
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only: script (util-linux)")]
fn on_a_terminal_the_judge_says_what_it_waits_for() {
    // `script` (util-linux) runs the binary on a pseudo-terminal; on a pipe, as in every
    // other test here, the judge says nothing on stderr.
    let here = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(here, "cannot run here: script (util-linux) is missing");
    let bin = env!("CARGO_BIN_EXE_duckchess");
    for (args, prefix) in [("", "duckchess: "), (" judge", "duckchess: judge: ")] {
        let mut child = Command::new("script")
            .args(["-qec", &format!("'{bin}'{args}"), "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("script runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"1\n0 0 1 0\n")
            .expect("written");
        let mut out = String::new();
        child
            .stdout
            .take()
            .expect("stdout")
            .read_to_string(&mut out)
            .expect("read");
        assert!(child.wait().expect("ends").success(), "{out}");
        let hint = format!(
            "{prefix}reading judge input from the terminal: Q, then Q lines 'xs ys xt yt'; \
             end it with Ctrl-D ('duckchess --help' for more)"
        );
        assert!(out.contains(&hint), "{out:?}");
        assert!(out.contains("red car;NA;no;no"), "{out:?}");
    }
}

#[test]
fn a_file_given_as_a_subcommand_gets_a_hint() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/statement.in");
    let o = run(&[path], b"");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "duckchess: unknown subcommand {path:?}; to judge that file: duckchess judge \
             {path} (or duckchess < {path}) (see 'duckchess --help')\n"
        )
    );
}

/// An endless input ends the run: `/dev/zero` is one endless bad token, refused at its
/// start; so is the same through `trace`.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_input_ends_with_its_position() {
    for sub in ["judge", "trace"] {
        let out = common::run(&[sub, "/dev/zero"], b"");
        assert_eq!(out.status.code(), Some(1), "{sub}");
        let stderr = common::stderr(&out);
        assert!(
            stderr.contains(
                "line 1, column 1: expected a non-negative integer (the number of commands Q), \
                 found \"\\0\\0\\0"
            ),
            "{sub}: {stderr}"
        );
    }
}
