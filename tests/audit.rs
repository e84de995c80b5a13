//! `duckchess audit` and `duckchess gen --suite`: the catalogue's witnesses (each one
//! exposes its mistake, and the judge's answer to it is the golden `.ans` beside it;
//! `UPDATE_WITNESSES=1` finds and shrinks them again), the reports on the official cases
//! and on the default suite (golden, `tests/golden/audit_*.txt`; `UPDATE_GOLDEN=1`
//! rewrites them), bad test sets (an invalid input, a wrong answer file), the suite's
//! determinism and validity, and the mutants held against real programs: the C++
//! solutions with one planted mistake each (`tests/fixtures/stress/solution.cpp`, with
//! g++; skipped with a note without it).

mod common;

use duckchess::check::format::{validate, DEFAULT_MAX_Q};
use duckchess::judge;
use duckchess::mistakes::catalogue::Mistake;
use duckchess::mistakes::mutant;
use duckchess::mistakes::witness::{self, Effort};
use duckchess::mistakes::written::Written;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const BIN: &str = env!("CARGO_BIN_EXE_duckchess");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn witness_dir() -> PathBuf {
    root().join("tests/fixtures/witness")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The commands of a judge input in the official format.
fn commands(input: &str) -> Vec<[i64; 4]> {
    let n: Vec<i64> = input
        .split_ascii_whitespace()
        .skip(1)
        .map(|w| w.parse().expect("a number"))
        .collect();
    n.chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

/// The judge's output for `input`.
fn judged(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    judge::run(input, &mut out).expect("a valid input");
    out
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duckchess-audit-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs the binary in `dir` with `args`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// Compares `actual` with the golden file `name`, or rewrites it under `UPDATE_GOLDEN`.
fn golden(name: &str, actual: &str) {
    let path = root().join("tests/golden").join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, actual).expect("write golden");
    }
    let expected = fs::read_to_string(&path).expect("the golden file");
    assert_eq!(actual, expected, "{name} (UPDATE_GOLDEN=1 rewrites it)");
}

/// Finds, shrinks and writes every witness again, and removes fixtures of mistakes
/// that are no longer in the catalogue.
fn write_witnesses() {
    let dir = witness_dir();
    for entry in fs::read_dir(&dir).expect("the witness folder") {
        let path = entry.expect("an entry").path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if Written::from_name(stem).is_none() {
            fs::remove_file(&path).expect("remove a stale fixture");
        }
    }
    for &w in Written::ALL {
        let m = Mistake::written(w);
        let (case, tried) = witness::find(m, Effort::default())
            .unwrap_or_else(|| panic!("no witness found for {m}"));
        println!("{m}: {} commands (case {tried})", case.len());
        let input = case.to_bytes();
        fs::write(dir.join(format!("{m}.in")), &input).expect("write the witness");
        fs::write(dir.join(format!("{m}.ans")), judged(&input)).expect("write its answer");
    }
}

#[test]
fn every_mistake_has_a_witness_fixture_and_every_fixture_a_mistake() {
    let mut found = BTreeSet::new();
    for entry in fs::read_dir(witness_dir()).expect("the witness folder") {
        let name = entry.expect("an entry").file_name();
        found.insert(name.to_string_lossy().into_owned());
    }
    let expected: BTreeSet<String> = Written::ALL
        .iter()
        .flat_map(|w| [format!("{}.in", w.name()), format!("{}.ans", w.name())])
        .collect();
    assert_eq!(found, expected);
    assert!(Written::ALL.len() >= 40);
}

#[test]
fn every_witness_exposes_its_mistake_and_the_judge_keeps_its_answer() {
    let rewrite = std::env::var_os("UPDATE_WITNESSES").is_some();
    if rewrite {
        write_witnesses();
    }
    for &w in Written::ALL {
        let m = Mistake::written(w);
        let path = witness_dir().join(format!("{m}.in"));
        let input = fs::read_to_string(&path).expect("the witness");
        if !rewrite {
            // The copy built into the binary (for the report) is this one.
            assert_eq!(
                w.witness(),
                input,
                "{m}: rebuild after changing the fixture"
            );
        }
        assert!(
            validate(input.as_bytes(), DEFAULT_MAX_Q).is_ok(),
            "{m}: invalid witness"
        );
        let cmds = commands(&input);
        assert!(!cmds.is_empty() && cmds.len() <= 40, "{m}: {}", cmds.len());
        let expected = mutant::judge_answers(&cmds);
        assert_ne!(
            mutant::answers(Some(m), &cmds),
            expected,
            "{m}: its witness does not expose it"
        );
        // Without the mistake the mutant agrees, so the difference is the mistake's.
        assert_eq!(mutant::answers(None, &cmds), expected, "{m}");
        let answer = fs::read(witness_dir().join(format!("{m}.ans"))).expect("the answer");
        assert_eq!(
            text(&judged(input.as_bytes())),
            text(&answer),
            "{m}: the judge's answer changed"
        );
    }
}

#[test]
fn the_witnesses_together_kill_every_hand_written_mistake() {
    let out = run_in(root(), &["audit", "tests/fixtures/witness"]);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let tests = Written::ALL.len();
    let commands: usize = Written::ALL
        .iter()
        .map(|w| commands(w.witness()).len())
        .sum();
    assert!(
        report.starts_with(&format!(
            "audited {tests} tests ({commands} commands) against {} mistakes: killed ",
            Mistake::all().len()
        )),
        "{report}"
    );
    // A survivor is named alone on its line.
    for w in Written::ALL {
        assert!(
            !report.contains(&format!("\n{}\n", w.name())),
            "{}",
            w.name()
        );
    }
}

/// The official cases, or a printed note and `None` when the folder is absent.
fn official() -> Option<PathBuf> {
    let dir = root().join("../shared/official/duckchess");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("note: ../shared/official/duckchess is absent; skipping");
        None
    }
}

