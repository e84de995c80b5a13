//! Job objects, Windows' counterpart of the process groups of [`super::group`]: each
//! program under test runs in a job of its own, and whatever it starts joins that job, so
//! that a timeout ends the program with everything it started (a child left running
//! cannot hold the run). Each job is also set to end all its processes when its last
//! handle closes: once a run is over, and whenever this process ends, Ctrl-C included,
//! nothing it started is left behind. A console control handler (Ctrl-C, Ctrl-Break,
//! the console closing) ends every job still running, writes the run's note (how far
//! it got) and ends the process with the Unix build's status (130 for the keys), as the
//! signal handler does on Unix.
//!
//! The memory meter ([`super::memory`]) sets the job's memory limit and reads its peak
//! through a [`Job`] of its own.
//!
//! A program is put in its job just after it starts: a program that starts another in
//! its very first instructions could have that one escape, which no solution under test
//! does.

use super::interrupt::{self, MAX};
use std::ffi::c_void;
use std::io;
use std::os::windows::io::AsRawHandle;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Once;

type Handle = *mut c_void;

/// `JOBOBJECT_BASIC_LIMIT_INFORMATION`.
#[repr(C)]
#[derive(Default)]
struct BasicLimits {
    per_process_user_time: i64,
    per_job_user_time: i64,
    flags: u32,
    minimum_working_set: usize,
    maximum_working_set: usize,
    active_process_limit: u32,
    affinity: usize,
    priority_class: u32,
    scheduling_class: u32,
}

/// `JOBOBJECT_EXTENDED_LIMIT_INFORMATION`.
#[repr(C)]
#[derive(Default)]
struct ExtendedLimits {
    basic: BasicLimits,
    io: [u64; 6],
    process_memory_limit: usize,
    job_memory_limit: usize,
    peak_process_memory: usize,
    peak_job_memory: usize,
}

/// `PROCESS_MEMORY_COUNTERS`.
#[repr(C)]
#[derive(Default)]
struct MemoryCounters {
    size: u32,
    page_faults: u32,
    peak_working_set: usize,
    working_set: usize,
    quota_peak_paged_pool: usize,
    quota_paged_pool: usize,
    quota_peak_non_paged_pool: usize,
    quota_non_paged_pool: usize,
    pagefile: usize,
    peak_pagefile: usize,
}

/// `JobObjectExtendedLimitInformation`.
const EXTENDED_LIMITS: i32 = 9;
/// `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`.
const KILL_ON_CLOSE: u32 = 0x2000;
/// The exit status of what a timeout or an interrupt ends.
const KILLED: u32 = 1;

/// `JOB_OBJECT_LIMIT_JOB_MEMORY`.
const LIMIT_JOB_MEMORY: u32 = 0x0200;
/// `DUPLICATE_SAME_ACCESS`.
const SAME_ACCESS: u32 = 2;

#[link(name = "kernel32")]
unsafe extern "system" {
    fn CreateJobObjectW(attributes: *mut c_void, name: *const u16) -> Handle;
    fn SetInformationJobObject(job: Handle, class: i32, info: *const c_void, len: u32) -> i32;
    fn QueryInformationJobObject(
        job: Handle,
        class: i32,
        info: *mut c_void,
        len: u32,
        returned: *mut u32,
    ) -> i32;
    fn GetCurrentProcess() -> Handle;
    fn K32GetProcessMemoryInfo(process: Handle, counters: *mut MemoryCounters, size: u32) -> i32;
    fn DuplicateHandle(
        from_process: Handle,
        handle: Handle,
        to_process: Handle,
        copy: *mut Handle,
        access: u32,
        inherit: i32,
        options: u32,
    ) -> i32;
    fn AssignProcessToJobObject(job: Handle, process: Handle) -> i32;
    fn TerminateJobObject(job: Handle, code: u32) -> i32;
    fn CloseHandle(handle: Handle) -> i32;
    fn SetConsoleCtrlHandler(
        handler: Option<unsafe extern "system" fn(u32) -> i32>,
        add: i32,
    ) -> i32;
    fn TerminateProcess(process: Handle, code: u32) -> i32;
    fn Sleep(ms: u32);
}

/// The jobs running now, by the pid of the program each was made for (0: a free slot),
/// and their handles: fixed tables of atomics, which the control handler reads.
const SLOTS: usize = 1024;
static PIDS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static JOBS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static HANDLER: Once = Once::new();
/// Programs started whose job is not in [`JOBS`] yet: the control handler waits for
/// them (a while at most) before it ends the jobs.
static STARTING: AtomicUsize = AtomicUsize::new(0);
/// Set by the control handler: the process is ending, and no program may start any
/// more.
static ENDING: AtomicBool = AtomicBool::new(false);
/// How long the control handler waits for programs being started, in milliseconds.
const STARTING_WAIT_MS: u32 = 2000;

