//! The suite on disk: `gen --suite DIR` writes each file of [`super::build`] as `N.in`
//! with the judge's `N.ans`, and `suite.txt`, which says how it was made, what each file
//! kills and reaches, and which mistakes only one file kills. An existing DIR may hold
//! only what a suite writes, with the suite's record (`suite.txt`): it is replaced whole
//! (written aside, then renamed into place); anything else is refused, a folder of
//! hand-made `N.in` and `N.ans` too. One run at a time writes a DIR: a second waits for
//! nothing and refuses (a lock beside DIR, which the system lets go when a run ends,
//! however it ends); and the old suite is never lost: a run stopped between its two
//! renames leaves it hidden beside DIR, and the next run puts it back first.

use super::build::suite;
use super::plan::{Plan, SuiteFile};
use crate::catalogue::for_suite::Test;
use crate::catalogue::for_suite::{judge_answers, killed_by, Mistake};
use crate::cli;
use crate::generate::case::Case;
use crate::model::statement;
use crate::model::table::{cells, Map};
use crate::sys::file;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Why a suite could not be written.
#[derive(Debug)]
pub enum SuiteError {
    /// DIR exists and holds something the suite does not write.
    Foreign(PathBuf),
    /// DIR exists and is not a directory.
    NotADirectory(PathBuf),
    /// DIR holds a suite's files but not its record, `suite.txt`: made by hand.
    NotASuite(PathBuf),
    /// Another run is writing DIR.
    Busy(PathBuf),
    /// Reading or writing failed.
    Io(PathBuf, io::Error),
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Foreign(p) => write!(
                f,
                "{} is not a file the suite writes (N.in, N.ans, suite.txt): refusing to \
                 write into its directory; give an empty or a new one",
                p.display()
            ),
            SuiteError::NotADirectory(p) => write!(f, "{} is not a directory", p.display()),
            SuiteError::NotASuite(p) => write!(
                f,
                "{} holds files but no suite.txt: only a folder that gen --suite wrote is \
                 replaced; give an empty or a new one",
                p.display()
            ),
            SuiteError::Busy(p) => write!(
                f,
                "another gen --suite is writing {}: wait for it to end, or give another \
                 folder",
                p.display()
            ),
            SuiteError::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for SuiteError {}

impl SuiteError {
    /// The same error, a path below `from` named below `to` instead.
    fn in_place_of(self, from: &Path, to: &Path) -> SuiteError {
        let moved = |p: PathBuf| match p.strip_prefix(from) {
            Ok(rest) => to.join(rest),
            Err(_) => p,
        };
        match self {
            SuiteError::Foreign(p) => SuiteError::Foreign(moved(p)),
            SuiteError::NotADirectory(p) => SuiteError::NotADirectory(moved(p)),
            SuiteError::NotASuite(p) => SuiteError::NotASuite(moved(p)),
            SuiteError::Busy(p) => SuiteError::Busy(moved(p)),
            SuiteError::Io(p, e) => SuiteError::Io(moved(p), e),
        }
    }
}

/// Whether `name` is one the suite writes: `N.in` or `N.ans` (`N` from 1, no leading
/// zero) or `suite.txt`.
fn written_by_the_suite(name: &str) -> bool {
    if name == "suite.txt" {
        return true;
    }
    let stem = name
        .strip_suffix(".in")
        .or_else(|| name.strip_suffix(".ans"));
    stem.is_some_and(|n| {
        !n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Checks that `dir` may take a suite: it is missing, empty, or a directory that holds
/// only files a suite writes, `suite.txt` among them (an earlier suite, replaced
/// whole). Says whether it exists.
fn check(dir: &Path) -> Result<bool, SuiteError> {
    let io = |p: &Path, e: io::Error| SuiteError::Io(p.to_path_buf(), e);
    match fs::metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io(dir, e)),
        Ok(m) if !m.is_dir() => return Err(SuiteError::NotADirectory(dir.to_path_buf())),
        Ok(_) => {}
    }
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(|e| io(dir, e))?;
    entries.sort();
    let recorded = entries
        .iter()
        .any(|p| p.file_name() == Some("suite.txt".as_ref()));
    for path in &entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let is_file = fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
        if !is_file || !written_by_the_suite(name) {
            return Err(SuiteError::Foreign(path.clone()));
        }
    }
    if !entries.is_empty() && !recorded {
        return Err(SuiteError::NotASuite(dir.to_path_buf()));
    }
    Ok(true)
}

/// The lock of a run writing a DIR: the file `.NAME.suite-lock` beside it, locked for
/// as long as the run holds it (the system lets it go when the process ends, however it
/// ends), removed when the run is done.
struct Lock {
    path: PathBuf,
    _file: fs::File,
}

impl Lock {
    /// Takes the lock of `dir` (whose last component is named in `named`), or says that
    /// another run holds it.
    fn take(named: &Path) -> Result<Lock, SuiteError> {
        let mut name = std::ffi::OsString::from(".");
        name.push(named.file_name().unwrap_or_default());
        name.push(".suite-lock");
        let path = named.with_file_name(name);
        let io = |e: io::Error| SuiteError::Io(path.clone(), e);
        if let Some(parent) = named.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(parent).map_err(io)?;
        }
        // A run that ends removes the file while it holds it: the lock taken must be
        // on the file the name still names, else it is taken again.
        for _ in 0..100 {
            let file = fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .map_err(io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(SuiteError::Busy(named.to_path_buf()))
                }
                Err(fs::TryLockError::Error(e)) => return Err(io(e)),
            }
            if same_file(&file, &path) {
                return Ok(Lock { path, _file: file });
            }
        }
        Err(io(io::Error::other("the lock file keeps changing")))
    }
}

