//! Exact solver for the CQOI 2013 "board game" (棋盘游戏), a chase on an `n x n` board.
//!
//! White moves first, one square orthogonally; black moves one or two squares in a straight
//! orthogonal line; moving onto the other piece captures it and wins. The winner wins as fast
//! as possible, the loser delays as long as possible, and the answer counts the moves of both
//! players until the capture.
//!
//! The game is solved by retrograde analysis: every state (both squares and the side to move)
//! starts unknown, the immediate captures form layer 1, and layer `d + 1` is derived from
//! layer `d` by un-making moves. A state whose mover has a move into a state lost for the
//! opponent is won (the first such layer is the shortest win); a state all of whose moves lead
//! into states won by the opponent is lost (the last of them gives the longest delay). States
//! never reached are draws. Processing whole layers in increasing distance makes the first
//! assignment of every state its exact distance, so a single query can stop as soon as its own
//! state is assigned.
//!
//! To fit `n = 100` (2 * 10^8 raw states) in time and memory, states are stored once per orbit
//! of the 8 symmetries of the square acting on both pieces at once, one byte per state and side.
//! This module is independent of the duck chess rules and shares nothing with other modules.

use std::error::Error;
use std::fmt;
use std::io::{Read, Write};

/// The smallest supported board size.
pub const MIN_N: u32 = 2;

/// The largest supported board size (the contest only needs 20).
pub const MAX_N: u32 = 100;

/// The result of a position under perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// White captures; the number counts the moves of both players up to and including it.
    White(u32),
    /// Black captures; the number counts the moves of both players up to and including it.
    Black(u32),
    /// Neither side can force a capture.
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::White(k) => write!(f, "WHITE {k}"),
            Outcome::Black(k) => write!(f, "BLACK {k}"),
            Outcome::Draw => write!(f, "DRAW"),
        }
    }
}

/// One of the two pieces, used to say which piece an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// The piece of player A, who moves first.
    White,
    /// The piece of player B.
    Black,
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Piece::White => "white",
            Piece::Black => "black",
        })
    }
}

/// Everything that can be wrong with a query or its input text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChaseError {
    /// The input ended before the five integers `n r1 c1 r2 c2`.
    MissingNumbers {
        /// How many tokens were present.
        found: usize,
    },
    /// A token is not an integer.
    NotAnInteger {
        /// 1-based number of the token in the input.
        position: usize,
        /// The offending token.
        token: String,
    },
    /// A token is an integer too large to be meaningful.
    IntegerOutOfRange {
        /// 1-based number of the token in the input.
        position: usize,
        /// The offending token.
        token: String,
    },
    /// There is more input after the five integers.
    ExtraInput {
        /// 1-based number of the first extra token.
        position: usize,
        /// The first extra token.
        token: String,
    },
    /// `n` is below [`MIN_N`].
    BoardTooSmall {
        /// The requested board size.
        n: i64,
    },
    /// `n` is above [`MAX_N`].
    BoardTooLarge {
        /// The requested board size.
        n: i64,
    },
    /// A piece lies outside rows and columns `1..=n`.
    OffBoard {
        /// Which piece.
        piece: Piece,
        /// Its row as given.
        row: i64,
        /// Its column as given.
        col: i64,
        /// The board size.
        n: u32,
    },
    /// Both pieces were placed on one square.
    SameSquare {
        /// The shared row.
        row: u32,
        /// The shared column.
        col: u32,
    },
    /// Standard input could not be read.
    Io(String),
}

impl fmt::Display for ChaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChaseError::MissingNumbers { found } => write!(
                f,
                "expected 5 integers `n r1 c1 r2 c2` on standard input, found {found} token{}",
                if *found == 1 { "" } else { "s" }
            ),
            ChaseError::NotAnInteger { position, token } => {
                write!(f, "input token {position} `{}` is not an integer", shorten(token))
            }
            ChaseError::IntegerOutOfRange { position, token } => {
                write!(f, "input token {position} `{}` is out of range", shorten(token))
            }
            ChaseError::ExtraInput { position, token } => write!(
                f,
                "unexpected input token {position} `{}` after `n r1 c1 r2 c2`",
                shorten(token)
            ),
            ChaseError::BoardTooSmall { n } => {
                write!(f, "n = {n} is below the minimum board size {MIN_N}")
            }
            ChaseError::BoardTooLarge { n } => {
                write!(f, "n = {n} is above the supported limit {MAX_N}")
            }
            ChaseError::OffBoard { piece, row, col, n } => write!(
                f,
                "{piece} piece at ({row}, {col}) is off the {n} x {n} board (rows and columns 1..={n})"
            ),
            ChaseError::SameSquare { row, col } => {
                write!(f, "white and black pieces are both at ({row}, {col})")
            }
            ChaseError::Io(msg) => write!(f, "cannot read standard input: {msg}"),
        }
    }
}

