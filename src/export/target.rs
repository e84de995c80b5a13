//! The archive on disk. It is written aside and renamed into place ([`file::write_whole`]),
//! so the file is whole or absent, and it takes the place only of nothing, an empty
//! file, or an archive an export wrote (its comment starts with [`MARK`]): any other file
//! is the user's, and the export refuses, touching nothing.

use super::cases::{self, Case, CasesError};
use super::layout;
use super::package::Package;
use super::solutions::{with_reference, Solution, SolutionError};
use super::trial::{try_all, Trial, TrialError};
use super::zip::{comment_of, Zip, ZipError, TAIL};
use super::{Judge, Limits};
use crate::sys::file;
use std::fmt;
use std::fs;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// How the comment of an archive an export wrote starts.
pub const MARK: &str = "duckchess export";

/// Why a package could not be written.
#[derive(Debug)]
pub enum ExportError {
    /// The test set cannot be packaged.
    Cases(CasesError),
    /// A named solution cannot be packaged.
    Solution(SolutionError),
    /// The named solutions could not be tried.
    Trial(TrialError),
    /// A named solution did not get what it should: every trial, for the table.
    Verdicts(Vec<Trial>),
    /// The archive would go past what the zip format holds.
    Zip(ZipError),
    /// The target is a file that no export wrote.
    Foreign(PathBuf),
    /// The target is not a regular file: what it is.
    NotAFile(PathBuf, &'static str),
    /// Reading or writing the target failed.
    Io(PathBuf, io::Error),
}

impl ExportError {
    /// Whether the test set itself is wrong (see [`CasesError::is_invalid`]).
    pub fn is_invalid(&self) -> bool {
        matches!(self, ExportError::Cases(e) if e.is_invalid())
    }
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Cases(e) => write!(f, "{e}"),
            ExportError::Solution(e) => write!(f, "{e}"),
            ExportError::Trial(e) => write!(f, "{e}"),
            ExportError::Verdicts(trials) => {
                let wrong: Vec<&str> = trials
                    .iter()
                    .filter(|t| !t.as_expected())
                    .map(|t| t.name.as_str())
                    .collect();
                write!(
                    f,
                    "{} did not get the verdict expected (see the table): nothing written",
                    wrong.join(", ")
                )
            }
            ExportError::Zip(e) => write!(f, "{e}"),
            ExportError::Foreign(p) => write!(
                f,
                "{} exists and is not a package export wrote: refusing to replace it; give \
                 a new name",
                p.display()
            ),
            ExportError::NotAFile(p, what) => write!(f, "{} is {what}", p.display()),
            ExportError::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for ExportError {}

/// What was written.
#[derive(Debug)]
pub struct Exported {
    /// The cases, in the package's order.
    pub cases: Vec<Case>,
    /// The files of the archive, in order: names and sizes.
    pub files: Vec<(String, usize)>,
    /// What each named solution did.
    pub trials: Vec<Trial>,
    /// The archive's size in bytes.
    pub bytes: usize,
}

/// What a package holds besides its cases.
#[derive(Debug, Default)]
pub struct Contents {
    /// The limits of each case.
    pub limits: Limits,
    /// The solutions the user named (tried on every case before anything is written).
    pub named: Vec<Solution>,
    /// testlib.h, for Polygon's `files/`.
    pub testlib: Option<Vec<u8>>,
}

/// Packages the cases under `paths` for `judge` as the zip archive `out`.
pub fn write(
    paths: &[String],
    judge: Judge,
    contents: Contents,
    out: &Path,
) -> Result<Exported, ExportError> {
    check(out)?;
    let cases = cases::read(paths).map_err(ExportError::Cases)?;
    let trials = try_all(&contents.named, &cases, contents.limits).map_err(ExportError::Trial)?;
    if trials.iter().any(|t| !t.as_expected()) {
        return Err(ExportError::Verdicts(trials));
    }
    let solutions = solutions(contents.named)?;
    let package = Package {
        cases: &cases,
        limits: contents.limits,
        solutions: &solutions,
        testlib: contents.testlib.as_deref(),
    };
    let bytes = archive(judge, &package)?;
    file::remove_leftovers(out);
    file::write_whole(out, &bytes).map_err(|e| ExportError::Io(out.to_path_buf(), e))?;
    let files = layout::files(judge, &package)
        .into_iter()
        .map(|(name, data)| (name, data.len()))
        .collect();
    Ok(Exported {
        cases,
        files,
        trials,
        bytes: bytes.len(),
    })
}

/// Every solution a package carries: the reference, the judge as one Rust file, and
/// those named.
pub fn solutions(named: Vec<Solution>) -> Result<Vec<Solution>, ExportError> {
    let mut all = with_reference(named).map_err(ExportError::Solution)?;
    let judge = Solution::rust_judge().map_err(ExportError::Solution)?;
    all.insert(1, judge);
    Ok(all)
}

/// The archive of `package` for `judge`, with its comment.
pub fn archive(judge: Judge, package: &Package) -> Result<Vec<u8>, ExportError> {
    let mut zip = Zip::new();
    for (name, data) in layout::files(judge, package) {
        zip.add(&name, &data).map_err(ExportError::Zip)?;
    }
    let comment = format!("{MARK} --for {judge}: {} cases", package.cases.len());
    zip.finish(&comment).map_err(ExportError::Zip)
}

/// Checks that `out` may take the archive: it is missing, an empty file, or an archive
/// an export wrote.
fn check(out: &Path) -> Result<(), ExportError> {
    let io = |e: io::Error| ExportError::Io(out.to_path_buf(), e);
    if out.as_os_str().is_empty() {
        return Err(io(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the file name is empty",
        )));
    }
    let meta = match fs::metadata(out) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io(e)),
        Ok(meta) => meta,
    };
    if meta.is_dir() {
        return Err(ExportError::NotAFile(out.to_path_buf(), "a directory"));
    }
    if !meta.is_file() {
        return Err(ExportError::NotAFile(
            out.to_path_buf(),
            "not a regular file",
        ));
    }
    if meta.len() == 0 {
        return Ok(());
    }
    let mut f = fs::File::open(out).map_err(io)?;
    let from = meta.len().saturating_sub(TAIL as u64);
    f.seek(SeekFrom::Start(from)).map_err(io)?;
    let mut tail = Vec::with_capacity(TAIL);
    f.take(TAIL as u64).read_to_end(&mut tail).map_err(io)?;
    match comment_of(&tail) {
        Some(comment) if comment.starts_with(MARK.as_bytes()) => Ok(()),
        _ => Err(ExportError::Foreign(out.to_path_buf())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "duckchess-export-target-{name}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn only_nothing_an_empty_file_or_our_archive_is_replaced() {
        let dir = scratch("check");
        let path = dir.join("p.zip");
        assert!(check(&path).is_ok(), "missing");
        fs::write(&path, b"").unwrap();
        assert!(check(&path).is_ok(), "empty");
        let package = Package {
            cases: &[],
            limits: Limits::STATEMENT,
            solutions: &[],
            testlib: None,
        };
        fs::write(&path, archive(Judge::Luogu, &package).unwrap()).unwrap();
        assert!(check(&path).is_ok(), "ours");
        // Another archive, and a file that merely ends like one of ours.
        fs::write(&path, Zip::new().finish("someone else's").unwrap()).unwrap();
        assert!(matches!(check(&path), Err(ExportError::Foreign(_))));
        fs::write(&path, b"notes").unwrap();
        assert!(matches!(check(&path), Err(ExportError::Foreign(_))));
        assert!(matches!(
            check(&dir),
            Err(ExportError::NotAFile(_, "a directory"))
        ));
        let _ = fs::remove_dir_all(&dir);
    }
}
