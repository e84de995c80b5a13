//! `duckchess export`: every judge's archive read back by a zip reader of this test's
//! own (each entry's local header against the central directory, its CRC-32 computed
//! here bit by bit, its bytes those of the test set, its name the judge's), the
//! configurations parsed and counted, `unzip -t` on each archive where unzip is; the
//! archive's place (whole, never over a user's file); the test sets refused (an
//! invalid input, a wrong answer, an input without its answer, too many cases). In the
//! full tier: the default suite exported for every judge, and the Polygon validator
//! and checker built with g++ against testlib.h (`scripts/fetch-testlib.sh`), agreeing
//! with `duckchess validate` and with `test`'s comparison on every file of the suite,
//! on a table of invalid inputs and on a table of outputs.

use crate::common;
use duckchess::generate::mode::Mode;
#[cfg(not(lacks_testlib))]
use duckchess::show::compare::compare;
#[cfg(not(lacks_testlib))]
use duckchess::show::format::{validate, DEFAULT_MAX_Q};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The judges, as `--for` names them.
const JUDGES: [&str; 5] = ["luogu", "hydro", "uoj", "polygon", "icpc"];

/// The CRC-32 of the zip format, bit by bit (the library computes it from a table).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A zip archive as read back: its files in the central directory's order, and its
/// comment.
pub(crate) struct Archive {
    pub(crate) files: Vec<(String, Vec<u8>)>,
    comment: String,
}

impl Archive {
    fn names(&self) -> Vec<&str> {
        self.files.iter().map(|(n, _)| n.as_str()).collect()
    }

    fn get(&self, name: &str) -> &[u8] {
        &self
            .files
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no {name} in {:?}", self.names()))
            .1
    }
}

/// The little-endian number of `width` bytes at `at`.
fn le(bytes: &[u8], at: usize, width: usize) -> usize {
    bytes[at..at + width]
        .iter()
        .rev()
        .fold(0, |n, &b| n << 8 | usize::from(b))
}

/// Reads a zip archive of stored entries, checking everything it reads: the end record
/// at the very end, the central directory where it says and of the size it says, each
/// local header agreeing with its directory entry, each CRC and size, the entries
/// back to back up to the directory.
pub(crate) fn read_zip(bytes: &[u8]) -> Archive {
    let end = (0..=bytes.len() - 22)
        .rev()
        .find(|&at| {
            le(bytes, at, 4) == 0x0605_4b50 && at + 22 + le(bytes, at + 20, 2) == bytes.len()
        })
        .expect("an end record");
    let comment = String::from_utf8(bytes[end + 22..].to_vec()).expect("a text comment");
    let (count, size, offset) = (
        le(bytes, end + 10, 2),
        le(bytes, end + 12, 4),
        le(bytes, end + 16, 4),
    );
    assert_eq!(le(bytes, end + 8, 2), count, "entries on this disk");
    assert_eq!(
        offset + size,
        end,
        "the directory runs up to the end record"
    );
    let (mut at, mut next_local) = (offset, 0);
    let mut files = Vec::new();
    for _ in 0..count {
        assert_eq!(le(bytes, at, 4), 0x0201_4b50, "a directory entry at {at}");
        let method = le(bytes, at + 10, 2);
        let crc = le(bytes, at + 16, 4) as u32;
        let (packed, plain) = (le(bytes, at + 20, 4), le(bytes, at + 24, 4));
        let name_len = le(bytes, at + 28, 2);
        let extra = le(bytes, at + 30, 2) + le(bytes, at + 32, 2);
        let local = le(bytes, at + 42, 4);
        let name = String::from_utf8(bytes[at + 46..at + 46 + name_len].to_vec()).unwrap();
        assert_eq!((method, packed), (0, plain), "{name} is stored");
        assert_eq!(
            local, next_local,
            "{name}'s local header follows the last entry"
        );
        assert_eq!(le(bytes, local, 4), 0x0403_4b50, "{name}'s local header");
        assert_eq!(le(bytes, local + 8, 2), 0, "{name}: stored");
        assert_eq!(
            le(bytes, local + 14, 4) as u32,
            crc,
            "{name}: the CRCs agree"
        );
        assert_eq!(le(bytes, local + 18, 4), packed, "{name}: the sizes agree");
        assert_eq!(le(bytes, local + 22, 4), plain, "{name}: the sizes agree");
        let local_name = le(bytes, local + 26, 2);
        let data = local + 30 + local_name + le(bytes, local + 28, 2);
        assert_eq!(&bytes[local + 30..local + 30 + local_name], name.as_bytes());
        let content = bytes[data..data + plain].to_vec();
        assert_eq!(crc32(&content), crc, "{name}: the CRC is the content's");
        next_local = data + plain;
        files.push((name, content));
        at += 46 + name_len + extra;
    }
    assert_eq!(next_local, offset, "the entries run up to the directory");
    assert_eq!(at, end, "the directory holds the entries it counts");
    Archive { files, comment }
}

#[test]
fn the_reader_knows_the_crc_and_refuses_a_bad_one() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    let dir = test_set("reader", 1);
    let out = dir.join("a.zip");
    assert!(export(&dir, "luogu", &out).status.success());
    let mut bytes = fs::read(&out).unwrap();
    assert_eq!(read_zip(&bytes).files.len(), 3);
    // One byte of the first file's data changed: its CRC no longer holds.
    let data = 30 + "1.in".len();
    bytes[data] ^= 1;
    let caught = std::panic::catch_unwind(|| read_zip(&bytes));
    assert!(caught.is_err(), "a changed byte is caught");
}

/// A folder holding `n` cases as `gen --suite` names them, `1.in` and `1.ans` on: games
/// of each mode with their judge's answers, case 2 with no command at all.
fn test_set(name: &str, n: usize) -> PathBuf {
    let dir = common::scratch("export", name).join("set");
    fs::create_dir_all(&dir).unwrap();
    for i in 1..=n {
        let mode = Mode::ALL[i % Mode::ALL.len()];
        let q = if i == 2 { 0 } else { 10 + 7 * i as u64 };
        let mut input = Vec::new();
        duckchess::generate::input(i as u64, q, mode, &mut input).unwrap();
        let mut answer = Vec::new();
        duckchess::judge::run::run(&input[..], &mut answer).unwrap();
        fs::write(dir.join(format!("{i}.in")), &input).unwrap();
        fs::write(dir.join(format!("{i}.ans")), &answer).unwrap();
    }
    dir
}

/// `duckchess export --for JUDGE -o OUT DIR`.
fn export(dir: &Path, judge: &str, out: &Path) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_duckchess"));
    cmd.args(["export", "--for", judge, "-o"]).arg(out).arg(dir);
    common::run_command(cmd, b"")
}

