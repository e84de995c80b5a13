//! `duckchess train`: its command line.

use crate::cli::{self, Opt, Spec};
use crate::engine::nnue;
use crate::lab::train::*;
use crate::sys::file;
use std::io::{self, Write};
use std::path::Path;

/// The command line of `train`.
pub const SPEC: Spec = Spec {
    name: "train",
    summary: "train the evaluation network on selfplay's positions",
    usage: &["FILE... --out NET [--epochs N] [--scale K] [--lambda L] [--rate R] [--from NET0] [--max N] [--seed S] [--jobs J]"],
    about: "\
FILE holds lines 'NOTATION;SCORE;RESULT' as 'duckchess selfplay' writes them.
The network learns, for the side to move, L times the logistic of SCORE / K plus
1 - L times the result, each position as it is and mirrored left to right. The
last 3% of the positions read are held out. After each pass one line says the
mean squared error on the positions learnt and on those held out, and NET is
written whole (the engine's 'EvalFile' option reads it; 'nnue.net' in
src/engine is the one built in). At most N positions are kept, the first ones
read. A last line cut short (no newline, and it does not read: a selfplay
stopped or a full disk) is skipped with a note; any other bad line stops train.
With --from the training goes on from the network NET0 (a file train
wrote, or <built-in>) instead of random weights, at NET0's scale; a small
--rate keeps most of what it knew. NET may not be one of the FILEs.
Temporary files an earlier run stopped between writing NET and renaming it
left beside NET are removed.",
    options: &[
        Opt::valued("--out", "NET", "the network file to write (required)"),
        Opt::valued("--epochs", "N", "passes over the positions (default 10)"),
        Opt::valued(
            "--scale",
            "K",
            "centipawns per unit of the network's output (default 500, or NET0's)",
        ),
        Opt::valued(
            "--lambda",
            "L",
            "weight of the score in the target, in percent (default 75)",
        ),
        Opt::valued(
            "--rate",
            "R",
            "first step size, in millionths (default 1000)",
        ),
        Opt::valued(
            "--from",
            "NET0",
            "the network to go on from (default: random weights)",
        ),
        Opt::valued(
            "--max",
            "N",
            "most positions kept (default 10000000, about 0.7 GB)",
        ),
        Opt::valued("--seed", "S", "seed of the first weights and the order (default 1)"),
        Opt::valued("--jobs", "J", "threads (default 2)"),
    ],
    conflicts: &[],
    exit: "0 success, 1 a file that cannot be read or holds a bad line, too few\npositions, or a network that cannot be written, 2 usage error",
};

/// The `train` subcommand. Returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        if parsed.operands()?.is_empty() {
            return Err("missing FILE (positions that 'duckchess selfplay' wrote)".into());
        }
        let out = parsed
            .path("--out")?
            .ok_or("missing --out NET")?
            .to_string();
        let start = match parsed.path("--from")? {
            None => None,
            Some(path) => match nnue::read_file(path) {
                Ok(net) => Some(net.unwrap_or_else(nnue::built_in)),
                Err(e) => return Ok(cli::fail("train", &format!("--from: {e}"))),
            },
        };
        let scale = parsed.int("--scale", 1, 10_000)?.map(|s| s as u32);
        let scale = match (&start, scale) {
            (Some(net), Some(k)) if net.layers().scale != k => {
                return Err(format!(
                    "--scale {k} differs from the scale {} of the network --from names",
                    net.layers().scale
                ))
            }
            (Some(net), _) => net.layers().scale,
            (None, k) => k.unwrap_or(500),
        };
        let setup = TrainSetup {
            epochs: parsed.int("--epochs", 1, 1000)?.unwrap_or(10) as u32,
            scale,
            lambda: parsed.int("--lambda", 0, 100)?.unwrap_or(75) as f32 / 100.0,
            rate: parsed.int("--rate", 1, 1_000_000)?.unwrap_or(1000) as f32 / 1e6,
            seed: parsed.int("--seed", 0, u64::MAX)?.unwrap_or(1),
            jobs: parsed.int("--jobs", 1, 64)?.unwrap_or(2) as usize,
        };
        let limit = parsed.int("--max", 1, 100_000_000)?.unwrap_or(10_000_000) as usize;
        if let Some(input) = parsed
            .operands()?
            .iter()
            .find(|p| crate::sys::file::same_file(p, &out))
        {
            return Ok(cli::fail(
                "train",
                &format!("--out {out} is the input {input}: writing it would replace the positions; give another name"),
            ));
        }
        // A run stopped between writing the network and renaming it left its
        // temporary file beside it.
        file::remove_leftovers(Path::new(&out));
        let mut positions = Vec::new();
        for path in parsed.operands()? {
            match read(path, &mut positions, limit) {
                Ok(Some(note)) => cli::say("train", &note),
                Ok(None) => {}
                Err(e) => return Ok(cli::fail("train", &e)),
            }
        }
        if positions.len() * HELD_OUT / 1000 == 0 {
            return Ok(cli::fail(
                "train",
                &format!(
                    "{} to learn from: too few (at least {} are needed)",
                    cli::plural(positions.len() as u64, "position"),
                    1000 / HELD_OUT + 1
                ),
            ));
        }
        let mut stdout = io::stdout();
        let result = train(positions, &setup, start.as_deref(), |epoch, pass, bytes| {
            file::write_whole(Path::new(&out), &bytes)
                .map_err(|e| cli::fail("train", &format!("cannot write {out}: {e}")))?;
            let line = format!(
                "pass {epoch}: error {:.6} learnt, {:.6} held out\n",
                pass.train, pass.held_out
            );
            match stdout
                .write_all(line.as_bytes())
                .and_then(|_| stdout.flush())
            {
                Err(e) if !cli::is_closed(&e) => {
                    Err(cli::fail("train", &format!("cannot write the output: {e}")))
                }
                _ => Ok(()),
            }
        });
        Ok(match result {
            Ok(()) => cli::EXIT_OK,
            Err(status) => status,
        })
    })
}
