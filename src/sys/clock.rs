//! The monotonic clock the engine's limits are measured on. Natively it is
//! `std::time::Instant`; in a browser (WebAssembly with no operating system under it)
//! `std` has no clock at all (`Instant::now` panics there), so [`Instant`] reads the
//! page's own monotonic clock, `performance.now()`, which the page hands the module as
//! the import `duckchess.now_ms`.

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub use browser::Instant;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod browser {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "duckchess")]
    extern "C" {
        /// Milliseconds since the page (or the worker) started, never going back.
        fn now_ms() -> f64;
    }

    /// A moment, as the time since the page's clock started.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number; a page that
            // handed something else (NaN, a negative) gets the clock's start.
            let ms = unsafe { now_ms() };
            let ms = if ms.is_finite() && ms > 0.0 { ms } else { 0.0 };
            Instant(Duration::from_secs_f64(ms / 1000.0))
        }

        /// The time from `earlier` to this moment (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// The same as [`Instant::duration_since`], as `std` also names it.
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// This moment `d` later, unless that overflows.
        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            self.0.checked_add(d).map(Instant)
        }

        /// This moment `d` earlier, unless that is before the clock's start.
        pub fn checked_sub(&self, d: Duration) -> Option<Instant> {
            self.0.checked_sub(d).map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d)
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, d: Duration) -> Instant {
            Instant(self.0.saturating_sub(d))
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}
