//! The system layer: the operating-system services `std` lacks, and randomness. Nothing
//! here knows the game, so every layer above may use it, whatever it does.
//!
//! - [`os`]: waiting for pipes and sockets to be ready (`poll(2)`), the descriptor limit,
//!   whether we are the terminal's foreground process, handing freed memory back to the
//!   system.
//! - [`pipes`]: the standard streams of a program we started, served from one thread
//!   with waits that never pass their deadline.
//! - [`group`]: process groups, signals, the runner as the subreaper of what it
//!   starts, and the sweeps for what escaped a group: what the runners and `match`
//!   start never outlives them.
//! - [`lines`]: lines of bounded length from a stream nobody vouches for.
//! - [`job`]: on Windows, the job objects that stand for process groups.
//! - [`program`]: where a program named on a command line is found, as the platform's
//!   shell finds it.
//! - [`memory`]: the peak memory of a program under test, its limit, and which way it
//!   was counted.
//! - `cgroup` (Linux): a control group for each run, which the kernel counts and kills
//!   as one.
//! - `supervisor` (Linux): the run's own subreaper between the runner and the program.
//! - [`contain`]: a run's processes from the program's start to the run's end: started
//!   in their groups under their supervisor, metered, all killed and reaped at the end.
//! - [`interrupt`]: what the interrupt handlers share: the line an interrupted run
//!   writes before it ends, and the gate that keeps programs from starting meanwhile.
//! - [`file`]: files written whole or not at all (aside, then renamed).
//! - [`rng`]: the seeded random generator, the same sequence on every machine.
//! - [`ordered`]: numbered pieces of work on several threads, their results handed over
//!   in order.
//! - [`clock`]: the monotonic clock of the engine's limits, natively and in a browser.
//!
//! The crate's only bindings to the system's own functions (`extern "C"`) are here, each
//! behind a safe function. Uses only `std`.

#[cfg(target_os = "linux")]
pub mod cgroup;
pub mod clock;
pub mod contain;
pub mod file;
pub mod group;
pub mod interrupt;
#[cfg(windows)]
pub mod job;
pub mod lines;
pub mod memory;
pub mod ordered;
pub mod os;
pub mod pipes;
pub mod program;
pub mod rng;
#[cfg(target_os = "linux")]
pub mod supervisor;
