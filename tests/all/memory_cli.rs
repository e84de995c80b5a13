//! Memory and comparison in `test` and `stress`, through the binary: the peak memory on
//! each case's line with the way it was counted, MLE over `--memory` with the program
//! stopped as soon as it is seen over (small C programs compiled here, skipped with a
//! note without a compiler), hostile programs counted as the kernel counts them, both in
//! a control group and, forced, by the process tree, the option's range, and the online
//! judge's comparison by default with `--exact` for byte for byte.

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
/// still running after the program exited. Both are MLE, counted either way.
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
        for way in [Way::Group, Way::Tree] {
            let case = s(&dir.join("case.in"));
            let args = ["test", &case, "--cmd", &cmd, "--memory", "64"];
            let out = way.command(&args).output().expect("the binary runs");
            let stdout = text(&out.stdout);
            assert_eq!(out.status.code(), Some(1), "{how}, {way:?}: {stdout}");
            assert!(stdout.starts_with("MLE "), "{how}, {way:?}: {stdout}");
            assert!(
                stdout.contains("killed over the 64 MB limit"),
                "{how}, {way:?}: {stdout}"
            );
        }
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
        // Case 0 has no command, and so no output to differ in: case 1 has one.
        assert!(
            stdout.starts_with("found: WA in case 1"),
            "{name}: {stdout}"
        );
        assert!(
            stdout.contains(&format!("only whitespace differs: {says}")),
            "{name}: {stdout}"
        );
        let _ = fs::remove_dir_all(&dir);
    }
}