/// Whether the open `file` is the file `path` names now.
fn same_file(file: &fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held (the file is closed after this), so that no run
        // takes a lock on a file about to go. Windows keeps a file that is open.
        #[cfg(unix)]
        let _ = fs::remove_file(&self.path);
        #[cfg(not(unix))]
        let _ = &self.path;
    }
}

/// The hidden folders a run works in beside `dir`: `.NAME.PID.suite-new` (the new
/// suite while it is written) and `.NAME.PID.suite-old` (the old one while the new
/// takes its place).
struct Aside {
    new: PathBuf,
    old: PathBuf,
}

/// The endings of the hidden folders' names.
const NEW: &str = ".suite-new";
const OLD: &str = ".suite-old";

impl Aside {
    fn of(dir: &Path) -> Aside {
        let pid = std::process::id();
        let named = |ending: &str| {
            let mut name = std::ffi::OsString::from(".");
            name.push(dir.file_name().unwrap_or_default());
            name.push(format!(".{pid}{ending}"));
            dir.with_file_name(name)
        };
        Aside {
            new: named(NEW),
            old: named(OLD),
        }
    }
}

/// Removes a folder of suite files: its suite files, then the folder if that left it
/// empty (anything else in it stays, and so does the folder).
fn remove_suite_folder(folder: &Path) {
    if let Ok(entries) = fs::read_dir(folder) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let ours = name.to_str().is_some_and(written_by_the_suite)
                || name
                    .to_str()
                    .is_some_and(|n| n.starts_with('.') && n.ends_with(".tmp"));
            if ours && entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    let _ = fs::remove_dir(folder);
}

