//! Every file a subcommand writes is whole or absent, on a disk that fills up while it
//! is written: a test set (`gen --suite`), the case `stress` saves and its answer, the
//! outputs `test --keep` keeps, the bundle (`bundle -o`), a judge's archive (`export
//! -o`), a match's record (`match --record`) and a saved game (`play`).
//!
//! The small disk is a tmpfs of some kilobytes, mounted for the test where that is
//! allowed (root on Linux); elsewhere a file-size limit (`ulimit -f`, with the signal
//! it raises ignored) makes writes fail the same way, part of the way through. Unix
//! only: a shell's `ulimit` sets the limit.
#![cfg(unix)]

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_duckchess");

/// Where the files go, and how writing them is made to fail.
struct Disk {
    dir: PathBuf,
    /// A tmpfs mounted on `dir`, else a file-size limit in blocks for each run.
    mounted: bool,
    blocks: u32,
}

impl Disk {
    /// A folder on a tmpfs of `kb` kilobytes, or one whose runs may write files of at
    /// most `blocks` blocks of `ulimit -f`.
    fn new(name: &str, kb: u32, blocks: u32) -> Disk {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a scratch folder");
        let mounted = cfg!(target_os = "linux")
            && Command::new("mount")
                .args(["-t", "tmpfs", "-o", &format!("size={kb}k"), "tmpfs"])
                .arg(&dir)
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
        if !mounted {
            println!("note: no tmpfs can be mounted here; a file-size limit stands in");
        }
        Disk {
            dir,
            mounted,
            blocks,
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Fills the tmpfs up, leaving nothing free (a file-size limit needs nothing).
    fn fill(&self) {
        if !self.mounted {
            return;
        }
        use std::io::Write;
        let mut filler = fs::File::create(self.path("filler")).expect("the filler");
        let block = [b'.'; 1024];
        while filler.write(&block).is_ok_and(|n| n > 0) {}
        // The last bytes a partly free page still takes.
        while filler.write(b".").is_ok_and(|n| n > 0) {}
    }

    /// Runs the binary with `args` and `stdin` in the disk's folder, under the
    /// file-size limit when there is no tmpfs.
    fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        let mut command = if self.mounted {
            Command::new(BIN)
        } else {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!(
                    "ulimit -f {} && trap '' XFSZ && exec \"$0\" \"$@\"",
                    self.blocks
                ))
                .arg(BIN);
            c
        };
        command.args(args).current_dir(&self.dir);
        common::run_command(command, stdin)
    }

    /// The names in the folder (or in `sub` under it), sorted, the filler left out.
    fn names(&self, sub: &str) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.dir.join(sub))
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n != "filler")
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