/// The hostile programs, one C source, by their first argument (`ANSWER` is the file
/// printed as the output, after the input is read). Each program answers only once what
/// it is there to show has happened, or was killed before it could.
/// - `envless ANSWER MB`: a child leaves the session and forks a grandchild, then ends;
///   the grandchild executes the program again with an empty environment to touch MB
///   megabytes (`alloc`) and sleep a second.
/// - `many ANSWER MB`: one child starts, then 600 small ones that sleep 2 s; then the
///   first touches MB megabytes and sleeps 1.5 s.
/// - `shared ANSWER MB`: touches MB megabytes, forks a child that sleeps 2 s, and
///   answers after 0.3 s (the pages are shared copy-on-write).
/// - `memfd ANSWER MB`, `shm ANSWER MB`: writes MB megabytes into a `memfd`, or into a
///   file of `/dev/shm` it has unlinked, and answers after 0.3 s.
/// - `hop ANSWER MARKER`: answers, then starts a chain of processes that fork and
///   exit, each child going on, every 100 µs for 4 s at most, holding the output; the
///   program ends after 1.5 s. `MARKER` only tells its processes from any other.
/// - `alloc MB FD`: touches MB megabytes, writes a byte to descriptor FD, and sleeps a
///   second.
const HOSTILE: &str = r#"
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static void nap(long ms) { struct timespec t = {ms / 1000, (ms % 1000) * 1000000L}; nanosleep(&t, 0); }
static void touch(long mb) { for (long i = 0; i < mb; i++) { char *p = malloc(1 << 20); memset(p, 1, 1 << 20); } }
static void answer(const char *path) {
  char buf[4096]; FILE *f = fopen(path, "r"); size_t n;
  while (getchar() != EOF) {}
  while (f && (n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, stdout);
  fflush(stdout);
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
/* Waits until the other end of `done` has written its byte, or is gone. */
static void await(int done[2]) { char c; close(done[1]); if (read(done[0], &c, 1) < 0) _exit(3); }

int main(int argc, char **argv) {
  const char *mode = argv[1];
  int done[2];
  if (pipe(done) != 0) return 3;
  if (!strcmp(mode, "alloc")) { touch(atol(argv[2])); if (write(atoi(argv[3]), "x", 1) != 1) return 3; nap(1000); return 0; }
  const char *ans = argv[2];
  if (!strcmp(mode, "envless")) {
    if (fork() == 0) {
      setsid();
      if (fork() == 0) {
        char fd[16]; snprintf(fd, sizeof fd, "%d", done[1]);
        char *args[] = {argv[0], "alloc", argv[3], fd, 0}; char *env[] = {0};
        execve("/proc/self/exe", args, env); _exit(1);
      }
      _exit(0);
    }
    await(done); answer(ans); return 0;
  }
  if (!strcmp(mode, "many")) {
    int go[2]; char c;
    if (pipe(go) != 0) return 3;
    if (fork() == 0) {
      close(go[1]); if (read(go[0], &c, 1) != 1) _exit(3);
      touch(atol(argv[3])); if (write(done[1], "x", 1) != 1) _exit(3); nap(1500); _exit(0);
    }
    close(go[0]);
    for (int i = 0; i < 600; i++) if (fork() == 0) { nap(2000); _exit(0); }
    if (write(go[1], "x", 1) != 1) return 3;
    await(done); answer(ans); return 0;
  }
  if (!strcmp(mode, "shared")) {
    touch(atol(argv[3]));
    if (fork() == 0) { nap(2000); _exit(0); }
    nap(300); answer(ans); return 0;
  }
  if (!strcmp(mode, "memfd") || !strcmp(mode, "shm")) {
    int fd;
    if (!strcmp(mode, "memfd")) fd = memfd_create("hog", 0);
    else {
      char name[64]; snprintf(name, sizeof name, "/dev/shm/duckchess-test-%d", getpid());
      fd = open(name, O_RDWR | O_CREAT | O_EXCL, 0600); unlink(name);
    }
    static char chunk[1 << 20]; memset(chunk, 1, sizeof chunk);
    for (long i = 0; i < atol(argv[3]); i++) if (write(fd, chunk, sizeof chunk) != sizeof chunk) return 3;
    nap(300); answer(ans); return 0;
  }
  if (!strcmp(mode, "hop")) {
    answer(ans);
    double start = now();
    if (fork() == 0) {
      while (now() - start < 4.0) { pid_t p = fork(); if (p > 0) _exit(0); if (p < 0) nap(1); usleep(100); }
      _exit(0);
    }
    nap(1500); return 0;
  }
  return 2;
}
"#;

/// The hostile programs built in `dir`.
#[cfg(target_os = "linux")]
fn hostile(dir: &Path) -> PathBuf {
    let source = dir.join("hostile.c");
    fs::write(&source, HOSTILE).expect("write");
    let exe = dir.join("hostile");
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

/// The two ways a run's memory is counted on Linux: its control group, and, where none
/// can be made, its supervisor's process tree. `Tree` runs the binary as an ordinary
/// user where the tests run as root (who may make no group: [`common::as_ordinary_user`]),
/// else with groups turned off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    Group,
    Tree,
}

impl Way {
    /// What the verdict line says of it.
    fn said(self) -> &'static str {
        match self {
            Way::Group => " MB (control group)",
            Way::Tree => " MB (process tree, PSS)",
        }
    }

    /// The binary with `args`, counting memory this way.
    fn command(self, args: &[&str]) -> Command {
        let mut command = match self {
            Way::Group => {
                let mut c = Command::new(BIN);
                c.env_remove("DUCKCHESS_NO_CGROUP");
                c
            }
            Way::Tree => common::as_ordinary_user(),
        };
        command
            .args(args)
            .current_dir(std::env::temp_dir())
            .env_remove("NO_COLOR");
        command
    }
}

/// `test` of the sample with the hostile program in `mode` (its words after the
/// answer: `extra`), under `--memory limit`, counted `way`: the verdict line and the
/// status.
#[cfg(target_os = "linux")]
fn hostile_run(way: Way, tag: &str, mode: &str, extra: &str, limit: u32) -> (String, Option<i32>) {
    let dir = common::sample_folder("mem", &format!("{tag}-{way:?}"));
    let exe = hostile(&dir);
    let cmd = format!(
        "'{}' {mode} '{}' {extra}",
        exe.display(),
        dir.join("case.out").display()
    );
    let limit = limit.to_string();
    let case = s(&dir.join("case.in"));
    let args = [
        "test",
        &case,
        "--cmd",
        &cmd,
        "--memory",
        &limit,
        "--timeout",
        "5",
    ];
    let out = way.command(&args).output().expect("the binary runs");
    let stdout = text(&out.stdout);
    let line = stdout.lines().next().unwrap_or_default().to_string();
    assert!(line.contains(way.said()), "{way:?}: {stdout}");
    let _ = fs::remove_dir_all(&dir);
    (line, out.status.code())
}

/// Two tests of `check`: counted in a control group (where the tests could make one),
/// and by the process tree.
macro_rules! each_way {
    ($check:ident: $group:ident, $tree:ident) => {
        #[cfg(target_os = "linux")]
        #[test]
        #[cfg_attr(
            lacks_cc,
            ignore = "needs a C compiler (none was found when the tests were built)"
        )]
        #[cfg_attr(
            lacks_cgroup,
            ignore = "needs a control group with the memory controller (none could be made when the tests were built)"
        )]
        fn $group() {
            $check(Way::Group);
        }

        #[cfg(target_os = "linux")]
        #[test]
        #[cfg_attr(
            lacks_cc,
            ignore = "needs a C compiler (none was found when the tests were built)"
        )]
        fn $tree() {
            $check(Way::Tree);
        }
    };
}

