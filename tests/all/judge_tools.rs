//! The packages `export` writes, checked by the judges' own tools, pinned and installed
//! by `scripts/judge-tools.sh`: Kattis problemtools' `verifyproblem` on the ICPC package
//! of the default suite with two wrong programs (every part: the configuration, the
//! data, the input validator against problemtools' broken inputs, every submission),
//! and Polygon2DOMjudge's `p2d` on the Polygon package, `verifyproblem` then on what it
//! writes (its checker built against the testlib.h `p2d` carries), in the full tier;
//! and the Polygon package's own tests of its validator and checker, as `problem.xml`
//! lists them, run on both built against that testlib.h (the package carries it, given
//! by `--testlib`). Each is ignored with its reason where the tools are not on PATH.

use crate::common;
use crate::export::{default_suite, planted, read_zip};
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

/// How long one tool may run before the test gives up on it (`timeout` ends its whole
/// process group).
const TOOL_SECONDS: &str = "900";

/// Runs `tool` with `args` under `timeout`, in `dir`.
fn tool(dir: &Path, tool: &str, args: &[&str]) -> Output {
    let mut cmd = Command::new("timeout");
    cmd.args(["-k", "10", TOOL_SECONDS, tool])
        .args(args)
        .current_dir(dir);
    common::run_command(cmd, b"")
}

/// The archive `zip` unpacked into `dir`.
fn unpack(zip: &Path, dir: &Path) {
    for (name, bytes) in read_zip(&fs::read(zip).unwrap()).files {
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }
}

/// Two wrong programs of the first held-out set, each with one mistake planted (the
/// car named "chariot"; a car's path that skips the square before its target), written
/// to `dir`: their paths as arguments of `--wrong`.
fn two_wrong(dir: &Path) -> Vec<String> {
    [
        planted(dir, "board.cpp", "BOARD_CAR_NAME", "car_name.cpp"),
        planted(dir, "classes.cpp", "CLS_CAR_SKIP_LAST", "car_skip_last.cpp"),
    ]
    .iter()
    .flat_map(|p| ["--wrong".to_string(), p.display().to_string()])
    .collect()
}

/// `verifyproblem`'s last line, and its report as a whole, asserting that each
/// submission in `verdicts` got its verdict.
fn verified(report: &Output, verdicts: &[(&str, &str)]) -> String {
    let text = common::stdout(report);
    for (submission, verdict) in verdicts {
        let line = format!("{submission} OK: {verdict} ");
        assert!(
            text.contains(&line),
            "{line:?} in\n{text}\n{}",
            common::stderr(report)
        );
    }
    text.lines().last().unwrap_or_default().to_string()
}

#[test]
#[cfg_attr(
    lacks_judge_tools,
    ignore = "needs verifyproblem and p2d on PATH (scripts/judge-tools.sh installs them)"
)]
#[cfg_attr(
    not(lacks_judge_tools),
    ignore = "slow (about 70 s: the default suite, two verifyproblem runs): the full tier runs it"
)]
fn the_judges_tools_take_the_icpc_and_polygon_packages() {
    let suite = default_suite();
    let dir = common::scratch("judge-tools", "packages");
    let wrong = two_wrong(&dir);
    let export = |judge: &str, out: &Path| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_duckchess"));
        cmd.args(["export", "--for", judge, "-o"])
            .arg(out)
            .args(&wrong)
            .arg(suite);
        let run = common::run_command(cmd, b"");
        assert!(run.status.success(), "{judge}: {}", common::stderr(&run));
    };
    let wrong_caught = [
        ("wrong_answer/car_name.cpp (C++)", "WA"),
        ("wrong_answer/car_skip_last.cpp (C++)", "WA"),
    ];
    let accepted = [
        ("accepted/reference.cpp (C++)", "AC"),
        ("accepted/duckchess.rs (Rust)", "AC"),
    ];
    let expected: Vec<(&str, &str)> = accepted.iter().chain(&wrong_caught).copied().collect();

    // The ICPC package, every part checked: no error, no warning.
    let icpc = dir.join("icpc.zip");
    export("icpc", &icpc);
    unpack(&icpc, &dir.join("duckchess"));
    let report = tool(
        &dir,
        "verifyproblem",
        &[
            "duckchess",
            "-p",
            "config",
            "data",
            "validators",
            "submissions",
        ],
    );
    assert_eq!(
        verified(&report, &expected),
        "duckchess tested: 0 errors, 0 warnings",
        "{}",
        common::stdout(&report)
    );

    // The Polygon package, converted by p2d; verifyproblem on what it writes. p2d
    // writes the problem's name, which problemtools wants a statement beside, and
    // carries no statement that is not a PDF: a one-line statement of ours stands in.
    let polygon = dir.join("polygon.zip");
    export("polygon", &polygon);
    let run = tool(
        &dir,
        "p2d",
        &[
            "--code",
            "duckchess",
            "-y",
            "-o",
            "converted.zip",
            "polygon.zip",
        ],
    );
    assert!(run.status.success(), "p2d: {}", common::stderr(&run));
    // p2d compresses its archive; unzip reads it.
    let converted = dir.join("converted").join("duckchess");
    fs::create_dir_all(&converted).unwrap();
    let unzipped = Command::new("unzip")
        .args(["-q", "converted.zip", "-d"])
        .arg(&converted)
        .current_dir(&dir)
        .output()
        .expect("cannot run here: unzip is not installed (apt-get install unzip)");
    assert!(unzipped.status.success(), "{}", common::stderr(&unzipped));
    let yaml = fs::read_to_string(converted.join("problem.yaml")).unwrap();
    assert!(
        yaml.contains("validation: custom"),
        "p2d keeps the checker: {yaml}"
    );
    fs::create_dir_all(converted.join("problem_statement")).unwrap();
    fs::write(
        converted.join("problem_statement/problem.en.tex"),
        "\\problemname{Duck Chess}\n",
    )
    .unwrap();
    let report = tool(
        &dir.join("converted"),
        "verifyproblem",
        &["duckchess", "-p", "config", "data", "submissions"],
    );
    let last = verified(&report, &expected);
    assert!(
        last.starts_with("duckchess tested: 0 errors, "),
        "{}",
        common::stdout(&report)
    );
}

