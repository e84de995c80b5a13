//! The tools for contestants and problem setters, one module per subcommand (`judge`,
//! `gen`, `validate`, `test`, `stress`, `trace`, `bundle`), and what they share:
//! running a solution (`process`, with `pipes` for its streams and `group` for its
//! process group), the system services `std` lacks (`os`: `poll(2)`, the descriptor
//! limit, the allocator; the server uses them too), comparing its output as it streams (`compare`), judging and
//! explaining it (`diagnose`, with `differs` for what differs between two lines),
//! verdicts in words (`explain`), board diagrams (`render`), the seeded generator (`rng`)
//! and the samples built into the binary (`samples`). `test` and `stress` run programs through the one runner and
//! explain wrong answers through the one diagnosis.
//!
//! May use [`crate::judge`] and [`crate::cli`]; nothing here is on the judge path, and
//! nothing here uses the engine or the chase solver.

pub mod audit;
pub mod bundle;
pub mod gen;
pub mod judge;
pub mod samples;
pub mod stress;
pub mod test;
pub mod trace;
pub mod validate;
