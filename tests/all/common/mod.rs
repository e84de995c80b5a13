//! Helpers shared by the integration tests: building positions by coordinates, running
//! the binary, and a brute-force reference of the rules written straight from the SPEC
//! formulas (independent of `rules::REACH`), for differential tests.
#![allow(dead_code)]

pub mod live;

use duckchess::judge::board::Board;
use duckchess::judge::piece::{Color, Piece, PieceKind, Square};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The square `(x, y)`; panics (in tests only) when off the board.
pub fn sq(x: i64, y: i64) -> Square {
    Square::new(x, y).unwrap_or_else(|| panic!("({x}, {y}) is off the board"))
}

/// A position from `(x, y, letter)` triples and the side to move (`'r'` or `'b'`).
pub fn setup(pieces: &[(i64, i64, char)], side: char) -> Board {
    let mut board = Board::empty();
    for &(x, y, c) in pieces {
        let piece = Piece::from_letter(c).unwrap_or_else(|| panic!("bad letter {c}"));
        board.put(sq(x, y), Some(piece));
    }
    board.set_side_to_move(if side == 'r' { Color::Red } else { Color::Blue });
    board
}

/// Runs the built binary with `args`, feeding `stdin`.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_program(Path::new(env!("CARGO_BIN_EXE_duckchess")), args, stdin)
}

/// Runs `program` with `args`, feeding `stdin` (a program that exits without reading
/// it all is fine).
pub fn run_program(program: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut command = Command::new(program);
    command.args(args);
    run_command(command, stdin)
}

/// Runs `command` as it is set up, feeding `stdin` (a program that exits without
/// reading it all is fine).
pub fn run_command(command: Command, stdin: &[u8]) -> Output {
    let (child, feeder) = spawn_fed(command, stdin);
    let output = child.wait_with_output().expect("the binary runs");
    let _ = feeder.join();
    output
}

/// Starts `command` with its output piped, and `stdin` fed from a thread (so that a
/// large input cannot deadlock against a full stdout pipe), then closed.
fn spawn_fed(
    mut command: Command,
    stdin: &[u8],
) -> (std::process::Child, std::thread::JoinHandle<()>) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    (child, feeder)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A target square and the squares that must be empty to reach it.
pub type RefLeap = ((i64, i64), Vec<(i64, i64)>);

