//! The learnt evaluation: a small neural network over where each piece stands, read
//! from the side to move's point of view and from the opponent's, efficiently updated
//! as moves are made (an "NNUE", as modern chess engines evaluate).
//!
//! Each side's view is [`HIDDEN`] numbers, the sum of one learnt row per piece on the
//! board (the row of the piece's kind, whether it is the viewer's own, and its square
//! seen from the viewer's edge). A move changes two or three pieces' squares, so the
//! search updates the sums instead of adding them up again ([`Accumulator::after`]).
//! The output is a weighted sum of both views, each number clipped to 0..1, scaled to
//! centipawns.
//!
//! The weights are trained by `duckchess train` on positions of the engine's own
//! games and stored in `nnue.net` beside this file, embedded in the binary.

use crate::judge::board::Board;
use crate::judge::piece::{Color, Piece, PieceKind, Square};
use std::sync::{Arc, OnceLock};

/// The numbers of each side's view.
pub const HIDDEN: usize = 256;
/// The inputs of one view: 2 owners x 7 kinds x 90 squares.
pub const INPUTS: usize = 2 * 7 * 90;
/// The scale of the first layer's weights: 1.0 is stored as this.
pub const QA: i32 = 255;
/// The scale of the output layer's weights.
pub const QB: i32 = 512;
/// The output layers, one for each stage of the game by the number of pieces left.
pub const BUCKETS: usize = 8;

/// The output layer for a board of `pieces` pieces (captains included).
#[inline]
pub fn bucket(pieces: u32) -> usize {
    ((pieces.max(2) as usize - 2) * BUCKETS / 31).min(BUCKETS - 1)
}

/// The network's weights, quantized.
pub struct Network {
    /// One row of [`HIDDEN`] per input.
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    /// For each output layer: the weights of the side to move's view, then of the
    /// opponent's.
    w2: [[[i16; HIDDEN]; 2]; BUCKETS],
    /// Each output's bias, at the scale `QA * QB`.
    b2: [i32; BUCKETS],
    /// Centipawns per unit of output.
    scale: i32,
}

/// A network's quantized numbers, layer by layer (what `duckchess train` goes on from).
pub struct Layers<'a> {
    /// One row of [`HIDDEN`] per input, at the scale [`QA`].
    pub w1: &'a [[i16; HIDDEN]],
    /// The first layer's biases, at the scale [`QA`].
    pub b1: &'a [i16; HIDDEN],
    /// Each output's weights of the side to move's view, then the opponent's, at the
    /// scale [`QB`].
    pub w2: &'a [[[i16; HIDDEN]; 2]; BUCKETS],
    /// Each output's bias, at the scale `QA * QB`.
    pub b2: &'a [i32; BUCKETS],
    /// Centipawns per unit of output.
    pub scale: u32,
}

/// Both sides' views of one position, by [`Color::index`] of the viewer.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub v: [[i16; HIDDEN]; 2],
    /// The pieces on the board, captains included.
    pub pieces: u32,
}

/// One move as the views see it: `piece` from `from` to `to`, taking `captured`.
#[derive(Clone, Copy)]
struct Step {
    piece: Piece,
    from: Square,
    to: Square,
    captured: Option<Piece>,
}

/// Why a network file was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetError(pub String);

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"DCNNUE01";

/// The input of `piece` on `square` in the view of `viewer`: the board is seen from
/// the viewer's own edge, so that both colours share the weights.
#[inline]
pub fn input(viewer: Color, piece: Piece, square: Square) -> usize {
    let bit = square.bit() as usize;
    input_at(viewer, piece.color, piece.kind, bit / 9, bit % 9)
}

/// The input of a `color` `kind` on row `x` and file `y` in the view of `viewer`.
#[inline]
pub fn input_at(viewer: Color, color: Color, kind: PieceKind, x: usize, y: usize) -> usize {
    let owner = usize::from(color != viewer);
    let x = if viewer == Color::Red { x } else { 9 - x };
    (owner * 7 + kind.index()) * 90 + x * 9 + y
}

