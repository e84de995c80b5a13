//! Time allocation: how long to think about one move, given what a UCI `go` says
//! (a fixed time per move, or the time left on a clock with its increment).
//!
//! With a clock, the time left is shared among the moves still expected (the `movestogo`
//! the client gives, else at most [`HORIZON`] and never more than the 300-move limit
//! leaves), plus most of the increment. The search gets a soft limit (no new iteration
//! after it) and a hard one (never past it), both short of the time left by the move
//! overhead, so the flag never falls for thinking.

use std::time::Duration;

/// The number of moves a clock's time is spread over when the client does not say.
pub const HORIZON: u32 = 30;

/// What a `go` command says about time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// The side to move's time left.
    pub left: Duration,
    /// Its increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if the client says.
    pub moves_to_go: Option<u32>,
}

/// A thinking time: the soft limit (no new iteration after it) and the hard one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// No new iteration starts after this.
    pub soft: Duration,
    /// The search stops at this, whatever it is doing.
    pub hard: Duration,
}

/// The shortest hard limit: enough for the first iterations on any position.
const FLOOR: Duration = Duration::from_millis(1);

/// The budget for a fixed time per move: all of it but the overhead.
pub fn per_move(time: Duration, overhead: Duration) -> Budget {
    let hard = time.saturating_sub(overhead).max(FLOOR);
    Budget { soft: hard, hard }
}

/// The budget for one move on `clock`, in a game where `moves_left` moves of this side
/// remain at most before the move limit.
pub fn allocate(clock: Clock, moves_left: u32, overhead: Duration) -> Budget {
    let available = clock.left.saturating_sub(overhead);
    let to_go = clock
        .moves_to_go
        .unwrap_or(HORIZON)
        .min(moves_left.max(1))
        .max(1);
    let share = available / to_go + clock.increment * 9 / 10;
    // Never more than most of what is left: the next moves need time too, and the
    // last move before a time control keeps a margin.
    let cap = if to_go == 1 {
        available * 8 / 10
    } else {
        available / 3
    };
    let hard = (share * 3).min(cap).max(FLOOR);
    let soft = (share * 6 / 10).min(hard);
    Budget { soft, hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_clock_is_shared_among_the_moves_to_come() {
        let c = Clock {
            left: ms(60_000),
            increment: ms(0),
            moves_to_go: None,
        };
        let b = allocate(c, 150, ms(10));
        assert!(b.soft < b.hard);
        assert!(b.hard <= ms(60_000) / 3);
        assert!(b.soft >= ms(1000) && b.soft <= ms(2000), "{b:?}");
    }

    #[test]
    fn never_more_than_the_time_left() {
        for left in [0, 1, 5, 20, 100, 1000] {
            for to_go in [None, Some(1), Some(2)] {
                let c = Clock {
                    left: ms(left),
                    increment: ms(50),
                    moves_to_go: to_go,
                };
                let b = allocate(c, 10, ms(10));
                assert!(
                    b.hard <= ms(left).saturating_sub(ms(10)).max(FLOOR),
                    "{left} {to_go:?} {b:?}"
                );
                assert!(b.soft <= b.hard);
            }
        }
    }

    /// The engine guide's figures for a `go` that gives the side to move no clock (1
    /// second, the default overhead of 10 ms): no new iteration after about 20 ms, a
    /// stop at 99 ms at the latest.
    #[test]
    fn one_second_on_the_clock_is_about_20_ms() {
        let c = Clock {
            left: ms(1000),
            increment: ms(0),
            moves_to_go: None,
        };
        let b = allocate(c, 150, ms(10));
        assert_eq!(b.soft.as_millis(), 19);
        assert_eq!(b.hard.as_millis(), 99);
    }

    /// The engine guide's figures: the hard limit is at most a third of the time left,
    /// and at most 80% on the last move before the time control.
    #[test]
    fn the_caps_the_guide_gives() {
        for (to_go, cap) in [(Some(2), 3000 / 3), (Some(1), 3000 * 8 / 10)] {
            let c = Clock {
                left: ms(3000),
                increment: ms(0),
                moves_to_go: to_go,
            };
            assert_eq!(allocate(c, 100, ms(0)).hard, ms(cap), "{to_go:?}");
        }
    }

    #[test]
    fn the_move_limit_shortens_the_horizon() {
        let c = Clock {
            left: ms(10_000),
            increment: ms(0),
            moves_to_go: None,
        };
        assert!(allocate(c, 2, ms(0)).soft > allocate(c, 100, ms(0)).soft);
    }

    #[test]
    fn per_move_keeps_the_overhead() {
        assert_eq!(per_move(ms(100), ms(10)).hard, ms(90));
        assert_eq!(per_move(ms(5), ms(10)).hard, FLOOR);
    }
}
