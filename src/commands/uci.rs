//! `duckchess uci`: its command line.

use crate::cli::{self, Opt, Spec};
use crate::engine::tt;
use crate::play::uci::*;
use std::io::{self};

/// The command line of `uci`.
pub const SPEC: Spec = Spec {
    name: "uci",
    summary: "play through the UCI protocol (for GUIs and match runners)",
    usage: &["[--hash MB] [--tuning]"],
    about: "\
Reads UCI commands on standard input and answers on standard output: uci,
isready, ucinewgame, setoption (Hash, Threads 1-256 sharing it, UCI_Variant =
duckchess, Move Overhead, Clear Hash, Ponder, Skill Level 1-8, UCI_LimitStrength
with UCI_Elo, Use NNUE and EvalFile for the network the engine evaluates with; and,
with --tuning only, for the hand-written evaluation and tuning by self-play Value Guard, Value Elephant, Value Horse, Value Car, Value
Duck, Value Soldier, Mobility, Pressure, Tempo, Near Soldier, Near Pieces,
Reduction, Futility, Quiet Checks, Improving; evaluation terms weighted 0 until
fitted: Escape, Checks,
Hanging, Threats, Captain Advance, Captain Center, Car Xray, Advance Guard,
Advance Elephant, Advance Horse, Advance Car, Advance Duck, Advance Soldier,
Center Guard, Center Elephant, Center Horse, Center Car, Center Duck, Center
Soldier; experimental search knobs: X Late, X Null Div, X RFP Depth, X Threat,
X Hist Div, X PV Less, X Evasions, X Asp, X Threat Order, X RFP
Improving, X TT Eval), position
startpos|fen FEN [moves M...], go (searchmoves, ponder, movetime, wtime btime
winc binc movestogo, depth, nodes, mate, infinite), stop, ponderhit, quit, and d
(the position as an info string). Squares are a1..i10: file a-i is column y 0-8,
rank 1-10 is row x 0-9; e4e5 moves (3, 4) to (4, 4). A FEN is the position
notation with w or r (red) or b (blue) to move, optionally followed by '- - 0 1'.

Every go gets exactly one bestmove, within its time limit, with a legal move
when there is one (else 'bestmove 0000'); 'go depth' is also capped at 8,000,000
nodes. A go word that cannot be read is skipped, a number out of range clamped
(times to 0..10^9 ms, depth to 1..48), each with an 'info string'. A go that
names a clock (wtime btime winc binc movestogo) thinks on the clock of the side
to move, or on 1 second when the go gives that side none; so does a go none of
whose limits can be read. Only 'go infinite' and a go with no limit at all (a
bare 'go') wait for stop. After 'go ponder', 'ponderhit' starts the clock that
go gave. Other bad input gets an 'info string' line and the session goes on.

The input is read while the engine thinks, and stop and quit act at once: stop
ends the search in progress and every go before it; quit stops every search,
lets the commands before it be carried out and reads nothing after it. Other
commands are carried out in order once the search in progress has ended (one
that would wait for stop is stopped by them); isready is answered at once during
a search, and right after the commands before it when some wait. The end of
input lets a bounded search finish and stops one that would wait for stop.",
    options: &[
        Opt::valued(
            "--hash",
            "MB",
            "transposition table size in megabytes, 1 to 4096 (default 16; when the memory cannot be had, a message and the default)",
        ),
        Opt::flag(
            "--tuning",
            "offer the evaluation's weights and the search's knobs as options too, for tuning by self-play (hidden from GUIs without it)",
        ),
    ],
    conflicts: &[],
    exit: "0 after quit or the end of input, 1 output error, 2 usage error",
};

/// The `uci` subcommand. Returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        parsed.no_operands()?;
        let hash = parsed.int("--hash", tt::MIN_MB as u64, tt::MAX_MB as u64)?;
        let hash = hash.map_or(tt::DEFAULT_MB, |h| h as usize);
        let tuning = parsed.flag("--tuning");
        Ok(serve(io::BufReader::new(io::stdin()), hash, tuning))
    })
}
