//! The `selfplay` subcommand through the binary: games played side by side are written
//! in their order, so a seed gives the same output for any `--jobs`, and a shorter run
//! is a beginning of a longer one; a bad `--jobs` is a usage error on one line.

use crate::common;

use common::{run, stderr, stdout};

/// `selfplay` on a few short games of seed 11 with `jobs` threads.
fn games(count: &str, jobs: &str) -> std::process::Output {
    run(
        &[
            "selfplay",
            "--games",
            count,
            "--nodes",
            "200",
            "--opening",
            "6",
            "--seed",
            "11",
            "--eval",
            "classic",
            "--jobs",
            jobs,
        ],
        b"",
    )
}

#[test]
fn the_output_is_the_same_for_any_number_of_jobs() {
    let one = games("6", "1");
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let lines = stdout(&one).lines().count();
    assert!(lines > 30, "{lines} positions");
    assert!(stderr(&one).starts_with("duckchess: selfplay: 6 games written, "));
    for jobs in ["2", "3"] {
        let many = games("6", jobs);
        assert_eq!(many.status.code(), Some(0), "{}", stderr(&many));
        assert!(many.stdout == one.stdout, "--jobs {jobs} wrote other bytes");
        assert_eq!(stderr(&many), stderr(&one), "--jobs {jobs}");
    }
    // Games are written in their order: the first three games begin the output of six.
    let three = games("3", "2");
    assert_eq!(three.status.code(), Some(0), "{}", stderr(&three));
    assert!(!three.stdout.is_empty() && three.stdout.len() < one.stdout.len());
    assert!(one.stdout.starts_with(&three.stdout));
}

#[test]
fn a_bad_number_of_jobs_is_a_usage_error() {
    for bad in ["0", "65", "two", "-1", ""] {
        let o = games("1", bad);
        assert_eq!(o.status.code(), Some(2), "--jobs {bad:?}");
        let err = stderr(&o);
        assert!(
            err.starts_with("duckchess: selfplay: --jobs") && err.lines().count() == 1,
            "--jobs {bad:?}: {err}"
        );
        assert!(o.stdout.is_empty(), "--jobs {bad:?}");
    }
}

#[test]
fn the_help_gives_the_default_number_of_jobs() {
    let help = stdout(&run(&["selfplay", "--help"], b""));
    // The option's text, over the lines the help fills.
    let mut lines = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("--jobs J"));
    let first = lines.next().expect("--jobs in the help");
    let rest = lines.take_while(|l| !l.trim_start().starts_with('-'));
    let text = std::iter::once(first)
        .chain(rest)
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        text,
        "--jobs J games played side by side, one a thread (default: the number of cores)"
    );
}
