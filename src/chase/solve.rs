//! The exact solver: layered retrograde analysis over bit planes (see the folder's
//! module doc for the method).

use super::query::{check_n, check_query, ChaseError, Outcome};

/// Solves one position exactly: white at `white`, black at `black` (1-based `(row, column)`),
/// white to move, on an `n x n` board with `2 <= n <= 100`.
///
/// Only the layers up to the position's own distance are computed.
pub fn solve(n: u32, white: (u32, u32), black: (u32, u32)) -> Result<Outcome, ChaseError> {
    let q = check_query(n, white, black)?;
    let mut engine = Engine::new(q.n as usize, false);
    let target = engine.geo.locate(to_cell(q.white), to_cell(q.black));
    Ok(engine.run(Some(target)).unwrap_or(Outcome::Draw))
}

/// Solves every position of an `n x n` board (`2 <= n <= 100`) and keeps all distances.
pub fn solve_all(n: u32) -> Result<Table, ChaseError> {
    let n = check_n(i64::from(n))?;
    let mut engine = Engine::new(n as usize, true);
    engine.run(None);
    Ok(Table { engine })
}

/// Counts of positions by outcome.
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
    engine: Engine,
}

impl Table {
    /// The board size.
    pub fn n(&self) -> u32 {
        self.engine.geo.n as u32
    }

    /// The outcome with white to move (the game's starting situation).
    pub fn outcome(&self, white: (u32, u32), black: (u32, u32)) -> Result<Outcome, ChaseError> {
        let q = check_query(self.n(), white, black)?;
        let at = self.engine.geo.locate(to_cell(q.white), to_cell(q.black));
        Ok(self.engine.outcome(at, false))
    }

    /// The outcome with black to move; the count is the remaining moves of both players.
    pub fn outcome_black_to_move(
        &self,
        white: (u32, u32),
        black: (u32, u32),
    ) -> Result<Outcome, ChaseError> {
        let q = check_query(self.n(), white, black)?;
        let at = self.engine.geo.locate(to_cell(q.white), to_cell(q.black));
        Ok(self.engine.outcome(at, true))
    }

    /// Outcome counts over all positions (pieces on distinct squares), white to move and black
    /// to move.
    pub fn census(&self) -> (Counts, Counts) {
        let geo = &self.engine.geo;
        let n = geo.n as i32;
        let mut white = Counts::default();
        let mut black = Counts::default();
        for wr in 0..n {
            for wc in 0..n {
                for br in 0..n {
                    for bc in 0..n {
                        if (wr, wc) == (br, bc) {
                            continue;
                        }
                        let at = geo.locate((wr, wc), (br, bc));
                        tally(&mut white, self.engine.outcome(at, false));
                        tally(&mut black, self.engine.outcome(at, true));
                    }
                }
            }
        }
        (white, black)
    }
}

fn tally(counts: &mut Counts, outcome: Outcome) {
    match outcome {
        Outcome::White(_) => counts.white_wins += 1,
        Outcome::Black(_) => counts.black_wins += 1,
        Outcome::Draw => counts.draws += 1,
    }
}

fn to_cell((row, col): (u32, u32)) -> (i32, i32) {
    // Validated to 1..=MAX_N, so these fit.
    (row as i32 - 1, col as i32 - 1)
}

/// A symmetry of the square as applied to black's square: optional row flip and column flip,
/// then an optional swap of row and column.
type Sym = u8;
const ROW_FLIP: Sym = 1;
const COL_FLIP: Sym = 2;
const SWAP: Sym = 4;

/// Where a state's bit lives: block (white's folded square), row and column of black.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct At {
    block: usize,
    row: usize,
    col: usize,
}

/// Where white-move successors of a block are read from: a block of a plane, taken as it is
/// or through a symmetry (then from a scratch copy prepared before each pass).
#[derive(Debug, Clone, Copy)]
enum Source {
    Direct(usize),
    Scratch(usize),
}

