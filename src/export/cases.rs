//! The test set an export packages: every `X.in` with its `X.out` or `X.ans`, paired and
//! ordered as `test` and `audit` pair them (an input named alone takes the judge's
//! answer), each input valid under the strict format and each answer the judge's (up to
//! the whitespace that online judges ignore), so that no judge is handed data it
//! would refuse or a wrong answer. The bytes are kept as they are.

use crate::cli;
use crate::harness::cases::{collect_skipping, CollectError, Reference};
use crate::harness::process::Feed;
use crate::judge::run::run;
use crate::show::compare::compare;
use crate::show::format::{validate, FormatError, ValidateError, DEFAULT_MAX_Q};
use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The most cases a package holds: each is worth a whole point of 100 where a judge
/// scores them ([`super::layout`]).
pub const MAX_CASES: usize = 100;
/// The largest input read: a valid one is at most `1000\n` and 1000 lines of 8 bytes.
const INPUT_LIMIT: u64 = 1 << 16;
/// How much longer than the judge's answer an answer file may be (whitespace that the
/// comparison does not count).
const ANSWER_SLACK: u64 = 1 << 20;

/// One case as packaged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// Where it comes from: its input's path without `.in`.
    pub name: String,
    /// The input's bytes.
    pub input: Vec<u8>,
    /// The answer's bytes: the answer file's, or the judge's.
    pub answer: Vec<u8>,
}

/// Why the test set cannot be exported.
#[derive(Debug)]
pub enum CasesError {
    /// The cases could not be collected (see [`CollectError`]).
    Collect(CollectError),
    /// An input in a folder without an answer beside it.
    Unanswered(PathBuf),
    /// More cases than [`MAX_CASES`].
    TooMany(usize),
    /// A file could not be read: its path and why.
    Read(PathBuf, String),
    /// An input breaks the strict format.
    Invalid(PathBuf, FormatError),
    /// An answer file says something else than the judge.
    WrongAnswer {
        /// The answer file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// The judge's line (empty when the judge has none).
        judge: String,
        /// The file's line (empty when the file has none).
        file: String,
    },
}

impl CasesError {
    /// Whether the test set itself is wrong (an invalid input or a wrong answer), as
    /// `validate` and `audit` report with exit status 3.
    pub fn is_invalid(&self) -> bool {
        matches!(
            self,
            CasesError::Invalid(..) | CasesError::WrongAnswer { .. }
        )
    }
}

impl fmt::Display for CasesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CasesError::Collect(e) => write!(f, "{e}"),
            CasesError::Unanswered(stem) => write!(
                f,
                "{0}.in has no {0}.out or {0}.ans beside it (name the file alone to take the \
                 judge's answer)",
                stem.display()
            ),
            CasesError::TooMany(n) => {
                write!(f, "{n} cases: a package holds at most {MAX_CASES}")
            }
            CasesError::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            CasesError::Invalid(p, e) => write!(f, "{}: {e}", p.display()),
            CasesError::WrongAnswer {
                path,
                line,
                judge,
                file,
            } => {
                let shown = |s: &str| {
                    if s.is_empty() {
                        "nothing".to_string()
                    } else {
                        format!("\"{s}\"")
                    }
                };
                write!(
                    f,
                    "{}: line {line}: the judge answers {}, the file has {}",
                    path.display(),
                    shown(judge),
                    shown(file)
                )
            }
        }
    }
}

impl std::error::Error for CasesError {}

/// Reads the cases under `paths` (folders and files, as `test` takes them), in order,
/// and checks each.
pub fn read(paths: &[String]) -> Result<Vec<Case>, CasesError> {
    let mut skipped = Vec::new();
    let list = collect_skipping(paths, &mut skipped).map_err(CasesError::Collect)?;
    if let Some(stem) = skipped.into_iter().next() {
        return Err(CasesError::Unanswered(stem));
    }
    if list.len() > MAX_CASES {
        return Err(CasesError::TooMany(list.len()));
    }
    list.iter()
        .map(|case| {
            let input = match &case.input {
                Feed::File(path) => path,
                Feed::Bytes(_) => {
                    let e = "not a file of the test set".to_string();
                    return Err(CasesError::Read(PathBuf::from(&case.name), e));
                }
            };
            let answer = match &case.answer {
                Reference::File(path) => Some(path.as_path()),
                _ => None,
            };
            checked(case.name.clone(), input, answer)
        })
        .collect()
}

/// The case of `input` and `answer` (`None`: the judge's), checked.
fn checked(name: String, input: &Path, answer: Option<&Path>) -> Result<Case, CasesError> {
    let unreadable = |p: &Path, e: String| CasesError::Read(p.to_path_buf(), e);
    let file = File::open(input).map_err(|e| unreadable(input, e.to_string()))?;
    match validate(file, DEFAULT_MAX_Q) {
        Ok(_) => {}
        Err(ValidateError::Format(e)) => return Err(CasesError::Invalid(input.into(), e)),
        Err(ValidateError::Read(e)) => return Err(unreadable(input, e.to_string())),
    }
    let bytes = cli::read_small_file(input, INPUT_LIMIT).map_err(|e| unreadable(input, e))?;
    let mut judged = Vec::new();
    run(&bytes[..], &mut judged).map_err(|e| unreadable(input, e.to_string()))?;
    let Some(path) = answer else {
        return Ok(Case {
            name,
            input: bytes,
            answer: judged,
        });
    };
    let limit = judged.len() as u64 + ANSWER_SLACK;
    let written = cli::read_small_file(path, limit).map_err(|e| unreadable(path, e))?;
    if let Some(d) = compare(&judged, &written).difference {
        let first = |lines: &[crate::show::compare::Line]| {
            lines.first().map(|l| l.shown()).unwrap_or_default()
        };
        return Err(CasesError::WrongAnswer {
            path: path.to_path_buf(),
            line: d.line + 1,
            judge: first(&d.expected),
            file: first(&d.actual),
        });
    }
    Ok(Case {
        name,
        input: bytes,
        answer: written,
    })
}
