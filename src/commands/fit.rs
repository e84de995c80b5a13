//! `duckchess fit`: its command line, and the fitted values written out.

use crate::cli::{self, Opt, Spec};
use crate::engine::eval::{self};
use crate::judge::piece::PieceKind;
use crate::lab::fit::*;
use std::io::{self, Write};

/// The command line of `fit`.
pub const SPEC: Spec = Spec {
    name: "fit",
    summary: "fit the piece values on the games of match records",
    usage: &["RECORD... [--skip PLIES] [--terms]"],
    about: "\
RECORD is a file that 'duckchess match --record' wrote. Every game is replayed
through the rules and must end as its result line says: as many moves, and the
captain captured, the 300-ply limit reached or the side to move stuck as said
(or, for a forfeit, none of these). Its positions from ply PLIES on, where neither the last move
nor the next is a capture, are fitted by logistic regression of red's score on
the material difference. Prints each kind's fitted value (the horse at 300) next
to the built-in one, the edge of having the move, and the values as UCI options
for 'match --engine-options'.

With --terms, red's score is regressed on every feature of the evaluation
instead: the material, the mobility, the pressure on the captain, the tempo and
each positional term (all that 'uci' offers as weights), counted whether its
weight is 0 or not. Prints each weight fitted (the horse at 300) with its 95%
margin next to the built-in one, then the weights as UCI options. At most
1,000,000 positions are kept, the first ones read.",
    options: &[
        Opt::valued(
            "--skip",
            "PLIES",
            "leave out each game's first PLIES plies, the opening (default 16)",
        ),
        Opt::flag(
            "--terms",
            "fit every weight of the evaluation, not only the material",
        ),
    ],
    conflicts: &[],
    exit: "0 success, 1 a record that cannot be read or does not add up, or games \
           that cannot be fitted (too few, or all with the same result), 2 usage error",
};

/// The `fit` subcommand. Returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        if parsed.operands()?.is_empty() {
            return Err("missing RECORD".to_string());
        }
        let skip = match parsed.value("--skip") {
            None => 16,
            Some(v) => cli::args::int_in(v, 0, 1000).map_err(|e| format!("--skip: {e}"))? as usize,
        };
        let mut samples = Samples::default();
        if parsed.flag("--terms") {
            samples.terms = Some(Vec::new());
        }
        for path in parsed.operands()? {
            let file = match cli::open_input("fit", Some(path.as_ref())) {
                Ok(f) => f,
                Err(status) => return Ok(status),
            };
            if let Err(e) = read_record(file, &mut samples, skip) {
                return Ok(cli::fail("fit", &format!("{path}: {e}")));
            }
        }
        if let Some(problem) = samples.one_sided() {
            return Ok(cli::fail("fit", &problem));
        }
        let text = if samples.terms.is_some() {
            fit_terms(&samples).map(|model| terms_report(&samples, skip, &model))
        } else {
            fit(&samples)
                .and_then(|f| f.values().map(|v| (f, v)))
                .map(|(model, values)| report(&samples, skip, &model, &values))
        };
        let Some(text) = text else {
            return Ok(cli::fail(
                "fit",
                &format!(
                    "{} and {} are too few to fit",
                    cli::plural(samples.games, "game"),
                    cli::plural(samples.positions, "position")
                ),
            ));
        };
        let mut out = io::stdout().lock();
        Ok(cli::output_status(
            "fit",
            out.write_all(text.as_bytes()).and_then(|_| out.flush()),
        ))
    })
}

/// The printed result of a fit of every weight.
fn terms_report(samples: &Samples, skip: usize, model: &TermFit) -> String {
    let kept = samples.terms.as_ref().map_or(0, Vec::len);
    let mut text = format!(
        "{} ({} drawn), {} (from ply {} on, no capture before or after)\n",
        cli::plural(samples.games, "game"),
        samples.draws,
        cli::plural(kept as u64, "quiet position"),
        skip,
    );
    text.push_str("weight              fitted  margin  built-in\n");
    let mut options = Vec::new();
    for &(i, value, margin) in &model.weights {
        let weight = &eval::WEIGHTS[i];
        text.push_str(&format!(
            "{:<18} {value:>7} {:>7} {:>9}\n",
            weight.name,
            format!("±{margin}"),
            weight.default
        ));
        options.push(format!(
            "{}={}",
            weight.name,
            value.clamp(weight.min, weight.max)
        ));
    }
    text.push_str(&format!(
        "red's edge, all else equal: {:+.3} (logits of red's score)\n",
        model.red_edge
    ));
    text.push_str(&format!("options: {}\n", options.join(";")));
    text
}

/// The printed result of a fit.
fn report(samples: &Samples, skip: usize, model: &Fit, values: &[i32; KINDS]) -> String {
    let mut text = format!(
        "{} ({} drawn), {} (from ply {} on, no capture before or after)\n",
        cli::plural(samples.games, "game"),
        samples.draws,
        cli::plural(samples.positions, "quiet position"),
        skip,
    );
    text.push_str("kind        fitted  built-in\n");
    let mut options = Vec::new();
    for (kind, value) in PieceKind::ALL[1..].iter().zip(values) {
        let weight = &eval::WEIGHTS[kind.index()];
        text.push_str(&format!(
            "{:<10} {value:>7} {:>9}\n",
            kind.name(),
            weight.default
        ));
        options.push(format!("{}={value}", weight.name));
    }
    text.push_str(&format!(
        "having the move, material equal: red {:+.3}, blue {:+.3} (logits of red's score)\n",
        model.red_to_move, model.blue_to_move
    ));
    text.push_str(&format!("options: {}\n", options.join(";")));
    text
}