impl Drop for Disk {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount").arg(&self.dir).status();
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// The judge's answer to the input file `path`.
fn judged(path: &Path) -> Vec<u8> {
    let out = common::run(&["judge", &path.to_string_lossy()], b"");
    assert!(out.status.success());
    out.stdout
}

#[test]
#[ignore = "slow (about 18 s: a whole suite): the full tier runs it"]
fn a_suite_that_does_not_fit_leaves_no_file_behind() {
    // One file of the suite is an 8 KB input and a 16 KB answer: the input fits, the
    // answer does not.
    let disk = Disk::new("suite", 16, 12);
    let out = disk.run(&["gen", "--suite", "data", "--files", "1"], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = common::stderr(&out);
    assert!(
        err.starts_with("duckchess: gen: cannot write data/1.")
            && err.ends_with("; the suite is left as it was\n"),
        "{err}"
    );
    // No half suite, no hidden folder or temporary file: the suite is absent.
    assert_eq!(disk.names(""), Vec::<String>::new());
    // An empty folder name is no folder: a usage error, not the current folder.
    let out = disk.run(&["gen", "--suite", ""], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        common::stderr(&out),
        "duckchess: gen: --suite: the path is empty (see 'duckchess gen --help')\n"
    );
    assert_eq!(disk.names(""), Vec::<String>::new());
}

/// `stress` on a program that is always wrong, saving its case as `case.in`.
const STRESS_WRONG: [&str; 7] = [
    "stress",
    "--cmd",
    "sh -c 'echo wrong'",
    "--seed",
    "1",
    "--save",
    "case.in",
];

#[test]
fn the_case_stress_saves_is_whole_or_absent() {
    let disk = Disk::new("stress", 64, 0);
    disk.fill();
    let out = disk.run(&STRESS_WRONG, b"");
    assert_eq!(out.status.code(), Some(1));
    let text = common::stdout(&out);
    assert!(
        text.contains(
            "not saved: case.in cannot be written (the error follows); the case is below"
        ),
        "{text}"
    );
    assert!(
        common::stderr(&out).contains("cannot write case.in: "),
        "{}",
        common::stderr(&out)
    );
    assert_eq!(
        disk.names(""),
        Vec::<String>::new(),
        "nothing, not an empty case.in"
    );
    // With room, both are whole: the answer is the judge's.
    let roomy = Disk::new("stress-roomy", 1024, 1024);
    let out = roomy.run(&STRESS_WRONG, b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(roomy.names(""), ["case.ans", "case.in"]);
    let answer = fs::read(roomy.path("case.ans")).unwrap();
    assert_eq!(answer, judged(&roomy.path("case.in")));
}

#[test]
fn a_bundle_that_does_not_fit_keeps_the_old_file() {
    let disk = Disk::new("bundle", 64, 1);
    fs::write(disk.path("judge.rs"), b"// an older bundle\n").unwrap();
    disk.fill();
    let out = disk.run(&["bundle", "-o", "judge.rs"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stderr(&out).starts_with("duckchess: bundle: cannot write judge.rs: "),
        "{}",
        common::stderr(&out)
    );
    assert_eq!(
        fs::read(disk.path("judge.rs")).unwrap(),
        b"// an older bundle\n"
    );
    assert_eq!(disk.names(""), ["judge.rs"]);
    let out = disk.run(&["bundle", "-o", ""], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_archive_that_does_not_fit_keeps_the_old_one() {
    let disk = Disk::new("export", 64, 1);
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/self-check.in");
    let sample = sample.to_string_lossy();
    // An archive of ours, written where there is room, is what the full disk keeps.
    let roomy = common::scratch("files", "export");
    let old = roomy.join("old.zip");
    let out = common::run(
        &[
            "export",
            "--for",
            "luogu",
            "-o",
            &old.to_string_lossy(),
            &sample,
        ],
        b"",
    );
    assert!(out.status.success(), "{}", common::stderr(&out));
    let old = fs::read(old).unwrap();
    fs::write(disk.path("p.zip"), &old).unwrap();
    disk.fill();
    let out = disk.run(&["export", "--for", "polygon", "-o", "p.zip", &sample], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stderr(&out).starts_with("duckchess: export: cannot write p.zip: "),
        "{}",
        common::stderr(&out)
    );
    assert_eq!(fs::read(disk.path("p.zip")).unwrap(), old);
    assert_eq!(disk.names(""), ["p.zip"]);
}

#[test]
fn a_saved_game_is_whole_or_absent() {
    let disk = Disk::new("play", 64, 0);
    disk.fill();
    let out = disk.run(&["play", "--ascii"], b"0 1 2 2\nsave game.txt\nquit\n");
    assert!(
        common::stdout(&out).contains("cannot save game.txt: "),
        "{}",
        common::stdout(&out)
    );
    assert_eq!(disk.names(""), Vec::<String>::new());
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "Linux only")]
fn a_match_record_gets_whole_games_or_none() {
    // The record so far nearly fills its last page of the tmpfs (or its size limit),
    // and the disk is full: the next game's lines do not fit, and none of them stays.
    let disk = Disk::new("record", 64, 2);
    let before = format!("{}\n", "#".repeat(if disk.mounted { 4000 } else { 900 }));
    fs::write(disk.path("games.rec"), &before).unwrap();
    disk.fill();
    let engine = format!("{BIN} uci");
    let out = disk.run(
        &[
            "match",
            "--opponent",
            &engine,
            "--engine",
            &engine,
            "--movetime",
            "1",
            "--openings",
            "1",
            "--record",
            "games.rec",
            "--quiet",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).contains("cannot write the record: "),
        "{}",
        common::stderr(&out)
    );
    assert_eq!(fs::read_to_string(disk.path("games.rec")).unwrap(), before);
}

#[test]
fn a_kept_output_that_does_not_fit_keeps_the_old_file() {
    let disk = Disk::new("keep", 64, 0);
    fs::write(
        disk.path("case.in"),
        include_str!("../../samples/statement.in"),
    )
    .unwrap();
    fs::write(
        disk.path("case.out"),
        include_str!("../../samples/statement.out"),
    )
    .unwrap();
    fs::create_dir(disk.path("got")).unwrap();
    fs::write(disk.path("got/case.out"), b"an older output\n").unwrap();
    disk.fill();
    let out = disk.run(
        &["test", "case.in", "--cmd", "cat case.out", "--keep", "got"],
        b"",
    );
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("duckchess: test: cannot keep the output of case in got/case.out: "),
        "{err}"
    );
    // The case passed all the same; the old file is whole, nothing beside it.
    assert!(common::stdout(&out).ends_with("1 passed, 0 failed\n"));
    assert_eq!(
        fs::read(disk.path("got/case.out")).unwrap(),
        b"an older output\n"
    );
    assert_eq!(disk.names("got"), ["case.out"]);
}