/// `CTRL_C_EVENT`, `CTRL_BREAK_EVENT`: the keys, which end the run as SIGINT does on
/// Unix. The other events (the console closing, logoff, shutdown) end it as SIGHUP does.
const CTRL_C: u32 = 0;
const CTRL_BREAK: u32 = 1;
/// The exit statuses, those of the Unix build: 128 + SIGINT, 128 + SIGHUP.
const INTERRUPTED: u32 = 130;
const HUNG_UP: u32 = 129;

/// The exit status an `event` of the console ends the run with.
pub fn status_of(event: u32) -> u32 {
    match event {
        CTRL_C | CTRL_BREAK => INTERRUPTED,
        _ => HUNG_UP,
    }
}

/// The control handler, on a thread the system starts for it: takes the note (see
/// [`set_signal_note`]), ends every job (waiting a moment for the programs being
/// started), writes the note with one `WriteFile`, and ends the process with the status the Unix build would
/// have (see [`status_of`]). No allocation and no lock: another thread may hold any.
unsafe extern "system" fn on_control(event: u32) -> i32 {
    ENDING.store(true, Ordering::SeqCst);
    // The note as the run stood at the event: the programs ended below could otherwise
    // be taken for failures by the run's threads, which go on meanwhile.
    let mut line = [0u8; MAX];
    let note = interrupt::render(&mut line);
    let mut waited = 0;
    while STARTING.load(Ordering::SeqCst) > 0 && waited < STARTING_WAIT_MS {
        // SAFETY: Sleep takes a plain integer.
        unsafe { Sleep(1) };
        waited += 1;
    }
    end_all_jobs();
    if let Some(len) = note {
        crate::sys::os::write_stderr_raw(&line[..len]);
    }
    // SAFETY: ends this process at once, as _exit(2) does on Unix; the jobs' handles
    // close with it, which ends whatever they still hold.
    unsafe { TerminateProcess(GetCurrentProcess(), status_of(event)) };
    1
}

/// Ends every job in the table.
fn end_all_jobs() {
    for job in &JOBS {
        let job = job.load(Ordering::SeqCst);
        if job != 0 {
            // SAFETY: the handle stays open while its slot holds it (see `Tracked`).
            unsafe {
                TerminateJobObject(job as Handle, KILLED);
            }
        }
    }
}

fn install() {
    HANDLER.call_once(|| {
        // SAFETY: registers a handler that uses only atomics, its own stack and
        // system calls that take no lock of ours.
        unsafe {
            SetConsoleCtrlHandler(Some(on_control), 1);
        }
    });
}