impl Network {
    /// Reads a network file: [`MAGIC`], the hidden size, the number of output layers
    /// and the scale (u32 each), then
    /// the first layer's rows, its biases, the output weights (i16 each) and the
    /// output's bias (i32), all little-endian.
    pub fn parse(bytes: &[u8]) -> Result<Network, NetError> {
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], NetError> {
            let s = bytes
                .get(at..at + n)
                .ok_or_else(|| NetError(format!("network file ends at byte {at}")))?;
            at += n;
            Ok(s)
        };
        if take(8)? != MAGIC {
            return Err(NetError("not a network file (bad magic)".into()));
        }
        let u32_at = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let hidden = u32_at(take(4)?) as usize;
        let buckets = u32_at(take(4)?) as usize;
        if (hidden, buckets) != (HIDDEN, BUCKETS) {
            return Err(NetError(format!(
                "network of {hidden} hidden numbers and {buckets} outputs, this build needs {HIDDEN} and {BUCKETS}"
            )));
        }
        let scale = u32_at(take(4)?);
        let mut i16s = |n: usize| -> Result<Vec<i16>, NetError> {
            Ok(take(n * 2)?
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect())
        };
        let w1 = i16s(INPUTS * HIDDEN)?;
        let b1 = i16s(HIDDEN)?;
        let w2 = i16s(BUCKETS * 2 * HIDDEN)?;
        let mut b2 = [0i32; BUCKETS];
        for b in b2.iter_mut() {
            *b = i32::from_le_bytes(take(4)?.try_into().unwrap_or([0; 4]));
        }
        if at != bytes.len() {
            return Err(NetError(format!(
                "network file has {} bytes after its end",
                bytes.len() - at
            )));
        }
        check_ranges(scale, &w1, &b1, &w2, &b2)?;
        let row = |s: &[i16]| {
            let mut r = [0i16; HIDDEN];
            r.copy_from_slice(s);
            r
        };
        Ok(Network {
            w1: w1.chunks_exact(HIDDEN).map(row).collect(),
            b1: row(&b1),
            w2: std::array::from_fn(|b| {
                let at = b * 2 * HIDDEN;
                [
                    row(&w2[at..at + HIDDEN]),
                    row(&w2[at + HIDDEN..at + 2 * HIDDEN]),
                ]
            }),
            b2,
            scale: scale as i32,
        })
    }

    /// The network's numbers.
    pub fn layers(&self) -> Layers<'_> {
        Layers {
            w1: &self.w1,
            b1: &self.b1,
            w2: &self.w2,
            b2: &self.b2,
            scale: self.scale as u32,
        }
    }

    /// Both views of `board`, added up from nothing.
    pub fn accumulate(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            v: [self.b1, self.b1],
            pieces: 0,
        };
        for (square, piece) in board.pieces() {
            acc.pieces += 1;
            for viewer in Color::ALL {
                add(
                    &mut acc.v[viewer.index()],
                    &self.w1[input(viewer, piece, square)],
                );
            }
        }
        acc
    }

    /// The views after `piece` moved from `from` to `to`, taking `captured` there.
    #[inline]
    pub fn after(
        &self,
        acc: &Accumulator,
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    ) -> Accumulator {
        let step = Step {
            piece,
            from,
            to,
            captured,
        };
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the processor has AVX2, all that a function compiled for it needs.
            return unsafe { self.after_avx2(acc, step) };
        }
        self.after_any(acc, step)
    }

    /// [`Network::after`] compiled for AVX2 (16 numbers an instruction instead of 8).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn after_avx2(&self, acc: &Accumulator, step: Step) -> Accumulator {
        self.after_any(acc, step)
    }

    /// [`Network::after`] for any processor: the loops the compiler vectorizes for the
    /// instructions of the function it is inlined into.
    #[inline(always)]
    fn after_any(&self, acc: &Accumulator, step: Step) -> Accumulator {
        let Step {
            piece,
            from,
            to,
            captured,
        } = step;
        let mut next = Accumulator {
            v: [[0; HIDDEN]; 2],
            pieces: acc.pieces - u32::from(captured.is_some()),
        };
        for viewer in Color::ALL {
            let v = viewer.index();
            let gone = &self.w1[input(viewer, piece, from)];
            let come = &self.w1[input(viewer, piece, to)];
            let (src, dst) = (&acc.v[v], &mut next.v[v]);
            match captured {
                None => {
                    for j in 0..HIDDEN {
                        dst[j] = src[j] - gone[j] + come[j];
                    }
                }
                Some(c) => {
                    let taken = &self.w1[input(viewer, c, to)];
                    for j in 0..HIDDEN {
                        dst[j] = src[j] - gone[j] + come[j] - taken[j];
                    }
                }
            }
        }
        next
    }

    /// The evaluation in centipawns for `side` to move, from the views in `acc`.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side: Color) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the processor has AVX2, all that a function compiled for it needs.
            return unsafe { self.evaluate_avx2(acc, side) };
        }
        self.evaluate_any(acc, side)
    }

    /// [`Network::evaluate`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_avx2(&self, acc: &Accumulator, side: Color) -> i32 {
        self.evaluate_any(acc, side)
    }

    /// [`Network::evaluate`] for any processor (see [`Network::after_any`]).
    #[inline(always)]
    fn evaluate_any(&self, acc: &Accumulator, side: Color) -> i32 {
        let own = &acc.v[side.index()];
        let other = &acc.v[side.opponent().index()];
        let b = bucket(acc.pieces);
        let sum = dot(own, &self.w2[b][0]) + dot(other, &self.w2[b][1]) + self.b2[b];
        (sum as i64 * self.scale as i64 / (QA * QB) as i64) as i32
    }
}

