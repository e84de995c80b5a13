//! The `fit` subcommand through the binary: the values fitted on the 260 recorded games
//! of `tests/fixtures/fit/` that the built-in values come from (golden output,
//! `tests/golden/fit_recorded_games.txt`; `UPDATE_GOLDEN=1` rewrites it), the same games read
//! twice giving the same values, and bad records (a game cut short of the ending its
//! result line claims among them), games that all end alike, and usage errors reported
//! on one line with the documented exit status.

use crate::common;

use common::run;
use std::fs;
use std::path::{Path, PathBuf};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every record of `tests/fixtures/fit/`, sorted.
fn records() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fit");
    let mut all: Vec<String> = fs::read_dir(&dir)
        .expect("the fixtures")
        .map(|e| e.expect("an entry").path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".rec"))
        .collect();
    all.sort();
    all
}

fn fit(paths: &[String]) -> std::process::Output {
    let mut args = vec!["fit"];
    args.extend(paths.iter().map(String::as_str));
    run(&args, b"")
}

fn temp(name: &str, contents: &str) -> PathBuf {
    let path =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", std::process::id()));
    fs::write(&path, contents).expect("write a temporary record");
    path
}

#[test]
fn fits_the_values_of_the_recorded_games() {
    let all = records();
    assert_eq!(all.len(), 21);
    let o = fit(&all);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/fit_recorded_games.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, &out).expect("write golden");
        return;
    }
    let expected = fs::read_to_string(&path).expect("the golden file");
    assert_eq!(out, expected);
    assert!(out.starts_with("260 games (62 drawn), "), "{out}");
    // The horse is the unit; the options line repeats the table.
    assert!(out.contains("\nhorse          300 "), "{out}");
    assert!(out.contains("options: Value Guard="), "{out}");
}

#[test]
fn fits_every_weight_of_the_evaluation_with_terms() {
    let mut args = vec!["fit".to_string(), "--terms".to_string()];
    args.extend(records());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args, b"");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/fit_terms_recorded_games.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, &out).expect("write golden");
        return;
    }
    assert_eq!(out, fs::read_to_string(&path).expect("the golden file"));
    assert!(out.starts_with("260 games (62 drawn), "), "{out}");
    // One row per weight that 'uci' offers, the horse the unit, then the options.
    for name in ["Value Horse", "Mobility", "Near Soldier", "Center Soldier"] {
        assert!(out.contains(&format!("\n{name:<18} ")), "{name}: {out}");
    }
    assert!(out.contains("\nValue Horse            300 "), "{out}");
    let options = out.lines().last().unwrap();
    assert!(options.starts_with("options: Value Guard="), "{out}");
    assert_eq!(
        options.matches('=').count(),
        out.lines().count() - 4,
        "{out}"
    );
}

#[test]
fn the_same_games_twice_give_the_same_values() {
    let all = records();
    let once = text(&fit(&all).stdout);
    let twice = text(&fit(&[all.clone(), all].concat()).stdout);
    assert!(twice.starts_with("520 games (124 drawn), "), "{twice}");
    let table = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(table(&once), table(&twice));
}

#[test]
fn bad_records_and_usage_errors() {
    let draws = temp(
        "draws.rec",
        "game 1/1: opening 1, engine red: engine wins (blue lost on time) after 2 moves; \
         score 1.0/1\nmoves e4e5 e7e6\n",
    );
    let broken = temp(
        "broken.rec",
        "game 1/1: opening 1, engine red: engine wins (blue lost on time) after 2 moves; \
         score 1.0/1\nmoves e4e5 e4e5\n",
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

/// The games of the fixtures, as (result line, moves line) pairs.
fn games() -> Vec<(String, String)> {
    let mut all = Vec::new();
    for path in records() {
        let text = fs::read_to_string(&path).expect("a fixture");
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        for pair in lines.chunks(2) {
            all.push((pair[0].to_string(), pair[1].to_string()));
        }
    }
    all
}

#[test]
fn a_record_cut_at_a_move_boundary_is_rejected() {
    // A game that says a captain was captured after N moves, with only 134 of them.
    let (result, moves) = games()
        .into_iter()
        .find(|(r, m)| r.contains("(captain captured)") && m.split(' ').count() > 140)
        .expect("a long game won by a capture");
    let said = result
        .split(" after ")
        .last()
        .and_then(|t| t.split(' ').next())
        .expect("the count");
    let cut: Vec<&str> = moves.split(' ').take(135).collect();
    let path = temp("cut.rec", &format!("{result}\n{}\n", cut.join(" ")));
    let path = path.to_str().unwrap();
    let o = fit(&[path.to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        format!(
            "duckchess: fit: {path}: line 1: the game does not end as its result says: the \
             result says {said} moves, the moves are 134\n"
        )
    );
    // The same game with its count made to match is still no capture.
    let lie = result.replace(&format!(" after {said} moves"), " after 134 moves");
    let path = temp("lie.rec", &format!("{lie}\n{}\n", cut.join(" ")));
    let o = fit(&[path.to_str().unwrap().to_string()]);
    assert!(
        text(&o.stderr).ends_with(
            "the result says \"captain captured\", but the game goes on after its last move\n"
        ),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn games_that_all_end_alike_say_so() {
    let red_won =
        |r: &str| r.contains("engine red: engine wins") || r.contains("engine blue: opponent wins");
    let chosen: Vec<String> = games()
        .into_iter()
        .filter(|(r, _)| red_won(r))
        .map(|(r, m)| format!("{r}\n{m}\n"))
        .collect();
    assert!(chosen.len() > 50, "{}", chosen.len());
    let path = temp("red.rec", &chosen.concat());
    let o = fit(&[path.to_str().unwrap().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        "duckchess: fit: every game is won by red: the fit also needs games won by blue or \
         drawn\n"
    );
    assert!(o.stdout.is_empty());
    // All draws: the message asks for won games.
    let drawn: Vec<String> = games()
        .into_iter()
        .filter(|(r, _)| r.contains(": draw"))
        .map(|(r, m)| format!("{r}\n{m}\n"))
        .collect();
    assert!(drawn.len() > 5, "{}", drawn.len());
    let path = temp("draws.rec", &drawn.concat());
    let o = fit(&[path.to_str().unwrap().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        "duckchess: fit: every game is a draw: the fit also needs games won by either side\n"
    );
}
