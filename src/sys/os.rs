//! The few system services that `std` does not offer, each behind a small safe function:
//! waiting for pipes and sockets to be ready (`poll(2)`), reaping a child with its peak
//! memory (`wait4(2)`), the descriptor limit (`getrlimit(2)`, `setrlimit(2)`), whether we are the terminal's foreground process
//! (`tcgetpgrp(3)`), handing freed memory back to the system (glibc's `mallopt(3)` and
//! `malloc_trim(3)`), and whether a console shows colour. The runner of programs under
//! test waits on their pipes with it, the server on its sockets.
//!
//! Elsewhere each falls back to something plain: readiness by trying (every descriptor
//! is reported ready after a short sleep, and the non-blocking read says whether it
//! was), no known limit, always the foreground, and the allocator as it is.

use std::io;
use std::time::Duration;

/// What to wait for on a socket, and what came.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ready {
    /// Bytes to read, or the end of the stream.
    pub read: bool,
    /// Room to write.
    pub write: bool,
    /// An error or a hang-up: the next read or write says which.
    pub broken: bool,
}

/// A pipe or socket to watch: its descriptor, what to wait for, and what came.
#[derive(Clone, Copy, Debug)]
pub struct Interest {
    /// Unread where readiness is found by trying.
    #[cfg_attr(not(unix), allow(dead_code))]
    fd: i32,
    /// What to wait for.
    pub want: Ready,
    /// What `wait` found.
    pub got: Ready,
}

impl Interest {
    /// Watches `source` (a pipe, a socket) for `want`.
    #[cfg(unix)]
    pub fn new(source: &impl std::os::fd::AsRawFd, want: Ready) -> Interest {
        Interest {
            fd: source.as_raw_fd(),
            want,
            got: Ready::default(),
        }
    }

    /// Watches `source` (a pipe, a socket) for `want`.
    #[cfg(not(unix))]
    pub fn new<S>(_source: &S, want: Ready) -> Interest {
        Interest {
            fd: -1,
            want,
            got: Ready::default(),
        }
    }
}

#[cfg(unix)]
mod unix {
    use super::{Interest, Ready};
    use std::io;
    use std::time::Duration;

    /// `struct pollfd`.
    #[repr(C)]
    struct PollFd {
        fd: i32,
        events: i16,
        revents: i16,
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    type Nfds = std::ffi::c_ulong;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    type Nfds = std::ffi::c_uint;

    // The same numbers on every Unix.
    const POLLIN: i16 = 0x1;
    const POLLOUT: i16 = 0x4;
    const POLLERR: i16 = 0x8;
    const POLLHUP: i16 = 0x10;
    const POLLNVAL: i16 = 0x20;

    /// `struct rlimit`: `rlim_t` is 64 bits on every 64-bit Unix we build for.
    #[repr(C)]
    struct RLimit {
        cur: u64,
        max: u64,
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    const RLIMIT_NOFILE: i32 = 7;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const RLIMIT_NOFILE: i32 = 8;

    /// `struct rusage`: two `struct timeval`s (each two `long`s wide on the targets std
    /// supports), then `ru_maxrss` and fourteen more `long`s; room to spare after.
    #[repr(C)]
    struct Rusage {
        times: [std::ffi::c_long; 4],
        max_rss: std::ffi::c_long,
        rest: [std::ffi::c_long; 32],
    }

    /// `EINTR`, the same on every Unix.
    const EINTR: i32 = 4;

    unsafe extern "C" {
        fn poll(fds: *mut PollFd, nfds: Nfds, timeout: i32) -> i32;
        fn wait4(pid: i32, status: *mut i32, options: i32, usage: *mut Rusage) -> i32;
        fn getrlimit(resource: i32, limit: *mut RLimit) -> i32;
        fn setrlimit(resource: i32, limit: *const RLimit) -> i32;
        fn tcgetpgrp(fd: i32) -> i32;
        fn getpgrp() -> i32;
    }

    pub fn two_ready(a: i32, b: i32, timeout_ms: i32) -> (bool, bool) {
        let look = |fd| PollFd {
            fd,
            events: POLLIN,
            revents: 0,
        };
        let mut fds = [look(a), look(b)];
        // SAFETY: poll(2) on an array of ours of two entries; a negative descriptor is
        // skipped by the system.
        unsafe {
            poll(fds.as_mut_ptr(), 2, timeout_ms);
        }
        (fds[0].revents != 0, fds[1].revents != 0)
    }

