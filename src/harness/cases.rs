//! Finding a test set's files: every `X.in` paired with its answer `X.out` or `X.ans`, or
//! judged against the built-in judge when named alone; folders read in natural order.
//! `test` and `audit` read test sets through here.
//!
//! A test set is read as its setter means it, or refused with the reason: when both
//! `X.out` and `X.ans` exist they must hold the same bytes (else which one is the
//! answer?), and an input or answer that is not a regular file (a directory, a device,
//! a pipe) or cannot be reached (a looping or dangling link) is named as such.

use crate::harness::process::Feed;
use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One test case: an input and the answer it is compared with.
#[derive(Clone, Debug)]
pub struct Case {
    /// The input path without its `.in`, as shown in reports.
    pub name: String,
    /// The `.in` file, or a built-in sample's text.
    pub input: Feed,
    /// What the output is compared with.
    pub answer: Reference,
    /// An input beyond the official format on purpose (odd whitespace, coordinates off
    /// the board), which the judge accepts by its lenient contract: a correct solution
    /// may fail it, and a report says so.
    pub beyond_format: bool,
}

/// The answer of a case.
#[derive(Clone, Debug)]
pub enum Reference {
    /// An `.out` or `.ans` file.
    File(PathBuf),
    /// A built-in sample's answer.
    Text(&'static str),
    /// What the built-in judge answers (a file named alone, without an answer file).
    Builtin,
}

/// Where `test --keep DIR` keeps the output of `case`: `DIR/NAME.out`, NAME being the
/// case's name as reports show it with its folders (`samples/statement` gives
/// `DIR/samples/statement.out`), less any root, `.` or `..` (so it stays in DIR).
pub fn kept_path(dir: &Path, case: &Case) -> PathBuf {
    use std::path::Component;
    let mut path = dir.to_path_buf();
    for part in Path::new(&case.name).components() {
        if let Component::Normal(name) = part {
            path.push(name);
        }
    }
    let mut name = path
        .file_name()
        .unwrap_or(OsStr::new("case"))
        .to_os_string();
    name.push(".out");
    path.set_file_name(name);
    path
}

/// Whether `path` is (or could be) the answer of a case: an `X.out` or `X.ans` with an
/// `X.in` beside it. `test --keep` never writes over one.
pub fn is_answer(path: &Path) -> bool {
    let answer = matches!(
        path.extension().and_then(OsStr::to_str),
        Some("out" | "ans")
    );
    answer && path.with_extension("in").exists()
}

/// Why the cases could not be collected.
#[derive(Debug)]
pub enum CollectError {
    /// A PATH that cannot be read.
    Read(PathBuf, io::Error),
    /// A file that is neither `.in`, `.out` nor `.ans`.
    NotACaseFile(PathBuf),
    /// An answer file given on the command line whose input is missing.
    Unpaired(PathBuf, String),
    /// An input or answer file that is not a regular file: its path and what it is.
    NotAFile(PathBuf, &'static str),
    /// `X.out` and `X.ans` both exist and differ: the stem.
    Ambiguous(PathBuf),
    /// Nothing to test.
    NoCases,
}

impl fmt::Display for CollectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CollectError::Read(p, e) => {
                write!(f, "cannot read {}: {e}", p.display())?;
                // The guides' examples name the contest's cases `official/`.
                if e.kind() == io::ErrorKind::NotFound
                    && p.file_name() == Some(OsStr::new("official"))
                {
                    write!(
                        f,
                        " (the contest's official cases: scripts/fetch-official.sh puts them in \
                         ../shared/official/duckchess; link or copy that folder here)"
                    )?;
                }
                Ok(())
            }
            CollectError::NotACaseFile(p) => write!(
                f,
                "{}: expected a directory or a file ending in .in, .out or .ans",
                p.display()
            ),
            CollectError::Unpaired(p, wanted) => {
                write!(f, "{}: no {wanted} next to it", p.display())
            }
            CollectError::NotAFile(p, what) => {
                write!(f, "{} is {what}, not a file of the test set", p.display())
            }
            CollectError::Ambiguous(stem) => write!(
                f,
                "{0}.out and {0}.ans both exist and differ: which is the answer? keep one",
                stem.display()
            ),
            CollectError::NoCases => write!(f, "no test cases (pairs X.in and X.out or X.ans)"),
        }
    }
}

impl std::error::Error for CollectError {}