impl Error for ChaseError {}

/// Keeps error messages on one short line even for absurd tokens.
fn shorten(token: &str) -> String {
    const LIMIT: usize = 32;
    if token.chars().count() <= LIMIT {
        token.to_string()
    } else {
        let head: String = token.chars().take(LIMIT).collect();
        format!("{head}...")
    }
}

/// A validated question: board size and the two squares (1-based `(row, column)`), white to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Query {
    /// Board size.
    pub n: u32,
    /// White's square.
    pub white: (u32, u32),
    /// Black's square.
    pub black: (u32, u32),
}

/// Parses `n r1 c1 r2 c2` (whitespace-separated integers) and validates the position.
pub fn parse_query(text: &str) -> Result<Query, ChaseError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut values = [0i64; 5];
    for (i, value) in values.iter_mut().enumerate() {
        let token = tokens.get(i).ok_or(ChaseError::MissingNumbers {
            found: tokens.len(),
        })?;
        *value = parse_integer(i + 1, token)?;
    }
    if let Some(token) = tokens.get(5) {
        return Err(ChaseError::ExtraInput {
            position: 6,
            token: (*token).to_string(),
        });
    }
    let n = check_n(values[0])?;
    let white = check_square(Piece::White, values[1], values[2], n)?;
    let black = check_square(Piece::Black, values[3], values[4], n)?;
    check_distinct(white, black)?;
    Ok(Query { n, white, black })
}

fn parse_integer(position: usize, token: &str) -> Result<i64, ChaseError> {
    match token.parse::<i64>() {
        Ok(v) => Ok(v),
        Err(_) => {
            let digits = token.strip_prefix(['+', '-']).unwrap_or(token);
            let err = if !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) {
                ChaseError::IntegerOutOfRange {
                    position,
                    token: token.to_string(),
                }
            } else {
                ChaseError::NotAnInteger {
                    position,
                    token: token.to_string(),
                }
            };
            Err(err)
        }
    }
}

fn check_n(n: i64) -> Result<u32, ChaseError> {
    if n < i64::from(MIN_N) {
        Err(ChaseError::BoardTooSmall { n })
    } else if n > i64::from(MAX_N) {
        Err(ChaseError::BoardTooLarge { n })
    } else {
        // In range 2..=100 after the checks above, so the conversion cannot fail.
        u32::try_from(n).map_err(|_| ChaseError::BoardTooLarge { n })
    }
}

fn check_square(piece: Piece, row: i64, col: i64, n: u32) -> Result<(u32, u32), ChaseError> {
    let on = |v: i64| (1..=i64::from(n)).contains(&v);
    match (u32::try_from(row), u32::try_from(col)) {
        (Ok(r), Ok(c)) if on(row) && on(col) => Ok((r, c)),
        _ => Err(ChaseError::OffBoard { piece, row, col, n }),
    }
}

fn check_distinct(white: (u32, u32), black: (u32, u32)) -> Result<(), ChaseError> {
    if white == black {
        Err(ChaseError::SameSquare {
            row: white.0,
            col: white.1,
        })
    } else {
        Ok(())
    }
}

fn check_query(n: u32, white: (u32, u32), black: (u32, u32)) -> Result<Query, ChaseError> {
    let n = check_n(i64::from(n))?;
    let white = check_square(Piece::White, i64::from(white.0), i64::from(white.1), n)?;
    let black = check_square(Piece::Black, i64::from(black.0), i64::from(black.1), n)?;
    check_distinct(white, black)?;
    Ok(Query { n, white, black })
}

/// Solves one position exactly: white at `white`, black at `black` (1-based `(row, column)`),
/// white to move, on an `n x n` board with `2 <= n <= 100`.
///
/// Only the layers up to the position's own distance are computed.
pub fn solve(n: u32, white: (u32, u32), black: (u32, u32)) -> Result<Outcome, ChaseError> {
    let q = check_query(n, white, black)?;
    let board = Board::new(q.n);
    let target = board.canonical_index(to_cell(q.white), to_cell(q.black));
    let mut solver = Solver::new(board, false);
    solver.run(Some(target));
    Ok(solver.outcome_white_to_move(target))
}