    pub fn in_foreground() -> bool {
        // SAFETY: both take and return plain integers and touch no memory of ours;
        // tcgetpgrp fails with -1 (never a process group) on a bad descriptor.
        unsafe { tcgetpgrp(0) == getpgrp() }
    }

    pub fn wait(watches: &mut [Interest], timeout: Option<Duration>) -> io::Result<usize> {
        let mut fds: Vec<PollFd> = watches
            .iter()
            .map(|w| PollFd {
                fd: w.fd,
                events: if w.want.read { POLLIN } else { 0 }
                    | if w.want.write { POLLOUT } else { 0 },
                revents: 0,
            })
            .collect();
        // Rounded up, so that a deadline 0.3 ms away is not a busy loop of 0 ms waits.
        let ms = timeout.map_or(-1, |t| {
            i32::try_from(t.as_micros().div_ceil(1000)).unwrap_or(i32::MAX)
        });
        // SAFETY: `fds` is a live, exclusively borrowed array of `fds.len()` pollfd
        // structures laid out as the C struct; poll(2) writes only their `revents`.
        let n = unsafe { poll(fds.as_mut_ptr(), fds.len() as Nfds, ms) };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                return Ok(0);
            }
            return Err(e);
        }
        for (w, p) in watches.iter_mut().zip(&fds) {
            w.got = Ready {
                read: p.revents & POLLIN != 0,
                write: p.revents & POLLOUT != 0,
                broken: p.revents & (POLLERR | POLLHUP | POLLNVAL) != 0,
            };
        }
        Ok(n as usize)
    }

    /// See [`super::reap`].
    pub fn reap(pid: i32, options: i32) -> io::Result<Option<super::Reaped>> {
        loop {
            let mut status = 0;
            let mut usage = Rusage {
                times: [0; 4],
                max_rss: 0,
                rest: [0; 32],
            };
            // SAFETY: both pointers are to live locals of the right size (the rusage
            // with room to spare).
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
            return Ok(Some(super::Reaped {
                pid: r,
                status,
                max_rss: u64::try_from(usage.max_rss).ok().map(|n| n * unit),
            }));
        }
    }

    /// See [`super::descriptor_limit`].
    pub fn descriptor_limit() -> Option<u64> {
        let mut limit = RLimit { cur: 0, max: 0 };
        // SAFETY: getrlimit(2) fills the struct we own; it has the C layout.
        (unsafe { getrlimit(RLIMIT_NOFILE, &mut limit) } == 0).then_some(limit.cur)
    }

    pub fn raise_descriptor_limit() -> Option<u64> {
        let mut limit = RLimit { cur: 0, max: 0 };
        // SAFETY: getrlimit(2) fills the struct we own; it has the C layout.
        if unsafe { getrlimit(RLIMIT_NOFILE, &mut limit) } != 0 {
            return None;
        }
        if limit.cur < limit.max {
            let raised = RLimit {
                cur: limit.max,
                max: limit.max,
            };
            // SAFETY: setrlimit(2) only reads the struct we own. Raising the soft limit
            // up to the hard one needs no privilege; if it fails, the old one stands.
            if unsafe { setrlimit(RLIMIT_NOFILE, &raised) } == 0 {
                return Some(raised.cur);
            }
        }
        Some(limit.cur)
    }
}

/// Writes `bytes` to standard error with no allocation and no lock, for a console
/// control handler (Windows).
#[cfg(windows)]
pub fn write_stderr_raw(bytes: &[u8]) {
    windows::write_stderr_raw(bytes);
}

/// Waits until one of `watches` is ready or `timeout` passes (`None`: no timeout), and
/// sets each one's `got`. Returns how many are ready (0 on a timeout or a signal).
pub fn wait(watches: &mut [Interest], timeout: Option<Duration>) -> io::Result<usize> {
    #[cfg(unix)]
    {
        unix::wait(watches, timeout)
    }
    #[cfg(not(unix))]
    {
        // Readiness by trying: a short sleep, then everything is "ready" and the
        // non-blocking calls find out.
        std::thread::sleep(timeout.map_or(Duration::from_millis(5), |t| {
            t.min(Duration::from_millis(5))
        }));
        for w in watches.iter_mut() {
            w.got = w.want;
        }
        Ok(watches.len())
    }
}