/// The largest evaluation a network may ever give, in centipawns: far enough below
/// the mate scores ([`crate::engine::tt::MATE_BOUND`]) that no position evaluates as a
/// mate, and within the `i16` the transposition table keeps it in.
pub const MAX_OUTPUT: i64 = 28_000;
/// The most pieces a board may hold: one a square (a position given by notation may
/// hold more than a game reaches).
const MAX_PIECES_SQUARES: usize = 90;

/// Refuses a network whose arithmetic could overflow on some board, or whose scale
/// makes every evaluation 0: a view's number (its bias plus one row per piece, at most
/// one piece a square, and one more while a capture is being undone) must fit `i16`;
/// an output's sum (views clipped to 0..[`QA`]) must fit `i32`; and the evaluation
/// must stay within [`MAX_OUTPUT`].
fn check_ranges(
    scale: u32,
    w1: &[i16],
    b1: &[i16],
    w2: &[i16],
    b2: &[i32; BUCKETS],
) -> Result<(), NetError> {
    if scale == 0 {
        return Err(NetError(
            "its scale is 0: every evaluation would be 0".into(),
        ));
    }
    for j in 0..HIDDEN {
        let weight = |input: usize| i64::from(w1[input * HIDDEN + j]).abs();
        let mut most = i64::from(b1[j]).abs();
        let mut largest = 0;
        for square in 0..MAX_PIECES_SQUARES {
            let on_square = (0..14).map(|k| weight(k * 90 + square)).max().unwrap_or(0);
            most += on_square;
            largest = largest.max(on_square);
        }
        if most + largest > i64::from(i16::MAX) {
            return Err(NetError(format!(
                "its first layer can overflow: hidden number {j} can reach {}, beyond {}",
                most + largest,
                i16::MAX
            )));
        }
    }
    for (b, bias) in b2.iter().enumerate() {
        let weights = &w2[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN];
        let sum: i64 = weights
            .iter()
            .map(|&w| i64::from(w).abs() * i64::from(QA))
            .sum::<i64>()
            + i64::from(*bias).abs();
        if sum > i64::from(i32::MAX) {
            return Err(NetError(format!(
                "its output {b} can overflow: its sum can reach {sum}, beyond {}",
                i32::MAX
            )));
        }
        let cp = i128::from(sum) * i128::from(scale) / i128::from(QA * QB);
        if cp > i128::from(MAX_OUTPUT) {
            return Err(NetError(format!(
                "its output {b} can reach {cp} centipawns, beyond {MAX_OUTPUT} (too near the mate scores)"
            )));
        }
    }
    Ok(())
}

/// Whether the processor has AVX2 (the standard library looks it up once and keeps
/// the answer): the network's loops then run in its wider registers, with the same
/// results to the bit (integer arithmetic).
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[inline]
fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for j in 0..HIDDEN {
        acc[j] += row[j];
    }
}

/// The clipped view times the weights.
#[inline(always)]
fn dot(view: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for j in 0..HIDDEN {
        sum += i32::from(view[j].clamp(0, QA as i16)) * i32::from(weights[j]);
    }
    sum
}

/// The network this build carries.
pub fn built_in() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| match Network::parse(include_bytes!("nnue.net")) {
        Ok(net) => Arc::new(net),
        // The file is part of the source and a test reads it: this cannot happen in a
        // build that passed its tests.
        Err(e) => panic!("the built-in network: {e}"),
    })
    .clone()
}

/// What a search evaluates positions with: a network (the built-in one, or one read
/// from a file) or the hand-written evaluation of [`crate::engine::eval`]. Each UCI
/// session and each `selfplay` run holds its own, so two searches in one process can
/// evaluate differently; [`Evaluation::default`] is the built-in network.
#[derive(Clone, Default)]
pub struct Evaluation {
    /// The hand-written evaluation instead of a network (the UCI option `Use NNUE`
    /// set to false).
    pub classic: bool,
    /// The network read from a file (the UCI option `EvalFile`); `None` for the
    /// built-in one.
    pub file: Option<Arc<Network>>,
}

impl Evaluation {
    /// The network to evaluate with, or `None` for the hand-written evaluation.
    pub fn network(&self) -> Option<Arc<Network>> {
        (!self.classic).then(|| self.file.clone().unwrap_or_else(built_in))
    }
}

/// The most bytes a network file may have.
pub const MAX_FILE: u64 = 16 << 20;

