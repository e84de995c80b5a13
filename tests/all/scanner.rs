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

/// An endless input ends the run with the position where the bad token starts: a token
/// of zero bytes (`/dev/zero`) or of letters at its first bytes, one of digits beyond
/// 4096 bytes, and whitespace (spaces or blank lines) beyond 16 MiB, after the last
/// command too.
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
    // Whitespace without end: refused where it starts, before a token or after the
    // last command alike.
    for (byte, prefix, at) in [
        (b' ', &b"2\n0 3 1 2"[..], "line 2, column 8"),
        (b'\n', b"2\n0 3 1 2 ", "line 2, column 8"),
        (b'\t', b"1\n0 3 1 2\n", "line 2, column 8"),
    ] {
        let expected = if prefix.starts_with(b"2") {
            "an integer (xs of command 2 of 2)"
        } else {
            "the end of the input after the last command (Q = 1)"
        };
        let mut out = Vec::new();
        let e = judge::run(endless(prefix, byte), &mut out).expect_err("an error");
        assert_eq!(
            e.to_string(),
            format!("{at}: expected {expected}, found more than 16777216 bytes of whitespace")
        );
        assert_eq!(out, b"red guard;NA;no;no\n", "every answer given first");
    }
    // The strict format ends on them too, by the same limits.
    let validated = |input: std::io::Chain<&'static [u8], std::io::Repeat>| {
        duckchess::show::format::validate(input, u64::MAX).map_err(|e| e.to_string())
    };
    assert_eq!(
        validated(endless(b"1\n", b'7')),
        Err(format!(
            "line 2, column 1: expected xs (an integer in 0..=9), found \"{}...\", a token of \
             more than 4096 bytes",
            "7".repeat(24)
        ))
    );
    assert_eq!(
        validated(endless(b"1\n0", b' ')),
        Err(
            "line 2, column 2: expected a single space after xs, found more than 16777216 \
             bytes of whitespace"
                .into()
        )
    );
}

/// Hands out its data at most `size` bytes a read.
struct Chunks<'a> {
    data: &'a [u8],
    size: usize,
}

impl Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.size.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The read sizes every reader is fed with: a byte, seven bytes, the judge's 64 KiB
/// chunk, and the whole input at once.
const SIZES: [usize; 4] = [1, 7, 1 << 16, usize::MAX];
/// The read sizes for inputs of some 16 MiB, where a read of a byte takes long: seven
/// bytes, an odd kilobyte, 64 KiB and the whole.
const LONG_SIZES: [usize; 4] = [7, 1025, 1 << 16, usize::MAX];

/// What a reader of judge inputs made of one: the judge's lines, its error, its note on
/// the input after the last command.
#[derive(PartialEq, Eq)]
struct Said {
    lines: Vec<String>,
    error: Option<String>,
    note: Option<String>,
}

impl std::fmt::Debug for Said {
    /// The number of lines and the last of them: thousands of lines say no more.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} lines (the last {:?}), error {:?}, note {:?}",
            self.lines.len(),
            self.lines.last(),
            self.error,
            self.note
        )
    }
}

impl Said {
    fn of(lines: Vec<String>, result: Result<judge::Summary, JudgeError>) -> Said {
        match result {
            Ok(s) => Said {
                lines,
                error: None,
                note: s
                    .trailing
                    .map(|at| judge::run::ignored_after(s.commands, at)),
            },
            Err(e) => Said {
                lines,
                error: Some(e.to_string()),
                note: None,
            },
        }
    }
}

fn judged(input: &[u8], size: usize) -> Said {
    let mut out = Vec::new();
    let result = judge::run(Chunks { data: input, size }, &mut out);
    let lines = String::from_utf8(out).unwrap();
    Said::of(lines.lines().map(str::to_string).collect(), result)
}

fn traced(input: &[u8], size: usize) -> Said {
    use duckchess::commands::trace::{trace, Options, Show};
    let options = Options {
        from: duckchess::judge::board::Board::start(),
        show: Show::At(u64::MAX),
        style: duckchess::show::render::Style::ASCII,
    };
    let mut out = Vec::new();
    let result = trace(Chunks { data: input, size }, &mut out, &options);
    let text = String::from_utf8(out).unwrap();
    let lines = text
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .filter_map(|l| l.split_once(" => ").map(|(_, line)| line.to_string()))
        .collect();
    Said::of(lines, result)
}

fn replayed(input: &[u8]) -> Said {
    use duckchess::cli::json::Json;
    let r = duckchess::web::replay::replay(input);
    let text = |key: &str| r.get(key).and_then(Json::as_str).map(str::to_string);
    Said {
        lines: r
            .get("steps")
            .and_then(Json::as_array)
            .unwrap()
            .iter()
            .map(|s| s.get("line").and_then(Json::as_str).unwrap().to_string())
            .collect(),
        error: text("error"),
        note: text("note"),
    }
}

fn validated(input: &[u8], size: usize) -> Result<u64, String> {
    use duckchess::show::format::validate;
    validate(Chunks { data: input, size }, u64::MAX).map_err(|e| e.to_string())
}

