//! `duckchess train`: trains the learnt evaluation ([`crate::engine::nnue`]) on the
//! positions that `duckchess selfplay` writes.
//!
//! The network learns to predict, for the side to move, a blend of the search's score
//! (through a logistic curve of scale `--scale`) and the game's result, by gradient
//! descent (Adam) on the squared error, in batches shared among threads. Each position
//! is also learnt mirrored left to right: the rules do not tell the files apart. The
//! last positions read are held out to measure the error on games the network did not
//! learn from. After each pass over the positions the network is rounded to the
//! integers the engine computes with and written whole to the output file, so an
//! interrupted run leaves the last pass's network. Not on the judge path.

use crate::engine::nnue::{self, BUCKETS, HIDDEN, INPUTS, QA, QB};
use crate::judge::piece::{Color, PieceKind};
use crate::lab::selfplay::Sample;
use crate::sys::rng::Rng;
use std::io::{BufRead, BufReader, Read};

/// The longest line a positions file may have.
const MAX_LINE: usize = 4096;
/// Positions learnt per step.
const BATCH: usize = 16_384;
/// The share of the positions held out, in parts of a thousand.
pub const HELD_OUT: usize = 30;
/// The first layer's weights and biases stay within this (so that the engine's 16-bit
/// sums of 32 pieces cannot overflow at scale [`QA`]).
const CLIP_HIDDEN: f32 = 3.5;
/// The output weights stay within this (16 bits at scale [`QB`]).
const CLIP_OUTPUT: f32 = 63.0;

/// One position as the trainer keeps it: each piece as (colour x 7 + kind, square bit),
/// the side to move, and its targets from the side to move's point of view.
#[derive(Clone, Copy)]
pub struct Packed {
    pieces: [(u8, u8); 32],
    count: u8,
    red_to_move: bool,
    /// The search's score, in centipawns.
    score: i16,
    /// The game's result: 0, 1 or 2 halves.
    result: u8,
}

impl Packed {
    /// The position of `sample`, or `None` when it has more than 32 pieces.
    pub fn of(sample: &Sample) -> Option<Packed> {
        let mut p = Packed {
            pieces: [(0, 0); 32],
            count: 0,
            red_to_move: sample.board.side_to_move() == Color::Red,
            score: 0,
            result: 0,
        };
        for (square, piece) in sample.board.pieces() {
            let slot = p.pieces.get_mut(p.count as usize)?;
            *slot = (
                (piece.color.index() * 7 + piece.kind.index()) as u8,
                square.bit() as u8,
            );
            p.count += 1;
        }
        let (score, result) = if p.red_to_move {
            (sample.score, sample.result)
        } else {
            (-sample.score, 1.0 - sample.result)
        };
        p.score = score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16;
        p.result = (result * 2.0).round() as u8;
        Some(p)
    }

    /// The inputs of the side to move's view (`own` true) or the opponent's, the board
    /// mirrored left to right when `mirror`.
    fn inputs(&self, own: bool, mirror: bool, out: &mut [u16; 32]) -> usize {
        let viewer = if self.red_to_move == own {
            Color::Red
        } else {
            Color::Blue
        };
        for (i, &(code, bit)) in self.pieces[..self.count as usize].iter().enumerate() {
            let color = if code < 7 { Color::Red } else { Color::Blue };
            let kind = PieceKind::ALL[code as usize % 7];
            let (x, y) = (bit as usize / 9, bit as usize % 9);
            let y = if mirror { 8 - y } else { y };
            out[i] = nnue::input_at(viewer, color, kind, x, y) as u16;
        }
        self.count as usize
    }

