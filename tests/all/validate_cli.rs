//! The `validate` subcommand through the binary: every message, the exit statuses, and
//! where each kind of output goes.

use crate::common;

use std::process::Output;

fn validate(args: &[&str], input: &[u8]) -> Output {
    let mut all = vec!["validate"];
    all.extend_from_slice(args);
    common::run(&all, input)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn valid_input_prints_ok_on_stdout() {
    let out = validate(&[], b"2\n0 0 9 8\n9 8 0 0\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "ok: 2 commands\n");
    assert_eq!(text(&out.stderr), "");
    let out = validate(&[], b"1\n0 1 2 2\n");
    assert_eq!(text(&out.stdout), "ok: 1 command\n");
    let out = validate(&[], b"0\n");
    assert_eq!(text(&out.stdout), "ok: 0 commands\n");
}

#[test]
fn every_message() {
    let cases: &[(&str, &str)] = &[
        (
            "",
            "line 1, column 1: expected the number of commands Q, found end of input",
        ),
        (
            "abc\n",
            "line 1, column 1: expected the number of commands Q, found \"abc\"",
        ),
        (
            " 1\n",
            "line 1, column 1: expected the number of commands Q, found a space",
        ),
        ("-1\n", "line 1, column 1: Q = -1 is outside 0..=1000"),
        (
            "+1\n",
            "line 1, column 1: expected Q without a sign, found \"+1\"",
        ),
        (
            "01\n",
            "line 1, column 1: expected Q without leading zeros, found \"01\"",
        ),
        ("1001\n", "line 1, column 1: Q = 1001 is outside 0..=1000"),
        (
            "1234567890123456789012345678\n",
            "line 1, column 1: Q = 123456789012345678901234... is outside 0..=1000",
        ),
        (
            "1",
            "line 1, column 2: expected end of line after Q, found end of input",
        ),
        (
            "1\r\n",
            "line 1, column 2: expected end of line after Q, found a carriage return (\\r)",
        ),
        (
            "1 \n",
            "line 1, column 2: expected end of line after Q, found a space",
        ),
        (
            "1x\n",
            "line 1, column 2: expected end of line after Q, found \"x\"",
        ),
        (
            "2\n0 0 1 0\n",
            "line 3, column 1: expected command 2 of 2, found end of input",
        ),
        (
            "1\n\n0 0 1 0\n",
            "line 2, column 1: expected command 1 of 1, found an empty line",
        ),
        (
            "1\n 0 0 1 0\n",
            "line 2, column 1: expected xs (an integer in 0..=9), found a space",
        ),
        (
            "1\n0\t0 1 0\n",
            "line 2, column 2: expected a single space after xs, found a tab",
        ),
        (
            "1\n0 0  1 0\n",
            "line 2, column 4: expected a single space after ys, found 2 spaces",
        ),
        (
            "1\n0 0 1\n",
            "line 2, column 6: expected a single space after xt, found end of line",
        ),
        (
            "1\n0 0 1 \n",
            "line 2, column 7: expected yt (an integer in 0..=8), found end of line",
        ),
        (
            "1\n0 0 10 0\n",
            "line 2, column 5: xt = 10 is outside 0..=9",
        ),
        ("1\n0 9 1 0\n", "line 2, column 3: ys = 9 is outside 0..=8"),
        (
            "1\n0 0 1 -1\n",
            "line 2, column 7: yt = -1 is outside 0..=8",
        ),
        (
            "1\n+0 0 1 0\n",
            "line 2, column 1: expected xs without a sign, found \"+0\"",
        ),
        (
            "1\n00 0 1 0\n",
            "line 2, column 1: expected xs without leading zeros, found \"00\"",
        ),
        (
            "1\n0 a 1 0\n",
            "line 2, column 3: expected ys (an integer in 0..=8), found \"a\"",
        ),
        (
            "1\n0 1.5 1 0\n",
            "line 2, column 4: expected a single space after ys, found \".5\"",
        ),
        (
            "1\n0 0 1 0",
            "line 2, column 8: expected end of line after yt, found end of input",
        ),
        (
            "1\n0 0 1 0\r\n",
            "line 2, column 8: expected end of line after yt, found a carriage return (\\r)",
        ),
        (
            "1\n0 0 1 0 \n",
            "line 2, column 8: expected end of line after yt, found a space",
        ),
        (
            "1\n0 0 1 0\n0 0 1 0\n",
            "line 3, column 1: expected end of input, found \"0 0 1 0\"",
        ),
        (
            "1\n0 0 1 0\n\n",
            "line 3, column 1: expected end of input, found an empty line",
        ),
        (
            "0\n\u{7f}\u{fffd}\n",
            "line 2, column 1: expected end of input, found \"\\u{7f}\u{fffd}\"",
        ),
    ];
    for (input, message) in cases {
        let out = validate(&[], input.as_bytes());
        assert_eq!(out.status.code(), Some(3), "input {input:?}");
        assert_eq!(text(&out.stdout), "", "input {input:?}");
        assert_eq!(
            text(&out.stderr),
            format!("duckchess: validate: {message}\n"),
            "input {input:?}"
        );
    }
}

#[test]
fn max_q_option() {
    let mut input = String::from("1001\n");
    input.push_str(&"0 0 1 0\n".repeat(1001));
    let out = validate(&[], input.as_bytes());
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        text(&out.stderr),
        "duckchess: validate: line 1, column 1: Q = 1001 is outside 0..=1000\n"
    );
    let out = validate(&["--max-q", "1001"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "ok: 1001 commands\n");
    let out = validate(&["--max-q=1"], b"2\n");
    assert_eq!(
        text(&out.stderr),
        "duckchess: validate: line 1, column 1: Q = 2 is outside 0..=1\n"
    );
    // A Q too large for any integer is refused on line 1, even with the largest
    // --max-q, and shown as written.
    let out = validate(
        &["--max-q", "18446744073709551615"],
        b"99999999999999999999\n0 0 1 0\n",
    );
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        text(&out.stderr),
        "duckchess: validate: line 1, column 1: Q = 99999999999999999999 is outside \
         0..=18446744073709551615\n"
    );
    let out = validate(&["--max-q", "18446744073709551616"], b"0\n");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "duckchess: validate: --max-q: 18446744073709551616 is above the largest allowed, \
         18446744073709551615 (see 'duckchess validate --help')\n"
    );
}

