//! The contest's four official cases, for the tests that use them: they are not part of
//! the repository (`scripts/fetch-official.sh` fetches them), and where they are absent
//! those tests skip that part, saying so where a person sees it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the tests look for them: `1.in`, `1.ans` to `4.in`, `4.ans` in
/// `../shared/official/duckchess` beside the repository.
pub const DIR: &str = "../shared/official/duckchess";

/// The folder of the official cases, or `None` after a note on the test run's
/// standard error naming `test` and how to get them. The note is written to the
/// stream itself, not with `eprintln!`, whose output `cargo test` hides for a test
/// that passes.
pub fn cases(test: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    if dir.is_dir() {
        return Some(dir);
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "note: {test}: the official cases are absent ({DIR}), that part is skipped; \
         scripts/fetch-official.sh fetches them"
    );
    None
}
