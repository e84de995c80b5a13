//! `duckchess diagnose`: the kept witness of every listed mistake, and a program's
//! likeness to the catalogued mistakes from its answers to them.

use crate::common;
use duckchess::catalogue::likeness::Probe;
use duckchess::catalogue::list::Mistake;
use duckchess::catalogue::mutant;
use duckchess::catalogue::witnesses::{self, MARK};
use std::fs;
use std::path::{Path, PathBuf};

fn stored_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/witnesses.txt")
}

/// The file as a maintainer's run writes it: every listed mistake not written by hand,
/// in the catalogue's order, with the witness the suite's search finds for it.
fn write_stored() {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut text = String::new();
    for &m in Mistake::all() {
        if m.fixture().is_some() {
            continue;
        }
        let witness = duckchess::suite::witness::of(m, jobs)
            .unwrap_or_else(|| panic!("{m}: no witness found"));
        text.push_str(&format!("{MARK}{m}\n{witness}"));
    }
    let part = stored_file().with_extension("txt.part");
    fs::write(&part, text).expect("write");
    fs::rename(part, stored_file()).expect("rename");
}

/// Every listed mistake has a kept witness, in the official format, that its mutant
/// answers differently from the judge (and the judge's own mutant does not); the file
/// holds no other block. `UPDATE_WITNESSES=1` finds them all again (some minutes).
#[test]
fn every_listed_mistake_has_a_witness() {
    let rewrite = std::env::var_os("UPDATE_WITNESSES").is_some();
    if rewrite {
        write_stored();
    }
    let text = fs::read_to_string(stored_file()).expect("the kept witnesses");
    let blocks = witnesses::blocks(&text);
    let mut missing = Vec::new();
    for &m in Mistake::all() {
        let input = if m.fixture().is_some() {
            m.fixture().map(str::to_string)
        } else {
            blocks
                .iter()
                .find(|(name, _)| *name == m.name())
                .map(|(_, w)| w.to_string())
        };
        let Some(input) = input else {
            missing.push(m.name());
            continue;
        };
        if !rewrite && m.fixture().is_none() {
            // The copy built into the binary is this one.
            assert_eq!(witnesses::of(m), Some(input.as_str()), "{m}: rebuild");
        }
        let probe = Probe::of(Box::leak(input.into_boxed_str())).expect("the official format");
        let expected = mutant::judge_answers(&probe.cmds);
        assert_ne!(
            mutant::answers(Some(m), &probe.cmds),
            expected,
            "{m}: its witness does not expose it"
        );
        assert_eq!(mutant::answers(None, &probe.cmds), expected, "{m}");
    }
    assert_eq!(missing, Vec::<&str>::new(), "mistakes without a witness");
    for (name, _) in &blocks {
        let m = Mistake::from_name(name).unwrap_or_else(|| panic!("{name}: not listed"));
        assert!(m.fixture().is_none(), "{name}: has a fixture of its own");
    }
}

/// Each planted mistake of the stress fixture and the catalogued mistake `diagnose`
/// must name first for it.
const PLANTED: [(&str, &str); 10] = [
    ("HORSE_LEG", "check-ignores-horse-leg"),
    ("ELEPHANT_EYE", "check-ignores-elephant-eye"),
    ("DUCK_LEG", "check-ignores-duck-second-leg"),
    ("CAR_JUMP", "check-car-stops-one-short"),
    ("CAPTAIN_DIAGONAL", "check-captain-steps-diagonally"),
    ("SOLDIER_BACKWARDS", "check-soldier-never-backwards"),
    ("CHECK_AFTER_END", "check-after-the-end"),
    ("MOVES_AFTER_END", "moves-after-the-end"),
    ("CHECK_MOVER_ONLY", "check-only-by-mover"),
    ("FLYING_CAPTAIN", "captains-facing-give-check"),
];

fn diagnose(program: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .args(["diagnose", "--cmd"])
        .arg(program)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// The mistakes named in full, in order.
fn named(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_once(": explains "))
        .map(|(name, _)| name.to_string())
        .collect()
}

