//! The Windows build, run under Wine on Linux: the `.exe` that
//! `scripts/windows-toolchain.sh` builds (`DUCKCHESS_WINDOWS_EXE`, Wine's loader in
//! `DUCKCHESS_WINE`), with contestant programs compiled by MinGW's g++. The judge must
//! answer byte for byte as the Linux build does; `test` must accept a correct solution
//! that prints CRLF line ends (as MinGW's text mode does) and diagnose a wrong one;
//! `stress` must find and shrink the wrong one's real mistake; a timeout must end the
//! program and what it started; a program over the memory limit must be MLE; Ctrl-C
//! (SIGINT to Wine, which makes it the console's Ctrl-C) must end `stress` with its
//! summary, status 130 and the program's job; `uci` and `serve` must answer; the
//! runners must find `std.exe`, and `std`, in the current folder as `cmd.exe` does.
//!
//! The full tier runs these tests (`.ci/run` runs the script first); without the tools
//! they fail, naming what is missing.

use crate::common;
use crate::serve_common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const MINGW: &str = "x86_64-w64-mingw32-g++";
/// Where `scripts/windows-toolchain.sh` writes the `.exe` unless told otherwise.
const DEFAULT_EXE: &str = "target/windows/x86_64-win7-windows-gnu/release/duckchess.exe";
/// Debian's Wine loader, which is not on `PATH`.
const DEFAULT_WINE: &str = "/usr/lib/wine/wine64";

/// The Windows build and what runs it.
struct Windows {
    /// `duckchess.exe`.
    exe: PathBuf,
    /// Wine's loader.
    wine: PathBuf,
    /// A Wine prefix of the tests' own.
    prefix: PathBuf,
    /// A folder holding `std.exe` (correct, CRLF), `wrong.exe` (the horse's blocking
    /// square ignored when deciding check) and `stall.exe` (never answers; or starts a
    /// child, or takes memory, first).
    programs: PathBuf,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The tools, found and made ready once. These tests run only in the full tier, which
/// needs them: without them a test fails, saying what is missing.
fn windows() -> &'static Windows {
    static READY: OnceLock<Result<Windows, String>> = OnceLock::new();
    match READY.get_or_init(prepare) {
        Ok(w) => w,
        Err(missing) => {
            panic!(
                "cannot run here: {missing}; scripts/windows-toolchain.sh builds and installs it"
            )
        }
    }
}

