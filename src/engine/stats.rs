//! A profile of the search tree, for tuning: where the nodes go (by remaining depth and
//! by iteration), how well the moves are ordered, how often each pruning and reduction
//! fires, and, on a sample of them, how often it was wrong (the move or node it skipped
//! would have changed the result).
//!
//! The counters exist only in a build made with the cargo feature `stats`
//! (`cargo build --release --features stats`, best with its own `CARGO_TARGET_DIR`):
//! then [`ON`] is true, the search counts, and each search prints the running totals
//! on standard error (lines that start with `stats:`). In every other build [`ON`] is
//! a false constant and every count, check and sample compiles to nothing. Not on the
//! judge path.

use std::sync::atomic::{AtomicU64, Ordering};

/// Whether this build counts (see the module documentation).
pub const ON: bool = cfg!(feature = "stats");

/// One in this many prunings of each kind is checked by searching what was pruned (a
/// power of two).
pub const SAMPLE: u64 = 32;

/// What is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Counter {
    /// Full-width nodes entered (after the node's own checks).
    Nodes,
    /// Quiescence nodes entered.
    QNodes,
    /// Table probes at full-width nodes, hits, and hits that ended the node.
    TtProbes,
    TtHits,
    TtCuts,
    /// Nodes whose search failed high, and of those, where the first move did it.
    FailHigh,
    FailHighFirst,
    /// The sum of the (zero-based) index of the move that failed high.
    FailHighIndexSum,
    /// Reverse futility: fired, sampled, and sampled ones whose search did not hold.
    Rfp,
    RfpChecked,
    RfpWrong,
    /// Null move: tried, cut, sampled cuts, and sampled cuts whose search did not hold.
    NullTried,
    NullCut,
    NullChecked,
    NullWrong,
    /// Late-move pruning (by move count): fired, sampled, and sampled ones that would
    /// have raised alpha.
    Lmp,
    LmpChecked,
    LmpWrong,
    /// Futility pruning of late quiet moves near the horizon: the same three.
    Futility,
    FutilityChecked,
    FutilityWrong,
    /// Pruning by the exchange evaluation: the same three.
    SeePrune,
    SeeChecked,
    SeeWrong,
    /// Late-move reductions: reduced searches, the plies taken off, those that failed
    /// high and were searched again, and re-searches that then held above alpha.
    Reduced,
    ReducedPlies,
    Researched,
    ResearchHeld,
    /// Reduced searches that failed low, those sampled and searched at full depth, and
    /// those of them that would have raised alpha (a reduction that hid a good move).
    ReducedLow,
    ReducedLowChecked,
    ReducedLowWrong,
    /// Quiescence nodes that answer an attacked captain with every move, and those
    /// that stand pat at or above beta.
    QEvasions,
    QStandCut,
    /// Nodes that end at once: the side to move can take the opposing captain.
    Decided,
    /// Full-width nodes extended because the side to move's captain is attacked.
    ExtendThreat,
}

const COUNTERS: usize = Counter::ExtendThreat as usize + 1;
/// Remaining depths counted one by one; deeper ones share the last slot.
pub const DEPTHS: usize = 32;

static COUNTS: [AtomicU64; COUNTERS] = [ZERO; COUNTERS];
static BY_DEPTH: [AtomicU64; DEPTHS] = [ZERO; DEPTHS];
#[allow(clippy::declare_interior_mutable_const)]
const ZERO: AtomicU64 = AtomicU64::new(0);

/// Counts one `c`.
#[inline(always)]
pub fn add(c: Counter) {
    add_n(c, 1);
}

/// Counts `n` of `c`.
#[inline(always)]
pub fn add_n(c: Counter, n: u64) {
    if ON {
        COUNTS[c as usize].fetch_add(n, Ordering::Relaxed);
    }
}

/// Counts a full-width node of `depth` plies remaining.
#[inline(always)]
pub fn node_at(depth: i32) {
    if ON {
        BY_DEPTH[(depth.max(0) as usize).min(DEPTHS - 1)].fetch_add(1, Ordering::Relaxed);
        add(Counter::Nodes);
    }
}

/// Whether the `n`-th event of a kind (counted before this call) is one to check.
#[inline(always)]
pub fn sampled(c: Counter) -> bool {
    ON && COUNTS[c as usize].load(Ordering::Relaxed) & (SAMPLE - 1) == 0
}

fn get(c: Counter) -> u64 {
    COUNTS[c as usize].load(Ordering::Relaxed)
}

/// A share in percent, or `-` when there is nothing to share.
fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

/// The running totals, one line a topic.
pub fn report() -> String {
    use Counter::*;
    let mut out = Vec::new();
    let nodes = get(Nodes);
    let q = get(QNodes);
    out.push(format!(
        "nodes {nodes} full-width, {q} quiescence ({} of all)",
        pct(q, nodes + q)
    ));
    let depths: Vec<String> = (0..DEPTHS)
        .map(|d| BY_DEPTH[d].load(Ordering::Relaxed))
        .enumerate()
        .filter(|&(_, n)| n > 0)
        .map(|(d, n)| format!("{d}:{n}"))
        .collect();
    out.push(format!("by remaining depth {}", depths.join(" ")));
    out.push(format!(
        "table probes {}, hits {}, cutoffs {}",
        get(TtProbes),
        pct(get(TtHits), get(TtProbes)),
        pct(get(TtCuts), get(TtProbes))
    ));
    let fh = get(FailHigh);
    out.push(format!(
        "fail-high nodes {fh}, first move {}, mean index {:.2}",
        pct(get(FailHighFirst), fh),
        get(FailHighIndexSum) as f64 / fh.max(1) as f64
    ));
    out.push(format!(
        "reverse futility {}, wrong {} of {} checked",
        get(Rfp),
        get(RfpWrong),
        get(RfpChecked)
    ));
    out.push(format!(
        "null move tried {}, cut {}, wrong {} of {} checked",
        get(NullTried),
        pct(get(NullCut), get(NullTried)),
        get(NullWrong),
        get(NullChecked)
    ));
    for (name, fired, checked, wrong) in [
        ("late-move pruning", Lmp, LmpChecked, LmpWrong),
        ("futility pruning", Futility, FutilityChecked, FutilityWrong),
        ("exchange pruning", SeePrune, SeeChecked, SeeWrong),
    ] {
        out.push(format!(
            "{name} {}, wrong {} of {} checked",
            get(fired),
            get(wrong),
            get(checked)
        ));
    }
    let reduced = get(Reduced);
    out.push(format!(
        "reduced {reduced} (mean {:.2} plies), re-searched {}, held {}; failed low {}, wrong {} of {} checked",
        get(ReducedPlies) as f64 / reduced.max(1) as f64,
        pct(get(Researched), reduced),
        pct(get(ResearchHeld), get(Researched)),
        get(ReducedLow),
        get(ReducedLowWrong),
        get(ReducedLowChecked)
    ));
    out.push(format!(
        "quiescence: evasion nodes {}, stand-pat cutoffs {}; nodes ended by a captain capture {}",
        pct(get(QEvasions), q),
        pct(get(QStandCut), q),
        get(Decided)
    ));
    out.push(format!(
        "extensions: attacked captain {}",
        get(ExtendThreat)
    ));
    out.join("\n")
}
