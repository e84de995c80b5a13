//! Finding a test set's files: every `X.in` paired with its answer `X.out` or `X.ans`, or
//! judged against the built-in judge when named alone; folders read in natural order.
//! `test` and `audit` read test sets through here.
//!
//! A test set is read as its setter means it, or refused with the reason: when both
//! `X.out` and `X.ans` exist they must hold the same bytes (else which one is the
//! answer?), and an input or answer that is not a regular file (a directory, a device,
//! a pipe) or cannot be reached (a looping or dangling link) is named as such.

use crate::harness::process::Feed;
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
            CollectError::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
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

/// Whether `path` is there at all (a link counts, even a broken one); an error for a
/// path that exists but leads to no regular file (a directory, a device, a looping or
/// dangling link).
fn regular_file(path: &Path) -> Result<bool, CollectError> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(CollectError::Read(path.into(), e)),
        Ok(_) => {}
    }
    let meta = fs::metadata(path).map_err(|e| CollectError::Read(path.into(), e))?;
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

/// Orders names so that `2` comes before `10`: runs of digits compare as numbers.
fn natural_key(name: &str) -> Vec<(u8, u128, String)> {
    let mut key = Vec::new();
    let mut chars = name.chars().peekable();
    while let Some(&c) = chars.peek() {
        let digits = c.is_ascii_digit();
        let mut run = String::new();
        while let Some(&d) = chars.peek() {
            if d.is_ascii_digit() != digits {
                break;
            }
            run.push(d);
            chars.next();
        }
        let number = if digits {
            run.parse::<u128>().unwrap_or(u128::MAX)
        } else {
            0
        };
        key.push((u8::from(digits), number, run));
    }
    key
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
    collected
}

/// [`collect`], with the stems of the inputs skipped for want of an answer (in a
/// directory) pushed to `skipped`.
pub fn collect_skipping(
    paths: &[String],
    skipped: &mut Vec<PathBuf>,
) -> Result<Vec<Case>, CollectError> {
    let mut cases: Vec<Case> = Vec::new();
    // The names taken: each case once, in time linear in the cases (a folder may hold
    // tens of thousands).
    let mut names = std::collections::HashSet::new();
    let mut add = |case: Case, cases: &mut Vec<Case>| {
        if names.insert(case.name.clone()) {
            cases.push(case);
        }
    };
    for path in paths {
        let path = Path::new(path);
        let meta = fs::metadata(path).map_err(|e| CollectError::Read(path.into(), e))?;
        if meta.is_dir() {
            let entries = fs::read_dir(path).map_err(|e| CollectError::Read(path.into(), e))?;
            let mut stems = Vec::new();
            for entry in entries {
                let entry = entry.map_err(|e| CollectError::Read(path.into(), e))?;
                let file = entry.path();
                if let Some((stem, "in")) = split_case_name(&file) {
                    if regular_file(&file)? {
                        stems.push(stem);
                    }
                }
            }
            stems.sort_by_cached_key(|s| natural_key(&s.to_string_lossy()));
            for stem in stems {
                match answer_of(&stem)? {
                    Some(answer) => add(
                        Case {
                            name: stem.to_string_lossy().into_owned(),
                            input: Feed::File(with_ext(&stem, "in")),
                            answer: Reference::File(answer),
                            beyond_format: false,
                        },
                        &mut cases,
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
            answer_of(&stem)?.map_or(Reference::Builtin, Reference::File)
        } else {
            if !input.is_file() {
                return Err(CollectError::Unpaired(
                    path.into(),
                    format!("{}", input.display()),
                ));
            }
            Reference::File(path.to_path_buf())
        };
        add(
            Case {
                name: stem.to_string_lossy().into_owned(),
                input: Feed::File(input),
                answer,
                beyond_format: false,
            },
            &mut cases,
        );
    }
    if cases.is_empty() {
        return Err(CollectError::NoCases);
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order() {
        let mut names = vec!["s10", "s2", "a", "s1"];
        names.sort_by_cached_key(|n| natural_key(n));
        assert_eq!(names, ["a", "s1", "s2", "s10"]);
    }
}
