//! Squares, sides and pieces: the small value types every other module speaks.
//!
//! This module is on the judge path (it is bundled into the one-file submission), so it
//! uses nothing newer than Rust 1.63.

use std::fmt;

/// Number of rows (`x` ranges over `0..ROWS`).
pub const ROWS: u8 = 10;
/// Number of columns (`y` ranges over `0..COLS`).
pub const COLS: u8 = 9;

/// A square of the 10 x 9 board, always on the board.
///
/// Stored as `x << 4 | y`, so a board can be indexed by the raw byte without a multiply;
/// [`Square::index`] gives that index and [`SQUARE_SLOTS`] the array size it needs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Size of an array indexed by [`Square::index`].
pub const SQUARE_SLOTS: usize = (ROWS as usize) << 4;

impl Square {
    /// The square on row `x`, column `y`, or `None` when that is off the board.
    /// Takes `i64` so that any parsed coordinate, however wild, can be asked about.
    #[inline]
    pub fn new(x: i64, y: i64) -> Option<Square> {
        if (0..ROWS as i64).contains(&x) && (0..COLS as i64).contains(&y) {
            Some(Square(((x as u8) << 4) | y as u8))
        } else {
            None
        }
    }

    /// Row, `0..=9`; row 0 is red's back row.
    #[inline]
    pub fn x(self) -> u8 {
        self.0 >> 4
    }

    /// Column, `0..=8`.
    #[inline]
    pub fn y(self) -> u8 {
        self.0 & 15
    }

    /// The square's bit in a 90-bit board mask: `x * 9 + y`.
    #[inline]
    pub const fn bit(self) -> u32 {
        (self.0 >> 4) as u32 * COLS as u32 + (self.0 & 15) as u32
    }

    /// The square whose [`Square::bit`] is `bit` (below 90).
    #[inline]
    pub fn from_bit(bit: u32) -> Square {
        let (x, y) = (bit / COLS as u32, bit % COLS as u32);
        Square(((x as u8) << 4) | y as u8)
    }

    /// Array index for board storage; unique per square and below [`SQUARE_SLOTS`].
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The square `(x + dx, y + dy)`, or `None` when that leaves the board.
    /// This is the one bounds check every move rule goes through.
    #[inline]
    pub fn offset(self, (dx, dy): (i8, i8)) -> Option<Square> {
        let x = self.x() as i8 + dx;
        let y = self.y() as i8 + dy;
        if (0..ROWS as i8).contains(&x) && (0..COLS as i8).contains(&y) {
            Some(Square(((x as u8) << 4) | y as u8))
        } else {
            None
        }
    }

    /// The difference `(x, y) - (from.x, from.y)`.
    #[inline]
    pub fn delta_from(self, from: Square) -> (i8, i8) {
        (
            self.x() as i8 - from.x() as i8,
            self.y() as i8 - from.y() as i8,
        )
    }

    /// All 90 squares, row by row from `(0, 0)`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..ROWS).flat_map(|x| (0..COLS).map(move |y| Square((x << 4) | y)))
    }
}

impl fmt::Display for Square {
    /// `(x, y)`, the coordinates as the judge input writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x(), self.y())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A side. Red moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Starts on rows 0-3 and moves first.
    Red,
    /// Starts on rows 6-9.
    Blue,
}

impl Color {
    /// Both sides, red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Blue];

    /// The other side.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }

    /// The name the judge output uses: `red` or `blue`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
        }
    }

    /// The side-to-move letter of the position notation: `r` or `b`.
    pub fn letter(self) -> char {
        match self {
            Color::Red => 'r',
            Color::Blue => 'b',
        }
    }

    /// Index 0 for red, 1 for blue, for per-side arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// 王: one step orthogonally. Losing it loses the game.
    Captain,
    /// 士: one step diagonally.
    Guard,
    /// 象: two steps diagonally, blocked at the midpoint.
    Elephant,
    /// 马: the knight's jump, blocked next to its start.
    Horse,
    /// 车: any distance along a row or column, blocked by anything in between.
    Car,
    /// 鸭: a (3, 2) jump, blocked at two squares of its path.
    Duck,
    /// 兵: one step to any of the eight neighbours.
    Soldier,
}