/// A child that `wait4(2)` reaped.
#[cfg(unix)]
#[derive(Clone, Copy, Debug)]
pub struct Reaped {
    /// Its pid.
    pub pid: i32,
    /// Its wait status, raw.
    pub status: i32,
    /// Its peak resident memory (`ru_maxrss`) in bytes.
    pub max_rss: Option<u64>,
}

/// `wait4(2)`'s "do not wait" option, the same on every Unix.
#[cfg(unix)]
pub const WNOHANG: i32 = 1;

/// Waits at most `timeout_ms` (-1: for ever) until `a` or `b` has something to read or
/// is closed (a negative one is not watched); says which. No allocation: safe in a
/// forked child and in a signal handler (Unix; elsewhere neither is, after the time).
pub fn two_ready(a: i32, b: i32, timeout_ms: i32) -> (bool, bool) {
    #[cfg(unix)]
    {
        unix::two_ready(a, b, timeout_ms)
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        std::thread::sleep(Duration::from_millis(timeout_ms.max(0) as u64));
        (false, false)
    }
}

/// Reaps the child `pid` (-1: any child) with `wait4(2)` and `options` (such as
/// [`WNOHANG`]), again when a signal interrupts it: `None` when nothing was ready to be
/// reaped. No allocation: safe between a fork and an exec.
#[cfg(unix)]
pub fn reap(pid: i32, options: i32) -> io::Result<Option<Reaped>> {
    unix::reap(pid, options)
}

/// The soft limit on open descriptors (Unix). No allocation: safe between a fork and an
/// exec.
#[cfg(unix)]
pub fn descriptor_limit() -> Option<u64> {
    unix::descriptor_limit()
}

/// Raises the soft limit on open descriptors to the hard limit, and returns the soft
/// limit now in force (`None` where it is not known).
pub fn raise_descriptor_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        unix::raise_descriptor_limit()
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    unsafe extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
        fn malloc_trim(pad: usize) -> i32;
    }

    const M_TRIM_THRESHOLD: i32 = -1;
    const M_MMAP_THRESHOLD: i32 = -3;
    const M_ARENA_MAX: i32 = -8;

    pub fn tune() {
        // SAFETY: mallopt(3) takes two integers; it is called before the server starts
        // its threads. Two arenas instead of eight per core: each arena keeps memory
        // freed into it. A fixed mmap threshold: glibc otherwise raises it after every
        // large block freed, and later large blocks then come from (and stay in) an
        // arena. A fixed trim threshold: the top of a heap goes back past 1 MB free.
        unsafe {
            mallopt(M_ARENA_MAX, 2);
            mallopt(M_MMAP_THRESHOLD, 256 * 1024);
            mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
        }
    }

    pub fn trim() {
        // SAFETY: malloc_trim(3) takes an integer and is thread-safe (it locks each arena).
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Whether this process is in the foreground of the terminal on standard input
/// (`tcgetpgrp(3)`): one started in the background of a shell must not read the terminal,
/// which would stop it. Without job control, a terminal's process is always in the
/// foreground.
pub fn in_terminal_foreground() -> bool {
    #[cfg(unix)]
    {
        unix::in_foreground()
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// Sets the allocator up for a long-running server whose requests may each allocate a
/// few megabytes: freed memory should go back to the system, not stay with the thread
/// that freed it. Call once, before starting threads.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    glibc::tune();
}

/// Hands the allocator's free memory back to the system (the pages in the middle of its
/// heaps too, which it would otherwise keep).
pub fn trim_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    glibc::trim();
}

/// A standard stream that may be a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Console {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// Whether `stream` is a terminal that shows colour and cursor escapes: any terminal on
/// Unix; on Windows a console with virtual-terminal processing, turned on here where the
/// console has it (Windows 10 and later), so that an older console never shows escapes
/// as text.
pub fn escapes_shown(stream: Console) -> bool {
    use std::io::IsTerminal;
    let terminal = match stream {
        Console::Stdout => io::stdout().is_terminal(),
        Console::Stderr => io::stderr().is_terminal(),
    };
    #[cfg(windows)]
    {
        terminal && windows::virtual_terminal(stream)
    }
    #[cfg(not(windows))]
    {
        terminal
    }
}

/// Whether standard input is a pipe (or, on Unix, a socket): a stream whose end means
/// that the program feeding it has gone, unlike a file or `/dev/null`.
pub fn stdin_is_pipe() -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata("/dev/stdin").is_ok_and(|meta| {
            let kind = meta.file_type();
            kind.is_fifo() || kind.is_socket()
        })
    }
    #[cfg(windows)]
    {
        windows::stdin_is_pipe()
    }
    #[cfg(not(any(unix, windows)))]
    {
        false
    }
}