/// Removes what a run stopped by a signal (or a crash) left beside `dir`: its hidden
/// folders (see [`Aside`]), whatever process wrote them (no other is running: the
/// caller holds the lock), except an old suite where `dir` is missing, which is put back.
fn remove_leftovers(dir: &Path) {
    let Some(name) = dir.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let entry_name = entry.file_name();
        let Some(rest) = entry_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let (pid, old) = match (rest.strip_suffix(NEW), rest.strip_suffix(OLD)) {
            (Some(pid), _) => (pid, false),
            (_, Some(pid)) => (pid, true),
            _ => continue,
        };
        if !pid.bytes().all(|b| b.is_ascii_digit()) || !entry.file_type().is_ok_and(|t| t.is_dir())
        {
            continue;
        }
        // An old suite set aside by a run stopped before the new one took its place:
        // it goes back, unless a suite is there again.
        if old && fs::symlink_metadata(dir).is_err() && fs::rename(entry.path(), dir).is_ok() {
            continue;
        }
        remove_suite_folder(&entry.path());
    }
}

/// What was written.
#[derive(Debug)]
pub struct Written {
    /// The files, in order.
    pub files: Vec<SuiteFile>,
    /// For each mistake of the plan, how many files kill it.
    pub kills: Vec<(Mistake, usize)>,
    /// The text of `suite.txt`.
    pub summary: String,
}

impl Written {
    /// The mistakes no file kills.
    pub fn survivors(&self) -> Vec<Mistake> {
        self.kills
            .iter()
            .filter(|(_, n)| *n == 0)
            .map(|&(m, _)| m)
            .collect()
    }
}

/// `words` joined by ", " and filled into lines of at most 80 columns, each starting
/// with `indent`.
fn wrapped(words: &[&str], indent: &str) -> String {
    cli::help::filled(&words.join(", "), indent, indent)
}

/// The text of `suite.txt`: how it was made; how many files kill each mistake; for each
/// file its commands, its end, what it kills and reaches; the mistakes only one file
/// kills, those none kills; the cells of the coverage map never reached.
fn summary(plan: &Plan, files: &[SuiteFile], kills: &[(Mistake, usize)]) -> String {
    let total = kills.len();
    let by = |n: usize| kills.iter().filter(|(_, k)| *k == n).count();
    let every = kills.iter().filter(|(_, k)| *k == files.len()).count();
    let tests: Vec<Test> = files
        .iter()
        .enumerate()
        .map(|(i, f)| Test::new(format!("{}.in", i + 1), f.cmds.clone()))
        .collect();
    let map = Map::of(tests.iter().map(|t| &t.cmds[..]));
    let reachable = cells().iter().filter(|c| c.reachable()).count();
    let often = cells()
        .iter()
        .filter(|&&c| c.reachable() && map.count(c) >= plan.weights.hits)
        .count();
    let mut out = format!(
        "duckchess gen --suite DIR --seed {} --files {}\n{}; {} of {total} mistakes of the \
         catalogue killed",
        plan.seed,
        plan.total,
        cli::plural(files.len() as u64, "file"),
        total - by(0),
    );
    if files.len() > 1 {
        out.push_str(&format!(
            ": {every} by every file, {} by two or more, {} by one",
            total - by(0) - by(1),
            by(1)
        ));
    }
    out.push_str(&format!(
        "\ncoverage: {} of {reachable} cells reached, {often} of them at least {} times\n",
        reachable - map.missing(),
        plan.weights.hits
    ));
    let mut model = statement::Map::new();
    for t in &tests {
        model.add(&t.cmds);
    }
    let cells = statement::cells().len();
    out.push_str(&format!(
        "the statement's model: {} of {cells} cells reached\n",
        cells - model.missing().len()
    ));
    for (i, f) in files.iter().enumerate() {
        let answers = judge_answers(&f.cmds);
        let legal = answers.iter().filter(|a| a.is_some()).count();
        let checks = answers.iter().flatten().filter(|m| m.check).count();
        out.push_str(&format!(
            "\n{}.in: Q = {}: {}, {}, {}\n",
            i + 1,
            f.cmds.len(),
            cli::plural(legal as u64, "legal move"),
            cli::plural(checks as u64, "check"),
            cli::plural((f.cmds.len() - legal) as u64, "invalid command")
        ));
        for feature in &f.features {
            out.push_str(&format!("  {feature}\n"));
        }
        let one = Map::of([&tests[i].cmds[..]]);
        out.push_str(&format!(
            "  kills {} of {total} mistakes; reaches {} of {reachable} cells\n",
            killed_by(&f.cmds, plan.mistakes).len(),
            reachable - one.missing()
        ));
    }
    for (n, title) in [(1, "killed by one file only"), (0, "killed by no file")] {
        let mut names: Vec<&str> = kills
            .iter()
            .filter(|(_, k)| *k == n)
            .map(|(m, _)| m.name())
            .collect();
        if names.is_empty() || files.len() < 2 && n == 1 {
            continue;
        }
        names.sort();
        out.push_str(&format!("\n{title} ({}):\n", names.len()));
        out.push_str(&wrapped(&names, "  "));
    }
    out
}

