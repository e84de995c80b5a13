//! duckchess: the rules, the judge and the tools for THUPC 2019 "Duck Chess".

pub mod chase;
