//! Looks for what some tests need and the repository does not hold (the contest's
//! official cases, g++, a C compiler, curl, unzip, GNU time, Debian's rustc 1.63, a
//! control group with the memory controller, or with the pids controller, that this
//! process may make, Kattis problemtools' `verifyproblem` and `p2d`, which
//! `scripts/judge-tools.sh` installs), and for each one missing sets a cfg
//! (`lacks_official`, `lacks_gxx`, `lacks_cc`, `lacks_curl`, `lacks_unzip`,
//! `lacks_gnu_time`, `lacks_old_rustc`, `lacks_cgroup`, `lacks_pids_cgroup`,
//! `lacks_judge_tools`) that marks the tests needing it `#[ignore]` with the reason:
//! `cargo test` then reports them as not run, never as passed. Under CI (`CI` set) none
//! is set: every test runs, and one that cannot fails. The program itself uses none of
//! these cfgs.
//!
//! Cargo runs this again when one of the things found changes, when `PATH` changes, or
//! when this file is touched: after installing a tool or fetching the cases,
//! `scripts/fetch-official.sh` touches it, and `touch build.rs` does the same by hand.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PATH");
    // Under CI every test runs, and one that cannot fails: nothing is marked missing.
    println!("cargo:rerun-if-env-changed=CI");
    let ci = env::var_os("CI").is_some();
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());

    let official = root.join("../shared/official/duckchess");
    let has_official = (1..=4).all(|i| {
        official.join(format!("{i}.in")).is_file() && official.join(format!("{i}.ans")).is_file()
    });
    // Watch the nearest folder that exists: a path that does not exist would make
    // cargo run this script, and build the crate again, on every build.
    if let Some(dir) = [
        official.as_path(),
        &root.join("../shared/official"),
        &root.join("../shared"),
    ]
    .into_iter()
    .find(|d| d.is_dir())
    {
        println!("cargo:rerun-if-changed={}", dir.display());
    }

    let gxx = on_path("g++");
    let cc = on_path("cc").or_else(|| on_path("gcc"));
    let curl = on_path("curl");
    let unzip = on_path("unzip");
    let fixed = |path: &str| Some(PathBuf::from(path)).filter(|p| p.is_file());
    let verifyproblem = on_path("verifyproblem");
    let p2d = on_path("p2d");
    let gnu_time = fixed("/usr/bin/time");
    let old_rustc = fixed("/usr/bin/rustc");
    for found in [
        &gxx,
        &cc,
        &curl,
        &unzip,
        &gnu_time,
        &old_rustc,
        &verifyproblem,
        &p2d,
    ]
    .into_iter()
    .flatten()
    {
        println!("cargo:rerun-if-changed={}", found.display());
    }

    let lacks = [
        ("lacks_official", !has_official),
        ("lacks_gxx", gxx.is_none()),
        ("lacks_cc", cc.is_none()),
        ("lacks_curl", curl.is_none()),
        ("lacks_unzip", unzip.is_none()),
        ("lacks_gnu_time", gnu_time.is_none()),
        ("lacks_old_rustc", old_rustc.is_none()),
        ("lacks_cgroup", !cgroup_works("memory")),
        ("lacks_pids_cgroup", !cgroup_works("pids")),
        (
            "lacks_judge_tools",
            verifyproblem.is_none() || p2d.is_none(),
        ),
    ];
    for (name, missing) in lacks {
        println!("cargo:rustc-check-cfg=cfg({name})");
        if missing && !ci {
            println!("cargo:rustc-cfg={name}");
        }
    }
    // testlib.h is in no Debian package, and a machine without GitHub cannot fetch it:
    // the test that builds the Polygon validator and checker runs where
    // DUCKCHESS_TESTLIB_FROM names a copy (scripts/fetch-testlib.sh checks it against
    // the pinned commit's SHA-256), and is ignored with that reason elsewhere, CI too.
    println!("cargo:rerun-if-env-changed=DUCKCHESS_TESTLIB_FROM");
    println!("cargo:rustc-check-cfg=cfg(lacks_testlib)");
    let testlib = env::var_os("DUCKCHESS_TESTLIB_FROM").map(PathBuf::from);
    if !testlib.is_some_and(|p| p.is_file()) {
        println!("cargo:rustc-cfg=lacks_testlib");
    }
}

/// The file `program` names in a folder of `PATH`, if any.
fn on_path(program: &str) -> Option<PathBuf> {
    let name = if cfg!(windows) {
        format!("{program}.exe")
    } else {
        program.to_string()
    };
    env::split_paths(&env::var_os("PATH")?)
        .map(|dir| dir.join(&name))
        .find(|p| p.is_file())
}

/// Whether a control group with `controller` can be made below the group this process
/// is in, as the runner makes one for each run (the memory controller) and a test of
/// thread exhaustion does (the pids controller): cgroup v1's hierarchy of that
/// controller, or v2 with it enabled for the group's children. Tried by making one
/// (`duckchess-build-PID`) and removing it.
fn cgroup_works(controller: &str) -> bool {
    let (Ok(own), Ok(mounts)) = (
        std::fs::read_to_string("/proc/self/cgroup"),
        std::fs::read_to_string("/proc/self/mountinfo"),
    ) else {
        return false;
    };
    // The mount point of the hierarchy of `kind` (`cgroup2`, or `cgroup` with `option`).
    let mount = |kind: &str, option: &str| {
        mounts.lines().find_map(|l| {
            let (before, after) = l.split_once(" - ")?;
            let after: Vec<&str> = after.split(' ').collect();
            let wanted = after.first() == Some(&kind)
                && (option.is_empty() || after.get(2)?.split(',').any(|o| o == option));
            let fields: Vec<&str> = before.split(' ').collect();
            let point = fields
                .get(4)
                .filter(|_| wanted && fields.get(3) == Some(&"/"))?;
            Some(PathBuf::from(point))
        })
    };
    let path = |names: &dyn Fn(&str) -> bool| {
        own.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, n, p) = (parts.next()?, parts.next()?, parts.next()?);
            names(n).then(|| p.trim_start_matches('/').to_string())
        })
    };
    let v1 = path(&|n: &str| n.split(',').any(|c| c == controller))
        .and_then(|p| Some(mount("cgroup", controller)?.join(p)));
    let dir = match v1 {
        Some(dir) => dir,
        None => {
            let Some(dir) =
                path(&|n: &str| n.is_empty()).and_then(|p| Some(mount("cgroup2", "")?.join(p)))
            else {
                return false;
            };
            let control = std::fs::read_to_string(dir.join("cgroup.subtree_control"));
            if !control.is_ok_and(|c| c.split_whitespace().any(|w| w == controller)) {
                return false;
            }
            dir
        }
    };
    let probe = dir.join(format!("duckchess-build-{}", std::process::id()));
    let made = std::fs::create_dir(&probe).is_ok();
    made && std::fs::remove_dir(&probe).is_ok()
}