/// That `line` is MLE, killed over `limit` MB, with a figure over it.
fn assert_mle(line: &str, limit: u32) {
    assert!(line.starts_with("MLE "), "{line}");
    assert!(
        line.ends_with(&format!("  killed over the {limit} MB limit")),
        "{line}"
    );
    let (mb, at_most) = figure(line).expect("a memory figure");
    assert!(!at_most && mb > f64::from(limit), "{line}");
}

/// A grandchild that leaves the session and runs with an empty environment is the
/// run's as much as the program is: 600 MB of it under `--memory 128` is MLE.
#[cfg(target_os = "linux")]
fn grandchild_with_an_empty_environment(way: Way) {
    let (line, status) = hostile_run(way, "envless", "envless", "600", 128);
    assert_eq!(status, Some(1), "{line}");
    assert_mle(&line, 128);
}

each_way!(
    grandchild_with_an_empty_environment:
    a_grandchild_with_an_empty_environment_counts_in_the_control_group,
    a_grandchild_with_an_empty_environment_counts_in_the_process_tree
);

/// A big child behind 600 small ones is counted: 1,000 MB under `--memory 400` is MLE
/// (the small ones together hold some 200 MB of resident memory, most of it shared).
#[cfg(target_os = "linux")]
fn a_big_child_behind_many(way: Way) {
    let (line, status) = hostile_run(way, "many", "many", "1000", 400);
    assert_eq!(status, Some(1), "{line}");
    assert_mle(&line, 400);
}

each_way!(
    a_big_child_behind_many:
    six_hundred_children_hide_no_big_one_in_the_control_group,
    six_hundred_children_hide_no_big_one_in_the_process_tree
);

/// 100 MB shared copy-on-write with a forked child count once: AC under `--memory 128`,
/// at about 100 MB.
#[cfg(target_os = "linux")]
fn pages_shared_after_a_fork(way: Way) {
    let (line, status) = hostile_run(way, "shared", "shared", "100", 128);
    assert_eq!(status, Some(0), "{line}");
    assert!(line.starts_with("AC "), "{line}");
    let (mb, _) = figure(&line).expect("a memory figure");
    assert!((95.0..128.0).contains(&mb), "{line}");
}

each_way!(
    pages_shared_after_a_fork:
    pages_shared_after_a_fork_count_once_in_the_control_group,
    pages_shared_after_a_fork_count_once_in_the_process_tree
);

/// 300 MB written into a `memfd`, or into an unlinked file of `/dev/shm`, is memory: MLE
/// under `--memory 128` in a control group. The process tree cannot see pages no
/// process maps, as the contestants' guide says: there the same program passes.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    lacks_cc,
    ignore = "needs a C compiler (none was found when the tests were built)"
)]
#[cfg_attr(
    lacks_cgroup,
    ignore = "needs a control group with the memory controller (none could be made when the tests were built)"
)]
fn a_memfd_and_a_file_in_dev_shm_count_in_the_control_group() {
    for mode in ["memfd", "shm"] {
        let (line, status) = hostile_run(Way::Group, mode, mode, "300", 128);
        assert_eq!(status, Some(1), "{mode}: {line}");
        assert_mle(&line, 128);
    }
    let (line, status) = hostile_run(Way::Tree, "memfd", "memfd", "300", 128);
    assert_eq!(status, Some(0), "{line}");
    let (mb, _) = figure(&line).expect("a memory figure");
    assert!(mb < 128.0, "{line}");
}

