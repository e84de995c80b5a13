//! The memory of a program under test: its peak, as a judge shows it, and a limit past
//! which the runner stops it.
//!
//! On Linux a [`Meter`] samples `/proc`: the program's own high-water mark (`VmHWM`,
//! the kernel's peak of its resident memory since it started) and the resident memory
//! (`VmRSS`) of every process descended from it, summed; and, since a process can leave
//! that tree (`setsid` and a double fork, or a parent that ends first: such orphans are
//! handed to the runner as their subreaper), every child of the runner whose environment
//! carries the run's mark ([`RUN_MARK`], which the runner gives the program and what it
//! starts inherits), with all it started. The runner samples as output
//! arrives (the program is loaded and at work then, often at its end) and every tick
//! while it runs, and kills the program's group as soon as a sample is over the limit.
//! When the program is reaped, `wait4(2)`'s `ru_maxrss` is taken too, but as the
//! program's figure only when it is above the runner's own peak: the kernel folds into
//! it the memory of the process that was copied to start the program (here the runner
//! itself, a few megabytes or a few hundred), so a figure below that only bounds the
//! program's. A program that ends within a tick, before a sample saw it, shows that
//! bound ("at most"); the one sample that saw it may also have come before its peak.
//!
//! On Windows the job object that holds the program and what it starts ([`super::job`])
//! gives the peak: the job's `PeakJobMemoryUsed` (committed memory, which is what
//! Windows judges count), and the job refuses to commit more than twice the limit, so
//! that a runaway program cannot eat the machine between two samples.
//!
//! Elsewhere only `wait4(2)`'s figure is taken, at the end.

use std::io;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

/// The environment variable whose value marks the processes of one run: the program
/// and everything it starts inherit it, however they leave its group or session.
pub const RUN_MARK: &str = "DUCKCHESS_RUN";

/// A mark no other run of this process has: `RUN_MARK=PID-N`.
pub fn new_run_mark() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{}-{n}", std::process::id())
}

/// A mebibyte: judges' "MB".
pub const MIB: u64 = 1 << 20;

/// How often the runner samples at most.
const EVERY: Duration = Duration::from_micros(200);

/// A program's peak memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peak {
    /// In bytes.
    pub bytes: u64,
    /// Only a bound: the program used at most this much. It ended before a sample saw
    /// it, and the system's figure includes the runner's own memory (see the module).
    pub at_most: bool,
}

impl Peak {
    /// The figure in judges' terms: `3.1 MB`, or `at most 9.8 MB` for a bound.
    pub fn shown(&self) -> String {
        let mb = format!("{:.1} MB", self.bytes as f64 / MIB as f64);
        if self.at_most {
            format!("at most {mb}")
        } else {
            mb
        }
    }
}

/// The memory of one program under test.
pub struct Meter {
    limit: u64,
    peak: u64,
    /// Whether any figure was taken.
    measured: bool,
    /// The system's figure at the end, when it is only a bound.
    bound: Option<u64>,
    last: Option<Instant>,
    #[cfg(target_os = "linux")]
    pid: i32,
    /// The run's mark (`RUN_MARK=value`), as it appears in an environment.
    #[cfg(target_os = "linux")]
    mark: Vec<u8>,
    #[cfg(windows)]
    job: Option<super::job::Job>,
}

impl Meter {
    /// Starts metering `child` (just started, with [`RUN_MARK`] set to `mark` in its
    /// environment) with a limit of `limit` bytes. No sample yet: one taken while the
    /// program is still being loaded says nothing.
    pub fn start(child: &Child, limit: u64, mark: &str) -> Meter {
        #[cfg(not(any(target_os = "linux", windows)))]
        let _ = (child, mark);
        #[cfg(windows)]
        let _ = mark;
        Meter {
            limit,
            peak: 0,
            measured: false,
            bound: None,
            last: None,
            #[cfg(target_os = "linux")]
            pid: i32::try_from(child.id()).unwrap_or(0),
            #[cfg(target_os = "linux")]
            mark: format!("{RUN_MARK}={mark}").into_bytes(),
            #[cfg(windows)]
            job: super::job::Job::limited(child, limit.saturating_mul(2)),
        }
    }