/// The names a judge gives case `i` (from 1) of `n`: input and answer.
fn case_names(judge: &str, i: usize, n: usize) -> (String, String) {
    match judge {
        "luogu" | "hydro" => (format!("{i}.in"), format!("{i}.out")),
        "uoj" => (format!("duckchess{i}.in"), format!("duckchess{i}.ans")),
        "polygon" => (format!("tests/{i:02}"), format!("tests/{i:02}.a")),
        "icpc" => {
            let width = n.to_string().len().max(2);
            (
                format!("data/secret/{i:0width$}.in"),
                format!("data/secret/{i:0width$}.ans"),
            )
        }
        other => panic!("no judge {other}"),
    }
}

/// The files besides the cases that each judge's package must hold.
fn extras(judge: &str) -> &'static [&'static str] {
    match judge {
        "luogu" => &["config.yml"],
        "hydro" => &["config.yaml"],
        "uoj" => &["problem.conf", "chk.cpp", "val.cpp", "std.cpp"],
        "polygon" => &[
            "problem.xml",
            "check.cpp",
            "files/check.cpp",
            "files/val.cpp",
            "solutions/reference.cpp",
            "solutions/duckchess.rs",
        ],
        _ => &[
            "problem.yaml",
            "domjudge-problem.ini",
            "data/sample/01.in",
            "data/sample/01.ans",
            "input_validators/validate.cpp",
            "submissions/accepted/reference.cpp",
            "submissions/accepted/duckchess.rs",
        ],
    }
}

/// The folders where a judge's package holds more files than [`extras`] names: the
/// tests of Polygon's checker and validator.
fn extra_folders(judge: &str) -> &'static [&'static str] {
    match judge {
        "polygon" => &["files/tests/checker-tests/", "files/tests/validator-tests/"],
        _ => &[],
    }
}

/// Checks `archive`, `judge`'s package of the `n` cases in `dir`: every case under its
/// names with the folder's bytes, nothing else but the judge's own files, its
/// configuration counting `n` cases.
fn check_package(archive: &Archive, judge: &str, dir: &Path, n: usize) {
    let mut expected: Vec<String> = extras(judge).iter().map(|s| s.to_string()).collect();
    for i in 1..=n {
        let (input, answer) = case_names(judge, i, n);
        assert_eq!(
            archive.get(&input),
            fs::read(dir.join(format!("{i}.in"))).unwrap(),
            "{judge}: {input}"
        );
        assert_eq!(
            archive.get(&answer),
            fs::read(dir.join(format!("{i}.ans"))).unwrap(),
            "{judge}: {answer}"
        );
        expected.extend([input, answer]);
    }
    let mut names: Vec<&str> = archive
        .names()
        .into_iter()
        .filter(|n| !extra_folders(judge).iter().any(|f| n.starts_with(f)))
        .collect();
    names.sort_unstable();
    expected.sort_unstable();
    assert_eq!(names, expected, "{judge}: the files");
    assert!(
        archive
            .comment
            .starts_with(&format!("duckchess export --for {judge}")),
        "{}",
        archive.comment
    );
    match judge {
        "luogu" => check_luogu(archive, n),
        "hydro" => check_hydro(archive, n),
        "uoj" => {
            if let Err(e) = uoj_sync(archive) {
                panic!("UOJ's data sync refuses the archive: {e}");
            }
            check_uoj(archive, n);
        }
        "polygon" => check_polygon(archive, n),
        _ => check_icpc(archive),
    }
}

/// Luogu's `config.yml`: each input's time (ms), memory (KiB) and score, the scores
/// adding up to 100.
fn check_luogu(archive: &Archive, n: usize) {
    let text = String::from_utf8(archive.get("config.yml").to_vec()).unwrap();
    let mut current = None;
    let mut seen = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        if let Some(name) = line.strip_suffix(':') {
            current = Some(name.to_string());
            continue;
        }
        let (key, value) = line.trim().split_once(": ").expect("key: value");
        let name = current.clone().expect("a key under a file");
        let value: u64 = value.parse().unwrap();
        seen.entry(name)
            .or_insert_with(BTreeMap::new)
            .insert(key.to_string(), value);
    }
    assert_eq!(seen.len(), n, "{text}");
    let mut total = 0;
    for i in 1..=n {
        let fields = &seen[&format!("{i}.in")];
        assert_eq!(fields["timeLimit"], 1000);
        assert_eq!(fields["memoryLimit"], 128 * 1024);
        assert_eq!(fields["subtaskId"], 0);
        total += fields["score"];
    }
    assert_eq!(total, 100);
}

/// Polygon's `problem.xml`: the testset lists every test, with the limits and the
/// paths' patterns; every file it names is in the archive.
fn check_polygon(archive: &Archive, n: usize) {
    let xml = String::from_utf8(archive.get("problem.xml").to_vec()).unwrap();
    for part in [
        format!("<test-count>{n}</test-count>"),
        "<time-limit>1000</time-limit>".to_string(),
        format!("<memory-limit>{}</memory-limit>", 128 << 20),
        "<input-path-pattern>tests/%02d</input-path-pattern>".to_string(),
        "<answer-path-pattern>tests/%02d.a</answer-path-pattern>".to_string(),
        "<solution tag=\"main\">".to_string(),
    ] {
        assert!(xml.contains(&part), "{part} in\n{xml}");
    }
    assert_eq!(xml.matches("<test method=\"manual\"/>").count(), n);
    for path in xml
        .split("path=\"")
        .skip(1)
        .map(|p| &p[..p.find('"').unwrap()])
    {
        assert!(archive.names().contains(&path), "{path} is in the archive");
    }
    // Each test of the validator and of the checker has its files.
    let valid = xml.matches("<test verdict=\"valid\"/>").count();
    let invalid = xml.matches("<test verdict=\"invalid\"/>").count();
    for i in 1..=valid + invalid {
        archive.get(&format!("files/tests/validator-tests/{i:02}"));
    }
    let checks = xml.matches("<test verdict=\"ok\"/>").count()
        + xml.matches("<test verdict=\"wrong-answer\"/>").count();
    for i in 1..=checks {
        for ext in ["", ".o", ".a"] {
            archive.get(&format!("files/tests/checker-tests/{i:02}{ext}"));
        }
    }
    assert!(valid >= 2 && invalid >= 10 && checks >= 10, "{xml}");
}

/// The ICPC package: the memory limit and the default output validator in
/// `problem.yaml`, DOMjudge's time limit, the statement's sample with its answer.
fn check_icpc(archive: &Archive) {
    let yaml = String::from_utf8(archive.get("problem.yaml").to_vec()).unwrap();
    for line in [
        "validation: default",
        "  memory: 128",
        "license: educational",
    ] {
        assert!(yaml.lines().any(|l| l == line), "{line} in\n{yaml}");
    }
    let ini = String::from_utf8(archive.get("domjudge-problem.ini").to_vec()).unwrap();
    assert!(ini.lines().any(|l| l == "timelimit = 1"), "{ini}");
    let sample =
        fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/statement.in")).unwrap();
    assert_eq!(
        archive.get("data/sample/01.in"),
        [&sample[..], b"\n"].concat()
    );
    let answer =
        fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/statement.out")).unwrap();
    assert_eq!(archive.get("data/sample/01.ans"), answer);
}

