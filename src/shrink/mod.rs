//! Shrinking.

pub mod route;
pub mod search;
pub mod shrinker;