/// `bug`'s program is matched to `mistake` first, which explains every failure.
fn names_its_mistake(bug: &str, mistake: &str) {
    let program = common::planted(&[bug]).join(bug);
    let out = diagnose(&program);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{bug}: {stdout}");
    let fails: usize = stdout
        .split(": it fails ")
        .nth(1)
        .and_then(|t| t.lines().next()?.parse().ok())
        .unwrap_or_else(|| panic!("{bug}: a count in {stdout}"));
    assert!(fails > 0, "{bug}: {stdout}");
    assert_eq!(
        named(&stdout).first().map(String::as_str),
        Some(mistake),
        "{bug}: {stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "  {mistake}: explains {fails} of the {fails} failures\n"
        )),
        "{bug}: {stdout}"
    );
    let m = Mistake::from_name(mistake).expect("listed");
    assert!(stdout.contains(&format!("    what it does: {}\n", m.sentence())));
    assert!(stdout.contains(&format!("    rule:         {}\n", m.rule())));
    assert!(
        stdout.ends_with("every failure is explained by a mistake named above\n"),
        "{bug}: {stdout}"
    );
}

#[test]
#[cfg_attr(
    lacks_gxx,
    ignore = "needs g++ (none was found when the tests were built)"
)]
fn a_planted_mistake_is_named_with_its_rule_and_witness() {
    let (bug, mistake) = PLANTED[0];
    names_its_mistake(bug, mistake);
    // The witness shown fails the program: run it.
    let program = common::planted(&[bug]).join(bug);
    let stdout = String::from_utf8_lossy(&diagnose(&program).stdout).into_owned();
    let witness: String = stdout
        .split("its smallest witness (")
        .nth(1)
        .expect("a witness")
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("      "))
        .map(|l| format!("{}\n", l.trim()))
        .collect();
    let judged = common::run(&[], witness.as_bytes()).stdout;
    let theirs = common::run_program(&program, &[], witness.as_bytes()).stdout;
    assert_ne!(theirs, judged, "the witness shown passes: {witness}");
}

#[test]
#[ignore = "slow (ten programs, each on every witness): the full tier runs it"]
fn every_planted_rule_mistake_is_named_first() {
    for (bug, mistake) in PLANTED {
        names_its_mistake(bug, mistake);
    }
    // Two mistakes at once: one named for each (the car's check on a row, and the
    // square next to a car's target when it moves up the board), and what neither
    // explains counted.
    let bug = "CAR_SCAN_RETURN+CAR_DOWN_SKIP";
    let out = diagnose(&common::planted(&[bug]).join(bug));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let names = named(&stdout);
    assert!(
        names.iter().any(|n| n.starts_with("check-car-")),
        "{stdout}"
    );
    assert!(
        names.iter().any(|n| n.starts_with("move-car-up-skips-")),
        "{stdout}"
    );
}

/// A correct program (the judge itself, and the fixture built without a mistake)
/// fails no witness, and is told where to look further.
#[test]
fn a_correct_program_behaves_like_none() {
    let out = diagnose(Path::new(env!("CARGO_BIN_EXE_duckchess")));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let count = witnesses::all()
        .iter()
        .map(|(_, w)| *w)
        .collect::<std::collections::HashSet<_>>()
        .len();
    assert!(
        stdout.starts_with(&format!(
            "ran {} on {count} witnesses of the {} catalogued mistakes in ",
            env!("CARGO_BIN_EXE_duckchess"),
            Mistake::all().len()
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("): it fails 0\nit behaves like none of them; "),
        "{stdout}"
    );
}

#[test]
fn a_program_that_cannot_run_and_usage_errors_are_said() {
    let out = diagnose(Path::new("/nonexistent/solution"));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("duckchess: diagnose: "), "{stderr}");
    assert!(stderr.contains("/nonexistent/solution"), "{stderr}");
    assert!(out.stdout.is_empty());
    let out = common::run(&["diagnose"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--cmd 'PROGRAM ARGS' is required"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
