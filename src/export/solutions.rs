//! The programs a package carries, as source: the reference solution in C++ (written
//! here, apart from the Rust judge, as a contestant would submit it; the `std` of UOJ,
//! the main solution of Polygon), the judge as one Rust file ([`super::bundle`]), and
//! the solutions the user names, each with its language and the verdict it should get.

use super::bundle::{bundle, BundleError};
use std::fmt;
use std::path::Path;

/// The reference solution: plain C++17, standard library only, one file.
pub const REFERENCE: &str = include_str!("reference.cpp");
/// Its file name in a package.
pub const REFERENCE_NAME: &str = "reference.cpp";
/// The file name of the Rust judge in a package.
pub const RUST_JUDGE_NAME: &str = "duckchess.rs";
/// The largest source file read: judges cap sources near 64 KiB.
pub const SOURCE_LIMIT: u64 = 1 << 20;

/// What a solution should get on the test set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The main correct solution (Polygon's `main`, UOJ's `std`).
    Main,
    /// Another correct solution: accepted on every case.
    Accepted,
    /// A wrong solution: a wrong answer on some case.
    Wrong,
}

impl Role {
    /// Polygon's tag for it.
    pub fn polygon_tag(self) -> &'static str {
        match self {
            Role::Main => "main",
            Role::Accepted => "accepted",
            Role::Wrong => "wrong-answer",
        }
    }

    /// The folder of the ICPC package's `submissions/` it goes in.
    pub fn icpc_folder(self) -> &'static str {
        match self {
            Role::Main | Role::Accepted => "accepted",
            Role::Wrong => "wrong_answer",
        }
    }
}

/// A language a solution may be written in: those every judge here builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// C++17, built with `g++ -O2 -std=c++17`.
    Cpp,
    /// C, built with `gcc -O2`.
    C,
    /// Rust, built with `rustc -O --edition 2021`.
    Rust,
    /// Python 3, run with `python3`.
    Python,
}

impl Language {
    /// The language of a file named `name`, by its extension.
    pub fn of(name: &str) -> Option<Language> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "cpp" | "cc" | "cxx" => Some(Language::Cpp),
            "c" => Some(Language::C),
            "rs" => Some(Language::Rust),
            "py" => Some(Language::Python),
            _ => None,
        }
    }

    /// Polygon's name of the language, as `problem.xml` gives it.
    pub fn polygon_type(self) -> &'static str {
        match self {
            Language::Cpp => "cpp.g++17",
            Language::C => "c.gcc",
            Language::Rust => "rust.2021",
            Language::Python => "python.3",
        }
    }

    /// The words that build `source` into `binary`, or `None` when it runs as it is.
    pub fn build(self, source: &str, binary: &str) -> Option<Vec<String>> {
        let words: &[&str] = match self {
            Language::Cpp => &["g++", "-O2", "-std=c++17", "-o", binary, source],
            Language::C => &["gcc", "-O2", "-o", binary, source, "-lm"],
            Language::Rust => &["rustc", "-O", "--edition", "2021", "-o", binary, source],
            Language::Python => return None,
        };
        Some(words.iter().map(|w| w.to_string()).collect())
    }

    /// The words that run the built program (`binary`) or the source itself.
    pub fn run(self, source: &str, binary: &str) -> Vec<String> {
        match self {
            Language::Python => vec!["python3".to_string(), source.to_string()],
            _ => vec![binary.to_string()],
        }
    }
}

/// One solution a package carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Its file name in the package.
    pub name: String,
    /// Its source.
    pub source: Vec<u8>,
    /// Its language.
    pub language: Language,
    /// The verdict it should get.
    pub role: Role,
}

/// Why a named solution cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolutionError {
    /// The file could not be read: its path and why.
    Read(String, String),
    /// Its extension names no language a judge here builds.
    Language(String),
    /// Its file name is not one a package may hold.
    Name(String),
    /// Two solutions would have the same name in the package.
    Twice(String),
    /// The judge could not be bundled.
    Bundle(BundleError),
}

impl fmt::Display for SolutionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolutionError::Read(path, why) => write!(f, "cannot read {path}: {why}"),
            SolutionError::Language(path) => write!(
                f,
                "{path}: not a source file of a language the judges build here \
                 (.cpp, .cc, .cxx, .c, .rs or .py)"
            ),
            SolutionError::Name(path) => write!(
                f,
                "{path}: a package names a file with letters, digits, '.', '_' and '-' \
                 only, beginning and ending with a letter or digit"
            ),
            SolutionError::Twice(name) => {
                write!(f, "two solutions are named {name}: rename one")
            }
            SolutionError::Bundle(e) => write!(f, "cannot bundle the judge: {e}"),
        }
    }
}

