//! Files written whole or not at all. Every file a subcommand writes (a test set, a
//! saved case, the bundle, a saved game) is written to a temporary file beside it,
//! flushed to the disk and then renamed over it: a full disk, a crash or an interrupt
//! leaves the old file or none, never a truncated one that reads as something else (a
//! truncated answer file reads as a wrong answer). A record that grows by lines
//! ([`append_whole`]) gets whole lines or none.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path`, whole or not at all (see [`write_whole_with`]).
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_whole_with(path, |out| out.write_all(bytes))
}

/// Writes the file at `path` with `fill`, whole or not at all: `fill` writes into a
/// temporary file beside `path` (in the same folder, so that the rename stays on one
/// file system), which is flushed to the disk and renamed over `path` only when all
/// went well. On any failure the temporary file is removed and `path` is as it was.
///
/// A `path` that names something other than a regular file (a device such as
/// `/dev/null` or `/dev/stdout`, a named pipe) is written in place: no rename could
/// replace it. A symbolic link is followed, and its target replaced. An existing
/// file's permissions are kept.
pub fn write_whole_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if path.as_os_str().is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the file name is empty",
        ));
    }
    let target = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path)?,
        _ => path.to_path_buf(),
    };
    let existing = match fs::metadata(&target) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => {
            let mut out = OpenOptions::new().write(true).open(&target)?;
            fill(&mut out)?;
            return out.flush();
        }
        Ok(meta) if meta.is_dir() => {
            return Err(io::Error::other("it is a directory"));
        }
        Ok(meta) => Some(meta.permissions()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let mut aside = Aside::beside(&target, existing)?;
    fill(&mut aside)?;
    aside.commit()
}

/// A file being written aside (see the module): what is written goes to a temporary
/// file beside the target, which [`Aside::commit`] flushes to the disk and renames over
/// the target. Dropped without a commit (a failure), the temporary file is removed and
/// the target is as it was.
pub struct Aside {
    temporary: PathBuf,
    target: PathBuf,
    out: Option<io::BufWriter<File>>,
    /// The permissions of the file it replaces.
    permissions: Option<fs::Permissions>,
}

impl Aside {
    /// Starts writing the regular file `path` aside (a symbolic link is followed; what
    /// is not a regular file is refused: see [`write_whole_with`] for writing those).
    pub fn create(path: &Path) -> io::Result<Aside> {
        let target = match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path)?,
            _ => path.to_path_buf(),
        };
        let existing = match fs::metadata(&target) {
            Ok(meta) if meta.is_file() => Some(meta.permissions()),
            Ok(_) => return Err(io::Error::other("it is not a regular file")),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        Aside::beside(&target, existing)
    }

    /// Starts writing `path` aside without following a symbolic link there: a link is
    /// replaced by the file, never written through (a kept output or a saved case in a
    /// shared folder lands where its name says, not where a link someone else made
    /// points). What is neither a link nor a regular file is refused.
    pub fn replacing(path: &Path) -> io::Result<Aside> {
        let existing = match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => None,
            Ok(meta) if meta.is_file() => Some(meta.permissions()),
            Ok(_) => return Err(io::Error::other("it is not a regular file")),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        Aside::beside(path, existing)
    }

    /// Writing aside of `target`, a regular file or none, whose permissions (of the
    /// file it replaces) are `existing`.
    fn beside(target: &Path, existing: Option<fs::Permissions>) -> io::Result<Aside> {
        let (temporary, file) = create_beside(target)?;
        Ok(Aside {
            temporary,
            target: target.to_path_buf(),
            out: Some(io::BufWriter::with_capacity(1 << 16, file)),
            permissions: existing,
        })
    }

    /// Flushes what was written to the disk and renames it over the target.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(out) = self.out.take() else {
            return Err(io::Error::other("the file was not written"));
        };
        let file = out.into_inner().map_err(|e| e.into_error());
        let written = file.and_then(|file| {
            if let Some(permissions) = self.permissions.take() {
                file.set_permissions(permissions)?;
            }
            file.sync_all()
        });
        if written.is_ok() {
            pause_point("file-written");
        }
        written.and_then(|()| fs::rename(&self.temporary, &self.target))?;
        // Renamed: nothing left to remove.
        self.temporary = PathBuf::new();
        sync_folder(&self.target);
        Ok(())
    }
}

