//! The supervisor of a run (Linux): a small process of ours between the runner and the
//! program under test, the subreaper of that one run. It is the child the runner
//! starts: between its fork and its exec it makes itself a subreaper
//! (`prctl(PR_SET_CHILD_SUBREAPER)`), forks again, and that second child goes on to
//! enter the run's control group where there is one ([`super::cgroup::Entry`]) and to be
//! executed as the program; the supervisor itself is never executed. It closes every
//! descriptor but one pipe back to the runner, and waits: it reaps the program, and
//! every process of the run whose parent ends, which the kernel hands to it as the
//! nearest subreaper, however it left the program's group, session or environment. So
//! the run's processes are the supervisor's descendants, and only they are (a run
//! beside it has a supervisor of its own); no zombie of the run is left waiting; and
//! the supervisor ends by itself once the last of them is gone.
//!
//! It tells the runner over its pipe the program's pid, and when the program ends its
//! wait status and its peak resident memory (`wait4(2)`'s `ru_maxrss`), as fixed-size
//! records (written whole: a pipe does not split a write of fewer than `PIPE_BUF`
//! bytes). It dies with the thread that started it, and the program with it
//! (`PR_SET_PDEATHSIG`): a runner killed outright leaves no supervisor waiting.
//!
//! Between the fork and the exec only async-signal-safe calls are made: the runner has
//! other threads, whose locks a forked child may find taken.

use super::cgroup::Entry;
use super::os::{self, Interest, Ready};
use std::fs;
use std::io::{self, PipeReader, PipeWriter, Read};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

unsafe extern "C" {
    fn fork() -> i32;
    fn prctl(option: i32, ...) -> i32;
    fn signal(signum: i32, handler: usize) -> usize;
    fn write(fd: i32, buf: *const u8, count: usize) -> isize;
    fn close(fd: i32) -> i32;
    fn getppid() -> i32;
    fn getpid() -> i32;
    fn syscall(number: std::ffi::c_long, ...) -> std::ffi::c_long;
    fn _exit(status: i32) -> !;
}

// Numbers that are the same on every Linux architecture.
const PR_SET_PDEATHSIG: i32 = 1;
const PR_SET_CHILD_SUBREAPER: i32 = 36;
const SIGHUP: i32 = 1;
const SIGINT: i32 = 2;
const SIGKILL: i32 = 9;
const SIGTERM: i32 = 15;
const SIG_DFL: usize = 0;
/// `wait4(2)`: children of any kind, whatever signal they send their parent at exit.
const WALL: i32 = 0x4000_0000;

/// The records of the pipe: three numbers each.
const STARTED: i64 = 1;
const EXITED: i64 = 2;
const NO_ENTRY: i64 = 3;
const RECORD: usize = 24;

/// The runner's end of a supervisor: what it has said so far.
#[derive(Debug)]
pub struct Supervisor {
    status: PipeReader,
    /// The supervisor's end, in the runner until the start (see [`Supervisor::started`]).
    writer: Option<PipeWriter>,
    /// A record read in part.
    partial: Vec<u8>,
    program: Option<i32>,
    exit: Option<(i32, Option<u64>)>,
    no_entry: Option<i32>,
}

/// Makes `command` start under a supervisor (see the module), its program entering the
/// control group `entry` names before it is executed. Start the command, then call
/// [`Supervisor::started`].
pub fn prepare(command: &mut Command, entry: Entry) -> io::Result<Supervisor> {
    let (status, writer) = io::pipe()?;
    let fd = writer.as_raw_fd();
    // SAFETY: the closure runs in the forked child before exec, and does only what is
    // safe there (see `supervise`): system calls on memory prepared before the fork.
    unsafe {
        command.pre_exec(move || supervise(fd, &entry));
    }
    Ok(Supervisor {
        status,
        writer: Some(writer),
        partial: Vec::new(),
        program: None,
        exit: None,
        no_entry: None,
    })
}

/// Writes a record on the pipe. Safe between fork and exec.
fn record(fd: i32, numbers: [i64; 3]) {
    let mut bytes = [0u8; RECORD];
    for (i, n) in numbers.iter().enumerate() {
        bytes[i * 8..i * 8 + 8].copy_from_slice(&n.to_ne_bytes());
    }
    // SAFETY: write(2) is async-signal-safe; the buffer is ours. A failed write means
    // the runner has gone: there is no one to tell.
    unsafe {
        write(fd, bytes.as_ptr(), RECORD);
    }
}

