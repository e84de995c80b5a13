//! `duckchess export`: a test set packaged the way an online judge takes it. The cases
//! are read as `test` and `audit` pair them, each input checked by the strict format and
//! each answer by the judge ([`cases`]); the solutions the user names are tried on every
//! case ([`trial`]); then all is laid out for the judge chosen ([`layout`]: Luogu,
//! HydroOJ, UOJ, Polygon or the ICPC problem package, with their configuration files,
//! validators, checkers and solutions) and written as one zip archive ([`zip`]), whole
//! or not at all, never over a file that is not one of ours ([`target`]).
//!
//! - [`zip`]: the zip format, written by hand: stored entries, their CRC-32, the
//!   central directory and the end record.
//! - [`cases`]: the test set read and checked.
//! - [`solutions`]: the programs a package carries: the C++ reference solution, the
//!   judge as one Rust file ([`bundle`]), and the user's, each with its language and
//!   the verdict it should get.
//! - [`trial`]: each named solution built and run on every case, its verdicts in a
//!   table.
//! - [`package`]: what a package is made of, and the C++ validators and checker.
//! - [`layout`]: what each judge takes, file by file; [`polygon`] writes Polygon's
//!   package and [`icpc`] the ICPC problem package.
//! - [`target`]: the archive written in place of nothing, an empty file, or an archive
//!   of ours.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::sys`], [`crate::show`],
//! [`crate::harness`].

pub mod bundle;
pub mod cases;
pub mod icpc;
pub mod layout;
pub mod package;
pub mod polygon;
pub mod solutions;
pub mod target;
pub mod trial;
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
    /// Codeforces Polygon: a full package, `problem.xml` with the tests, the checker, the
    /// validator with its tests, and the solutions with their tags.
    Polygon,
    /// The ICPC problem package that DOMjudge and Kattis take: `problem.yaml`,
    /// `data/sample`, `data/secret`, the input validator and the submissions.
    Icpc,
}

impl Judge {
    /// Every judge, in the order the help lists them.
    pub const ALL: [Judge; 5] = [
        Judge::Luogu,
        Judge::Hydro,
        Judge::Uoj,
        Judge::Polygon,
        Judge::Icpc,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Judge::Luogu => "luogu",
            Judge::Hydro => "hydro",
            Judge::Uoj => "uoj",
            Judge::Polygon => "polygon",
            Judge::Icpc => "icpc",
        }
    }

    /// Its name as people write it.
    pub fn title(self) -> &'static str {
        match self {
            Judge::Luogu => "Luogu",
            Judge::Hydro => "HydroOJ",
            Judge::Uoj => "UOJ",
            Judge::Polygon => "Polygon",
            Judge::Icpc => "the ICPC problem package (DOMjudge, Kattis)",
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

/// The limits a package states for each case: by default the statement's, 1 second
/// and 128 MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The time limit, in whole seconds (UOJ and Kattis take no fraction).
    pub seconds: u64,
    /// The memory limit, in MiB.
    pub memory_mb: u64,
}

impl Limits {
    /// The statement's limits.
    pub const STATEMENT: Limits = Limits {
        seconds: 1,
        memory_mb: 128,
    };
    /// The most seconds `--time` takes.
    pub const MAX_SECONDS: u64 = 60;
    /// The least and the most MiB `--memory` takes.
    pub const MEMORY_RANGE: (u64, u64) = (16, 4096);
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::STATEMENT
    }
}

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
            "unknown judge \"codeforces\" (one of luogu, hydro, uoj, polygon, icpc)"
        );
    }
}