/// The targets a piece of `kind` on `(x, y)` reaches by SPEC section 2, each with the
/// squares that must be empty, written out from the SPEC's formulas with `sx, sy` in
/// {+1, -1}. The car is left out here (see [`reference_path_ok`]).
pub fn reference_leaps(kind: PieceKind, x: i64, y: i64) -> Vec<RefLeap> {
    let mut out = Vec::new();
    for sx in [1i64, -1] {
        for sy in [1i64, -1] {
            match kind {
                PieceKind::Captain => {
                    out.push(((x + sx, y), vec![]));
                    out.push(((x, y + sy), vec![]));
                }
                PieceKind::Guard => out.push(((x + sx, y + sy), vec![])),
                PieceKind::Elephant => {
                    out.push(((x + 2 * sx, y + 2 * sy), vec![(x + sx, y + sy)]));
                }
                PieceKind::Horse => {
                    out.push(((x + 2 * sx, y + sy), vec![(x + sx, y)]));
                    out.push(((x + sx, y + 2 * sy), vec![(x, y + sy)]));
                }
                PieceKind::Duck => {
                    out.push((
                        (x + 3 * sx, y + 2 * sy),
                        vec![(x + sx, y), (x + 2 * sx, y + sy)],
                    ));
                    out.push((
                        (x + 2 * sx, y + 3 * sy),
                        vec![(x, y + sy), (x + sx, y + 2 * sy)],
                    ));
                }
                PieceKind::Soldier => {
                    out.push(((x + sx, y), vec![]));
                    out.push(((x, y + sy), vec![]));
                    out.push(((x + sx, y + sy), vec![]));
                }
                PieceKind::Car => {}
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn empty_at(board: &Board, x: i64, y: i64) -> bool {
    Square::new(x, y).is_some_and(|s| board.is_empty(s))
}

/// Whether a piece of `kind` on `from` may go to `to` by its rule, blockers included,
/// ignoring ownership; written without the library's move table.
pub fn reference_path_ok(board: &Board, kind: PieceKind, from: Square, to: Square) -> bool {
    let (x, y) = (from.x() as i64, from.y() as i64);
    let (tx, ty) = (to.x() as i64, to.y() as i64);
    if kind == PieceKind::Car {
        if (x == tx) == (y == ty) {
            return false;
        }
        let between: Vec<(i64, i64)> = if x == tx {
            (y.min(ty) + 1..y.max(ty)).map(|c| (x, c)).collect()
        } else {
            (x.min(tx) + 1..x.max(tx)).map(|r| (r, y)).collect()
        };
        return between.iter().all(|&(r, c)| empty_at(board, r, c));
    }
    reference_leaps(kind, x, y)
        .iter()
        .any(|(t, blocks)| *t == (tx, ty) && blocks.iter().all(|&(r, c)| empty_at(board, r, c)))
}

/// Whether the side to move may play `from` -> `to` (SPEC sections 2 and 3).
pub fn reference_legal(board: &Board, from: Square, to: Square) -> bool {
    if board_over(board) {
        return false;
    }
    let piece = match board.piece_at(from) {
        Some(p) if p.color == board.side_to_move() => p,
        _ => return false,
    };
    if board.piece_at(to).is_some_and(|p| p.color == piece.color) {
        return false;
    }
    reference_path_ok(board, piece.kind, from, to)
}

/// A captain is missing, found by looking at every square.
pub fn board_over(board: &Board) -> bool {
    Color::ALL
        .iter()
        .any(|&c| reference_captain(board, c).is_none())
}

/// The square of `color`'s captain, by scanning the board.
pub fn reference_captain(board: &Board, color: Color) -> Option<Square> {
    Square::all().find(|&s| board.piece_at(s) == Some(Piece::new(color, PieceKind::Captain)))
}

/// SPEC section 3, by brute force: the game goes on and some piece of either side could
/// legally move onto the other side's captain.
pub fn reference_check(board: &Board) -> bool {
    if board_over(board) {
        return false;
    }
    Color::ALL.iter().any(|&side| {
        let Some(target) = reference_captain(board, side.opponent()) else {
            return false;
        };
        Square::all().any(|from| {
            board
                .piece_at(from)
                .is_some_and(|p| p.color == side && reference_path_ok(board, p.kind, from, target))
        })
    })
}

/// Every legal move of the side to move, by trying all pairs of squares.
pub fn reference_moves(board: &Board) -> Vec<(Square, Square)> {
    let mut out = Vec::new();
    let side = board.side_to_move();
    // Only own pieces can move; skipping the rest early keeps this brute force quick.
    let own = |s: Square| board.piece_at(s).is_some_and(|p| p.color == side);
    for from in Square::all().filter(|&s| own(s)) {
        for to in Square::all() {
            if reference_legal(board, from, to) {
                out.push((from, to));
            }
        }
    }
    out
}

/// The C++ solution written from the rules, whose `-DBUG_NAME` switches each plant one
/// mistake (for `stress` and `audit` to find).
pub const SOLUTION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/stress/solution.cpp"
);

/// The folder holding [`SOLUTION`] compiled once for each of `variants` (`correct` as it
/// is, else a `BUG_` switch name such as `HORSE_LEG`), each named after its variant; a
/// program is compiled again only when the source is newer. A test that uses it is
/// marked `#[cfg_attr(lacks_gxx, ignore = "...")]` (build.rs looks for g++); run
/// without g++ all the same, it fails, saying so.
pub fn planted(variants: &[&str]) -> std::path::PathBuf {
    compiled(SOLUTION, "planted", variants)
}

/// The folder `folder` (in the target's temporary folder) holding the C++ `source`
/// compiled once for each of `variants`, as [`planted`] does for [`SOLUTION`].
pub fn compiled(source: &str, folder: &str, variants: &[&str]) -> std::path::PathBuf {
    let gpp = Command::new("g++")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        gpp,
        "cannot run here: g++ is not installed (apt-get install g++)"
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(folder);
    std::fs::create_dir_all(&dir).expect("a folder for the programs");
    let source_time = std::fs::metadata(source)
        .and_then(|m| m.modified())
        .expect("the solution's source");
    // Two at a time: the machine may have two cores and other work.
    for pair in variants.chunks(2) {
        let children: Vec<_> = pair
            .iter()
            .filter_map(|&name| {
                let out = dir.join(name);
                let fresh = std::fs::metadata(&out)
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t > source_time);
                if fresh {
                    return None;
                }
                // Written aside and moved in whole, so that no run ever starts a
                // half-written program.
                let part = dir.join(format!("{name}.part{}", std::process::id()));
                let mut cmd = Command::new("g++");
                cmd.args(["-O2", "-o"]).arg(&part).arg(source);
                // `A+B` plants both.
                if name != "correct" {
                    cmd.args(name.split('+').map(|bug| format!("-DBUG_{bug}")));
                }
                Some((cmd.spawn().expect("g++ starts"), part, out))
            })
            .collect();
        for (mut child, part, out) in children {
            assert!(child.wait().expect("g++ runs").success(), "g++ failed");
            std::fs::rename(&part, &out).expect("the program moved in");
        }
    }
    dir
}

/// Asserts that `setsid` (util-linux, on every Linux) is here to start a process that
/// leaves its process group.
pub fn needs_setsid() {
    let here = Command::new("setsid")
        .arg("true")
        .status()
        .is_ok_and(|s| s.success());
    assert!(here, "cannot run here: setsid (util-linux) is missing");
}

/// The processes whose command line has the word `marker` (a number a test gives a
/// `sleep` to tell its processes from any other), by a look through `/proc` (Linux).
pub fn processes_with(marker: &str) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.split(|&b| b == 0).any(|w| w == marker.as_bytes()))
        })
        .collect()
}