/// Writes the suite of `plan` into `dir`: `N.in` and the judge's `N.ans` for each file,
/// and `suite.txt`. The suite is written whole in a hidden folder beside `dir`, then
/// takes its place by renames: stopped at any moment (a signal, a full disk), the run
/// leaves the old suite or the new one, whole, or (between the two renames) none; what
/// it left hidden beside `dir` is removed by the next run.
pub fn write(dir: &Path, plan: &Plan) -> Result<Written, SuiteError> {
    // A symbolic link is written through: the suite replaces its target, and the link
    // stays as it was.
    let target = through_links(dir).map_err(|e| SuiteError::Io(dir.to_path_buf(), e))?;
    let dir = target.as_path();
    // "." and ".." have no name to put beside: the folder's own path has.
    let dir_named = match dir.file_name() {
        Some(_) => dir.to_path_buf(),
        None => fs::canonicalize(dir).map_err(|e| SuiteError::Io(dir.to_path_buf(), e))?,
    };
    check(dir)?;
    let _lock = Lock::take(&dir_named)?;
    remove_leftovers(&dir_named);
    check(dir)?;
    let files = suite(plan);
    let mut kills: Vec<(Mistake, usize)> = plan.mistakes.iter().map(|&m| (m, 0)).collect();
    for f in &files {
        let killed = killed_by(&f.cmds, plan.mistakes);
        for (m, n) in &mut kills {
            if killed.contains(m) {
                *n += 1;
            }
        }
    }
    let summary = summary(plan, &files, &kills);
    let mut contents = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let case = Case::of(&f.cmds);
        contents.push((format!("{}.in", i + 1), case.to_bytes()));
        contents.push((format!("{}.ans", i + 1), case.answer()));
    }
    contents.push(("suite.txt".to_string(), summary.clone().into_bytes()));
    put_in_place(dir, &dir_named, &contents)?;
    Ok(Written {
        files,
        kills,
        summary,
    })
}