/// Finds the `.exe`, Wine and MinGW, starts a Wine server that stays up between the
/// runs (each run then starts in a fraction of a second), and compiles the programs.
fn prepare() -> Result<Windows, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = std::env::var_os("DUCKCHESS_WINDOWS_EXE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(DEFAULT_EXE));
    let wine = std::env::var_os("DUCKCHESS_WINE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_WINE));
    if !exe.is_file() {
        return Err(format!("{} is absent", exe.display()));
    }
    if !wine.is_file() {
        return Err(format!("Wine ({}) is absent", wine.display()));
    }
    let mingw = Command::new(MINGW)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !mingw {
        return Err(format!("{MINGW} is absent"));
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let w = Windows {
        exe,
        prefix: tmp.join("wine-prefix"),
        programs: tmp.join("windows-programs"),
        wine,
    };
    fs::create_dir_all(&w.programs).expect("a folder for the programs");
    w.boot();
    let _ = w.server(&["-p120"]);
    let solution = root.join("tests/fixtures/stress/solution.cpp");
    let stall = root.join("tests/fixtures/windows/stall.cpp");
    for (name, source, define) in [
        ("std.exe", &solution, None),
        ("wrong.exe", &solution, Some("-DBUG_HORSE_LEG")),
        ("stall.exe", &stall, None),
    ] {
        let mut gpp = Command::new(MINGW);
        // Static: Wine has no MinGW runtime DLLs to find.
        gpp.args(["-O2", "-static", "-o"])
            .arg(w.programs.join(name))
            .arg(source)
            .args(define);
        let out = gpp.output().expect("MinGW runs");
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
    }
    Ok(w)
}

impl Windows {
    /// Makes the prefix (some seconds on the first start). A first start that Wine
    /// leaves half made (seen on a loaded machine: `kernel32.dll` not found, status
    /// c0000135) is not one to build on: its server is ended, the prefix removed and
    /// the start tried again, three times in all, before the test fails with what Wine
    /// said each time and the room left on the disk.
    fn boot(&self) {
        const TRIES: usize = 3;
        let mut said = Vec::new();
        for attempt in 1..=TRIES {
            let mut command = self.command(Path::new("wineboot"));
            // Errors only, to say why a start failed.
            command.env("WINEDEBUG", "err+all");
            let boot = run_to_files(command, b"");
            let works = boot.status.success() && self.answers();
            if works {
                if attempt > 1 {
                    eprintln!("note: Wine's prefix was made at try {attempt}: {said:?}");
                }
                return;
            }
            said.push(format!(
                "try {attempt}: {}: {}",
                boot.status,
                text(&boot.stderr)
            ));
            let _ = self.server(&["-k"]);
            let _ = fs::remove_dir_all(&self.prefix);
        }
        let room = Command::new("df")
            .arg("-h")
            .arg(self.prefix.parent().expect("the prefix is in a folder"))
            .output()
            .map(|o| text(&o.stdout))
            .unwrap_or_default();
        panic!("wineboot failed {TRIES} times: {said:#?}\nroom on the disk:\n{room}");
    }

    /// Whether a Windows program starts in the prefix: `cmd /c exit 7` exits 7.
    fn answers(&self) -> bool {
        let mut command = self.command(Path::new("cmd"));
        command.args(["/c", "exit 7"]);
        run_to_files(command, b"").status.code() == Some(7)
    }

    /// Runs the prefix's `wineserver` with `args` and waits for it.
    fn server(&self, args: &[&str]) -> std::io::Result<std::process::ExitStatus> {
        Command::new(self.wine.with_file_name("wineserver"))
            .args(args)
            .env("WINEPREFIX", &self.prefix)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
    }

    /// `program` started by Wine, quietly, in the tests' prefix.
    fn command(&self, program: &Path) -> Command {
        let mut command = Command::new(&self.wine);
        command
            .arg(program)
            .env("WINEPREFIX", &self.prefix)
            .env("WINEDEBUG", "-all")
            .env("NO_COLOR", "1");
        command
    }

    /// Runs `duckchess.exe ARGS` in the folder `dir`, feeding `stdin`. Runs of programs
    /// under test pass `--timeout 10`: a program Wine starts on a busy machine may take
    /// longer than the statement's second.
    fn run(&self, dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
        let mut command = self.command(&self.exe);
        command.args(args).current_dir(dir);
        run_to_files(command, stdin)
    }

    /// A fresh folder holding copies of the compiled programs and `cases/` with the
    /// repository's samples and the witness that catches `wrong.exe` (the samples do
    /// not), for a test to run in.
    fn work(&self, name: &str) -> PathBuf {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("windows-{name}"));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("cases")).expect("a work folder");
        for program in ["std.exe", "wrong.exe", "stall.exe"] {
            fs::copy(self.programs.join(program), dir.join(program)).expect("copied");
        }
        let witness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/witness");
        for file in ["check-ignores-horse-leg.in", "check-ignores-horse-leg.ans"] {
            fs::copy(witness.join(file), dir.join("cases").join(file)).expect("copied");
        }
        let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
        for entry in fs::read_dir(samples).expect("samples").flatten() {
            if entry.path().is_file() {
                fs::copy(entry.path(), dir.join("cases").join(entry.file_name())).expect("copy");
            }
        }
        dir
    }
}

