//! The one-file bundle for online judges: at most 64 KiB, compiles without warnings in
//! every edition (2015, as plain `rustc -O` does, 2018 and 2021) with the current rustc
//! and with Debian 12's rustc 1.63 (`/usr/bin/rustc`), and answers exactly like the
//! crate's binary: samples, official cases, 225 generated games across all modes, and
//! bad input (stdout, stderr and exit status).

use crate::common;
use crate::official;

use duckchess::export::bundle::bundle;
use duckchess::generate::{self, mode::Mode};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Debian 12's rustc, installed by `apt-get install rustc` beside the rustup one.
const OLD_RUSTC: &str = "/usr/bin/rustc";

/// A fresh folder for one test (tests run in parallel threads of one process).
fn work_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duckchess-{test}-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The editions a judge may compile with: none given (2015), 2018 and 2021.
const EDITIONS: [Option<&str>; 3] = [None, Some("2018"), Some("2021")];

/// Compiles `source` with `rustc` in `edition` (rustc's default, 2015, for `None`),
/// warnings denied; returns the executable.
fn compile(rustc: &str, source: &Path, edition: Option<&str>, name: &str) -> PathBuf {
    let exe = source.with_file_name(name);
    let mut command = Command::new(rustc);
    if let Some(edition) = edition {
        command.args(["--edition", edition]);
    }
    let out = command
        .args(["-O", "-D", "warnings", "-o"])
        .arg(&exe)
        .arg(source)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {rustc}: {e}"));
    let edition = edition.unwrap_or("2015 (default)");
    assert!(
        out.status.success(),
        "{rustc}, edition {edition}, failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "",
        "{rustc}, edition {edition}, warned"
    );
    exe
}

/// The inputs the bundle is run on: the samples, the official cases when `official`,
/// generated games of every mode, and bad input.
fn inputs(official: bool) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    let mut dirs = vec![root.join("samples")];
    if official {
        dirs.push(official::cases());
    }
    for dir in dirs {
        let entries = fs::read_dir(&dir).expect("a folder of cases");
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "in") {
                all.push((path.display().to_string(), fs::read(&path).expect("read")));
            }
        }
    }
    for seed in 0..45 {
        for mode in Mode::ALL {
            let mut bytes = Vec::new();
            generate::input(1000 + seed, 1000, mode, &mut bytes).expect("vec");
            all.push((format!("gen --seed {} --mode {mode}", 1000 + seed), bytes));
        }
    }
    for bad in [
        &b""[..],
        b"2\n0 0 1 0\n0 0 abc 0\n",
        b"3\n0 0 1 0\n",
        b"-4\n",
        b"1\n0 0 1 0\nextra\n",
        b"2\r\n99999999999999999999 0 0 0\r\n\t3 0 4 0",
    ] {
        all.push((format!("{:?}", String::from_utf8_lossy(bad)), bad.to_vec()));
    }
    all
}

#[test]
fn the_bundle_is_small_and_self_contained() {
    let text = bundle(None).expect("the judge modules are in shape");
    assert!(text.len() <= 64 * 1024, "{} bytes", text.len());
    for module in ["piece", "board", "rules", "game", "scan", "run"] {
        assert!(text.contains(&format!("\nmod {module} {{\n")), "{module}");
    }
    assert!(!text.contains("#[cfg(test)]"));
    assert!(text.contains("fn main()"));
    // Only std: the judge path names its siblings as `super::x` and reaches nothing
    // else of the crate (no tool, engine or CLI module) and no outside crate.
    assert!(!text.contains("crate::"));
    for layer in ["tools", "engine", "cli", "chase"] {
        assert!(!text.contains(&format!("super::{layer}")), "{layer}");
    }
}

#[test]
fn the_bundle_compiles_in_every_edition_and_matches_the_binary() {
    compiles_and_matches("rustc", "stable", false);
}

/// The same with Debian 12's rustc 1.63, on the official cases too.
#[test]
#[ignore = "slow (about 12 s beside the others; Debian's rustc 1.63 and the official cases): the full tier runs it"]
fn the_bundle_compiles_with_rustc_1_63_and_matches_the_binary_on_the_official_cases() {
    assert!(
        Path::new(OLD_RUSTC).is_file(),
        "cannot run here: {OLD_RUSTC} is absent (apt-get install rustc)"
    );
    compiles_and_matches(OLD_RUSTC, "rustc163", true);
}

/// The bundle compiled by `rustc` (named `tag`) in every edition, warnings denied,
/// answers as the crate's binary on [`inputs`].
fn compiles_and_matches(rustc: &str, tag: &str, official: bool) {
    let dir = work_dir(&format!("bundle-compile-{tag}"));
    let source = dir.join("duckchess.rs");
    fs::write(&source, bundle(Some("duckchess.rs")).expect("bundle")).expect("write");
    let compilers = [(rustc, tag)];
    // Three builds, side by side. No dot in a name: rustc names its temporary objects by
    // the output's stem, and parallel builds must not share them.
    let exes: Vec<PathBuf> = std::thread::scope(|scope| {
        let builds: Vec<_> = compilers
            .iter()
            .flat_map(|&(rustc, tag)| EDITIONS.iter().map(move |&e| (rustc, tag, e)))
            .map(|(rustc, tag, edition)| {
                let source = &source;
                scope.spawn(move || {
                    let name = format!("bundle-{tag}-{}", edition.unwrap_or("2015"));
                    compile(rustc, source, edition, &name)
                })
            })
            .collect();
        builds
            .into_iter()
            .map(|b| b.join().expect("compiled"))
            .collect()
    });
    let crate_binary = Path::new(env!("CARGO_BIN_EXE_duckchess"));
    let cases = inputs(official);
    assert!(cases.len() >= 225);
    for (name, input) in &cases {
        let want = common::run_program(crate_binary, &[], input);
        for exe in &exes {
            let got = common::run_program(exe, &[], input);
            assert!(
                got.stdout == want.stdout,
                "{name}: stdout differs ({})",
                exe.display()
            );
            assert_eq!(
                String::from_utf8_lossy(&got.stderr),
                String::from_utf8_lossy(&want.stderr),
                "{name}: stderr"
            );
            assert_eq!(got.status.code(), want.status.code(), "{name}: status");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_cli_writes_the_same_text() {
    let o = common::run(&["bundle"], b"");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(common::stdout(&o), bundle(None).expect("bundle"));
    let dir = work_dir("bundle-cli");
    let path = dir.join("out.rs");
    let o = common::run(&["bundle", "-o", path.to_str().expect("utf-8 path")], b"");
    assert_eq!(o.status.code(), Some(0));
    let written = fs::read_to_string(&path).expect("written");
    assert_eq!(written, bundle(Some("out.rs")).expect("bundle"));
    // The header names every module it holds, and the file it was written to.
    assert!(
        written.contains("modules\n// piece, board, rules, game, scan and run.\n"),
        "{written}"
    );
    assert!(written.contains("// Build: rustc --edition 2021 -O out.rs "));
    let o = common::run(&["bundle", "--help"], b"");
    assert!(common::stdout(&o).contains("usage: duckchess bundle"));
    let o = common::run(&["bundle", "extra"], b"");
    assert_eq!(o.status.code(), Some(2));
    let o = common::run(&["bundle", "-o", "/nonexistent/dir/x.rs"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(common::stderr(&o).starts_with("duckchess: bundle: cannot write /nonexistent/dir/x.rs"));
    let _ = fs::remove_dir_all(&dir);
}
