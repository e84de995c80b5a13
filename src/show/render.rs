//! Board diagrams for people: row and column numbers on every edge so coordinates can be
//! read off, the last move and any highlighted squares marked. Used by `trace`, `test`
//! and `play`; `play`, which also takes UCI's squares, puts UCI's files and ranks on the
//! bottom and right edges instead. Not on the judge path.
//!
//! Two glyph sets: the notation letters (one column wide) and the statement's Chinese
//! names (two columns wide in a monospace terminal, so cells widen to keep the grid
//! straight). Colour is a separate switch, off unless asked for.

use crate::judge::board::Board;
use crate::judge::piece::{Color, Piece, Square, COLS, ROWS};
use crate::judge::rules::Move;
use crate::sys::os;

/// How a diagram looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Chinese piece names (double width) instead of notation letters.
    pub chinese: bool,
    /// ANSI colours: red pieces in red, blue pieces in blue, marks in yellow.
    pub color: bool,
    /// UCI's files `a`-`i` at the bottom and ranks 1-10 on the right (the judge's
    /// numbers stay at the top and on the left), for a reader who writes moves both
    /// ways.
    pub uci_edges: bool,
}

impl Style {
    /// Plain notation letters, no colour: for files, pipes and golden tests.
    pub const ASCII: Style = Style {
        chinese: false,
        color: false,
        uci_edges: false,
    };

    /// What standard output deserves: Chinese names in colour on a terminal unless
    /// `ascii` is asked for; letters elsewhere; never colour when `NO_COLOR` is set, and
    /// then letters too, since without colour only the letters' case tells the sides
    /// apart.
    pub fn for_stdout(ascii: bool) -> Style {
        let color = os::escapes_shown(os::Console::Stdout) && !no_color();
        Style {
            chinese: color && !ascii,
            color,
            uci_edges: false,
        }
    }
}

/// Whether the `NO_COLOR` convention asks for no colour (set and not empty).
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Squares to mark on a diagram.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks<'a> {
    /// The last move: both of its squares are shown in `[ ]`.
    pub last: Option<Move>,
    /// Extra squares (e.g. a piece's legal targets), shown in `( )`.
    pub highlight: &'a [Square],
    /// A selected piece, shown in `[ ]` like the squares of a move.
    pub selected: Option<Square>,
}

const RESET: &str = "\x1b[0m";
/// Bold yellow, for the marks around squares.
const MARK: &str = "33;1";

/// Appends `text` to `out`, wrapped in the ANSI colour `code` (e.g. `31;1`) when `on`;
/// blank text gets no colour codes around it.
pub fn paint(text: &str, code: &str, on: bool, out: &mut String) {
    if on && !text.trim().is_empty() {
        out.push_str("\x1b[");
        out.push_str(code);
        out.push('m');
        out.push_str(text);
        out.push_str(RESET);
    } else {
        out.push_str(text);
    }
}

/// The diagram of `board`, row 9 at the top, each line ending in `\n`.
///
/// ```text
///     0  1  2  3  4  5  6  7  8
///  9  r  h  e  g  k  g  e  h  r  9
/// ```
///
/// With [`Style::uci_edges`], the right edge and the bottom name ranks and files:
///
/// ```text
///  9  r  h  e  g  k  g  e  h  r  10
///     a  b  c  d  e  f  g  h  i
/// ```
pub fn diagram(board: &Board, style: Style, marks: Marks<'_>) -> String {
    let glyph_width = if style.chinese { 2 } else { 1 };
    let edge = |names: &dyn Fn(u8) -> String| {
        let mut line = String::from("   ");
        for y in 0..COLS {
            line.push(' ');
            line.push_str(&format!("{:<glyph_width$}", names(y)));
            line.push(' ');
        }
        line.trim_end().to_string() + "\n"
    };
    let header = edge(&|y| y.to_string());
    let footer = if style.uci_edges {
        edge(&|y| char::from(b'a' + y).to_string())
    } else {
        header.clone()
    };
    let mut out = header;
    for x in (0..ROWS).rev() {
        out.push_str(&format!("{x:>2} "));
        for y in 0..COLS {
            let square = match Square::new(x as i64, y as i64) {
                Some(s) => s,
                None => continue,
            };
            let last = marks
                .last
                .is_some_and(|m| m.from == square || m.to == square)
                || marks.selected == Some(square);
            let (open, close) = if last {
                ("[", "]")
            } else if marks.highlight.contains(&square) {
                ("(", ")")
            } else {
                (" ", " ")
            };
            paint(open, MARK, style.color, &mut out);
            match board.piece_at(square) {
                Some(piece) => paint(
                    &glyph(piece, style),
                    piece_color(piece),
                    style.color,
                    &mut out,
                ),
                None if style.chinese => out.push_str(" ."),
                None => out.push('.'),
            }
            paint(close, MARK, style.color, &mut out);
        }
        let right = if style.uci_edges { x + 1 } else { x };
        out.push_str(&format!(" {right}\n"));
    }
    out.push_str(&footer);
    out
}