/// Runs `command`, feeding `stdin`, its outputs going to files read once it has exited.
/// Not pipes: the Wine services that a run may start (`services.exe` and the like)
/// inherit its descriptors and outlive it, so a pipe would never end.
fn run_to_files(mut command: Command, stdin: &[u8]) -> Output {
    use std::io::Write;
    use std::sync::atomic::{AtomicUsize, Ordering};
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, Ordering::SeqCst);
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("windows-run-{n}"));
    let (out_path, err_path) = (base.with_extension("out"), base.with_extension("err"));
    let out = fs::File::create(&out_path).expect("a file for stdout");
    let err = fs::File::create(&err_path).expect("a file for stderr");
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("wine starts");
    let mut input = child.stdin.take().expect("piped");
    let data = stdin.to_vec();
    // Fed from a thread, which a Wine service holding the pipe may leave blocked.
    std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let status = child.wait().expect("wine runs");
    let read = |p: &Path| fs::read(p).expect("the output file");
    let output = Output {
        status,
        stdout: read(&out_path),
        stderr: read(&err_path),
    };
    let _ = fs::remove_file(out_path);
    let _ = fs::remove_file(err_path);
    output
}

/// A generated game, from the Linux build.
fn game(seed: u64, mode: &str) -> Vec<u8> {
    let seed = seed.to_string();
    let out = common::run(&["gen", "--seed", &seed, "--mode", mode], b"");
    assert!(out.status.success(), "gen: {}", text(&out.stderr));
    out.stdout
}

#[test]
#[ignore = "the Windows build under Wine: the full tier runs it"]
fn the_judge_answers_as_the_linux_build_does() {
    let w = windows();
    let dir = w.work("judge");
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    for entry in fs::read_dir(dir.join("cases")).expect("cases").flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "in") {
            inputs.push((path.display().to_string(), fs::read(&path).expect("read")));
        }
    }
    // Forty games: ten seeds in each of four modes.
    for mode in ["official", "decisive", "check", "invalid"] {
        for seed in 1..=10 {
            inputs.push((format!("gen {seed} {mode}"), game(seed, mode)));
        }
    }
    for (name, input) in &inputs {
        let linux = common::run(&["judge"], input);
        let windows = w.run(&dir, &["judge"], input);
        assert_eq!(windows.status.code(), linux.status.code(), "{name}");
        assert!(windows.stdout == linux.stdout, "{name}: the output differs");
        assert_eq!(text(&windows.stderr), text(&linux.stderr), "{name}");
    }
    // The built-in samples pass.
    let samples = w.run(&dir, &["test", "--samples"], b"");
    let report = text(&samples.stdout);
    assert_eq!(samples.status.code(), Some(0), "{report}");
    assert!(report.contains(" passed, 0 failed"), "{report}");
}

#[test]
#[ignore = "the Windows build under Wine: the full tier runs it"]
fn a_crlf_solution_passes_and_a_wrong_one_is_diagnosed() {
    let w = windows();
    let dir = w.work("test");
    // MinGW's text mode writes CRLF: the solution is one a contestant on Windows has.
    let statement = fs::read(dir.join("cases/statement.in")).expect("the statement");
    let mut command = w.command(&dir.join("std.exe"));
    command.current_dir(&dir);
    let printed = run_to_files(command, &statement);
    assert!(
        printed.stdout.windows(2).any(|p| p == b"\r\n"),
        "no CRLF in {:?}",
        text(&printed.stdout)
    );
    // The online judge's comparison, the default, accepts CRLF; `std.exe` and `std`
    // are found in the current folder, as cmd.exe finds them.
    for cmd in ["std.exe", "std", r".\std.exe"] {
        let out = w.run(
            &dir,
            &["test", "cases", "--cmd", cmd, "--timeout", "10"],
            b"",
        );
        let report = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{cmd}: {report}{}",
            text(&out.stderr)
        );
        assert!(report.contains(" passed, 0 failed"), "{cmd}: {report}");
        assert!(!report.contains("WA"), "{cmd}: {report}");
        assert!(report.contains("CRLF"), "{cmd}: {report}");
    }
    // Byte for byte, the CRLF is the only difference, and named.
    let out = w.run(
        &dir,
        &[
            "test",
            "cases/statement.in",
            "--cmd",
            "std",
            "--exact",
            "--timeout",
            "10",
        ],
        b"",
    );
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("the output has CRLF line ends"), "{report}");
    let out = w.run(
        &dir,
        &[
            "test",
            "cases",
            "--cmd",
            "wrong.exe",
            "--ascii",
            "--timeout",
            "10",
        ],
        b"",
    );
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(
        report.contains("WA  cases\\check-ignores-horse-leg"),
        "{report}"
    );
    assert!(report.contains("differs:  check"), "{report}");
    assert!(report.contains("no check from the "), "{report}");
    // A program that is not there: the message names it as typed.
    let out = w.run(&dir, &["test", "cases", "--cmd", "absent.exe"], b"");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot run \"absent.exe\""), "{stderr}");
    assert!(!stderr.contains("did you mean"), "{stderr}");
}