    /// Takes a sample unless one was taken within the last [`EVERY`]. Not while the
    /// program is being loaded, just after its start: a sample then sees a page or two.
    pub fn sample_now(&mut self) {
        if self.last.is_none_or(|l| l.elapsed() >= EVERY) {
            self.sample();
        }
    }

    /// Takes a sample.
    fn sample(&mut self) {
        self.last = Some(Instant::now());
        #[cfg(target_os = "linux")]
        if let Some(bytes) = linux::tree(self.pid, &self.mark) {
            self.note(bytes);
        }
        #[cfg(windows)]
        if let Some(bytes) = self.job.as_ref().and_then(super::job::Job::peak) {
            self.note(bytes);
        }
    }

    fn note(&mut self, bytes: u64) {
        self.measured = true;
        self.peak = self.peak.max(bytes);
    }

    /// Whether the peak is over the limit.
    pub fn over(&self) -> bool {
        self.peak > self.limit
    }

    /// The limit, in bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The peak, `None` where nothing could be measured.
    pub fn peak(&self) -> Option<Peak> {
        if self.measured {
            return Some(Peak {
                bytes: self.peak,
                at_most: false,
            });
        }
        self.bound.map(|bytes| Peak {
            bytes,
            at_most: true,
        })
    }

    /// Takes the figure the system gave when the program was reaped (see [`wait`]).
    pub fn reaped(&mut self, max_rss: Option<u64>) {
        #[cfg(windows)]
        if let Some(bytes) = self.job.as_ref().and_then(super::job::Job::peak) {
            self.note(bytes);
        }
        let Some(bytes) = max_rss else { return };
        #[cfg(target_os = "linux")]
        {
            // Our own peak bounds what the copy that started the program brought.
            match linux::own_peak() {
                Some(own) if bytes > own => self.note(bytes),
                _ => self.bound = Some(bytes),
            }
        }
        #[cfg(not(target_os = "linux"))]
        self.note(bytes);
    }
}

/// Waits for `child` to exit (at most a look when `block` is false) and reaps it: its
/// status, and on Unix the system's `ru_maxrss` figure in bytes (see [`Meter::reaped`]).
/// On Unix the child is reaped here, not through `std`: do not wait on it or kill it by
/// its pid afterwards.
pub fn wait(child: &mut Child, block: bool) -> io::Result<Option<(ExitStatus, Option<u64>)>> {
    #[cfg(unix)]
    {
        unix::reap(child, block)
    }
    #[cfg(not(unix))]
    {
        let status = if block {
            Some(child.wait()?)
        } else {
            child.try_wait()?
        };
        Ok(status.map(|s| (s, None)))
    }
}