/// The checks UOJ's data sync makes on an archive before it takes it (read from
/// UniversalOJ/UOJ-System's `uoj-data-lib.php` and vfleaking/uoj's
/// `UOJProblemDataSynchronizer.php`), for a problem that allows hacks and uses the
/// built-in judger: `problem.conf` parsed as UOJ parses it (keys and values split by
/// spaces, `\n` and `\r` only, no key twice), `use_builtin_judger on`, `n_tests` a
/// positive number in UOJ's form and each of its inputs and outputs a file at the
/// archive's root (names from `input_pre`, `input_suf`, `output_pre`, `output_suf`,
/// whose defaults are `input`, `output` and `txt`), a built-in checker of a valid name
/// or `chk.cpp`, `n_ex_tests` present with its files, `std.cpp` and `val.cpp` (the
/// message "找不到本题的 std" otherwise), `n_sample_tests` at most `n_ex_tests`; and,
/// though the sync does not check them, the limits given and `point_score_N` for every
/// case, adding up to 100 (the judger's default is 100/n rounded down). Every file is
/// text that UOJ's formatter leaves as it is.
fn uoj_sync(archive: &Archive) -> Result<(), String> {
    let names = archive.names();
    if let Some(folder) = names.iter().find(|n| n.contains('/')) {
        return Err(format!("{folder} is not at the archive's root"));
    }
    let text = String::from_utf8(archive.get("problem.conf").to_vec())
        .map_err(|_| "problem.conf is not UTF-8".to_string())?;
    let mut tokens = text.split([' ', '\n', '\r']).filter(|t| !t.is_empty());
    let mut conf = BTreeMap::new();
    while let Some(key) = tokens.next() {
        let value = tokens.next().ok_or(format!("{key} has no value"))?;
        if conf.insert(key, value).is_some() {
            return Err(format!("syntax error: duplicate keys ({key})"));
        }
    }
    let number = |key: &str| -> Result<u64, String> {
        let value = conf.get(key).ok_or(format!("{key} is missing"))?;
        let form = value == &"0"
            || (value.len() <= 9
                && !value.starts_with('0')
                && value.bytes().all(|b| b.is_ascii_digit()));
        match form {
            true => Ok(value.parse().unwrap()),
            false => Err(format!("{key} must be a non-negative integer")),
        }
    };
    if conf.get("use_builtin_judger") != Some(&"on") {
        return Err("use_builtin_judger must be on.".into());
    }
    let n = number("n_tests")?;
    if n == 0 {
        return Err("n_tests must be a positive integer".into());
    }
    let part = |key: &str, default: &'static str| *conf.get(key).unwrap_or(&default);
    let name = |pre: &str, default: &'static str, suf: &str, i: u64| {
        format!("{}{i}.{}", part(pre, default), part(suf, "txt"))
    };
    let need = |file: &str| match names.contains(&file) {
        true => Ok(()),
        false => Err(format!("file {file} not found")),
    };
    for i in 1..=n {
        need(&name("input_pre", "input", "input_suf", i))?;
        need(&name("output_pre", "output", "output_suf", i))?;
    }
    match conf.get("use_builtin_checker") {
        Some(checker)
            if checker.len() <= 20
                && checker
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_') => {}
        Some(checker) => return Err(format!("{checker} is not a valid checker")),
        None => need("chk.cpp")?,
    }
    let ex = number("n_ex_tests")?;
    for i in 1..=ex {
        need(&format!(
            "ex_{}",
            name("input_pre", "input", "input_suf", i)
        ))?;
        need(&format!(
            "ex_{}",
            name("output_pre", "output", "output_suf", i)
        ))?;
    }
    need("std.cpp").map_err(|_| "找不到本题的 std".to_string())?;
    need("val.cpp").map_err(|_| "找不到本题的 val".to_string())?;
    if number("n_sample_tests")? > ex {
        return Err("n_sample_tests can't be greater than n_ex_tests".into());
    }
    number("time_limit")?;
    number("memory_limit")?;
    let mut total = 0;
    for i in 1..=n {
        total += number(&format!("point_score_{i}"))?;
    }
    if total != 100 {
        return Err(format!("the points add up to {total}, not 100"));
    }
    for (file, bytes) in &archive.files {
        let formatted = bytes
            .windows(2)
            .any(|w| w[1] == b'\n' && (w[0] == b' ' || w[0] == b'\r'))
            || bytes.contains(&0xff)
            || bytes.last().is_some_and(|&b| b != b'\n');
        if formatted {
            return Err(format!("UOJ's formatter would change {file}"));
        }
    }
    Ok(())
}

/// HydroOJ's `config.yaml`: the limits, and one subtask a case, with each case's
/// files, the scores adding up to 100.
fn check_hydro(archive: &Archive, n: usize) {
    let text = String::from_utf8(archive.get("config.yaml").to_vec()).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    for line in ["type: default", "time: 1s", "memory: 128m", "subtasks:"] {
        assert!(lines.contains(&line), "{line} in\n{text}");
    }
    let value = |line: &str, key: &str| line.trim().strip_prefix(key).map(str::to_string);
    let scores: Vec<u64> = lines
        .iter()
        .filter_map(|l| value(l, "- score: "))
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(scores.len(), n, "one subtask a case");
    assert_eq!(scores.iter().sum::<u64>(), 100);
    let inputs: Vec<String> = lines.iter().filter_map(|l| value(l, "- input: ")).collect();
    let outputs: Vec<String> = lines.iter().filter_map(|l| value(l, "output: ")).collect();
    assert_eq!((inputs.len(), outputs.len()), (n, n));
    for (i, (input, output)) in inputs.iter().zip(&outputs).enumerate() {
        assert_eq!(
            (input, output),
            (
                &case_names("hydro", i + 1, n).0,
                &case_names("hydro", i + 1, n).1
            )
        );
    }
}

/// UOJ's `problem.conf`: every key once, the counts and limits, and the files its
/// prefixes and suffixes name all there.
fn check_uoj(archive: &Archive, n: usize) {
    let text = String::from_utf8(archive.get("problem.conf").to_vec()).unwrap();
    let mut conf = BTreeMap::new();
    for line in text.lines() {
        let (key, value) = line.split_once(' ').expect("key value");
        assert!(conf.insert(key, value).is_none(), "{key} twice");
    }
    let n_text = n.to_string();
    for (key, value) in [
        ("use_builtin_judger", "on"),
        ("n_tests", n_text.as_str()),
        ("n_ex_tests", "0"),
        ("n_sample_tests", "0"),
        ("time_limit", "1"),
        ("memory_limit", "128"),
        ("output_limit", "64"),
    ] {
        assert_eq!(conf.get(key), Some(&value), "{key} in\n{text}");
    }
    assert!(!conf.contains_key("use_builtin_checker"), "chk.cpp checks");
    for i in 1..=n {
        for (pre, suf) in [("input_pre", "input_suf"), ("output_pre", "output_suf")] {
            let name = format!("{}{i}.{}", conf[pre], conf[suf]);
            assert!(archive.names().contains(&name.as_str()), "{name}");
        }
    }
}

