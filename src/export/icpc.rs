//! The ICPC problem package (the Kattis problem package format, legacy version), which
//! DOMjudge imports and Kattis' `verifyproblem` checks: `problem.yaml` (the source, the
//! memory limit, the default output validator), `domjudge-problem.ini` (DOMjudge's time
//! limit), `data/sample` (the statement's sample, with the newline its last line lacks),
//! `data/secret` (the test set), `input_validators/` (plain C++, exit status 42 for a
//! valid input and 43 for any other) and `submissions/` (the reference solution and the
//! judge as one Rust file in `accepted/`, the user's in `accepted/` or
//! `wrong_answer/`).
//!
//! The default output validator compares tokens (whitespace of any kind and amount
//! between them does not count), as most online judges do; the problem's own judge is
//! stricter inside a line, and the `test` subcommand shows the difference when it
//! matters.

use super::package::{Package, INPUT_VALIDATOR};
use crate::judge::run::run;

/// The problem's UUID in `problem.yaml`: one problem, one identity, whatever its data.
pub const UUID: &str = "6d7b8e2a-3c1f-4f0e-9a51-2b7d5c0e8f41";
/// The statement's sample input, as the statement prints it (no newline at its end).
pub const SAMPLE: &str = include_str!("../../samples/statement.in");

/// The sample as a test file: the statement's, its last line ended.
pub fn sample_input() -> Vec<u8> {
    let mut input = SAMPLE.as_bytes().to_vec();
    if input.last() != Some(&b'\n') {
        input.push(b'\n');
    }
    input
}

/// The files of the ICPC package of `package`.
pub fn files(package: &Package) -> Vec<(String, Vec<u8>)> {
    let mut files = vec![
        (
            "problem.yaml".to_string(),
            problem_yaml(package).into_bytes(),
        ),
        (
            "domjudge-problem.ini".to_string(),
            domjudge_ini(package).into_bytes(),
        ),
    ];
    let sample = sample_input();
    let mut answer = Vec::new();
    // The sample is well formed: the judge answers it.
    let _ = run(&sample[..], &mut answer);
    files.push(("data/sample/01.in".to_string(), sample));
    files.push(("data/sample/01.ans".to_string(), answer));
    let width = package.cases.len().to_string().len().max(2);
    for (i, case) in package.cases.iter().enumerate() {
        let stem = format!("data/secret/{:0width$}", i + 1);
        files.push((format!("{stem}.in"), case.input.clone()));
        files.push((format!("{stem}.ans"), case.answer.clone()));
    }
    files.push((
        "input_validators/validate.cpp".to_string(),
        INPUT_VALIDATOR.as_bytes().to_vec(),
    ));
    for solution in package.solutions {
        let path = format!(
            "submissions/{}/{}",
            solution.role.icpc_folder(),
            solution.name
        );
        files.push((path, solution.source.clone()));
    }
    files
}

/// `problem.yaml`. The time limit is not in it: in this version of the format Kattis
/// sets it from the accepted submissions' times, and DOMjudge reads
/// `domjudge-problem.ini`.
pub fn problem_yaml(package: &Package) -> String {
    format!(
        "# THUPC 2019 \"Duck Chess\" (Luogu P5380), written by duckchess export.\n\
         # The statement is THUPC's: set license and rights_owner to what you hold.\n\
         source: THUPC 2019\n\
         source_url: https://www.luogu.com.cn/problem/P5380\n\
         license: educational\n\
         uuid: {UUID}\n\
         validation: default\n\
         limits:\n  memory: {}\n",
        package.limits.memory_mb
    )
}

/// DOMjudge's `domjudge-problem.ini`: the name and the time limit.
pub fn domjudge_ini(package: &Package) -> String {
    format!(
        "name = Duck Chess\ntimelimit = {}\n",
        package.limits.seconds
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::cases::Case;
    use crate::export::solutions::{Role, Solution};
    use crate::export::Limits;

    #[test]
    fn the_package_has_every_part_in_its_folder() {
        let cases: Vec<Case> = (0..10)
            .map(|i| Case {
                name: format!("c{i}"),
                input: b"0\n".to_vec(),
                answer: Vec::new(),
            })
            .collect();
        let mut wrong = Solution::reference();
        wrong.name = "w.cpp".into();
        wrong.role = Role::Wrong;
        let solutions = [Solution::reference(), wrong];
        let package = Package {
            cases: &cases,
            limits: Limits {
                seconds: 2,
                memory_mb: 256,
            },
            solutions: &solutions,
            testlib: None,
        };
        let files = files(&package);
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        for name in [
            "problem.yaml",
            "domjudge-problem.ini",
            "data/sample/01.in",
            "data/sample/01.ans",
            "data/secret/01.in",
            "data/secret/10.ans",
            "input_validators/validate.cpp",
            "submissions/accepted/reference.cpp",
            "submissions/wrong_answer/w.cpp",
        ] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        let yaml = problem_yaml(&package);
        assert!(yaml.contains("\n  memory: 256\n"), "{yaml}");
        assert!(domjudge_ini(&package).contains("timelimit = 2\n"));
        let sample = &files[2].1;
        assert_eq!(sample.last(), Some(&b'\n'));
        assert_eq!(sample.len(), SAMPLE.len() + 1);
        let answer = String::from_utf8(files[3].1.clone()).unwrap();
        assert_eq!(answer, include_str!("../../samples/statement.out"));
    }
}
