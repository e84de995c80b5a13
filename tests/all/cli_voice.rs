//! One voice on the command line: every subcommand's help in the same layout within 80
//! columns, `duckchess help SUB`, the top-level help naming every option, messages
//! prefixed `duckchess: SUB: `, usage errors pointing at `--help`, a full disk reported
//! with exit status 1 and a closed pipe ending quietly, by every subcommand.

use crate::common;

use duckchess::cli::help::columns;
use std::io::Read;
use std::process::{Command, Stdio};

/// The subcommands the top-level help lists, in its order.
fn subcommands() -> Vec<String> {
    let top = common::stdout(&common::run(&["--help"], b""));
    let list = top
        .split("\nsubcommands (")
        .nth(1)
        .expect("the top-level help lists the subcommands");
    list.lines()
        .skip(1)
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// A small, quick run of each subcommand that writes to standard output: arguments and
/// standard input. Every subcommand must have one, so that a new one is covered too.
fn quick_run(sub: &str) -> (Vec<&'static str>, &'static [u8]) {
    match sub {
        "judge" => (vec!["judge"], b"1\n0 0 1 0\n"),
        "gen" => (vec!["gen", "--seed", "1", "--q", "3"], b""),
        "validate" => (vec!["validate"], b"1\n0 0 1 0\n"),
        "test" => (vec!["test", "samples/statement.in"], b""),
        "stress" => (
            vec![
                "stress",
                "--cmd",
                env!("CARGO_BIN_EXE_duckchess"),
                "--cases",
                "3",
                "--seed",
                "1",
            ],
            b"",
        ),
        "diagnose" => (
            vec!["diagnose", "--cmd", env!("CARGO_BIN_EXE_duckchess")],
            b"",
        ),
        // The catalogue (some 100 KB, more than a pipe holds): an audit of a small
        // folder would end with status 1 for the mistakes it lets through.
        "audit" => (vec!["audit", "--list"], b""),
        "trace" => (vec!["trace"], b"1\n0 3 1 2\n"),
        "bundle" => (vec!["bundle"], b""),
        // The archive goes to a temporary folder; the line saying so to stdout.
        "export" => {
            let out = std::env::temp_dir().join("duckchess-cli-voice-export.zip");
            let out: &'static str = Box::leak(out.to_string_lossy().into_owned().into_boxed_str());
            (
                vec![
                    "export",
                    "--for",
                    "luogu",
                    "-o",
                    out,
                    "samples/self-check.in",
                ],
                b"",
            )
        }
        "perft" => (vec!["perft", "2"], b""),
        "play" => (vec!["play", "--ascii"], b"board\nquit\n"),
        "analyze" => (vec!["analyze", "--nodes", "500"], b"2\n0 3 1 2\n9 4 8 4\n"),
        "arena" => (
            vec![
                "arena", "--red", "random", "--blue", "random", "--games", "1",
            ],
            b"",
        ),
        "chase" => (vec!["chase"], b"2 1 1 2 2\n"),
        "fit" => (
            vec!["fit", "tests/fixtures/fit/r3-s12-fsf-1000-s1.rec"],
            b"",
        ),
        "uci" => (vec!["uci"], b"uci\nisready\nquit\n"),
        "selfplay" => (vec!["selfplay", "--games", "1", "--nodes", "100"], b""),
        "train" => (
            vec![
                "train",
                "tests/fixtures/train/positions.txt",
                "--out",
                "/dev/null",
                "--epochs",
                "1",
            ],
            b"",
        ),
        "match" => (
            vec![
                "match",
                "--opponent",
                concat!(env!("CARGO_BIN_EXE_duckchess"), " uci"),
                "--openings",
                "1",
                "--movetime",
                "1",
            ],
            b"",
        ),
        // The end of standard input stops the server.
        "serve" => (vec!["serve", "--port", "0"], b""),
        other => panic!("no quick run for subcommand {other:?}: add one to this table"),
    }
}

/// How a subcommand's messages start: `duckchess: SUB: `, or `duckchess: ` for the judge.
fn prefix(sub: &str) -> String {
    format!("duckchess: {sub}: ")
}

/// The options an options section lists, each with its names (`-o`, `--output`).
fn options_of(help: &str) -> Vec<Vec<String>> {
    option_entries(help)
        .iter()
        .map(|entry| {
            entry[0]
                .split_whitespace()
                .take_while(|w| w.starts_with('-'))
                .map(|w| w.trim_end_matches(',').to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_help_has_one_layout_within_80_columns() {
    let subs = subcommands();
    assert!(subs.len() >= 10, "{subs:?}");
    let top = common::stdout(&common::run(&["--help"], b""));
    for sub in &subs {
        let out = common::run(&[sub, "--help"], b"");
        assert_eq!(out.status.code(), Some(0), "{sub}");
        assert!(out.stderr.is_empty(), "{sub}");
        let help = common::stdout(&out);
        let lines: Vec<&str> = help.lines().collect();
        assert!(lines[0].starts_with(&format!("duckchess {sub}: ")), "{sub}");
        assert_eq!(lines[1], "", "{sub}");
        assert!(
            lines[2].starts_with(&format!("usage: duckchess {sub}")),
            "{sub}"
        );
        assert!(help.contains("\n\noptions:\n"), "{sub}");
        assert!(
            help.contains("\n  -h, --help "),
            "{sub}: -h, --help is listed"
        );
        let last = lines.last().expect("lines");
        assert!(
            help.contains("\n\nexit status: 0 "),
            "{sub}: ends with the exit statuses, last line {last:?}"
        );
        for line in &lines {
            // Terminal columns: a Chinese character takes two.
            assert!(columns(line) <= 80, "{sub}: {line:?}");
            assert!(!line.contains('\t'), "{sub}: {line:?}");
            assert_eq!(line.trim_end(), *line, "{sub}: trailing space");
        }
        // `help SUB` is the same text, and `-h` too.
        assert_eq!(common::stdout(&common::run(&["help", sub], b"")), help);
        assert_eq!(common::stdout(&common::run(&[sub, "-h"], b"")), help);
        // The top-level help names every option of every subcommand.
        for names in options_of(&help) {
            if names.iter().any(|n| n == "--help") {
                continue;
            }
            let usage = top
                .lines()
                .filter(|l| l.contains(&format!("duckchess {sub} ")) || l.starts_with("     "))
                .collect::<Vec<_>>()
                .join("\n");
            assert!(
                names.iter().any(|n| usage.contains(n.as_str())),
                "the top-level help names {sub} {names:?}"
            );
        }
    }
    for line in top.lines() {
        assert!(columns(line) <= 80, "top: {line:?}");
    }
    // `help help` asks what help does: the top-level help answers.
    assert_eq!(common::stdout(&common::run(&["help", "help"], b"")), top);
    let out = common::run(&["help", "nosuch"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        common::stderr(&out),
        "duckchess: unknown subcommand \"nosuch\" (see 'duckchess --help')\n"
    );
}

/// The options section of a help, one entry per option: its label line and the lines of
/// its description as the help shows them.
fn option_entries(help: &str) -> Vec<Vec<String>> {
    let section = help
        .split("\noptions:\n")
        .nth(1)
        .expect("an options section")
        .split("\n\n")
        .next()
        .unwrap_or("");
    let mut entries: Vec<Vec<String>> = Vec::new();
    for line in section.lines() {
        if line.starts_with("  -") {
            entries.push(vec![line.to_string()]);
        } else if let Some(entry) = entries.last_mut() {
            entry.push(line.to_string());
        }
    }
    entries
}

/// Option descriptions are filled: no line ends early when the next word would have fit
/// (a quoted example such as 'total: N' moves as one word).
#[test]
fn option_help_is_filled_without_short_lines() {
    for sub in subcommands() {
        let help = common::stdout(&common::run(&[&sub, "--help"], b""));
        for entry in option_entries(&help) {
            for (i, pair) in entry.windows(2).enumerate() {
                // A long label stands on its own line, its description below it.
                if i == 0 && !pair[0].trim().contains("  ") {
                    continue;
                }
                let next = pair[1].trim_start();
                let word = if next.starts_with('\'') {
                    // The whole quoted example.
                    next.split_inclusive('\'').take(2).collect::<String>()
                } else {
                    next.split_whitespace().next().unwrap_or("").to_string()
                };
                assert!(
                    columns(&pair[0]) + 1 + columns(&word) > 80,
                    "{sub}: {word:?} would fit after {:?}",
                    pair[0]
                );
            }
        }
    }
}

/// Every usage form names what the subcommand requires: a second form that only lists
/// optional arguments reads as a command that works without them.
#[test]
fn every_usage_form_names_the_required_arguments() {
    for sub in subcommands() {
        let help = common::stdout(&common::run(&[&sub, "--help"], b""));
        let usage = help
            .split("\n\n")
            .find(|p| p.starts_with("usage: "))
            .expect("a usage paragraph");
        let lead = format!("duckchess {sub} ");
        let forms: Vec<String> = usage
            .lines()
            .fold(Vec::new(), |mut forms: Vec<String>, line| {
                match line.split_once(&lead) {
                    Some((_, form)) => forms.push(form.to_string()),
                    None => {
                        if let Some(last) = forms.last_mut() {
                            last.push(' ');
                            last.push_str(line.trim());
                        }
                    }
                }
                forms
            });
        let requires = |form: &str| {
            let mut depth = 0i32;
            let mut required = false;
            for word in form.split_whitespace() {
                if depth == 0 && !word.starts_with('[') && !word.starts_with('<') {
                    required = true;
                }
                depth += word.matches('[').count() as i32 - word.matches(']').count() as i32;
            }
            required
        };
        if forms.first().is_some_and(|f| requires(f)) {
            for form in &forms {
                assert!(
                    requires(form),
                    "{sub}: the usage form {form:?} requires nothing"
                );
            }
        }
    }
}

#[test]
fn the_top_level_and_repeated_options_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--bogus"],
            "duckchess: unknown option --bogus (see 'duckchess --help')",
        ),
        (
            &["help", "--bogus"],
            "duckchess: unknown option --bogus (see 'duckchess --help')",
        ),
        (
            &["bundle", "-o"],
            "duckchess: bundle: -o needs a value FILE (see 'duckchess bundle --help')",
        ),
        (
            &["gen", "--seed", "1", "--seed", "2"],
            "duckchess: gen: --seed given twice (\"1\" and \"2\"): give it once \
             (see 'duckchess gen --help')",
        ),
    ];
    for (args, message) in cases {
        let out = common::run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(common::stderr(&out), format!("{message}\n"), "{args:?}");
    }
}

#[test]
fn every_usage_error_names_the_subcommand_and_its_help() {
    for sub in subcommands() {
        let out = common::run(&[&sub, "--no-such-option"], b"");
        assert_eq!(out.status.code(), Some(2), "{sub}");
        assert!(out.stdout.is_empty(), "{sub}");
        let hint = if sub == "judge" {
            "(see 'duckchess judge --help')".to_string()
        } else {
            format!("(see 'duckchess {sub} --help')")
        };
        assert_eq!(
            common::stderr(&out),
            format!("duckchess: {sub}: unknown option --no-such-option {hint}\n"),
            "{sub}"
        );
    }
    let out = common::run(&["nosuch"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        common::stderr(&out),
        "duckchess: unknown subcommand \"nosuch\" (see 'duckchess --help')\n"
    );
}

/// Usage errors that say exactly what is wrong: ranges, conflicts, missing values.
#[test]
fn option_values_say_what_is_wrong() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["gen", "--seed", "18446744073709551616"],
            "duckchess: gen: --seed: 18446744073709551616 is above the largest allowed, \
             18446744073709551615 (see 'duckchess gen --help')",
        ),
        (
            &["gen", "--seed", "1", "--q", "99999999999"],
            "duckchess: gen: --q: 99999999999 is above the largest allowed, 1000000000 \
             (see 'duckchess gen --help')",
        ),
        (
            &["gen", "--seed", "-1"],
            "duckchess: gen: --seed: -1 is below the smallest allowed, 0 \
             (see 'duckchess gen --help')",
        ),
        (
            &["gen", "--seed", "x"],
            "duckchess: gen: --seed: expected an integer from 0 to 18446744073709551615, \
             found \"x\" (see 'duckchess gen --help')",
        ),
        (
            &["test", "--timeout", "1e20"],
            "duckchess: test: --timeout: 1e20 is above the largest allowed, 3600 seconds \
             (see 'duckchess test --help')",
        ),
        (
            &["play", "--think", "100", "--depth", "3"],
            "duckchess: play: --think and --depth cannot be used together \
             (see 'duckchess play --help')",
        ),
        (
            &[
                "arena", "--red", "ai", "--blue", "ai", "--think", "5", "--depth", "2",
            ],
            "duckchess: arena: --think and --depth cannot be used together \
             (see 'duckchess arena --help')",
        ),
        (
            &["trace", "--every", "2", "--at", "3"],
            "duckchess: trace: --every and --at cannot be used together \
             (see 'duckchess trace --help')",
        ),
        (
            &["play", "--from", "--ascii"],
            "duckchess: play: --from needs a value POSITION (see 'duckchess play --help')",
        ),
        (
            &["perft", "33"],
            "duckchess: perft: DEPTH: 33 is above the largest allowed, 32 \
             (see 'duckchess perft --help')",
        ),
    ];
    for (args, message) in cases {
        let out = common::run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(common::stderr(&out), format!("{message}\n"), "{args:?}");
    }
}

#[test]
fn a_directory_given_as_a_file_is_named() {
    for sub in ["judge", "trace", "validate", "analyze"] {
        let out = common::run(&[sub, "samples"], b"");
        assert_eq!(out.status.code(), Some(1), "{sub}");
        assert_eq!(
            common::stderr(&out),
            format!("{}cannot open samples: it is a directory\n", prefix(sub)),
        );
    }
}

/// Standard output to `/dev/full`: every subcommand says so and exits 1.
#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only: /dev/full")]
fn a_full_disk_is_reported_by_every_subcommand() {
    let mut runs: Vec<(String, Vec<&str>, &[u8])> = subcommands()
        .into_iter()
        .map(|sub| {
            let (args, stdin) = quick_run(&sub);
            (sub, args, stdin)
        })
        .collect();
    runs.push(("".to_string(), vec!["--help"], b""));
    runs.push(("gen".to_string(), vec!["help", "gen"], b""));
    runs.push(("".to_string(), vec![], b"1\n0 0 1 0\n"));
    for (sub, args, stdin) in runs {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let mut child = Command::new(env!("CARGO_BIN_EXE_duckchess"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(full)
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        {
            use std::io::Write;
            let mut input = child.stdin.take().expect("piped");
            let _ = input.write_all(stdin);
        }
        let out = child.wait_with_output().expect("finishes");
        let expected = if sub.is_empty() {
            "duckchess: ".to_string()
        } else {
            prefix(&sub)
        };
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = common::stderr(&out);
        assert!(
            err.starts_with(&format!("{expected}cannot write the output: ")),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// Standard output closed by its reader: every subcommand ends quietly with status 0.
#[test]
fn a_closed_pipe_ends_every_subcommand_quietly() {
    for sub in subcommands() {
        let (args, stdin) = quick_run(&sub);
        let mut child = Command::new(env!("CARGO_BIN_EXE_duckchess"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        // Nobody reads: close the read end before the program writes (or soon after).
        drop(child.stdout.take());
        {
            use std::io::Write;
            let mut input = child.stdin.take().expect("piped");
            let _ = input.write_all(stdin);
        }
        let mut err = String::new();
        child
            .stderr
            .take()
            .expect("piped")
            .read_to_string(&mut err)
            .expect("stderr");
        let status = child.wait().expect("finishes");
        assert_eq!(status.code(), Some(0), "{sub}: {err}");
        // Nothing to say about the closed pipe; the server says why it stops.
        let expected = if sub == "serve" {
            "duckchess: serve: end of input: stopping\n"
        } else {
            ""
        };
        assert_eq!(err, expected, "{sub}");
    }
}

#[test]
fn huge_numbers_are_shown_as_written() {
    // The judge: a Q beyond any clamp appears in the message as written.
    let out = common::run(&[], b"5000000000000\n0 0 1 0\n");
    assert_eq!(common::stdout(&out), "red car;NA;no;no\n");
    assert_eq!(
        common::stderr(&out),
        "duckchess: line 3, column 1: expected an integer (xs of command 2 of \
         5000000000000), found end of input\n"
    );
    let out = common::run(&[], b"099999999999999999999999 1 1 1 1");
    assert_eq!(
        common::stderr(&out),
        "duckchess: line 1, column 33: expected an integer (xs of command 2 of \
         099999999999999999999999), found end of input\n"
    );
    // trace: a huge coordinate in the command it shows.
    let out = common::run(
        &["trace", "--every", "9"],
        b"1\n0 0 99999999999999999999 +0\n",
    );
    let text = common::stdout(&out);
    assert!(
        text.contains("1. 0 0 99999999999999999999 +0 => Invalid command\n"),
        "{text}"
    );
}

#[test]
fn counts_are_singular_or_plural() {
    let out = common::run(&["trace", "--every", "9"], b"1\n0 3 1 2\n");
    assert!(common::stdout(&out).contains("end: 1 command, 1 legal, 0 invalid"));
    let out = common::run(&["validate"], b"1\n0 3 1 2\n");
    assert_eq!(common::stdout(&out), "ok: 1 command\n");
    let out = common::run(
        &[
            "arena", "--red", "greedy", "--blue", "random", "--games", "1",
        ],
        b"",
    );
    assert!(common::stdout(&out).contains(" moves\n") || common::stdout(&out).contains(" move\n"));
}
