//! The judge's run: plays each command read by [`Scanner`] and writes its line, byte for
//! byte as the THUPC judge expects, through one fixed buffer; [`serve`] is the whole
//! program on stdin and stdout, as the binary and the one-file bundle run it.

use super::game::{Game, Moved, Verdict};
use super::piece::{Color, Piece, PieceKind};
use super::scan::{Expected, JudgeError, LineCol, Scanner, CHUNK};
use std::io::{self, Read, Write};

/// What a complete run saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Commands answered (equals `Q`).
    pub commands: u64,
    /// Where the first token after the `Q`-th command starts, if any input follows it.
    pub trailing: Option<LineCol>,
}

/// The longest output line: "blue elephant;blue elephant;yes;yes\n" and the like.
const LINE_MAX: usize = 48;

/// Writes the judge's line for a legal move, newline included, into `line`; returns
/// its length.
fn format_moved(moved: &Moved, line: &mut [u8; LINE_MAX]) -> usize {
    let mut len = 0;
    let mut push = |part: &[u8]| {
        line[len..len + part.len()].copy_from_slice(part);
        len += part.len();
    };
    let yes_no = |b: bool| if b { &b"yes"[..] } else { &b"no"[..] };
    push(moved.piece.color.name().as_bytes());
    push(b" ");
    push(moved.piece.kind.name().as_bytes());
    push(b";");
    match moved.captured {
        Some(p) => {
            push(p.color.name().as_bytes());
            push(b" ");
            push(p.kind.name().as_bytes());
        }
        None => push(b"NA"),
    }
    push(b";");
    push(yes_no(moved.check));
    push(b";");
    push(yes_no(moved.game_over));
    push(b"\n");
    len
}

const INVALID_LINE: &[u8] = b"Invalid command\n";

/// Every output line the judge can print, formatted once, each padded to [`LINE_MAX`]
/// bytes, so answering a command is a table look-up and one fixed-size copy.
struct VerdictLines {
    /// Line `i` of [`VerdictLines::index`] with its length; the invalid line is last.
    entries: Vec<([u8; LINE_MAX], usize)>,
}

/// The index of `Invalid command` in [`VerdictLines`], after the 840 legal-move lines.
const INVALID_INDEX: usize = 14 * 15 * 2 * 2;

impl VerdictLines {
    fn new() -> VerdictLines {
        let mut entries = Vec::with_capacity(INVALID_INDEX + 1);
        let pieces = || {
            Color::ALL
                .iter()
                .flat_map(|&c| PieceKind::ALL.iter().map(move |&k| Piece::new(c, k)))
        };
        for piece in pieces() {
            for captured in pieces().map(Some).chain(Some(None)) {
                for check in [false, true] {
                    for game_over in [false, true] {
                        let moved = Moved {
                            piece,
                            captured,
                            check,
                            game_over,
                        };
                        debug_assert_eq!(VerdictLines::index(&Ok(moved)), entries.len());
                        let mut line = [0u8; LINE_MAX];
                        let len = format_moved(&moved, &mut line);
                        entries.push((line, len));
                    }
                }
            }
        }
        let mut invalid = [0u8; LINE_MAX];
        invalid[..INVALID_LINE.len()].copy_from_slice(INVALID_LINE);
        entries.push((invalid, INVALID_LINE.len()));
        VerdictLines { entries }
    }

    /// The position of a verdict's line: pieces in colour-then-kind order, the captured
    /// piece likewise with "none" last, then check, then game over; invalid last.
    #[inline]
    fn index(verdict: &Verdict) -> usize {
        let m = match verdict {
            Err(_) => return INVALID_INDEX,
            Ok(m) => m,
        };
        let piece = |p: Piece| p.color.index() * 7 + p.kind.index();
        let captured = m.captured.map_or(14, piece);
        ((piece(m.piece) * 15 + captured) * 2 + m.check as usize) * 2 + m.game_over as usize
    }
}

/// The judge's answers on their way out: a fixed buffer that takes each padded line with
/// one fixed-size copy and goes to the writer in [`CHUNK`]-sized writes.
struct Answers<'w, W> {
    sink: &'w mut W,
    buf: Box<[u8]>,
    len: usize,
}