/// Solves every position of an `n x n` board (`2 <= n <= 100`) and keeps all distances.
pub fn solve_all(n: u32) -> Result<Table, ChaseError> {
    let n = check_n(i64::from(n))?;
    let mut solver = Solver::new(Board::new(n), true);
    solver.run(None);
    Ok(Table { solver })
}

/// Counts of positions by outcome (every position counted, not only one per symmetry class).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions that white wins.
    pub white_wins: u64,
    /// Positions that black wins.
    pub black_wins: u64,
    /// Positions that neither side can win.
    pub draws: u64,
}

/// The complete solution of one board size, from [`solve_all`].
pub struct Table {
    solver: Solver,
}

impl Table {
    /// The board size.
    pub fn n(&self) -> u32 {
        self.solver.board.n as u32
    }

    /// The outcome with white to move (the game's starting situation).
    pub fn outcome(&self, white: (u32, u32), black: (u32, u32)) -> Result<Outcome, ChaseError> {
        let q = check_query(self.n(), white, black)?;
        let index = self
            .solver
            .board
            .canonical_index(to_cell(q.white), to_cell(q.black));
        Ok(self.solver.outcome_white_to_move(index))
    }

    /// The outcome with black to move; the count is the remaining moves of both players.
    pub fn outcome_black_to_move(
        &self,
        white: (u32, u32),
        black: (u32, u32),
    ) -> Result<Outcome, ChaseError> {
        let q = check_query(self.n(), white, black)?;
        let index = self
            .solver
            .board
            .canonical_index(to_cell(q.white), to_cell(q.black));
        Ok(self.solver.outcome_black_to_move(index))
    }

    /// Outcome counts over all positions, white to move and black to move.
    pub fn census(&self) -> (Counts, Counts) {
        let s = &self.solver;
        let mut white = Counts::default();
        let mut black = Counts::default();
        for (d, &(wr, wc)) in s.board.cells.iter().enumerate() {
            for br in 0..s.board.n {
                for bc in 0..s.board.n {
                    let index = d * s.board.area + (br * s.board.n + bc) as usize;
                    if s.wst[index] == UNUSED {
                        continue;
                    }
                    let weight = 4 * u64::from(s.board.unit(wr, wc, br, bc));
                    tally(&mut white, s.outcome_white_to_move(index), weight);
                    tally(&mut black, s.outcome_black_to_move(index), weight);
                }
            }
        }
        (white, black)
    }
}

fn tally(counts: &mut Counts, outcome: Outcome, weight: u64) {
    match outcome {
        Outcome::White(_) => counts.white_wins += weight,
        Outcome::Black(_) => counts.black_wins += weight,
        Outcome::Draw => counts.draws += weight,
    }
}

fn to_cell((row, col): (u32, u32)) -> (i32, i32) {
    // Validated to 1..=MAX_N, so these fit.
    (row as i32 - 1, col as i32 - 1)
}

/// Board geometry and the symmetry reduction (0-based coordinates).
///
/// A state is stored under the representative of its orbit: white is folded into the triangle
/// `0 <= row <= col <= (n - 1) / 2`, and when white sits on a symmetry axis of that triangle the
/// remaining freedom is spent on folding black. The triangle index of white times `n^2` plus
/// black's square gives the slot; slots that are not representatives are marked [`UNUSED`].
struct Board {
    n: i32,
    /// `n - 1`, the mirror of coordinate `x` being `m - x`.
    m: i32,
    /// The largest folded coordinate, `(n - 1) / 2`.
    h: i32,
    odd: bool,
    area: usize,
    /// The white squares of the folding triangle in slot order.
    cells: Vec<(i32, i32)>,
}

impl Board {
    fn new(n: u32) -> Board {
        let n = n as i32;
        let h = (n - 1) / 2;
        let mut cells = Vec::new();
        for c in 0..=h {
            for r in 0..=c {
                cells.push((r, c));
            }
        }
        Board {
            n,
            m: n - 1,
            h,
            odd: n % 2 == 1,
            area: (n * n) as usize,
            cells,
        }
    }

