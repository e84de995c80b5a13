//! A machine whose process table is full: `gen --suite` inside a control group that
//! allows one task (`pids.max` 1), so that no thread can be started, writes the same
//! suite as with threads, where it once panicked with "failed to spawn thread".

use crate::common;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The folder of this process's group in the hierarchy with the pids controller: cgroup
/// v1's `pids` hierarchy, else cgroup v2 where the pids controller is enabled for the
/// group's children.
fn pids_group() -> Option<PathBuf> {
    let groups = common::own_cgroups();
    let v1 = groups
        .iter()
        .find(|(names, _)| names.split(',').any(|n| n == "pids"));
    if let Some((_, dir)) = v1 {
        return Some(dir.clone());
    }
    let (_, dir) = groups.into_iter().find(|(names, _)| names.is_empty())?;
    let control = fs::read_to_string(dir.join("cgroup.subtree_control")).ok()?;
    control
        .split_whitespace()
        .any(|w| w == "pids")
        .then_some(dir)
}

/// `gen --suite` of one file into `out`, in the group `group` when given.
fn one_file_suite(out: &Path, group: Option<&Path>) -> std::process::Output {
    let bin = env!("CARGO_BIN_EXE_duckchess");
    let out = out.to_str().expect("a UTF-8 path");
    let mut command = match group {
        // The shell joins the group, then becomes the binary: the group's one task.
        Some(group) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg("echo $$ > \"$1\"/cgroup.procs && shift && exec \"$@\"")
                .arg("sh")
                .arg(group);
            c.arg(bin);
            c
        }
        None => Command::new(bin),
    };
    command.args(["gen", "--suite", out, "--seed", "1", "--files", "1"]);
    common::run_command(command, b"")
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "slow (two suites of one file, about 30 s): the full tier runs it"]
#[cfg_attr(
    lacks_pids_cgroup,
    ignore = "needs a control group with the pids controller (none could be made when the tests were built)"
)]
fn a_suite_is_written_when_no_thread_can_start() {
    let parent = pids_group().expect("a group with the pids controller");
    let group = parent.join(format!("duckchess-no-threads-{}", std::process::id()));
    fs::create_dir(&group).expect("a control group can be made");
    fs::write(group.join("pids.max"), "1").expect("pids.max is written");
    let alone = common::scratch("no-threads", "alone");
    let threads = common::scratch("no-threads", "threads");
    let _ = fs::remove_dir(&alone);
    let _ = fs::remove_dir(&threads);
    let limited = one_file_suite(&alone, Some(&group));
    let _ = fs::remove_dir(&group);
    let free = one_file_suite(&threads, None);
    let err = common::stderr(&limited);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(limited.status.code(), free.status.code(), "{err}");
    for name in ["1.in", "1.ans", "suite.txt"] {
        let a = fs::read(alone.join(name)).expect("written with one task");
        let b = fs::read(threads.join(name)).expect("written with threads");
        assert!(a == b, "{name} differs");
    }
    let _ = fs::remove_dir_all(&alone);
    let _ = fs::remove_dir_all(&threads);
}
