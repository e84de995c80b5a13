//! The package Polygon writes for download, which converters read as it is (`p2d`
//! writes a DOMjudge package from it, HydroOJ imports it): `problem.xml` (the names, one
//! judging testset with its limits and every test, the checker with its tests, the
//! validator with its tests, the solutions with their tags), `tests/NN` and
//! `tests/NN.a`, `files/` (the checker's and the validator's source, their tests, and
//! `testlib.h` where the user gave it), `check.cpp` (Polygon's copy of the checker at
//! the root) and `solutions/`.

use super::package::{numbered, Package, CHECKER, VALIDATOR};
use crate::judge::run::run;

/// The problem's short name in Polygon.
pub const SHORT_NAME: &str = "duckchess";
/// Its name.
pub const NAME: &str = "Duck Chess";

/// The validator's tests: inputs, and whether each is valid. Each breaks the strict
/// format in one way (or keeps to it at an edge), so the validator is checked where a
/// looser one would differ.
pub const VALIDATOR_TESTS: &[(&[u8], bool)] = &[
    (b"0\n", true),
    (b"1\n9 8 0 0\n", true),
    (b"2\n3 0 4 0\n6 0 5 0\n", true),
    (b"", false),
    (b"0", false),
    (b"00\n", false),
    (b"01\n0 0 0 0\n", false),
    (b"1001\n", false),
    (b"-0\n", false),
    (b"1\n10 0 0 0\n", false),
    (b"1\n0 9 0 0\n", false),
    (b"1\n0 0 0 0", false),
    (b"1\n0 0 0 0 \n", false),
    (b"1\n0  0 0 0\n", false),
    (b"1\n 0 0 0 0\n", false),
    (b"1\n0\t0 0 0\n", false),
    (b"1\r\n0 0 0 0\r\n", false),
    (b"1\n0 0 0 0\n\n", false),
    (b"2\n0 0 0 0\n", false),
    (b"1\n0 0 0 0\n1 1 1 1\n", false),
    (b"1\n0 0 0 0\njunk", false),
];

/// The checker's verdict on a test, as `problem.xml` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckerVerdict {
    /// The output is right.
    Ok,
    /// The output is wrong.
    WrongAnswer,
}

impl CheckerVerdict {
    fn name(self) -> &'static str {
        match self {
            CheckerVerdict::Ok => "ok",
            CheckerVerdict::WrongAnswer => "wrong-answer",
        }
    }
}

/// A test of the checker: input, output, answer, and the verdict it should give.
pub type CheckerTest = (Vec<u8>, Vec<u8>, Vec<u8>, CheckerVerdict);

