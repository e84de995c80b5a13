//! The memory of a program under test: its peak, as a judge shows it, a limit past which
//! the runner stops it, and which way it was counted ([`Counting`]).
//!
//! On Linux the program runs in a control group of its own where one can be made
//! ([`super::cgroup`]): the figure is the kernel's peak of the group (every process of
//! the run, whatever it does with its environment, its session or its parent; a page
//! counted once however many processes map it; the pages of `memfd`s and of files in
//! `/dev/shm` too; page cache and kernel memory the run caused as well, as judges'
//! sandboxes count them). It is exact, including a peak between two samples.
//!
//! Where no group can be made, the runner counts the process tree of the run's
//! supervisor ([`super::supervisor`]), which holds every process of the run and only
//! those: the sum of each one's proportional set size (`Pss` of
//! `/proc/PID/smaps_rollup`: a page shared by `n` processes counts `1/n` in each, so a
//! page shared copy-on-write after a `fork` counts once), however many processes there
//! are, or the program's own high-water mark (`VmHWM`) where that is more. What this
//! cannot see: a peak between two samples (but for the program's own high-water mark),
//! and pages no process maps (a `memfd` or a file in `/dev/shm` written with
//! `write(2)` rather than mapped, page cache, kernel memory). When the program has
//! ended, `wait4(2)`'s `ru_maxrss` counts too, but as the program's figure only when
//! it is above the runner's own peak: the kernel folds into it the memory of the
//! process that was copied to start the program (here the runner itself, a few
//! megabytes or a few hundred), so a figure below that only bounds the program's. A
//! program that ends within a tick, before a sample saw it, shows that bound ("at
//! most").
//!
//! Either way the runner samples as output arrives (the program is loaded and at work
//! then, often at its end) and every tick while it runs, and ends the run as soon as a
//! sample is over the limit.
//!
//! On Windows the job object that holds the program and what it starts ([`super::job`])
//! gives the peak: the job's `PeakJobMemoryUsed` (committed memory, which is what
//! Windows judges count), and the job refuses to commit more than twice the limit, so
//! that a runaway program cannot eat the machine between two samples.
//!
//! Elsewhere only `wait4(2)`'s figure is taken, at the end.

use std::fmt;
use std::io;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

/// A mebibyte: judges' "MB".
pub const MIB: u64 = 1 << 20;

/// How often the runner samples at most.
const EVERY: Duration = Duration::from_micros(200);

/// Which way a program's memory was counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// The kernel's peak of the run's control group (Linux).
    ControlGroup,
    /// The proportional memory of the processes of the run's supervisor, sampled
    /// (Linux, where no control group can be made).
    ProcessTree,
    /// The job object's peak committed memory (Windows).
    JobObject,
    /// `wait4(2)`'s figure at the end (other systems).
    AtExit,
}

impl fmt::Display for Counting {
    /// The words a verdict line shows in parentheses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Counting::ControlGroup => "control group",
            Counting::ProcessTree => "process tree, PSS",
            Counting::JobObject => "job object",
            Counting::AtExit => "at exit",
        })
    }
}

/// A program's peak memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peak {
    /// In bytes.
    pub bytes: u64,
    /// Only a bound: the program used at most this much. It ended before a sample saw
    /// it, and the system's figure includes the runner's own memory (see the module).
    pub at_most: bool,
    /// Which way it was counted.
    pub counting: Counting,
}

impl Peak {
    /// The figure in judges' terms and the way it was counted: `3.1 MB (control
    /// group)`, or `at most 9.8 MB (process tree, PSS)` for a bound.
    pub fn shown(&self) -> String {
        let mb = format!("{:.1} MB", self.bytes as f64 / MIB as f64);
        let at_most = if self.at_most { "at most " } else { "" };
        format!("{at_most}{mb} ({})", self.counting)
    }
}

/// Where a [`Meter`] takes its samples (Linux).
#[cfg(target_os = "linux")]
#[derive(Debug)]
pub enum Source {
    /// The run's control group, and the run's supervisor (`root`): a process of the
    /// run that left the group (it may write itself into a group above it, where it
    /// has the right) is still the supervisor's descendant, and is counted by its PSS.
    Group {
        /// The group.
        group: std::sync::Arc<super::cgroup::RunGroup>,
        /// The supervisor.
        root: i32,
    },
    /// The processes descended from the run's supervisor (`root`), and the program's
    /// own high-water mark once its pid is known.
    Tree {
        /// The supervisor.
        root: i32,
        /// The program.
        program: Option<i32>,
    },
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
    /// The run's time limit: a sample that walks the processes stops there, so that a
    /// run of many busy processes cannot make it late.
    stop_by: Option<Instant>,
    counting: Counting,
    #[cfg(target_os = "linux")]
    source: Source,
    #[cfg(windows)]
    job: Option<super::job::Job>,
}

