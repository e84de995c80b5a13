//! `duckchess gen`: the command line over the generators ([`crate::generate`]) and the
//! suite writer ([`crate::suite`]). The same arguments always give the
//! same bytes, and every command stays inside the official constraints (`0 <= x < 10`,
//! `0 <= y < 9`); only `Q` may exceed 1000. Not on the judge path.

use crate::cli::{self, Opt, Spec};
use crate::generate;
use crate::generate::mode::{modes_help, Mode};
use crate::suite::folder;
use crate::suite::plan::{self, Plan};
use crate::sys::rng;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// The largest `--q`: a billion commands (8 GB of input) is far past any benchmark.
pub const MAX_Q: u64 = 1_000_000_000;

/// The command line of `gen`.
pub const SPEC: Spec = Spec {
    name: "gen",
    summary: "write a seeded judge input, or a strong test set (--suite)",
    usage: &[
        "[--seed S] [--q N] [--mode M]",
        "--suite DIR [--seed S] [--files N]",
    ],
    about: concat!(
        "\
The same arguments always give the same bytes. Without --seed the seed comes
from the clock, as in 'duckchess stress', and is said on stderr, so that the
same input can be written again. Coordinates always stay within 0..=9 and
0..=8, one command a line, as the official data does.

modes (--mode; default official):
",
        modes_help!(),
        "
--suite DIR writes a strong test set into DIR: 1.in and 1.ans, 2.in and 2.ans,
and so on (at most --files N; each valid under 'duckchess validate', Q <= 1000,
answers from the judge) and suite.txt, which says what each file kills and
reaches. Each file is one game. The first three are written by a greedy search
for coverage and redundancy: every mistake of the 'duckchess audit' catalogue
killed in two files if it can be, every cell of the coverage map reached a few
times, then the end of the game where a solution that still looks for check
would see it, and commands after the end; if a mistake survives them, the
third is written again, opening with a witness of it. The fourth holds what a
solution must hold: both sides crowded (100 legal moves or more), a run of 256
invalid commands, every piece but the captains taken. The others are built for
the statement's model ('audit --coverage'): each reaches cells no earlier file
reaches and ends with a kind of a side taking the captain that no earlier file
ends with, until every kind of each side has, and while cells are left; the
last two are an input of no command and one of one command. DIR is created
when missing; an existing DIR may hold only files a suite writes (N.in, N.ans,
suite.txt), which are replaced: anything else, there when gen starts or put
there while it works, makes gen refuse and leaves DIR as it was."
    ),
    options: &[
        Opt::valued(
            "--seed",
            "S",
            "any integer from 0 to 18446744073709551615 (default: from the clock, said on stderr; 1 with --suite)",
        ),
        Opt::valued(
            "--q",
            "N",
            "number of commands (default 1000; up to 1000000000)",
        ),
        Opt::valued("--mode", "M", "one of the modes above (default official)"),
        Opt::valued("--suite", "DIR", "write a test set into DIR instead"),
        Opt::valued(
            "--files",
            "N",
            "N files in the suite at most (default 20; from 1 to 100)",
        ),
    ],
    conflicts: &[("--suite", "--q"), ("--suite", "--mode")],
    exit: "0 success, 1 I/O error, a DIR with other files, or a mistake that\n             \
           survives the suite, 2 usage error",
};

/// The largest `--files`.
pub const MAX_FILES: u64 = 100;

/// The `gen` subcommand.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        if let Some(dir) = parsed.path("--suite")? {
            let seed = parsed.int("--seed", 0, u64::MAX)?.unwrap_or(1);
            let files = parsed
                .int("--files", 1, MAX_FILES)?
                .map_or(plan::DEFAULT_TOTAL, |n| n as usize);
            return Ok(write_suite(Path::new(dir), seed, files));
        }
        if parsed.flag("--files") {
            return Err("--files N goes with --suite DIR".to_string());
        }
        let seed = parsed.int("--seed", 0, u64::MAX)?;
        let q = parsed.int("--q", 0, MAX_Q)?.unwrap_or(1000);
        let mode = match parsed.value("--mode") {
            None => Mode::Official,
            Some(m) => m.parse::<Mode>().map_err(|e| format!("--mode: {e}"))?,
        };
        let seed = seed.unwrap_or_else(|| {
            let seed = rng::clock_seed();
            cli::say(
                "gen",
                &format!("seed {seed} (from the clock; --seed {seed} writes the same input)"),
            );
            seed
        });
        let stdout = io::stdout();
        let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
        Ok(cli::output_status(
            "gen",
            generate::input(seed, q, mode, &mut out).and_then(|()| out.flush()),
        ))
    })
}

/// `gen --suite`: writes the suite and says what it wrote; returns the exit status.
fn write_suite(dir: &Path, seed: u64, files: usize) -> u8 {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let written = match folder::write(dir, &Plan::new(seed, files, jobs)) {
        Ok(w) => w,
        Err(e) => return cli::fail("gen", &e.to_string()),
    };
    let commands: usize = written.files.iter().map(|f| f.cmds.len()).sum();
    let total = written.kills.len();
    let survivors = written.survivors();
    let text = format!(
        "wrote {} ({}) and suite.txt to {}: {} of {total} mistakes killed\n",
        cli::plural(written.files.len() as u64, "file"),
        cli::plural(commands as u64, "command"),
        dir.display(),
        total - survivors.len()
    );
    let mut out = io::stdout().lock();
    let status = cli::output_status(
        "gen",
        out.write_all(text.as_bytes()).and_then(|()| out.flush()),
    );
    if survivors.is_empty() {
        return status;
    }
    let names: Vec<&str> = survivors.iter().map(|m| m.name()).collect();
    cli::fail(
        "gen",
        &format!(
            "{} the suite: {} (try another --seed or more --files)",
            match names.len() {
                1 => "1 mistake survives".to_string(),
                n => format!("{n} mistakes survive"),
            },
            names.join(", ")
        ),
    )
}