impl Write for Aside {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &mut self.out {
            Some(out) => out.write(bytes),
            None => Err(io::Error::other("the file was committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.out {
            Some(out) => out.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for Aside {
    fn drop(&mut self) {
        drop(self.out.take());
        if !self.temporary.as_os_str().is_empty() {
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

/// Writes `bytes` to `path` whole or not at all, without following a symbolic link
/// there ([`Aside::replacing`]).
pub fn write_whole_replacing(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut aside = Aside::replacing(path)?;
    aside.write_all(bytes)?;
    aside.commit()
}

/// Appends `bytes` (whole lines of a record) to `file`, opened for appending: all of
/// them or, when the write fails (a full disk), none, the file being cut back to
/// where it ended.
pub fn append_whole(file: &mut File, bytes: &[u8]) -> io::Result<()> {
    let before = file.metadata()?.len();
    let written = file.write_all(bytes).and_then(|()| file.flush());
    if written.is_err() {
        let _ = file.set_len(before);
    }
    written
}

/// Creates a new temporary file beside `target`: `.NAME.PID-N.tmp` in its folder.
fn create_beside(target: &Path) -> io::Result<(PathBuf, File)> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let folder = target.parent().unwrap_or(Path::new(""));
    loop {
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let mut temporary = std::ffi::OsString::from(".");
        temporary.push(stem_of(name));
        temporary.push(format!(".{}-{n}.tmp", std::process::id()));
        let temporary = folder.join(temporary);
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)
        {
            Ok(file) => return Ok((temporary, file)),
            // Left by another run with the same process id: try the next name.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => {}
            Err(e) => return Err(e),
        }
    }
}

/// The most bytes of a file name that a temporary name keeps: names are at most 255
/// bytes on the usual file systems, and the temporary name adds a dot before and at
/// most 36 bytes after (`.PID-N.tmp`).
const STEM_BYTES: usize = 255 - 37;

/// The part of the file name `name` that its temporary name keeps: all of it, or its
/// first [`STEM_BYTES`] bytes (cut at a character) when the whole would not fit where
/// `name` fits.
fn stem_of(name: &std::ffi::OsStr) -> std::ffi::OsString {
    let text = name.to_string_lossy();
    if name.len() <= STEM_BYTES {
        return name.to_os_string();
    }
    let mut cut = STEM_BYTES;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text[..cut].into()
}

/// Removes the temporary files that runs writing `target` with [`write_whole`] left
/// beside it when they were stopped between writing and renaming (`.NAME.PID-N.tmp`;
/// those of this process excepted). Returns how many went. A run that writes the same
/// file at the same moment loses its temporary file and fails its rename with an
/// error, leaving `target` as it was.
pub fn remove_leftovers(target: &Path) -> usize {
    let Some(name) = target.file_name().map(stem_of) else {
        return 0;
    };
    let Some(name) = name.to_str() else {
        return 0;
    };
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(folder) else {
        return 0;
    };
    let (prefix, mine) = (format!(".{name}."), format!("{}-", std::process::id()));
    let mut removed = 0;
    for entry in entries.flatten() {
        let entry_name = entry.file_name();
        let Some(rest) = entry_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let Some((pid, n)) = rest.strip_suffix(".tmp").and_then(|r| r.split_once('-')) else {
            continue;
        };
        let numbers = [pid, n]
            .iter()
            .all(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
        if numbers
            && !rest.starts_with(&mine)
            && entry.file_type().is_ok_and(|t| t.is_file())
            && fs::remove_file(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// The environment variable that makes a run stop for a while at a named point of
/// its writing ([`pause_point`]): the tests send it a signal there.
pub const PAUSE_VARIABLE: &str = "DUCKCHESS_PAUSE_AT";

/// When [`PAUSE_VARIABLE`] names `point`, says so on standard error
/// (`duckchess: paused at POINT`) and waits a minute (or `DUCKCHESS_PAUSE_SECONDS`), so that a test can stop the
/// process by a signal at exactly that point of a write. Otherwise does nothing.
pub fn pause_point(point: &str) {
    if std::env::var_os(PAUSE_VARIABLE).is_some_and(|v| v == point) {
        eprintln!("duckchess: paused at {point}");
        // A minute, or the seconds `DUCKCHESS_PAUSE_SECONDS` gives (a test that acts
        // while the binary waits and then lets it go on).
        let seconds = std::env::var("DUCKCHESS_PAUSE_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60);
        std::thread::sleep(std::time::Duration::from_secs(seconds));
    }
}

/// Flushes the folder of `path` to the disk, so that the rename survives a crash
/// (where the system allows a folder to be opened; a failure changes nothing).
pub fn sync_folder(path: &Path) {
    #[cfg(unix)]
    {
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if let Ok(dir) = File::open(folder) {
            let _ = dir.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Whether `a` and `b` name the same file (both exist and are one file, or they are
/// the same path).
pub fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder under the system's temporary folder.
    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("duckchess-file-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_name_near_the_limit_is_written_and_its_leftovers_found() {
        let dir = folder("long");
        for len in [200, 218, 219, 249, 255] {
            let name = format!("{}.out", "n".repeat(len - 4));
            let path = dir.join(&name);
            write_whole(&path, b"kept\n").unwrap();
            assert_eq!(fs::read(&path).unwrap(), b"kept\n", "{len}");
            let mut aside = Aside::replacing(&path).unwrap();
            aside.write_all(b"again\n").unwrap();
            aside.commit().unwrap();
            assert_eq!(fs::read(&path).unwrap(), b"again\n", "{len}");
            // A leftover of another run, named as this one names its own.
            let (left, _) = create_beside(&path).unwrap();
            let other = left.to_string_lossy().replace(
                &format!(".{}-", std::process::id()),
                &format!(".{}-", u32::MAX),
            );
            fs::rename(&left, &other).unwrap();
            assert_eq!(remove_leftovers(&path), 1, "{len}");
            fs::remove_file(&path).unwrap();
        }
        assert_eq!(names(&dir), Vec::<String>::new());
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn replacing_a_link_writes_no_file_it_points_to() {
        let dir = folder("link");
        let answer = dir.join("1.ans");
        fs::write(&answer, b"the answer\n").unwrap();
        let link = dir.join("2.out");
        std::os::unix::fs::symlink("1.ans", &link).unwrap();
        write_whole_replacing(&link, b"an output\n").unwrap();
        assert_eq!(fs::read(&answer).unwrap(), b"the answer\n");
        assert!(!fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&link).unwrap(), b"an output\n");
        // A link to a folder, or to nothing, is replaced the same way.
        std::os::unix::fs::symlink(&dir, dir.join("3.out")).unwrap();
        write_whole_replacing(&dir.join("3.out"), b"x").unwrap();
        assert!(fs::metadata(dir.join("3.out")).unwrap().is_file());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_is_replaced_whole_or_left_as_it_was() {
        let dir = folder("replace");
        let path = dir.join("1.ans");
        write_whole(&path, b"first\n").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"first\n");
        write_whole(&path, b"second\n").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second\n");
        // A writer that fails half way: the old file stays, and no temporary file.
        let failed = write_whole_with(&path, |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("the disk is full"))
        });
        assert_eq!(failed.unwrap_err().to_string(), "the disk is full");
        assert_eq!(fs::read(&path).unwrap(), b"second\n");
        assert_eq!(names(&dir), ["1.ans"]);
        // A new file that fails is absent.
        let other = dir.join("2.ans");
        assert!(write_whole_with(&other, |_| Err(io::Error::other("no"))).is_err());
        assert!(!other.exists());
        assert_eq!(names(&dir), ["1.ans"]);
        assert!(write_whole(Path::new(""), b"x").is_err());
        assert!(write_whole(&dir, b"x").is_err(), "a directory");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_permissions_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = folder("links");
        let real = dir.join("real.in");
        fs::write(&real, b"old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.join("link.in");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_whole(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // A device is written in place, never replaced.
        write_whole(Path::new("/dev/null"), b"nothing").unwrap();
        assert!(!fs::metadata("/dev/null").unwrap().is_file());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_record_gets_whole_lines() {
        let dir = folder("append");
        let path = dir.join("record");
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap();
        append_whole(&mut file, b"one\n").unwrap();
        append_whole(&mut file, b"two\n").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one\ntwo\n");
        fs::remove_dir_all(&dir).unwrap();
    }
}
