//! Control groups (Linux): a group of its own for each run, made below the group this
//! process is in, so that the kernel counts the run's memory and holds its processes as
//! online judges' sandboxes do (`isolate`, DOMjudge's runguard). A process the program
//! starts is in the group whatever it does with its environment, its session or its
//! parent, and stays there; the kernel charges a page to the group once, however many of
//! its processes map it (a page shared copy-on-write after a `fork`) and wherever it lives
//! (the heap, a `memfd`, a file in `/dev/shm`); it keeps the group's peak; and the group
//! is killed at once, however fast its processes fork.
//!
//! Two kinds of hierarchy are used, whichever the system mounts with the memory
//! controller: cgroup v2 (`memory.peak`, `memory.max`, `cgroup.kill`), where the memory
//! controller is enabled for the children of this process's group (a delegated subtree,
//! or the top); and cgroup v1's memory controller (`memory.max_usage_in_bytes`,
//! `memory.limit_in_bytes`), with the v1 freezer beside it where it is mounted, to stop
//! the group's processes before they are killed. A run's group is named
//! `duckchess-PID-N` (this process's id, the run's number); the kernel's limit on it is
//! twice the run's, a safety net for the machine (the runner itself stops a program
//! once it is over its limit). A program enters its group before it is executed (see
//! [`Entry`]), so that nothing it does comes before.
//!
//! Groups left by a runner that was killed (`SIGKILL` cannot be handled) are killed and
//! removed by the next one to make a group, and the interrupt handler
//! ([`end_all_in_handler`]) ends and removes those of the runs in progress.
//!
//! Where no group can be made (no hierarchy with the memory controller, no right to
//! make a group, or [`NO_GROUP`] set), [`RunGroup::new`] says so and the runner counts
//! the run's processes itself ([`super::memory`]).

use std::ffi::CString;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The environment variable that, set to anything, keeps the runner from making control
/// groups: it then counts memory as where none can be made. For testing that way on a
/// machine that has groups.
pub const NO_GROUP: &str = "DUCKCHESS_NO_CGROUP";

/// How long ending a group may wait for its processes to go.
const END_TIME: Duration = Duration::from_secs(2);

use super::calls::{close, kill, nanosleep, open, read, rmdir, write, Timespec};

/// `open(2)` flags: the same on every Linux architecture but `O_CLOEXEC`, which SPARC
/// numbers otherwise.
const O_RDONLY: i32 = 0;
const O_WRONLY: i32 = 1;
#[cfg(not(any(target_arch = "sparc", target_arch = "sparc64")))]
const O_CLOEXEC: i32 = 0o2_000_000;
#[cfg(any(target_arch = "sparc", target_arch = "sparc64"))]
const O_CLOEXEC: i32 = 0x40_0000;
const SIGKILL: i32 = 9;

/// The hierarchy the groups are made in, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Hierarchy {
    /// cgroup v2: this process's group, whose children get the memory controller.
    V2 { dir: PathBuf },
    /// cgroup v1: this process's memory group, and its freezer group where there is one.
    V1 {
        memory: PathBuf,
        freezer: Option<PathBuf>,
    },
}

/// Where run groups are made, found once; `None` where none can be.
fn hierarchy() -> Option<&'static Hierarchy> {
    static FOUND: OnceLock<Option<Hierarchy>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            if std::env::var_os(NO_GROUP).is_some() {
                return None;
            }
            let mounts = fs::read_to_string("/proc/self/mountinfo").ok()?;
            let own = fs::read_to_string("/proc/self/cgroup").ok()?;
            let found = find(&mounts, &own)?;
            let found = usable(found)?;
            remove_stale(&found);
            publish(&found);
            Some(found)
        })
        .as_ref()
}

/// A mount of a cgroup hierarchy, from `/proc/self/mountinfo`.
#[derive(Debug)]
struct Mount {
    /// The hierarchy's folder that is mounted (`/` unless a part is).
    root: String,
    point: PathBuf,
    /// `cgroup2`, or `cgroup` with its controllers.
    v2: bool,
    controllers: Vec<String>,
}