impl Meter {
    /// A meter with nothing measured yet.
    fn new(
        limit: u64,
        counting: Counting,
        #[cfg(target_os = "linux")] source: Source,
        #[cfg(windows)] job: Option<super::job::Job>,
    ) -> Meter {
        Meter {
            limit,
            peak: 0,
            measured: false,
            bound: None,
            last: None,
            stop_by: None,
            counting,
            #[cfg(target_os = "linux")]
            source,
            #[cfg(windows)]
            job,
        }
    }

    /// Starts metering `child` (just started) with a limit of `limit` bytes: on
    /// Windows through its job; elsewhere but Linux by `wait4(2)`'s figure at its end.
    /// No sample yet: one taken while the program is still being loaded says nothing.
    #[cfg(not(target_os = "linux"))]
    pub fn start(child: &Child, limit: u64) -> Meter {
        #[cfg(windows)]
        {
            let job = super::job::Job::limited(child, limit.saturating_mul(2));
            Meter::new(limit, Counting::JobObject, job)
        }
        #[cfg(not(windows))]
        {
            let _ = child;
            Meter::new(limit, Counting::AtExit)
        }
    }

    /// Starts metering a run (Linux) from `source`, with a limit of `limit` bytes.
    #[cfg(target_os = "linux")]
    pub fn start(source: Source, limit: u64) -> Meter {
        let counting = match source {
            Source::Group { .. } => Counting::ControlGroup,
            Source::Tree { .. } => Counting::ProcessTree,
        };
        Meter::new(limit, counting, source)
    }

    /// The program's pid, once known: its own high-water mark counts too (Linux,
    /// without a control group).
    #[cfg(target_os = "linux")]
    pub fn program_is(&mut self, pid: i32) {
        if let Source::Tree { program, .. } = &mut self.source {
            *program = Some(pid);
        }
    }

    /// Says when the run's time is up: a sample walking the processes stops there.
    pub fn stop_by(&mut self, deadline: Instant) {
        self.stop_by = Some(deadline);
    }

    /// Takes a sample unless one was taken within the last [`EVERY`]. Not while the
    /// program is being loaded, just after its start: a sample then sees a page or two.
    pub fn sample_now(&mut self) {
        if self.last.is_none_or(|l| l.elapsed() >= EVERY) {
            self.sample();
        }
    }

