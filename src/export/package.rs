//! What a package is made of, whatever the judge: the cases, the limits, the solutions
//! and testlib.h where the user gave it ([`Package`]), the C++ programs that judges
//! build (the validators and the checker), and the cases laid out under a judge's names
//! ([`numbered`]). [`super::layout`], [`super::polygon`] and [`super::icpc`] read it.

use super::cases::Case;
use super::solutions::{Role, Solution};
use super::Limits;

/// The testlib validator of UOJ and Polygon: it refuses exactly what `duckchess
/// validate` refuses.
pub const VALIDATOR: &str = include_str!("validator.cpp");
/// The testlib checker of UOJ and Polygon, `checker INPUT OUTPUT ANSWER`: it compares as
/// `duckchess test` does by default (whitespace at line ends and blank lines at the end
/// do not count).
pub const CHECKER: &str = include_str!("checker.cpp");
/// The input validator of the ICPC package: plain C++, exit status 42 or 43.
pub const INPUT_VALIDATOR: &str = include_str!("input_validator.cpp");

/// Everything a package is made of.
#[derive(Clone, Copy, Debug)]
pub struct Package<'a> {
    /// The cases, in order.
    pub cases: &'a [Case],
    /// The limits of each case.
    pub limits: Limits,
    /// The solutions: the main one first ([`super::solutions::with_reference`]).
    pub solutions: &'a [Solution],
    /// testlib.h, where the user gave it: Polygon's package lists it among its files.
    pub testlib: Option<&'a [u8]>,
}

impl Package<'_> {
    /// The main solution.
    pub fn main(&self) -> Option<&Solution> {
        self.solutions.iter().find(|s| s.role == Role::Main)
    }
}

/// Each case's input and answer under the names `names` gives case `i` (from 1).
pub fn numbered(
    cases: &[Case],
    names: impl Fn(usize) -> (String, String),
) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::with_capacity(2 * cases.len());
    for (i, case) in cases.iter().enumerate() {
        let (input, answer) = names(i + 1);
        files.push((input, case.input.clone()));
        files.push((answer, case.answer.clone()));
    }
    files
}