/// Splits `name` into the stem and the extension among `.in`, `.out`, `.ans`. A name
/// need not be UTF-8 (a file system's names are bytes).
fn split_case_name(path: &Path) -> Option<(PathBuf, &'static str)> {
    let found = path.extension()?;
    let ext = ["in", "out", "ans"].into_iter().find(|e| found == *e)?;
    Some((path.with_extension(""), ext))
}

fn with_ext(stem: &Path, ext: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// What `path` is when it is not a regular file ("a directory", "a device"); `None`
/// for a regular file (through links).
fn not_a_file(meta: &fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
        if kind.is_fifo() {
            return Some("a named pipe");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// What `path` leads to; a link that leads nowhere (dangling, or in a loop) is named as
/// such.
fn metadata_of(path: &Path) -> Result<fs::Metadata, CollectError> {
    fs::metadata(path).map_err(|e| {
        let link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        match (link, e.kind()) {
            (true, io::ErrorKind::NotFound) => {
                CollectError::NotAFile(path.into(), "a dangling link")
            }
            (true, _) => CollectError::NotAFile(path.into(), "a link that cannot be followed"),
            _ => CollectError::Read(path.into(), e),
        }
    })
}

/// Whether `path` is there at all (a link counts, even a broken one); an error for a
/// path that exists but leads to no regular file (a directory, a device, a looping or
/// dangling link).
fn regular_file(path: &Path) -> Result<bool, CollectError> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(CollectError::Read(path.into(), e)),
        Ok(_) => {}
    }
    let meta = metadata_of(path)?;
    match not_a_file(&meta) {
        Some(what) => Err(CollectError::NotAFile(path.into(), what)),
        None => Ok(true),
    }
}

/// The answer file of `stem`: `stem.out` or `stem.ans`; when both exist, they must
/// hold the same bytes.
fn answer_of(stem: &Path) -> Result<Option<PathBuf>, CollectError> {
    let mut found = Vec::new();
    for ext in ["out", "ans"] {
        let path = with_ext(stem, ext);
        if regular_file(&path)? {
            found.push(path);
        }
    }
    match found.as_slice() {
        [out, ans] => match same_bytes(out, ans) {
            Ok(true) => Ok(Some(out.clone())),
            Ok(false) => Err(CollectError::Ambiguous(stem.into())),
            Err((path, e)) => Err(CollectError::Read(path, e)),
        },
        _ => Ok(found.pop()),
    }
}

/// Whether the files `a` and `b` hold the same bytes, read a block at a time.
fn same_bytes(a: &Path, b: &Path) -> Result<bool, (PathBuf, io::Error)> {
    use std::io::Read;
    let open = |p: &Path| fs::File::open(p).map_err(|e| (p.to_path_buf(), e));
    let (mut x, mut y) = (open(a)?, open(b)?);
    let len = |f: &fs::File, p: &Path| f.metadata().map(|m| m.len()).map_err(|e| (p.into(), e));
    if len(&x, a)? != len(&y, b)? {
        return Ok(false);
    }
    let (mut bx, mut by) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let n = x.read(&mut bx).map_err(|e| (a.to_path_buf(), e))?;
        if n == 0 {
            // Equal lengths: the other ends too, unless it grew meanwhile.
            let m = y.read(&mut by[..1]).map_err(|e| (b.to_path_buf(), e))?;
            return Ok(m == 0);
        }
        if y.read_exact(&mut by[..n]).is_err() || bx[..n] != by[..n] {
            return Ok(false);
        }
    }
}

/// The runs of `name`: each stretch of digits or of other characters, with whether it
/// is digits and its value as a number (saturated; 0 for other characters).
fn runs(name: &str) -> impl Iterator<Item = (u8, u128, &str)> {
    let mut rest = name;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let digits = first.is_ascii_digit();
        let end = rest
            .find(|c: char| c.is_ascii_digit() != digits)
            .unwrap_or(rest.len());
        let (run, after) = rest.split_at(end);
        rest = after;
        let number = if digits {
            run.parse::<u128>().unwrap_or(u128::MAX)
        } else {
            0
        };
        Some((u8::from(digits), number, run))
    })
}

/// Orders names so that `2` comes before `10`: runs of digits compare as numbers (then
/// as text: `01` before `1`), other runs as text, and runs of digits after the others.
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    runs(a).cmp(runs(b))
}

/// What a case is compared with, in a byte: its answer file's extension, or the
/// built-in judge.
const BUILTIN: u8 = 0;
/// The answer files' extensions, by their byte (`1 + index`).
const ANSWERS: [&str; 2] = ["out", "ans"];

