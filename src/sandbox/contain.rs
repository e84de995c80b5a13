//! A run's processes, held together from the start of the program under test to the end
//! of the run: started in a process group of their own and tracked by the interrupt
//! handler ([`super::group`]); on Linux in a control group of their own where one can be
//! made ([`super::cgroup`]) and under a supervisor that is the subreaper of that run alone
//! ([`super::supervisor`]); their memory metered ([`super::memory`]); and at the end all
//! of them killed and reaped, whatever they did meanwhile.
//!
//! On Linux the child the runner starts is the supervisor, and the program is its child:
//! the program's end is what the supervisor reports, and the supervisor's own end means
//! that every process of the run is gone. Elsewhere the child is the program itself.

use super::group::{self, Tracked};
use super::memory::{self, Counting, Meter, Peak};
use std::io;
use std::process::{Child, Command, ExitStatus};

#[cfg(target_os = "linux")]
use super::cgroup::RunGroup;
#[cfg(target_os = "linux")]
use super::supervisor::{self, Supervisor};
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(target_os = "linux")]
use std::sync::Arc;
#[cfg(target_os = "linux")]
use std::time::{Duration, Instant};

/// The processes of one run.
pub struct Contained {
    child: Child,
    /// Dropped only once the child is reaped.
    _tracked: Tracked,
    meter: Meter,
    /// Whether the child has been reaped.
    reaped: bool,
    /// How the program ended, and its `ru_maxrss` in bytes.
    exit: Option<(ExitStatus, Option<u64>)>,
    #[cfg(target_os = "linux")]
    supervisor: Supervisor,
    #[cfg(target_os = "linux")]
    group: Option<Arc<RunGroup>>,
}

