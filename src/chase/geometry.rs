//! The board's geometry for the solver: white folded into one eighth of the board by the
//! square's symmetries, one bit per black square in a `u128` per row, and the bit-matrix
//! operations the layers use.

/// White's one-square steps.
pub(super) const STEPS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

pub(super) fn to_cell((row, col): (u32, u32)) -> (i32, i32) {
    // Validated to 1..=MAX_N, so these fit.
    (row as i32 - 1, col as i32 - 1)
}

/// A symmetry of the square as applied to black's square: optional row flip and column flip,
/// then an optional swap of row and column.
pub(super) type Sym = u8;
pub(super) const ROW_FLIP: Sym = 1;
pub(super) const COL_FLIP: Sym = 2;
pub(super) const SWAP: Sym = 4;

/// Where a state's bit lives: block (white's folded square), row and column of black.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct At {
    pub(super) block: usize,
    pub(super) row: usize,
    pub(super) col: usize,
}

/// Where white-move successors of a block are read from: a block of a plane, taken as it is
/// or through a symmetry (then from a scratch copy prepared before each pass).
#[derive(Debug, Clone, Copy)]
pub(super) enum Source {
    Direct(usize),
    Scratch(usize),
}

/// Board geometry and the symmetry reduction (0-based coordinates).
///
/// White is folded into the triangle `0 <= row <= col <= (n - 1) / 2`, one block per square of
/// it; a block holds one bit per square of black, one `u128` per board row (`n <= 100 < 128`),
/// so black's moves are shifts within a row or steps between rows. Blocks are stored for every
/// black square, so a white square on a fold axis may use any folding symmetry.
pub(super) struct Geometry {
    pub(super) n: usize,
    /// `n - 1`, the mirror of coordinate `x` being `m - x`.
    pub(super) m: i32,
    /// Bits of the columns that exist.
    pub(super) cols: u128,
    /// White's square of each block.
    pub(super) cells: Vec<(i32, i32)>,
    /// Block number of each folded white square, by `row * n + col`.
    pub(super) block_of: Vec<usize>,
    /// For each block, the sources of white's up to four moves (missing moves are `None`).
    pub(super) links: Vec<[Option<Source>; 4]>,
    /// The blocks and symmetries that scratch copies are made of, in scratch slot order.
    pub(super) transformed: Vec<(usize, Sym)>,
}

impl Geometry {
    pub(super) fn new(n: usize) -> Geometry {
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

    pub(super) fn on(&self, (r, c): (i32, i32)) -> bool {
        let n = self.n as i32;
        r >= 0 && r < n && c >= 0 && c < n
    }

    /// Folds white's square into the triangle; the symmetry is to be applied to black too.
    pub(super) fn fold(&self, (mut r, mut c): (i32, i32)) -> ((i32, i32), Sym) {
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

    pub(super) fn apply(&self, sym: Sym, (mut r, mut c): (i32, i32)) -> (i32, i32) {
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
    pub(super) fn locate(&self, w: (i32, i32), b: (i32, i32)) -> At {
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
    pub(super) fn row_mask(&self, (wr, wc): (i32, i32), r: usize, reach: i32) -> u128 {
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
    pub(super) fn transform(&self, plane: &[u128], src: usize, sym: Sym, out: &mut [u128]) {
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
pub(super) fn transpose(a: &mut [u128; 128]) {
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

/// A range of rows of a block, `first..=last`, empty when `first > last`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Rows {
    pub(super) first: usize,
    pub(super) last: usize,
}

impl Rows {
    pub(super) const EMPTY: Rows = Rows {
        first: usize::MAX,
        last: 0,
    };
    /// Every row; narrowed to the board by [`Rows::near`] or [`Rows::widen`].
    pub(super) const ALL: Rows = Rows {
        first: 0,
        last: usize::MAX,
    };

    pub(super) fn one(r: usize) -> Rows {
        Rows { first: r, last: r }
    }

    pub(super) fn is_empty(self) -> bool {
        self.first > self.last
    }

    pub(super) fn union(self, other: Rows) -> Rows {
        Rows {
            first: self.first.min(other.first),
            last: self.last.max(other.last),
        }
    }

    /// Rows within `reach` of this range (kept empty if it is), inside `0..n`.
    pub(super) fn widen(self, reach: usize, n: usize) -> Rows {
        if self.is_empty() {
            return self;
        }
        Rows {
            first: self.first.saturating_sub(reach),
            last: self.last.saturating_add(reach).min(n - 1),
        }
    }

    /// Rows within `reach` of row `r`, inside `0..n` (and inside this range).
    pub(super) fn near(self, r: usize, reach: usize, n: usize) -> Rows {
        let around = Rows::one(r).widen(reach, n);
        Rows {
            first: self.first.max(around.first),
            last: self.last.min(around.last),
        }
    }

    pub(super) fn range(self) -> std::ops::Range<usize> {
        if self.is_empty() {
            0..0
        } else {
            self.first..self.last.saturating_add(1)
        }
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
