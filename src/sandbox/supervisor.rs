//! The supervisor of a run (Linux): a small process of ours between the runner and the
//! program under test, the subreaper of that one run. It is the child the runner
//! starts, and it is never executed: between its fork and its exec it makes itself a
//! subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`) and starts the program as its own child,
//! which enters the run's control group where there is one ([`super::cgroup::Entry`])
//! and is executed. It then closes every descriptor but one pipe back to the runner,
//! and waits: it reaps the program, and every process of the run whose parent ends,
//! which the kernel hands to it as the nearest subreaper, however it left the
//! program's group, session or environment. So the run's processes are the
//! supervisor's descendants, and only they are (a run beside it has a supervisor of its
//! own); no zombie of the run is left waiting; and the supervisor ends by itself once
//! the last of them is gone.
//!
//! The program is started as `posix_spawn(3)` starts one, sharing the supervisor's
//! memory on a stack of its own until it is executed (`clone(2)` with `CLONE_VM` and
//! `CLONE_VFORK`): a copy of the runner's memory is made once per run, for the
//! supervisor, not twice. It is found in `PATH` and executed as `execvp(3)` would
//! ([`crate::sys::program::search`]; a file the system cannot execute is run by `/bin/sh`).
//!
//! It tells the runner over its pipe that the program runs (or why it could not: it
//! could not enter the group, or be executed), and when the program ends its wait
//! status and its peak resident memory (`wait4(2)`'s `ru_maxrss`), as fixed-size
//! records (written whole: a pipe does not split a write of fewer than `PIPE_BUF`
//! bytes). It also holds the read end of a pipe whose other end only the runner holds:
//! when the runner ends, however it ends (a program may kill it: they run as one user),
//! the pipe closes, and the supervisor kills every process of the run (its children,
//! then what they leave it, until none is left), removes the run's control group, and
//! ends. The program dies with the
//! supervisor (`PR_SET_PDEATHSIG`). Its wait is `poll(2)` on that pipe and on a pipe
//! of its own that its `SIGCHLD` handler writes to, so a child's end is seen at once.
//!
//! Between the fork and the exec only async-signal-safe calls are made, on memory
//! prepared before the fork: the runner has other threads, whose locks a forked child
//! may find taken.

use super::cgroup::Entry;
use crate::sys::os::{self, Interest, Ready};
use crate::sys::program;
use std::ffi::{c_char, c_int, c_void, CString};
use std::fs;
use std::io::{self, PipeReader, PipeWriter, Read};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

use super::calls::{
    _exit, clone, close, environ, execve, getpid, getppid, open, pipe2, prctl, read, signal,
    syscall, write,
};
use std::sync::atomic::{AtomicI32, Ordering};

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
/// `clone(2)`: the child shares our memory, and we wait until it is executed or ends.
const CLONE_VM: c_int = 0x100;
const CLONE_VFORK: c_int = 0x4000;
/// The signal the program's end sends its parent: `SIGCHLD`, whose number differs on a
/// few architectures.
#[cfg(any(target_arch = "mips", target_arch = "mips64"))]
const SIGCHLD: c_int = 18;
#[cfg(any(target_arch = "sparc", target_arch = "sparc64"))]
const SIGCHLD: c_int = 20;
#[cfg(not(any(
    target_arch = "mips",
    target_arch = "mips64",
    target_arch = "sparc",
    target_arch = "sparc64"
)))]
const SIGCHLD: c_int = 17;
/// `execve(2)`'s error for a file that is no program the system knows (a script without
/// `#!`).
const ENOEXEC: i32 = 8;
/// The program's stack until it is executed.
const STACK: usize = 64 << 10;

