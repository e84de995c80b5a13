//! Process groups for the programs under test: each runs in a group of its own, so that
//! a timeout kills what it started too (`sh script.sh` running `./a.out` leaves no
//! spinning orphan). And since a group of its own does not get the terminal's Ctrl-C,
//! an interrupt or termination signal to us kills every group still running before we
//! go: stopping `test` or `stress` never leaves a looping solution behind.
//!
//! A process can leave its group (`setsid`). On Linux, a kill also looks through
//! `/proc` for what escaped: the processes descended from a program still running, and
//! any process holding one of its pipes open (which is what could otherwise keep the
//! runner waiting), and kills them too. And a runner becomes the subreaper of what it
//! starts ([`adopt_orphans`], `prctl(PR_SET_CHILD_SUBREAPER)`): a process whose parent
//! ends is handed to us, not to init, however it left the group, the session or its
//! descriptors (a daemon started with `setsid ... &`, a double fork); after each run
//! [`sweep_orphans`] ends them, with all they started, and reaps them, so a run leaves
//! no process behind. The programs under test run one level further down, under a
//! supervisor of their run that is the subreaper of that run alone, and in a control
//! group of their own where one can be made ([`super::contain`]): what comes to the
//! runner is what outlived a supervisor that was killed. Elsewhere only the group is
//! killed: a process that leaves it and is orphaned survives.
//!
//! Parallel runs share the one subreaper: a sweep passes over the programs still
//! running (each registered from its start, under a lock that keeps sweeps and starts
//! apart, so no child is between its fork and its exec while a sweep looks) and over
//! adopted processes that hold the pipes of a run still in progress (they are that
//! run's, and go when it ends).
//!
//! On Windows a job object stands for the group ([`super::job`]); Unix and Windows are
//! the systems the runners support. Elsewhere (WebAssembly in a browser, where the rules
//! and the engine run but no program can be started) starting a program fails as `std`
//! fails there, and there is nothing to end.

#[cfg(unix)]
mod unix {
    use crate::sandbox::interrupt::{self, MAX};
    use std::io;
    use std::process::{Child, Command};
    use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
    use std::sync::{Mutex, Once, RwLock};
    use std::time::{Duration, Instant};

    use crate::sandbox::calls::{_exit, getpid, kill, nanosleep, signal, waitpid, write, Timespec};

    /// `waitpid(2)`'s "do not wait" option, the same on every Unix.
    const WNOHANG: i32 = 1;

    /// Numbers that are the same on every Unix.
    const SIGHUP: i32 = 1;
    const SIGINT: i32 = 2;
    const SIGKILL: i32 = 9;
    const SIGTERM: i32 = 15;

    /// The groups running now (their leaders' pids; 0 for a free slot). A fixed table of
    /// atomics, because the signal handler may touch nothing else.
    const SLOTS: usize = 1024;
    static RUNNING: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
    /// Programs started but not yet in [`RUNNING`]: a signal that comes between the two
    /// waits for them.
    static STARTING: AtomicUsize = AtomicUsize::new(0);
    /// Set by the signal handler: the process is ending, and no program may start any
    /// more (another thread could otherwise start one while the handler ends the rest).
    static ENDING: AtomicBool = AtomicBool::new(false);
    static HANDLER: Once = Once::new();
    /// How long the handler waits for a program being started, in spins (some tens of
    /// milliseconds): bounded, since the handler may be running on the very thread that
    /// is starting it.
    const STARTING_SPINS: u32 = 50_000_000;

