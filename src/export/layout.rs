//! What each judge takes, file by file: the names its cases go by, its configuration
//! (the limits, and the 100 points shared out among the cases where it scores them),
//! the programs it builds (validators, checkers, solutions) and what they are for.
//!
//! - Luogu: `N.in` and `N.out` at the archive's root and `config.yml`: each case's time
//!   limit (ms), memory limit (KiB) and score.
//! - HydroOJ: `N.in`, `N.out` and `config.yaml`: the limits, its default comparison
//!   (which ignores whitespace at line ends and at the end), one subtask a case.
//! - UOJ: `problem.conf` (its built-in judger, the limits, the file names' parts, each
//!   case's `point_score`), `duckchessN.in` and `duckchessN.ans` as it names them,
//!   `chk.cpp` (the checker: no built-in checker of UOJ compares lines as this
//!   problem's judge does), `val.cpp` (the validator, for hacks) and `std.cpp` (the
//!   reference solution, which UOJ's data sync asks for before hacks may be allowed).
//! - Polygon: the package Polygon writes for download ([`super::polygon`]).
//! - ICPC: the problem package DOMjudge and Kattis read ([`super::icpc`]).
//!
//! The validators refuse exactly what `duckchess validate` refuses; the checkers compare
//! an output with its answer as `duckchess test` does by default (whitespace at line
//! ends and blank lines at the end do not count), and the ICPC package leaves that to
//! its default output validator, which compares tokens.

use super::package::{numbered, Package, CHECKER, VALIDATOR};
use super::{icpc, polygon, Judge, Limits};

/// UOJ's output limit, in MB: its usual one, far above an answer's 24 KB.
pub const UOJ_OUTPUT_MB: u64 = 64;
/// What UOJ's files are named after: `duckchess1.in`, `duckchess1.ans`.
pub const UOJ_PREFIX: &str = "duckchess";

/// The files of `package` for `judge`, in order: each name in the archive (with `/`
/// between folders) and its bytes.
pub fn files(judge: Judge, package: &Package) -> Vec<(String, Vec<u8>)> {
    let cases = package.cases;
    match judge {
        Judge::Luogu => {
            let mut files = numbered(cases, luogu_names);
            files.push((
                "config.yml".to_string(),
                luogu_config(cases.len(), package.limits),
            ));
            files
        }
        Judge::Hydro => {
            let mut files = vec![(
                "config.yaml".to_string(),
                hydro_config(cases.len(), package.limits),
            )];
            files.extend(numbered(cases, luogu_names));
            files
        }
        Judge::Uoj => {
            let mut files = vec![
                (
                    "problem.conf".to_string(),
                    uoj_config(cases.len(), package.limits),
                ),
                ("chk.cpp".to_string(), CHECKER.as_bytes().to_vec()),
                ("val.cpp".to_string(), VALIDATOR.as_bytes().to_vec()),
            ];
            if let Some(main) = package.main() {
                files.push(("std.cpp".to_string(), main.source.clone()));
            }
            files.extend(numbered(cases, |i| {
                (
                    format!("{UOJ_PREFIX}{i}.in"),
                    format!("{UOJ_PREFIX}{i}.ans"),
                )
            }));
            files
        }
        Judge::Polygon => polygon::files(package),
        Judge::Icpc => icpc::files(package),
    }
}

/// Luogu's and HydroOJ's names of case `i`.
fn luogu_names(i: usize) -> (String, String) {
    (format!("{i}.in"), format!("{i}.out"))
}

/// The points of `n` cases: 100 shared out, the first ones a point more where it does
/// not divide.
pub fn scores(n: usize) -> Vec<u64> {
    let n64 = n.max(1) as u64;
    (0..n as u64)
        .map(|i| 100 / n64 + u64::from(i < 100 % n64))
        .collect()
}

/// Luogu's `config.yml` for `n` cases: each input's limits (ms, KiB) and score, all in
/// subtask 0.
fn luogu_config(n: usize, limits: Limits) -> Vec<u8> {
    let mut text = String::from(
        "# THUPC 2019 \"Duck Chess\" (Luogu P5380) for Luogu, written by duckchess export.\n",
    );
    for (i, score) in scores(n).into_iter().enumerate() {
        let (input, _) = luogu_names(i + 1);
        text.push_str(&format!(
            "{input}:\n  timeLimit: {}\n  memoryLimit: {}\n  score: {score}\n  subtaskId: 0\n",
            limits.seconds * 1000,
            limits.memory_mb * 1024
        ));
    }
    text.into_bytes()
}

/// HydroOJ's `config.yaml` for `n` cases.
fn hydro_config(n: usize, limits: Limits) -> Vec<u8> {
    let mut text = format!(
        "# THUPC 2019 \"Duck Chess\" (Luogu P5380) for HydroOJ, written by duckchess export.\n\
         type: default\n\
         time: {}s\n\
         memory: {}m\n\
         checker_type: default\n\
         subtasks:\n",
        limits.seconds, limits.memory_mb
    );
    for (i, score) in scores(n).into_iter().enumerate() {
        let (input, output) = luogu_names(i + 1);
        text.push_str(&format!(
            "  - score: {score}\n    cases:\n      - input: {input}\n        output: {output}\n"
        ));
    }
    text.into_bytes()
}