/// `SIGPIPE`, ignored by the supervisor: a record written once the runner has gone must
/// not end it before it has ended the run.
const SIGPIPE: i32 = 13;
/// `SIG_IGN`.
const SIG_IGN: usize = 1;
/// `waitpid(2)`'s "do not wait".
const WNOHANG: i32 = 1;
/// `open(2)`'s flags.
const O_RDONLY: i32 = 0;
/// `O_CLOEXEC` and `O_NONBLOCK`, which a few architectures number otherwise.
#[cfg(not(any(
    target_arch = "mips",
    target_arch = "mips64",
    target_arch = "sparc",
    target_arch = "sparc64",
    target_arch = "powerpc64"
)))]
const PIPE_FLAGS: c_int = 0o2_000_000 | 0o4_000;
#[cfg(any(target_arch = "mips", target_arch = "mips64"))]
const PIPE_FLAGS: c_int = 0o2_000_000 | 0x80;
#[cfg(any(target_arch = "sparc", target_arch = "sparc64"))]
const PIPE_FLAGS: c_int = 0x40_0000 | 0x4000;
#[cfg(target_arch = "powerpc64")]
const PIPE_FLAGS: c_int = 0o2_000_000 | 0o4_000;

/// The write end of the supervisor's own pipe, which its `SIGCHLD` handler writes a
/// byte into: a child's end wakes the wait of the main loop, with no race between a
/// look and the wait.
static WAKE: AtomicI32 = AtomicI32::new(-1);

/// The records of the pipe: three numbers each.
const STARTED: i64 = 1;
const EXITED: i64 = 2;
const NO_ENTRY: i64 = 3;
const NO_EXEC: i64 = 4;
const RECORD: usize = 24;

/// The runner's end of a supervisor: what it has said so far.
#[derive(Debug)]
pub struct Supervisor {
    status: PipeReader,
    /// The supervisor's end, in the runner until the start (see [`Supervisor::started`]).
    writer: Option<PipeWriter>,
    /// The runner's end of the pipe that tells the supervisor the runner has gone: held
    /// for the run's life; when the runner ends, however it ends, the supervisor sees
    /// it closed and ends every process of the run.
    _alive: PipeWriter,
    /// The supervisor's end of it, in the runner until the start.
    watch: Option<PipeReader>,
    /// A record read in part.
    partial: Vec<u8>,
    program: Option<i32>,
    exit: Option<(i32, Option<u64>)>,
    no_entry: Option<i32>,
    no_exec: Option<i32>,
    /// The supervisor closed its end: it has gone.
    closed: bool,
}

/// The program as its process executes it: its file and words, ready for `execve(2)`,
/// and the same through `/bin/sh` for a file the system cannot execute (as `execvp(3)`
/// does). The pointers point into the strings held beside them.
struct Exec {
    path: CString,
    argv: Vec<*const c_char>,
    sh_argv: Vec<*const c_char>,
    _strings: Vec<CString>,
}

// SAFETY: the pointers are into strings the value owns and never changes; they are read
// only, in the forked child.
unsafe impl Send for Exec {}
// SAFETY: as above.
unsafe impl Sync for Exec {}

impl Exec {
    /// `argv` (the program first) ready to execute: the program found in `PATH`.
    fn new(argv: &[String]) -> io::Result<Exec> {
        let (name, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        let c = |bytes: &[u8]| {
            CString::new(bytes).map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a command word holds a NUL byte",
                )
            })
        };
        let file = program::search(name)?;
        let path = c(file.as_os_str().as_bytes())?;
        let mut strings = vec![c(b"/bin/sh")?, path.clone(), c(name.as_bytes())?];
        for a in args {
            strings.push(c(a.as_bytes())?);
        }
        let pointers = |from: &[CString]| {
            let mut all: Vec<*const c_char> = from.iter().map(|s| s.as_ptr()).collect();
            all.push(std::ptr::null());
            all
        };
        // sh FILE ARGS, and NAME ARGS.
        let mut sh_argv = pointers(&strings[..2]);
        sh_argv.pop();
        sh_argv.extend(pointers(&strings[3..]));
        let argv = pointers(&strings[2..]);
        Ok(Exec {
            path,
            argv,
            sh_argv,
            _strings: strings,
        })
    }
}

/// What the supervisor hands its program's process: read only, in memory they share.
struct Launch {
    fd: i32,
    /// The supervisor's end of the pipe that closes when the runner ends.
    watch: i32,
    entry: Entry,
    exec: Exec,
    /// The supervisor's pid.
    parent: i32,
}