/// The byte of an answer file's path (see [`BUILTIN`]).
fn answer_byte(path: &Path) -> u8 {
    let ext = path.extension();
    ANSWERS
        .iter()
        .position(|a| ext.is_some_and(|e| e == *a))
        .map_or(BUILTIN, |i| i as u8 + 1)
}

/// One case as a [`CaseList`] keeps it, in some dozens of bytes.
struct Entry {
    /// The folder it was found in (an index of [`CaseList::dirs`]), or [`NO_DIR`] for
    /// a file named on the command line, whose stem is its whole path.
    dir: u32,
    /// The input's name without `.in` (with `dir`), or its whole path without it.
    stem: Box<OsStr>,
    /// Its answer (see [`BUILTIN`]).
    answer: u8,
}

/// [`Entry::dir`] of a file named on the command line.
const NO_DIR: u32 = u32::MAX;

/// A test set's cases, in order, kept in a few dozen bytes each (each folder's path
/// once, each case's name in it): a folder of tens of thousands of cases costs a few
/// megabytes. [`CaseList::get`] makes a [`Case`] when it is wanted.
pub struct CaseList {
    dirs: Vec<PathBuf>,
    entries: Vec<Entry>,
}

impl CaseList {
    /// How many cases there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The stem of `entry`: its input's path without `.in`.
    fn stem(&self, entry: &Entry) -> PathBuf {
        match self.dirs.get(entry.dir as usize) {
            Some(dir) => dir.join(&*entry.stem),
            None => PathBuf::from(&*entry.stem),
        }
    }

    /// Case `i`.
    pub fn get(&self, i: usize) -> Case {
        let entry = &self.entries[i];
        let stem = self.stem(entry);
        let answer = match ANSWERS.get(usize::from(entry.answer).wrapping_sub(1)) {
            Some(ext) => Reference::File(with_ext(&stem, ext)),
            None => Reference::Builtin,
        };
        Case {
            name: stem.to_string_lossy().into_owned(),
            input: Feed::File(with_ext(&stem, "in")),
            answer,
            beyond_format: false,
        }
    }