/// Board geometry and the symmetry reduction (0-based coordinates).
///
/// White is folded into the triangle `0 <= row <= col <= (n - 1) / 2`, one block per square of
/// it; a block holds one bit per square of black, one `u128` per board row (`n <= 100 < 128`),
/// so black's moves are shifts within a row or steps between rows. Blocks are stored for every
/// black square, so a white square on a fold axis may use any folding symmetry.
struct Geometry {
    n: usize,
    /// `n - 1`, the mirror of coordinate `x` being `m - x`.
    m: i32,
    /// Bits of the columns that exist.
    cols: u128,
    /// White's square of each block.
    cells: Vec<(i32, i32)>,
    /// Block number of each folded white square, by `row * n + col`.
    block_of: Vec<usize>,
    /// For each block, the sources of white's up to four moves (missing moves are `None`).
    links: Vec<[Option<Source>; 4]>,
    /// The blocks and symmetries that scratch copies are made of, in scratch slot order.
    transformed: Vec<(usize, Sym)>,
}

impl Geometry {
    fn new(n: usize) -> Geometry {
        let ni = n as i32;
        let h = (ni - 1) / 2;
        let mut cells = Vec::new();
        for c in 0..=h {
            for r in 0..=c {
                cells.push((r, c));
            }
        }
        let mut block_of = vec![usize::MAX; n * n];
        for (i, &(r, c)) in cells.iter().enumerate() {
            block_of[r as usize * n + c as usize] = i;
        }
        let mut geo = Geometry {
            n,
            m: ni - 1,
            cols: (1u128 << n) - 1,
            cells,
            block_of,
            links: Vec::new(),
            transformed: Vec::new(),
        };
        let mut links = Vec::with_capacity(geo.cells.len());
        for &(r, c) in &geo.cells {
            let mut link = [None; 4];
            for (slot, &(dr, dc)) in link.iter_mut().zip(STEPS.iter()) {
                let p = (r + dr, c + dc);
                if !geo.on(p) {
                    continue;
                }
                let (q, sym) = geo.fold(p);
                let block = geo.block_of[q.0 as usize * n + q.1 as usize];
                *slot = Some(if sym == 0 {
                    Source::Direct(block)
                } else {
                    let pos = geo
                        .transformed
                        .iter()
                        .position(|&t| t == (block, sym))
                        .unwrap_or_else(|| {
                            geo.transformed.push((block, sym));
                            geo.transformed.len() - 1
                        });
                    Source::Scratch(pos)
                });
            }
            links.push(link);
        }
        geo.links = links;
        geo
    }

    fn on(&self, (r, c): (i32, i32)) -> bool {
        let n = self.n as i32;
        r >= 0 && r < n && c >= 0 && c < n
    }

    /// Folds white's square into the triangle; the symmetry is to be applied to black too.
    fn fold(&self, (mut r, mut c): (i32, i32)) -> ((i32, i32), Sym) {
        let mut sym = 0;
        if 2 * r > self.m {
            r = self.m - r;
            sym |= ROW_FLIP;
        }
        if 2 * c > self.m {
            c = self.m - c;
            sym |= COL_FLIP;
        }
        if r > c {
            std::mem::swap(&mut r, &mut c);
            sym |= SWAP;
        }
        ((r, c), sym)
    }

    fn apply(&self, sym: Sym, (mut r, mut c): (i32, i32)) -> (i32, i32) {
        if sym & ROW_FLIP != 0 {
            r = self.m - r;
        }
        if sym & COL_FLIP != 0 {
            c = self.m - c;
        }
        if sym & SWAP != 0 {
            std::mem::swap(&mut r, &mut c);
        }
        (r, c)
    }

    /// The bit of the state with white on `w` and black on `b` (distinct, on the board).
    fn locate(&self, w: (i32, i32), b: (i32, i32)) -> At {
        let (q, sym) = self.fold(w);
        let (r, c) = self.apply(sym, b);
        At {
            block: self.block_of[q.0 as usize * self.n + q.1 as usize],
            row: r as usize,
            col: c as usize,
        }
    }