    fn on(&self, r: i32, c: i32) -> bool {
        r >= 0 && r < self.n && c >= 0 && c < self.n
    }

    /// Maps a state to its orbit representative.
    #[inline]
    fn canon(&self, w: (i32, i32), b: (i32, i32)) -> ((i32, i32), (i32, i32)) {
        let m = self.m;
        let ((mut wr, mut wc), (mut br, mut bc)) = (w, b);
        // A tie (white on the middle line) leaves the flip free, so it goes to black.
        if 2 * wr > m || (2 * wr == m && 2 * br > m) {
            wr = m - wr;
            br = m - br;
        }
        if 2 * wc > m || (2 * wc == m && 2 * bc > m) {
            wc = m - wc;
            bc = m - bc;
        }
        if wr > wc || (wr == wc && br > bc) {
            std::mem::swap(&mut wr, &mut wc);
            std::mem::swap(&mut br, &mut bc);
        }
        ((wr, wc), (br, bc))
    }

    /// Slot of an already canonical state.
    #[inline]
    fn slot(&self, (wr, wc): (i32, i32), (br, bc): (i32, i32)) -> usize {
        let d = (wc * (wc + 1) / 2 + wr) as usize;
        d * self.area + (br * self.n + bc) as usize
    }

    fn canonical_index(&self, w: (i32, i32), b: (i32, i32)) -> usize {
        let (w, b) = self.canon(w, b);
        self.slot(w, b)
    }

    /// Whether white's folded square has a nontrivial stabiliser (lies on a fold axis).
    #[inline]
    fn white_on_axis(&self, wr: i32, wc: i32) -> bool {
        wr == wc || (self.odd && wc == self.h)
    }

    /// Orbit size divided by 4 (1 or 2) of a canonical state.
    ///
    /// Counters are scaled by it: enumerating the un-moves of one representative finds a
    /// predecessor orbit `|O_pred| / |O_succ|` times per actual move between the orbits, so
    /// weighting each hit by the successor's orbit size keeps the counts exact.
    #[inline]
    fn unit(&self, wr: i32, wc: i32, br: i32, bc: i32) -> u8 {
        if !self.white_on_axis(wr, wc) {
            return 2;
        }
        let centre = self.odd && wr == self.h && wc == self.h;
        let fixed = if centre {
            br == bc || br + bc == self.m || br == self.h || bc == self.h
        } else if wr == wc {
            br == bc
        } else {
            bc == self.h
        };
        if fixed {
            1
        } else {
            2
        }
    }
}

/// White's (and black's un-) one-square steps.
const STEPS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
/// Black's moves; the set is symmetric, so it also serves for un-moves.
const JUMPS: [(i32, i32); 8] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-2, 0),
    (2, 0),
    (0, -2),
    (0, 2),
];

/// State byte: set once the value is known.
const RESOLVED: u8 = 0x80;
/// State byte: with [`RESOLVED`], the side to move wins; without it, it loses.
const MOVER_WINS: u8 = 0x40;
/// State byte: the weighted count of moves not yet known to lose, while unresolved.
const COUNT: u8 = 0x3f;
/// State byte for slots that are not orbit representatives.
const UNUSED: u8 = 0xff;
/// Queue entry flag: black to move.
const BLACK_TO_MOVE: u32 = 1 << 28;

/// Packs a state into a queue entry (7 bits per coordinate suffices for `n <= 100 < 128`).
#[inline]
fn pack(black_to_move: bool, (wr, wc): (i32, i32), (br, bc): (i32, i32)) -> u32 {
    let side = if black_to_move { BLACK_TO_MOVE } else { 0 };
    side | (wr as u32) << 21 | (wc as u32) << 14 | (br as u32) << 7 | bc as u32
}

#[inline]
fn unpack(e: u32) -> (bool, (i32, i32), (i32, i32)) {
    let f = |s: u32| ((e >> s) & 0x7f) as i32;
    (e & BLACK_TO_MOVE != 0, (f(21), f(14)), (f(7), f(0)))
}

/// The retrograde analysis state: one byte per canonical state and side.
struct Solver {
    board: Board,
    /// White-to-move states.
    wst: Vec<u8>,
    /// Black-to-move states.
    bst: Vec<u8>,
    /// Distances of white-to-move and black-to-move states, when a full table is wanted.
    dist: Option<(Vec<u32>, Vec<u32>)>,
    /// Distance of the target once it is resolved.
    target_dist: u32,
}