    /// Kills every group in the table.
    fn kill_running() {
        for slot in &RUNNING {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill(2) is async-signal-safe and takes plain integers.
                unsafe {
                    kill(-pid, SIGKILL);
                }
            }
        }
    }

    /// The signal handler: kill every running group, and those being started, then end as the signal would. The note is
    /// taken first: the run as it stood at the signal, not as the programs killed
    /// meanwhile leave it (another thread could take one for a failure).
    extern "C" fn on_signal(signum: i32) {
        ENDING.store(true, Ordering::SeqCst);
        let mut line = [0u8; MAX];
        let note = interrupt::render(&mut line);
        kill_running();
        let mut spins = 0;
        while STARTING.load(Ordering::SeqCst) > 0 && spins < STARTING_SPINS {
            std::hint::spin_loop();
            spins += 1;
        }
        kill_running();
        // Every process of the runs in progress, in their control groups.
        #[cfg(target_os = "linux")]
        crate::sandbox::cgroup::end_all_in_handler();
        #[cfg(target_os = "linux")]
        if ADOPTING.load(Ordering::SeqCst) {
            adopted::end_all_in_handler();
        }
        if let Some(len) = note {
            // SAFETY: write(2) is async-signal-safe; the buffer lives on our stack. A
            // failed or short write has nowhere to be reported.
            unsafe {
                write(2, line.as_ptr(), len);
            }
        }
        // SAFETY: _exit(2) is async-signal-safe; 128 + the signal is the shell's way of
        // saying "ended by a signal".
        unsafe { _exit(128 + signum) }
    }

    /// From now on an interrupt or termination signal writes `head`, the count (see
    /// [`count_for_signal_note`]) and `tail` as one line on standard error before the
    /// process ends (see [`crate::sandbox::interrupt`]).
    pub fn set_signal_note(head: &str, tail: &str) {
        install();
        interrupt::set(head, tail);
    }

    /// Adds `n` to the count the signal note says.
    pub fn count_for_signal_note(n: u64) {
        interrupt::count(n);
    }

    /// Installs the signal handler, once.
    fn install() {
        HANDLER.call_once(|| {
            let handler = on_signal as extern "C" fn(i32) as usize;
            for signum in [SIGHUP, SIGINT, SIGTERM] {
                // SAFETY: signal(2) installs a handler that only uses atomics, kill(2)
                // and _exit(2), all async-signal-safe.
                unsafe {
                    signal(signum, handler);
                }
            }
        });
    }

    /// Starts `command` (see [`isolate`]) and tracks its group: from before the start
    /// on, an interrupt or termination signal to us ends it too, whenever it comes.
    pub fn spawn_tracked(command: &mut Command) -> io::Result<(Child, Tracked)> {
        install();
        // No sweep looks while a child is between its fork and its exec.
        let _starting = STARTS.read().unwrap_or_else(|e| e.into_inner());
        interrupt::announce_start(&STARTING, &ENDING);
        let started = command.spawn();
        let tracked = started.as_ref().ok().map(Tracked::new);
        STARTING.fetch_sub(1, Ordering::SeqCst);
        started.map(|child| {
            let tracked = tracked.unwrap_or(Tracked { slot: None, pid: 0 });
            (child, tracked)
        })
    }

    /// Starting programs and sweeping for orphans exclude each other (starts share the
    /// lock, a sweep takes it alone): while a sweep looks, every child of ours that is
    /// not an adopted orphan is in [`STARTED`].
    static STARTS: RwLock<()> = RwLock::new(());
    /// The programs started through [`spawn`] and not reaped yet.
    static STARTED: Mutex<Vec<i32>> = Mutex::new(Vec::new());
    /// The pipes of the runs in progress (see [`pipe_names`]): an adopted process that
    /// holds one belongs to a run not over yet.
    static RUN_PIPES: Mutex<Vec<(u64, Vec<String>)>> = Mutex::new(Vec::new());
    /// Whether this process is the subreaper of what it starts.
    static ADOPTING: AtomicBool = AtomicBool::new(false);
    /// How long one sweep may wait for what it killed to end.
    const SWEEP_TIME: Duration = Duration::from_secs(2);

    /// Makes this process (Linux) the subreaper of what it starts, once: a process
    /// whose parent ends is handed to us rather than to init, so that
    /// [`sweep_orphans`] can end it whatever its session, group or descriptors. Every
    /// child of a process that sweeps must be started through [`spawn_tracked`]: any
    /// other child of ours would be taken for an orphan. Elsewhere it does nothing.
    pub fn adopt_orphans() {
        #[cfg(target_os = "linux")]
        {
            static ONCE: Once = Once::new();
            ONCE.call_once(|| {
                if adopted::become_subreaper() {
                    ADOPTING.store(true, Ordering::SeqCst);
                }
            });
        }
    }

    /// The pipes of a run in progress, known to sweeps while this lives: an adopted
    /// process that holds one of them is left to that run.
    pub struct RunPipes(u64);

    impl RunPipes {
        /// Registers `names` (see [`pipe_names`]) until the returned value is dropped.
        pub fn new(names: Vec<String>) -> RunPipes {
            static NEXT: AtomicU64 = AtomicU64::new(0);
            let id = NEXT.fetch_add(1, Ordering::Relaxed);
            if !names.is_empty() {
                let mut runs = RUN_PIPES.lock().unwrap_or_else(|e| e.into_inner());
                runs.push((id, names));
            }
            RunPipes(id)
        }
    }

    impl Drop for RunPipes {
        fn drop(&mut self) {
            let mut runs = RUN_PIPES.lock().unwrap_or_else(|e| e.into_inner());
            runs.retain(|(id, _)| *id != self.0);
        }
    }

    /// Ends every process handed to us since we became a subreaper ([`adopt_orphans`])
    /// that belongs to no run in progress, with everything it started, and reaps it;
    /// in rounds, so that what they start meanwhile goes too, for at most a couple of
    /// seconds. Returns how many it ended. Does nothing unless this process adopts.
    pub fn sweep_orphans() -> usize {
        if !ADOPTING.load(Ordering::SeqCst) {
            return 0;
        }
        #[cfg(target_os = "linux")]
        {
            adopted::sweep(Instant::now() + SWEEP_TIME)
        }
        #[cfg(not(target_os = "linux"))]
        0
    }

    /// Of `candidates`, children of ours seen unregistered a moment ago, those that are
    /// surely not programs being started: once no start is under way (waiting for the
    /// starts in progress if need be), a child not registered is one we did not start.
    #[cfg(target_os = "linux")]
    fn not_started(mut candidates: Vec<i32>) -> Vec<i32> {
        let _alone = (STARTING.load(Ordering::SeqCst) > 0)
            .then(|| STARTS.write().unwrap_or_else(|e| e.into_inner()));
        let started = STARTED.lock().unwrap_or_else(|e| e.into_inner());
        candidates.retain(|p| !started.contains(p));
        candidates
    }

    /// Gives the program a process group of its own.
    pub fn isolate(command: &mut Command) {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }

    /// Our ends of a program's pipes as the system names them (`pipe:[INODE]` on
    /// Linux): taken while the descriptors are surely the program's, so that a later
    /// sweep for what holds them cannot mistake a descriptor number used again by then.
    /// Empty elsewhere.
    pub fn pipe_names(fds: &[i32]) -> Vec<String> {
        #[cfg(target_os = "linux")]
        {
            strays::pipe_names(fds)
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = fds;
            Vec::new()
        }
    }

    /// Kills, on Linux, the processes outside the program's group `group` that descend
    /// from `root` (a program not yet reaped) or hold one of the pipes `names`, in a few
    /// rounds so that what they start meanwhile goes too. `killed` gathers them.
    fn kill_strays(
        mut root: Option<i32>,
        group: Option<i32>,
        names: &[String],
        killed: &mut Vec<i32>,
    ) {
        #[cfg(not(target_os = "linux"))]
        let _ = (&mut root, group, names, &killed);
        for _ in 0..ROUNDS {
            #[cfg(target_os = "linux")]
            let mut found = strays::find(root.take(), group, names);
            #[cfg(not(target_os = "linux"))]
            let mut found: Vec<i32> = Vec::new();
            found.retain(|p| !killed.contains(p));
            if found.is_empty() {
                break;
            }
            for &stray in &found {
                // SAFETY: kill(2) takes plain integers; each pid was found a moment ago
                // descending from the unreaped program or holding a pipe only the
                // program's side can hold.
                unsafe {
                    kill(stray, SIGKILL);
                }
            }
            killed.extend(found);
        }
    }

    /// Kills the program's whole group and the program; on Linux also the processes
    /// that descend from it (when `running`: it has not been reaped, so its pid still
    /// names it) and those holding one of `pipes` (our ends of its pipes), in a few
    /// rounds so that what they start meanwhile goes too.
    pub fn kill_all(child: &mut Child, running: bool, pipes: &[i32]) {
        kill_around(child, Some(running), pipes);
    }

    /// What [`kill_all`] does for a program that has exited and was reaped outside
    /// `std` (by [`crate::sandbox::memory::wait`]): its group and what holds one of `pipes`
    /// are killed, never its pid, which may name another process by now.
    pub fn kill_reaped(child: &mut Child, pipes: &[i32]) {
        kill_around(child, None, pipes);
    }

    /// [`kill_all`] (`running` given) or [`kill_reaped`] (`None`).
    fn kill_around(child: &mut Child, running: Option<bool>, pipes: &[i32]) {
        let reaped = running.is_none();
        let running = running.unwrap_or(false);
        let pid = i32::try_from(child.id()).ok();
        let names = pipe_names(pipes);
        // Found before the kill, while the program's pid still names it.
        let mut killed: Vec<i32> = Vec::new();
        #[cfg(target_os = "linux")]
        let first = strays::find(pid.filter(|_| running), pid, &names);
        #[cfg(not(target_os = "linux"))]
        let first: Vec<i32> = Vec::new();
        if let Some(pid) = pid {
            // SAFETY: kill(2) takes plain integers and touches no memory of ours; a
            // negative pid names the process group, which `isolate` made equal to the
            // child's pid.
            unsafe {
                kill(-pid, SIGKILL);
            }
        }
        // Does nothing once std has reaped the child: std knows.
        if !reaped {
            let _ = child.kill();
        }
        for &stray in &first {
            // SAFETY: as in `kill_strays`.
            unsafe {
                kill(stray, SIGKILL);
            }
        }
        killed.extend(first);
        // A process killed once cannot start another; it may still show its pipes for
        // a moment while it goes.
        if !killed.is_empty() {
            kill_strays(None, pid, &names, &mut killed);
        }
    }

    /// Kills what is left of the program's group after the program ended by itself
    /// (a background process that let go of the pipes).
    pub fn end_group(child: &Child) {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: as in `kill_all`. The group outlives its leader while it has a
            // member, so its id names no other group meanwhile; an empty group's id
            // could only come back after the pids wrap around.
            unsafe {
                kill(-pid, SIGKILL);
            }
        }
    }

    /// How many times [`kill_all`] looks again for processes holding the pipes.
    const ROUNDS: usize = 4;

    /// Finding escaped processes through `/proc`.
    #[cfg(target_os = "linux")]
    mod strays {
        use std::collections::HashMap;
        use std::fs;

        /// What `/proc/self/fd` says about our ends of the pipes (`pipe:[INODE]`): the
        /// other ends read the same.
        pub fn pipe_names(fds: &[i32]) -> Vec<String> {
            fds.iter()
                .filter_map(|fd| fs::read_link(format!("/proc/self/fd/{fd}")).ok())
                .filter_map(|link| link.to_str().map(str::to_string))
                .filter(|name| name.starts_with("pipe:"))
                .collect()
        }

        /// The processes (other than us and our own children, and outside process group
        /// `group`, which a kill of the group ends) that descend from `root` or hold a
        /// pipe named in `pipes`. Processes we may not look into are passed over: we could not kill
        /// them either.
        pub fn find(root: Option<i32>, group: Option<i32>, pipes: &[String]) -> Vec<i32> {
            let own = std::process::id() as i32;
            let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
            let mut found = Vec::new();
            let Ok(dir) = fs::read_dir("/proc") else {
                return found;
            };
            for entry in dir.flatten() {
                let name = entry.file_name();
                let Some(pid) = name.to_str().and_then(|n| n.parse::<i32>().ok()) else {
                    continue;
                };
                if pid == own {
                    continue;
                }
                // Known only when needed: every process's for a walk from `root`, a
                // holder's to leave out the group.
                let mut ids = None;
                if root.is_some() {
                    ids = parent_and_group(pid);
                    if let Some((parent, _)) = ids {
                        children.entry(parent).or_default().push(pid);
                    }
                }
                if !pipes.is_empty() && holds(pid, pipes) {
                    let ids = ids.or_else(|| parent_and_group(pid));
                    let in_group = ids.is_some_and(|(_, g)| Some(g) == group);
                    // A child of ours holds the pipes only between its fork and its exec
                    // (they close on exec): it is a program another job is starting, not
                    // a stray of this one. Strays descend from the program or have been
                    // handed to init.
                    let starting = ids.is_some_and(|(parent, _)| parent == own);
                    if !in_group && !starting {
                        found.push(pid);
                    }
                }
            }
            if let Some(root) = root {
                let mut todo = vec![root];
                while let Some(p) = todo.pop() {
                    for &c in children.get(&p).map(Vec::as_slice).unwrap_or(&[]) {
                        let in_group = parent_and_group(c).is_some_and(|(_, g)| Some(g) == group);
                        if !in_group && !found.contains(&c) {
                            found.push(c);
                        }
                        todo.push(c);
                    }
                }
            }
            found
        }

        /// The parent and the process group of `pid`, from `/proc/PID/stat` (its name,
        /// in parentheses, may hold anything: the fields come after the last `)`).
        pub(super) fn parent_and_group(pid: i32) -> Option<(i32, i32)> {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace().skip(1);
            let parent = fields.next()?.parse().ok()?;
            let group = fields.next()?.parse().ok()?;
            Some((parent, group))
        }

        /// Whether `pid` has a descriptor on one of `pipes`.
        fn holds(pid: i32, pipes: &[String]) -> bool {
            holds_one(pid, |l| pipes.iter().any(|p| p == l))
        }

        /// Whether `pid` has a descriptor whose target (as `/proc/PID/fd` shows it,
        /// `pipe:[N]`) is one `wanted` accepts.
        pub(super) fn holds_one(pid: i32, wanted: impl Fn(&str) -> bool) -> bool {
            let Ok(fds) = fs::read_dir(format!("/proc/{pid}/fd")) else {
                return false;
            };
            fds.flatten()
                .any(|fd| fs::read_link(fd.path()).is_ok_and(|l| l.to_str().is_some_and(&wanted)))
        }
    }

    /// A running group, known to the signal handler while this lives, and a program
    /// started and not reaped, known to sweeps. Drop it only once the program is
    /// reaped.
    pub struct Tracked {
        slot: Option<usize>,
        pid: i32,
    }

    impl Tracked {
        /// Tracks `child`'s group (untracked by the signal handler if the table is
        /// full).
        fn new(child: &Child) -> Tracked {
            install();
            let pid = i32::try_from(child.id()).unwrap_or(0);
            let slot = RUNNING.iter().position(|s| {
                s.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            });
            STARTED.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
            Tracked { slot, pid }
        }
    }

    impl Drop for Tracked {
        fn drop(&mut self) {
            if let Some(slot) = self.slot {
                RUNNING[slot].store(0, Ordering::SeqCst);
            }
            if self.pid > 0 {
                let mut started = STARTED.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(i) = started.iter().position(|&p| p == self.pid) {
                    started.swap_remove(i);
                }
            }
        }
    }

    /// The processes handed to us as their subreaper (Linux).
    #[cfg(target_os = "linux")]
    mod adopted {
        use super::{
            getpid, kill, kill_running, nanosleep, not_started, waitpid, Timespec, RUN_PIPES,
            SIGKILL, STARTED, WNOHANG,
        };
        use std::fs;
        use std::time::{Duration, Instant};

        /// `prctl(2)`'s option that makes the caller a subreaper.
        const PR_SET_CHILD_SUBREAPER: i32 = 36;

        use crate::sandbox::calls::{close, open, prctl, read};

        /// Makes this process a subreaper; whether the system agreed.
        pub fn become_subreaper() -> bool {
            // SAFETY: prctl(2) with this option takes one integer argument (passed as
            // an unsigned long, as the variadic call promotes it) and touches no memory.
            unsafe { prctl(PR_SET_CHILD_SUBREAPER, 1 as std::ffi::c_ulong) == 0 }
        }

        /// The children of process `pid` (all its threads'), from
        /// `/proc/PID/task/*/children`; `None` when the system does not list them.
        fn children_of(pid: i32) -> Option<Vec<i32>> {
            let tasks = fs::read_dir(format!("/proc/{pid}/task")).ok()?;
            let mut children = Vec::new();
            let mut listed = false;
            for task in tasks.flatten() {
                let Ok(text) = fs::read_to_string(task.path().join("children")) else {
                    continue;
                };
                listed = true;
                children.extend(pids(&text));
            }
            listed.then_some(children)
        }

        /// The children of `pid` by a look at every process's parent (where
        /// `/proc/PID/task/TID/children` is missing).
        fn children_by_scan(pid: i32) -> Vec<i32> {
            let Ok(dir) = fs::read_dir("/proc") else {
                return Vec::new();
            };
            dir.flatten()
                .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
                .filter(|&p| parent_of(p) == Some(pid))
                .collect()
        }

        /// The parent of `pid`.
        fn parent_of(pid: i32) -> Option<i32> {
            super::strays::parent_and_group(pid).map(|(parent, _)| parent)
        }

        /// The process ids of a `children` file.
        fn pids(text: &str) -> impl Iterator<Item = i32> + '_ {
            text.split_whitespace().filter_map(|w| w.parse().ok())
        }

        fn children(pid: i32) -> Vec<i32> {
            children_of(pid).unwrap_or_else(|| children_by_scan(pid))
        }

        /// The children of our main thread, where the system hands adopted processes
        /// (the first living thread of the subreaper): the programs other threads are
        /// starting are not among them. All our children where the system does not list
        /// a thread's.
        fn adoptive_children(own: i32) -> Vec<i32> {
            match fs::read_to_string(format!("/proc/{own}/task/{own}/children")) {
                Ok(text) => pids(&text).collect(),
                Err(_) => children_by_scan(own),
            }
        }

        /// `root` and everything descended from it, parents first (at most some
        /// thousands: a fork bomb is ended in rounds).
        fn tree(root: i32) -> Vec<i32> {
            let mut all = vec![root];
            let mut i = 0;
            while i < all.len() && all.len() < 10_000 {
                for c in children(all[i]) {
                    if !all.contains(&c) {
                        all.push(c);
                    }
                }
                i += 1;
            }
            all
        }

        /// Whether `pid` has a descriptor on one of the pipes of a run in progress.
        fn in_a_run(pid: i32) -> bool {
            let runs = RUN_PIPES.lock().unwrap_or_else(|e| e.into_inner());
            if runs.is_empty() {
                return false;
            }
            super::strays::holds_one(pid, |l| {
                runs.iter().any(|(_, names)| names.iter().any(|n| n == l))
            })
        }

        /// Reaps `pid`, killed a moment ago, waiting for it at most until `deadline`.
        fn reap(pid: i32, deadline: Instant) {
            loop {
                let mut status = 0;
                // SAFETY: waitpid(2) writes the status into our local; `pid` is a child
                // of ours that no one else waits for (it is not in STARTED).
                let r = unsafe { waitpid(pid, &mut status, WNOHANG) };
                if r != 0 || Instant::now() >= deadline {
                    return;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
        }

        /// How many rounds of 2 ms the signal handler spends at most ending what is left
        /// (a fork bomb cannot hold the exit up for longer).
        const HANDLER_ROUNDS: u32 = 1000;

        /// The sweep: see [`super::sweep_orphans`].
        pub fn sweep(deadline: Instant) -> usize {
            // SAFETY: getpid(2) takes nothing and cannot fail.
            let own = unsafe { getpid() };
            let mut ended: Vec<i32> = Vec::new();
            loop {
                let started = STARTED.lock().unwrap_or_else(|e| e.into_inner()).clone();
                let candidates: Vec<i32> = adoptive_children(own)
                    .into_iter()
                    .filter(|p| !started.contains(p))
                    .collect();
                if candidates.is_empty() {
                    break;
                }
                let adopted: Vec<i32> = not_started(candidates)
                    .into_iter()
                    .filter(|&p| !in_a_run(p))
                    .collect();
                if adopted.is_empty() {
                    break;
                }
                for &orphan in &adopted {
                    for p in tree(orphan) {
                        // SAFETY: kill(2) takes plain integers; `orphan` is a child of
                        // ours that we did not start and that holds no pipe of a run in
                        // progress, and the others descend from it.
                        unsafe {
                            kill(p, SIGKILL);
                        }
                    }
                }
                for &orphan in &adopted {
                    reap(orphan, deadline);
                    if !ended.contains(&orphan) {
                        ended.push(orphan);
                    }
                }
                if Instant::now() >= deadline {
                    break;
                }
            }
            ended.len()
        }

        /// From the signal handler, before the process ends: kills every child of the
        /// main thread, where adopted processes land, and reaps every child, in rounds
        /// until none is left (for at most [`HANDLER_ROUNDS`] of 2 ms), so that what they
        /// leave is handed to us and goes too. A program killed a moment ago may take a
        /// while to end on a busy machine, and its daemons come to us only then: an
        /// empty list of adopted children is no sign that the work is done, while a
        /// thread still has a child. Only calls that are safe in a signal handler, and no
        /// allocation.
        pub fn end_all_in_handler() {
            // SAFETY: getpid(2) takes nothing and cannot fail.
            let own = unsafe { getpid() };
            // "/proc/self/task/PID/children", written by hand into a buffer of ours.
            let mut path = [0u8; 64];
            let mut len = 0;
            for &b in b"/proc/self/task/" {
                path[len] = b;
                len += 1;
            }
            let mut digits = [0u8; 20];
            for &b in crate::sandbox::interrupt::decimal(own.max(0) as u64, &mut digits) {
                path[len] = b;
                len += 1;
            }
            for &b in b"/children\0" {
                path[len] = b;
                len += 1;
            }
            let tick = Timespec {
                tv_sec: 0,
                tv_nsec: 2_000_000,
            };
            for _ in 0..HANDLER_ROUNDS {
                // The programs of the other threads again: one started just before
                // the signal is in the table by now.
                kill_running();
                let mut buf = [0u8; 4096];
                // SAFETY: open(2), read(2) and close(2) are async-signal-safe; the path
                // is a NUL-terminated buffer of ours, and read writes at most its size.
                let got = unsafe {
                    let fd = open(path.as_ptr(), 0);
                    if fd < 0 {
                        return;
                    }
                    let got = read(fd, buf.as_mut_ptr(), buf.len());
                    close(fd);
                    got
                };
                let mut pid: i32 = 0;
                let mut in_number = false;
                for &b in &buf[..got.max(0) as usize] {
                    if b.is_ascii_digit() {
                        pid = pid.saturating_mul(10).saturating_add(i32::from(b - b'0'));
                        in_number = true;
                    } else if in_number {
                        // SAFETY: kill(2) is async-signal-safe; the pid is a child of
                        // ours, and the process is ending: nothing of it may outlive it.
                        unsafe {
                            kill(pid, SIGKILL);
                        }
                        pid = 0;
                        in_number = false;
                    }
                }
                // A thread's child counts too: waitpid(2) waits for the children of
                // every thread of the process, and says -1 (no child) once none is left.
                // SAFETY: waitpid(2) and nanosleep(2) are async-signal-safe; the status
                // goes to a local. Reaping any child is fine: the process is ending.
                let left = unsafe {
                    nanosleep(&tick, std::ptr::null_mut());
                    let mut status = 0;
                    loop {
                        let r = waitpid(-1, &mut status, WNOHANG);
                        if r <= 0 {
                            break r == 0;
                        }
                    }
                };
                if !left {
                    return;
                }
            }
        }
    }
}