/// Makes `command` start under a supervisor (see the module) that starts `argv` (the
/// program first) as its child, entering the control group `entry` names before it is
/// executed. Start the command (its own program is never executed: its standard
/// streams, group and signals are the program's), then call [`Supervisor::started`].
pub fn prepare(command: &mut Command, argv: &[String], entry: Entry) -> io::Result<Supervisor> {
    let exec = Exec::new(argv)?;
    let (status, writer) = io::pipe()?;
    let fd = writer.as_raw_fd();
    let (watch, alive) = io::pipe()?;
    let mut launch = Launch {
        fd,
        watch: watch.as_raw_fd(),
        entry,
        exec,
        parent: 0,
    };
    let mut stack = vec![0u8; STACK];
    // SAFETY: the closure runs in the forked child before exec, and does only what is
    // safe there (see `supervise`): system calls on memory prepared before the fork.
    unsafe {
        command.pre_exec(move || supervise(&mut launch, &mut stack));
    }
    Ok(Supervisor {
        status,
        writer: Some(writer),
        _alive: alive,
        watch: Some(watch),
        partial: Vec::new(),
        program: None,
        exit: None,
        no_entry: None,
        no_exec: None,
        closed: false,
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

/// In the child the runner forked: becomes the supervisor, starts the program, and
/// never returns but with an error std reports as the start's. Only async-signal-safe
/// calls.
fn supervise(launch: &mut Launch, stack: &mut [u8]) -> io::Result<()> {
    // SAFETY: each call takes plain integers and is async-signal-safe (signal(2) is
    // sigaction(2) underneath). The runner's handlers are not the supervisor's: a
    // signal to it must not end the runner's other runs.
    unsafe {
        for signum in [SIGHUP, SIGINT, SIGTERM] {
            signal(signum, SIG_DFL);
        }
        signal(SIGPIPE, SIG_IGN);
        prctl(PR_SET_CHILD_SUBREAPER, 1 as std::ffi::c_ulong);
        launch.parent = getpid();
    }
    // The top of the stack, aligned as every ABI asks (16 bytes).
    let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
    let arg: *mut Launch = launch;
    // SAFETY: glibc's clone(3) runs `run_program` on the stack given, in our memory,
    // and returns here once it is executed or has ended (CLONE_VFORK); until then we
    // wait, so nothing of ours changes under it. The stack and `launch` outlive it.
    let program = unsafe {
        clone(
            run_program,
            top as *mut c_void,
            CLONE_VM | CLONE_VFORK | SIGCHLD,
            arg.cast(),
        )
    };
    if program < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = launch.fd;
    record(fd, [STARTED, i64::from(program), 0]);
    close_all_but(&[fd, launch.watch]);
    let mut wake = [-1 as c_int; 2];
    // SAFETY: pipe2(2) writes two descriptors into the array given; signal(2) installs
    // a handler that only writes one byte (async-signal-safe).
    unsafe {
        if pipe2(wake.as_mut_ptr(), PIPE_FLAGS) == 0 {
            WAKE.store(wake[1], Ordering::SeqCst);
        }
        signal(SIGCHLD, on_child as extern "C" fn(c_int) as usize);
    }
    // Until no child is left: the run is over. Or until the runner has gone: then the
    // run ends here, every process of it.
    loop {
        loop {
            match os::reap(-1, WALL | WNOHANG) {
                Ok(Some(reaped)) if reaped.pid == program => {
                    let rss = reaped
                        .max_rss
                        .map_or(-1, |b| i64::try_from(b).unwrap_or(i64::MAX));
                    record(fd, [EXITED, i64::from(reaped.status), rss]);
                }
                Ok(Some(_)) => {}
                Ok(None) => break,
                // SAFETY: _exit(2) ends this process at once, as a child that was never
                // executed must (no destructors or atexit handlers of the runner's copy).
                Err(_) => unsafe { _exit(0) },
            }
        }
        if runner_gone(launch.watch, wake[0]) {
            end_every_process();
            launch.entry.remove();
            // SAFETY: as above.
            unsafe { _exit(0) }
        }
    }
}

/// The supervisor's `SIGCHLD` handler: a byte into its own pipe, which wakes its wait.
extern "C" fn on_child(_: c_int) {
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: write(2) is async-signal-safe; a full pipe (a wake already waiting)
        // refuses the byte, which changes nothing.
        unsafe {
            write(fd, [1u8].as_ptr(), 1);
        }
    }
}

/// Waits until a child has ended (a byte on `wake`) or the runner has gone (`watch`
/// closed); says whether the runner has. Only async-signal-safe calls.
fn runner_gone(watch: i32, wake: i32) -> bool {
    // Without the wake pipe, a look every 10 ms.
    let timeout = if wake >= 0 { -1 } else { 10 };
    let (gone, _) = os::two_ready(watch, wake, timeout);
    if gone {
        return true;
    }
    let mut drained = [0u8; 64];
    // SAFETY: read(2) into a buffer of ours, on a descriptor that does not block.
    while wake >= 0 && unsafe { read(wake, drained.as_mut_ptr(), drained.len()) } > 0 {}
    false
}

/// Ends every process of the run: the supervisor's children are killed, and what they
/// leave comes to it as their subreaper and is killed in turn, until none is left.
/// Only async-signal-safe calls (the supervisor was forked from a runner with threads).
fn end_every_process() {
    let path = b"/proc/thread-self/children\0";
    let mut buffer = [0u8; 8192];
    for _ in 0..10_000 {
        // SAFETY: open(2), read(2) and close(2) on a NUL-terminated path and a buffer
        // of ours; kill(2) on pids the kernel lists as this process's children.
        let listed = unsafe {
            let file = open(path.as_ptr(), O_RDONLY);
            if file < 0 {
                0
            } else {
                let n = read(file, buffer.as_mut_ptr(), buffer.len());
                close(file);
                n.max(0) as usize
            }
        };
        // A full buffer may end inside a pid: the last word waits for the next round,
        // lest a cut pid name some other process.
        let listed = if listed == buffer.len() {
            buffer[..listed]
                .iter()
                .rposition(|b| *b == b' ' || *b == b'\n')
                .unwrap_or(0)
        } else {
            listed
        };
        let mut killed = 0;
        for word in buffer[..listed].split(|b| *b == b' ' || *b == b'\n') {
            let pid = word.iter().try_fold(0i32, |n, &d| {
                let digit = d.is_ascii_digit().then(|| i32::from(d - b'0'))?;
                n.checked_mul(10)?.checked_add(digit)
            });
            if let Some(pid) = pid.filter(|&p| p > 0) {
                // SAFETY: as above.
                unsafe {
                    super::calls::kill(pid, SIGKILL);
                }
                killed += 1;
            }
        }
        // The killed are reaped; with none left the run is over.
        loop {
            match os::reap(-1, WALL | WNOHANG) {
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(_) => return,
            }
        }
        if killed == 0 {
            // Children not listed yet (handed over a moment ago): a moment.
            let pause = super::calls::Timespec {
                tv_sec: 0,
                tv_nsec: 1_000_000,
            };
            // SAFETY: nanosleep(2) on a value of ours.
            unsafe {
                super::calls::nanosleep(&pause, std::ptr::null_mut());
            }
        }
    }
}

/// The program's process until it is executed, in the supervisor's memory: it goes
/// with the supervisor, enters the run's group, and is executed (the pipe closes on
/// exec); or says why not and ends. Only async-signal-safe calls.
extern "C" fn run_program(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the `Launch` of `supervise`, alive and unchanged while we run.
    let launch = unsafe { &*(arg as *const Launch) };
    let fail = |kind: i64, e: io::Error| -> ! {
        record(
            launch.fd,
            [kind, i64::from(e.raw_os_error().unwrap_or(0)), 0],
        );
        // SAFETY: _exit(2), as the child of a vfork must end.
        unsafe { _exit(127) }
    };
    // SAFETY: prctl(2) and getppid(2) take plain integers; _exit(2) ends a child whose
    // supervisor went before it could be told to go with it.
    unsafe {
        prctl(PR_SET_PDEATHSIG, SIGKILL as std::ffi::c_ulong);
        if getppid() != launch.parent {
            _exit(1);
        }
    }
    if let Err(e) = launch.entry.enter() {
        fail(NO_ENTRY, e);
    }
    let exec = &launch.exec;
    // SAFETY: execve(2) with NUL-terminated strings and null-terminated arrays of them,
    // made before the fork; the environment is the runner's. It returns only on failure.
    unsafe {
        execve(exec.path.as_ptr(), exec.argv.as_ptr(), environ);
        if io::Error::last_os_error().raw_os_error() == Some(ENOEXEC) {
            execve(exec.sh_argv[0], exec.sh_argv.as_ptr(), environ);
        }
    }
    fail(NO_EXEC, io::Error::last_os_error())
}

/// Closes every descriptor but those of `keep`: the supervisor holds none of the
/// program's pipes (whose ends the runner waits on) nor any other run's. Safe between
/// fork and exec.
fn close_all_but(keep: &[i32]) {
    let mut sorted = [keep[0], keep.get(1).copied().unwrap_or(keep[0])];
    sorted.sort_unstable();
    let [low, high] = sorted;
    close_except(low, high);
}

/// Closes every descriptor but `low` and `high` (`low <= high`; they may be one).
fn close_except(low: i32, high: i32) {
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
        let range = |from: i32, to: i32| {
            // SAFETY: as above.
            from > to || unsafe { syscall(CLOSE_RANGE, from as u32, to as u32, 0u32) == 0 }
        };
        let closed = range(0, low - 1) && range(low + 1, high - 1) && range(high + 1, i32::MAX);
        if closed {
            return;
        }
    }
    let most = os::descriptor_limit().map_or(1 << 16, |n| n.min(1 << 20) as i32);
    for fd in (0..most).filter(|&fd| fd != low && fd != high) {
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
        self.watch = None;
    }

    /// The runner's end of the pipe: readable when the supervisor says something, or
    /// has ended.
    pub fn fd(&self) -> i32 {
        self.status.as_raw_fd()
    }

    /// Waits until the supervisor has ended (its end of the pipe closed), or `deadline`;
    /// whether it has.
    pub fn wait_ended(&mut self, deadline: std::time::Instant) -> bool {
        loop {
            self.look();
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if self.closed || left.is_zero() {
                return self.closed;
            }
            let mut watch = [Interest::new(
                &self.status,
                Ready {
                    read: true,
                    ..Ready::default()
                },
            )];
            let _ = os::wait(&mut watch, Some(left));
        }
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
                Ok(0) => {
                    self.closed = true;
                    return;
                }
                Err(_) => return,
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
                    NO_EXEC => self.no_exec = i32::try_from(n(1)).ok(),
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

    /// Waits until the supervisor says whether the program runs: `Ok` when it does;
    /// else the system's error, and whether it was entering the run's control group
    /// that failed.
    pub fn wait_started(&mut self) -> Result<(), (io::Error, bool)> {
        loop {
            if let Some(failed) = self.failed() {
                return Err(failed);
            }
            if self.program.is_some() {
                return Ok(());
            }
            if self.closed {
                return Err((io::Error::other("the run's supervisor ended"), false));
            }
            let mut watch = [Interest::new(
                &self.status,
                Ready {
                    read: true,
                    ..Ready::default()
                },
            )];
            // A wait at most as long as starting a program may take; the loop looks
            // again either way.
            let _ = os::wait(&mut watch, Some(Duration::from_millis(100)));
        }
    }

    /// Why the program could not be started, once the supervisor has said so: the
    /// system's error, and whether it was entering the run's control group that failed.
    pub fn failed(&mut self) -> Option<(io::Error, bool)> {
        self.look();
        if let Some(errno) = self.no_entry {
            return Some((io::Error::from_raw_os_error(errno), true));
        }
        self.no_exec
            .map(|errno| (io::Error::from_raw_os_error(errno), false))
    }
}

/// The processes descended from `root`, not `root` itself, from each one's
/// `/proc/PID/task/*/children`: all of them, however many (a cap would let a program
/// hide a process behind enough others).
pub fn descendants(root: i32) -> Vec<i32> {
    descendants_by(root, None)
}

/// [`descendants`], the walk ending at `stop_by` with what it found by then.
pub fn descendants_by(root: i32, stop_by: Option<std::time::Instant>) -> Vec<i32> {
    let mut all = Vec::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        if stop_by.is_some_and(|t| std::time::Instant::now() >= t) {
            break;
        }
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