impl Solver {
    fn new(board: Board, record: bool) -> Solver {
        let size = board.cells.len() * board.area;
        let dist = record.then(|| (vec![0u32; size], vec![0u32; size]));
        Solver {
            board,
            wst: vec![UNUSED; size],
            bst: vec![UNUSED; size],
            dist,
            target_dist: 0,
        }
    }

    /// Sets up counters and returns layer 1 (the immediate captures).
    fn init(&mut self) -> Vec<u32> {
        let bd = &self.board;
        let mut layer = Vec::new();
        for &(wr, wc) in &bd.cells {
            let white_moves = STEPS
                .iter()
                .filter(|&&(dr, dc)| bd.on(wr + dr, wc + dc))
                .count() as u8;
            for br in 0..bd.n {
                for bc in 0..bd.n {
                    if (br, bc) == (wr, wc) || bd.canon((wr, wc), (br, bc)) != ((wr, wc), (br, bc))
                    {
                        continue;
                    }
                    let index = bd.slot((wr, wc), (br, bc));
                    let unit = bd.unit(wr, wc, br, bc);
                    let gap = (wr - br).abs() + (wc - bc).abs();
                    if gap == 1 {
                        self.wst[index] = RESOLVED | MOVER_WINS;
                        layer.push(pack(false, (wr, wc), (br, bc)));
                    } else {
                        self.wst[index] = white_moves * unit;
                    }
                    if (wr == br || wc == bc) && gap <= 2 {
                        self.bst[index] = RESOLVED | MOVER_WINS;
                        layer.push(pack(true, (wr, wc), (br, bc)));
                    } else {
                        let black_moves = JUMPS
                            .iter()
                            .filter(|&&(dr, dc)| bd.on(br + dr, bc + dc))
                            .count() as u8;
                        self.bst[index] = black_moves * unit;
                    }
                }
            }
        }
        if let Some((wd, bdist)) = &mut self.dist {
            for &e in &layer {
                let (black, w, b) = unpack(e);
                let index = self.board.slot(w, b);
                if black {
                    bdist[index] = 1;
                } else {
                    wd[index] = 1;
                }
            }
        }
        layer
    }

    /// Runs the layers until `target` (a white-to-move slot) is resolved, or to the end.
    fn run(&mut self, target: Option<usize>) {
        let mut current = self.init();
        let mut next = Vec::new();
        let mut d: u32 = 1;
        loop {
            if let Some(t) = target {
                if self.wst[t] & RESOLVED != 0 && self.wst[t] != UNUSED {
                    // The target was assigned while producing layer `d`.
                    self.target_dist = d;
                    return;
                }
            }
            if current.is_empty() {
                return;
            }
            for &e in &current {
                self.expand(e, d + 1, &mut next);
            }
            std::mem::swap(&mut current, &mut next);
            next.clear();
            d += 1;
        }
    }

    /// Un-makes every move into the resolved state `e`, resolving predecessors at `nd`.
    #[inline]
    fn expand(&mut self, e: u32, nd: u32, next: &mut Vec<u32>) {
        let bd = &self.board;
        let (black_to_move, w, b) = unpack(e);
        let unit = bd.unit(w.0, w.1, b.0, b.1);
        if !black_to_move {
            let mover_wins = self.wst[bd.slot(w, b)] & MOVER_WINS != 0;
            // Black moved into this state from one or two squares away.
            for &(dr, dc) in &JUMPS {
                let p = (b.0 + dr, b.1 + dc);
                if !bd.on(p.0, p.1) || p == w {
                    continue;
                }
                let (cw, cb) = bd.canon(w, p);
                let index = bd.slot(cw, cb);
                let s = self.bst[index];
                if s & RESOLVED != 0 {
                    continue;
                }
                if mover_wins {
                    // White wins after this move, so black wants another one.
                    let left = (s & COUNT).saturating_sub(unit);
                    if left > 0 {
                        self.bst[index] = left;
                        continue;
                    }
                    self.bst[index] = RESOLVED;
                } else {
                    self.bst[index] = RESOLVED | MOVER_WINS;
                }
                next.push(pack(true, cw, cb));
                if let Some((_, bdist)) = &mut self.dist {
                    bdist[index] = nd;
                }
            }
        } else {
            let mover_wins = self.bst[bd.slot(w, b)] & MOVER_WINS != 0;
            // White moved into this state from a neighbouring square.
            for &(dr, dc) in &STEPS {
                let p = (w.0 + dr, w.1 + dc);
                if !bd.on(p.0, p.1) || p == b {
                    continue;
                }
                let (cw, cb) = bd.canon(p, b);
                let index = bd.slot(cw, cb);
                let s = self.wst[index];
                if s & RESOLVED != 0 {
                    continue;
                }
                if mover_wins {
                    let left = (s & COUNT).saturating_sub(unit);
                    if left > 0 {
                        self.wst[index] = left;
                        continue;
                    }
                    self.wst[index] = RESOLVED;
                } else {
                    self.wst[index] = RESOLVED | MOVER_WINS;
                }
                next.push(pack(false, cw, cb));
                if let Some((wdist, _)) = &mut self.dist {
                    wdist[index] = nd;
                }
            }
        }
    }