    /// What the network should say: the blend of the score and the result.
    fn target(&self, scale: f32, lambda: f32) -> f32 {
        lambda * sigmoid(self.score as f32 / scale) + (1.0 - lambda) * self.result as f32 / 2.0
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network in floating point, as it is trained: the layout of
/// [`nnue::Network`] (first layer rows, its biases, each output's weights, the
/// outputs' biases) in one vector.
struct Weights {
    v: Vec<f32>,
}

const W1: usize = 0;
const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + BUCKETS * 2 * HIDDEN;
const PARAMS: usize = B2 + BUCKETS;

impl Weights {
    fn new(rng: &mut Rng) -> Weights {
        let mut small = |spread: f32| (rng.below(2001) as f32 / 1000.0 - 1.0) * spread;
        let mut v = vec![0f32; PARAMS];
        for x in &mut v[W1..B1] {
            *x = small(0.05);
        }
        for x in &mut v[B1..W2] {
            *x = 0.1;
        }
        for x in &mut v[W2..B2] {
            *x = small(0.1);
        }
        Weights { v }
    }

    /// The weights of `net` in floating point, to go on training from.
    fn of(net: &nnue::Network) -> Weights {
        let layers = net.layers();
        let mut v = Vec::with_capacity(PARAMS);
        let first = layers.w1.iter().flatten().chain(layers.b1);
        v.extend(first.map(|&x| x as f32 / QA as f32));
        let second = layers.w2.iter().flatten().flatten();
        v.extend(second.map(|&x| x as f32 / QB as f32));
        v.extend(layers.b2.iter().map(|&x| x as f32 / (QA * QB) as f32));
        Weights { v }
    }

    /// The output for one position's views; fills `hidden` with both views (side to
    /// move first) before clipping.
    fn forward(&self, views: [&[u16]; 2], bucket: usize, hidden: &mut [f32]) -> f32 {
        for (side, inputs) in views.iter().enumerate() {
            let h = &mut hidden[side * HIDDEN..(side + 1) * HIDDEN];
            h.copy_from_slice(&self.v[B1..W2]);
            for &i in inputs.iter() {
                let row = &self.v[W1 + i as usize * HIDDEN..W1 + (i as usize + 1) * HIDDEN];
                for (a, w) in h.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
        let w2 = &self.v[W2 + bucket * 2 * HIDDEN..W2 + (bucket + 1) * 2 * HIDDEN];
        let mut out = self.v[B2 + bucket];
        for (h, w) in hidden.iter().zip(w2) {
            out += h.clamp(0.0, 1.0) * w;
        }
        out
    }

    /// The network rounded as the engine reads it ([`nnue::Network::parse`]).
    fn quantized(&self, scale: u32) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(PARAMS * 2 + 64);
        bytes.extend_from_slice(nnue::MAGIC);
        for n in [HIDDEN as u32, BUCKETS as u32, scale] {
            bytes.extend_from_slice(&n.to_le_bytes());
        }
        let q = |x: f32, s: i32| ((x * s as f32).round() as i32).clamp(-32767, 32767) as i16;
        for &x in &self.v[W1..W2] {
            bytes.extend_from_slice(&q(x, QA).to_le_bytes());
        }
        for &x in &self.v[W2..B2] {
            bytes.extend_from_slice(&q(x, QB).to_le_bytes());
        }
        for &x in &self.v[B2..] {
            let b = (x * (QA * QB) as f32).round() as i32;
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        bytes
    }
}

/// How the network is trained.
#[derive(Clone, Copy, Debug)]
pub struct TrainSetup {
    /// Passes over the positions.
    pub epochs: u32,
    /// Centipawns per unit of the network's output (the logistic curve's scale).
    pub scale: u32,
    /// The weight of the search's score in the target, the rest the result's.
    pub lambda: f32,
    /// The first step's size.
    pub rate: f32,
    /// Threads that share each batch.
    pub jobs: usize,
    /// The seed of the first weights and of the order of the positions.
    pub seed: u64,
}

/// The gradient of the error over `batch` (each position once as it is and once
/// mirrored) added to `grad`; returns the summed error.
fn gradient(w: &Weights, batch: &[Packed], setup: &TrainSetup, grad: &mut [f32]) -> f64 {
    let mut hidden = vec![0f32; 2 * HIDDEN];
    let mut delta = vec![0f32; 2 * HIDDEN];
    let (mut own, mut other) = ([0u16; 32], [0u16; 32]);
    let mut error = 0f64;
    for p in batch {
        let bucket = nnue::bucket(p.count as u32);
        let target = p.target(setup.scale as f32, setup.lambda);
        for mirror in [false, true] {
            let n = p.inputs(true, mirror, &mut own);
            p.inputs(false, mirror, &mut other);
            let out = w.forward([&own[..n], &other[..n]], bucket, &mut hidden);
            let predicted = sigmoid(out);
            let miss = predicted - target;
            error += (miss * miss) as f64;
            let d = 2.0 * miss * predicted * (1.0 - predicted);
            grad[B2 + bucket] += d;
            let w2 = W2 + bucket * 2 * HIDDEN;
            for j in 0..2 * HIDDEN {
                let h = hidden[j];
                grad[w2 + j] += d * h.clamp(0.0, 1.0);
                delta[j] = if h > 0.0 && h < 1.0 {
                    d * w.v[w2 + j]
                } else {
                    0.0
                };
            }
            for (side, inputs) in [&own[..n], &other[..n]].iter().enumerate() {
                let ds = &delta[side * HIDDEN..(side + 1) * HIDDEN];
                for (g, d) in grad[B1..W2].iter_mut().zip(ds) {
                    *g += d;
                }
                for &i in inputs.iter() {
                    let at = W1 + i as usize * HIDDEN;
                    for (g, d) in grad[at..at + HIDDEN].iter_mut().zip(ds) {
                        *g += d;
                    }
                }
            }
        }
    }
    error
}

/// The mean error over `positions` (each as it is and mirrored).
fn mean_error(w: &Weights, positions: &[Packed], setup: &TrainSetup) -> f64 {
    let mut hidden = vec![0f32; 2 * HIDDEN];
    let (mut own, mut other) = ([0u16; 32], [0u16; 32]);
    let mut error = 0f64;
    for p in positions {
        let target = p.target(setup.scale as f32, setup.lambda);
        for mirror in [false, true] {
            let n = p.inputs(true, mirror, &mut own);
            p.inputs(false, mirror, &mut other);
            let out = w.forward(
                [&own[..n], &other[..n]],
                nnue::bucket(p.count as u32),
                &mut hidden,
            );
            let miss = sigmoid(out) - target;
            error += (miss * miss) as f64;
        }
    }
    error / (2 * positions.len().max(1)) as f64
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl Adam {
    fn update(&mut self, w: &mut Weights, grad: &[f32], rate: f32) {
        const B1M: f32 = 0.9;
        const B2M: f32 = 0.999;
        self.step += 1;
        let c1 = 1.0 - B1M.powi(self.step);
        let c2 = 1.0 - B2M.powi(self.step);
        for (i, &g) in grad.iter().enumerate() {
            self.m[i] = B1M * self.m[i] + (1.0 - B1M) * g;
            self.v[i] = B2M * self.v[i] + (1.0 - B2M) * g * g;
            let x = w.v[i] - rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            let clip = if i < W2 {
                CLIP_HIDDEN
            } else if i < B2 {
                CLIP_OUTPUT
            } else {
                f32::MAX
            };
            w.v[i] = x.clamp(-clip, clip);
        }
    }
}

/// One pass's figures.
#[derive(Clone, Copy, Debug)]
pub struct Pass {
    /// The mean squared error on the positions learnt from.
    pub train: f64,
    /// The same on the positions held out.
    pub held_out: f64,
}

/// Trains a network on `positions` (the last [`HELD_OUT`] thousandths held out),
/// starting from the weights of `start` (random ones when `None`), and calling
/// `after_pass` with each pass's figures and the network's bytes. Stops early when
/// `after_pass` returns an error, and returns it.
pub fn train<E>(
    mut positions: Vec<Packed>,
    setup: &TrainSetup,
    start: Option<&nnue::Network>,
    mut after_pass: impl FnMut(u32, Pass, Vec<u8>) -> Result<(), E>,
) -> Result<(), E> {
    let held = positions.len() * HELD_OUT / 1000;
    let held_out = positions.split_off(positions.len() - held);
    let mut rng = Rng::new(setup.seed);
    // The random weights are drawn even when a network is given, so that the order
    // of the positions is the same either way.
    let mut w = Weights::new(&mut rng);
    if let Some(net) = start {
        w = Weights::of(net);
    }
    let mut adam = Adam {
        m: vec![0.0; PARAMS],
        v: vec![0.0; PARAMS],
        step: 0,
    };
    let jobs = setup.jobs.max(1);
    let mut grads = vec![vec![0f32; PARAMS]; jobs];
    let mut total = vec![0f32; PARAMS];
    for epoch in 1..=setup.epochs {
        for i in (1..positions.len()).rev() {
            positions.swap(i, rng.below(i as u64 + 1) as usize);
        }
        // The step shrinks for the last half and the last quarter of the passes.
        let rate = setup.rate
            * if epoch * 4 > setup.epochs * 3 {
                0.1
            } else if epoch * 2 > setup.epochs {
                0.3
            } else {
                1.0
            };
        let mut error = 0f64;
        for batch in positions.chunks(BATCH) {
            let share = batch.len().div_ceil(jobs);
            let errors: Vec<f64> = std::thread::scope(|scope| {
                let w = &w;
                let handles: Vec<_> = batch
                    .chunks(share)
                    .zip(grads.iter_mut())
                    .map(|(part, g)| {
                        scope.spawn(move || {
                            g.iter_mut().for_each(|x| *x = 0.0);
                            gradient(w, part, setup, g)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .collect()
            });
            error += errors.iter().sum::<f64>();
            let parts = batch.len().div_ceil(share);
            let n = (2 * batch.len()) as f32;
            for (i, t) in total.iter_mut().enumerate() {
                *t = grads[..parts].iter().map(|g| g[i]).sum::<f32>() / n;
            }
            adam.update(&mut w, &total, rate);
        }
        let pass = Pass {
            train: error / (2 * positions.len().max(1)) as f64,
            held_out: mean_error(&w, &held_out, setup),
        };
        after_pass(epoch, pass, w.quantized(setup.scale))?;
    }
    Ok(())
}

/// Reads the positions of `path` (at most `limit` in all with `into`), in order. A
/// last line without its newline that does not read (a record cut short by a full
/// disk or a stopped `selfplay`) is skipped with a note, which is returned.
pub fn read(path: &str, into: &mut Vec<Packed>, limit: usize) -> Result<Option<String>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    let mut number = 0u64;
    while into.len() < limit {
        line.clear();
        let n = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read {path}: {e}"))?;
        if n == 0 {
            break;
        }
        number += 1;
        if line.len() > MAX_LINE {
            return Err(format!(
                "{path}:{number}: the line is longer than {MAX_LINE} bytes"
            ));
        }
        let text = std::str::from_utf8(&line)
            .map_err(|_| format!("{path}:{number}: the line is not text"))?
            .trim_end();
        if text.is_empty() {
            continue;
        }
        let sample: Sample = match text.parse() {
            Ok(sample) => sample,
            Err(e) if !line.ends_with(b"\n") => {
                return Ok(Some(format!(
                    "{path}:{number}: the last line is cut short ({e}): skipped"
                )))
            }
            Err(e) => return Err(format!("{path}:{number}: {e}")),
        };
        into.extend(Packed::of(&sample));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::Engine;
    use crate::lab::selfplay;

    /// Positions of a few short self-play games.
    fn positions() -> Vec<Packed> {
        let setup = selfplay::SelfplaySetup {
            nodes: 200,
            opening: 6,
            seed: 9,
            evaluation: crate::engine::nnue::Evaluation::default(),
        };
        let mut engine = Engine::with_hash(1);
        (1..=12)
            .flat_map(|i| selfplay::play(&setup, i, &mut engine))
            .filter_map(|s| Packed::of(&s))
            .collect()
    }

    #[test]
    fn a_torn_last_line_is_skipped_with_a_note_and_a_bad_one_refused() {
        let dir = std::env::temp_dir().join(format!("duckchess-train-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.txt");
        let path_text = path.to_str().unwrap();
        let whole = "4k4/9/9/9/9/9/9/9/9/4K4 r;12;1\n";
        std::fs::write(&path, format!("{whole}{whole}4k4/9/9/9/9/9/9/9/9/4K4 r;1")).unwrap();
        let mut positions = Vec::new();
        let note = read(path_text, &mut positions, 100).unwrap();
        assert_eq!(
            note.unwrap(),
            format!("{path_text}:3: the last line is cut short (expected NOTATION;SCORE;RESULT (three fields separated by ';')): skipped")
        );
        assert_eq!(positions.len(), 2);
        // The same line with its newline is a bad line.
        std::fs::write(&path, format!("{whole}4k4/9/9/9/9/9/9/9/9/4K4 r;1\n")).unwrap();
        assert!(read(path_text, &mut Vec::new(), 100).is_err());
        // --out naming an input, by another path too, is refused.
        assert!(crate::sys::file::same_file(path_text, path_text));
        let other = format!("{}/./games.txt", dir.display());
        assert!(crate::sys::file::same_file(path_text, &other));
        assert!(!crate::sys::file::same_file(
            path_text,
            dir.join("other.net").to_str().unwrap()
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn training_lowers_the_error_and_writes_a_network_the_engine_reads() {
        let positions = positions();
        assert!(positions.len() > 300, "{} positions", positions.len());
        let setup = TrainSetup {
            epochs: 4,
            scale: 500,
            lambda: 0.75,
            rate: 0.002,
            jobs: 2,
            seed: 3,
        };
        let mut passes = Vec::new();
        let mut last = Vec::new();
        train(positions.clone(), &setup, None, |_, pass, bytes| {
            passes.push(pass);
            last = bytes;
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(passes.len(), 4);
        assert!(
            passes[3].train < passes[0].train,
            "the error on the positions learnt went from {} to {}",
            passes[0].train,
            passes[3].train
        );
        let net = nnue::Network::parse(&last).unwrap();
        let board = crate::judge::board::Board::start();
        let score = net.evaluate(&net.accumulate(&board), Color::Red);
        assert!(score.abs() < 200, "the start position scores {score}");
    }

    #[test]
    fn the_same_seed_trains_the_same_network() {
        let positions = positions();
        let setup = TrainSetup {
            epochs: 1,
            scale: 500,
            lambda: 0.5,
            rate: 0.001,
            jobs: 2,
            seed: 4,
        };
        let run = |jobs| {
            let mut out = Vec::new();
            train(
                positions.clone(),
                &TrainSetup { jobs, ..setup },
                None,
                |_, _, b| {
                    out = b;
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
            out
        };
        assert!(run(2) == run(2));
    }

    #[test]
    fn a_network_read_back_for_training_rounds_to_the_same_bytes() {
        let bytes: &[u8] = include_bytes!("../engine/nnue.net");
        let net = nnue::Network::parse(bytes).unwrap();
        let again = Weights::of(&net).quantized(net.layers().scale);
        assert!(again == bytes, "the built-in network does not round-trip");
    }

    #[test]
    fn training_goes_on_from_the_network_it_is_given() {
        let positions = positions();
        let setup = TrainSetup {
            epochs: 1,
            scale: nnue::built_in().layers().scale,
            lambda: 0.75,
            rate: 0.0001,
            jobs: 2,
            seed: 5,
        };
        let first_error = |start: Option<&nnue::Network>| {
            let mut error = 0.0;
            train(positions.clone(), &setup, start, |_, pass, _| {
                error = pass.held_out;
                Ok::<(), ()>(())
            })
            .unwrap();
            error
        };
        // One small step from the built-in network still predicts its own games far
        // better than one small step from random weights.
        let (from_random, from_built_in) =
            (first_error(None), first_error(Some(&nnue::built_in())));
        assert!(
            from_built_in < from_random * 0.8,
            "held-out error {from_built_in} from the built-in network, {from_random} from random weights"
        );
    }

    #[test]
    fn the_mirrored_view_mirrors_the_files() {
        let sample: Sample = "4k4/9/9/9/9/9/9/9/9/R3K4 r;10;1".parse().unwrap();
        let p = Packed::of(&sample).unwrap();
        let (mut plain, mut mirrored) = ([0u16; 32], [0u16; 32]);
        let n = p.inputs(true, false, &mut plain);
        p.inputs(true, true, &mut mirrored);
        let files = |v: &[u16]| {
            let mut f: Vec<usize> = v.iter().map(|&i| i as usize % 90 % 9).collect();
            f.sort();
            f
        };
        assert_eq!(files(&plain[..n]), vec![0, 4, 4]);
        assert_eq!(files(&mirrored[..n]), vec![4, 4, 8]);
    }
}