    /// The columns of row `r` that are valid black squares for a block, leaving out white's
    /// square and every square within `reach` of it along the row or column (`reach = 0`
    /// leaves out white's square only).
    #[inline]
    fn row_mask(&self, (wr, wc): (i32, i32), r: usize, reach: i32) -> u128 {
        let dr = (r as i32 - wr).abs();
        if dr > reach {
            return self.cols;
        }
        let (lo, hi) = if dr == 0 {
            ((wc - reach).max(0), (wc + reach).min(self.m))
        } else {
            (wc, wc)
        };
        let span = ((1u128 << (hi - lo + 1)) - 1) << lo;
        self.cols & !span
    }

    /// Copies block `src` of `plane` into `out` as seen through `sym`: bit `b` of the result
    /// is bit `sym(b)` of the source.
    fn transform(&self, plane: &[u128], src: usize, sym: Sym, out: &mut [u128]) {
        let n = self.n;
        let mut grid = [0u128; 128];
        grid[..n].copy_from_slice(&plane[src * n..src * n + n]);
        if sym & SWAP != 0 {
            transpose(&mut grid);
        }
        for (r, row) in out.iter_mut().enumerate().take(n) {
            let from = if sym & ROW_FLIP != 0 { n - 1 - r } else { r };
            let mut v = grid[from];
            if sym & COL_FLIP != 0 {
                v = v.reverse_bits() >> (128 - n);
            }
            *row = v;
        }
    }
}

/// Transposes a 128 x 128 bit matrix (bit `j` of row `i` moves to bit `i` of row `j`) by
/// swapping ever smaller off-diagonal blocks.
fn transpose(a: &mut [u128; 128]) {
    let mut j = 64;
    let mut mask: u128 = u128::from(u64::MAX);
    while j != 0 {
        let mut k = 0;
        while k < 128 {
            for i in k..k + j {
                let t = ((a[i] >> j) ^ a[i + j]) & mask;
                a[i] ^= t << j;
                a[i + j] ^= t;
            }
            k += 2 * j;
        }
        j >>= 1;
        mask ^= mask << j;
    }
}

/// White's one-square steps.
const STEPS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// Which sets changed in the last layer.
#[derive(Debug, Clone, Copy, Default)]
struct Changed {
    white_lost: bool,
    black_won: bool,
    white_won: bool,
    black_lost: bool,
}

/// The layered retrograde analysis over bit planes.
///
/// After layer `d` each plane holds the states decided within `d` moves: white to move and
/// lost (`white_lost`) or won (`white_won`), black to move and won (`black_won`) or lost
/// (`black_lost`). Layer 1 is the captures; a mover loses within `d + 1` when every move leads
/// into a state the opponent wins within `d`, and wins within `d + 1` when some move leads into
/// a state the opponent loses within `d`. The first layer that holds a state is its exact
/// distance: the winner's fastest win, which is also the loser's longest delay.
struct Engine {
    geo: Geometry,
    white_lost: Vec<u128>,
    black_won: Vec<u128>,
    white_won: Vec<u128>,
    black_lost: Vec<u128>,
    /// Transformed copies of `black_won` blocks, one per entry of `geo.transformed`.
    scratch_won: Vec<u128>,
    /// Transformed copies of `black_lost` blocks, likewise.
    scratch_lost: Vec<u128>,
    /// Rows of each `white_lost` block that gained states in the last pass over it.
    lost_rows: Vec<Rows>,
    /// Rows of each `black_won` block that gained states in the last pass over it.
    won_rows: Vec<Rows>,
    /// First layer of each state, white to move and black to move, when a table is wanted.
    dist: Option<(Vec<u32>, Vec<u32>)>,
}

impl Engine {
    fn new(n: usize, record: bool) -> Engine {
        let geo = Geometry::new(n);
        let size = geo.cells.len() * n;
        let scratch = vec![0; geo.transformed.len() * n];
        let cells = geo.cells.len() * n * n;
        let blocks = geo.cells.len();
        Engine {
            geo,
            white_lost: vec![0; size],
            black_won: vec![0; size],
            white_won: vec![0; size],
            black_lost: vec![0; size],
            scratch_won: scratch.clone(),
            scratch_lost: scratch,
            lost_rows: vec![Rows::EMPTY; blocks],
            won_rows: vec![Rows::EMPTY; blocks],
            dist: record.then(|| (vec![0; cells], vec![0; cells])),
        }
    }