/// A program that writes itself into the group above its run's (as root, or where a
/// user may write there) leaves the group and the kernel's cap with it; it is still the
/// run's supervisor's descendant, and is counted by its PSS besides the group: 400 MB
/// past a 128 MB limit is MLE, not an AC of the group's few hundred KB.
#[test]
#[cfg_attr(
    lacks_cc,
    ignore = "needs a C compiler (none was found when the tests were built)"
)]
#[cfg_attr(
    lacks_cgroup,
    ignore = "needs a control group with the memory controller (none could be made when the tests were built)"
)]
fn a_program_that_leaves_its_control_group_is_counted_all_the_same() {
    let dir = common::sample_folder("mem", "escape");
    let hog = hog(&dir);
    let own = common::own_cgroups();
    let Some((_, memory)) = own
        .iter()
        .find(|(names, _)| names.split(',').any(|n| n == "memory"))
    else {
        panic!("cannot run here: no cgroup v1 memory hierarchy (this test writes into one)");
    };
    // The run's group is below this process's: its parent is this process's group.
    let script = dir.join("escape.sh");
    fs::write(
        &script,
        format!(
            "echo 0 > '{}/cgroup.procs' || exit 9\nexec '{}' 400 '{}'\n",
            memory.display(),
            hog.display(),
            dir.join("done").display()
        ),
    )
    .expect("write");
    let cmd = format!("sh '{}'", script.display());
    let out = duckchess(&[
        "test",
        &s(&dir.join("case.in")),
        "--cmd",
        &cmd,
        "--memory",
        "128",
    ]);
    let stdout = text(&out.stdout);
    let line = stdout.lines().next().unwrap_or("");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_mle(line, 128);
    let _ = fs::remove_dir_all(&dir);
}

/// The processes under `root` in state Z (zombies not reaped), from `/proc`.
#[cfg(target_os = "linux")]
fn zombies_under(root: u32) -> usize {
    let mut parent = std::collections::HashMap::new();
    let mut zombie = std::collections::HashSet::new();
    for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(at) = stat.rfind(')') else { continue };
        let mut fields = stat[at + 1..].split_whitespace();
        let (Some(state), Some(ppid)) = (fields.next(), fields.next()) else {
            continue;
        };
        parent.insert(pid, ppid.parse::<u32>().unwrap_or(0));
        if state == "Z" {
            zombie.insert(pid);
        }
    }
    let under = |mut p: u32| {
        for _ in 0..64 {
            match parent.get(&p) {
                Some(&q) if q == root => return true,
                Some(&q) if q > 1 => p = q,
                _ => return false,
            }
        }
        false
    };
    zombie.iter().filter(|&&z| under(z)).count()
}

