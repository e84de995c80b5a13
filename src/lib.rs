//! duckchess: the rules, the judge and the tools for THUPC 2019 "Duck Chess".

pub mod ai;
pub mod arena;
pub mod board;
pub mod cli;
pub mod game;
pub mod judge;
pub mod perft;
pub mod piece;
pub mod play;
pub mod render;
pub mod rng;
pub mod rules;