/// The cgroup mounts listed in `mountinfo`.
fn mounts(mountinfo: &str) -> Vec<Mount> {
    let mut found = Vec::new();
    for line in mountinfo.lines() {
        let Some((before, after)) = line.split_once(" - ") else {
            continue;
        };
        let fields: Vec<&str> = before.split(' ').collect();
        let after: Vec<&str> = after.split(' ').collect();
        let (Some(root), Some(point), Some(kind)) = (fields.get(3), fields.get(4), after.first())
        else {
            continue;
        };
        let v2 = *kind == "cgroup2";
        if !v2 && *kind != "cgroup" {
            continue;
        }
        let controllers = after
            .get(2)
            .map(|o| o.split(',').map(str::to_string).collect())
            .unwrap_or_default();
        found.push(Mount {
            root: unescape(root),
            point: PathBuf::from(unescape(point)),
            v2,
            controllers,
        });
    }
    found
}

/// A `mountinfo` field with its octal escapes (`\040` for a space) undone.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|d| bytes[i] == b'\\' && d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match octal {
            Some(d) => {
                out.push((d[0] - b'0') * 64 + (d[1] - b'0') * 8 + (d[2] - b'0'));
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The folder of this process's group in `mount`, from its path in the hierarchy
/// (`/proc/self/cgroup`): `None` when the mount does not show it.
fn folder(mount: &Mount, path: &str) -> Option<PathBuf> {
    let rest = if mount.root == "/" {
        path
    } else {
        let rest = path.strip_prefix(mount.root.as_str())?;
        if !rest.is_empty() && !rest.starts_with('/') {
            return None;
        }
        rest
    };
    Some(mount.point.join(rest.trim_start_matches('/')))
}

/// The hierarchy to make groups in, from `mountinfo` and `/proc/self/cgroup` (`own`):
/// v1's memory controller where it is mounted (the controller is then not in v2),
/// else v2.
fn find(mountinfo: &str, own: &str) -> Option<Hierarchy> {
    let mounts = mounts(mountinfo);
    // "ID:controllers:path" for each hierarchy this process is in.
    let path_of = |controller: &str| -> Option<(String, &Mount)> {
        own.lines().find_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
            if controller.is_empty() {
                if !names.is_empty() {
                    return None;
                }
                let mount = mounts.iter().find(|m| m.v2)?;
                return Some((path.to_string(), mount));
            }
            if !names.split(',').any(|n| n == controller) {
                return None;
            }
            let mount = mounts
                .iter()
                .find(|m| !m.v2 && m.controllers.iter().any(|c| c == controller))?;
            Some((path.to_string(), mount))
        })
    };
    if let Some((path, mount)) = path_of("memory") {
        let memory = folder(mount, &path)?;
        let freezer = path_of("freezer").and_then(|(path, mount)| folder(mount, &path));
        return Some(Hierarchy::V1 { memory, freezer });
    }
    let (path, mount) = path_of("")?;
    Some(Hierarchy::V2 {
        dir: folder(mount, &path)?,
    })
}

/// `found`, if groups with the memory controller can be made there: v1 as it is (the
/// first group made tells), v2 when the memory controller is, or can be, enabled for
/// the children of this process's group.
fn usable(found: Hierarchy) -> Option<Hierarchy> {
    match &found {
        Hierarchy::V1 { memory, freezer } => {
            let freezer = freezer
                .as_ref()
                .filter(|f| f.join("freezer.state").exists() || f.join("tasks").exists())
                .cloned();
            memory.join("cgroup.procs").exists().then(|| Hierarchy::V1 {
                memory: memory.clone(),
                freezer,
            })
        }
        Hierarchy::V2 { dir } => {
            let words = |name: &str| fs::read_to_string(dir.join(name)).unwrap_or_default();
            let has = |text: String| text.split_whitespace().any(|w| w == "memory");
            if !has(words("cgroup.controllers")) {
                return None;
            }
            if !has(words("cgroup.subtree_control")) {
                // Fails where this group holds processes and is not the top: the
                // controller is then not ours to enable.
                fs::write(dir.join("cgroup.subtree_control"), "+memory").ok()?;
            }
            Some(found)
        }
    }
}