/// Processes that fork and exit in a loop: while the run lasts, each one that exits is
/// reaped at once (no pile of zombies), and none outlives the run.
#[cfg(target_os = "linux")]
fn hoppers(way: Way) {
    let dir = common::sample_folder("mem", &format!("hop-{way:?}"));
    let exe = hostile(&dir);
    let marker = common::marker(if way == Way::Group { 31 } else { 32 });
    let cmd = format!(
        "'{}' hop '{}' {marker}",
        exe.display(),
        dir.join("case.out").display()
    );
    let case = s(&dir.join("case.in"));
    let mut child = way
        .command(&["test", &case, "--cmd", &cmd, "--timeout", "5"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut most = 0;
    while child.try_wait().expect("a look").is_none() {
        most = most.max(zombies_under(child.id()));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("the binary ends");
    let left = common::processes_with(&marker);
    common::end_processes(&left);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(way.said()), "{stdout}");
    assert_eq!(left, Vec::<u32>::new(), "processes left after the run");
    assert!(most < 100, "{most} zombies waited to be reaped");
    let _ = fs::remove_dir_all(&dir);
}

each_way!(
    hoppers:
    processes_that_fork_and_exit_in_a_loop_go_with_the_control_group,
    processes_that_fork_and_exit_in_a_loop_go_with_the_process_tree
);

/// The folders where the binary, started from here, makes its run groups: those of this
/// process's groups in the hierarchies with the memory controller or the freezer (cgroup
/// v1), or in cgroup v2.
#[cfg(target_os = "linux")]
fn group_parents() -> Vec<PathBuf> {
    common::own_cgroups()
        .into_iter()
        .filter(|(names, _)| {
            names.is_empty() || names.split(',').any(|n| n == "memory" || n == "freezer")
        })
        .map(|(_, dir)| dir)
        .collect()
}

/// The run groups of the runner `pid` that are left (`duckchess-PID-N`).
#[cfg(target_os = "linux")]
fn groups_of(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("duckchess-{pid}-");
    group_parents()
        .iter()
        .flat_map(|p| fs::read_dir(p).into_iter().flatten().flatten())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

/// `test` with a program that starts a `sleep MARKER` in a session of its own, then
/// becomes `sleep MARKER` itself; returns once it runs, with the marker.
#[cfg(target_os = "linux")]
fn sleeping_run(dir: &Path, tag: u32) -> (std::process::Child, String) {
    let started = dir.join("started");
    let marker = common::marker(tag);
    let script = dir.join("sleep.sh");
    fs::write(
        &script,
        format!(
            "setsid sleep {marker} </dev/null >/dev/null 2>&1 &\ntouch '{}'\nexec sleep {marker}\n",
            started.display()
        ),
    )
    .expect("write");
    let cmd = format!("sh '{}'", script.display());
    let child = Way::Group
        .command(&[
            "test",
            &s(&dir.join("case.in")),
            "--cmd",
            &cmd,
            "--timeout",
            "60",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary runs");
    let up = (0..1000).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(10));
        started.exists()
    });
    assert!(up, "the program started");
    // The daemon is started before the file is touched; give it a moment to exec.
    std::thread::sleep(std::time::Duration::from_millis(100));
    (child, marker)
}

/// Ctrl-C ends every process of the run, whatever its session, and removes the run's
/// control group.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    lacks_cgroup,
    ignore = "needs a control group with the memory controller (none could be made when the tests were built)"
)]
fn an_interrupted_run_leaves_no_process_and_no_control_group() {
    let dir = common::sample_folder("mem", "interrupted");
    let (mut child, marker) = sleeping_run(&dir, 33);
    let runner = child.id();
    // Looked at before the interrupt, asserted after it: a failure leaves nothing running.
    let groups = groups_of(runner).len();
    let running = common::processes_with(&marker).len();
    let sent = Command::new("kill")
        .args(["-INT", &runner.to_string()])
        .status()
        .expect("kill runs");
    let status = child.wait().expect("test ends").code();
    let left = common::processes_with(&marker);
    common::end_processes(&left);
    assert!(sent.success());
    assert!(groups > 0, "the run had no control group");
    assert_eq!(running, 2);
    assert_eq!(status, Some(130));
    assert_eq!(
        left,
        Vec::<u32>::new(),
        "processes left after the interrupt"
    );
    assert_eq!(groups_of(runner), Vec::<PathBuf>::new());
    let _ = fs::remove_dir_all(&dir);
}

/// A runner killed outright (`SIGKILL`, which it cannot handle) leaves its run's group
/// and what escaped into a session of its own; the next runner ends them and removes the
/// group.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    lacks_cgroup,
    ignore = "needs a control group with the memory controller (none could be made when the tests were built)"
)]
fn the_next_runner_removes_what_a_killed_one_left() {
    let dir = common::sample_folder("mem", "killed");
    let (mut child, marker) = sleeping_run(&dir, 34);
    let runner = child.id();
    // Looked at while it runs: a runner started by another test may remove the group
    // as soon as its own runner is gone.
    let groups = groups_of(runner).len();
    child.kill().expect("SIGKILL");
    child.wait().expect("test ends");
    let cmd = common::printing(&dir, "right", SAMPLE_OUT);
    let out = Way::Group
        .command(&["test", &s(&dir.join("case.in")), "--cmd", &cmd])
        .output()
        .expect("the binary runs");
    let left = common::processes_with(&marker);
    common::end_processes(&left);
    assert!(groups > 0, "the run had no control group");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(left, Vec::<u32>::new(), "processes left in the old group");
    assert_eq!(groups_of(runner), Vec::<PathBuf>::new());
    let _ = fs::remove_dir_all(&dir);
}
