//! The system layer: the operating-system services `std` lacks, and randomness. Nothing
//! here knows the game; everything above may use it.
//!
//! - [`os`]: waiting for pipes and sockets (`poll(2)`), the descriptor limit, handing
//!   freed memory back to the system.
//! - [`pipes`]: a program's standard streams served from one thread, with deadlines.
//! - [`group`]: process groups, signals, and the sweep for what escaped a group.
//! - [`rng`]: the seeded random generator.
//!
//! Uses only `std`.

pub mod group;
pub mod os;
pub mod pipes;
pub mod rng;