#[test]
#[ignore = "the Windows build under Wine: the full tier runs it"]
fn stress_finds_and_shrinks_the_real_mistake() {
    let w = windows();
    let dir = w.work("stress");
    let started = Instant::now();
    let args = [
        "stress",
        "--cmd",
        "wrong.exe",
        "--timeout",
        "10",
        "--seed",
        "1",
        "--cases",
        "3000",
        "--jobs",
        "2",
        "--save",
        "found.in",
        "--ascii",
    ];
    let mut out = w.run(&dir, &args, b"");
    // Under a loaded machine Wine once ended the whole run at its start, printing
    // nothing at all; such a run is tried once more (a run that prints is judged).
    if out.stdout.is_empty() && out.stderr.is_empty() {
        println!("stress under Wine printed nothing: run again");
        out = w.run(&dir, &args, b"");
    }
    let report = text(&out.stdout);
    println!(
        "stress under Wine: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(report.starts_with("found: WA in case "), "{report}");
    assert!(
        report.contains(", 1-minimal; it fails 3 of 3 runs\n"),
        "{report}"
    );
    assert!(report.contains("differs:  check"), "{report}");
    assert!(report.contains("no check from the "), "{report}");
    // The saved case still fails the same way on Linux's judge.
    let saved = fs::read(dir.join("found.in")).expect("the case is saved");
    let linux = common::run(&["judge"], &saved);
    assert!(linux.status.success(), "{}", text(&linux.stderr));
}

#[test]
#[ignore = "the Windows build under Wine: the full tier runs it"]
fn a_timeout_ends_the_program_and_what_it_started() {
    let w = windows();
    let dir = w.work("timeout");
    for cmd in ["stall.exe", "stall.exe spawn marker"] {
        let started = Instant::now();
        let out = w.run(
            &dir,
            &["test", "cases/statement.in", "--cmd", cmd, "--timeout", "1"],
            b"",
        );
        let took = started.elapsed();
        let report = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{cmd}: {report}{}",
            text(&out.stderr)
        );
        assert!(
            report.starts_with("TLE cases/statement "),
            "{cmd}: {report}"
        );
        assert!(took < Duration::from_secs(20), "{cmd}: {took:?}");
    }
    // The child would have written its marker after three seconds.
    std::thread::sleep(Duration::from_secs(5));
    assert!(
        !dir.join("marker").exists(),
        "the child outlived the timeout"
    );
}

#[test]
#[ignore = "the Windows build under Wine: the full tier runs it"]
fn a_program_over_the_memory_limit_is_mle() {
    let w = windows();
    let dir = w.work("memory");
    let started = Instant::now();
    let out = w.run(
        &dir,
        &[
            "test",
            "cases/statement.in",
            "--cmd",
            "stall.exe hog 300",
            "--timeout",
            "20",
        ],
        b"",
    );
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(report.starts_with("MLE cases/statement "), "{report}");
    assert!(report.contains(" 128 MB limit"), "{report}");
    // Stopped for its memory, long before its minute of sleep or the time limit.
    assert!(started.elapsed() < Duration::from_secs(15), "{report}");
    // Within a larger limit it runs into the time limit instead, its peak shown.
    let out = w.run(
        &dir,
        &[
            "test",
            "cases/statement.in",
            "--cmd",
            "stall.exe hog 40",
            "--timeout",
            "1",
        ],
        b"",
    );
    let report = text(&out.stdout);
    assert!(report.starts_with("TLE cases/statement "), "{report}");
    assert!(report.contains(" MB"), "{report}");
}

