//! The generators of judge inputs.

pub mod case;
pub mod games;
pub mod recipe;