/// The checker's tests, on a game of three commands: the answer itself, the answer with
/// what online judges ignore (spaces at line ends, a missing last newline, blank lines
/// at the end), and outputs that differ in what they do not ignore (a word, spacing
/// inside a line, letter case, a blank line in the middle, a line missing or added).
pub fn checker_tests() -> Vec<CheckerTest> {
    let input = b"3\n3 0 4 0\n6 0 5 0\n0 0 1 0\n".to_vec();
    let mut answer = Vec::new();
    // The judge answers any input it is given: this one is well formed.
    let _ = run(&input[..], &mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let joined = |lines: &[String]| lines.concat().into_bytes();
    let with = |edit: &dyn Fn(&mut Vec<String>)| {
        let mut l: Vec<String> = lines.iter().map(|l| format!("{l}\n")).collect();
        edit(&mut l);
        joined(&l)
    };
    use CheckerVerdict::{Ok, WrongAnswer};
    let outputs: Vec<(Vec<u8>, CheckerVerdict)> = vec![
        (answer.clone(), Ok),
        (with(&|l| l[0] = l[0].replace('\n', "  \n")), Ok),
        (answer[..answer.len() - 1].to_vec(), Ok),
        (with(&|l| l.push("\n\n".into())), Ok),
        (with(&|l| l[1] = l[1].replacen(';', "; ", 1)), WrongAnswer),
        (with(&|l| l[0] = l[0].to_uppercase()), WrongAnswer),
        (with(&|l| l[2] = "Invalid command\n".into()), WrongAnswer),
        (with(&|l| l.insert(1, "\n".into())), WrongAnswer),
        (with(&|l| drop(l.pop())), WrongAnswer),
        (with(&|l| l.push("Invalid command\n".into())), WrongAnswer),
        (Vec::new(), WrongAnswer),
    ];
    outputs
        .into_iter()
        .map(|(output, verdict)| (input.clone(), output, answer.clone(), verdict))
        .collect()
}

/// The files of the Polygon package of `package`.
pub fn files(package: &Package) -> Vec<(String, Vec<u8>)> {
    let mut files = vec![("problem.xml".to_string(), problem_xml(package).into_bytes())];
    files.extend(numbered(package.cases, |i| {
        (format!("tests/{i:02}"), format!("tests/{i:02}.a"))
    }));
    files.push(("check.cpp".to_string(), CHECKER.as_bytes().to_vec()));
    files.push(("files/check.cpp".to_string(), CHECKER.as_bytes().to_vec()));
    files.push(("files/val.cpp".to_string(), VALIDATOR.as_bytes().to_vec()));
    if let Some(testlib) = package.testlib {
        files.push(("files/testlib.h".to_string(), testlib.to_vec()));
    }
    for (i, (input, _)) in VALIDATOR_TESTS.iter().enumerate() {
        let path = format!("files/tests/validator-tests/{:02}", i + 1);
        files.push((path, input.to_vec()));
    }
    for (i, (input, output, answer, _)) in checker_tests().into_iter().enumerate() {
        let path = format!("files/tests/checker-tests/{:02}", i + 1);
        files.push((path.clone(), input));
        files.push((format!("{path}.o"), output));
        files.push((format!("{path}.a"), answer));
    }
    for solution in package.solutions {
        let path = format!("solutions/{}", solution.name);
        files.push((path, solution.source.clone()));
    }
    files
}

/// `problem.xml`, as Polygon writes it (the parts a package of tests needs).
pub fn problem_xml(package: &Package) -> String {
    let n = package.cases.len();
    let tests = "                <test method=\"manual\"/>\n".repeat(n);
    let validator_tests: String = VALIDATOR_TESTS
        .iter()
        .map(|(_, valid)| {
            let verdict = if *valid { "valid" } else { "invalid" };
            format!("                        <test verdict=\"{verdict}\"/>\n")
        })
        .collect();
    let checker = checker_tests();
    let checker_tests: String = checker
        .iter()
        .map(|t| format!("                    <test verdict=\"{}\"/>\n", t.3.name()))
        .collect();
    let solutions: String = package
        .solutions
        .iter()
        .map(|s| {
            format!(
                "            <solution tag=\"{}\">\n                \
                 <source path=\"solutions/{}\" type=\"{}\"/>\n            </solution>\n",
                s.role.polygon_tag(),
                s.name,
                s.language.polygon_type()
            )
        })
        .collect();
    let testlib = match package.testlib {
        Some(_) => "            <file path=\"files/testlib.h\" type=\"h.g++\"/>\n",
        None => "",
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>
<!-- THUPC 2019 \"Duck Chess\" (Luogu P5380), written by duckchess export. -->
<problem revision=\"1\" short-name=\"{SHORT_NAME}\" url=\"\">
    <names>
        <name language=\"english\" value=\"{NAME}\"/>
    </names>
    <judging input-file=\"\" output-file=\"\" run-count=\"1\">
        <testset name=\"tests\">
            <time-limit>{time}</time-limit>
            <memory-limit>{memory}</memory-limit>
            <test-count>{n}</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests>
{tests}            </tests>
        </testset>
    </judging>
    <files>
        <resources>
{testlib}        </resources>
        <executables>
            <executable>
                <source path=\"files/check.cpp\" type=\"cpp.g++17\"/>
            </executable>
            <executable>
                <source path=\"files/val.cpp\" type=\"cpp.g++17\"/>
            </executable>
        </executables>
    </files>
    <assets>
        <checker name=\"check.cpp\" type=\"testlib\">
            <source path=\"files/check.cpp\" type=\"cpp.g++17\"/>
            <copy path=\"check.cpp\"/>
            <testset>
                <test-count>{checker_count}</test-count>
                <input-path-pattern>files/tests/checker-tests/%02d</input-path-pattern>
                <output-path-pattern>files/tests/checker-tests/%02d.o</output-path-pattern>
                <answer-path-pattern>files/tests/checker-tests/%02d.a</answer-path-pattern>
                <tests>
{checker_tests}                </tests>
            </testset>
        </checker>
        <validators>
            <validator>
                <source path=\"files/val.cpp\" type=\"cpp.g++17\"/>
                <testset>
                    <test-count>{validator_count}</test-count>
                    <input-path-pattern>files/tests/validator-tests/%02d</input-path-pattern>
                    <tests>
{validator_tests}                    </tests>
                </testset>
            </validator>
        </validators>
        <solutions>
{solutions}        </solutions>
    </assets>
    <properties>
        <property name=\"tests-wellformed\" value=\"true\"/>
    </properties>
    <tags/>
</problem>
",
        time = package.limits.seconds * 1000,
        memory = package.limits.memory_mb << 20,
        checker_count = checker.len(),
        validator_count = VALIDATOR_TESTS.len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::show::format::{validate, DEFAULT_MAX_Q};

    #[test]
    fn the_validator_tests_say_what_duckchess_validate_says() {
        for (input, valid) in VALIDATOR_TESTS {
            let got = validate(&input[..], DEFAULT_MAX_Q).is_ok();
            assert_eq!(got, *valid, "{:?}", String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn the_checker_tests_say_what_duckchess_test_says() {
        let tests = checker_tests();
        assert!(tests.len() >= 10);
        for (_, output, answer, verdict) in tests {
            let same = crate::show::compare::compare(&answer, &output)
                .difference
                .is_none();
            assert_eq!(
                same,
                verdict == CheckerVerdict::Ok,
                "{:?}",
                String::from_utf8_lossy(&output)
            );
        }
    }
}