/// What the judge, `trace`, the page's replay and `validate` make of `input`, which
/// must not depend on where their reads end: the same for every read size (of
/// [`SIZES`], or of [`LONG_SIZES`] for an input over 1 MiB), and the same in the judge,
/// `trace` and the replay.
fn read_alike(input: &[u8]) -> (Said, Result<u64, String>) {
    let said = judged(input, usize::MAX);
    let valid = validated(input, usize::MAX);
    let sizes = if input.len() > 1 << 20 {
        LONG_SIZES
    } else {
        SIZES
    };
    for size in sizes {
        assert_eq!(judged(input, size), said, "the judge, {size} bytes a read");
        assert_eq!(traced(input, size), said, "trace, {size} bytes a read");
        assert_eq!(
            validated(input, size),
            valid,
            "validate, {size} bytes a read"
        );
    }
    assert_eq!(replayed(input), said, "the replay");
    (said, valid)
}

/// An input padded with invalid commands (`9 8 9 8`, eight bytes a line) and then
/// spaces, so that what follows starts at byte `offset`; Q is written in front, `more`
/// more than the commands written. Also the line and column at `offset`, and the number
/// of the next command.
fn padded_to(offset: usize, more: u64) -> (Vec<u8>, (usize, usize), u64) {
    for digits in 1..8 {
        let commands = (offset - digits - 1) / 8;
        let q = commands as u64 + more;
        if q.to_string().len() != digits {
            continue;
        }
        let mut input = format!("{q}\n{}", "9 8 9 8\n".repeat(commands)).into_bytes();
        let spaces = offset - input.len();
        input.resize(offset, b' ');
        return (input, (commands + 2, spaces + 1), commands as u64 + 1);
    }
    panic!("no Q for offset {offset}");
}

/// A token of more than 4,096 bytes is refused wherever it lies, leading zeros and
/// all: as Q, at the start of a read, across two, at the end of the input with a
/// newline or without; one of 4,096 bytes is read. The judge, `trace`, the page's
/// replay and `validate` say the same whatever their reads.
#[test]
fn the_token_limit_holds_wherever_the_reads_end() {
    let refusal = |at: (usize, usize), what: &str| {
        format!(
            "line {}, column {}: expected {what}, found \"{}...\", a token of more than 4096 \
             bytes",
            at.0,
            at.1,
            "0".repeat(24)
        )
    };
    for length in [4096, 4097, 5001] {
        let token = "0".repeat(length);
        let over = length > 4096;
        // As Q (its value 1: one command).
        let input = format!("{}1\n0 3 1 2\n", &token[1..]);
        let (said, valid) = read_alike(input.as_bytes());
        if over {
            let what = "a non-negative integer (the number of commands Q)";
            assert_eq!(said.error, Some(refusal((1, 1), what)));
            assert!(said.lines.is_empty());
            assert_eq!(
                valid,
                Err(refusal((1, 1), "the number of commands Q")),
                "validate refuses it as the judge does"
            );
        } else {
            assert_eq!((said.error, said.lines.len()), (None, 1));
            assert!(valid.unwrap_err().contains("without leading zeros"));
        }
        // As xs of a command, starting before a read's end, at it, and after it.
        for offset in [100, 65_536 - 100, 65_536 - 1, 65_536, 65_536 + 1] {
            let (mut input, at, index) = padded_to(offset, 1);
            input.extend_from_slice(token.as_bytes());
            input.extend_from_slice(b" 3 1 2\n");
            let (said, valid) = read_alike(&input);
            let total = index;
            if over {
                let what = format!("an integer (xs of command {index} of {total})");
                assert_eq!(said.error, Some(refusal(at, &what)), "at {offset}");
                assert_eq!(said.lines.len() as u64, index - 1);
            } else {
                assert_eq!(said.error, None, "at {offset}");
                assert_eq!(said.lines.last().unwrap(), "red guard;NA;no;no");
            }
            // The strict format refuses the spaces of the padding first, where there
            // are any; else the token, as the judge does.
            if at.1 == 1 && over {
                let what = "xs (an integer in 0..=9)";
                assert_eq!(valid, Err(refusal(at, what)), "at {offset}");
            }
        }
        // As the last token of the input, with a newline after it or without.
        for newline in ["\n", ""] {
            let input = format!("2\n9 8 9 8\n0 3 1 {}2{newline}", &token[1..]);
            let (said, valid) = read_alike(input.as_bytes());
            if over {
                let what = "an integer (yt of command 2 of 2)";
                assert_eq!(said.error, Some(refusal((3, 7), what)));
                let what = "yt (an integer in 0..=8)";
                assert_eq!(valid, Err(refusal((3, 7), what)));
            } else {
                assert_eq!(said.error, None);
                assert_eq!(said.lines, ["Invalid command", "red guard;NA;no;no"]);
            }
        }
    }
}