#[test]
fn every_judge_takes_the_cases_byte_for_byte() {
    // Eleven cases: 10 and 11 come after 9, as the folder's natural order has them.
    let dir = test_set("every", 11);
    for judge in JUDGES {
        let out = dir.with_file_name(format!("{judge}.zip"));
        let run = export(&dir, judge, &out);
        assert!(run.status.success(), "{judge}: {}", common::stderr(&run));
        let size = fs::metadata(&out).unwrap().len();
        let archive = read_zip(&fs::read(&out).unwrap());
        let files = archive.names().len();
        let title = match judge {
            "luogu" => "Luogu",
            "hydro" => "HydroOJ",
            "uoj" => "UOJ",
            "polygon" => "Polygon",
            _ => "the ICPC problem package (DOMjudge, Kattis)",
        };
        let mut said = format!(
            "wrote {} for {title}: 11 cases, {files} files in {size} bytes\n",
            out.display()
        );
        if judge == "polygon" {
            said.push_str(
                "files/testlib.h is not in it: Polygon provides its own; for a converter, \
                 add it with --testlib (scripts/fetch-testlib.sh fetches it)\n",
            );
        }
        assert_eq!(common::stdout(&run), said);
        check_package(&archive, judge, &dir, 11);
    }
}

#[test]
fn the_same_test_set_gives_the_same_archive() {
    let dir = test_set("same", 3);
    let (a, b) = (dir.with_file_name("a.zip"), dir.with_file_name("b.zip"));
    assert!(export(&dir, "hydro", &a).status.success());
    assert!(export(&dir, "hydro", &b).status.success());
    assert_eq!(fs::read(a).unwrap(), fs::read(b).unwrap());
}

#[test]
fn only_nothing_an_empty_file_or_an_archive_of_ours_is_replaced() {
    let dir = test_set("place", 2);
    let parent = dir.parent().unwrap().to_path_buf();
    let out = parent.join("p.zip");
    // A user's file stays as it was, and so does a folder.
    fs::write(&out, b"my notes").unwrap();
    let run = export(&dir, "luogu", &out);
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        common::stderr(&run),
        format!(
            "duckchess: export: {} exists and is not a package export wrote: refusing to \
             replace it; give a new name\n",
            out.display()
        )
    );
    assert_eq!(fs::read(&out).unwrap(), b"my notes");
    let run = export(&dir, "luogu", &parent);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        common::stderr(&run).ends_with(" is a directory\n"),
        "{}",
        common::stderr(&run)
    );
    // An empty file is taken, and an archive of ours replaced by another.
    fs::write(&out, b"").unwrap();
    assert!(export(&dir, "luogu", &out).status.success());
    assert!(read_zip(&fs::read(&out).unwrap())
        .comment
        .contains("--for luogu"));
    assert!(export(&dir, "uoj", &out).status.success());
    let archive = read_zip(&fs::read(&out).unwrap());
    check_package(&archive, "uoj", &dir, 2);
    // Nothing is left beside it.
    let mut names: Vec<String> = fs::read_dir(&parent)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["p.zip", "set"]);
}

#[test]
fn a_test_set_that_is_wrong_is_not_packaged() {
    let dir = test_set("wrong", 3);
    let out = dir.with_file_name("w.zip");
    let refused = |code: i32, message: String| {
        let run = export(&dir, "polygon", &out);
        assert_eq!(run.status.code(), Some(code), "{}", common::stderr(&run));
        assert_eq!(
            common::stderr(&run),
            format!("duckchess: export: {message}\n")
        );
        assert!(!out.exists(), "nothing written");
    };
    let path = |name: &str| dir.join(name).display().to_string();
    // An input validate refuses.
    let good_in = fs::read(dir.join("3.in")).unwrap();
    fs::write(dir.join("3.in"), "1\n0 0 10 0\n").unwrap();
    refused(
        3,
        format!(
            "{}: line 2, column 5: xt = 10 is outside 0..=9",
            path("3.in")
        ),
    );
    fs::write(dir.join("3.in"), &good_in).unwrap();
    // An answer that is not the judge's.
    let good_ans = fs::read_to_string(dir.join("3.ans")).unwrap();
    let first = good_ans.lines().next().unwrap().to_string();
    let wrong = good_ans.replacen(&first, "red car;NA;yes;no", 1);
    fs::write(dir.join("3.ans"), wrong).unwrap();
    refused(
        3,
        format!(
            "{}: line 1: the judge answers \"{first}\", the file has \"red car;NA;yes;no\"",
            path("3.ans")
        ),
    );
    // One that differs only in what online judges ignore is kept as it is.
    let spaced = good_ans.replace('\n', " \n");
    fs::write(dir.join("3.ans"), &spaced).unwrap();
    assert!(export(&dir, "luogu", &out).status.success());
    assert_eq!(
        read_zip(&fs::read(&out).unwrap()).get("3.out"),
        spaced.as_bytes()
    );
    fs::remove_file(&out).unwrap();
    // An input without an answer.
    fs::write(dir.join("4.in"), "0\n").unwrap();
    refused(
        1,
        format!(
            "{0}.in has no {0}.out or {0}.ans beside it (name the file alone to take the \
             judge's answer)",
            path("4")
        ),
    );
    fs::remove_file(dir.join("4.in")).unwrap();
    // More cases than a package holds.
    for i in 4..=101 {
        fs::write(dir.join(format!("{i}.in")), "0\n").unwrap();
        fs::write(dir.join(format!("{i}.ans")), "").unwrap();
    }
    refused(1, "101 cases: a package holds at most 100".to_string());
}

#[test]
fn an_input_named_alone_takes_the_judges_answer() {
    let dir = test_set("alone", 1);
    fs::remove_file(dir.join("1.ans")).unwrap();
    let out = dir.with_file_name("a.zip");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_duckchess"));
    cmd.args(["export", "--for", "luogu", "-o"])
        .arg(&out)
        .arg(dir.join("1.in"));
    let run = common::run_command(cmd, b"");
    assert!(run.status.success(), "{}", common::stderr(&run));
    let input = fs::read(dir.join("1.in")).unwrap();
    let mut answer = Vec::new();
    duckchess::judge::run::run(&input[..], &mut answer).unwrap();
    let archive = read_zip(&fs::read(&out).unwrap());
    assert_eq!(archive.get("1.in"), input);
    assert_eq!(archive.get("1.out"), answer);
}

