//! Checking.

pub mod cases;
pub mod format;
pub mod process;
pub mod verdict;
