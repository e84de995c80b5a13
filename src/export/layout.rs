//! What each judge takes, file by file: the names its cases go by, its configuration
//! (the statement's limits, one point of 100 shared out among the cases where it
//! scores them), and the C++ programs judges build against testlib: the validator,
//! which refuses exactly what `duckchess validate` refuses, and the checker, which
//! compares an output with its answer as `duckchess test` does by default (whitespace at
//! line ends and blank lines at the end do not count).
//!
//! - Luogu: `N.in` and `N.out` at the archive's root, no folder, no configuration (its
//!   `config.yml` is optional; limits and scores are set on the problem's page).
//! - HydroOJ: `N.in`, `N.out` and `config.yaml`: the limits, its default comparison
//!   (which ignores whitespace at line ends and at the end), one subtask a case.
//! - UOJ: `problem.conf` (its built-in judger, the limits, the file names' parts),
//!   `duckchessN.in` and `duckchessN.ans` as it names them, `chk.cpp` (the checker: no
//!   built-in checker of UOJ compares lines as this problem's judge does) and `val.cpp`
//!   (the validator, for hacks).
//! - Polygon: `tests/01`, `tests/01.a` and so on, `validator.cpp` and `checker.cpp`.

use super::cases::Case;
use super::{Judge, MEMORY_MB, TIME_SECONDS};

/// The testlib validator (see the module doc).
pub const VALIDATOR: &str = include_str!("validator.cpp");
/// The testlib checker (see the module doc): `checker INPUT OUTPUT ANSWER`.
pub const CHECKER: &str = include_str!("checker.cpp");

/// UOJ's output limit, in MB: its usual one, far above an answer's 40 KB.
pub const UOJ_OUTPUT_MB: u64 = 64;
/// What UOJ's files are named after: `duckchess1.in`, `duckchess1.ans`.
pub const UOJ_PREFIX: &str = "duckchess";

/// The files of `cases`' package for `judge`, in order: each name in the archive (with
/// `/` between folders) and its bytes.
pub fn files(judge: Judge, cases: &[Case]) -> Vec<(String, Vec<u8>)> {
    match judge {
        Judge::Luogu => numbered(cases, |i| (format!("{i}.in"), format!("{i}.out"))),
        Judge::Hydro => {
            let mut files = vec![("config.yaml".to_string(), hydro_config(cases.len()))];
            files.extend(numbered(cases, hydro_names));
            files
        }
        Judge::Uoj => {
            let mut files = vec![
                ("problem.conf".to_string(), uoj_config(cases.len())),
                ("chk.cpp".to_string(), CHECKER.as_bytes().to_vec()),
                ("val.cpp".to_string(), VALIDATOR.as_bytes().to_vec()),
            ];
            files.extend(numbered(cases, |i| {
                (
                    format!("{UOJ_PREFIX}{i}.in"),
                    format!("{UOJ_PREFIX}{i}.ans"),
                )
            }));
            files
        }
        Judge::Polygon => {
            let mut files = numbered(cases, |i| {
                (format!("tests/{i:02}"), format!("tests/{i:02}.a"))
            });
            files.push(("validator.cpp".to_string(), VALIDATOR.as_bytes().to_vec()));
            files.push(("checker.cpp".to_string(), CHECKER.as_bytes().to_vec()));
            files
        }
    }
}

/// Each case's input and answer under the names `names` gives case `i` (from 1).
fn numbered(cases: &[Case], names: impl Fn(usize) -> (String, String)) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::with_capacity(2 * cases.len());
    for (i, case) in cases.iter().enumerate() {
        let (input, answer) = names(i + 1);
        files.push((input, case.input.clone()));
        files.push((answer, case.answer.clone()));
    }
    files
}

/// HydroOJ's names of case `i`.
fn hydro_names(i: usize) -> (String, String) {
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

/// HydroOJ's `config.yaml` for `n` cases.
fn hydro_config(n: usize) -> Vec<u8> {
    let mut text = format!(
        "# THUPC 2019 \"Duck Chess\" (Luogu P5380) for HydroOJ, written by duckchess export.\n\
         type: default\n\
         time: {TIME_SECONDS}s\n\
         memory: {MEMORY_MB}m\n\
         checker_type: default\n\
         subtasks:\n"
    );
    for (i, score) in scores(n).into_iter().enumerate() {
        let (input, output) = hydro_names(i + 1);
        text.push_str(&format!(
            "  - score: {score}\n    cases:\n      - input: {input}\n        output: {output}\n"
        ));
    }
    text.into_bytes()
}

/// UOJ's `problem.conf` for `n` cases.
fn uoj_config(n: usize) -> Vec<u8> {
    format!(
        "use_builtin_judger on\n\
         n_tests {n}\n\
         n_ex_tests 0\n\
         n_sample_tests 0\n\
         input_pre {UOJ_PREFIX}\n\
         input_suf in\n\
         output_pre {UOJ_PREFIX}\n\
         output_suf ans\n\
         time_limit {TIME_SECONDS}\n\
         memory_limit {MEMORY_MB}\n\
         output_limit {UOJ_OUTPUT_MB}\n"
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn every_judge_has_each_case_under_its_names() {
        let cases = [case(1), case(2)];
        let names =
            |judge| -> Vec<String> { files(judge, &cases).into_iter().map(|(n, _)| n).collect() };
        assert_eq!(names(Judge::Luogu), ["1.in", "1.out", "2.in", "2.out"]);
        assert_eq!(
            names(Judge::Hydro),
            ["config.yaml", "1.in", "1.out", "2.in", "2.out"]
        );
        assert_eq!(
            names(Judge::Uoj),
            [
                "problem.conf",
                "chk.cpp",
                "val.cpp",
                "duckchess1.in",
                "duckchess1.ans",
                "duckchess2.in",
                "duckchess2.ans"
            ]
        );
        assert_eq!(
            names(Judge::Polygon),
            [
                "tests/01",
                "tests/01.a",
                "tests/02",
                "tests/02.a",
                "validator.cpp",
                "checker.cpp"
            ]
        );
        let luogu = files(Judge::Luogu, &cases);
        assert_eq!(luogu[2].1, b"2");
        assert_eq!(luogu[3].1, b"c");
    }
}
