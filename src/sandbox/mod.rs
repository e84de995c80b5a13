//! The sandbox: how a program we do not trust is run, from its start to the end of its
//! run, and what a run is guaranteed. Every program the crate starts goes through
//! [`contain::start`]: a solution under `test`, `stress` and `export`
//! ([`crate::harness::process`] runs it to its end), and an engine under `match`
//! ([`crate::play::uciclient`] keeps it as a session).
//!
//! What a run is guaranteed:
//!
//! - **Its processes are held together** from the program's start: a process group of
//!   its own ([`group`]); on Linux a supervisor between the runner and the program that is
//!   the subreaper of that run alone ([`supervisor`]), so that every process of the run,
//!   however it leaves its group, session or environment, stays the supervisor's
//!   descendant; and where the runner can make one (as root on cgroup v1, or in a
//!   delegated cgroup v2 subtree), a control group of its own ([`cgroup`]); on Windows a
//!   job object ([`job`]).
//! - **Its memory is counted** as judges count it ([`memory`]): the control group's
//!   peak, plus the proportional set size of any process of the run found outside the
//!   group (a program that may write into a group above its own can leave it); else
//!   the proportional set size of every descendant of the supervisor; on Windows the
//!   job's peak. The largest figure seen is kept.
//! - **Its time is the wall clock's**: a run seen to end past its limit is over it,
//!   whatever kept the runner from seeing so in time (a program that stops its runner);
//!   a memory sample stops at the limit, so that many busy processes cannot make the run
//!   late (within a few ms of its limit in a control group, within about a second on two
//!   cores of 1,000 busy processes without one).
//! - **It ends whole** ([`contain::Contained::end`]): every process of the run is
//!   killed and reaped, in its group, its control group, or as a descendant of the
//!   supervisor; an interrupt of ours ends every run in progress first ([`interrupt`]).
//! - **The runner's end ends the run**: a program running as the runner's user can
//!   signal it; stopping it gains the program nothing (the wall clock above), and
//!   killing it closes a pipe the supervisor watches, which then kills every process of
//!   the run, a daemon in a session of its own too, and removes its control group
//!   (Linux).
//!
//! What is not guaranteed: a program running as root can do anything root can (the
//! memory it holds outside its group is still counted). Other Unix systems have neither
//! supervisor nor control group: only the process group is killed.
//!
//! The system calls the sandbox makes are declared once, in `calls` (Unix); Windows'
//! are in [`job`].
//!
//! May use: [`crate::sys`].

#[cfg(unix)]
pub mod calls;
#[cfg(target_os = "linux")]
pub mod cgroup;
pub mod contain;
pub mod group;
pub mod interrupt;
#[cfg(windows)]
pub mod job;
pub mod memory;
#[cfg(target_os = "linux")]
pub mod supervisor;
