//! The system layer: the operating-system services `std` lacks, and randomness. Nothing
//! here knows the game, so every layer above may use it, whatever it does. Running a
//! program we do not trust is the sandbox's, [`crate::sandbox`], which uses these.
//!
//! - [`os`]: waiting for pipes and sockets to be ready (`poll(2)`), reaping a child with
//!   its peak memory, the descriptor limit, whether we are the terminal's foreground
//!   process, handing freed memory back to the system.
//! - [`pipes`]: the standard streams of a program we started, served from one thread
//!   with waits that never pass their deadline.
//! - [`lines`]: lines of bounded length from a stream nobody vouches for.
//! - [`program`]: where a program named on a command line is found, as the platform's
//!   shell finds it.
//! - [`file`]: files written whole or not at all (aside, then renamed).
//! - [`rng`]: the seeded random generator, the same sequence on every machine.
//! - [`ordered`]: numbered pieces of work on several threads, their results handed over
//!   in order.
//! - [`clock`]: the monotonic clock of the engine's limits, natively and in a browser.
//!
//! With [`crate::sandbox`], the crate's only bindings to the system's own functions
//! (`extern "C"`) are here, each behind a safe function. Uses only `std`.

pub mod clock;
pub mod file;
pub mod lines;
pub mod ordered;
pub mod os;
pub mod pipes;
pub mod program;
pub mod rng;
