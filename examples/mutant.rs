//! A wrong solution to run as a program: the mutant judge making one catalogued mistake
//! (`duckchess audit --list` names them), reading a judge input on standard input and
//! answering as a contestant's program would. `scripts/bench-stress.sh` runs `stress`
//! against it, to measure finding and shrinking on many planted mistakes without a
//! compiler.
//!
//! Usage: `mutant MISTAKE < case.in`

use duckchess::catalogue::list::Mistake;
use duckchess::catalogue::mutant;
use duckchess::judge::game::Invalid;
use duckchess::judge::run::verdict_line;
use std::io::{self, Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(mistake) = std::env::args().nth(1).and_then(|n| Mistake::from_name(&n)) else {
        eprintln!("usage: mutant MISTAKE < case.in (duckchess audit --list names them)");
        return ExitCode::from(2);
    };
    let mut input = String::new();
    if io::stdin().read_to_string(&mut input).is_err() {
        eprintln!("mutant: cannot read the input");
        return ExitCode::from(1);
    }
    let numbers: Vec<i64> = input
        .split_ascii_whitespace()
        .map_while(|t| t.parse().ok())
        .collect();
    let cmds: Vec<duckchess::generate::case::Cmd> = numbers
        .get(1..)
        .unwrap_or(&[])
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    let mut out = String::new();
    // Any reason prints `Invalid command`.
    for answer in mutant::answers(Some(mistake), &cmds) {
        out.push_str(&verdict_line(&answer.ok_or(Invalid::GameOver)));
        out.push('\n');
    }
    match io::stdout().lock().write_all(out.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}
