//! Words and pictures.

pub mod compare;
pub mod diagnose;
pub mod differs;
pub mod explain;
pub mod render;
