//! The wrong programs held out from the suite's making, written apart from the model, the
//! catalogue and the suite by people who saw none of them: `tests/fixtures/independent/`
//! (four C++ solutions, 35 planted mistakes), `tests/fixtures/independent2/` (six
//! solutions of other shapes in C, C++ and Rust, 33 planted mistakes, each with a
//! witness) and `tests/fixtures/independent3/` (seven solutions in Python, Java,
//! JavaScript, Go, Free Pascal, C and C++, 35 planted mistakes aimed at counts, flat
//! layouts and rules, each with a witness; its `build.sh` builds one). They are compiled
//! here once per test run; the every-seed test of `audit` holds every seed's suite to
//! killing every one a strictly valid input shows. Needs g++, a C compiler and rustc, and
//! for the third set python3, node, javac, go and fpc (the tests that use them are in
//! the full tier).

use crate::common;
use duckchess::generate::case::{Case, Cmd};
use duckchess::judge;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The folder of the first set.
fn first() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/independent")
}

/// The folder of the second set.
fn second() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/independent2")
}

/// The folder of the third set.
fn third() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/independent3")
}

/// The planted mistakes of a set: `file<TAB>switch<TAB>description` lines.
fn listed(dir: &Path) -> Vec<(String, String)> {
    fs::read_to_string(dir.join("bugs.tsv"))
        .expect("bugs.tsv")
        .lines()
        .filter_map(|l| {
            let mut cells = l.split('\t');
            Some((cells.next()?.to_string(), cells.next()?.to_string()))
        })
        .collect()
}

/// Compiles `file` of a set with the switch `switch` into `out` (the third set by its
/// own `build.sh`, which writes a launcher for the languages it does not compile).
fn compile(set: &Path, file: &str, switch: &str, out: &Path) {
    let source = set.join(file);
    let mut cmd = if set.join("build.sh").is_file() && set == third() {
        let mut c = Command::new("bash");
        c.arg(set.join("build.sh")).args([file, switch]).arg(out);
        let status = c.stdout(Stdio::null()).stderr(Stdio::null()).status();
        assert!(
            status.is_ok_and(|s| s.success()),
            "cannot build {file} with {switch} (python3, node, javac, go, fpc, gcc and g++ \
             are needed)"
        );
        return;
    } else if file.ends_with(".rs") {
        let mut c = Command::new("rustc");
        c.args(["--edition", "2021", "-O", "--cfg", switch]);
        c
    } else if file.ends_with(".c") {
        let mut c = Command::new("gcc");
        c.args(["-O2", "-std=c11", &format!("-D{switch}")]);
        c
    } else {
        let mut c = Command::new("g++");
        c.args(["-O2", "-std=c++17", &format!("-D{switch}")]);
        c
    };
    let status = cmd
        .arg("-o")
        .arg(out)
        .arg(&source)
        .stderr(Stdio::null())
        .status();
    assert!(
        status.is_ok_and(|s| s.success()),
        "cannot compile {} with {switch} (g++, gcc and rustc are needed)",
        source.display()
    );
}

/// Every held-out program, compiled once per test run: its name and path.
pub fn programs() -> &'static [(String, PathBuf)] {
    static PROGRAMS: OnceLock<Vec<(String, PathBuf)>> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("held-out-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("a folder for the programs");
        let mut out = Vec::new();
        for set in [first(), second(), third()] {
            for (file, switch) in listed(&set) {
                let path = dir.join(&switch);
                compile(&set, &file, &switch, &path);
                out.push((switch, path));
            }
        }
        out
    })
}

/// What `program` writes for `input`, or `None` when it fails, crashes or takes more
/// than ten seconds.
fn output(program: &Path, input: &[u8]) -> Option<Vec<u8>> {
    let mut child = Command::new(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    });
    let stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let mut out = Vec::new();
        let _ = { stdout }.read_to_end(&mut out);
        out
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().ok()? {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let _ = writer.join();
    let out = reader.join().ok()?;
    status.success().then_some(out)
}

/// The judge's answer to `input`.
fn judged(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    judge::run(input, &mut out).expect("a valid input");
    out
}

/// The planted mistakes that only an input outside the strict format shows, so that no
/// valid test set can: each with why.
pub const OUTSIDE_THE_FORMAT: [(&str, &str); 1] = [(
    "TAB_NO_NEWLINE",
    "it drops the last digit of a last line without its final newline, which the judge \
     reads (the statement's sample has none) and the strict format forbids",
)];

/// The planted mistakes of the third set that only an input outside the strict format
/// shows (`lenient` in its `bugs.tsv`).
pub fn lenient() -> Vec<String> {
    fs::read_to_string(third().join("bugs.tsv"))
        .expect("bugs.tsv")
        .lines()
        .filter(|l| l.split('\t').nth(3) == Some("lenient"))
        .filter_map(|l| l.split('\t').nth(1).map(str::to_string))
        .collect()
}

/// Whether the planted mistake `name` is one only an input outside the strict format
/// shows.
fn outside_the_format(name: &str) -> bool {
    OUTSIDE_THE_FORMAT.iter().any(|(n, _)| *n == name) || lenient().iter().any(|n| n == name)
}

/// The programs of [`programs`] that answer every one of `files` as the judge does,
/// but those only an input outside the strict format shows.
pub fn survivors(files: &[Vec<Cmd>]) -> Vec<String> {
    let cases: Vec<(Vec<u8>, Vec<u8>)> = files
        .iter()
        .map(|cmds| {
            let input = Case::of(cmds).to_bytes();
            let answer = judged(&input);
            (input, answer)
        })
        .collect();
    programs()
        .iter()
        .filter(|(name, _)| !outside_the_format(name))
        .filter(|(_, path)| {
            cases
                .iter()
                .all(|(input, answer)| output(path, input).as_deref() == Some(&answer[..]))
        })
        .map(|(name, _)| name.clone())
        .collect()
}