/// UOJ's `problem.conf` for `n` cases: one `key value` a line, as its parser reads
/// them, and each case's `point_score` (UOJ's own default, 100/n rounded down, would
/// leave points unshared).
fn uoj_config(n: usize, limits: Limits) -> Vec<u8> {
    let mut text = format!(
        "use_builtin_judger on\n\
         n_tests {n}\n\
         n_ex_tests 0\n\
         n_sample_tests 0\n\
         input_pre {UOJ_PREFIX}\n\
         input_suf in\n\
         output_pre {UOJ_PREFIX}\n\
         output_suf ans\n\
         time_limit {}\n\
         memory_limit {}\n\
         output_limit {UOJ_OUTPUT_MB}\n",
        limits.seconds, limits.memory_mb
    );
    for (i, score) in scores(n).into_iter().enumerate() {
        text.push_str(&format!("point_score_{} {score}\n", i + 1));
    }
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::cases::Case;
    use crate::export::solutions::Solution;

    #[test]
    fn scores_share_out_100() {
        for n in 1..=100 {
            let s = scores(n);
            assert_eq!(s.len(), n);
            assert_eq!(s.iter().sum::<u64>(), 100, "{n}");
            assert!(
                s.iter().max().unwrap() - s.iter().min().unwrap() <= 1,
                "{n}"
            );
        }
        assert_eq!(scores(14)[..3], [8, 8, 7]);
    }

    fn case(i: u8) -> Case {
        Case {
            name: format!("c{i}"),
            input: vec![b'0' + i],
            answer: vec![b'a' + i],
        }
    }

    fn package<'a>(cases: &'a [Case], solutions: &'a [Solution]) -> Package<'a> {
        Package {
            cases,
            limits: Limits::STATEMENT,
            solutions,
            testlib: None,
        }
    }

    fn names(judge: Judge, cases: &[Case]) -> Vec<String> {
        let solutions = [Solution::reference()];
        files(judge, &package(cases, &solutions))
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    #[test]
    fn every_judge_has_each_case_under_its_names() {
        let cases = [case(1), case(2)];
        assert_eq!(
            names(Judge::Luogu, &cases),
            ["1.in", "1.out", "2.in", "2.out", "config.yml"]
        );
        assert_eq!(
            names(Judge::Hydro, &cases),
            ["config.yaml", "1.in", "1.out", "2.in", "2.out"]
        );
        assert_eq!(
            names(Judge::Uoj, &cases),
            [
                "problem.conf",
                "chk.cpp",
                "val.cpp",
                "std.cpp",
                "duckchess1.in",
                "duckchess1.ans",
                "duckchess2.in",
                "duckchess2.ans"
            ]
        );
        let polygon = names(Judge::Polygon, &cases);
        assert_eq!(
            polygon[..5],
            [
                "problem.xml",
                "tests/01",
                "tests/01.a",
                "tests/02",
                "tests/02.a"
            ]
        );
        assert!(polygon.contains(&"solutions/reference.cpp".to_string()));
        let icpc = names(Judge::Icpc, &cases);
        assert!(icpc.contains(&"data/secret/02.ans".to_string()));
        let solutions = [];
        let luogu = files(Judge::Luogu, &package(&cases, &solutions));
        assert_eq!(luogu[2].1, b"2");
        assert_eq!(luogu[3].1, b"c");
    }

    /// The value of `key` in a `key value` configuration, as UOJ reads it.
    fn conf(text: &str, key: &str) -> Option<u64> {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.parse().ok())
    }

    #[test]
    fn the_configurations_carry_the_limits_and_100_points() {
        let limits = Limits {
            seconds: 3,
            memory_mb: 512,
        };
        for n in [1, 3, 7, 24, 100] {
            let uoj = String::from_utf8(uoj_config(n, limits)).unwrap();
            assert_eq!(conf(&uoj, "n_tests"), Some(n as u64));
            assert_eq!(conf(&uoj, "time_limit"), Some(3));
            assert_eq!(conf(&uoj, "memory_limit"), Some(512));
            let points: u64 = (1..=n)
                .map(|i| conf(&uoj, &format!("point_score_{i}")).unwrap())
                .sum();
            assert_eq!(points, 100, "{n}");
            assert_eq!(conf(&uoj, &format!("point_score_{}", n + 1)), None);

            let luogu = String::from_utf8(luogu_config(n, limits)).unwrap();
            let field = |name: &str| -> Vec<u64> {
                luogu
                    .lines()
                    .filter_map(|l| l.trim().strip_prefix(name)?.trim().parse().ok())
                    .collect()
            };
            assert_eq!(field("score:").iter().sum::<u64>(), 100, "{n}");
            assert_eq!(field("timeLimit:"), vec![3000; n]);
            assert_eq!(field("memoryLimit:"), vec![512 * 1024; n]);
            assert!(luogu.contains(&format!("\n{n}.in:\n")), "{luogu}");

            let hydro = String::from_utf8(hydro_config(n, limits)).unwrap();
            assert!(hydro.contains("\ntime: 3s\nmemory: 512m\n"), "{hydro}");
        }
    }
}
