//! `duckchess export`: a test set packaged the way an online judge takes it. The cases
//! are read as `test` and `audit` pair them, each input checked by the strict format and
//! each answer by the judge ([`cases`]); then laid out for the judge chosen ([`layout`]:
//! Luogu, HydroOJ, UOJ or Polygon, with their configuration files and, for UOJ and
//! Polygon, a testlib validator and checker in C++) and written as one zip archive
//! ([`zip`]), whole or not at all, never over a file that is not one of ours
//! ([`target`]).
//!
//! - [`zip`]: the zip format, written by hand: stored entries, their CRC-32, the
//!   central directory and the end record.
//! - [`cases`]: the test set read and checked.
//! - [`layout`]: what each judge takes: file names, configuration, the C++ programs.
//! - [`target`]: the archive written in place of nothing, an empty file, or an archive
//!   of ours.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`],
//! [`crate::harness`].

pub mod cases;
pub mod layout;
pub mod target;
pub mod zip;

use std::fmt;
use std::str::FromStr;

/// An online judge a test set is exported for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// Luogu: `N.in` and `N.out`, limits set on its page.
    Luogu,
    /// HydroOJ: `N.in`, `N.out` and `config.yaml`.
    Hydro,
    /// UOJ: `problem.conf`, the files it names, the checker and the validator.
    Uoj,
    /// Codeforces Polygon: `tests/NN` and `tests/NN.a`, the validator and the checker.
    Polygon,
}

impl Judge {
    /// Every judge, in the order the help lists them.
    pub const ALL: [Judge; 4] = [Judge::Luogu, Judge::Hydro, Judge::Uoj, Judge::Polygon];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Judge::Luogu => "luogu",
            Judge::Hydro => "hydro",
            Judge::Uoj => "uoj",
            Judge::Polygon => "polygon",
        }
    }

    /// Its name as people write it.
    pub fn title(self) -> &'static str {
        match self {
            Judge::Luogu => "Luogu",
            Judge::Hydro => "HydroOJ",
            Judge::Uoj => "UOJ",
            Judge::Polygon => "Polygon",
        }
    }
}

impl fmt::Display for Judge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no judge's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownJudge(pub String);

impl fmt::Display for UnknownJudge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Judge::ALL.iter().map(|j| j.name()).collect();
        write!(
            f,
            "unknown judge {:?} (one of {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownJudge {}

impl FromStr for Judge {
    type Err = UnknownJudge;

    fn from_str(s: &str) -> Result<Judge, UnknownJudge> {
        Judge::ALL
            .into_iter()
            .find(|j| j.name() == s)
            .ok_or_else(|| UnknownJudge(s.to_string()))
    }
}

/// The limits every package states: the statement's, 1 second and 128 MiB a case.
pub const TIME_SECONDS: u64 = 1;
/// The memory limit, in MiB.
pub const MEMORY_MB: u64 = 128;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judges_read_back_by_name() {
        for judge in Judge::ALL {
            assert_eq!(judge.name().parse(), Ok(judge));
            assert_eq!(judge.to_string(), judge.name());
        }
        let e = "codeforces".parse::<Judge>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown judge \"codeforces\" (one of luogu, hydro, uoj, polygon)"
        );
    }
}