#[test]
#[ignore = "the Windows build under Wine: the full tier runs it"]
fn uci_and_serve_answer() {
    let w = windows();
    let dir = w.work("uci");
    let session = "uci\nisready\nposition startpos moves e4e5\ngo depth 3\n";
    let out = w.run(&dir, &["uci"], session.as_bytes());
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    let lines: Vec<&str> = said.lines().collect();
    for line in ["uciok", "readyok"] {
        assert!(lines.contains(&line), "{said}");
    }
    assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{said}");

    // The server, its first line read from a pipe (the address), its standard error
    // in a file (see `run_to_files`); it stops at the end of its input.
    let err_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("windows-serve.err");
    let mut server = w
        .command(&w.exe)
        .args(["serve", "--port", "0"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(fs::File::create(&err_path).expect("a file for stderr"))
        .spawn()
        .expect("wine starts");
    let stdout = server.stdout.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(serve_common::PATIENCE)
        .expect("serve prints its address");
    let addr: std::net::SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    let page = serve_common::get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("<html"), "{}", page.text());
    let state = serve_common::post(addr, "/api/state", "{}");
    assert_eq!(state.status, 200);
    assert!(
        state.text().contains("\"side\":\"red\""),
        "{}",
        state.text()
    );
    drop(server.stdin.take());
    let status = serve_common::wait(&mut server, serve_common::PATIENCE);
    if status.is_none() {
        let _ = server.kill();
        let _ = server.wait();
    }
    let stderr = fs::read_to_string(&err_path).unwrap_or_default();
    assert!(status.is_some_and(|s| s.success()), "{stderr}");
    assert_eq!(stderr, "duckchess: serve: end of input: stopping\n");
}

/// Whether the program `name` is running: a process whose first argument ends with it
/// (Linux's /proc: Wine's processes are Linux processes, named as Windows started them,
/// `.\name`).
fn running(name: &str) -> bool {
    let Ok(dir) = fs::read_dir("/proc") else {
        return false;
    };
    dir.flatten().any(|e| {
        fs::read(e.path().join("cmdline")).is_ok_and(|c| {
            c.split(|&b| b == 0)
                .next()
                .is_some_and(|first| first.ends_with(name.as_bytes()))
        })
    })
}

/// Waits up to `limit` for `done`.
fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    done()
}

#[test]
#[ignore = "the Windows build under Wine: the full tier runs it"]
fn ctrl_c_ends_stress_with_its_summary_and_the_program_too() {
    let w = windows();
    let dir = w.work("ctrl-c");
    // A program that never answers, under a name of its own among the tests' processes.
    let program = "ctrlc-stall.exe";
    fs::copy(dir.join("stall.exe"), dir.join(program)).expect("copied");
    let (out_path, err_path) = (dir.join("stress.out"), dir.join("stress.err"));
    let mut child = w
        .command(&w.exe)
        .args(["stress", "--cmd", program, "--seed", "42", "--jobs", "1"])
        .args(["--timeout", "60"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(fs::File::create(&out_path).expect("a file for stdout"))
        .stderr(fs::File::create(&err_path).expect("a file for stderr"))
        .spawn()
        .expect("wine starts");
    let started = wait_for(serve_common::PATIENCE, || running(program));
    if !started {
        let _ = child.kill();
    }
    assert!(started, "the program under test never started");
    // Wine turns SIGINT into the console's CTRL_C_EVENT for the Windows process, as
    // Ctrl-C at a console would: the control handler runs on a thread of its own.
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let status = serve_common::wait(&mut child, serve_common::PATIENCE);
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let stderr = fs::read_to_string(&err_path).unwrap_or_default();
    assert_eq!(status.and_then(|s| s.code()), Some(130), "{stderr}");
    let tried: u64 = stderr
        .strip_prefix("duckchess: stress: interrupted; cases tried: ")
        .and_then(|rest| rest.split(';').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no summary in {stderr:?}"));
    assert_eq!(tried, 0, "{stderr}");
    assert!(
        stderr.ends_with("; no failure found yet; seed 42 (--seed 42 tries the same cases)\n"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(fs::read_to_string(&out_path).unwrap_or_default(), "");
    // The program's job ended with the run.
    assert!(
        wait_for(Duration::from_secs(10), || !running(program)),
        "the program under test outlived the interrupt"
    );
}
