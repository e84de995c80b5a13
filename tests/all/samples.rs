//! Every `samples/NAME.in` and `samples/lenient/NAME.in` against its `.out`, and the
//! four official contest cases from `../shared/official/duckchess/` when that folder
//! exists.

use crate::official;

use duckchess::judge;
use std::fs;
use std::path::{Path, PathBuf};

fn judge_bytes(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    judge::run(input, &mut out).expect("a well-formed input");
    out
}

/// The `.in` files of `dir` paired with their `.out` or `.ans`, sorted by name.
fn cases(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).expect("the folder is readable") {
        let path = entry.expect("a folder entry").path();
        if path.extension().is_some_and(|e| e == "in") {
            let answer = ["out", "ans"]
                .iter()
                .map(|e| path.with_extension(e))
                .find(|p| p.exists())
                .unwrap_or_else(|| panic!("{} has no .out or .ans", path.display()));
            found.push((path, answer));
        }
    }
    found.sort();
    found
}

fn check_all(dir: &Path) -> usize {
    let all = cases(dir);
    for (input, answer) in &all {
        let got = judge_bytes(&fs::read(input).expect("readable"));
        let want = fs::read(answer).expect("readable");
        assert!(
            got == want,
            "{}: output differs from {}",
            input.display(),
            answer.display()
        );
    }
    all.len()
}

#[test]
fn project_samples() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let count = check_all(&dir);
    assert!(
        count >= 8,
        "the statement sample and at least 7 of our own: {count}"
    );
    // The cases beyond the official format, which the judge answers all the same.
    assert!(check_all(&dir.join("lenient")) >= 2);
}

#[test]
#[cfg_attr(
    lacks_official,
    ignore = "needs the official cases (../shared/official/duckchess; scripts/fetch-official.sh)"
)]
fn official_cases() {
    assert_eq!(check_all(&official::cases()), 4);
}