    /// Runs the layers until the white-to-move state `target` is decided (its outcome is
    /// returned) or until nothing changes any more.
    fn run(&mut self, target: Option<At>) -> Option<Outcome> {
        self.init();
        let mut changed = Changed {
            black_won: true,
            white_won: true,
            ..Changed::default()
        };
        let mut d: u32 = 1;
        loop {
            if let Some(t) = target {
                if bit(&self.white_won, &self.geo, t) {
                    return Some(Outcome::White(d));
                }
                if bit(&self.white_lost, &self.geo, t) {
                    return Some(Outcome::Black(d));
                }
            }
            d += 1;
            // Each set grows only in layers of one parity (white loses after an even number
            // of moves, black wins after an odd one), so a pass never reads a plane that
            // another pass of the same layer writes.
            let now = Changed {
                white_lost: changed.black_won && self.white_all_lose(d),
                white_won: changed.black_lost && self.white_some_wins(d),
                black_won: changed.white_lost && self.black_some_wins(d),
                black_lost: changed.white_won && self.black_all_lose(d),
            };
            if !(now.white_lost || now.white_won || now.black_won || now.black_lost) {
                return None;
            }
            changed = now;
        }
    }

    /// Layer 1: the side to move captures.
    fn init(&mut self) {
        let n = self.geo.n;
        for (block, &w) in self.geo.cells.iter().enumerate() {
            for r in 0..n {
                let i = block * n + r;
                // Squares next to white (white captures) and within two squares in a line
                // (black captures), each without white's own square.
                self.white_won[i] = self.geo.row_mask(w, r, 0) & !self.geo.row_mask(w, r, 1);
                self.black_won[i] = self.geo.row_mask(w, r, 0) & !self.geo.row_mask(w, r, 2);
                record(&mut self.dist, false, n, i, self.white_won[i], 1);
                record(&mut self.dist, true, n, i, self.black_won[i], 1);
            }
            self.won_rows[block] = Rows::ALL.near(w.0 as usize, 2, n);
        }
    }

    /// Brings the scratch copies of `plane` up to date (for `black_won`, only those whose
    /// source block changed in the last pass; the others are still current).
    fn prepare(&mut self, plane: Plane) {
        let n = self.geo.n;
        let (src, scratch) = match plane {
            Plane::BlackWon => (&self.black_won, &mut self.scratch_won),
            Plane::BlackLost => (&self.black_lost, &mut self.scratch_lost),
        };
        for (slot, &(block, sym)) in self.geo.transformed.iter().enumerate() {
            if matches!(plane, Plane::BlackWon) && self.won_rows[block].is_empty() {
                continue;
            }
            self.geo
                .transform(src, block, sym, &mut scratch[slot * n..slot * n + n]);
        }
    }

    /// White to move loses within `d` if every move reaches a state black wins within `d - 1`.
    fn white_all_lose(&mut self, d: u32) -> bool {
        self.prepare(Plane::BlackWon);
        let n = self.geo.n;
        let ones = [!0u128; 128];
        let mut changed = false;
        for block in 0..self.geo.cells.len() {
            let w = self.geo.cells[block];
            // A row can only gain states where one of its sources did; a source read through
            // a symmetry may have moved its changes to any row.
            let mut rows = Rows::EMPTY;
            for source in self.geo.links[block].iter().flatten() {
                rows = rows.union(match *source {
                    Source::Direct(b) => self.won_rows[b],
                    Source::Scratch(k) if self.won_rows[self.geo.transformed[k].0].is_empty() => {
                        Rows::EMPTY
                    }
                    Source::Scratch(_) => Rows::ALL.near(0, n, n),
                });
            }
            let [s0, s1, s2, s3] = self.geo.links[block].map(|s| match s {
                None => &ones[..n],
                Some(Source::Direct(b)) => &self.black_won[b * n..b * n + n],
                Some(Source::Scratch(k)) => &self.scratch_won[k * n..k * n + n],
            });
            let mut gained = Rows::EMPTY;
            for r in rows.range() {
                let i = block * n + r;
                let v = s0[r] & s1[r] & s2[r] & s3[r] & self.geo.row_mask(w, r, 1);
                let fresh = v & !self.white_lost[i];
                if fresh != 0 {
                    self.white_lost[i] |= fresh;
                    gained = gained.union(Rows::one(r));
                    record(&mut self.dist, false, n, i, fresh, d);
                }
            }
            changed |= !gained.is_empty();
            self.lost_rows[block] = gained;
        }
        changed
    }

