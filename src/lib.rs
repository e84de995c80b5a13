//! duckchess: the rules, the judge and the tools for THUPC 2019 "Duck Chess".

pub mod ai;
pub mod arena;
pub mod board;
pub mod bundle;
pub mod chase;
pub mod cli;
pub mod explain;
pub mod game;
pub mod gen;
pub mod judge;
pub mod perft;
pub mod piece;
pub mod play;
pub mod render;
pub mod rng;
pub mod rules;
pub mod tester;
pub mod trace;
pub mod validate;
