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

/// An endless input ends the run with the position where the reader stopped: a token
/// of zero bytes (`/dev/zero`) or of letters at its first bytes, one of digits beyond
/// 4096 bytes, and whitespace (spaces or blank lines) beyond 16 MiB; after the last
/// command, such whitespace is the trailing input the judge ignores.
#[test]
fn endless_input_ends_with_its_position() {
    let endless = |prefix: &'static [u8], byte: u8| prefix.chain(std::io::repeat(byte));
    assert_eq!(
        answers(endless(b"", 0)),
        Err(
            "line 1, column 1: expected a non-negative integer (the number of commands Q), \
             found \"\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0...\""
                .into()
        )
    );
    assert_eq!(
        answers(endless(b"2\n0 3 1 2\n", b'a')),
        Err(format!(
            "line 3, column 1: expected an integer (xs of command 2 of 2), found \"{}...\"",
            "a".repeat(24)
        ))
    );
    assert_eq!(
        answers(endless(b"2\n0 3 1 2\n", b'7')),
        Err(format!(
            "line 3, column 1: expected an integer (xs of command 2 of 2), found \"{}...\", \
             a token of more than 4096 bytes",
            "7".repeat(24)
        ))
    );
    // Where the reader stopped: past 16 MiB of it (the first chunk read is skipped
    // before the count starts).
    let blank = |byte: u8| {
        let e = answers(endless(b"2\n0 3 1 2\n", byte)).expect_err("an error");
        let (at, rest) = e.split_once(": ").expect("a position");
        assert_eq!(
            rest,
            "expected an integer (xs of command 2 of 2), found more than 16777216 bytes of \
             whitespace"
        );
        let numbers: Vec<u64> = at
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse().ok())
            .collect();
        (numbers[0], numbers[1])
    };
    let (line, column) = blank(b' ');
    assert_eq!(line, 3);
    assert!(
        (1 << 24..(1 << 24) + (1 << 17)).contains(&column),
        "{column}"
    );
    let (line, column) = blank(b'\n');
    assert!((1 << 24..(1 << 24) + (1 << 17)).contains(&line), "{line}");
    assert_eq!(column, 1);
    // After the last command the rest is not read: the run ends, its answers given.
    let mut out = Vec::new();
    let summary = judge::run(endless(b"1\n0 3 1 2\n", b'\n'), &mut out).expect("answered");
    assert_eq!(Ok(out), answers(&b"1\n0 3 1 2\n"[..]));
    assert!(summary.trailing.is_some());
}