    /// White to move wins within `d` if some move reaches a state black loses within `d - 1`.
    fn white_some_wins(&mut self, d: u32) -> bool {
        self.prepare(Plane::BlackLost);
        let n = self.geo.n;
        let zeros = [0u128; 128];
        let mut changed = false;
        for block in 0..self.geo.cells.len() {
            let w = self.geo.cells[block];
            let [s0, s1, s2, s3] = self.geo.links[block].map(|s| match s {
                None => &zeros[..n],
                Some(Source::Direct(b)) => &self.black_lost[b * n..b * n + n],
                Some(Source::Scratch(k)) => &self.scratch_lost[k * n..k * n + n],
            });
            for r in 0..n {
                let i = block * n + r;
                let v = (s0[r] | s1[r] | s2[r] | s3[r]) & self.geo.row_mask(w, r, 0);
                let fresh = v & !self.white_won[i];
                if fresh != 0 {
                    self.white_won[i] |= fresh;
                    changed = true;
                    record(&mut self.dist, false, n, i, fresh, d);
                }
            }
        }
        changed
    }

    /// Black to move wins within `d` if some move (one or two squares in a line) reaches a
    /// state white loses within `d - 1`.
    fn black_some_wins(&mut self, d: u32) -> bool {
        let n = self.geo.n;
        let cols = self.geo.cols;
        let mut changed = false;
        for block in 0..self.geo.cells.len() {
            let w = self.geo.cells[block];
            let lost = &self.white_lost[block * n..block * n + n];
            // Black's moves span two rows, so only rows that near new lost states can gain.
            let rows = self.lost_rows[block].widen(2, n);
            let mut gained = Rows::EMPTY;
            for r in rows.range() {
                let x = lost[r];
                let mut v = ((x << 1) | (x << 2)) & cols | (x >> 1) | (x >> 2);
                if r >= 1 {
                    v |= lost[r - 1];
                }
                if r >= 2 {
                    v |= lost[r - 2];
                }
                if r + 1 < n {
                    v |= lost[r + 1];
                }
                if r + 2 < n {
                    v |= lost[r + 2];
                }
                let i = block * n + r;
                let fresh = v & self.geo.row_mask(w, r, 0) & !self.black_won[i];
                if fresh != 0 {
                    self.black_won[i] |= fresh;
                    gained = gained.union(Rows::one(r));
                    record(&mut self.dist, true, n, i, fresh, d);
                }
            }
            changed |= !gained.is_empty();
            self.won_rows[block] = gained;
        }
        changed
    }

    /// Black to move loses within `d` if it cannot capture and every move reaches a state
    /// white wins within `d - 1` (a move off the board does not count).
    fn black_all_lose(&mut self, d: u32) -> bool {
        let n = self.geo.n;
        let cols = self.geo.cols;
        let last = 1u128 << (n - 1);
        let next_last = last >> 1;
        let mut changed = false;
        for block in 0..self.geo.cells.len() {
            let w = self.geo.cells[block];
            let won = &self.white_won[block * n..block * n + n];
            let row = |k: usize| if k < n { won[k] } else { !0 };
            for r in 0..n {
                let x = won[r];
                // Bit c of each term: the move from column c (or row r) lands in a won state
                // or leaves the board.
                let mut v = ((x >> 1) | last) & ((x >> 2) | last | next_last);
                v &= ((x << 1) | 1) & ((x << 2) | 3) & cols;
                v &= row(r + 1) & row(r + 2);
                v &= if r >= 1 { won[r - 1] } else { !0 };
                v &= if r >= 2 { won[r - 2] } else { !0 };
                let i = block * n + r;
                let fresh = v & self.geo.row_mask(w, r, 2) & !self.black_lost[i];
                if fresh != 0 {
                    self.black_lost[i] |= fresh;
                    changed = true;
                    record(&mut self.dist, true, n, i, fresh, d);
                }
            }
        }
        changed
    }

