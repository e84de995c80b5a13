//! The streaming reader: tokens that straddle read chunks, positions far into the input,
//! and the same answers however the input arrives.

use duckchess::generate::{self, mode::Mode};
use duckchess::judge::{self, JudgeError};
use std::io::Read;

/// Hands out its data a few bytes at a time (sizes cycling 1..=7), so that nearly every
/// token is split between two reads.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.step = self.step % 7 + 1;
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn answers<R: Read>(input: R) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    judge::run(input, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

#[test]
fn trickled_input_gives_the_same_answers() {
    for mode in Mode::ALL {
        for seed in 0..5 {
            let mut input = Vec::new();
            generate::input(seed, 400, mode, &mut input).expect("vec");
            let whole = answers(&input[..]);
            let trickled = answers(Trickle {
                data: &input,
                step: 0,
            });
            assert_eq!(whole, trickled, "{mode} seed {seed}");
            assert!(whole.is_ok());
        }
    }
}

#[test]
fn a_token_across_the_chunk_boundary() {
    // The reader takes 64 KiB at a time; "0003" starts two bytes before the boundary.
    let mut input = b"1\n".to_vec();
    input.resize(65_534, b' ');
    input.extend_from_slice(b"0003 0 4 0\n");
    assert_eq!(answers(&input[..]), Ok(b"red soldier;NA;no;no\n".to_vec()));
}

#[test]
fn error_positions_far_into_the_input() {
    let mut input = b"100000\n".to_vec();
    for _ in 0..49_999 {
        input.extend_from_slice(b"3 0 4 0\n4 0 3 0\n");
    }
    input.extend_from_slice(b"3 0 4 0\n4 0 3 zz\n");
    let mut out = Vec::new();
    match judge::run(&input[..], &mut out) {
        Err(JudgeError::Input(e)) => assert_eq!(
            e.to_string(),
            "line 100001, column 7: expected an integer (yt of command 100000 of 100000), found \"zz\""
        ),
        other => panic!("expected an input error, got {other:?}"),
    }
    // Every command before the bad one was answered.
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 99_999);
}