/// A job made for `child` (its handle as a number, so that [`Tracked`] may move between
/// threads), and its slot.
fn new_job(child: &Child) -> Option<(usize, Option<usize>)> {
    // SAFETY: no attributes, no name; the result is checked.
    let job = unsafe { CreateJobObjectW(std::ptr::null_mut(), std::ptr::null()) };
    if job.is_null() {
        return None;
    }
    let mut limits = ExtendedLimits::default();
    limits.basic.flags = KILL_ON_CLOSE;
    // SAFETY: the structure is the one the class names, and lives across the call; the
    // process handle is the child's, open while `child` lives.
    let joined = unsafe {
        SetInformationJobObject(
            job,
            EXTENDED_LIMITS,
            (&limits as *const ExtendedLimits).cast(),
            std::mem::size_of::<ExtendedLimits>() as u32,
        );
        AssignProcessToJobObject(job, child.as_raw_handle().cast())
    };
    if joined == 0 {
        // SAFETY: ours, closed once.
        unsafe {
            CloseHandle(job);
        }
        return None;
    }
    let slot = PIDS.iter().position(|s| {
        s.compare_exchange(0, child.id() as usize, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    });
    if let Some(i) = slot {
        JOBS[i].store(job as usize, Ordering::SeqCst);
    }
    Some((job as usize, slot))
}

/// The job made for the program `pid`, if it is running.
fn job_of(pid: u32) -> Option<Handle> {
    let i = PIDS
        .iter()
        .position(|s| s.load(Ordering::SeqCst) == pid as usize)?;
    let job = JOBS[i].load(Ordering::SeqCst);
    (job != 0).then_some(job as Handle)
}

/// Ends every process in the job of `child`, if it has one.
fn end_job(child: &Child) {
    if let Some(job) = job_of(child.id()) {
        // SAFETY: the handle stays open while its slot holds it.
        unsafe {
            TerminateJobObject(job, KILLED);
        }
    }
}

/// A handle of its own on a program's job, for its memory: a limit on what the job's
/// processes commit together, and their peak (what Windows judges count). The job's
/// processes end when the last handle on it closes.
pub struct Job {
    job: usize,
    /// The program's own process, whose peak counts where the job keeps none (Wine).
    process: usize,
}

/// A copy of `handle`, ours to close; `None` when the system refuses.
fn duplicate(handle: Handle) -> Option<usize> {
    let mut copy: Handle = std::ptr::null_mut();
    // SAFETY: `handle` is open for the call; the copy goes to a local.
    let copied = unsafe {
        let own = GetCurrentProcess();
        DuplicateHandle(own, handle, own, &mut copy, 0, 0, SAME_ACCESS)
    };
    (copied != 0).then_some(copy as usize)
}

impl Job {
    /// The job of `child` (started by [`spawn_tracked`]), refusing to commit more than
    /// `cap` bytes; `None` when the program has no job or the system refuses.
    pub fn limited(child: &Child, cap: u64) -> Option<Job> {
        let job = duplicate(job_of(child.id())?)?;
        let Some(process) = duplicate(child.as_raw_handle().cast()) else {
            // SAFETY: ours, closed once.
            unsafe {
                CloseHandle(job as Handle);
            }
            return None;
        };
        let job = Job { job, process };
        let mut limits = ExtendedLimits::default();
        limits.basic.flags = KILL_ON_CLOSE | LIMIT_JOB_MEMORY;
        limits.job_memory_limit = usize::try_from(cap).unwrap_or(usize::MAX);
        // SAFETY: the structure is the one the class names, with its exact size.
        let set = unsafe {
            SetInformationJobObject(
                job.job as Handle,
                EXTENDED_LIMITS,
                (&limits as *const ExtendedLimits).cast(),
                std::mem::size_of::<ExtendedLimits>() as u32,
            )
        };
        (set != 0).then_some(job)
    }

    /// The most memory the job's processes have committed together, in bytes; at
    /// least the program's own peak (a job under Wine keeps no figure).
    pub fn peak(&self) -> Option<u64> {
        let mut limits = ExtendedLimits::default();
        let mut counters = MemoryCounters {
            size: std::mem::size_of::<MemoryCounters>() as u32,
            ..MemoryCounters::default()
        };
        // SAFETY: as in `limited`; the system writes at most the sizes given, into
        // locals.
        let (job, own) = unsafe {
            let job = QueryInformationJobObject(
                self.job as Handle,
                EXTENDED_LIMITS,
                (&mut limits as *mut ExtendedLimits).cast(),
                std::mem::size_of::<ExtendedLimits>() as u32,
                std::ptr::null_mut(),
            );
            let own = K32GetProcessMemoryInfo(self.process as Handle, &mut counters, counters.size);
            (job != 0, own != 0)
        };
        let job = job.then_some(limits.peak_job_memory as u64);
        let own = own.then_some(counters.peak_pagefile as u64);
        job.max(own)
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // SAFETY: the copies are ours and closed once.
        unsafe {
            CloseHandle(self.job as Handle);
            CloseHandle(self.process as Handle);
        }
    }
}

/// A program's job, ended and closed when this is dropped (once the program is reaped).
pub struct Tracked {
    job: Option<(usize, Option<usize>)>,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        if let Some((job, slot)) = self.job.take() {
            if let Some(i) = slot {
                JOBS[i].store(0, Ordering::SeqCst);
                PIDS[i].store(0, Ordering::SeqCst);
            }
            // SAFETY: ours, closed once; closing ends what is left in the job.
            unsafe {
                TerminateJobObject(job as Handle, KILLED);
                CloseHandle(job as Handle);
            }
        }
    }
}

/// Starts `command` in a job of its own; Ctrl-C ends the job too.
pub fn spawn_tracked(command: &mut Command) -> io::Result<(Child, Tracked)> {
    install();
    interrupt::announce_start(&STARTING, &ENDING);
    let started = command.spawn();
    let job = started.as_ref().ok().and_then(new_job);
    STARTING.fetch_sub(1, Ordering::SeqCst);
    Ok((started?, Tracked { job }))
}

/// Nothing to do: the job is made at the start.
pub fn isolate(_: &mut Command) {}

/// Ends the program and everything in its job.
pub fn kill_all(child: &mut Child, _running: bool, _pipes: &[i32]) {
    end_job(child);
    let _ = child.kill();
}

/// [`kill_all`] for a program already reaped: its job still names what it started,
/// and its handle still names it.
pub fn kill_reaped(child: &mut Child, _pipes: &[i32]) {
    end_job(child);
    let _ = child.kill();
}

/// Ends what is left in the program's job after it ended by itself.
pub fn end_group(child: &Child) {
    end_job(child);
}

/// No names to give: a job holds all a program started.
pub fn pipe_names(_fds: &[i32]) -> Vec<String> {
    Vec::new()
}

/// Nothing to do: jobs hold what programs leave running.
pub fn adopt_orphans() {}

/// Nothing to sweep: a job's processes end with it.
pub fn sweep_orphans() -> usize {
    0
}

/// Nothing to register.
pub struct RunPipes;

impl RunPipes {
    /// Nothing to register.
    pub fn new(_names: Vec<String>) -> RunPipes {
        RunPipes
    }
}

/// From now on Ctrl-C, Ctrl-Break or the console closing writes `head`, the count (see
/// [`count_for_signal_note`]) and `tail` as one line on standard error before the
/// process ends (see [`crate::sandbox::interrupt`]).
pub fn set_signal_note(head: &str, tail: &str) {
    install();
    interrupt::set(head, tail);
}

/// Adds `n` to the count the note says.
pub fn count_for_signal_note(n: u64) {
    interrupt::count(n);
}