    /// Takes a sample.
    pub fn sample(&mut self) {
        self.last = Some(Instant::now());
        #[cfg(target_os = "linux")]
        {
            let bytes = match &self.source {
                Source::Group { group, root } => {
                    let outside = linux::outside(group, *root, self.stop_by);
                    group.peak().map(|bytes| bytes + outside)
                }
                Source::Tree { root, program } => linux::tree(*root, *program, self.stop_by),
            };
            if let Some(bytes) = bytes {
                self.note(bytes);
            }
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

    /// Which way the memory is counted.
    pub fn counting(&self) -> Counting {
        self.counting
    }

    /// The peak, `None` where nothing could be measured.
    pub fn peak(&self) -> Option<Peak> {
        if self.measured {
            return Some(Peak {
                bytes: self.peak,
                at_most: false,
                counting: self.counting,
            });
        }
        self.bound.map(|bytes| Peak {
            bytes,
            at_most: true,
            counting: self.counting,
        })
    }

    /// Takes the figure the system gave when the program was reaped (see [`wait`]),
    /// and a last sample (whole, whatever the time) (the control group's peak is exact; the figure then adds
    /// nothing).
    pub fn reaped(&mut self, max_rss: Option<u64>) {
        self.stop_by = None;
        self.sample();
        #[cfg(target_os = "linux")]
        if matches!(self.source, Source::Group { .. }) {
            return;
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
    use crate::sys::os;
    use std::io;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Child, ExitStatus};

    /// See [`super::wait`].
    pub fn reap(child: &mut Child, block: bool) -> io::Result<Option<(ExitStatus, Option<u64>)>> {
        let pid = i32::try_from(child.id()).map_err(io::Error::other)?;
        let options = if block { 0 } else { os::WNOHANG };
        let reaped = os::reap(pid, options)?;
        Ok(reaped.map(|r| (ExitStatus::from_raw(r.status), r.max_rss)))
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use crate::sandbox::supervisor;
    use std::fs;
    use std::time::Instant;

    /// A field of `/proc/PID/status` or `smaps_rollup` in bytes (`VmRSS:\t  1234 kB`).
    pub fn field(text: &str, name: &str) -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
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

    /// The proportional memory of process `pid`: its `Pss` where the system gives it
    /// (Linux 4.14), else its resident memory.
    pub fn proportional(pid: i32) -> Option<u64> {
        if let Ok(text) = fs::read_to_string(format!("/proc/{pid}/smaps_rollup")) {
            if let Some(bytes) = field(&text, "Pss:") {
                return Some(bytes);
            }
        }
        field(
            &fs::read_to_string(format!("/proc/{pid}/status")).ok()?,
            "VmRSS:",
        )
    }

    /// The proportional memory of the processes descended from the supervisor `root`
    /// that are not in `group` (nor below it): what a process that left the run's group
    /// holds, which the group's figure no longer counts. 0 when every one is inside.
    pub fn outside(
        group: &crate::sandbox::cgroup::RunGroup,
        root: i32,
        stop_by: Option<Instant>,
    ) -> u64 {
        if root <= 0 {
            return 0;
        }
        let descendants = supervisor::descendants_by(root, stop_by);
        if descendants.is_empty() {
            return 0;
        }
        let mut inside = group.procs();
        inside.sort_unstable();
        descendants
            .into_iter()
            .take_while(|_| in_time(stop_by))
            .filter(|p| inside.binary_search(p).is_err() && !exiting(*p))
            .filter_map(proportional)
            .sum()
    }

    /// Whether the run's time, `stop_by`, is not up yet.
    fn in_time(stop_by: Option<Instant>) -> bool {
        stop_by.is_none_or(|t| Instant::now() < t)
    }

    /// Whether `pid` is on its way out (`PF_EXITING` in the flags of `/proc/PID/stat`):
    /// its pages are being given back, and the shares of those it shared them with
    /// grow meanwhile, so counting it too would count them twice.
    fn exiting(pid: i32) -> bool {
        const PF_EXITING: u64 = 0x4;
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            return true;
        };
        // The name, in parentheses, may hold anything: the fields come after the last
        // `)`, the state first and the flags seventh.
        let flags = stat.rfind(')').and_then(|at| {
            stat[at + 1..]
                .split_whitespace()
                .nth(6)?
                .parse::<u64>()
                .ok()
        });
        flags.is_some_and(|f| f & PF_EXITING != 0)
    }

    /// The run's memory now: the proportional memory of every process descended from
    /// the supervisor `root` but those on their way out by the end of the look, summed, or the program's own
    /// high-water mark where that is more. `None` when nothing is resident (the program caught between its start
    /// and its first page, or every process gone).
    pub fn tree(root: i32, program: Option<i32>, stop_by: Option<Instant>) -> Option<u64> {
        if root <= 0 {
            return None;
        }
        // Past the run's time limit the sample ends with what it has read: the run is
        // over, and is ended before it is counted again.
        let own_peak = program
            .and_then(|p| fs::read_to_string(format!("/proc/{p}/status")).ok())
            .and_then(|status| field(&status, "VmHWM:"))
            .unwrap_or(0);
        let figures: Vec<(i32, u64)> = supervisor::descendants_by(root, stop_by)
            .into_iter()
            .take_while(|_| in_time(stop_by))
            .filter_map(|p| Some((p, proportional(p)?)))
            .collect();
        // Looked at after all were read: one that began to exit meanwhile may have
        // been read before, and the others after, it gave its pages back.
        let total: u64 = figures
            .into_iter()
            .filter(|&(p, _)| !exiting(p))
            .map(|(_, bytes)| bytes)
            .sum();
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
            let rollup = "55d0-7ffd ---p 00000000 00:00 0  [rollup]\nRss:  800 kB\nPss:  300 kB\n";
            assert_eq!(field(rollup, "Pss:"), Some(300 * 1024));
            assert!(own_peak().is_some_and(|b| b > 0));
            let me = std::process::id() as i32;
            assert!(proportional(me).is_some_and(|b| b > 0));
            assert!(!exiting(me));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peak_says_how_it_was_counted() {
        let peak = |bytes, at_most, counting| {
            Peak {
                bytes,
                at_most,
                counting,
            }
            .shown()
        };
        assert_eq!(
            peak(3 * MIB + MIB / 10, false, Counting::ControlGroup),
            "3.1 MB (control group)"
        );
        assert_eq!(
            peak(5 * MIB, true, Counting::ProcessTree),
            "at most 5.0 MB (process tree, PSS)"
        );
    }
}
