//! Memory and comparison in `test` and `stress`, through the binary: the peak memory on
//! each case's line, MLE over `--memory` with the program stopped as soon as it is seen
//! over (small C programs compiled here, skipped with a note without a compiler), the
//! option's range, and the online judge's comparison by default with `--exact` for byte
//! for byte.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_duckchess");
const SAMPLE_OUT: &str = include_str!("../../samples/statement.out");

/// Runs the binary in the system's temporary folder: a `stress` that finds a failure
/// saves it there (`stress.in`), never in the clone.
fn duckchess(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(std::env::temp_dir())
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// A C program that allocates and touches MB megabytes (its first argument) a
/// megabyte at a time, then sleeps 100 ms (long enough for a sample), writes the file
/// named by its second argument and prints the sample's answer; `None` (with a note)
/// without a C compiler.
#[cfg(target_os = "linux")]
fn hog(dir: &Path) -> PathBuf {
    let source = dir.join("hog.c");
    let answer: String = SAMPLE_OUT
        .lines()
        .map(|l| format!("\"{l}\\n\""))
        .collect::<Vec<_>>()
        .join(" ");
    fs::write(
        &source,
        format!(
            "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <time.h>\n\
             int main(int argc, char **argv) {{\n\
             long mb = atol(argv[1]);\n\
             for (long i = 0; i < mb; i++) {{ char *p = malloc(1 << 20); memset(p, 1, 1 << 20); }}\n\
             struct timespec t = {{0, 100000000}}; nanosleep(&t, 0);\n\
             FILE *f = fopen(argv[2], \"w\"); if (f) fclose(f);\n\
             while (getchar() != EOF) {{}}\n\
             fputs({answer}, stdout);\n\
             return 0;\n}}\n"
        ),
    )
    .expect("write");
    let exe = dir.join("hog");
    for cc in ["cc", "gcc"] {
        let built = Command::new(cc)
            .arg("-O1")
            .arg("-o")
            .arg(&exe)
            .arg(&source)
            .status();
        if built.is_ok_and(|s| s.success()) {
            return exe;
        }
    }
    panic!("cannot run here: no C compiler (cc, gcc) builds the test program");
}

/// The peak memory on a verdict line, in MB, and whether it is only a bound.
fn figure(line: &str) -> Option<(f64, bool)> {
    let (before, _) = line.split_once(" MB")?;
    let number = before.rsplit(' ').next()?;
    let at_most = before.ends_with(&format!("at most {number}"));
    Some((number.parse().ok()?, at_most))
}

#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    lacks_cc,
    ignore = "needs a C compiler (none was found when the tests were built)"
)]
fn a_program_over_the_memory_limit_is_stopped_as_mle() {
    let dir = common::sample_folder("mem", "mle");
    let exe = hog(&dir);
    let done = dir.join("done");
    let cmd = format!("'{}' 300 '{}'", exe.display(), done.display());
    let out = duckchess(&["test", &s(&dir.join("case.in")), "--cmd", &cmd]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = stdout.lines().next().expect("a verdict line");
    assert!(line.starts_with("MLE "), "{stdout}");
    assert!(line.ends_with("  killed over the 128 MB limit"), "{stdout}");
    // Seen over the limit, and stopped before it had all it asked for.
    let (mb, at_most) = figure(line).expect("a memory figure");
    assert!(!at_most && mb > 128.0 && mb < 300.0, "{stdout}");
    assert!(!done.exists(), "the program ran to its end: {stdout}");
    assert!(stdout.ends_with("0 passed, 1 failed\n"), "{stdout}");

    // The same program within a larger limit passes, and its figure is its own.
    let cmd = format!("'{}' 20 '{}'", exe.display(), done.display());
    let out = duckchess(&["test", &s(&dir.join("case.in")), "--cmd", &cmd]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let line = stdout.lines().next().expect("a verdict line");
    assert!(line.starts_with("AC "), "{stdout}");
    let (mb, at_most) = figure(line).expect("a memory figure");
    assert!(!at_most && (20.0..128.0).contains(&mb), "{stdout}");
    assert!(done.exists());

    // And over --memory 16 it is MLE.
    let out = duckchess(&[
        "test",
        &s(&dir.join("case.in")),
        "--cmd",
        &cmd,
        "--memory",
        "16",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.starts_with("MLE "), "{stdout}");
    assert!(stdout.contains(" 16 MB limit\n"), "{stdout}");

    // stress stops at it too, and says so.
    let out = duckchess(&["stress", "--cmd", &cmd, "--cases", "3", "--memory", "16"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.starts_with("found: MLE in case 0"), "{stdout}");
    let _ = fs::remove_dir_all(&dir);
}

/// What a program starts counts toward its memory however it leaves the program's
/// tree: a grandchild that left the session (`setsid`, its parent gone), and a child
/// still running after the program exited. Both are MLE, where they were AC.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    lacks_cc,
    ignore = "needs a C compiler (none was found when the tests were built)"
)]
fn what_a_program_starts_counts_however_it_leaves() {
    let dir = common::sample_folder("mem", "escape");
    let exe = hog(&dir);
    let answer = dir.join("case.out");
    for (how, script) in [
        (
            "a grandchild in a session of its own",
            format!(
                "setsid sh -c \"'{}' 300 /dev/null </dev/null >/dev/null &\"; sleep 0.4; cat '{}'",
                exe.display(),
                answer.display()
            ),
        ),
        (
            // It keeps the output open: the runner waits for it a grace period.
            "a child left running",
            format!(
                "'{}' 300 /dev/null </dev/null & cat '{}'",
                exe.display(),
                answer.display()
            ),
        ),
    ] {
        let path = dir.join("escape.sh");
        fs::write(&path, format!("#!/bin/sh\ncat >/dev/null\n{script}\n")).expect("write");
        let cmd = format!("sh '{}'", path.display());
        let out = duckchess(&[
            "test",
            &s(&dir.join("case.in")),
            "--cmd",
            &cmd,
            "--memory",
            "64",
        ]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{how}: {stdout}");
        assert!(stdout.starts_with("MLE "), "{how}: {stdout}");
        assert!(
            stdout.contains("killed over the 64 MB limit"),
            "{how}: {stdout}"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn every_case_of_another_program_shows_a_plausible_peak() {
    let dir = common::sample_folder("mem", "peak");
    let cmd = common::printing(&dir, "right", SAMPLE_OUT);
    let out = duckchess(&["test", &s(&dir), "--cmd", &cmd]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let line = stdout.lines().next().expect("a verdict line");
    if cfg!(any(target_os = "linux", windows)) {
        let (mb, _) = figure(line).unwrap_or_else(|| panic!("no figure: {stdout}"));
        assert!(mb > 0.0 && mb < 128.0, "{stdout}");
    }
    // The built-in judge runs in process: no figure of its own.
    let out = duckchess(&["test", &s(&dir)]);
    let stdout = text(&out.stdout);
    assert!(figure(&stdout).is_none(), "{stdout}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn memory_is_a_whole_number_of_megabytes_in_range() {
    let dir = common::sample_folder("mem", "range");
    let d = s(&dir);
    // stress takes no operand.
    for (sub, operand) in [("test", Some(d.as_str())), ("stress", None)] {
        let with = |extra: &[&str]| {
            let mut args = vec![sub];
            args.extend(operand);
            args.extend_from_slice(&["--cmd", "cat"]);
            args.extend_from_slice(extra);
            duckchess(&args)
        };
        for bad in ["0", "65537", "lots", "-1", "1.5"] {
            let out = with(&["--memory", bad]);
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{sub} --memory {bad}: {err}");
            assert!(err.starts_with(&format!("duckchess: {sub}: ")), "{err}");
            assert!(err.contains("--memory"), "{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
        }
        let out = with(&["--exact", "--ignore-whitespace"]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    }
    let out = duckchess(&["test", "--help"]);
    let help = text(&out.stdout);
    for said in [
        "--memory MB",
        "--exact",
        "MLE",
        "default 1, the statement's",
    ] {
        assert!(help.contains(said), "{said}: {help}");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// The verdict line of `test` on the sample with a program printing `output`, with
/// `extra` options; and the whole output and the status.
fn judged(dir: &Path, name: &str, output: &str, extra: &[&str]) -> (String, Option<i32>) {
    let cmd = common::printing(dir, name, output);
    let case = s(&dir.join("case.in"));
    let mut args = vec!["test", case.as_str(), "--cmd", cmd.as_str()];
    args.extend_from_slice(extra);
    let out = duckchess(&args);
    (text(&out.stdout), out.status.code())
}

#[test]
fn the_online_judge_s_comparison_is_the_default_and_exact_is_byte_for_byte() {
    let dir = common::sample_folder("mem", "compare");
    let crlf = SAMPLE_OUT.replace('\n', "\r\n");
    let spaces = SAMPLE_OUT.replace('\n', " \t\n");
    let blank_lines = format!("{SAMPLE_OUT}\n\n \n");
    for (name, output, what) in [
        ("crlf", crlf.as_str(), "the output has CRLF line ends"),
        (
            "spaces",
            spaces.as_str(),
            "trailing whitespace differs (first on line 1)",
        ),
        (
            "blank",
            blank_lines.as_str(),
            "3 extra blank lines at the end",
        ),
    ] {
        let (stdout, status) = judged(&dir, name, output, &[]);
        assert_eq!(status, Some(0), "{name}: {stdout}");
        let line = stdout.lines().next().expect("a verdict line");
        assert!(line.starts_with("AC "), "{name}: {stdout}");
        assert!(
            line.ends_with(&format!(
                "  (accepted: {what}, which the online judge ignores)"
            )),
            "{name}: {stdout}"
        );
        // The old name of the default means the same.
        let (again, status) = judged(&dir, name, output, &["--ignore-whitespace"]);
        assert_eq!(status, Some(0), "{name}: {again}");
        let (stdout, status) = judged(&dir, name, output, &["--exact"]);
        assert_eq!(status, Some(1), "{name}: {stdout}");
        assert!(stdout.starts_with("WA "), "{name}: {stdout}");
        assert!(
            stdout.contains(&format!(
                "    only whitespace differs: {what} (the online judge's default comparison \
                 accepts this; --exact does not)\n"
            )),
            "{name}: {stdout}"
        );
    }
    // Byte for byte right is plain AC either way.
    for extra in [&[][..], &["--exact"][..]] {
        let (stdout, status) = judged(&dir, "right", SAMPLE_OUT, extra);
        assert_eq!(status, Some(0), "{stdout}");
        assert!(!stdout.contains("accepted:"), "{stdout}");
    }
    // A blank line in the middle, or spacing inside a line, is a wrong answer,
    // diagnosed as ever, CRLF or not.
    let mut lines: Vec<&str> = SAMPLE_OUT.lines().collect();
    lines.insert(4, "");
    let middle = lines.join("\r\n") + "\r\n";
    let (stdout, status) = judged(&dir, "middle", &middle, &[]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(stdout.starts_with("WA "), "{stdout}");
    assert!(stdout.contains("    output line 5 differs"), "{stdout}");
    let inside = SAMPLE_OUT.replacen("red guard;NA;no;no", "red guard;NA; no;no", 1);
    let (stdout, status) = judged(&dir, "inside", &inside.replace('\n', "\r\n"), &[]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains("differs:  spacing: `; n` instead of `;n`"),
        "{stdout}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(not(unix), ignore = "Unix only")]
fn stress_accepts_what_the_online_judge_accepts_unless_exact() {
    // Each program prints the judge's answers with whitespace an online judge ignores;
    // `--exact` finds the first case and names the difference.
    for (name, sed, says) in [
        ("crlf", "s/$/\\r/", "the output has CRLF line ends"),
        (
            "spaces",
            "s/$/  /",
            "trailing whitespace differs (first on line 1)",
        ),
    ] {
        let dir = common::sample_folder("mem", &format!("stress-{name}"));
        let script = dir.join(format!("{name}.sh"));
        fs::write(&script, format!("'{BIN}' | sed '{sed}'\n")).expect("write");
        let cmd = format!("sh '{}'", script.display());
        let save = s(&dir.join("stress.in"));
        let base = [
            "stress",
            "--cmd",
            &cmd,
            "--cases",
            "20",
            "--seed",
            "1",
            "--save",
            &save,
            // The shell and sed start per case; a loaded machine must not make this a TLE.
            "--timeout",
            "30",
        ];
        let out = duckchess(&base);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {stdout}{}",
            text(&out.stderr)
        );
        let mut exact = base.to_vec();
        exact.push("--exact");
        let out = duckchess(&exact);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{name}: {stdout}");
        assert!(
            stdout.starts_with("found: WA in case 0"),
            "{name}: {stdout}"
        );
        assert!(
            stdout.contains(&format!("only whitespace differs: {says}")),
            "{name}: {stdout}"
        );
        let _ = fs::remove_dir_all(&dir);
    }
}
