//! The suites of seeds 1 to 3, byte for byte: `gen --suite` writes every file of them as
//! the golden `tests/golden/suite_bytes.txt` records it (each file's length and 64-bit
//! FNV-1a hash). A change to how the suite is searched that is meant to change what it
//! writes rewrites the golden (`UPDATE_GOLDEN=1`); a change that is not, such as moving
//! code between files, must leave it as it is.

use crate::common;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// The 64-bit FNV-1a hash of `bytes`: stable across Rust versions and machines.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// One line a file of the suite in `dir`, in the order of their numbers, `suite.txt` last.
fn fingerprint(seed: u64, dir: &Path) -> String {
    let names = common::suite_names(dir);
    let mut out = String::new();
    for name in names {
        let bytes = fs::read(dir.join(&name)).expect("a file of the suite");
        let _ = writeln!(
            out,
            "seed {seed} {name} {} {:016x}",
            bytes.len(),
            fnv1a(&bytes)
        );
    }
    out
}

#[test]
#[ignore = "slow (about 80 s: three suites): the full tier runs it"]
fn the_suites_of_seeds_1_to_3_are_the_golden_bytes() {
    let dir = common::scratch("suite-bytes", "suites");
    let mut actual = String::new();
    for seed in 1..=3u64 {
        let name = format!("s{seed}");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_duckchess"))
            .args(["gen", "--suite", &name, "--seed", &seed.to_string()])
            .current_dir(&dir)
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{}", common::stderr(&out));
        actual.push_str(&fingerprint(seed, &dir.join(&name)));
    }
    let _ = fs::remove_dir_all(&dir);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/suite_bytes.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, &actual).expect("write the golden");
    }
    let expected = fs::read_to_string(&path).expect("tests/golden/suite_bytes.txt");
    assert_eq!(
        actual, expected,
        "the suites' bytes (UPDATE_GOLDEN=1 rewrites them)"
    );
}

#[test]
fn the_hash_is_fnv_1a() {
    // The published test vectors of 64-bit FNV-1a.
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
}