#[test]
fn the_command_line_is_checked() {
    for (args, message) in [
        (&["export", "-o", "x.zip"][..], "missing --for JUDGE"),
        (&["export", "--for", "luogu"][..], "missing -o FILE"),
        (
            &["export", "--for", "codeforces", "-o", "x.zip"][..],
            "--for: unknown judge \"codeforces\" (one of luogu, hydro, uoj, polygon, icpc)",
        ),
    ] {
        let run = common::run(args, b"");
        assert_eq!(run.status.code(), Some(2));
        assert_eq!(
            common::stderr(&run),
            format!("duckchess: export: {message} (see 'duckchess export --help')\n")
        );
    }
}

#[test]
#[cfg_attr(
    lacks_unzip,
    ignore = "needs unzip (none was found when the tests were built)"
)]
fn unzip_finds_every_archive_sound() {
    let dir = test_set("unzip", 3);
    for judge in JUDGES {
        let out = dir.with_file_name(format!("{judge}.zip"));
        assert!(export(&dir, judge, &out).status.success());
        let tested = Command::new("unzip").arg("-t").arg(&out).output().unwrap();
        assert!(
            tested.status.success(),
            "{judge}: {}",
            common::stdout(&tested)
        );
        let listed = Command::new("unzip").arg("-Z1").arg(&out).output().unwrap();
        let archive = read_zip(&fs::read(&out).unwrap());
        assert_eq!(
            common::stdout(&listed).lines().collect::<Vec<_>>(),
            archive.names()
        );
        for (name, bytes) in &archive.files {
            let piped = Command::new("unzip")
                .arg("-p")
                .arg(&out)
                .arg(name)
                .output()
                .unwrap();
            assert_eq!(&piped.stdout, bytes, "{judge}: {name}");
        }
    }
}

/// The default suite, written once for the tests that need it.
pub(crate) fn default_suite() -> &'static Path {
    static SUITE: OnceLock<PathBuf> = OnceLock::new();
    SUITE.get_or_init(|| {
        let dir = common::scratch("export", "suite");
        let run = common::run_command(
            {
                let mut cmd = Command::new(env!("CARGO_BIN_EXE_duckchess"));
                cmd.args(["gen", "--suite", "suite"]).current_dir(&dir);
                cmd
            },
            b"",
        );
        assert!(run.status.success(), "{}", common::stderr(&run));
        dir.join("suite")
    })
}

/// How many cases the suite in `dir` holds.
fn cases_in(dir: &Path) -> usize {
    (1..)
        .take_while(|i| dir.join(format!("{i}.in")).is_file())
        .count()
}

#[test]
#[ignore = "slow (about 25 s: the default suite): the full tier runs it"]
fn the_default_suite_exports_for_every_judge() {
    let suite = default_suite();
    let n = cases_in(suite);
    assert!(n >= 14, "{n} cases");
    for judge in JUDGES {
        let out = suite.with_file_name(format!("suite-{judge}.zip"));
        let run = export(suite, judge, &out);
        assert!(run.status.success(), "{judge}: {}", common::stderr(&run));
        check_package(&read_zip(&fs::read(&out).unwrap()), judge, suite, n);
    }
}

/// The Polygon package's validator and checker, compiled against the pinned testlib.h
/// that `scripts/fetch-testlib.sh` fetches: their paths.
#[cfg(not(lacks_testlib))]
fn testlib_programs(archive: &Archive) -> (PathBuf, PathBuf) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-testlib");
    fs::create_dir_all(&dir).unwrap();
    let fetched = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/fetch-testlib.sh"))
        .arg(dir.join("testlib.h"))
        .output()
        .expect("bash runs");
    assert!(
        fetched.status.success(),
        "cannot run here: testlib.h could not be fetched: {}",
        common::stderr(&fetched)
    );
    let children: Vec<_> = [
        ("validator", "files/val.cpp"),
        ("checker", "files/check.cpp"),
    ]
    .into_iter()
    .map(|(name, path)| {
        let source = dir.join(format!("{name}.cpp"));
        fs::write(&source, archive.get(path)).unwrap();
        let program = dir.join(name);
        let child = Command::new("g++")
            .arg("-o")
            .arg(&program)
            .arg(&source)
            .spawn()
            .expect("cannot run here: g++ is not installed (apt-get install g++)");
        (child, program)
    })
    .collect();
    let mut programs = children.into_iter().map(|(mut child, program)| {
        assert!(
            child.wait().unwrap().success(),
            "g++ failed on {}",
            program.display()
        );
        program
    });
    (programs.next().unwrap(), programs.next().unwrap())
}

/// Inputs that `validate` refuses, each breaking one rule of the strict format.
#[cfg(not(lacks_testlib))]
const INVALID: [&str; 28] = [
    "",
    "\n",
    "1",
    "1\n",
    "1\n0 0 1 0",
    "1\n0 0 1 0\n\n",
    "1\n0 0 1 0\n0 0 1 0\n",
    "2\n0 0 1 0\n",
    "1\r\n0 0 1 0\r\n",
    "01\n0 0 1 0\n",
    "+1\n0 0 1 0\n",
    "-0\n",
    " 1\n0 0 1 0\n",
    "1 \n0 0 1 0\n",
    "1\n0  0 1 0\n",
    "1\n 0 0 1 0\n",
    "1\n0 0 1 0 \n",
    "1\n0\t0 1 0\n",
    "1\n0 0 1\n",
    "1\n0 0 1 0 5\n",
    "1\n0 0 10 0\n",
    "1\n0 0 1 9\n",
    "1\n-1 0 1 0\n",
    "1\n00 0 1 0\n",
    "1\n0 0 1 a\n",
    "99999999999999999999\n",
    "1001\n",
    "1\n0 0 1 0\n ",
];

/// Outputs for an answer `answer`, each changing it in one way the comparison counts
/// or does not.
#[cfg(not(lacks_testlib))]
fn outputs(answer: &str) -> Vec<String> {
    let lines: Vec<&str> = answer.lines().collect();
    let joined = |sep: &str, end: &str| {
        let mut s = lines.join(sep);
        if !lines.is_empty() {
            s.push_str(end);
        }
        s
    };
    let mut out = vec![
        answer.to_string(),
        joined("\r\n", "\r\n"),
        joined(" \n", " \n"),
        joined("\t\n", "\n"),
        joined("\n", ""),
        joined("\n", "\n\n\n"),
        joined("\n", "\n  \n\t\n"),
        joined("\n", "\x0c\x0b\n"),
        format!("{answer}x\n"),
        format!("{answer}\n \nx\n"),
        format!(" {answer}"),
        String::new(),
        "\n".to_string(),
        answer.replacen(' ', "  ", 1),
        answer.replacen(';', " ;", 1),
        answer.replacen("no", "No", 1),
        answer.replacen("no", "yes", 1),
        answer.replacen('\n', "\n\n", 1),
        answer.replacen('\n', "\r\r\n", 1),
        answer.replacen('\n', "\0\n", 1),
        answer.replacen(';', "\r;", 1),
    ];
    if lines.len() > 1 {
        out.push(lines[..lines.len() - 1].join("\n") + "\n");
        out.push(lines[1..].join("\n") + "\n");
        out.push(answer[..answer.len() / 2].to_string());
    }
    out
}