impl<'w, W: Write> Answers<'w, W> {
    fn new(sink: &'w mut W) -> Answers<'w, W> {
        Answers {
            sink,
            buf: vec![0; CHUNK].into_boxed_slice(),
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, (line, len): &([u8; LINE_MAX], usize)) -> io::Result<()> {
        if self.len + LINE_MAX > self.buf.len() {
            self.flush()?;
        }
        // The whole padded line is copied (a fixed size compiles to a few stores); only
        // its real length counts, and the padding is overwritten by the next line.
        self.buf[self.len..self.len + LINE_MAX].copy_from_slice(line);
        self.len += len;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        let pending = self.len;
        self.len = 0;
        self.sink.write_all(&self.buf[..pending])
    }
}

/// The judge's line for `verdict`, without the newline (for the tools).
pub fn verdict_line(verdict: &Verdict) -> String {
    let mut line = [0u8; LINE_MAX];
    let bytes: &[u8] = match verdict {
        Err(_) => INVALID_LINE,
        Ok(m) => {
            let len = format_moved(m, &mut line);
            &line[..len]
        }
    };
    String::from_utf8_lossy(&bytes[..bytes.len() - 1]).into_owned()
}

/// The bytes of the judge's line for `verdict`, its newline included.
pub fn line_bytes(verdict: &Verdict) -> usize {
    match verdict {
        Err(_) => INVALID_LINE.len(),
        Ok(m) => format_moved(m, &mut [0u8; LINE_MAX]),
    }
}

/// Runs the judge: reads `Q` and the commands from `input`, writes one line per command
/// to `output`, plays them from the start position. Output is buffered here, in large
/// writes, so `output` needs no buffer of its own. On bad input every earlier command
/// has been written to `output` before the error returns.
pub fn run<R: Read, W: Write>(input: R, output: &mut W) -> Result<Summary, JudgeError> {
    let mut scanner = Scanner::new(input);
    let total = scanner.count()?;
    let lines = VerdictLines::new();
    let mut answers = Answers::new(output);
    let mut game = Game::new();
    let mut answer_all = || -> Result<(), JudgeError> {
        for index in 1..=total.value {
            let c = scanner.command(index, total)?;
            let verdict = game.play(c[0], c[1], c[2], c[3]);
            answers
                .push(&lines.entries[VerdictLines::index(&verdict)])
                .map_err(JudgeError::Write)?;
        }
        Ok(())
    };
    let answered = answer_all();
    // Whatever happened, what was answered goes out first (a write error aside).
    if !matches!(answered, Err(JudgeError::Write(_))) {
        answers.flush().map_err(JudgeError::Write)?;
    }
    answered?;
    let trailing = scanner.peek_token(Expected::End { total })?;
    Ok(Summary {
        commands: total.value,
        trailing,
    })
}

/// Runs the judge from `input` to standard output, as the binary and the one-file bundle
/// do, and reports problems on standard error. Returns the exit status: 0 when all went
/// well (also when standard output was closed early: nobody is left to tell), 1 on bad
/// input or an I/O error, after flushing every answer already computed.
pub fn serve<R: Read>(input: R) -> u8 {
    serve_with(input, &note)
}

/// [`serve`], with problems told through `say` (the tools name their subcommand in
/// each message; the bare judge does not).
pub fn serve_with<R: Read>(input: R, say: &dyn Fn(&str)) -> u8 {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = run(input, &mut out);
    let flushed = out.flush();
    conclude(result, flushed, say)
}

/// The exit status of a run that wrote to standard output, with its problems told
/// through `say`: the note on input after the `Q`-th command, an input or I/O error (1).
/// A closed standard output ends quietly with 0: nobody is left to tell. Shared with
/// the tools that read judge inputs the same way.
pub fn conclude(
    result: Result<Summary, JudgeError>,
    flushed: io::Result<()>,
    say: &dyn Fn(&str),
) -> u8 {
    let closed = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
    let mut status = 0;
    match result {
        Ok(Summary {
            commands,
            trailing: Some(at),
        }) => say(&format!("note: {}", ignored_after(commands, at))),
        Ok(_) => {}
        Err(JudgeError::Write(ref e)) if closed(e) => return 0,
        Err(e) => {
            say(&e.to_string());
            status = 1;
        }
    }
    match flushed {
        Err(ref e) if closed(e) => status,
        Err(e) => {
            say(&JudgeError::Write(e).to_string());
            1
        }
        Ok(()) => status,
    }
}

/// What the note on input after the last command says: where the ignored input starts.
pub fn ignored_after(commands: u64, at: LineCol) -> String {
    format!(
        "ignoring the input after command {commands}, from line {}, column {}",
        at.line, at.column
    )
}

/// One line on standard error, prefixed with the program name. A failing standard error
/// is ignored: there is nowhere left to report it.
pub fn note(message: &str) {
    let _ = writeln!(io::stderr(), "duckchess: {message}");
}