/// A run of more than 16 MiB of whitespace is refused wherever it lies, counted from
/// its first byte and refused where it starts: before Q, between two commands (from the
/// start of a read, or across one), after the last command with a final newline or
/// without; one of 16 MiB is read, and whitespace alone after the last command is no
/// input to note. The same whatever the reads.
#[test]
fn the_whitespace_limit_holds_wherever_the_reads_end() {
    const MAX: usize = 1 << 24;
    let refusal = |at: (usize, usize), what: &str| {
        format!(
            "line {}, column {}: expected {what}, found more than 16777216 bytes of whitespace",
            at.0, at.1
        )
    };
    for length in [MAX, MAX + 1] {
        let over = length > MAX;
        // Before Q.
        let mut input = vec![b' '; length];
        input.extend_from_slice(b"1\n0 3 1 2\n");
        let (said, _) = read_alike(&input);
        let what = "a non-negative integer (the number of commands Q)";
        if over {
            assert_eq!(said.error, Some(refusal((1, 1), what)));
        } else {
            assert_eq!(said, judged(b"1\n0 3 1 2\n", usize::MAX));
        }
        // Between two commands, from a read's start or across one; spaces and then a
        // newline, or blank lines (positions after them count their lines).
        for (offset, byte) in [(65_536 - 3, b' '), (65_536, b' '), (65_536 + 5, b'\n')] {
            let (mut input, _, index) = padded_to(offset, 2);
            let at = (index as usize + 1, 1);
            let _ = at;
            let mut line = input.len() - input.iter().rposition(|&b| b == b'\n').unwrap();
            // The run goes on from the padding's spaces: start it after a command.
            input.truncate(offset - (line - 1));
            input.extend_from_slice(b"0 3 1 2");
            line = input.len() - input.iter().rposition(|&b| b == b'\n').unwrap();
            let run_at = (index as usize + 1, line);
            input.resize(input.len() + length - 1, byte);
            input.extend_from_slice(b"\n9 x\n");
            let (said, _) = read_alike(&input);
            let what = format!("an integer (xs of command {} of {})", index + 1, index + 1);
            if over {
                assert_eq!(said.error, Some(refusal(run_at, &what)), "{offset}");
            } else {
                let lines = if byte == b'\n' { length } else { 1 };
                let bad = format!(
                    "line {}, column 3: expected an integer (ys of command {} of {}), found \
                     \"x\"",
                    run_at.0 + lines,
                    index + 1,
                    index + 1
                );
                assert_eq!(said.error, Some(bad), "{offset}");
            }
            assert_eq!(said.lines.len() as u64, index, "{offset}");
        }
        // After the last command, ending in a newline or not.
        for newline in [true, false] {
            let mut input = b"1\n0 3 1 2".to_vec();
            input.resize(input.len() + length - usize::from(newline), b' ');
            if newline {
                input.push(b'\n');
            }
            let (said, _) = read_alike(&input);
            let what = "the end of the input after the last command (Q = 1)";
            assert_eq!(said.lines, ["red guard;NA;no;no"]);
            assert_eq!(said.note, None, "whitespace is no input to note");
            if over {
                assert_eq!(said.error, Some(refusal((2, 8), what)));
            } else {
                assert_eq!(said.error, None);
            }
        }
    }
}

/// Generated inputs, and inputs with every kind of trouble, read alike whatever the
/// reads.
#[test]
fn every_reader_reads_alike_whatever_the_reads() {
    let mut inputs: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"   \n".to_vec(),
        b"1\n0 3 1 2".to_vec(),
        b"1\n0 3 1 2\n5 5".to_vec(),
        b"1\n0 3 1 2\n   \n\n".to_vec(),
        b"3\n0 3 1 2\n99999999999999999999999 0 0 0\n9 x".to_vec(),
        b"2\r\n+0 -3 1 2\r\n 9 9\t8 8".to_vec(),
        b"0003\n0 3\n1 2 9 0 8 0".to_vec(),
    ];
    for mode in Mode::ALL {
        let mut input = Vec::new();
        generate::input(7, 300, mode, &mut input).expect("vec");
        inputs.push(input);
    }
    for input in &inputs {
        let _ = read_alike(input);
    }
}

/// A caller that goes on after whitespace over the limit was refused (as `diagnose`
/// looks for where a command starts) finds the next number refused too, however the
/// run was read.
#[test]
fn whitespace_over_the_limit_stays_refused() {
    use duckchess::judge::{Expected, Scanner};
    let mut input = b"2\n0 3 1 2".to_vec();
    input.resize(input.len() + (1 << 24) + 1, b' ');
    input.extend_from_slice(b"9 8 9 8\n");
    for size in LONG_SIZES {
        let mut scanner = Scanner::new(Chunks { data: &input, size });
        let total = scanner.count().unwrap();
        scanner.command(1, total).unwrap();
        let next = Expected::Coordinate {
            index: 2,
            total,
            field: 0,
        };
        let refusal = "line 2, column 8: expected an integer (xs of command 2 of 2), found \
                       more than 16777216 bytes of whitespace";
        let e = scanner.peek_token(next).expect_err("refused");
        assert_eq!(e.to_string(), refusal, "{size} bytes a read");
        let e = scanner.command(2, total).expect_err("refused again");
        assert_eq!(e.to_string(), refusal, "{size} bytes a read");
    }
}
