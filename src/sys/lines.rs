//! Lines of bounded length from a stream nobody vouches for: a person at a terminal, a
//! UCI front end, an engine we started, a browser. `std`'s `read_line` holds a line
//! however long it grows; here at most `max` bytes of each are kept, what lies beyond is
//! skipped, and the line says it was longer.
//!
//! [`Lines`] takes bytes as they come (from a pipe served by [`crate::sys::pipes`], a
//! socket's reads) and says as soon as a line outgrows its bound, before its end
//! arrives; [`read_line`] reads one line from a [`BufRead`].

use std::io::{self, BufRead};

/// One line, without its `\n` (a `\r` before it is kept).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Its first bytes, at most the bound.
    pub bytes: Vec<u8>,
    /// Whether it was longer than the bound (its rest was skipped).
    pub overlong: bool,
}

/// A line being put together from bytes as they arrive.
#[derive(Debug, Default)]
pub struct Lines {
    line: Line,
    /// Whether any byte of the current line has arrived.
    started: bool,
}

impl Lines {
    /// No line begun.
    pub fn new() -> Lines {
        Lines::default()
    }

    /// Takes bytes from the front of `bytes`, up to and including the first `\n`, into
    /// the current line, keeping at most `max` bytes of it. Returns how many bytes were
    /// taken, and the line when they completed it.
    pub fn feed(&mut self, bytes: &[u8], max: usize) -> (usize, Option<Line>) {
        let (chunk, used) = match bytes.iter().position(|&b| b == b'\n') {
            Some(i) => (&bytes[..i], i + 1),
            None => (bytes, bytes.len()),
        };
        self.started |= used > 0;
        let room = max.saturating_sub(self.line.bytes.len());
        if chunk.len() > room {
            self.line.overlong = true;
        }
        self.line
            .bytes
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
        if used > chunk.len() {
            (used, Some(self.take()))
        } else {
            (used, None)
        }
    }

    /// Whether the line being put together has already outgrown its bound.
    pub fn overlong(&self) -> bool {
        self.line.overlong
    }

    /// The bytes held for the line being put together.
    pub fn held(&self) -> usize {
        self.line.bytes.capacity()
    }

    /// At the end of the stream: the last line, when it did not end with `\n`.
    pub fn finish(&mut self) -> Option<Line> {
        match self.started {
            true => Some(self.take()),
            false => None,
        }
    }

    fn take(&mut self) -> Line {
        self.started = false;
        std::mem::take(&mut self.line)
    }
}

/// Reads one line of `input`, keeping at most `max` bytes of it; `None` at the end of
/// the input. A read interrupted by a signal is tried again.
pub fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut lines = Lines::new();
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(lines.finish());
        }
        let (used, line) = lines.feed(buf, max);
        input.consume(used);
        if line.is_some() {
            return Ok(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(bytes: &[u8], overlong: bool) -> Option<Line> {
        Some(Line {
            bytes: bytes.to_vec(),
            overlong,
        })
    }

    #[test]
    fn lines_are_read_whole_up_to_the_bound_and_cut_past_it() {
        let mut input = &b"abc\r\nabcd\nabcdefgh\n\nlast"[..];
        assert_eq!(read_line(&mut input, 4).unwrap(), line(b"abc\r", false));
        assert_eq!(read_line(&mut input, 4).unwrap(), line(b"abcd", false));
        assert_eq!(read_line(&mut input, 4).unwrap(), line(b"abcd", true));
        assert_eq!(read_line(&mut input, 4).unwrap(), line(b"", false));
        assert_eq!(read_line(&mut input, 4).unwrap(), line(b"last", false));
        assert_eq!(read_line(&mut input, 4).unwrap(), None);
    }

    #[test]
    fn a_long_line_is_cut_across_many_reads_in_bounded_memory() {
        // A reader that hands out 7 bytes at a time.
        let text: Vec<u8> = [vec![b'x'; 100_000], b"\nok\n".to_vec()].concat();
        let mut input = io::BufReader::with_capacity(7, &text[..]);
        let long = read_line(&mut input, 10).unwrap().unwrap();
        assert_eq!((long.bytes.len(), long.overlong), (10, true));
        assert_eq!(read_line(&mut input, 10).unwrap(), line(b"ok", false));
    }

    #[test]
    fn bytes_fed_as_they_come_say_at_once_when_a_line_is_too_long() {
        let mut lines = Lines::new();
        assert_eq!(lines.feed(b"ab", 3), (2, None));
        assert!(!lines.overlong());
        assert_eq!(lines.feed(b"cd", 3), (2, None));
        assert!(lines.overlong(), "before the line's end arrives");
        assert_eq!(lines.feed(b"e\nfg\n", 3), (2, line(b"abc", true)));
        assert!(!lines.overlong());
        assert_eq!(lines.feed(b"fg\n", 3), (3, line(b"fg", false)));
        assert_eq!(lines.finish(), None);
        assert_eq!(lines.feed(b"h", 3), (1, None));
        assert_eq!(lines.finish(), line(b"h", false));
        assert!(lines.held() <= 8);
    }
}
