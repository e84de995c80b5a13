//! `scripts/site.sh`'s choice of toolchain (`scripts/site-toolchain.sh`): rustup's
//! `wasm32-unknown-unknown` target where rustup is, Debian's rustc-web where only apt
//! is, a message where neither is; and the whole script run on the rustup path with a
//! stand-in `rustup` that records what it is asked, so that the build's command line
//! (the target, the crate type, the flags) is checked without building. The real build
//! on either path is `site_browser`'s (the full tier, `DUCKCHESS_SITE`).

use crate::common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// bash, found on this test's own PATH (the scripts run under a PATH made for them).
fn bash() -> PathBuf {
    std::env::var_os("PATH")
        .and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join("bash"))
                .find(|p| p.is_file())
        })
        .expect("bash is on PATH")
}

/// A folder of stand-in programs, each a shell script printing `body`'s output.
fn stubs(dir: &Path, programs: &[(&str, &str)]) {
    fs::create_dir_all(dir).unwrap();
    for (name, body) in programs {
        let path = dir.join(name);
        fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// `scripts/site-toolchain.sh` with PATH set to `path` alone, and `choice` as
/// DUCKCHESS_SITE_TOOLCHAIN when given.
fn choose(path: &Path, choice: Option<&str>) -> Output {
    let mut command = Command::new(bash());
    command
        .arg(root().join("scripts/site-toolchain.sh"))
        .env("PATH", path)
        .env_remove("DUCKCHESS_SITE_TOOLCHAIN");
    if let Some(c) = choice {
        command.env("DUCKCHESS_SITE_TOOLCHAIN", c);
    }
    common::run_command(command, b"")
}

#[test]
fn the_site_is_built_with_rustup_where_it_is_and_with_debian_elsewhere() {
    let dir = common::scratch("site-toolchain", "choice");
    let both = dir.join("both");
    stubs(
        &both,
        &[
            ("rustup", "exit 0"),
            ("cargo", "exit 0"),
            ("apt-get", "exit 0"),
            ("dpkg", "exit 0"),
        ],
    );
    let debian = dir.join("debian");
    stubs(&debian, &[("apt-get", "exit 0"), ("dpkg", "exit 0")]);
    // rustup without its cargo is no toolchain to build with.
    let rustup_alone = dir.join("rustup-alone");
    stubs(
        &rustup_alone,
        &[
            ("rustup", "exit 0"),
            ("apt-get", "exit 0"),
            ("dpkg", "exit 0"),
        ],
    );
    let rustup = dir.join("rustup");
    stubs(&rustup, &[("rustup", "exit 0"), ("cargo", "exit 0")]);
    let neither = dir.join("neither");
    stubs(&neither, &[]);

    for (path, expected) in [
        (&both, "rustup"),
        (&rustup, "rustup"),
        (&debian, "debian"),
        (&rustup_alone, "debian"),
    ] {
        let out = choose(path, None);
        assert!(out.status.success(), "{}: {out:?}", path.display());
        assert_eq!(common::stdout(&out), format!("{expected}\n"), "{path:?}");
        assert_eq!(common::stderr(&out), "");
    }

    let out = choose(&neither, None);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(common::stdout(&out), "");
    let message = common::stderr(&out);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.starts_with("site: no toolchain for WebAssembly here: install rustup"),
        "{message}"
    );

    // The person's choice wins, whatever is installed; a choice of neither is refused.
    assert_eq!(common::stdout(&choose(&both, Some("debian"))), "debian\n");
    assert_eq!(
        common::stdout(&choose(&neither, Some("rustup"))),
        "rustup\n"
    );
    let out = choose(&both, Some("apt"));
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        common::stderr(&out),
        "site: DUCKCHESS_SITE_TOOLCHAIN: expected rustup or debian, found 'apt'\n"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// A stand-in rustup: its toolchain is `stub`, its installed targets are the lines of
/// `targets` beside it, `target add` adds one there, and `run TOOLCHAIN cargo ...`
/// writes a module where cargo would; every call is recorded in `calls`, with the
/// RUSTFLAGS the build was given.
const RUSTUP: &str = r#"here=$(dirname "$0")
echo "$* | $CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS" >>"$here/calls"
case "$1 $2" in
  "show active-toolchain") echo "stub-x86_64 (default)" ;;
  "target list") cat "$here/targets" 2>/dev/null ;;
  "target add") echo "$5" >>"$here/targets" ;;
  "run stub-x86_64")
    while [ $# -gt 0 ]; do
      if [ "$1" = "--target-dir" ]; then dir=$2; fi
      shift
    done
    mkdir -p "$dir/wasm32-unknown-unknown/release"
    printf '\0asm-stand-in' >"$dir/wasm32-unknown-unknown/release/duckchess.wasm" ;;
  *) exit 9 ;;
esac"#;

#[test]
fn site_sh_builds_with_rustup_s_wasm_target() {
    let dir = common::scratch("site-toolchain", "rustup");
    let bin = dir.join("bin");
    stubs(&bin, &[("rustup", RUSTUP), ("cargo", "exit 9")]);
    let site = dir.join("site");
    let build = || {
        let mut command = Command::new(bash());
        command
            .arg(root().join("scripts/site.sh"))
            .arg(&site)
            .env(
                "PATH",
                format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display()),
            )
            .env_remove("DUCKCHESS_SITE_TOOLCHAIN")
            .env("DUCKCHESS_SITE_TARGET_DIR", dir.join("target"));
        common::run_command(command, b"")
    };

    let out = build();
    assert!(out.status.success(), "{out:?}");
    let said = common::stderr(&out);
    assert!(
        said.contains("site: duckchess.wasm built with rustup in "),
        "{said}"
    );
    for file in [
        "index.html",
        "app.js",
        "style.css",
        "favicon.svg",
        "worker.js",
        "api.json",
    ] {
        assert!(site.join(file).is_file(), "{file} is missing");
    }
    assert_eq!(
        fs::read(site.join("duckchess.wasm")).unwrap(),
        b"\0asm-stand-in"
    );
    assert_eq!(
        fs::read_to_string(site.join("api.json")).unwrap(),
        "{\"api\":\"browser\"}\n"
    );
    let flags = "-C panic=abort -C target-feature=+simd128";
    let target = dir.join("target");
    let cargo = format!(
        "run stub-x86_64 cargo rustc --quiet --release --lib --crate-type cdylib \
         --target wasm32-unknown-unknown --target-dir {} | {flags}",
        target.display()
    );
    let calls = fs::read_to_string(bin.join("calls")).unwrap();
    let calls: Vec<&str> = calls.lines().collect();
    // The target is added the first time, for the active toolchain.
    assert_eq!(
        calls,
        [
            format!("show active-toolchain | {flags}"),
            format!("target list --installed --toolchain stub-x86_64 | {flags}"),
            format!("target add --toolchain stub-x86_64 wasm32-unknown-unknown | {flags}"),
            cargo.clone(),
        ]
    );

    // Then it is there: the next build only builds.
    fs::remove_file(bin.join("calls")).unwrap();
    let out = build();
    assert!(out.status.success(), "{out:?}");
    let calls = fs::read_to_string(bin.join("calls")).unwrap();
    assert!(!calls.contains("target add"), "{calls}");
    assert!(calls.lines().any(|l| l == cargo), "{calls}");
    let _ = fs::remove_dir_all(&dir);
}