#[cfg(unix)]
pub use unix::{
    adopt_orphans, count_for_signal_note, end_group, isolate, kill_all, kill_reaped, pipe_names,
    set_signal_note, spawn_tracked, sweep_orphans, RunPipes, Tracked,
};

#[cfg(windows)]
pub use super::job::{
    adopt_orphans, count_for_signal_note, end_group, isolate, kill_all, kill_reaped, pipe_names,
    set_signal_note, spawn_tracked, sweep_orphans, RunPipes, Tracked,
};

#[cfg(not(any(unix, windows)))]
mod elsewhere {
    use std::io;
    use std::process::{Child, Command};

    /// Nothing is tracked where no program starts.
    pub struct Tracked;

    /// Starts `command` as `std` does here (which fails where programs cannot start).
    pub fn spawn_tracked(command: &mut Command) -> io::Result<(Child, Tracked)> {
        command.spawn().map(|child| (child, Tracked))
    }

    /// No groups here.
    pub fn isolate(_: &mut Command) {}

    /// Ends the program.
    pub fn kill_all(child: &mut Child, _running: bool, _pipes: &[i32]) {
        let _ = child.kill();
    }

    /// Ends the program.
    pub fn kill_reaped(child: &mut Child, _pipes: &[i32]) {
        let _ = child.kill();
    }

    /// No group to end.
    pub fn end_group(_: &Child) {}

    /// No pipes to name.
    pub fn pipe_names(_fds: &[i32]) -> Vec<String> {
        Vec::new()
    }

    /// No orphans to adopt.
    pub fn adopt_orphans() {}

    /// No orphans to sweep.
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

    /// No signals here.
    pub fn set_signal_note(_head: &str, _tail: &str) {}

    /// No signals here.
    pub fn count_for_signal_note(_n: u64) {}
}

#[cfg(not(any(unix, windows)))]
pub use elsewhere::{
    adopt_orphans, count_for_signal_note, end_group, isolate, kill_all, kill_reaped, pipe_names,
    set_signal_note, spawn_tracked, sweep_orphans, RunPipes, Tracked,
};