/// In the child the runner forked: becomes the supervisor, and returns only in the
/// program's process, which std then executes. Only async-signal-safe calls.
fn supervise(fd: i32, entry: &Entry) -> io::Result<()> {
    // SAFETY: each call takes plain integers or memory of ours, and is async-signal-safe
    // (signal(2) is sigaction(2) underneath). The runner's handlers are not the
    // supervisor's: a signal to it must not end the runner's other runs.
    let (me, program) = unsafe {
        for signum in [SIGHUP, SIGINT, SIGTERM] {
            signal(signum, SIG_DFL);
        }
        prctl(PR_SET_PDEATHSIG, SIGKILL as std::ffi::c_ulong);
        prctl(PR_SET_CHILD_SUBREAPER, 1 as std::ffi::c_ulong);
        (getpid(), fork())
    };
    if program < 0 {
        return Err(io::Error::last_os_error());
    }
    if program == 0 {
        // The program: it goes with its supervisor, enters the run's group, and is
        // executed (the pipe closes on exec).
        // SAFETY: prctl(2) and getppid(2) take plain integers; _exit(2) ends a child
        // whose supervisor went before it could be told to go with it.
        unsafe {
            prctl(PR_SET_PDEATHSIG, SIGKILL as std::ffi::c_ulong);
            if getppid() != me {
                _exit(1);
            }
        }
        if let Err(e) = entry.enter() {
            let errno = i64::from(e.raw_os_error().unwrap_or(0));
            record(fd, [NO_ENTRY, errno, 0]);
            return Err(e);
        }
        return Ok(());
    }
    record(fd, [STARTED, i64::from(program), 0]);
    close_all_but(fd);
    // Until no child is left: the run is over.
    while let Ok(Some(reaped)) = os::reap(-1, WALL) {
        if reaped.pid == program {
            let rss = reaped
                .max_rss
                .map_or(-1, |b| i64::try_from(b).unwrap_or(i64::MAX));
            record(fd, [EXITED, i64::from(reaped.status), rss]);
        }
    }
    // SAFETY: _exit(2) ends this process at once, as a child that was never executed
    // must (no destructors or atexit handlers of the runner's copy).
    unsafe { _exit(0) }
}

/// Closes every descriptor but `keep`: the supervisor holds none of the program's
/// pipes (whose ends the runner waits on) nor any other run's. Safe between fork and
/// exec.
fn close_all_but(keep: i32) {
    // `close_range(2)` (Linux 5.9), the same number on these architectures.
    #[cfg(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "x86",
        target_arch = "arm",
        target_arch = "riscv64",
        target_arch = "powerpc64",
        target_arch = "s390x",
        target_arch = "loongarch64"
    ))]
    {
        const CLOSE_RANGE: std::ffi::c_long = 436;
        // SAFETY: close_range(2) takes plain integers; closing descriptors is all it
        // does.
        let closed = unsafe {
            (keep == 0 || syscall(CLOSE_RANGE, 0u32, (keep - 1) as u32, 0u32) == 0)
                && syscall(CLOSE_RANGE, (keep + 1) as u32, u32::MAX, 0u32) == 0
        };
        if closed {
            return;
        }
    }
    let most = os::descriptor_limit().map_or(1 << 16, |n| n.min(1 << 20) as i32);
    for fd in (0..most).filter(|&fd| fd != keep) {
        // SAFETY: close(2) on a number that may name no descriptor: EBADF then.
        unsafe {
            close(fd);
        }
    }
}

impl Supervisor {
    /// After the start: the runner closes the supervisor's end of the pipe.
    pub fn started(&mut self) {
        self.writer = None;
    }

    /// Reads what the supervisor has written since the last look, without waiting.
    fn look(&mut self) {
        loop {
            let mut watch = [Interest::new(
                &self.status,
                Ready {
                    read: true,
                    ..Ready::default()
                },
            )];
            let ready = os::wait(&mut watch, Some(Duration::ZERO)).unwrap_or(0);
            if ready == 0 || !(watch[0].got.read || watch[0].got.broken) {
                return;
            }
            let mut buf = [0u8; RECORD * 16];
            let n = match self.status.read(&mut buf) {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            self.partial.extend_from_slice(&buf[..n]);
            let whole = self.partial.len() / RECORD * RECORD;
            let records: Vec<u8> = self.partial.drain(..whole).collect();
            for r in records.chunks(RECORD) {
                let n = |i: usize| {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(&r[i * 8..i * 8 + 8]);
                    i64::from_ne_bytes(b)
                };
                match n(0) {
                    STARTED => self.program = i32::try_from(n(1)).ok(),
                    EXITED => {
                        let status = i32::try_from(n(1)).unwrap_or(0);
                        // Bytes, or -1 where the system did not say.
                        self.exit = Some((status, u64::try_from(n(2)).ok()));
                    }
                    NO_ENTRY => self.no_entry = i32::try_from(n(1)).ok(),
                    _ => {}
                }
            }
        }
    }

    /// The program's pid, once the supervisor has said it.
    pub fn program(&mut self) -> Option<i32> {
        self.look();
        self.program
    }

    /// The program's wait status and peak resident memory in bytes, once it has ended.
    pub fn exit(&mut self) -> Option<(i32, Option<u64>)> {
        self.look();
        self.exit
    }

    /// The system's error when the program could not enter the run's control group
    /// (the start then fails).
    pub fn entry_error(&mut self) -> Option<io::Error> {
        self.look();
        self.no_entry.map(io::Error::from_raw_os_error)
    }
}

/// The processes descended from `root`, not `root` itself, from each one's
/// `/proc/PID/task/*/children`: all of them, however many (a cap would let a program
/// hide a process behind enough others).
pub fn descendants(root: i32) -> Vec<i32> {
    let mut all = Vec::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Ok(text) = fs::read_to_string(task.path().join("children")) else {
                continue;
            };
            for child in text
                .split_whitespace()
                .filter_map(|w| w.parse::<i32>().ok())
            {
                all.push(child);
                todo.push(child);
            }
        }
    }
    all
}