impl PieceKind {
    /// All kinds, in declaration order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::Captain,
        PieceKind::Guard,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Car,
        PieceKind::Duck,
        PieceKind::Soldier,
    ];

    /// The English name the judge output uses, e.g. `elephant`.
    pub fn name(self) -> &'static str {
        match self {
            PieceKind::Captain => "captain",
            PieceKind::Guard => "guard",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Car => "car",
            PieceKind::Duck => "duck",
            PieceKind::Soldier => "soldier",
        }
    }

    /// The indefinite article before [`PieceKind::name`]: `an` elephant, `a` horse.
    pub fn article(self) -> &'static str {
        match self {
            PieceKind::Elephant => "an",
            _ => "a",
        }
    }

    /// The red (upper-case) letter of the position notation; blue uses lower case.
    pub fn letter(self) -> char {
        match self {
            PieceKind::Captain => 'K',
            PieceKind::Guard => 'G',
            PieceKind::Elephant => 'E',
            PieceKind::Horse => 'H',
            PieceKind::Car => 'R',
            PieceKind::Duck => 'D',
            PieceKind::Soldier => 'S',
        }
    }

    /// The Chinese name from the statement, one double-width character.
    pub fn chinese(self) -> char {
        match self {
            PieceKind::Captain => '王',
            PieceKind::Guard => '士',
            PieceKind::Elephant => '象',
            PieceKind::Horse => '马',
            PieceKind::Car => '车',
            PieceKind::Duck => '鸭',
            PieceKind::Soldier => '兵',
        }
    }

    /// Index into per-kind arrays (declaration order).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a side and a kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What it is.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The notation letter: upper case for red, lower case for blue.
    pub fn letter(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::Red => c,
            Color::Blue => c.to_ascii_lowercase(),
        }
    }

    /// The piece a notation letter stands for, if any.
    pub fn from_letter(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Blue
        };
        let upper = c.to_ascii_uppercase();
        PieceKind::ALL
            .iter()
            .find(|k| k.letter() == upper)
            .map(|&kind| Piece { color, kind })
    }
}

impl fmt::Display for Piece {
    /// `<side> <piece>`, as the judge output names it, e.g. `red elephant`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_takes_the_article_its_name_asks_for() {
        for kind in PieceKind::ALL {
            let vowel = kind.name().starts_with(['a', 'e', 'i', 'o', 'u']);
            assert_eq!(kind.article(), if vowel { "an" } else { "a" }, "{kind}");
        }
    }

    #[test]
    fn square_new_rejects_off_board() {
        assert!(Square::new(0, 0).is_some());
        assert!(Square::new(9, 8).is_some());
        for (x, y) in [
            (-1, 0),
            (0, -1),
            (10, 0),
            (0, 9),
            (i64::MAX, 0),
            (0, i64::MIN),
        ] {
            assert_eq!(Square::new(x, y), None, "({x}, {y})");
        }
    }

    #[test]
    fn square_offset_checks_every_edge() {
        let corner = Square::new(0, 0).unwrap();
        assert_eq!(corner.offset((-1, 0)), None);
        assert_eq!(corner.offset((0, -1)), None);
        assert_eq!(corner.offset((9, 8)), Square::new(9, 8));
        assert_eq!(corner.offset((10, 0)), None);
        assert_eq!(corner.offset((0, 9)), None);
        let far = Square::new(9, 8).unwrap();
        assert_eq!(far.offset((1, 0)), None);
        assert_eq!(far.offset((0, 1)), None);
        assert_eq!(far.offset((-9, -8)), Some(corner));
    }

    #[test]
    fn all_squares_are_distinct_and_round_trip() {
        let all: Vec<Square> = Square::all().collect();
        assert_eq!(all.len(), 90);
        for (i, s) in all.iter().enumerate() {
            assert_eq!(Square::new(s.x() as i64, s.y() as i64), Some(*s));
            assert_eq!(s.bit(), i as u32);
            assert_eq!(Square::from_bit(s.bit()), *s);
            assert!(s.index() < SQUARE_SLOTS);
            assert!(all[..i].iter().all(|t| t.index() != s.index()));
        }
    }

    #[test]
    fn letters_round_trip() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
        assert_eq!(Piece::from_letter('x'), None);
        assert_eq!(Piece::from_letter('1'), None);
        assert_eq!(
            Piece::new(Color::Blue, PieceKind::Car).to_string(),
            "blue car"
        );
    }
}