#[test]
#[cfg_attr(
    lacks_gxx,
    ignore = "needs g++ (none was found when the tests were built)"
)]
#[cfg_attr(
    not(lacks_gxx),
    ignore = "slow (about 60 s: the default suite, testlib built twice): the full tier runs it"
)]
// Built only where testlib.h can be had (build.rs: `lacks_testlib`); elsewhere the test
// below says so.
#[cfg(not(lacks_testlib))]
fn the_polygon_validator_and_checker_agree_with_duckchess() {
    let suite = default_suite();
    let out = suite.with_file_name("polygon.zip");
    assert!(export(suite, "polygon", &out).status.success());
    let archive = read_zip(&fs::read(&out).unwrap());
    let (validator, checker) = testlib_programs(&archive);
    let scratch = common::scratch("export", "testlib");
    let file = |name: &str, bytes: &[u8]| {
        let path = scratch.join(name);
        fs::write(&path, bytes).unwrap();
        path
    };
    let valid_by_testlib = |input: &[u8]| {
        let path = file("input", input);
        let run = Command::new(&validator)
            .stdin(fs::File::open(path).unwrap())
            .output()
            .unwrap();
        run.status.success()
    };
    let ours = |input: &[u8]| validate(input, DEFAULT_MAX_Q).is_ok();
    // Every input of the suite, valid for both.
    let n = cases_in(suite);
    for i in 1..=n {
        let input = archive.get(&format!("tests/{i:02}"));
        assert!(ours(input) && valid_by_testlib(input), "tests/{i:02}");
    }
    // The table of invalid inputs, and more: each answer as an input, an input cut.
    let mut inputs: Vec<Vec<u8>> = INVALID.iter().map(|s| s.as_bytes().to_vec()).collect();
    let first = archive.get("tests/01");
    inputs.push(first[..first.len() - 1].to_vec());
    inputs.push([first, b"\n"].concat());
    inputs.push(archive.get("tests/01.a").to_vec());
    inputs.push(
        b"1000\n"
            .iter()
            .chain(&b"9 8 9 8\n".repeat(1000))
            .copied()
            .collect(),
    );
    inputs.push(b"0\n".to_vec());
    for input in &inputs {
        assert_eq!(
            valid_by_testlib(input),
            ours(input),
            "the validator and validate disagree on {:?}",
            String::from_utf8_lossy(input)
        );
    }
    assert!(
        inputs.iter().filter(|i| ours(i)).count() == 2,
        "the table holds two valid inputs (Q = 1000 at the limits, Q = 0)"
    );
    // The checker: each answer against itself, then outputs that differ in ways the
    // comparison counts or not, for the first case's answer and an empty one.
    let checks = |input: &Path, output: &[u8], answer: &Path| {
        let output = file("output", output);
        let run = Command::new(&checker)
            .arg(input)
            .arg(&output)
            .arg(answer)
            .output()
            .unwrap();
        match run.status.code() {
            Some(0) => true,
            Some(1) => false,
            other => panic!("the checker ended with {other:?}: {}", common::stderr(&run)),
        }
    };
    for i in 1..=n {
        let input = file("case.in", archive.get(&format!("tests/{i:02}")));
        let answer = archive.get(&format!("tests/{i:02}.a"));
        let answer_path = file("case.ans", answer);
        assert!(checks(&input, answer, &answer_path), "case {i}");
    }
    let input = file("case.in", archive.get("tests/01"));
    let mut accepted = 0;
    for answer in [
        String::from_utf8(archive.get("tests/01.a").to_vec()).unwrap(),
        "red car;NA;no;no\nInvalid command\n".to_string(),
        String::new(),
    ] {
        let answer_path = file("case.ans", answer.as_bytes());
        for output in outputs(&answer) {
            let ours = compare(answer.as_bytes(), output.as_bytes()).passed(true);
            accepted += usize::from(ours);
            assert_eq!(
                checks(&input, output.as_bytes(), &answer_path),
                ours,
                "the checker and test's comparison disagree on {:?} for the answer {:?}",
                output.chars().take(200).collect::<String>(),
                answer.chars().take(80).collect::<String>()
            );
        }
    }
    assert!(
        accepted >= 12,
        "the table holds outputs both accept: {accepted}"
    );
}

/// Where testlib.h cannot be had (no Debian package has it, and GitHub may be out of
/// reach), the Polygon programs are not built; the script that fetches it refuses any
/// other file than the pinned one, and says how to give it a copy.
#[cfg(lacks_testlib)]
#[test]
fn without_testlib_the_fetch_script_refuses_a_wrong_copy_and_says_why() {
    eprintln!(
        "note: the Polygon validator and checker are built against testlib.h only where \
         DUCKCHESS_TESTLIB_FROM names a copy when the tests are built"
    );
    let dir = common::scratch("export", "no-testlib");
    let wrong = dir.join("testlib.h");
    fs::write(&wrong, b"not testlib\n").expect("a wrong copy");
    let out = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/fetch-testlib.sh"))
        .arg(dir.join("got.h"))
        .env("DUCKCHESS_TESTLIB_FROM", &wrong)
        .output()
        .expect("bash runs the script");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("testlib.h has SHA-256"), "{err}");
    assert!(!dir.join("got.h").exists(), "nothing written");
    let _ = fs::remove_dir_all(&dir);
}

/// `duckchess export` with more arguments after the judge and the archive.
fn export_with(dir: &Path, judge: &str, out: &Path, more: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_duckchess"));
    cmd.args(["export", "--for", judge, "-o"])
        .arg(out)
        .args(more)
        .arg(dir);
    common::run_command(cmd, b"")
}

