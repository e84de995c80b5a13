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

    #[test]
    fn unix_leaves_every_name_to_the_system() {
        let located = locate_in("std.exe", false, |_| true);
        assert_eq!(located, PathBuf::from("std.exe"));
    }
}