#[cfg(windows)]
mod windows {
    use super::Console;
    use std::ffi::c_void;

    /// `ENABLE_VIRTUAL_TERMINAL_PROCESSING`.
    const VIRTUAL_TERMINAL: u32 = 0x0004;
    /// `STD_OUTPUT_HANDLE` and `STD_ERROR_HANDLE`.
    const STDOUT: u32 = -11i32 as u32;
    const STDERR: u32 = -12i32 as u32;

    /// `STD_INPUT_HANDLE`.
    const STDIN: u32 = -10i32 as u32;
    /// `FILE_TYPE_PIPE`: an anonymous or named pipe.
    const FILE_TYPE_PIPE: u32 = 3;

    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GetFileType(file: *mut c_void) -> u32;
        fn GetStdHandle(which: u32) -> *mut c_void;
        fn GetConsoleMode(console: *mut c_void, mode: *mut u32) -> i32;
        fn SetConsoleMode(console: *mut c_void, mode: u32) -> i32;
        fn WriteFile(
            file: *mut c_void,
            buffer: *const u8,
            len: u32,
            written: *mut u32,
            overlapped: *mut c_void,
        ) -> i32;
    }

    /// Writes `bytes` to standard error with no allocation and no lock: safe in a
    /// console control handler. A failed or short write has nowhere to be reported.
    pub fn write_stderr_raw(bytes: &[u8]) {
        let mut written = 0u32;
        // SAFETY: the buffer is the caller's, `written` a local; the handle is the
        // process's own standard error (or null, which the call refuses).
        unsafe {
            WriteFile(
                GetStdHandle(STDERR),
                bytes.as_ptr(),
                bytes.len().min(u32::MAX as usize) as u32,
                &mut written,
                std::ptr::null_mut(),
            );
        }
    }

    /// Whether standard input is a pipe.
    pub fn stdin_is_pipe() -> bool {
        // SAFETY: the process's own standard input handle (or null, for which the
        // answer is "unknown", not a pipe).
        unsafe { GetFileType(GetStdHandle(STDIN)) == FILE_TYPE_PIPE }
    }

    /// Whether the console of `stream` processes escapes, after asking it to.
    pub fn virtual_terminal(stream: Console) -> bool {
        let which = match stream {
            Console::Stdout => STDOUT,
            Console::Stderr => STDERR,
        };
        let mut mode = 0u32;
        // SAFETY: the handle is the process's own standard stream (or null, which the
        // console calls refuse); the mode goes to a local.
        unsafe {
            let console = GetStdHandle(which);
            if GetConsoleMode(console, &mut mode) == 0 {
                return false;
            }
            mode & VIRTUAL_TERMINAL != 0 || SetConsoleMode(console, mode | VIRTUAL_TERMINAL) != 0
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::{TcpListener, TcpStream};

    #[test]
    fn poll_sees_a_connection_and_bytes() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let read = Ready {
            read: true,
            ..Ready::default()
        };
        let mut watches = [Interest::new(&listener, read)];
        assert_eq!(
            wait(&mut watches, Some(Duration::from_millis(30))).unwrap(),
            0
        );
        assert!(!watches[0].got.read, "nobody connected yet");
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        assert_eq!(
            wait(&mut watches, Some(Duration::from_secs(10))).unwrap(),
            1
        );
        assert!(watches[0].got.read);
        let (server, _) = listener.accept().unwrap();
        let both = Ready {
            read: true,
            write: true,
            ..Ready::default()
        };
        let mut watches = [Interest::new(&server, both)];
        wait(&mut watches, Some(Duration::from_secs(10))).unwrap();
        assert_eq!(
            (watches[0].got.read, watches[0].got.write),
            (false, true),
            "room to write, nothing to read yet"
        );
        client.write_all(b"x").unwrap();
        wait(&mut watches, Some(Duration::from_secs(10))).unwrap();
        assert!(watches[0].got.read);
    }

    #[test]
    fn the_descriptor_limit_is_known() {
        let limit = raise_descriptor_limit().expect("a limit on Unix");
        assert!(limit >= 3, "{limit}");
        assert_eq!(
            raise_descriptor_limit(),
            Some(limit),
            "raising twice is a no-op"
        );
    }
}
