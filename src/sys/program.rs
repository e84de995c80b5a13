//! Where a program named on a command line is found, as the platform's own shell finds
//! it. On Windows, `cmd.exe` runs `a.exe`, and `a` as `a.exe`, from the current folder
//! before it looks in `PATH`, while the system call that starts programs no longer looks
//! in the current folder: the runners look there first themselves. On Unix a name
//! without a folder is looked up in `PATH` only, and `./a.out` is how one runs a program
//! from here.

use std::path::{Path, PathBuf};

/// How the platform's shell names a program in the current folder: `./` on Unix, `.\`
/// on Windows (`.\a.exe`).
pub const HERE: &str = if cfg!(windows) { ".\\" } else { "./" };

/// The program `name` (a command's first word, as the user typed it) as the system is
/// to be asked to start it: on Windows, a name without a folder that is a file in the
/// current folder (with `.exe` added when it has no extension) is that file; anything
/// else is unchanged.
pub fn locate(name: &str) -> PathBuf {
    locate_in(name, cfg!(windows), |p| p.is_file())
}

/// [`locate`] for a platform (`windows` or not), with `is_file` saying which files
/// exist in the current folder: the rule, testable on any platform.
fn locate_in(name: &str, windows: bool, is_file: impl Fn(&Path) -> bool) -> PathBuf {
    let bare = !name.is_empty() && !name.contains(['/', '\\', ':']);
    if windows && bare {
        let named = Path::new(name);
        let file = if named.extension().is_some() {
            named.to_path_buf()
        } else {
            named.with_extension("exe")
        };
        if is_file(&file) {
            return Path::new(".").join(file);
        }
    }
    PathBuf::from(name)
}

/// The file the system runs for `name` on Unix, as `execvp(3)` finds it: a name with a
/// `/` is that file; another is looked up in each folder of `PATH` (`/bin:/usr/bin`
/// where it is unset), the first executable file found. The error `execvp(3)` would give
/// where there is none: permission denied when some file of that name is not
/// executable, else not found.
#[cfg(unix)]
pub fn search(name: &str) -> std::io::Result<PathBuf> {
    let path = std::env::var_os("PATH");
    search_in(name, path.as_deref().unwrap_or("/bin:/usr/bin".as_ref()))
}

/// [`search`] in the folders of `path`.
#[cfg(unix)]
fn search_in(name: &str, path: &std::ffi::OsStr) -> std::io::Result<PathBuf> {
    use std::io::Error;
    use std::os::unix::fs::PermissionsExt;
    // The system's own errors, as starting the program would give them.
    const ENOENT: i32 = 2;
    const EACCES: i32 = 13;
    if name.contains('/') {
        return Ok(PathBuf::from(name));
    }
    if name.is_empty() {
        return Err(Error::from_raw_os_error(ENOENT));
    }
    let mut denied = false;
    for dir in std::env::split_paths(path) {
        // An empty entry is the current folder, as for execvp(3).
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        let file = dir.join(name);
        let Ok(meta) = std::fs::metadata(&file) else {
            continue;
        };
        if meta.is_file() && meta.permissions().mode() & 0o111 != 0 {
            return Ok(file);
        }
        denied = true;
    }
    Err(Error::from_raw_os_error(if denied {
        EACCES
    } else {
        ENOENT
    }))
}

/// Whether `name`, the first word of a command that could not be started, is a file in
/// the current folder that the platform's shell would run only when named with
/// [`HERE`] (Unix: a name alone is looked up in `PATH`).
pub fn needs_here(name: &str) -> bool {
    !cfg!(windows) && !name.contains('/') && Path::new(name).is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on_windows(name: &str, files: &[&str]) -> PathBuf {
        locate_in(name, true, |p| files.iter().any(|f| Path::new(f) == p))
    }

    #[test]
    fn windows_finds_a_program_in_the_current_folder_as_cmd_does() {
        let here = |f: &str| Path::new(".").join(f);
        assert_eq!(on_windows("std.exe", &["std.exe"]), here("std.exe"));
        assert_eq!(on_windows("std", &["std.exe"]), here("std.exe"));
        assert_eq!(on_windows("run.bat", &["run.bat"]), here("run.bat"));
        // Not here: left to the system's search of PATH.
        assert_eq!(on_windows("python", &["std.exe"]), PathBuf::from("python"));
        assert_eq!(on_windows("std", &["std"]), PathBuf::from("std"));
        // A folder given is the user's choice.
        for name in [r".\std.exe", "./std.exe", r"C:\x\std.exe", "d:std.exe"] {
            assert_eq!(on_windows(name, &["std.exe"]), PathBuf::from(name));
        }
        assert_eq!(on_windows("", &[]), PathBuf::from(""));
    }

    #[cfg(unix)]
    #[test]
    fn unix_finds_a_name_in_path_as_execvp_does() {
        use std::io::ErrorKind;
        let dir = std::env::temp_dir().join(format!("duckchess-search-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a")).unwrap();
        std::fs::create_dir_all(dir.join("b")).unwrap();
        std::fs::write(dir.join("a/tool"), "").unwrap();
        std::fs::write(dir.join("b/tool"), "").unwrap();
        use std::os::unix::fs::PermissionsExt;
        let exec = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(dir.join("b/tool"), exec).unwrap();
        let path = std::env::join_paths([dir.join("a"), dir.join("b")]).unwrap();
        assert_eq!(search_in("tool", &path).unwrap(), dir.join("b/tool"));
        let only_a = dir.join("a").into_os_string();
        let denied = search_in("tool", &only_a).unwrap_err();
        assert_eq!(denied.kind(), ErrorKind::PermissionDenied);
        let missing = search_in("none", &path).unwrap_err();
        assert_eq!(missing.kind(), ErrorKind::NotFound);
        assert_eq!(search_in("./x", &path).unwrap(), PathBuf::from("./x"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn unix_leaves_every_name_to_the_system() {
        let located = locate_in("std.exe", false, |_| true);
        assert_eq!(located, PathBuf::from("std.exe"));
    }
}