#[test]
fn signs_and_long_runs_of_spaces() {
    // "-0" is in range; what it breaks is the rule against signs.
    let out = validate(&[], b"1\n0 -0 1 0\n");
    assert_eq!(
        text(&out.stderr),
        "duckchess: validate: line 2, column 3: expected ys without a sign, found \"-0\"\n"
    );
    let out = validate(&[], b"1\n0 -1 1 0\n");
    assert_eq!(
        text(&out.stderr),
        "duckchess: validate: line 2, column 3: ys = -1 is outside 0..=8\n"
    );
    // A run of spaces longer than the read buffer is counted whole.
    let mut input = b"1\n0".to_vec();
    input.extend(std::iter::repeat_n(b' ', 100_000));
    input.extend(b"1 1 0\n");
    let out = validate(&[], &input);
    assert_eq!(
        text(&out.stderr),
        "duckchess: validate: line 2, column 2: expected a single space after xs, found \
         100000 spaces\n"
    );
}

#[test]
fn files_and_usage_errors() {
    let dir = std::env::temp_dir().join(format!("duckchess-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("one.in");
    std::fs::write(&file, "1\n3 0 4 0\n").expect("write");
    let path = file.to_string_lossy().into_owned();
    let out = validate(&[&path], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "ok: 1 command\n");
    let out = validate(&["--max-q", "0", &path], b"");
    assert_eq!(out.status.code(), Some(3));

    let missing = dir.join("missing.in").to_string_lossy().into_owned();
    let out = validate(&[&missing], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("duckchess: validate: cannot open "));

    // Several files: each checked and named; unreadable wins over invalid.
    let bad = dir.join("two.in");
    std::fs::write(&bad, "1\n3 0 4 0").expect("write");
    let bad_path = bad.to_string_lossy().into_owned();
    let out = validate(&[&path, &bad_path], b"");
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(text(&out.stdout), format!("{path}: ok: 1 command\n"));
    assert_eq!(
        text(&out.stderr),
        format!(
            "duckchess: validate: {bad_path}: line 2, column 8: expected end of line after \
             yt, found end of input\n"
        )
    );
    let out = validate(&[&bad_path, &missing, &path], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), format!("{path}: ok: 1 command\n"));
    assert_eq!(text(&out.stderr).lines().count(), 2);

    for args in [&["--max-q", "many"][..], &["--bogus"]] {
        let out = validate(args, b"");
        assert_eq!(out.status.code(), Some(2), "args {args:?}");
        let err = text(&out.stderr);
        assert!(err.starts_with("duckchess: validate: "), "{err}");
        assert_eq!(err.lines().count(), 1);
    }
    let out = validate(&["--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("usage: duckchess validate [FILE...] [--max-q N]"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Everything `gen` writes, in every mode and for many seeds, passes the validator; `Q`
/// above 1000 passes with `--max-q`.
#[test]
fn everything_gen_writes_validates() {
    use duckchess::generate::{self, mode::Mode};
    use duckchess::show::format::{validate, DEFAULT_MAX_Q};
    for mode in Mode::ALL {
        for seed in 0..24u64 {
            // Short and long inputs, the official maximum included.
            let q = [0, 1, 7, 1000][seed as usize % 4] + seed / 4;
            let q = q.min(DEFAULT_MAX_Q);
            let mut bytes = Vec::new();
            generate::input(seed, q, mode, &mut bytes).expect("writing to a Vec");
            match validate(&bytes[..], DEFAULT_MAX_Q) {
                Ok(n) => assert_eq!(n, q, "mode {mode}, seed {seed}"),
                Err(e) => panic!("gen --mode {mode} --seed {seed} --q {q}: {e}"),
            }
        }
    }
    let mut bytes = Vec::new();
    generate::input(5, 3000, Mode::Big, &mut bytes).expect("writing to a Vec");
    assert!(validate(&bytes[..], DEFAULT_MAX_Q).is_err());
    assert_eq!(validate(&bytes[..], 3000).ok(), Some(3000));
}

/// The same through the binaries, as a setter would run them.
#[test]
fn gen_output_validates_through_the_binary() {
    // Every generator of the one list, stress's steering modes included.
    for mode in [
        "official", "legal", "endgame", "check", "big", "decisive", "captains", "attacks",
        "invalid", "blocked",
    ] {
        let generated = common::run(&["gen", "--seed", "42", "--mode", mode], b"");
        assert_eq!(generated.status.code(), Some(0));
        let out = validate(&[], &generated.stdout);
        assert_eq!(text(&out.stderr), "", "mode {mode}");
        assert_eq!(text(&out.stdout), "ok: 1000 commands\n", "mode {mode}");
    }
}

/// `gen` without `--seed` takes one from the clock, as `stress` does, and says it: the
/// seed it names writes the same input again.
#[test]
fn gen_without_a_seed_takes_one_from_the_clock_and_says_it() {
    let out = common::run(&["gen", "--q", "20", "--mode", "legal"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let said = common::stderr(&out);
    let seed = said
        .strip_prefix("duckchess: gen: seed ")
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no seed in {said:?}"));
    assert_eq!(
        said,
        format!(
            "duckchess: gen: seed {seed} (from the clock; --seed {seed} writes the same input)\n"
        )
    );
    let again = common::run(
        &["gen", "--q", "20", "--mode", "legal", "--seed", seed],
        b"",
    );
    assert_eq!(again.stdout, out.stdout);
    assert_eq!(common::stderr(&again), "", "a seed given is not said");
}