/// Kills the processes `pids` (that a test left behind), by their ids.
pub fn end_processes(pids: &[u32]) {
    if !pids.is_empty() {
        let _ = Command::new("kill")
            .arg("-9")
            .args(pids.iter().map(u32::to_string))
            .status();
    }
}

/// A number for `sleep` that no other test and no other process uses: `8` and the
/// test process's id, then `tag`.
pub fn marker(tag: u32) -> String {
    format!("8{}{tag}", std::process::id())
}

/// A shell script that starts two daemons sleeping for `marker` seconds, one in a
/// session of its own holding no descriptor of the run, one by a double fork holding
/// only the standard input, then answers with `answer` (a command reading the input).
pub fn daemon_script(marker: &str, answer: &str) -> String {
    format!(
        "setsid sleep {marker} </dev/null >/dev/null 2>&1 &\n\
         ( ( sleep {marker} >/dev/null 2>&1 & ) & )\n\
         exec {answer}\n"
    )
}

/// Runs the binary with `args` on `stdin` like [`run`], but ends it after `limit`:
/// `None` when it had to be ended (it hung).
pub fn run_within(args: &[&str], stdin: &[u8], limit: std::time::Duration) -> Option<Output> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_duckchess"));
    command.args(args);
    let (mut child, feeder) = spawn_fed(command, stdin);
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if let Ok(Some(_)) = child.try_wait() {
            let _ = feeder.join();
            return child.wait_with_output().ok();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// A new named pipe in the temporary folder, made with mkfifo(1); `None`, with a note,
/// where there is none.
#[cfg(unix)]
pub fn fifo(name: &str) -> Option<std::path::PathBuf> {
    let path = std::env::temp_dir().join(format!("duckchess-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let made = Command::new("mkfifo")
        .arg(&path)
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        println!("note: no mkfifo; skipping");
    }
    made.then_some(path)
}

/// A fresh, empty scratch folder for one test: `duckchess-TAG-PID-NAME` in the system's
/// temporary folder.
pub fn scratch(tag: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("duckchess-{tag}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A fresh scratch folder holding the statement's sample as `case.in` and `case.out`.
/// Anyone may write in it: a program run as an ordinary user ([`as_ordinary_user`])
/// leaves its files there too.
pub fn sample_folder(tag: &str, name: &str) -> std::path::PathBuf {
    let dir = scratch(tag, name);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    }
    std::fs::write(
        dir.join("case.in"),
        include_str!("../../../samples/statement.in"),
    )
    .expect("write");
    std::fs::write(
        dir.join("case.out"),
        include_str!("../../../samples/statement.out"),
    )
    .expect("write");
    dir
}

/// A `--cmd` value that prints `output` whatever its input: `sh` reading its input, then
/// printing a file written beside the script.
pub fn printing(dir: &Path, name: &str, output: &str) -> String {
    let file = dir.join(format!("{name}.txt"));
    std::fs::write(&file, output).expect("write");
    let script = dir.join(format!("{name}.sh"));
    std::fs::write(
        &script,
        format!("cat >/dev/null\ncat '{}'\n", file.display()),
    )
    .expect("write");
    format!("sh '{}'", script.display())
}

/// Peak resident memory of `child` in kB, read from /proc while it runs (Linux).
pub fn peak_kb(child: &mut std::process::Child) -> u64 {
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status) {
            let hwm = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<u64>().ok());
            peak = peak.max(hwm.unwrap_or(0));
        }
        if child.try_wait().expect("waits").is_some() {
            return peak;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// This process's control groups, one a hierarchy: the hierarchy's controllers as
/// `/proc/self/cgroup` names them (empty for cgroup v2) and the group's folder where
/// that hierarchy is mounted.
#[cfg(target_os = "linux")]
pub fn own_cgroups() -> Vec<(String, std::path::PathBuf)> {
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let mut found = Vec::new();
    for line in own.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(names), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let point = mounts.lines().find_map(|m| {
            let (before, after) = m.split_once(" - ")?;
            let after: Vec<&str> = after.split(' ').collect();
            let fields: Vec<&str> = before.split(' ').collect();
            let options = after.get(2)?.split(',').collect::<Vec<_>>();
            let wanted = if names.is_empty() {
                after[0] == "cgroup2"
            } else {
                after[0] == "cgroup" && names.split(',').any(|n| options.contains(&n))
            };
            (wanted && fields.get(3) == Some(&"/")).then(|| std::path::PathBuf::from(fields[4]))
        });
        if let Some(point) = point {
            found.push((names.to_string(), point.join(path.trim_start_matches('/'))));
        }
    }
    found
}

/// The names in a suite's folder `dir`, in the order of their numbers (`1.ans`, `1.in`,
/// `2.ans`, ...), the others (`suite.txt`) last.
pub fn suite_names(dir: &Path) -> Vec<String> {
    let mut names = names_in(dir);
    names.sort_by_key(|n| {
        let stem = n.split('.').next().unwrap_or("");
        (stem.parse::<u32>().unwrap_or(u32::MAX), n.clone())
    });
    names
}

/// The names in the folder `dir`, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// A command for the binary run as an ordinary user where the tests run as root
/// (`setpriv` to `nobody`, who may make no control group, and signals only its own
/// processes); else run as it is with control groups turned off
/// (`DUCKCHESS_NO_CGROUP`), which is as near as this user comes. Says which on stderr.
pub fn as_ordinary_user() -> Command {
    let root = std::fs::read_to_string("/proc/self/status")
        .is_ok_and(|t| t.lines().any(|l| l.starts_with("Uid:\t0\t")));
    let setpriv = Path::new("/usr/bin/setpriv");
    let drop = ["--reuid=65534", "--regid=65534", "--clear-groups"];
    // `nobody` must reach the binary (a clone under a folder only root may enter, say).
    let reachable = || {
        Command::new(setpriv)
            .args(drop)
            .args([env!("CARGO_BIN_EXE_duckchess"), "--help"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if root && setpriv.is_file() && reachable() {
        let mut c = Command::new(setpriv);
        c.args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            env!("CARGO_BIN_EXE_duckchess"),
        ]);
        c
    } else {
        eprintln!(
            "note: not root, no setpriv, or nobody cannot reach the binary: run as this \
             user, without control groups"
        );
        let mut c = Command::new(env!("CARGO_BIN_EXE_duckchess"));
        c.env("DUCKCHESS_NO_CGROUP", "1");
        c
    }
}

/// Builds the C++ file `source` into `program` as the judges' packages promise it
/// builds: `g++ -O2 -std=c++17 -Wall -Wextra`, with no warning at all.
pub fn gxx_strict(source: &Path, program: &Path) {
    let run = Command::new("g++")
        .args(["-O2", "-std=c++17", "-Wall", "-Wextra", "-o"])
        .arg(program)
        .arg(source)
        .output()
        .expect("cannot run here: g++ is not installed (apt-get install g++)");
    assert!(
        run.status.success(),
        "g++ {}: {}",
        source.display(),
        stderr(&run)
    );
    assert!(
        run.stderr.is_empty(),
        "{} builds without a warning: {}",
        source.display(),
        stderr(&run)
    );
}