/// The testlib.h that p2d carries (DOMjudge's variant: a checker reads the output on
/// standard input, takes `INPUT ANSWER FEEDBACK_DIR`, and says 42 for right and 43 for
/// wrong), linked beside `p2d` by `scripts/judge-tools.sh`.
fn p2d_testlib() -> std::path::PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .find(|dir| dir.join("p2d").is_file())
        .map(|dir| dir.join("testlib.h"))
        .filter(|t| t.is_file())
        .expect("cannot run here: no testlib.h beside p2d (scripts/judge-tools.sh links it)")
}

/// The verdicts `problem.xml` gives the tests of the asset whose testset starts after
/// `asset` (`<checker` or `<validator>`), in order.
fn verdicts(xml: &str, asset: &str) -> Vec<String> {
    let from = &xml[xml.find(asset).unwrap()..];
    let tests = &from[..from.find("</tests>").unwrap()];
    tests
        .split("<test verdict=\"")
        .skip(1)
        .map(|t| t[..t.find('"').unwrap()].to_string())
        .collect()
}

#[test]
#[cfg_attr(
    lacks_judge_tools,
    ignore = "needs verifyproblem and p2d on PATH (scripts/judge-tools.sh installs them)"
)]
fn the_polygon_packages_own_tests_hold_against_testlib() {
    let dir = common::scratch("judge-tools", "polygon-tests");
    let testlib = p2d_testlib();
    let out = dir.join("polygon.zip");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_duckchess"));
    cmd.args(["export", "--for", "polygon", "-o"])
        .arg(&out)
        .arg("--testlib")
        .arg(&testlib)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/self-check.in"));
    let run = common::run_command(cmd, b"");
    assert!(run.status.success(), "{}", common::stderr(&run));
    assert!(!common::stdout(&run).contains("testlib.h is not in it"));
    let package = dir.join("package");
    unpack(&out, &package);
    assert_eq!(
        fs::read(package.join("files/testlib.h")).unwrap(),
        fs::read(&testlib).unwrap()
    );
    let xml = fs::read_to_string(package.join("problem.xml")).unwrap();
    assert!(xml.contains("<file path=\"files/testlib.h\" type=\"h.g++\"/>"));
    // Both programs built against the package's own testlib.h, at once.
    let builds: Vec<_> = ["val", "check"]
        .iter()
        .map(|name| {
            let child = Command::new("g++")
                .args(["-O2", "-o", name, &format!("{name}.cpp")])
                .current_dir(package.join("files"))
                .spawn()
                .expect("cannot run here: g++ is not installed (apt-get install g++)");
            (name, child)
        })
        .collect();
    for (name, mut child) in builds {
        assert!(child.wait().unwrap().success(), "g++ {name}.cpp");
    }
    let files = package.join("files");
    let validator = verdicts(&xml, "<validator>");
    assert!(validator.len() >= 15, "{validator:?}");
    for (i, verdict) in validator.iter().enumerate() {
        let input = files.join(format!("tests/validator-tests/{:02}", i + 1));
        let run = Command::new(files.join("val"))
            .stdin(fs::File::open(&input).unwrap())
            .output()
            .unwrap();
        // A validator ends with 0 for a valid input, even in DOMjudge's variant.
        let valid = run.status.code() == Some(0);
        assert_eq!(valid, verdict == "valid", "validator test {}", i + 1);
    }
    let checker = verdicts(&xml, "<checker");
    assert!(checker.len() >= 10, "{checker:?}");
    for (i, verdict) in checker.iter().enumerate() {
        let test = files.join(format!("tests/checker-tests/{:02}", i + 1));
        let feedback = dir.join(format!("feedback{i}"));
        fs::create_dir_all(&feedback).unwrap();
        let run = Command::new(files.join("check"))
            .arg(&test)
            .arg(test.with_extension("a"))
            .arg(&feedback)
            .stdin(fs::File::open(test.with_extension("o")).unwrap())
            .output()
            .unwrap();
        let expected = if verdict == "ok" { 42 } else { 43 };
        assert_eq!(run.status.code(), Some(expected), "checker test {}", i + 1);
    }
}
