//! A small seeded pseudo-random generator (SplitMix64) for the generator, the arena and
//! the tests. Same seed, same sequence, on every machine. Not for cryptography.

/// A seed for a run that names none: from the clock and the process id, small enough to
/// type back in (below a billion). Whoever uses one says it, so that the run can be made
/// again.
pub fn clock_seed() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ (u64::from(std::process::id()) << 20)) % 1_000_000_000
}

/// SplitMix64: 64 bits of state, passes BigCrush, and any seed (zero included) is fine.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n` > 0), by Lemire's multiply-shift with rejection so
    /// that no value is favoured.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// A uniform index into a slice of length `len` (> 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// `true` with probability `p` (0.0 to 1.0).
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64) < p * (1u64 << 53) as f64
    }

    /// A uniform element of a non-empty slice, or `None` when it is empty.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            Some(items[self.index(items.len())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 10];
        for _ in 0..10_000 {
            let v = rng.below(10) as usize;
            seen[v] += 1;
        }
        // Each bucket expects 1000; a fair generator stays well within 800..1200.
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }

    #[test]
    fn chance_matches_its_probability() {
        let mut rng = Rng::new(9);
        let hits = (0..10_000).filter(|_| rng.chance(0.2)).count();
        assert!((1800..2200).contains(&hits), "{hits}");
        assert!(!Rng::new(1).chance(0.0));
        assert!(Rng::new(1).chance(1.0));
    }
}
