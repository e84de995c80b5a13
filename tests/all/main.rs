//! The integration tests, one crate with a module per subject: the library and the
//! binary are linked once for all of them. `cargo test` runs the quick tier; the tests
//! marked `#[ignore = "..."]` (slow ones, and those that need a tool or file this
//! machine may lack) form the full tier, which `cargo test -- --include-ignored` and
//! `.ci/run` run. A test that cannot run here is ignored with the reason it names, never
//! counted as passed.

mod browser;
mod common;
mod official;
mod serve_common;

mod analyze_cli;
mod architecture;
mod audit;
mod bundle;
mod chase;
mod check;
mod cli_judge;
mod cli_voice;
mod dense;
mod diagnose;
mod differential;
mod docs;
mod endgame;
mod engine;
mod engine_cli;
mod export;
mod files;
mod fit_cli;
mod held_out;
mod judge_tools;
mod levels;
mod match_cli;
mod memory_cli;
mod no_threads;
mod notation;
mod os_args;
mod perft;
mod reference;
mod results_json;
mod rules;
mod samples;
mod scanner;
mod selfplay_cli;
mod serve_api;
mod serve_browser;
mod serve_load;
mod shapes;
mod site_browser;
mod site_script;
mod stress_cli;
mod suite_bytes;
mod test_cli;
mod test_diagnosis_cli;
mod threads;
mod trace_cli;
mod train_cli;
mod uci;
mod validate_cli;
mod windows;