#[cfg(unix)]
mod unix {
    use std::io;
    use std::os::raw::c_long;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Child, ExitStatus};

    /// `struct rusage`: two `struct timeval`s (each two `long`s wide on the targets std
    /// supports), then `ru_maxrss` and fourteen more `long`s; room to spare after.
    #[repr(C)]
    struct Rusage {
        times: [c_long; 4],
        max_rss: c_long,
        rest: [c_long; 32],
    }

    unsafe extern "C" {
        fn wait4(pid: i32, status: *mut i32, options: i32, usage: *mut Rusage) -> i32;
    }

    /// `WNOHANG`, the same on every Unix.
    const WNOHANG: i32 = 1;
    /// `EINTR`, the same on every Unix.
    const EINTR: i32 = 4;

    /// See [`super::wait`].
    pub fn reap(child: &mut Child, block: bool) -> io::Result<Option<(ExitStatus, Option<u64>)>> {
        let pid = i32::try_from(child.id()).map_err(io::Error::other)?;
        loop {
            let mut status = 0;
            let mut usage = Rusage {
                times: [0; 4],
                max_rss: 0,
                rest: [0; 32],
            };
            let options = if block { 0 } else { WNOHANG };
            // SAFETY: both pointers are to live locals of the right size (the rusage
            // with room to spare); the pid is our own child's, not yet reaped.
            let r = unsafe { wait4(pid, &mut status, options, &mut usage) };
            if r == 0 {
                return Ok(None);
            }
            if r < 0 {
                let e = io::Error::last_os_error();
                if e.raw_os_error() == Some(EINTR) {
                    continue;
                }
                return Err(e);
            }
            // Kibibytes on Linux and the BSDs, bytes on macOS.
            let unit: u64 = if cfg!(target_os = "macos") { 1 } else { 1024 };
            let max_rss = u64::try_from(usage.max_rss).ok().map(|n| n * unit);
            return Ok(Some((ExitStatus::from_raw(status), max_rss)));
        }
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::fs;

    /// At most this many processes are looked at in one sample (a fork bomb cannot make
    /// a sample slow).
    const MOST: usize = 512;

    /// A field of `/proc/PID/status` in bytes (`VmRSS:\t  1234 kB`).
    fn field(status: &str, name: &str) -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let kib: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kib * 1024)
    }

    /// Our own peak resident memory.
    pub fn own_peak() -> Option<u64> {
        field(&fs::read_to_string("/proc/self/status").ok()?, "VmHWM:")
    }

    /// The children of `pid`, from each of its threads' `children` file.
    fn children(pid: i32, into: &mut Vec<i32>) {
        let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
            return;
        };
        for task in tasks.flatten() {
            if let Ok(text) = fs::read_to_string(task.path().join("children")) {
                into.extend(
                    text.split_whitespace()
                        .filter_map(|p| p.parse::<i32>().ok()),
                );
            }
        }
    }

    /// Whether the environment of `pid` holds `mark` (`NAME=value`) as one entry. At
    /// most the first 256 KiB of it are read.
    fn marked(pid: i32, mark: &[u8]) -> bool {
        use std::io::Read;
        let Ok(file) = fs::File::open(format!("/proc/{pid}/environ")) else {
            return false;
        };
        let mut bytes = Vec::new();
        if file.take(256 << 10).read_to_end(&mut bytes).is_err() {
            return false;
        }
        bytes.split(|&b| b == 0).any(|entry| entry == mark)
    }

    /// The program's memory now: the greater of its own peak and its resident memory
    /// plus that of every process descended from it, and of every child of ours (an
    /// orphan handed to us) that carries the run's `mark` in its environment, with its
    /// descendants. `None` when none of them is left.
    pub fn tree(pid: i32, mark: &[u8]) -> Option<u64> {
        if pid <= 0 {
            return None;
        }
        let mut own_peak = 0;
        let mut total = 0;
        let mut todo = Vec::new();
        if let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) {
            own_peak = field(&status, "VmHWM:").unwrap_or(0);
            total = field(&status, "VmRSS:").unwrap_or(0);
            children(pid, &mut todo);
        }
        // What left the program's tree and was handed to us: ours, by its mark.
        let mut ours = Vec::new();
        children(std::process::id() as i32, &mut ours);
        todo.extend(ours.into_iter().filter(|&p| p != pid && marked(p, mark)));
        let mut seen = 1;
        while let Some(p) = todo.pop() {
            if seen >= MOST {
                break;
            }
            seen += 1;
            if let Ok(status) = fs::read_to_string(format!("/proc/{p}/status")) {
                total += field(&status, "VmRSS:").unwrap_or(0);
            }
            children(p, &mut todo);
        }
        // Nothing resident yet: caught between the start and its first page.
        Some(own_peak.max(total)).filter(|&b| b > 0)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn status_fields_read_in_bytes() {
            let status = "Name:\tcat\nVmHWM:\t    1500 kB\nVmRSS:\t     900 kB\n";
            assert_eq!(field(status, "VmHWM:"), Some(1500 * 1024));
            assert_eq!(field(status, "VmRSS:"), Some(900 * 1024));
            assert_eq!(field(status, "VmSwap:"), None);
            assert!(own_peak().is_some_and(|b| b > 0));
            let me = std::process::id() as i32;
            assert!(tree(me, b"DUCKCHESS_RUN=none").is_some_and(|b| b > 0));
        }
    }
}