/// `dir`, or where the symbolic link `dir` leads (through every link on the way; the
/// last target need not exist yet).
fn through_links(dir: &Path) -> io::Result<PathBuf> {
    let mut path = dir.to_path_buf();
    // As many links as the system follows in one path, at most.
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(parent) if to.is_relative() => parent.join(to),
                    _ => to,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Writes `contents` (names and bytes) as the folder `dir` (whose last component is
/// named in `named`): in a hidden folder first, which then takes `dir`'s place.
fn put_in_place(
    dir: &Path,
    named: &Path,
    contents: &[(String, Vec<u8>)],
) -> Result<(), SuiteError> {
    let aside = Aside::of(named);
    let failed = |path: &Path, e: io::Error| {
        remove_suite_folder(&aside.new);
        let e = io::Error::new(e.kind(), format!("{e}; the suite is left as it was"));
        SuiteError::Io(path.to_path_buf(), e)
    };
    if let Some(parent) = named.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|e| failed(dir, e))?;
    }
    remove_suite_folder(&aside.new);
    fs::create_dir(&aside.new).map_err(|e| failed(dir, e))?;
    for (i, (name, bytes)) in contents.iter().enumerate() {
        file::write_whole(&aside.new.join(name), bytes).map_err(|e| failed(&dir.join(name), e))?;
        if i == 0 {
            file::pause_point("suite-begun");
        }
    }
    file::pause_point("suite-written");
    // A file put into DIR while the suite was made is the user's: DIR is looked at
    // again, and refused untouched.
    let existed = check(named).inspect_err(|_| remove_suite_folder(&aside.new))?;
    if existed {
        fs::rename(named, &aside.old).map_err(|e| failed(dir, e))?;
        file::pause_point("suite-aside");
    }
    if let Err(e) = fs::rename(&aside.new, named) {
        if existed {
            // Put the old suite back: the run changes nothing.
            let _ = fs::rename(&aside.old, named);
        }
        return Err(failed(dir, e));
    }
    if existed {
        // A file that came between the last look and the rename is put back with its
        // folder, and the suite is refused.
        if let Err(e) = check(&aside.old) {
            if fs::rename(named, &aside.new).is_ok() && fs::rename(&aside.old, named).is_ok() {
                remove_suite_folder(&aside.new);
                return Err(e.in_place_of(&aside.old, named));
            }
        }
        remove_suite_folder(&aside.old);
    }
    file::sync_folder(named);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_files_are_recognised_by_name() {
        for name in ["1.in", "1.ans", "10.in", "suite.txt"] {
            assert!(written_by_the_suite(name), "{name}");
        }
        for name in [
            "0.in", "01.in", "1.out", ".in", "a.in", "1.in.bak", "suite.md", "1",
        ] {
            assert!(!written_by_the_suite(name), "{name}");
        }
    }

    /// A plan of one file against one mistake: a suite written in a moment.
    fn small_plan(seed: u64) -> Plan<'static> {
        Plan {
            files: 1,
            total: 1,
            mistakes: &Mistake::all()[..1],
            ..Plan::new(seed, 1, 1)
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_written_through_and_stays() {
        let base =
            std::env::temp_dir().join(format!("duckchess-suite-link-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        fs::create_dir_all(base.join("real")).unwrap();
        fs::write(base.join("real/1.in"), "old").unwrap();
        fs::write(base.join("real/suite.txt"), "an old suite's record").unwrap();
        std::os::unix::fs::symlink("real", base.join("link")).unwrap();
        // A link to a link, and one whose folder does not exist yet.
        std::os::unix::fs::symlink("link", base.join("link2")).unwrap();
        std::os::unix::fs::symlink("fresh", base.join("dangling")).unwrap();
        for (name, target) in [("link", "real"), ("link2", "real"), ("dangling", "fresh")] {
            let written = write(&base.join(name), &small_plan(1)).expect("written");
            assert_eq!(written.files.len(), 1);
            let link = fs::symlink_metadata(base.join(name)).unwrap();
            assert!(link.file_type().is_symlink(), "{name} stays a link");
            let input = fs::read(base.join(target).join("1.in")).unwrap();
            assert_ne!(input, b"old", "{name}");
            assert!(base.join(target).join("suite.txt").is_file(), "{name}");
        }
        // Nothing is left beside them.
        let mut names: Vec<String> = fs::read_dir(&base)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["dangling", "fresh", "link", "link2", "real"]);
        let _ = fs::remove_dir_all(&base);
    }

    #[test]
    fn wrapped_lists_stay_within_80_columns() {
        let names: Vec<&str> = Mistake::all().iter().map(|m| m.name()).collect();
        let text = wrapped(&names, "    ");
        assert!(text.lines().all(|l| l.len() <= 80 && l.starts_with("    ")));
        let words: Vec<&str> = text
            .split_whitespace()
            .map(|w| w.trim_end_matches(','))
            .collect();
        assert_eq!(words, names);
    }
}