#[test]
fn each_set_lists_its_switches_once() {
    for set in [first(), second(), third()] {
        let listed = listed(&set);
        assert!(listed.len() >= 30, "{}: {}", set.display(), listed.len());
        let mut names: Vec<&String> = listed.iter().map(|(_, s)| s).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), listed.len(), "{}", set.display());
        for (file, switch) in &listed {
            let text = fs::read_to_string(set.join(file)).expect("the source");
            assert!(
                text.contains(switch.as_str()),
                "{switch} is listed but not in {file}"
            );
        }
    }
    // The second and third sets keep a witness for each.
    for set in [second(), third()] {
        for (_, switch) in listed(&set) {
            let witness = set.join("witness").join(format!("{switch}.in"));
            assert!(witness.is_file(), "no witness for {switch}");
        }
    }
    // The third set's lenient mistakes are four, each marked so.
    assert_eq!(lenient().len(), 4, "{:?}", lenient());
}

/// The second set is what its README says: each correct build answers the sample and
/// every witness as the judge does, each planted one passes the sample and fails its
/// witness (`check.sh`, with this build as the oracle).
#[test]
#[ignore = "slow (about 60 s: 39 programs compiled): the full tier runs it"]
fn the_second_set_is_what_its_readme_says() {
    let out = Command::new("bash")
        .arg(second().join("check.sh"))
        .env("DUCKCHESS", env!("CARGO_BIN_EXE_duckchess"))
        .current_dir(second())
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}\n{}",
        common::stdout(&out),
        common::stderr(&out)
    );
    assert!(
        common::stdout(&out).contains("planted builds ok: 33/33"),
        "{}",
        common::stdout(&out)
    );
}

/// What no valid test set can show is shown by an input outside the strict format: the
/// witness of each such mistake, which `validate` refuses and the judge reads.
#[test]
fn what_only_a_lenient_input_shows_is_outside_the_strict_format() {
    use duckchess::show::format::{validate, DEFAULT_MAX_Q};
    for (name, _) in OUTSIDE_THE_FORMAT {
        let witness =
            fs::read(second().join("witness").join(format!("{name}.in"))).expect("its witness");
        assert!(validate(&witness[..], DEFAULT_MAX_Q).is_err(), "{name}");
        let mut out = Vec::new();
        judge::run(&witness[..], &mut out).expect("the judge reads it");
    }
}

/// The planted mistake `name` of `set` built into `dir` and searched for by `stress
/// --messy` (seed 1, 3000 cases at most): its exit status and what it printed.
fn messy_stress(set: &Path, name: &str, dir: &Path) -> (Option<i32>, String) {
    let (file, _) = listed(set)
        .into_iter()
        .find(|(_, s)| s == name)
        .expect("listed in bugs.tsv");
    let program = dir.join(name);
    compile(set, &file, name, &program);
    let out = Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .args([
            "stress", "--messy", "--first", "--seed", "1", "--cases", "3000", "--cmd",
        ])
        .arg(&program)
        .arg("--save")
        .arg(dir.join(format!("{name}.in")))
        .stdin(Stdio::null())
        .output()
        .expect("stress runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code(), stdout)
}

/// What only an input outside the strict format shows, `stress --messy` finds: each
/// such mistake, within a few thousand cases.
#[test]
#[cfg_attr(
    lacks_gxx,
    ignore = "needs g++ (none was found when the tests were built)"
)]
fn stress_with_messy_inputs_finds_what_the_suite_cannot_show() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("held-out-messy-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("a folder for the programs");
    for (name, _) in OUTSIDE_THE_FORMAT {
        let (status, stdout) = messy_stress(&second(), name, &dir);
        assert_eq!(status, Some(1), "{name}: {stdout}");
        assert!(stdout.starts_with("found: WA in case "), "{name}: {stdout}");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// The third set is what its README says (`check.sh`, with this build as the oracle):
/// each correct build answers the sample and every witness as the judge does, each
/// planted one passes the sample and fails its witness, every strict witness is valid.
#[test]
#[ignore = "slow (about 45 s: 42 builds in seven languages): the full tier runs it"]
fn the_third_set_is_what_its_readme_says() {
    let out = Command::new("bash")
        .arg(third().join("check.sh"))
        .env("DUCKCHESS", env!("CARGO_BIN_EXE_duckchess"))
        .current_dir(third())
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}\n{}",
        common::stdout(&out),
        common::stderr(&out)
    );
}

/// The third set's lenient mistakes: each witness is outside the strict format, the
/// judge reads it, and `stress --messy` finds the program within a few thousand cases
/// (a wrong answer, a crash or a hang).
#[test]
#[ignore = "slow (the third set's lenient programs, in four languages): the full tier runs it"]
fn the_third_sets_lenient_mistakes_are_found_by_messy_stress_only() {
    use duckchess::show::format::{validate, DEFAULT_MAX_Q};
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("held-out-lenient-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("a folder for the programs");
    for name in lenient() {
        let witness =
            fs::read(third().join("witness").join(format!("{name}.in"))).expect("its witness");
        assert!(validate(&witness[..], DEFAULT_MAX_Q).is_err(), "{name}");
        let mut out = Vec::new();
        judge::run(&witness[..], &mut out).expect("the judge reads it");
        let (status, stdout) = messy_stress(&third(), &name, &dir);
        assert_eq!(status, Some(1), "{name}: {stdout}");
        // A wrong answer, or a crash or a hang on the input it misreads.
        assert!(stdout.starts_with("found: "), "{name}: {stdout}");
    }
    let _ = fs::remove_dir_all(&dir);
}