fn glyph(piece: Piece, style: Style) -> String {
    if style.chinese {
        piece.kind.chinese().to_string()
    } else {
        piece.letter().to_string()
    }
}

fn piece_color(piece: Piece) -> &'static str {
    match piece.color {
        Color::Red => "31;1",
        Color::Blue => "34;1",
    }
}

/// One line on the state of the game: `red to move`, or `game over: blue wins`.
pub fn status(board: &Board) -> String {
    match (board.is_over(), board.winner()) {
        (false, _) => format!("{} to move", board.side_to_move()),
        (true, Some(w)) => format!("game over: {w} wins"),
        (true, None) => "game over: no captain on the board".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(x: i64, y: i64) -> Square {
        Square::new(x, y).unwrap()
    }

    #[test]
    fn ascii_start_position() {
        let text = diagram(&Board::start(), Style::ASCII, Marks::default());
        let expected = "    0  1  2  3  4  5  6  7  8
 9  r  h  e  g  k  g  e  h  r  9
 8  .  .  .  .  .  .  .  .  .  8
 7  d  .  .  .  .  .  .  .  d  7
 6  s  .  s  .  s  .  s  .  s  6
 5  .  .  .  .  .  .  .  .  .  5
 4  .  .  .  .  .  .  .  .  .  4
 3  S  .  S  .  S  .  S  .  S  3
 2  D  .  .  .  .  .  .  .  D  2
 1  .  .  .  .  .  .  .  .  .  1
 0  R  H  E  G  K  G  E  H  R  0
    0  1  2  3  4  5  6  7  8
";
        assert_eq!(text, expected);
    }

    #[test]
    fn uci_edges_name_files_and_ranks_at_the_bottom_and_right() {
        let style = Style {
            uci_edges: true,
            ..Style::ASCII
        };
        let text = diagram(&Board::start(), style, Marks::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    0  1  2  3  4  5  6  7  8");
        assert_eq!(lines[1], " 9  r  h  e  g  k  g  e  h  r  10");
        assert_eq!(lines[10], " 0  R  H  E  G  K  G  E  H  R  1");
        assert_eq!(lines[11], "    a  b  c  d  e  f  g  h  i");
        let chinese = Style {
            chinese: true,
            ..style
        };
        let text = diagram(&Board::start(), chinese, Marks::default());
        assert_eq!(
            text.lines().last(),
            Some("    a   b   c   d   e   f   g   h   i")
        );
    }

    #[test]
    fn marks_wrap_the_squares() {
        let mut board = Board::start();
        board.make_move(sq(0, 3), sq(1, 4));
        let last = Some(Move {
            from: sq(0, 3),
            to: sq(1, 4),
        });
        let text = diagram(
            &board,
            Style::ASCII,
            Marks {
                last,
                highlight: &[sq(1, 0)],
                selected: None,
            },
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[9], " 1 (.) .  .  . [G] .  .  .  .  1");
        assert_eq!(lines[10], " 0  R  H  E [.] K  G  E  H  R  0");
    }

    #[test]
    fn chinese_cells_line_up() {
        let style = Style {
            chinese: true,
            ..Style::ASCII
        };
        let text = diagram(&Board::start(), style, Marks::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    0   1   2   3   4   5   6   7   8");
        assert_eq!(lines[1], " 9  车  马  象  士  王  士  象  马  车  9");
        assert_eq!(lines[2], " 8   .   .   .   .   .   .   .   .   .  8");
        // Every board line is as wide as every other in display columns (CJK counts 2).
        let width = |l: &str| {
            l.chars()
                .map(|c| if c.is_ascii() { 1 } else { 2 })
                .sum::<usize>()
        };
        assert!(lines[1..11].iter().all(|l| width(l) == width(lines[1])));
    }

    #[test]
    fn colour_only_when_asked() {
        let plain = diagram(&Board::start(), Style::ASCII, Marks::default());
        assert!(!plain.contains('\x1b'));
        let style = Style {
            color: true,
            ..Style::ASCII
        };
        let coloured = diagram(&Board::start(), style, Marks::default());
        assert!(coloured.contains("\x1b[31;1mK\x1b[0m"));
        assert!(coloured.contains("\x1b[34;1mk\x1b[0m"));
    }

    #[test]
    fn status_lines() {
        assert_eq!(status(&Board::start()), "red to move");
        let over: Board = "4k4/9/9/9/9/9/9/9/9/9 r".parse().unwrap();
        assert_eq!(status(&over), "game over: blue wins");
    }
}
