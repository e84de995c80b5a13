//! Mistakes.

pub mod catalogue;
pub mod matrix;
pub mod mutant;
pub mod suite;
pub mod witness;