    /// The outcome of the state at `at` from the planes and recorded distances.
    fn outcome(&self, at: At, black_to_move: bool) -> Outcome {
        let geo = &self.geo;
        let index = (at.block * geo.n + at.row) * geo.n + at.col;
        let k = match &self.dist {
            Some((w, b)) => {
                if black_to_move {
                    b[index]
                } else {
                    w[index]
                }
            }
            None => 0,
        };
        if black_to_move {
            if bit(&self.black_won, geo, at) {
                Outcome::Black(k)
            } else if bit(&self.black_lost, geo, at) {
                Outcome::White(k)
            } else {
                Outcome::Draw
            }
        } else if bit(&self.white_won, geo, at) {
            Outcome::White(k)
        } else if bit(&self.white_lost, geo, at) {
            Outcome::Black(k)
        } else {
            Outcome::Draw
        }
    }
}

/// A range of rows of a block, `first..=last`, empty when `first > last`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rows {
    first: usize,
    last: usize,
}

impl Rows {
    const EMPTY: Rows = Rows {
        first: usize::MAX,
        last: 0,
    };
    /// Every row; narrowed to the board by [`Rows::near`] or [`Rows::widen`].
    const ALL: Rows = Rows {
        first: 0,
        last: usize::MAX,
    };

    fn one(r: usize) -> Rows {
        Rows { first: r, last: r }
    }

    fn is_empty(self) -> bool {
        self.first > self.last
    }

    fn union(self, other: Rows) -> Rows {
        Rows {
            first: self.first.min(other.first),
            last: self.last.max(other.last),
        }
    }

    /// Rows within `reach` of this range (kept empty if it is), inside `0..n`.
    fn widen(self, reach: usize, n: usize) -> Rows {
        if self.is_empty() {
            return self;
        }
        Rows {
            first: self.first.saturating_sub(reach),
            last: self.last.saturating_add(reach).min(n - 1),
        }
    }

    /// Rows within `reach` of row `r`, inside `0..n` (and inside this range).
    fn near(self, r: usize, reach: usize, n: usize) -> Rows {
        let around = Rows::one(r).widen(reach, n);
        Rows {
            first: self.first.max(around.first),
            last: self.last.min(around.last),
        }
    }

    fn range(self) -> std::ops::Range<usize> {
        if self.is_empty() {
            0..0
        } else {
            self.first..self.last.saturating_add(1)
        }
    }
}

/// The black-to-move planes that white's moves read through symmetries.
#[derive(Debug, Clone, Copy)]
enum Plane {
    BlackWon,
    BlackLost,
}

fn bit(plane: &[u128], geo: &Geometry, at: At) -> bool {
    (plane[at.block * geo.n + at.row] >> at.col) & 1 != 0
}

/// Stores layer `d` as the distance of the states whose bits are set in `fresh` (row `i` of a
/// plane of the given side), when distances are being kept.
#[inline]
fn record(
    dist: &mut Option<(Vec<u32>, Vec<u32>)>,
    black: bool,
    n: usize,
    i: usize,
    fresh: u128,
    d: u32,
) {
    let Some((w, b)) = dist else { return };
    let out = if black { b } else { w };
    let mut bits = fresh;
    while bits != 0 {
        let c = bits.trailing_zeros() as usize;
        out[i * n + c] = d;
        bits &= bits - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::transpose;

    #[test]
    fn transpose_moves_every_bit_across_the_diagonal() {
        let mut a = [0u128; 128];
        // A pattern without symmetry: bit j of row i set when (i * 7 + j * 3) % 5 == 1.
        for (i, row) in a.iter_mut().enumerate() {
            for j in 0..128 {
                if (i * 7 + j * 3) % 5 == 1 {
                    *row |= 1 << j;
                }
            }
        }
        let original = a;
        transpose(&mut a);
        for (i, row) in original.iter().enumerate() {
            for (j, column) in a.iter().enumerate() {
                assert_eq!((column >> i) & 1, (row >> j) & 1, "({i}, {j})");
            }
        }
    }
}
