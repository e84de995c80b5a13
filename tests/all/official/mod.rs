//! The contest's four official cases, for the tests that use them: they are not part of
//! the repository (`scripts/fetch-official.sh` fetches them). A test that uses them is
//! marked `#[cfg_attr(lacks_official, ignore = "...")]`: build.rs sets `lacks_official`
//! where they are absent, so that such a test is reported as not run, never as passed.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Where the tests look for them: `1.in`, `1.ans` to `4.in`, `4.ans` in
/// `../shared/official/duckchess` beside the repository.
pub const DIR: &str = "../shared/official/duckchess";

/// The folder of the official cases. A test runs without them only when asked to run
/// the ignored ones: it fails, saying so.
pub fn cases() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    assert!(
        dir.join("4.ans").is_file(),
        "cannot run here: the official cases are absent ({DIR}); \
         scripts/fetch-official.sh fetches them"
    );
    dir
}