#[test]
fn the_official_cases_let_mistakes_through() {
    let Some(_) = official() else { return };
    let out = run_in(
        root(),
        &["audit", "../shared/official/duckchess", "--matrix"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains(" survive\n"), "{report}");
    golden("audit_official.txt", &report);
}

/// The default suite, written once per test run into the target's temporary folder.
fn default_suite() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let parent = Path::new(env!("CARGO_TARGET_TMPDIR")).join("audit-suite");
        let _ = fs::remove_dir_all(&parent);
        fs::create_dir_all(&parent).expect("a scratch folder");
        let out = run_in(&parent, &["gen", "--suite", "suite"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        parent.join("suite")
    })
}

#[test]
fn the_default_suite_kills_every_mistake() {
    let dir = default_suite();
    let parent = dir.parent().expect("a parent");
    let out = run_in(parent, &["audit", "suite", "--matrix"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    golden("audit_suite.txt", &text(&out.stdout));
    golden(
        "suite.txt",
        &fs::read_to_string(dir.join("suite.txt")).expect("suite.txt"),
    );
}

#[test]
fn the_suite_is_valid_small_and_the_same_for_the_same_seed() {
    let dir = default_suite();
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("the suite")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    let inputs: Vec<&String> = names.iter().filter(|n| n.ends_with(".in")).collect();
    assert!(
        !inputs.is_empty() && inputs.len() <= 10,
        "{} files",
        inputs.len()
    );
    for (i, name) in inputs.iter().enumerate() {
        assert_eq!(**name, format!("{}.in", i + 1));
        let input = fs::read(dir.join(name)).expect("an input");
        assert_eq!(
            validate(&input[..], DEFAULT_MAX_Q).ok(),
            Some(1000),
            "{name}"
        );
        let answer = fs::read(dir.join(format!("{}.ans", i + 1))).expect("its answer");
        assert_eq!(judged(&input), answer, "{name}");
    }
    assert!(names.contains(&"suite.txt".to_string()));
    assert_eq!(names.len(), inputs.len() * 2 + 1, "{names:?}");
    // The same seed writes the same bytes; another seed writes others.
    let again = scratch("again");
    let other = scratch("other");
    for (d, seed) in [(&again, "1"), (&other, "2")] {
        let out = run_in(d, &["gen", "--suite", "s", "--seed", seed]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    for name in &names {
        let a = fs::read(dir.join(name)).expect("default");
        assert_eq!(
            a,
            fs::read(again.join("s").join(name)).expect("again"),
            "{name}"
        );
    }
    assert_ne!(
        fs::read(dir.join("1.in")).expect("default"),
        fs::read(other.join("s/1.in")).expect("seed 2")
    );
    // With one file, the one file kills everything.
    let one = run_in(&again, &["gen", "--suite", "one", "--files", "1"]);
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert!(again.join("one/1.in").is_file() && !again.join("one/2.in").exists());
    let audit = run_in(&again, &["audit", "one"]);
    assert_eq!(audit.status.code(), Some(0), "{}", text(&audit.stdout));
    // Seed 29 is one where the first file leaves one mistake alive: with one file that
    // is said (exit 1); with the default, a second killing file takes it.
    let out = run_in(
        &other,
        &["gen", "--suite", "s29", "--seed", "29", "--files", "1"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "duckchess: gen: 1 mistake survives the suite: check-guard-steps-straight (try \
         another --seed or more --files)\n"
    );
    let out = run_in(&other, &["gen", "--suite", "s29", "--seed", "29"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(other.join("s29/3.in").is_file() && !other.join("s29/4.in").exists());
    let _ = fs::remove_dir_all(&again);
    let _ = fs::remove_dir_all(&other);
}

#[test]
fn the_suite_replaces_only_its_own_files() {
    let dir = scratch("replace");
    let suite = dir.join("s");
    fs::create_dir_all(&suite).expect("mkdir");
    // An earlier, larger suite: its files go, all of them.
    for name in ["1.in", "1.ans", "7.in", "7.ans", "suite.txt"] {
        fs::write(suite.join(name), "old").expect("write");
    }
    let out = run_in(&dir, &["gen", "--suite", "s", "--files", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "wrote 1 file (1000 commands) and suite.txt to s: 56 of 56 mistakes killed\n"
            .replace("56", &Mistake::all().len().to_string())
    );
    assert!(!suite.join("7.in").exists() && suite.join("1.in").is_file());
    // Anything else: refused, and nothing is touched.
    fs::write(suite.join("notes.md"), "mine").expect("write");
    let before = fs::read(suite.join("1.in")).expect("1.in");
    let out = run_in(&dir, &["gen", "--suite", "s", "--seed", "5"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "duckchess: gen: s/notes.md is not a file the suite writes (N.in, N.ans, suite.txt): \
         refusing to write into its directory; give an empty or a new one\n"
    );
    assert_eq!(fs::read(suite.join("1.in")).expect("1.in"), before);
    fs::remove_file(suite.join("notes.md")).expect("rm");
    fs::create_dir(suite.join("01.in")).expect("a folder named like a case");
    let out = run_in(&dir, &["gen", "--suite", "s"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("s/01.in is not a file the suite writes"));
    // A file where DIR should be.
    let out = run_in(&dir, &["gen", "--suite", "s/1.in"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "duckchess: gen: s/1.in is not a directory\n"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_answer_file_is_named_with_its_line() {
    let dir = scratch("wrong");
    let input = "3\n0 0 1 0\n9 0 8 0\n0 1 2 2\n";
    fs::write(dir.join("a.in"), input).expect("write");
    // Line 2 claims check.
    fs::write(
        dir.join("a.ans"),
        "red car;NA;no;no\nblue car;NA;yes;no\nred horse;NA;no;no\n",
    )
    .expect("write");
    fs::write(dir.join("b.in"), input).expect("write");
    // One line short.
    fs::write(dir.join("b.out"), "red car;NA;no;no\nblue car;NA;no;no\n").expect("write");
    fs::write(dir.join("c.in"), input).expect("write");
    // One line long.
    fs::write(
        dir.join("c.ans"),
        "red car;NA;no;no\nblue car;NA;no;no\nred horse;NA;no;no\nred car;NA;no;no\n",
    )
    .expect("write");
    let out = run_in(&dir, &["audit", "."]);
    assert_eq!(out.status.code(), Some(3));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr),
        "duckchess: audit: ./a.ans: line 2 (command 9 0 8 0): the judge answers \
         \"blue car;NA;no;no\", the file has \"blue car;NA;yes;no\"\n\
         duckchess: audit: ./b.out: line 3 (command 0 1 2 2): the judge answers \
         \"red horse;NA;no;no\", the file ends before it\n\
         duckchess: audit: ./c.ans: line 4: the file has \"red car;NA;no;no\" after the \
         judge's last line\n"
    );
    // Whitespace alone is a note, not a wrong answer.
    fs::write(
        dir.join("b.out"),
        "red car;NA;no;no\r\nblue car;NA;no;no\r\nred horse;NA;no;no\r\n",
    )
    .expect("write");
    let out = run_in(&dir, &["audit", "b.in"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "duckchess: audit: note: b.out differs from the judge's output only in whitespace \
         (the expected output has CRLF line ends); a judge that compares byte for byte \
         rejects every solution\n"
    );
    assert!(text(&out.stdout).starts_with("audited 1 test (3 commands) against "));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_invalid_input_is_named_with_its_line_and_column() {
    let dir = scratch("invalid");
    fs::write(dir.join("1.in"), "2\n0 0 1 0\n0 0 10 0\n").expect("write");
    fs::write(dir.join("1.ans"), "red car;NA;no;no\nInvalid command\n").expect("write");
    fs::write(dir.join("2.in"), "1\n0 0 1 0").expect("write");
    fs::write(dir.join("2.ans"), "red car;NA;no;no\n").expect("write");
    fs::write(dir.join("3.in"), "1\n0 0 1 0\n").expect("write");
    fs::write(dir.join("3.ans"), "red car;NA;no;no\n").expect("write");
    let out = run_in(&dir, &["audit"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr),
        "duckchess: audit: ./1.in: line 3, column 5: xt = 10 is outside 0..=9\n\
         duckchess: audit: ./2.in: line 2, column 8: expected end of line after yt, found \
         end of input\n"
    );
}

#[test]
fn usage_errors_and_the_catalogue() {
    for (args, message) in [
        (
            &["audit", "--witness", "nope"][..],
            "duckchess: audit: --witness: no mistake \"nope\" in the catalogue ('--list' \
             lists them) (see 'duckchess audit --help')",
        ),
        (
            &["audit", "--list", "--matrix"],
            "duckchess: audit: --list and --matrix cannot be used together (see 'duckchess \
             audit --help')",
        ),
        (
            &["audit", "--list", "x"],
            "duckchess: audit: unexpected argument \"x\" (see 'duckchess audit --help')",
        ),
        (
            &["gen", "--files", "3", "--seed", "1"],
            "duckchess: gen: --files N goes with --suite DIR (see 'duckchess gen --help')",
        ),
        (
            &["gen", "--suite", "d", "--files", "0"],
            "duckchess: gen: --files: 0 is below the smallest allowed, 1 (see 'duckchess gen \
             --help')",
        ),
        (
            &["gen", "--suite", "d", "--q", "5"],
            "duckchess: gen: --suite and --q cannot be used together (see 'duckchess gen \
             --help')",
        ),
    ] {
        let out = common::run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(common::stderr(&out), format!("{message}\n"), "{args:?}");
    }
    let out = common::run(&["audit", "nowhere"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(common::stderr(&out).starts_with("duckchess: audit: cannot read nowhere: "));
    // --witness prints the fixture; --list names every mistake with its sentence.
    let w = Written::ALL[0];
    let out = common::run(&["audit", "--witness", w.name()], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(common::stdout(&out), w.witness());
    let out = common::run(&["audit", "--list"], b"");
    assert_eq!(out.status.code(), Some(0));
    let list = common::stdout(&out);
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let flat = words(&list);
    for m in Mistake::all() {
        assert!(list.contains(&format!("\n  {m}\n    ")), "{m}");
        let entry = format!("{m} {} rule: {}", m.sentence(), m.rule());
        assert!(flat.contains(&words(&entry)), "{m}");
    }
    assert!(list.lines().all(|l| l.chars().count() <= 80), "{list}");
}

/// The planted mistakes of `tests/fixtures/stress/solution.cpp` and the catalogue's
/// names for them.
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

/// The planted-mistake programs, compiled once per test run, or `None` without g++
/// (in CI, where `.ci/run` installs g++, a missing compiler is a failure).
fn planted() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    let bugs: Vec<&str> = PLANTED.iter().map(|(bug, _)| *bug).collect();
    DIR.get_or_init(|| common::planted(&bugs, "the planted programs"))
        .as_deref()
}

/// Whether `program`'s output on `input` differs from `answer`.
fn fails(program: &Path, input: &Path, answer: &[u8]) -> bool {
    let stdin = fs::File::open(input).expect("the input");
    let out = Command::new(program)
        .stdin(stdin)
        .output()
        .expect("the program runs");
    out.stdout != answer
}

/// A mutant is killed by a test exactly when the real program with that mistake fails
/// it: on the official cases (which let some through) and on the default suite.
#[test]
fn mutants_fail_exactly_where_the_planted_programs_fail() {
    let Some(programs) = planted() else { return };
    let mut sets: Vec<PathBuf> = vec![default_suite().to_path_buf()];
    sets.extend(official());
    for set in sets {
        let mut inputs: Vec<PathBuf> = fs::read_dir(&set)
            .expect("a test set")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .collect();
        inputs.sort();
        for input in inputs {
            let bytes = fs::read(&input).expect("the input");
            let answer = judged(&bytes);
            let cmds = commands(&text(&bytes));
            let expected = mutant::judge_answers(&cmds);
            for (bug, name) in PLANTED {
                let m = Mistake::from_name(name).expect("in the catalogue");
                let killed = mutant::first_difference(m, &cmds, &expected).is_some();
                assert_eq!(
                    fails(&programs.join(bug), &input, &answer),
                    killed,
                    "{bug} ({name}) on {}",
                    input.display()
                );
            }
        }
    }
    // And the suite kills them all.
    let suite_kills = |name: &str| {
        let m = Mistake::from_name(name).expect("in the catalogue");
        (1..=10).any(|i| {
            let path = default_suite().join(format!("{i}.in"));
            let Ok(bytes) = fs::read(path) else {
                return false;
            };
            let cmds = commands(&text(&bytes));
            mutant::first_difference(m, &cmds, &mutant::judge_answers(&cmds)).is_some()
        })
    };
    for (bug, name) in PLANTED {
        assert!(suite_kills(name), "{bug}");
    }
}