/// The folders that hold run groups: v2's one, or v1's memory and freezer folders.
fn parents(h: &Hierarchy) -> Vec<&Path> {
    match h {
        Hierarchy::V2 { dir } => vec![dir.as_path()],
        Hierarchy::V1 { memory, freezer } => {
            let mut all = vec![memory.as_path()];
            all.extend(freezer.as_deref());
            all
        }
    }
}

/// The pid in a run group's name (`duckchess-PID-N`).
fn owner(name: &str) -> Option<i32> {
    let rest = name.strip_prefix("duckchess-")?;
    let (pid, n) = rest.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Kills and removes the run groups whose runner is gone (killed before it could).
fn remove_stale(h: &Hierarchy) {
    for parent in parents(h) {
        let Ok(entries) = fs::read_dir(parent) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(owner) else {
                continue;
            };
            if Path::new(&format!("/proc/{pid}")).exists() {
                continue;
            }
            // Dropped at once: its processes killed, its folder removed.
            drop(RunGroup {
                dirs: vec![entry.path()],
                v2: matches!(h, Hierarchy::V2 { .. }),
                freezer: None,
                slot: None,
            });
        }
    }
}

/// Set once a group could not be made, or a program could not enter one: no more are
/// tried.
static BROKEN: AtomicBool = AtomicBool::new(false);

/// One run's control group.
#[derive(Debug)]
pub struct RunGroup {
    /// Its folders: v2's one; v1's memory folder, then the freezer's if any.
    dirs: Vec<PathBuf>,
    v2: bool,
    /// v1: the freezer folder (also the last of `dirs`).
    freezer: Option<PathBuf>,
    /// Its place in the interrupt handler's table.
    slot: Option<usize>,
}

