//! A stress case: its commands, each with the way it is written, and its bytes. Cases are
//! built by the generators and cut down by the shrinker, so they are kept as commands
//! rather than text.

use crate::judge;
use crate::judge::game::Game;
use crate::judge::piece::Square;
use std::fmt::Write as _;

pub use crate::judge::scan::Cmd;

/// The command that moves the piece on `from` to `to`.
pub fn cmd_of(from: Square, to: Square) -> Cmd {
    [
        from.x() as i64,
        from.y() as i64,
        to.x() as i64,
        to.y() as i64,
    ]
}

/// How a command is written. [`Layout::PLAIN`] is the official form, `a b c d` and a
/// newline; the others (only with `--messy`) use what SPEC section 5 allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Layout(pub u8);

impl Layout {
    /// `a b c d\n`.
    pub const PLAIN: Layout = Layout(0);
    const TABS: u8 = 1;
    const CRLF: u8 = 2;
    const SPLIT: u8 = 4;
    const BLANK_BEFORE: u8 = 8;
    const INDENT: u8 = 16;
    /// On the last command: no newline at the end of the input.
    const NO_FINAL_NEWLINE: u8 = 32;
    /// A space after the last number, before the line's end.
    const TRAILING: u8 = 64;
    /// Every bit in use.
    pub const ALL_BITS: u8 = 127;
}

/// One command as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// The four numbers.
    pub cmd: Cmd,
    /// How they are written.
    pub layout: Layout,
}

impl Line {
    /// A command in the official form.
    pub fn plain(cmd: Cmd) -> Line {
        Line {
            cmd,
            layout: Layout::PLAIN,
        }
    }
}

/// A judge input: `Q` is the number of lines.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Case {
    /// The commands.
    pub lines: Vec<Line>,
}

impl Case {
    /// A case of plain commands.
    pub fn of(cmds: &[Cmd]) -> Case {
        Case {
            lines: cmds.iter().map(|&c| Line::plain(c)).collect(),
        }
    }

    /// The number of commands.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether it has no commands.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The commands without their layout.
    pub fn cmds(&self) -> Vec<Cmd> {
        self.lines.iter().map(|l| l.cmd).collect()
    }

    /// The first `n` commands.
    pub fn prefix(&self, n: usize) -> Case {
        Case {
            lines: self.lines[..n.min(self.lines.len())].to_vec(),
        }
    }

    /// The input's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = String::with_capacity(16 + self.lines.len() * 8);
        let _ = writeln!(out, "{}", self.lines.len());
        for (i, line) in self.lines.iter().enumerate() {
            let [a, b, c, d] = line.cmd;
            let bits = line.layout.0;
            if bits == 0 {
                let _ = writeln!(out, "{a} {b} {c} {d}");
                continue;
            }
            let end = if bits & Layout::CRLF != 0 {
                "\r\n"
            } else {
                "\n"
            };
            if bits & Layout::BLANK_BEFORE != 0 {
                out.push_str(end);
            }
            if bits & Layout::INDENT != 0 {
                out.push_str("  ");
            }
            let sep = if bits & Layout::TABS != 0 { "\t" } else { "  " };
            if bits & Layout::SPLIT != 0 {
                let _ = write!(out, "{a}{sep}{b}{end}{c}{sep}{d}");
            } else {
                let _ = write!(out, "{a}{sep}{b}{sep}{c}{sep}{d}");
            }
            if bits & Layout::TRAILING != 0 {
                out.push(' ');
            }
            let last = i + 1 == self.lines.len();
            if !(last && bits & Layout::NO_FINAL_NEWLINE != 0) {
                out.push_str(end);
            }
        }
        out.into_bytes()
    }

    /// What the built-in judge answers.
    pub fn answer(&self) -> Vec<u8> {
        let mut out = Vec::new();
        // A case is always well formed, so the judge answers every command.
        let _ = judge::run(&self.to_bytes()[..], &mut out);
        out
    }

    /// For each command, whether the judge finds it valid.
    pub fn validity(&self) -> Vec<bool> {
        let mut game = Game::new();
        self.lines
            .iter()
            .map(|l| {
                let [a, b, c, d] = l.cmd;
                game.play(a, b, c, d).is_ok()
            })
            .collect()
    }

    /// The same case without the lines whose index `drop` says.
    pub fn without(&self, drop: impl Fn(usize) -> bool) -> Case {
        Case {
            lines: self
                .lines
                .iter()
                .enumerate()
                .filter(|(i, _)| !drop(*i))
                .map(|(_, l)| *l)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_messy_bytes_read_the_same() {
        let mut case = Case::of(&[[0, 0, 1, 0], [9, 0, 8, 0], [0, 1, 2, 2]]);
        assert_eq!(case.to_bytes(), b"3\n0 0 1 0\n9 0 8 0\n0 1 2 2\n");
        let plain = case.answer();
        assert_eq!(
            String::from_utf8_lossy(&plain),
            "red car;NA;no;no\nblue car;NA;no;no\nred horse;NA;no;no\n"
        );
        for (i, bits) in [
            Layout::TABS | Layout::CRLF,
            Layout::SPLIT | Layout::INDENT,
            Layout::ALL_BITS,
        ]
        .into_iter()
        .enumerate()
        {
            case.lines[i].layout = Layout(bits);
        }
        let bytes = case.to_bytes();
        assert!(!bytes.ends_with(b"\n"));
        assert_eq!(case.answer(), plain);
        assert_eq!(case.validity(), vec![true, true, true]);
        assert_eq!(
            case.without(|i| i == 1).cmds(),
            vec![[0, 0, 1, 0], [0, 1, 2, 2]]
        );
    }
}
