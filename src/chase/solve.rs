//! The exact solver: layered retrograde analysis over bit planes (see the folder's
//! module doc for the method).

use super::geometry::{to_cell, At, Geometry, Rows, Source};
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
