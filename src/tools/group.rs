//! Process groups for the programs under test: each runs in a group of its own, so that
//! a timeout kills what it started too (`sh script.sh` running `./a.out` leaves no
//! spinning orphan). And since a group of its own does not get the terminal's Ctrl-C,
//! an interrupt or termination signal to us kills every group still running before we
//! go: stopping `test` or `stress` never leaves a looping solution behind.

#[cfg(unix)]
mod unix {
    use std::process::{Child, Command};
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::Once;

    unsafe extern "C" {
        fn kill(pid: i32, signal: i32) -> i32;
        fn signal(signum: i32, handler: usize) -> usize;
        fn _exit(status: i32) -> !;
    }

    /// Numbers that are the same on every Unix.
    const SIGHUP: i32 = 1;
    const SIGINT: i32 = 2;
    const SIGKILL: i32 = 9;
    const SIGTERM: i32 = 15;

    /// The groups running now (their leaders' pids; 0 for a free slot). A fixed table of
    /// atomics, because the signal handler may touch nothing else.
    const SLOTS: usize = 1024;
    static RUNNING: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
    static HANDLER: Once = Once::new();

    /// The signal handler: kill every running group, then end as the signal would.
    extern "C" fn on_signal(signum: i32) {
        for slot in &RUNNING {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill(2) is async-signal-safe and takes plain integers.
                unsafe {
                    kill(-pid, SIGKILL);
                }
            }
        }
        // SAFETY: _exit(2) is async-signal-safe; 128 + the signal is the shell's way of
        // saying "ended by a signal".
        unsafe { _exit(128 + signum) }
    }

    /// Gives the program a process group of its own.
    pub fn isolate(command: &mut Command) {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }

    /// Kills the program's whole group, and the program.
    pub fn kill_all(child: &mut Child) {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) takes plain integers and touches no memory of ours; a
            // negative pid names the process group, which `isolate` made equal to the
            // child's pid.
            unsafe {
                kill(-pid, SIGKILL);
            }
        }
        let _ = child.kill();
    }

    /// A running group, known to the signal handler while this lives.
    pub struct Tracked(Option<usize>);

    impl Tracked {
        /// Tracks `child`'s group (untracked if the table is full).
        pub fn new(child: &Child) -> Tracked {
            HANDLER.call_once(|| {
                let handler = on_signal as extern "C" fn(i32) as usize;
                for signum in [SIGHUP, SIGINT, SIGTERM] {
                    // SAFETY: signal(2) installs a handler that only uses atomics,
                    // kill(2) and _exit(2), all async-signal-safe.
                    unsafe {
                        signal(signum, handler);
                    }
                }
            });
            let pid = i32::try_from(child.id()).unwrap_or(0);
            let slot = RUNNING.iter().position(|s| {
                s.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            });
            Tracked(slot)
        }
    }

    impl Drop for Tracked {
        fn drop(&mut self) {
            if let Some(slot) = self.0 {
                RUNNING[slot].store(0, Ordering::SeqCst);
            }
        }
    }
}

#[cfg(unix)]
pub use unix::{isolate, kill_all, Tracked};

#[cfg(not(unix))]
mod other {
    //! Without process groups, only the program itself is killed.
    use std::process::{Child, Command};

    /// Nothing to do.
    pub fn isolate(_: &mut Command) {}

    /// Kills the program.
    pub fn kill_all(child: &mut Child) {
        let _ = child.kill();
    }

    /// Nothing to track.
    pub struct Tracked;

    impl Tracked {
        /// Nothing to track.
        pub fn new(_: &Child) -> Tracked {
            Tracked
        }
    }
}

#[cfg(not(unix))]
pub use other::{isolate, kill_all, Tracked};