impl std::error::Error for SolutionError {}

/// Whether `name` is a file name the ICPC package format allows (and so every judge
/// here): `[a-zA-Z0-9][a-zA-Z0-9_.-]*[a-zA-Z0-9]`.
pub fn is_package_name(name: &str) -> bool {
    let b = name.as_bytes();
    let inner = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-');
    b.len() >= 2
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(inner)
}

impl Solution {
    /// The reference solution, as the main one.
    pub fn reference() -> Solution {
        Solution {
            name: REFERENCE_NAME.to_string(),
            source: REFERENCE.as_bytes().to_vec(),
            language: Language::Cpp,
            role: Role::Main,
        }
    }

    /// The judge as one Rust file, as an accepted solution.
    pub fn rust_judge() -> Result<Solution, SolutionError> {
        let text = bundle(Some(RUST_JUDGE_NAME)).map_err(SolutionError::Bundle)?;
        Ok(Solution {
            name: RUST_JUDGE_NAME.to_string(),
            source: text.into_bytes(),
            language: Language::Rust,
            role: Role::Accepted,
        })
    }

    /// The solution in the file at `path`, to get `role`.
    pub fn read(path: &str, role: Role) -> Result<Solution, SolutionError> {
        let name = Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let language = Language::of(&name).ok_or_else(|| SolutionError::Language(path.into()))?;
        if !is_package_name(&name) {
            return Err(SolutionError::Name(path.into()));
        }
        let source = crate::cli::read_small_file(path, SOURCE_LIMIT)
            .map_err(|e| SolutionError::Read(path.into(), e))?;
        Ok(Solution {
            name,
            source,
            language,
            role,
        })
    }
}

/// The solutions of a package: the reference first, then those named, refusing two of
/// one name.
pub fn with_reference(named: Vec<Solution>) -> Result<Vec<Solution>, SolutionError> {
    let mut all = vec![Solution::reference()];
    for solution in named {
        if all.iter().any(|s| s.name == solution.name) || solution.name == RUST_JUDGE_NAME {
            return Err(SolutionError::Twice(solution.name));
        }
        all.push(solution);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_known_by_extension() {
        let table = [
            ("a.cpp", Some(Language::Cpp)),
            ("a.CC", Some(Language::Cpp)),
            ("a.cxx", Some(Language::Cpp)),
            ("a.c", Some(Language::C)),
            ("a.rs", Some(Language::Rust)),
            ("a.py", Some(Language::Python)),
            ("a.java", None),
            ("cpp", None),
            ("a.", None),
        ];
        for (name, language) in table {
            assert_eq!(Language::of(name), language, "{name}");
        }
    }

    #[test]
    fn package_names_follow_the_icpc_rule() {
        for good in ["ab", "a.cpp", "wrong_1.cpp", "x-y.c", "A9"] {
            assert!(is_package_name(good), "{good}");
        }
        for bad in [
            "a", "_a.cpp", "a.cpp_", ".ab", "a b.cpp", "a/b.c", "é.cpp", "",
        ] {
            assert!(!is_package_name(bad), "{bad}");
        }
    }

    #[test]
    fn the_reference_is_one_name_only() {
        let wrong = |name: &str| Solution {
            name: name.to_string(),
            source: vec![],
            language: Language::Cpp,
            role: Role::Wrong,
        };
        let all = with_reference(vec![wrong("w.cpp")]).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].role, Role::Main);
        for name in [REFERENCE_NAME, RUST_JUDGE_NAME] {
            assert_eq!(
                with_reference(vec![wrong(name)]),
                Err(SolutionError::Twice(name.to_string()))
            );
        }
        assert!(with_reference(vec![wrong("a.cpp"), wrong("a.cpp")]).is_err());
    }

    #[test]
    fn every_role_has_its_place() {
        assert_eq!(Role::Main.polygon_tag(), "main");
        assert_eq!(Role::Wrong.polygon_tag(), "wrong-answer");
        assert_eq!(Role::Main.icpc_folder(), "accepted");
        assert_eq!(Role::Accepted.icpc_folder(), "accepted");
        assert_eq!(Role::Wrong.icpc_folder(), "wrong_answer");
    }
}
