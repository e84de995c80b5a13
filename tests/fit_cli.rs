//! The `fit` subcommand through the binary: the values fitted on a record of forty games
//! against Fairy-Stockfish (golden output, `tests/golden/fit_*.txt`; `UPDATE_GOLDEN=1`
//! rewrites it), a record read twice counting twice, and bad records and usage errors
//! reported on one line with the documented exit status.

mod common;

use common::run;
use std::fs;
use std::path::{Path, PathBuf};

const RECORD: &str = "tests/fixtures/fit/s12-fsf-1000.rec";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn record() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(RECORD)
        .to_string_lossy()
        .into_owned()
}

fn temp(name: &str, contents: &str) -> PathBuf {
    let path =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", std::process::id()));
    fs::write(&path, contents).expect("write a temporary record");
    path
}

#[test]
fn fits_the_values_of_a_record() {
    let o = run(&["fit", &record()], b"");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/fit_s12_fsf_1000.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, &out).expect("write golden");
        return;
    }
    let expected = fs::read_to_string(&path).expect("the golden file");
    assert_eq!(out, expected);
    assert!(out.starts_with("40 games (15 drawn), "), "{out}");
    // The horse is the unit; the options line repeats the table.
    assert!(out.contains("\nhorse          300 "), "{out}");
    assert!(out.contains("options: Value Guard="), "{out}");
}

#[test]
fn the_same_games_twice_give_the_same_values() {
    let once = text(&run(&["fit", &record()], b"").stdout);
    let twice = text(&run(&["fit", &record(), &record()], b"").stdout);
    assert!(twice.starts_with("80 games (30 drawn), "), "{twice}");
    let table = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(table(&once), table(&twice));
}

#[test]
fn bad_records_and_usage_errors() {
    let draws = temp(
        "draws.rec",
        "game 1/1: opening 1, engine red: draw (300-move limit) after 2 moves; score 0.5/1\n\
         moves e4e5 e7e6\n",
    );
    let broken = temp(
        "broken.rec",
        "game 1/1: opening 1, engine red: draw (300-move limit) after 2 moves; score 0.5/1\n\
         moves e4e5 e4e5\n",
    );
    let draws = draws.to_str().unwrap();
    let broken = broken.to_str().unwrap();
    for (args, status, message) in [
        (
            vec!["fit"],
            2,
            "duckchess: fit: missing RECORD (see 'duckchess fit --help')",
        ),
        (
            vec!["fit", draws, "--skip", "x"],
            2,
            "duckchess: fit: --skip: ",
        ),
        (
            vec!["fit", "/nonexistent/r.rec"],
            1,
            "duckchess: fit: cannot open /nonexistent/r.rec",
        ),
        (
            vec!["fit", draws, broken],
            1,
            &format!("duckchess: fit: {broken}: line 2: move 2 \"e4e5\" is not legal here"),
        ),
        (
            vec!["fit", draws],
            1,
            "duckchess: fit: 1 game and 0 positions are too few to fit",
        ),
    ] {
        let o = run(&args, b"");
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(status), "{args:?}: {err}");
        assert!(err.starts_with(message), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let help = text(&run(&["fit", "--help"], b"").stdout);
    assert!(
        help.starts_with("duckchess fit: fit the piece values"),
        "{help}"
    );
}
