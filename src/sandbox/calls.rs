//! The system's own functions the sandbox calls (Unix), declared once, with the types
//! they take. Each call stays behind a small safe function in the module that needs it,
//! with the reason it is sound beside it; many are made from a signal handler or
//! between a fork and an exec, so every one here is async-signal-safe.

use std::ffi::{c_char, c_int, c_long, c_void};

/// `struct timespec` as `nanosleep(2)` takes it (`time_t` and `long` are both `long`
/// wide on the Unix targets Rust supports with std).
#[repr(C)]
pub struct Timespec {
    /// Seconds.
    pub tv_sec: c_long,
    /// Nanoseconds.
    pub tv_nsec: c_long,
}

unsafe extern "C" {
    /// `kill(2)`.
    pub fn kill(pid: i32, signal: i32) -> i32;
    /// `signal(2)`: a handler's address, `SIG_DFL` (0) or `SIG_IGN` (1).
    pub fn signal(signum: i32, handler: usize) -> usize;
    /// `nanosleep(2)`.
    pub fn nanosleep(request: *const Timespec, remaining: *mut Timespec) -> i32;
    /// `_exit(2)`.
    pub fn _exit(status: i32) -> !;
    /// `waitpid(2)`.
    pub fn waitpid(pid: i32, status: *mut i32, options: i32) -> i32;
    /// `getpid(2)`.
    pub fn getpid() -> i32;
    /// `getppid(2)`.
    pub fn getppid() -> i32;
    /// `write(2)`.
    pub fn write(fd: i32, buf: *const u8, count: usize) -> isize;
    /// `read(2)`.
    pub fn read(fd: i32, buf: *mut u8, count: usize) -> isize;
    /// `open(2)`, on a NUL-terminated path.
    pub fn open(path: *const u8, flags: i32, ...) -> i32;
    /// `close(2)`.
    pub fn close(fd: i32) -> i32;
    /// `pipe2(2)` (Linux).
    #[cfg(target_os = "linux")]
    pub fn pipe2(fds: *mut c_int, flags: c_int) -> c_int;

    /// `rmdir(2)`, on a NUL-terminated path.
    pub fn rmdir(path: *const u8) -> i32;
    /// `prctl(2)` (Linux).
    #[cfg(target_os = "linux")]
    pub fn prctl(option: i32, ...) -> i32;
    /// glibc's `clone(3)` (Linux).
    #[cfg(target_os = "linux")]
    pub fn clone(
        f: extern "C" fn(*mut c_void) -> c_int,
        stack: *mut c_void,
        flags: c_int,
        arg: *mut c_void,
        ...
    ) -> c_int;
    /// `execve(2)`.
    #[cfg(target_os = "linux")]
    pub fn execve(
        path: *const c_char,
        argv: *const *const c_char,
        envp: *const *const c_char,
    ) -> c_int;
    /// The process's environment.
    #[cfg(target_os = "linux")]
    pub static environ: *const *const c_char;
    /// `syscall(2)`, for calls glibc may lack a wrapper of (`close_range`).
    #[cfg(target_os = "linux")]
    pub fn syscall(number: c_long, ...) -> c_long;
}