#[test]
fn uoj_takes_the_archive_for_any_number_of_cases() {
    for n in [1, 7, 100] {
        let dir = test_set(&format!("uoj-{n}"), n);
        let out = dir.with_file_name("uoj.zip");
        let run = export_with(&dir, "uoj", &out, &["--time", "2", "--memory", "256"]);
        assert!(run.status.success(), "{}", common::stderr(&run));
        let archive = read_zip(&fs::read(&out).unwrap());
        assert_eq!(uoj_sync(&archive), Ok(()), "{n} cases");
        let conf = String::from_utf8(archive.get("problem.conf").to_vec()).unwrap();
        assert!(
            conf.contains("\ntime_limit 2\nmemory_limit 256\n"),
            "{conf}"
        );
        assert_eq!(
            archive.get("std.cpp"),
            include_bytes!("../../src/export/reference.cpp")
        );
    }
    // The checks refuse what UOJ refuses: no std, points that do not add up, a key
    // twice, a case's file missing.
    let dir = test_set("uoj-broken", 3);
    let out = dir.with_file_name("uoj.zip");
    assert!(export(&dir, "uoj", &out).status.success());
    let archive = read_zip(&fs::read(&out).unwrap());
    let broken = |edit: &dyn Fn(&mut Archive)| {
        let mut copy = Archive {
            files: archive.files.clone(),
            comment: archive.comment.clone(),
        };
        edit(&mut copy);
        uoj_sync(&copy).unwrap_err()
    };
    let conf = |a: &mut Archive, edit: &dyn Fn(&str) -> String| {
        let at = a.names().iter().position(|n| *n == "problem.conf").unwrap();
        a.files[at].1 = edit(&String::from_utf8_lossy(&a.files[at].1)).into_bytes();
    };
    let without = |name: &'static str| move |a: &mut Archive| a.files.retain(|(n, _)| n != name);
    type Edit<'a> = &'a dyn Fn(&mut Archive);
    let table: [(Edit, &str); 5] = [
        (&without("std.cpp"), "找不到本题的 std"),
        (
            &|a| conf(a, &|t| t.replace("point_score_1 34", "point_score_1 33")),
            "the points add up to 99, not 100",
        ),
        (
            &|a| conf(a, &|t| format!("{t}n_tests 3\n")),
            "syntax error: duplicate keys (n_tests)",
        ),
        (&without("duckchess3.ans"), "file duckchess3.ans not found"),
        (
            &|a| conf(a, &|t| t.replace("n_tests 3", "n_tests 03")),
            "n_tests must be a non-negative integer",
        ),
    ];
    for (edit, message) in table {
        assert_eq!(broken(edit), message);
    }
}

#[test]
fn the_limits_given_are_every_judges_limits() {
    let dir = test_set("limits", 2);
    for judge in JUDGES {
        let out = dir.with_file_name(format!("{judge}.zip"));
        let run = export_with(&dir, judge, &out, &["--time", "3", "--memory", "512"]);
        assert!(run.status.success(), "{}", common::stderr(&run));
        let archive = read_zip(&fs::read(&out).unwrap());
        let (file, parts): (&str, &[&str]) = match judge {
            "luogu" => (
                "config.yml",
                &["  timeLimit: 3000\n", "  memoryLimit: 524288\n"],
            ),
            "hydro" => ("config.yaml", &["\ntime: 3s\n", "\nmemory: 512m\n"]),
            "uoj" => (
                "problem.conf",
                &["\ntime_limit 3\n", "\nmemory_limit 512\n"],
            ),
            "polygon" => (
                "problem.xml",
                &[
                    "<time-limit>3000</time-limit>",
                    "<memory-limit>536870912</memory-limit>",
                ],
            ),
            _ => ("problem.yaml", &["\n  memory: 512\n"]),
        };
        let text = String::from_utf8(archive.get(file).to_vec()).unwrap();
        for part in parts {
            assert!(text.contains(part), "{judge}: {part:?} in\n{text}");
        }
        if judge == "icpc" {
            let ini = archive.get("domjudge-problem.ini");
            assert!(String::from_utf8_lossy(ini).contains("timelimit = 3\n"));
        }
    }
    for (args, message) in [
        (
            &["--time", "0"][..],
            "--time: 0 is below the smallest allowed, 1",
        ),
        (
            &["--time", "61"][..],
            "--time: 61 is above the largest allowed, 60",
        ),
        (&["--time", "1.5"][..], "--time: "),
        (
            &["--memory", "8"][..],
            "--memory: 8 is below the smallest allowed, 16",
        ),
    ] {
        let run = export_with(&dir, "luogu", &dir.with_file_name("x.zip"), args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(
            common::stderr(&run).starts_with(&format!("duckchess: export: {message}")),
            "{}",
            common::stderr(&run)
        );
    }
}

/// A wrong program of the first held-out set, `program` (`board.cpp`) with the mistake
/// `bug` planted, written to `dir` under `name`.
pub(crate) fn planted(dir: &Path, program: &str, bug: &str, name: &str) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/independent")
        .join(program);
    let text = format!("#define {bug} 1\n{}", fs::read_to_string(source).unwrap());
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path
}

#[test]
#[cfg_attr(
    lacks_gxx,
    ignore = "needs g++ (none was found when the tests were built)"
)]
fn named_solutions_are_tried_on_every_case_first() {
    let dir = test_set("named", 6);
    let scratch = dir.parent().unwrap().to_path_buf();
    let caught = planted(&scratch, "board.cpp", "BOARD_CAR_NAME", "car_name.cpp");
    let reference = scratch.join("mine.cpp");
    fs::write(&reference, include_str!("../../src/export/reference.cpp")).unwrap();
    let out = scratch.join("p.zip");
    let path = |p: &Path| p.display().to_string();
    let run = export_with(
        &dir,
        "polygon",
        &out,
        &["--wrong", &path(&caught), "--accepted", &path(&reference)],
    );
    assert!(run.status.success(), "{}", common::stderr(&run));
    let said = common::stdout(&run);
    let lines: Vec<&str> = said.lines().collect();
    assert!(lines[0].starts_with("solution "), "{said}");
    assert!(
        lines[1].starts_with("mine.cpp ") && lines[1].ends_with(" ok"),
        "{said}"
    );
    assert!(lines[1].contains(" AC on all 6 "), "{said}");
    assert!(
        lines[2].starts_with("car_name.cpp ") && lines[2].ends_with(" ok"),
        "{said}"
    );
    assert!(lines[2].contains(" WA on "), "{said}");
    let archive = read_zip(&fs::read(&out).unwrap());
    let xml = String::from_utf8(archive.get("problem.xml").to_vec()).unwrap();
    assert!(xml.contains(
        "<solution tag=\"wrong-answer\">\n                <source path=\"solutions/car_name.cpp\" type=\"cpp.g++17\"/>"
    ), "{xml}");
    assert!(xml.contains("<source path=\"solutions/mine.cpp\""), "{xml}");
    assert_eq!(
        archive.get("solutions/car_name.cpp"),
        fs::read(&caught).unwrap()
    );
    fs::remove_file(&out).unwrap();

    // A wrong program the data misses: the table says so, and nothing is written. An
    // input where no car moves misses the car's name.
    let quiet = scratch.join("quiet");
    fs::create_dir_all(&quiet).unwrap();
    fs::write(quiet.join("1.in"), "2\n3 0 4 0\n6 0 5 0\n").unwrap();
    let run = export_with(
        &quiet.join("1.in"),
        "icpc",
        &out,
        &["--wrong", &path(&caught)],
    );
    assert_eq!(run.status.code(), Some(4), "{}", common::stderr(&run));
    assert!(
        common::stdout(&run).contains("AC on all 1"),
        "{}",
        common::stdout(&run)
    );
    assert!(common::stdout(&run)
        .lines()
        .nth(1)
        .unwrap()
        .ends_with("NOT CAUGHT: the data passes this wrong solution"));
    assert_eq!(
        common::stderr(&run),
        "duckchess: export: car_name.cpp did not get the verdict expected (see the table): \
         nothing written\n"
    );
    assert!(!out.exists());
    // A correct program named as wrong, a wrong one as accepted: the same.
    let run = export_with(&dir, "icpc", &out, &["--accepted", &path(&caught)]);
    assert_eq!(run.status.code(), Some(4));
    assert!(common::stdout(&run).contains("UNEXPECTED"));
    // A source that does not build, one of no known language, a name a package cannot
    // hold, two of one name.
    let broken = scratch.join("broken.cpp");
    fs::write(&broken, "int main( {\n").unwrap();
    let run = export_with(&dir, "icpc", &out, &["--wrong", &path(&broken)]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        common::stderr(&run)
            .starts_with("duckchess: export: broken.cpp does not build: exit status 1: "),
        "{}",
        common::stderr(&run)
    );
    let java = scratch.join("Main.java");
    fs::write(&java, "class Main {}\n").unwrap();
    let run = export_with(&dir, "icpc", &out, &["--wrong", &path(&java)]);
    assert_eq!(run.status.code(), Some(1));
    assert!(common::stderr(&run).contains("not a source file of a language"));
    let run = export_with(
        &dir,
        "icpc",
        &out,
        &["--wrong", &path(&caught), "--wrong", &path(&caught)],
    );
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        common::stderr(&run),
        "duckchess: export: two solutions are named car_name.cpp: rename one\n"
    );
    assert!(!out.exists());
}