impl RunGroup {
    /// Makes a group for one run whose limit is `limit` bytes (the kernel's limit is
    /// twice that); `None` where no group can be made (see the module).
    pub fn new(limit: u64) -> Option<RunGroup> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        if BROKEN.load(Ordering::Relaxed) {
            return None;
        }
        let h = hierarchy()?;
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let name = format!("duckchess-{}-{n}", std::process::id());
        let slot = claim(n);
        let mut group = RunGroup {
            dirs: Vec::new(),
            v2: matches!(h, Hierarchy::V2 { .. }),
            freezer: None,
            slot,
        };
        for parent in parents(h) {
            let dir = parent.join(&name);
            if let Err(e) = fs::create_dir(&dir) {
                // A v1 freezer folder is a help, not a need.
                let is_freezer = matches!(h, Hierarchy::V1 { freezer: Some(f), .. } if f == parent);
                if is_freezer {
                    continue;
                }
                if e.kind() != io::ErrorKind::AlreadyExists {
                    BROKEN.store(true, Ordering::Relaxed);
                }
                // Dropped: what was made is removed.
                return None;
            }
            if matches!(h, Hierarchy::V1 { freezer: Some(f), .. } if f == parent) {
                group.freezer = Some(dir.clone());
            }
            group.dirs.push(dir);
        }
        let cap = limit.saturating_mul(2).to_string();
        let limit_file = if group.v2 {
            "memory.max"
        } else {
            "memory.limit_in_bytes"
        };
        // A safety net only: where it cannot be set, the runner's own kill remains.
        let _ = fs::write(group.dirs[0].join(limit_file), cap);
        Some(group)
    }

    /// Makes no more groups in this process: a program could not enter one.
    pub fn give_up() {
        BROKEN.store(true, Ordering::Relaxed);
    }

    /// What a program does to enter the group (see [`Entry`]).
    pub fn entry(&self) -> Entry {
        Entry(
            self.dirs
                .iter()
                .filter_map(|d| {
                    let path = d.join("cgroup.procs");
                    CString::new(path.into_os_string().into_encoded_bytes()).ok()
                })
                .collect(),
        )
    }

    /// The group's peak memory so far, in bytes, as the kernel counts it.
    pub fn peak(&self) -> Option<u64> {
        let dir = &self.dirs[0];
        if self.v2 {
            number(&dir.join("memory.peak")).or_else(|| number(&dir.join("memory.current")))
        } else {
            number(&dir.join("memory.max_usage_in_bytes"))
        }
    }

    /// Whether the kernel killed a process of the group for want of memory (over its
    /// limit, twice the run's).
    pub fn out_of_memory(&self) -> bool {
        let (file, key) = if self.v2 {
            ("memory.events", "oom_kill")
        } else {
            ("memory.oom_control", "oom_kill")
        };
        let text = fs::read_to_string(self.dirs[0].join(file)).unwrap_or_default();
        text.lines().any(|l| {
            l.split_once(' ')
                .is_some_and(|(k, v)| k == key && v.trim().parse::<u64>().is_ok_and(|n| n > 0))
        })
    }

    /// The processes in the group and in any group below it (a runner among them may
    /// have made some).
    pub fn procs(&self) -> Vec<i32> {
        let mut all = Vec::new();
        let mut todo = vec![self.dirs[0].clone()];
        while let Some(dir) = todo.pop() {
            if let Ok(text) = fs::read_to_string(dir.join("cgroup.procs")) {
                all.extend(
                    text.split_whitespace()
                        .filter_map(|w| w.parse::<i32>().ok()),
                );
            }
            todo.extend(subgroups(&dir));
        }
        all
    }

    /// Kills every process in the group at once, and waits (for a moment at most) until
    /// none is left: v2's `cgroup.kill`, or the processes frozen, killed and thawed; in
    /// rounds where neither can be had.
    pub fn kill(&self) {
        if self.procs().is_empty() {
            return;
        }
        let deadline = Instant::now() + END_TIME;
        if self.v2 && fs::write(self.dirs[0].join("cgroup.kill"), "1").is_ok() {
            self.wait_empty(deadline);
            return;
        }
        let frozen = self.freeze(true, deadline);
        let mut first = true;
        loop {
            let procs = self.procs();
            if procs.is_empty() || Instant::now() >= deadline {
                break;
            }
            for &pid in &procs {
                // SAFETY: kill(2) takes plain integers; each pid was listed a moment
                // ago in the run's group, which holds only the run's processes.
                unsafe {
                    kill(pid, SIGKILL);
                }
            }
            if first && frozen {
                // Frozen, they could not fork meanwhile: every one was listed. They go
                // once thawed.
                self.freeze(false, deadline);
            }
            first = false;
            std::thread::sleep(Duration::from_micros(500));
        }
        if frozen && first {
            self.freeze(false, deadline);
        }
    }

    /// Freezes the group (or thaws it): whether it is frozen now.
    fn freeze(&self, on: bool, deadline: Instant) -> bool {
        let (file, value, done) = match (&self.freezer, self.v2) {
            (_, true) => (
                self.dirs[0].join("cgroup.freeze"),
                if on { "1" } else { "0" },
                "frozen 1",
            ),
            (Some(f), false) => (
                f.join("freezer.state"),
                if on { "FROZEN" } else { "THAWED" },
                "FROZEN",
            ),
            (None, false) => return false,
        };
        if fs::write(&file, value).is_err() || !on {
            return false;
        }
        let state = if self.v2 {
            self.dirs[0].join("cgroup.events")
        } else {
            file
        };
        loop {
            let text = fs::read_to_string(&state).unwrap_or_default();
            if text.lines().any(|l| l.trim() == done) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// Waits until the group holds no process, or `deadline`.
    fn wait_empty(&self, deadline: Instant) {
        while !self.procs().is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// Removes the group's folders, the groups below them first (once no process is
    /// left in them).
    fn remove(&self) {
        for dir in &self.dirs {
            remove_tree(dir);
        }
    }
}

impl Drop for RunGroup {
    /// Ends what is left in the group and removes it.
    fn drop(&mut self) {
        if !self.dirs.is_empty() {
            self.kill();
            self.remove();
        }
        release(self.slot);
    }
}

/// The groups below `dir`.
fn subgroups(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

/// Removes the group `dir` and those below it, deepest first. A group is a folder whose
/// files the kernel keeps: `rmdir` removes it once no process and no group is in it.
fn remove_tree(dir: &Path) {
    for sub in subgroups(dir) {
        remove_tree(&sub);
    }
    let deadline = Instant::now() + END_TIME;
    // A process killed a moment ago may still be leaving the group; a group this user
    // may not remove (another user's runner left it) is left at once.
    while let Err(e) = fs::remove_dir(dir) {
        let refused = e.kind() == io::ErrorKind::PermissionDenied;
        if refused || !dir.exists() || Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_micros(500));
    }
}

/// A number in a file of the group (`123456\n`).
fn number(path: &Path) -> Option<u64> {
    let mut text = String::new();
    fs::File::open(path).ok()?.read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

/// What a program does to enter its run's group: writes `0` (itself) into each of the
/// group's `cgroup.procs`. It is done by the program itself between its fork and its
/// exec, so that it is in the group before it runs a single instruction of its own
/// and before it can start anything (a parent that moved the child after its start
/// could miss what it started meanwhile).
#[derive(Debug, Default)]
pub struct Entry(Vec<CString>);

impl Entry {
    /// Enters the group. Only system calls on memory prepared beforehand: safe between a
    /// fork and an exec, in a child of a process with other threads.
    pub fn enter(&self) -> io::Result<()> {
        for path in &self.0 {
            // SAFETY: open(2), write(2) and close(2) are async-signal-safe; the path
            // is a NUL-terminated string made before the fork, the written byte a
            // constant.
            unsafe {
                let fd = open(path.as_ptr().cast(), O_WRONLY | O_CLOEXEC);
                if fd < 0 {
                    return Err(io::Error::last_os_error());
                }
                let written = write(fd, b"0".as_ptr(), 1);
                let e = io::Error::last_os_error();
                close(fd);
                if written != 1 {
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Removes the group's folders, once every process of it has ended (a runner that
    /// was killed leaves them to its supervisor). Only system calls on memory prepared
    /// beforehand and a buffer on the stack: safe in a forked child.
    pub fn remove(&self) {
        let mut folder = [0u8; 4096];
        for path in &self.0 {
            let bytes = path.as_bytes();
            let Some(cut) = bytes.iter().rposition(|&b| b == b'/') else {
                continue;
            };
            if cut + 1 > folder.len() {
                continue;
            }
            folder[..cut].copy_from_slice(&bytes[..cut]);
            folder[cut] = 0;
            // SAFETY: rmdir(2) on a NUL-terminated path in a buffer of ours.
            unsafe {
                rmdir(folder.as_ptr());
            }
        }
    }
}

/// The interrupt handler's view of the groups of the runs in progress: their numbers
/// plus one (0 for a free slot), and the folders they are made in, as byte strings
/// that live as long as the process. Atomics only, for a handler may touch nothing
/// else.
const SLOTS: usize = 1024;
static LIVE: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];
/// The folders holding the groups (at most two: v1's memory and freezer), with their
/// lengths; whether they are v2's, and which is v1's freezer.
static PARENTS: [AtomicPtr<u8>; 2] = [const { AtomicPtr::new(std::ptr::null_mut()) }; 2];
static PARENT_LENS: [AtomicUsize; 2] = [const { AtomicUsize::new(0) }; 2];
static IS_V2: AtomicBool = AtomicBool::new(false);
static HAS_FREEZER: AtomicBool = AtomicBool::new(false);

/// Tells the handler where groups are made (once).
fn publish(h: &Hierarchy) {
    IS_V2.store(matches!(h, Hierarchy::V2 { .. }), Ordering::SeqCst);
    HAS_FREEZER.store(
        matches!(
            h,
            Hierarchy::V1 {
                freezer: Some(_),
                ..
            }
        ),
        Ordering::SeqCst,
    );
    for (i, parent) in parents(h).into_iter().enumerate().take(2) {
        let bytes = parent.as_os_str().as_encoded_bytes().to_vec();
        let leaked: &'static mut [u8] = Box::leak(bytes.into_boxed_slice());
        PARENT_LENS[i].store(leaked.len(), Ordering::SeqCst);
        PARENTS[i].store(leaked.as_mut_ptr(), Ordering::SeqCst);
    }
}

/// A slot of the handler's table for run `n` (none when it is full).
fn claim(n: u64) -> Option<usize> {
    LIVE.iter().position(|s| {
        s.compare_exchange(0, n + 1, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    })
}

fn release(slot: Option<usize>) {
    if let Some(i) = slot {
        LIVE[i].store(0, Ordering::SeqCst);
    }
}

/// The folder `i` of [`PARENTS`], where it is set.
fn parent(i: usize) -> Option<&'static [u8]> {
    let ptr = PARENTS.get(i)?.load(Ordering::SeqCst);
    if ptr.is_null() {
        return None;
    }
    let len = PARENT_LENS[i].load(Ordering::SeqCst);
    // SAFETY: the pointer and length are those of a slice leaked by `publish`, never
    // freed or changed (the length is stored before the pointer).
    Some(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// A path built in a buffer on the stack, NUL-terminated: for the handler, which may
/// not allocate.
struct PathBuf0 {
    bytes: [u8; 512],
    len: usize,
}

impl PathBuf0 {
    /// `parent/duckchess-PID-N` and `file`; `None` when it does not fit.
    fn new(parent: &[u8], pid: u32, n: u64, file: &[u8]) -> Option<PathBuf0> {
        let mut p = PathBuf0 {
            bytes: [0; 512],
            len: 0,
        };
        p.push(parent)?;
        p.push(b"/duckchess-")?;
        p.number(u64::from(pid))?;
        p.push(b"-")?;
        p.number(n)?;
        p.push(file)?;
        p.push(b"\0")?;
        Some(p)
    }

    fn push(&mut self, part: &[u8]) -> Option<()> {
        let end = self.len + part.len();
        self.bytes.get_mut(self.len..end)?.copy_from_slice(part);
        self.len = end;
        Some(())
    }

    fn number(&mut self, n: u64) -> Option<()> {
        let mut digits = [0u8; 20];
        self.push(super::interrupt::decimal(n, &mut digits))
    }

    fn ptr(&self) -> *const u8 {
        self.bytes.as_ptr()
    }
}

/// Writes `value` into the file at `path`; whether it was taken. Handler-safe.
fn write_file(path: &PathBuf0, value: &[u8]) -> bool {
    // SAFETY: async-signal-safe calls on a NUL-terminated path and a buffer of ours.
    unsafe {
        let fd = open(path.ptr(), O_WRONLY | O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let ok = write(fd, value.as_ptr(), value.len()) == value.len() as isize;
        close(fd);
        ok
    }
}

/// Kills every process listed in the `cgroup.procs` at `path`; how many. Handler-safe.
fn kill_listed(path: &PathBuf0) -> usize {
    // SAFETY: async-signal-safe calls; the path is NUL-terminated, and read(2) writes
    // at most the buffer's length into it.
    unsafe {
        let fd = open(path.ptr(), O_RDONLY | O_CLOEXEC);
        if fd < 0 {
            return 0;
        }
        let mut buf = [0u8; 4096];
        let (mut pid, mut in_number, mut killed) = (0i32, false, 0);
        loop {
            let got = read(fd, buf.as_mut_ptr(), buf.len());
            if got <= 0 {
                break;
            }
            for &b in &buf[..got as usize] {
                if b.is_ascii_digit() {
                    pid = pid.saturating_mul(10).saturating_add(i32::from(b - b'0'));
                    in_number = true;
                } else if in_number {
                    kill(pid, SIGKILL);
                    killed += 1;
                    pid = 0;
                    in_number = false;
                }
            }
        }
        close(fd);
        killed
    }
}

/// From the interrupt handler, before the process ends: kills every process in the
/// groups of the runs in progress (v2: `cgroup.kill`; v1: frozen, killed, thawed), then
/// removes the groups as they empty, for a few hundred milliseconds at most (what is
/// left then, the next runner removes). Only calls that are safe in a signal handler,
/// and no allocation.
pub fn end_all_in_handler() {
    let pid = std::process::id();
    let v2 = IS_V2.load(Ordering::SeqCst);
    let freezer = HAS_FREEZER
        .load(Ordering::SeqCst)
        .then(|| parent(1))
        .flatten();
    let Some(first) = parent(0) else {
        return;
    };
    let tick = Timespec {
        tv_sec: 0,
        tv_nsec: 2_000_000,
    };
    let nap = || {
        // SAFETY: nanosleep(2) is async-signal-safe; the request is ours.
        unsafe { nanosleep(&tick, std::ptr::null_mut()) };
    };
    let procs = |n: u64| PathBuf0::new(first, pid, n, b"/cgroup.procs");
    for slot in &LIVE {
        let Some(n) = slot.load(Ordering::SeqCst).checked_sub(1) else {
            continue;
        };
        let killed = v2
            && PathBuf0::new(first, pid, n, b"/cgroup.kill").is_some_and(|p| write_file(&p, b"1"));
        if killed {
            continue;
        }
        let state = freezer.and_then(|f| PathBuf0::new(f, pid, n, b"/freezer.state"));
        let frozen = state.as_ref().is_some_and(|s| write_file(s, b"FROZEN"));
        if frozen {
            // Time for the freezer to stop them; any still running is killed in the
            // rounds below.
            for _ in 0..10 {
                nap();
            }
        }
        if let Some(p) = procs(n) {
            kill_listed(&p);
        }
        if let Some(s) = state.filter(|_| frozen) {
            write_file(&s, b"THAWED");
        }
    }
    for _ in 0..100 {
        let mut left = false;
        for slot in &LIVE {
            let Some(n) = slot.load(Ordering::SeqCst).checked_sub(1) else {
                continue;
            };
            if let Some(p) = procs(n) {
                kill_listed(&p);
            }
            for dir in [Some(first), freezer].into_iter().flatten() {
                if let Some(path) = PathBuf0::new(dir, pid, n, b"") {
                    // SAFETY: rmdir(2) is async-signal-safe; the path is ours. It fails
                    // with ENOENT once the folder is gone (or was never made).
                    let r = unsafe { rmdir(path.ptr()) };
                    left |= r != 0 && last_errno() != ENOENT;
                }
            }
        }
        if !left {
            return;
        }
        nap();
    }
}

/// `ENOENT`, the same on every Linux architecture.
const ENOENT: i32 = 2;

/// The calling thread's `errno`, without allocating.
fn last_errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
    const V1_OWN: &str = "6:freezer:/\n4:memory:/jobs/a b\n1:cpu:/\n0::/\n";

    #[test]
    fn v1_memory_is_preferred_with_its_freezer() {
        assert_eq!(
            find(V1, V1_OWN),
            Some(Hierarchy::V1 {
                memory: PathBuf::from("/sys/fs/cgroup/memory/jobs/a b"),
                freezer: Some(PathBuf::from("/sys/fs/cgroup/freezer")),
            })
        );
    }

    #[test]
    fn v2_alone_and_mounts_of_a_part() {
        let v2 = "30 23 0:26 /user.slice /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n";
        assert_eq!(
            find(v2, "0::/user.slice/run\\040x\n"),
            Some(Hierarchy::V2 {
                dir: PathBuf::from("/sys/fs/cgroup/run\\040x"),
            })
        );
        // A group the mount does not show.
        assert_eq!(find(v2, "0::/system.slice/x\n"), None);
        assert_eq!(find(v2, "0::/user.slicex\n"), None);
        // Nothing mounted.
        assert_eq!(find("", V1_OWN), None);
        let spaced = "41 31 0:38 / /mnt/cg\\040two rw - cgroup2 cgroup2 rw\n";
        assert_eq!(
            find(spaced, "0::/a\n"),
            Some(Hierarchy::V2 {
                dir: PathBuf::from("/mnt/cg two/a"),
            })
        );
    }

    #[test]
    fn run_group_names_say_their_runner() {
        assert_eq!(owner("duckchess-123-4"), Some(123));
        assert_eq!(owner("duckchess-123"), None);
        assert_eq!(owner("duckchess-x-4"), None);
        assert_eq!(owner("other-123-4"), None);
    }

    #[test]
    fn handler_paths_are_built_on_the_stack() {
        let p = PathBuf0::new(b"/m", 42, 7, b"/cgroup.procs").expect("fits");
        assert_eq!(&p.bytes[..p.len], b"/m/duckchess-42-7/cgroup.procs\0");
        assert!(PathBuf0::new(b"/m", 42, 7, &[b'x'; 600]).is_none());
    }
}
