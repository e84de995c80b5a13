//! What the suite's searches may ask of the catalogue, and nothing more: the listed
//! mistakes and what each makes wrong (a slip's row of the move table, one starting
//! piece's slip), the mutant judge that plays them command by command, and which
//! mistakes a game kills. The suite imports the catalogue through this module alone
//! (`tests/all/architecture.rs` holds it to that), so the catalogue may change inside
//! as long as these stay.

pub use super::kills::Test;
pub use super::list::{Fault, Group, Mistake};
pub use super::mutant::{fault_answers, first_difference, judge_answers, Answer, Mutant};
pub use super::slips::{Offset, Slip, Use};
pub use super::solution_shapes::{starts, Family, InstanceSlip, Shaped, Start};

use crate::generate::case::Cmd;

/// The mistakes of `mistakes` that `cmds` kills: whose mutant answers some command
/// differently from the judge.
pub fn killed_by(cmds: &[Cmd], mistakes: &[Mistake]) -> Vec<Mistake> {
    let expected = judge_answers(cmds);
    mistakes
        .iter()
        .copied()
        .filter(|&m| first_difference(m, cmds, &expected).is_some())
        .collect()
}