/// The ICPC package's input validator, plain C++: built with g++ and run on an input,
/// whether it accepts it (exit status 42; 43 refuses, anything else fails the test).
#[cfg(not(lacks_gxx))]
fn icpc_validator() -> impl Fn(&[u8]) -> bool {
    let dir = common::scratch("export", "icpc-validator");
    let source = dir.join("validate.cpp");
    fs::write(
        &source,
        include_str!("../../src/export/input_validator.cpp"),
    )
    .unwrap();
    let program = dir.join("validate");
    common::gxx_strict(&source, &program);
    move |input: &[u8]| {
        let path = dir.join("input");
        fs::write(&path, input).unwrap();
        let run = Command::new(&program)
            .stdin(fs::File::open(&path).unwrap())
            .output()
            .unwrap();
        match run.status.code() {
            Some(42) => true,
            Some(43) => false,
            other => panic!("the validator ended with {other:?}"),
        }
    }
}

#[test]
#[cfg_attr(
    lacks_gxx,
    ignore = "needs g++ (none was found when the tests were built)"
)]
fn the_icpc_validator_refuses_what_validate_refuses() {
    #[cfg(not(lacks_gxx))]
    {
        use duckchess::export::polygon::VALIDATOR_TESTS;
        use duckchess::show::format::{validate, DEFAULT_MAX_Q};
        let accepts = icpc_validator();
        let mut inputs: Vec<Vec<u8>> = VALIDATOR_TESTS.iter().map(|(i, _)| i.to_vec()).collect();
        let dir = test_set("icpc-inputs", 12);
        for i in 1..=12 {
            let input = fs::read(dir.join(format!("{i}.in"))).unwrap();
            // As problemtools changes a valid input: spaces and newlines doubled, zeros
            // before numbers, junk at the end.
            let text = String::from_utf8(input.clone()).unwrap();
            inputs.push(text.replacen(' ', "  ", 1).into_bytes());
            inputs.push(text.replacen('\n', "\n ", 1).into_bytes());
            inputs.push(text.replacen('\n', "\n\n", 1).into_bytes());
            inputs.push(format!("0{text}").into_bytes());
            inputs.push(format!("{text}junk").into_bytes());
            inputs.push(input);
        }
        inputs.push(
            b"1000\n"
                .iter()
                .chain(&b"9 8 9 8\n".repeat(1000))
                .copied()
                .collect(),
        );
        inputs.push(
            b"1001\n"
                .iter()
                .chain(&b"0 0 0 0\n".repeat(1001))
                .copied()
                .collect(),
        );
        inputs.push(b"99999999999999999999\n".to_vec());
        let mut valid = 0;
        for input in &inputs {
            let ours = validate(&input[..], DEFAULT_MAX_Q).is_ok();
            valid += usize::from(ours);
            assert_eq!(
                accepts(input),
                ours,
                "the ICPC validator and validate disagree on {:?}",
                String::from_utf8_lossy(input)
            );
        }
        assert!(
            valid >= 15 && inputs.len() - valid >= 70,
            "{valid} of {}",
            inputs.len()
        );
    }
}

#[test]
fn a_testlib_given_goes_into_polygons_files() {
    let dir = test_set("testlib", 1);
    let header = dir.with_file_name("testlib.h");
    fs::write(&header, "// a stand-in for testlib.h\n").unwrap();
    let out = dir.with_file_name("p.zip");
    let given = header.display().to_string();
    let run = export_with(&dir, "polygon", &out, &["--testlib", &given]);
    assert!(run.status.success(), "{}", common::stderr(&run));
    assert!(!common::stdout(&run).contains("testlib.h is not in it"));
    let archive = read_zip(&fs::read(&out).unwrap());
    assert_eq!(archive.get("files/testlib.h"), fs::read(&header).unwrap());
    let xml = String::from_utf8(archive.get("problem.xml").to_vec()).unwrap();
    assert!(xml.contains("<file path=\"files/testlib.h\" type=\"h.g++\"/>"));
    // UOJ brings its own: the archive holds none.
    let run = export_with(&dir, "uoj", &out, &["--testlib", &given]);
    assert!(run.status.success());
    let archive = read_zip(&fs::read(&out).unwrap());
    assert!(!archive.names().iter().any(|n| n.contains("testlib")));
    // A file that is not there stops export before anything is read.
    let missing = dir.with_file_name("none.h").display().to_string();
    let run = export_with(&dir, "polygon", &out, &["--testlib", &missing]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        common::stderr(&run).starts_with(&format!(
            "duckchess: export: --testlib: cannot read {missing}"
        )),
        "{}",
        common::stderr(&run)
    );
}

#[test]
fn an_archive_name_near_the_systems_limit_is_written() {
    let dir = test_set("long-name", 1);
    // 255 bytes is the limit of a name on the usual file systems.
    let out = dir.with_file_name(format!("{}.zip", "a".repeat(251)));
    let run = export(&dir, "luogu", &out);
    assert!(run.status.success(), "{}", common::stderr(&run));
    assert_eq!(read_zip(&fs::read(&out).unwrap()).names().len(), 3);
    let mut names = common::names_in(dir.parent().unwrap());
    names.retain(|n| n != "set");
    assert_eq!(names.len(), 1, "nothing left beside it: {names:?}");
}
