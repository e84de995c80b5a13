//! The `train` subcommand's start from an existing network through the binary: a run
//! that goes on from the built-in network learns from its positions at that network's
//! scale, and a `--from` that names no network, or a `--scale` that differs from the
//! network's, is refused on one line with the documented exit status, before any
//! network is written.

use crate::common;

use common::run;
use std::path::{Path, PathBuf};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("train-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn fixture() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/train/positions.txt")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_run_goes_on_from_the_built_in_network() {
    let dir = scratch("from");
    let out = dir.join("tuned.net");
    let out_text = out.to_string_lossy().into_owned();
    let args = ["train", &fixture(), "--out", &out_text, "--epochs", "1"];
    let from_random = run(&args, b"");
    let mut from_built_in = args.to_vec();
    from_built_in.extend(["--from", "<built-in>", "--rate", "1"]);
    let from_built_in = run(&from_built_in, b"");
    assert_eq!(
        from_built_in.status.code(),
        Some(0),
        "{}",
        text(&from_built_in.stderr)
    );
    let held_out = |stdout: &[u8]| -> f64 {
        let line = text(stdout);
        let (_, tail) = line.split_once("learnt, ").expect("a pass line");
        tail.trim_end()
            .trim_end_matches(" held out")
            .parse()
            .expect("an error")
    };
    let (random, built_in) = (
        held_out(&from_random.stdout),
        held_out(&from_built_in.stdout),
    );
    assert!(
        built_in < random,
        "held out: {built_in} from the built-in network, {random} from random weights"
    );
    // The built-in network's scale, written in the header after the magic and sizes.
    let bytes = std::fs::read(&out).expect("the network");
    assert_eq!(&bytes[..8], b"DCNNUE01");
    assert_eq!(u32::from_le_bytes(bytes[16..20].try_into().unwrap()), 500);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_start_that_is_no_network_or_a_scale_that_differs_is_refused() {
    let dir = scratch("refused");
    let out = dir.join("tuned.net");
    let out_text = out.to_string_lossy().into_owned();
    let bad = dir.join("bad.net");
    std::fs::write(&bad, "not a network").unwrap();
    let bad_text = bad.to_string_lossy().into_owned();
    let fixture = fixture();
    let cases: [(&[&str], i32, String); 2] = [
        (
            &["--from", &bad_text],
            1,
            format!("duckchess: train: --from: {bad_text}: not a network file (bad magic)"),
        ),
        (
            &["--from", "<built-in>", "--scale", "400"],
            2,
            "duckchess: train: --scale 400 differs from the scale 500 of the network --from names"
                .to_string(),
        ),
    ];
    for (extra, code, message) in cases {
        let mut args = vec!["train", fixture.as_str(), "--out", out_text.as_str()];
        args.extend(extra);
        let result = run(&args, b"");
        assert_eq!(result.status.code(), Some(code), "{extra:?}");
        let stderr = text(&result.stderr);
        assert!(stderr.starts_with(&message), "{extra:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{extra:?}: {stderr}");
        assert!(!out.exists(), "{extra:?} wrote a network");
    }
    std::fs::remove_dir_all(&dir).ok();
}