/// Starts the program `argv` (the program first), with its standard streams as `make`
/// sets them up in a command for it, and a memory limit of `limit` bytes: in a process
/// group of its own, and on Linux in a control group of its own where one can be made
/// (else counted by its supervisor's process tree), under its supervisor. The runner
/// becomes the subreaper of what it starts ([`group::adopt_orphans`]), for what leaves a
/// supervisor that was killed. Fails as starting the program fails.
pub fn start(argv: &[String], make: &dyn Fn() -> Command, limit: u64) -> io::Result<Contained> {
    group::adopt_orphans();
    #[cfg(target_os = "linux")]
    {
        let group = RunGroup::new(limit).map(Arc::new);
        match start_supervised(argv, make, limit, group) {
            Err((_, true)) => {
                // The program could not enter its group: no group for it, nor for
                // the runs after it.
                RunGroup::give_up();
                start_supervised(argv, make, limit, None).map_err(|(e, _)| e)
            }
            started => started.map_err(|(e, _)| e),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = argv;
        let mut command = make();
        group::isolate(&mut command);
        let (child, tracked) = group::spawn_tracked(&mut command)?;
        let meter = Meter::start(&child, limit);
        Ok(Contained {
            child,
            _tracked: tracked,
            meter,
            reaped: false,
            exit: None,
        })
    }
}

/// Starts the program under a supervisor, in `group` if any. On failure, the error and
/// whether it was entering the group that failed.
#[cfg(target_os = "linux")]
fn start_supervised(
    argv: &[String],
    make: &dyn Fn() -> Command,
    limit: u64,
    group: Option<Arc<RunGroup>>,
) -> Result<Contained, (io::Error, bool)> {
    let mut command = make();
    group::isolate(&mut command);
    let entry = group.as_ref().map(|g| g.entry()).unwrap_or_default();
    let mut supervisor = supervisor::prepare(&mut command, argv, entry).map_err(|e| (e, false))?;
    let started = group::spawn_tracked(&mut command);
    supervisor.started();
    let (mut child, tracked) = started.map_err(|e| (e, false))?;
    // Until a program has entered a group, whether one can is not known: the first
    // start with a group waits to learn it. Other starts go on at once, and a program
    // that cannot be executed is learnt of as its end would be.
    static ENTERED: AtomicBool = AtomicBool::new(false);
    if group.is_some() && !ENTERED.load(Ordering::Relaxed) {
        if let Err(failed) = supervisor.wait_started() {
            // The supervisor ends by itself once the program's process has.
            let _ = memory::wait(&mut child, true);
            drop(tracked);
            return Err(failed);
        }
        ENTERED.store(true, Ordering::Relaxed);
    }
    let source = match &group {
        Some(g) => memory::Source::Group {
            group: Arc::clone(g),
            root: i32::try_from(child.id()).unwrap_or(0),
        },
        None => memory::Source::Tree {
            root: i32::try_from(child.id()).unwrap_or(0),
            program: None,
        },
    };
    Ok(Contained {
        child,
        _tracked: tracked,
        meter: Meter::start(source, limit),
        reaped: false,
        exit: None,
        supervisor,
        group,
    })
}

impl Contained {
    /// The child started: on Linux the supervisor, whose standard streams were the
    /// program's until it closed them.
    pub fn child_mut(&mut self) -> &mut Child {
        &mut self.child
    }

    /// A descriptor that has news while the program's end is not known yet: a wait for
    /// the program's pipes may wake on it too ([`crate::sys::pipes::Pipes::wake_on`]). On
    /// Linux, the supervisor's pipe; `None` elsewhere.
    pub fn news(&self) -> Option<i32> {
        #[cfg(target_os = "linux")]
        if self.exit.is_none() && !self.reaped {
            return Some(self.supervisor.fd());
        }
        None
    }

    /// Which way the memory is counted.
    pub fn counting(&self) -> Counting {
        self.meter.counting()
    }

    /// Says when the run's time is up: a memory sample stops walking the processes
    /// there ([`Meter::stop_by`]).
    pub fn stop_sampling_by(&mut self, deadline: std::time::Instant) {
        self.meter.stop_by(deadline);
    }

    /// Takes a memory sample unless one was taken a moment ago.
    pub fn sample_now(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(pid) = self.supervisor.program() {
            self.meter.program_is(pid);
        }
        self.meter.sample_now();
    }

    /// Whether the memory is over the limit.
    pub fn over(&self) -> bool {
        self.meter.over()
    }

    /// The peak memory, where it could be measured.
    pub fn peak(&self) -> Option<Peak> {
        self.meter.peak()
    }

    /// Whether the kernel killed a process of the run for want of memory (Linux, in a
    /// control group: over twice the limit).
    pub fn out_of_memory(&self) -> bool {
        #[cfg(target_os = "linux")]
        {
            self.group.as_ref().is_some_and(|g| g.out_of_memory())
        }
        #[cfg(not(target_os = "linux"))]
        false
    }

    /// How the program ended and its `ru_maxrss` in bytes, once it has; a look, no
    /// wait. An error when it could not be started after all (on Linux its process
    /// tells, once it has tried).
    pub fn exited(&mut self) -> io::Result<Option<(ExitStatus, Option<u64>)>> {
        if self.exit.is_none() {
            self.look()?;
        }
        Ok(self.exit)
    }

    /// Looks whether the program has ended (and on Linux whether the supervisor has).
    fn look(&mut self) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::ExitStatusExt;
            if let Some((e, _)) = self.supervisor.failed() {
                return Err(e);
            }
            if let Some((status, rss)) = self.supervisor.exit() {
                self.exit = Some((ExitStatus::from_raw(status), rss));
                return Ok(());
            }
            if self.reaped {
                return Ok(());
            }
            // A supervisor that ended without a word about the program was killed
            // (by the program, say): its end stands for the program's.
            if let Some(ended) = memory::wait(&mut self.child, false)? {
                self.reaped = true;
                self.exit = match self.supervisor.exit() {
                    Some((status, rss)) => Some((ExitStatus::from_raw(status), rss)),
                    None => Some(ended),
                };
            }
            Ok(())
        }
        #[cfg(not(target_os = "linux"))]
        {
            if let Some(ended) = memory::wait(&mut self.child, false)? {
                self.reaped = true;
                self.exit = Some(ended);
            }
            Ok(())
        }
    }

    /// Ends the run: kills every process of it that is left and reaps the child, then
    /// takes the memory's last figure. `clean` when the program ended by itself and its
    /// outputs closed (nothing holds `pipes`, our ends of its pipes): only what is left
    /// of its groups is killed, with no look for what holds the pipes.
    pub fn end(&mut self, pipes: &[i32], clean: bool) {
        #[cfg(target_os = "linux")]
        {
            if let Some(g) = &self.group {
                g.kill();
            }
            if !self.reaped {
                self.end_tree();
            }
        }
        let mut max_rss = self.exit.and_then(|(_, rss)| rss);
        if clean {
            group::end_group(&self.child);
        } else if self.reaped {
            group::kill_reaped(&mut self.child, pipes);
        } else {
            group::kill_all(&mut self.child, true, pipes);
        }
        if !self.reaped {
            if let Ok(Some((status, rss))) = memory::wait(&mut self.child, true) {
                self.reaped = true;
                #[cfg(target_os = "linux")]
                let _ = self.exited();
                if self.exit.is_none() {
                    self.exit = Some((status, rss));
                }
                max_rss = self.exit.and_then(|(_, rss)| rss);
            }
        }
        self.meter.reaped(max_rss);
    }

    /// Kills the supervisor's descendants in rounds until none is left (what they start
    /// meanwhile goes in the next round; each one killed is the supervisor's to reap),
    /// then waits a moment for the supervisor to end by itself, and reaps it.
    #[cfg(target_os = "linux")]
    fn end_tree(&mut self) {
        use super::calls::kill;
        const SIGKILL: i32 = 9;
        let root = i32::try_from(self.child.id()).unwrap_or(0);
        let deadline = Instant::now() + Duration::from_secs(2);
        while root > 0 && Instant::now() < deadline {
            let left = supervisor::descendants(root);
            if left.is_empty() {
                break;
            }
            for pid in left {
                // SAFETY: kill(2) takes plain integers; each pid was listed a moment
                // ago as a descendant of the run's supervisor, a child of ours not yet
                // reaped, so it names a process of the run (or a zombie of it).
                unsafe {
                    kill(pid, SIGKILL);
                }
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        if !self.supervisor.wait_ended(deadline) {
            return;
        }
        // Its pipe closes as it exits: the wait is a short one.
        if let Ok(Some(ended)) = memory::wait(&mut self.child, true) {
            self.reaped = true;
            let _ = self.exited();
            if self.exit.is_none() {
                self.exit = Some(ended);
            }
        }
    }
}
