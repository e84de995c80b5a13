//! The numbers a search can be tuned by at run time: the evaluation's weights
//! ([`eval::WEIGHTS`]) and the search's own parameters ([`KNOBS`]), as one value that
//! each search owns. The UCI options of the same names change the value of that
//! session's searches only, so that two searches in one process (a match, a test) can
//! play with different settings. Not on the judge path.

use crate::engine::eval::{self, Weight, Weights};
use crate::judge::piece::PieceKind;

/// Search parameters that can be changed at run time, like the evaluation weights
/// (UCI options of the same names, for self-play tuning): the divisor of the late-move
/// reduction formula (in hundredths), the futility margin per ply, whether the
/// quiescence search tries quiet moves that attack the captain (1) or not (0), and
/// whether late moves are pruned and reduced more when the side to move's evaluation
/// has not improved since its last turn (1) or not (0).
pub static KNOBS: [Weight; KNOB_COUNT] = [
    Weight::new("Reduction", 160, 50, 1000),
    Weight::new("Futility", 110, 0, 1000),
    Weight::new("Quiet Checks", 0, 0, 1),
    Weight::new("Improving", 1, 0, 1),
    Weight::new("X Late", 3, 1, 10),
    Weight::new("X Null Div", 4, 1, 10),
    Weight::new("X RFP Depth", 5, 0, 12),
    Weight::new("X Threat", 1, 0, 1),
    Weight::new("X Hist Div", 100, 10, 1000),
    Weight::new("X PV Less", 1, 0, 3),
    Weight::new("X Evasions", 4, 0, 8),
    Weight::new("X Asp", 40, 5, 200),
    Weight::new("X Threat Order", 16, 0, 1024),
    Weight::new("X RFP Improving", 1, 0, 1),
    Weight::new("X TT Eval", 1, 0, 1),
];
/// The number of [`KNOBS`].
pub const KNOB_COUNT: usize = 15;

// Indices into KNOBS.
pub(crate) const REDUCTION: usize = 0;
pub(crate) const FUTILITY: usize = 1;
pub(crate) const QUIET_CHECKS: usize = 2;
pub(crate) const IMPROVING: usize = 3;
pub(crate) const X_LATE: usize = 4;
pub(crate) const X_NULL_DIV: usize = 5;
pub(crate) const X_RFP_DEPTH: usize = 6;
pub(crate) const X_THREAT: usize = 7;
pub(crate) const X_HIST_DIV: usize = 8;
pub(crate) const X_PV_LESS: usize = 9;
pub(crate) const X_EVASIONS: usize = 10;
/// The first aspiration window's half width (read by the iterative deepening).
pub(crate) const X_ASP: usize = 11;
pub(crate) const X_THREAT_ORDER: usize = 12;
/// Whether reverse futility prunes a ply's margin sooner where the side to move's
/// evaluation has risen since its last turn.
pub(crate) const X_RFP_IMPROVING: usize = 13;
/// Whether the pruning reads the table's bound on a node's score where that bound lies
/// beyond the static evaluation on the side it bounds.
pub(crate) const X_TT_EVAL: usize = 14;

/// The search parameter called `name` (case-insensitive), if any.
pub fn knob(name: &str) -> Option<&'static Weight> {
    KNOBS.iter().find(|w| w.name.eq_ignore_ascii_case(name))
}

/// The values of every evaluation weight and search parameter, for one search (or one
/// UCI session, which hands a copy to each of its searches). [`Tunables::default`] is
/// every built-in value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunables {
    /// The evaluation weights, in the order of [`eval::WEIGHTS`].
    weights: Weights,
    /// The search parameters, in the order of [`KNOBS`].
    knobs: [i32; KNOB_COUNT],
}

impl Default for Tunables {
    fn default() -> Tunables {
        Tunables::DEFAULT
    }
}

impl Tunables {
    /// Every built-in value.
    pub const DEFAULT: Tunables = {
        let weights = eval::DEFAULTS;
        let mut knobs = [0; KNOB_COUNT];
        let mut i = 0;
        while i < KNOB_COUNT {
            knobs[i] = KNOBS[i].default;
            i += 1;
        }
        Tunables { weights, knobs }
    };

    /// The evaluation weight at `index` of [`eval::WEIGHTS`].
    #[inline]
    pub fn weight(&self, index: usize) -> i32 {
        self.weights[index]
    }

    /// Every evaluation weight, for [`crate::engine::eval`].
    #[inline]
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The search parameter at `index` of [`KNOBS`].
    #[inline]
    pub fn knob(&self, index: usize) -> i32 {
        self.knobs[index]
    }

    /// The material value of `kind` (its weight).
    #[inline]
    pub fn value(&self, kind: PieceKind) -> i32 {
        self.weights[kind.index()]
    }

    /// Sets the weight or parameter called `name` (case-insensitive, as the UCI
    /// options name them; the captain's value is not one) to `value`, clamped to its
    /// range. Returns its description, or `None` when no tunable has that name.
    pub fn set(&mut self, name: &str, value: i32) -> Option<&'static Weight> {
        let (slot, w) = if let Some(i) = eval::weight_index(name) {
            (&mut self.weights[i], &eval::WEIGHTS[i])
        } else {
            let i = KNOBS
                .iter()
                .position(|w| w.name.eq_ignore_ascii_case(name))?;
            (&mut self.knobs[i], &KNOBS[i])
        };
        *slot = value.clamp(w.min, w.max);
        Some(w)
    }

    /// The tunable called `name` (case-insensitive), as [`Tunables::set`] finds it.
    pub fn find(name: &str) -> Option<&'static Weight> {
        eval::weight(name).or_else(|| knob(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_built_in_values() {
        let t = Tunables::default();
        for (i, w) in eval::WEIGHTS.iter().enumerate() {
            assert_eq!(t.weight(i), w.default, "{}", w.name);
        }
        for (i, w) in KNOBS.iter().enumerate() {
            assert_eq!(t.knob(i), w.default, "{}", w.name);
        }
    }

    #[test]
    fn a_value_is_set_by_name_and_clamped_to_its_range() {
        let mut t = Tunables::default();
        assert_eq!(t.set("value car", 900).map(|w| w.name), Some("Value Car"));
        assert_eq!(t.value(PieceKind::Car), 900);
        t.set("Reduction", 1);
        assert_eq!(t.knob(REDUCTION), 50);
        t.set("X RFP DEPTH", 99);
        assert_eq!(t.knob(X_RFP_DEPTH), 12);
        assert!(t.set("Value Captain", 5).is_none());
        assert!(t.set("no such option", 5).is_none());
        assert_eq!(Tunables::find("futility").map(|w| w.name), Some("Futility"));
    }
}