    /// The cases, in order.
    pub fn iter(&self) -> impl Iterator<Item = Case> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// Collects the cases under `paths` in the order given, each directory's cases in
/// natural order, each case once. Notes (an input without an answer in a directory) go
/// to `notes`.
pub fn collect(paths: &[String], notes: &mut Vec<String>) -> Result<Vec<Case>, CollectError> {
    let mut skipped = Vec::new();
    let collected = collect_skipping(paths, &mut skipped);
    notes.extend(skipped.iter().map(|stem| {
        format!(
            "skipping {}.in: no {0}.out or {0}.ans (name the file alone to \
             compare with the built-in judge)",
            stem.display()
        )
    }));
    collected.map(|list| list.iter().collect())
}

/// [`collect`] as a [`CaseList`], with the stems of the inputs skipped for want of an
/// answer (in a directory) pushed to `skipped`.
pub fn collect_skipping(
    paths: &[String],
    skipped: &mut Vec<PathBuf>,
) -> Result<CaseList, CollectError> {
    let mut list = CaseList {
        dirs: Vec::new(),
        entries: Vec::new(),
    };
    // The names taken, where several paths could name a case twice: each case once, in
    // time linear in the cases (a folder may hold tens of thousands).
    let mut names = (paths.len() > 1).then(std::collections::HashSet::new);
    let mut add = |entry: Entry, list: &mut CaseList| {
        let new = match names.as_mut() {
            Some(names) => names.insert(list.stem(&entry).to_string_lossy().into_owned()),
            None => true,
        };
        if new {
            list.entries.push(entry);
        }
    };
    for path in paths {
        let path = Path::new(path);
        let meta = metadata_of(path)?;
        if meta.is_dir() {
            let entries = fs::read_dir(path).map_err(|e| CollectError::Read(path.into(), e))?;
            let mut stems: Vec<Box<OsStr>> = Vec::new();
            for entry in entries {
                let entry = entry.map_err(|e| CollectError::Read(path.into(), e))?;
                let file = entry.path();
                if let Some((stem, "in")) = split_case_name(&file) {
                    if regular_file(&file)? {
                        if let Some(name) = stem.file_name() {
                            stems.push(name.into());
                        }
                    }
                }
            }
            // Compared by their whole paths, as shown, with two buffers reused: no
            // key is kept for each name.
            let (mut a, mut b) = (path.to_path_buf(), path.to_path_buf());
            stems.sort_by(|x, y| {
                a.push(&**x);
                b.push(&**y);
                let order = natural_order(&a.to_string_lossy(), &b.to_string_lossy());
                a.pop();
                b.pop();
                order
            });
            let dir = list.dirs.len() as u32;
            list.dirs.push(path.to_path_buf());
            for name in stems {
                let stem = path.join(&*name);
                match answer_of(&stem)? {
                    Some(answer) => add(
                        Entry {
                            dir,
                            stem: name,
                            answer: answer_byte(&answer),
                        },
                        &mut list,
                    ),
                    None => skipped.push(stem),
                }
            }
            continue;
        }
        if let Some(what) = not_a_file(&meta) {
            return Err(CollectError::NotAFile(path.into(), what));
        }
        let (stem, ext) =
            split_case_name(path).ok_or_else(|| CollectError::NotACaseFile(path.into()))?;
        let input = with_ext(&stem, "in");
        let answer = if ext == "in" {
            answer_of(&stem)?.map_or(BUILTIN, |a| answer_byte(&a))
        } else {
            if !input.is_file() {
                return Err(CollectError::Unpaired(
                    path.into(),
                    format!("{}", input.display()),
                ));
            }
            answer_byte(path)
        };
        add(
            Entry {
                dir: NO_DIR,
                stem: stem.into_os_string().into_boxed_os_str(),
                answer,
            },
            &mut list,
        );
    }
    if list.is_empty() {
        return Err(CollectError::NoCases);
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_outputs_mirror_the_case_names_inside_the_folder() {
        let case = |name: &str| Case {
            name: name.to_string(),
            input: Feed::Bytes(std::sync::Arc::from(&b""[..])),
            answer: Reference::Builtin,
            beyond_format: false,
        };
        let dir = Path::new("got");
        for (name, kept) in [
            ("samples/statement", "got/samples/statement.out"),
            ("built-in/lenient/tabs", "got/built-in/lenient/tabs.out"),
            ("/tmp/x/1", "got/tmp/x/1"),
            ("../cases/2.5", "got/cases/2.5.out"),
            ("./3", "got/3.out"),
        ] {
            let kept = if kept.ends_with(".out") {
                PathBuf::from(kept)
            } else {
                PathBuf::from(format!("{kept}.out"))
            };
            assert_eq!(kept_path(dir, &case(name)), kept, "{name}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn links_that_lead_nowhere_are_named_so() {
        let dir =
            std::env::temp_dir().join(format!("duckchess-cases-links-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink("nowhere.in", dir.join("a.in")).unwrap();
        std::os::unix::fs::symlink("b.in", dir.join("b.in")).unwrap();
        let say = |name: &str| {
            let path = dir.join(name).to_string_lossy().into_owned();
            collect(std::slice::from_ref(&path), &mut Vec::new())
                .expect_err("refused")
                .to_string()
                .replace(&path, name)
        };
        assert_eq!(
            say("a.in"),
            "a.in is a dangling link, not a file of the test set"
        );
        assert_eq!(
            say("b.in"),
            "b.in is a link that cannot be followed, not a file of the test set"
        );
        // In a folder, the same.
        let inner = dir.join("set");
        fs::create_dir_all(&inner).unwrap();
        std::os::unix::fs::symlink("nowhere.in", inner.join("a.in")).unwrap();
        let folder = inner.to_string_lossy().into_owned();
        let e = collect(&[folder], &mut Vec::new())
            .expect_err("refused")
            .to_string();
        assert!(
            e.ends_with("a.in is a dangling link, not a file of the test set"),
            "{e}"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_official_folder_says_where_the_cases_are() {
        let e = collect(&["no-such-place/official".to_string()], &mut Vec::new())
            .expect_err("refused")
            .to_string();
        assert!(e.starts_with("cannot read no-such-place/official: "), "{e}");
        assert!(e.ends_with("(the contest's official cases: scripts/fetch-official.sh puts them in ../shared/official/duckchess; link or copy that folder here)"), "{e}");
        let e = collect(&["no-such-place/other".to_string()], &mut Vec::new())
            .expect_err("refused")
            .to_string();
        assert!(!e.contains("official"), "{e}");
    }

    #[test]
    fn natural_order_puts_numbers_in_order() {
        let mut names = vec![
            "s10",
            "s2",
            "a",
            "s1",
            "d/1",
            "d/a",
            "01",
            "1",
            "x99999999999999999999999999999999999999999",
        ];
        names.sort_by(|a, b| natural_order(a, b));
        assert_eq!(
            names,
            [
                "a",
                "d/1",
                "d/a",
                "s1",
                "s2",
                "s10",
                "x99999999999999999999999999999999999999999",
                "01",
                "1"
            ]
        );
    }
}