/// Reads the network at `path` (the UCI option `EvalFile`): `None` for an empty path
/// or `<built-in>`, which stand for the built-in network.
pub fn read_file(path: &str) -> Result<Option<Arc<Network>>, NetError> {
    if path.is_empty() || path == "<built-in>" {
        return Ok(None);
    }
    let bytes = crate::cli::read_small_file(path, MAX_FILE)
        .map_err(|e| NetError(format!("cannot read {path}: {e}")))?;
    let net = Network::parse(&bytes).map_err(|e| NetError(format!("{path}: {e}")))?;
    Ok(Some(Arc::new(net)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls `f` with the views of each of `count` random positions (from `seed`),
    /// each legal move there as the views see it, and the board after it.
    fn each_move(seed: u64, count: usize, mut f: impl FnMut(&Accumulator, Step, &Board)) {
        let net = built_in();
        for board in crate::engine::random_positions(seed, count) {
            let acc = net.accumulate(&board);
            for m in crate::judge::rules::legal_moves(&board) {
                let mut b = board.clone();
                let piece = b.piece_at(m.from).unwrap();
                let captured = b.make_move(m.from, m.to);
                let step = Step {
                    piece,
                    from: m.from,
                    to: m.to,
                    captured,
                };
                f(&acc, step, &b);
            }
        }
    }

    #[test]
    fn the_updated_views_are_the_views_added_up_again() {
        let net = built_in();
        each_move(11, 40, |acc, s, after| {
            let next = net.after(acc, s.piece, s.from, s.to, s.captured);
            let again = net.accumulate(after);
            assert!(
                next.v == again.v && next.pieces == again.pieces,
                "{after} {:?} {:?}",
                s.from,
                s.to
            );
        });
    }

    #[test]
    fn the_avx2_loops_give_the_portable_results() {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            let net = built_in();
            each_move(12, 40, |acc, step, after| {
                let any = net.after_any(acc, step);
                // SAFETY: the processor has AVX2 (checked above).
                let wide = unsafe { net.after_avx2(acc, step) };
                assert!(
                    any.v == wide.v && any.pieces == wide.pieces,
                    "{after} {:?} {:?}",
                    step.from,
                    step.to
                );
                for side in Color::ALL {
                    // SAFETY: as above.
                    let e = unsafe { net.evaluate_avx2(&any, side) };
                    assert_eq!(net.evaluate_any(&any, side), e, "{after} {side:?}");
                }
            });
            return;
        }
        println!("note: this processor has no AVX2: only the portable loops run here");
    }

    #[test]
    fn a_bad_file_is_an_error() {
        assert!(Network::parse(b"").is_err());
        assert!(Network::parse(b"DCNNUE01\x01\x00\x00\x00").is_err());
        let good = include_bytes!("nnue.net");
        assert!(Network::parse(&good[..good.len() - 1]).is_err());
    }

    /// The built-in network with its scale (bytes 16..20) and weights replaced.
    fn altered(scale: u32, weight: Option<i16>) -> Vec<u8> {
        let mut bytes = include_bytes!("nnue.net").to_vec();
        bytes[16..20].copy_from_slice(&scale.to_le_bytes());
        if let Some(w) = weight {
            let end = bytes.len() - 4 * BUCKETS;
            for pair in bytes[20..end].chunks_exact_mut(2) {
                pair.copy_from_slice(&w.to_le_bytes());
            }
        }
        bytes
    }

    #[test]
    fn a_network_that_could_overflow_or_says_nothing_is_refused() {
        let error = |bytes: &[u8]| Network::parse(bytes).err().map(|e| e.0).unwrap_or_default();
        assert!(
            Network::parse(&altered(500, None)).is_ok(),
            "the built-in network"
        );
        assert_eq!(
            error(&altered(0, None)),
            "its scale is 0: every evaluation would be 0"
        );
        for w in [i16::MAX, i16::MIN, 1000] {
            assert!(
                error(&altered(500, Some(w))).starts_with("its first layer can overflow"),
                "{w}"
            );
        }
        assert!(error(&altered(u32::MAX, None)).contains("too near the mate scores"));
        // Small first-layer weights and the largest output weights: the sum overflows.
        let mut bytes = altered(1, Some(1));
        let w2 = bytes.len() - 4 * BUCKETS - 2 * 2 * HIDDEN * BUCKETS;
        for pair in bytes[w2..w2 + 4 * HIDDEN].chunks_exact_mut(2) {
            pair.copy_from_slice(&i16::MIN.to_le_bytes());
        }
        assert!(
            error(&bytes).starts_with("its output 0 can overflow"),
            "{}",
            error(&bytes)
        );
    }
}