    fn distance(&self, index: usize, black_to_move: bool) -> u32 {
        match &self.dist {
            Some((w, b)) => {
                if black_to_move {
                    b[index]
                } else {
                    w[index]
                }
            }
            None => self.target_dist,
        }
    }

    fn outcome_white_to_move(&self, index: usize) -> Outcome {
        let s = self.wst[index];
        if s == UNUSED || s & RESOLVED == 0 {
            return Outcome::Draw;
        }
        let k = self.distance(index, false);
        if s & MOVER_WINS != 0 {
            Outcome::White(k)
        } else {
            Outcome::Black(k)
        }
    }

    fn outcome_black_to_move(&self, index: usize) -> Outcome {
        let s = self.bst[index];
        if s == UNUSED || s & RESOLVED == 0 {
            return Outcome::Draw;
        }
        let k = self.distance(index, true);
        if s & MOVER_WINS != 0 {
            Outcome::Black(k)
        } else {
            Outcome::White(k)
        }
    }
}

const HELP: &str = "\
duckchess chase: solve the CQOI 2013 board game exactly

USAGE:
    duckchess chase < input
    duckchess chase --help

THE GAME:
    An n x n board (rows and columns 1..=n) holds one white and one black piece.
    White (player A) moves first, exactly one square up, down, left or right.
    Black (player B) moves one or two squares up, down, left or right in a straight
    line. Moves must stay on the board and cannot be skipped. Moving onto the other
    piece's square captures it and wins. Both play perfectly: a side that can win
    wins as fast as possible, a side that must lose delays as long as possible.

INPUT (standard input):
    n r1 c1 r2 c2    whitespace-separated integers: white at (r1, c1), black at
                     (r2, c2), 2 <= n <= 100, distinct squares inside the board

OUTPUT:
    WHITE k or BLACK k: the winner and the number of moves of both players until
    the capture (DRAW if neither side could force a capture; it never happens).

EXAMPLE:
    echo '2 1 1 2 2' | duckchess chase    prints    BLACK 2

EXIT STATUS:
    0 solved, 1 bad input, 2 bad command line
";

/// Runs `duckchess chase` with the arguments after the subcommand; returns the exit status.
pub fn cli(args: &[String]) -> u8 {
    if let Some(arg) = args.first() {
        if arg == "-h" || arg == "--help" {
            return emit(&mut std::io::stdout(), HELP, 0);
        }
        let msg = if arg.starts_with('-') && arg != "-" {
            format!("duckchess: chase: unknown option `{arg}` (try `duckchess chase --help`)\n")
        } else {
            format!(
                "duckchess: chase: unexpected argument `{arg}`: the position is read from standard input (try `duckchess chase --help`)\n"
            )
        };
        return emit(&mut std::io::stderr(), &msg, 2);
    }
    let mut text = String::new();
    let result = std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| ChaseError::Io(e.to_string()))
        .and_then(|_| parse_query(&text))
        .and_then(|q| solve(q.n, q.white, q.black));
    match result {
        Ok(outcome) => emit(&mut std::io::stdout(), &format!("{outcome}\n"), 0),
        Err(e) => emit(
            &mut std::io::stderr(),
            &format!("duckchess: chase: {e}\n"),
            1,
        ),
    }
}

/// Writes `text` and returns `status`; a closed stream must not panic the way `println!` does,
/// and a lost answer is reported as failure.
fn emit(out: &mut dyn Write, text: &str, status: u8) -> u8 {
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => status,
        Err(_) => status.max(1),
    }
}
