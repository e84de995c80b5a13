//! `--json` of `test`, `stress` and `diagnose`, read back as an editor reads it: every
//! line one JSON object of the documented schema (`docs/contestants.md`, "Results as
//! JSON"), the fields each type of object promises, and the VS Code problem matcher of
//! `docs/editors.md` applied to it (with Node.js's regular expressions, as VS Code's).

use crate::common;
use duckchess::cli::json::Json;
use duckchess::show::record::SCHEMA;
use std::fs;
use std::path::Path;
use std::process::Command;

/// Each line of `stdout` as an object of the schema, written by `tool`.
fn read(stdout: &[u8], tool: &str) -> Vec<Json> {
    let text = String::from_utf8(stdout.to_vec()).expect("UTF-8");
    assert!(text.ends_with('\n'), "{text}");
    text.lines()
        .map(|line| {
            let json = Json::parse(line.as_bytes()).unwrap_or_else(|e| panic!("{e}: {line}"));
            let Json::Obj(members) = &json else {
                panic!("not an object: {line}")
            };
            let keys: Vec<&str> = members.iter().take(3).map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, ["schema", "tool", "type"], "{line}");
            assert_eq!(json.get("schema").and_then(Json::as_str), Some(SCHEMA));
            assert_eq!(json.get("tool").and_then(Json::as_str), Some(tool));
            json
        })
        .collect()
}

fn kind(j: &Json) -> &str {
    j.get("type").and_then(Json::as_str).expect("a type")
}

fn field<'a>(j: &'a Json, key: &str) -> &'a Json {
    j.get(key)
        .unwrap_or_else(|| panic!("no {key} in {}", j.written()))
}

/// A wrong answer's difference has every field, typed.
fn check_difference(d: &Json) {
    assert!(field(d, "line").as_int().is_some_and(|l| l >= 1));
    let command = field(d, "command").as_array().expect("a command");
    assert_eq!(command.len(), 4);
    assert!(field(d, "input_line").as_int().is_some());
    assert!(field(d, "expected").as_str().is_some());
    assert!(matches!(field(d, "actual"), Json::Str(_) | Json::Null));
    assert!(field(d, "differs").as_str().is_some_and(|t| !t.is_empty()));
    assert!(field(d, "why").as_str().is_some());
}

#[test]
fn test_writes_a_case_per_line_and_a_summary() {
    let dir = common::sample_folder("json", "test");
    let wrong = common::printing(&dir, "wrong", "nonsense\n");
    let out = common::run(
        &[
            "test",
            &dir.display().to_string(),
            "--cmd",
            &wrong,
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let objects = read(&out.stdout, "test");
    assert_eq!(
        objects.iter().map(kind).collect::<Vec<_>>(),
        ["case", "summary"]
    );
    let case = &objects[0];
    assert_eq!(field(case, "verdict").as_str(), Some("WA"));
    assert_eq!(
        field(case, "file").as_str(),
        Some(dir.join("case.in").display().to_string().as_str())
    );
    assert!(field(case, "time_ms").as_int().is_some());
    let memory = field(case, "memory");
    assert!(field(memory, "mb").written().parse::<f64>().is_ok());
    assert!(field(memory, "counted").as_str().is_some());
    let d = field(case, "difference");
    check_difference(d);
    assert_eq!(field(d, "actual").as_str(), Some("nonsense"));
    assert_eq!(field(d, "line").as_int(), Some(1));
    let report = field(case, "report").as_str().expect("the report");
    assert!(report.starts_with("WA  "), "{report}");
    assert!(!report.contains('\x1b'), "no colour in JSON");
    assert_eq!(field(case, "kept"), &Json::Null);
    assert_eq!(field(&objects[1], "passed").as_int(), Some(0));
    assert_eq!(field(&objects[1], "failed").as_int(), Some(1));
    // The judge itself: AC, no difference.
    let out = common::run(&["test", "--samples", "--json"], b"");
    let objects = read(&out.stdout, "test");
    for case in objects.iter().filter(|o| kind(o) == "case") {
        assert_eq!(field(case, "verdict").as_str(), Some("AC"));
        assert_eq!(field(case, "difference"), &Json::Null);
        assert_eq!(
            field(case, "memory"),
            &Json::Null,
            "in process: not measured"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn stress_writes_each_failure_and_a_summary() {
    let dir = common::sample_folder("json", "stress");
    let wrong = common::printing(&dir, "wrong", "nonsense\n");
    let save = dir.join("found.in");
    let out = common::run(
        &[
            "stress",
            "--cmd",
            &wrong,
            "--seed",
            "1",
            "--cases",
            "50",
            "--json",
            "--save",
            &save.display().to_string(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let objects = read(&out.stdout, "stress");
    let kinds: Vec<&str> = objects.iter().map(kind).collect();
    assert_eq!(kinds.last(), Some(&"summary"), "{kinds:?}");
    let failures = &objects[..objects.len() - 1];
    assert!(!failures.is_empty() && failures.iter().all(|f| kind(f) == "failure"));
    let summary = objects.last().expect("a summary");
    assert_eq!(
        field(summary, "failures").as_int(),
        Some(failures.len() as i64)
    );
    assert_eq!(field(summary, "seed").as_int(), Some(1));
    let mut sizes = Vec::new();
    for f in failures {
        assert!(field(f, "kind")
            .as_str()
            .is_some_and(|k| k.starts_with("WA")));
        let saved = field(f, "saved").as_array().expect("saved");
        assert_eq!(saved.len(), 2);
        let input = saved[0].as_str().expect("a path");
        assert_eq!(
            fs::read_to_string(input).expect("saved input"),
            field(f, "input").as_str().expect("the input")
        );
        assert!(Path::new(saved[1].as_str().expect("a path")).is_file());
        sizes.push(field(f, "commands").as_int().expect("a size"));
        assert_eq!(field(f, "verdict").as_str(), Some("WA"));
        assert!(field(f, "found")
            .as_str()
            .is_some_and(|t| t.starts_with("found")));
    }
    let mut sorted = sizes.clone();
    sorted.sort_unstable();
    assert_eq!(sizes, sorted, "smallest first");
    // Nothing found: the summary alone.
    let out = common::run(
        &[
            "stress",
            "--cmd",
            env!("CARGO_BIN_EXE_duckchess"),
            "--seed",
            "1",
            "--cases",
            "3",
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let objects = read(&out.stdout, "stress");
    assert_eq!(objects.len(), 1);
    assert_eq!(field(&objects[0], "failures").as_int(), Some(0));
    assert_eq!(field(&objects[0], "cases").as_int(), Some(3));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    lacks_gxx,
    ignore = "needs g++ (none was found when the tests were built)"
)]
fn diagnose_writes_each_mistake_and_a_summary() {
    let program = common::planted(&["FLYING_CAPTAIN"]).join("FLYING_CAPTAIN");
    let out = Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .args(["diagnose", "--json", "--cmd"])
        .arg(&program)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let objects = read(&out.stdout, "diagnose");
    let first = &objects[0];
    assert_eq!(kind(first), "mistake");
    assert_eq!(
        field(first, "name").as_str(),
        Some("captains-facing-give-check")
    );
    assert_eq!(field(first, "alike").as_bool(), Some(false));
    assert_eq!(field(first, "explains"), field(first, "failures"));
    for key in ["what", "rule", "witness"] {
        assert!(
            field(first, key).as_str().is_some_and(|t| !t.is_empty()),
            "{key}"
        );
    }
    let summary = objects.last().expect("a summary");
    assert_eq!(kind(summary), "summary");
    assert_eq!(field(summary, "unexplained").as_int(), Some(0));
    assert_eq!(field(summary, "failed"), field(first, "failures"));
}

/// The problem matcher of `docs/editors.md`'s VS Code task, applied by Node.js to what
/// `test --json` prints, finds the wrong case's input file, its line and the message.
#[test]
fn the_editor_guides_problem_matcher_reads_test_json() {
    if Command::new("node").arg("--version").output().is_err() {
        panic!("cannot run here: Node.js is not installed (apt-get install nodejs)");
    }
    let guide = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/editors.md"))
        .expect("the editors' guide");
    let regexp = guide
        .lines()
        .find_map(|l| l.trim().strip_prefix("\"regexp\": "))
        .expect("a regexp in the guide")
        .trim_end_matches(',');
    let dir = common::sample_folder("json", "matcher");
    let wrong = common::printing(&dir, "wrong", "nonsense\n");
    let out = common::run(
        &[
            "test",
            &dir.display().to_string(),
            "--cmd",
            &wrong,
            "--json",
        ],
        b"",
    );
    let script = format!(
        "const re = new RegExp(JSON.parse({regexp:?})); \
         const lines = require('fs').readFileSync(0, 'utf8').split('\\n'); \
         for (const l of lines) {{ const m = re.exec(l); \
         if (m) console.log([m[1], m[2], m[3]].join('|')); }}"
    );
    let mut node = Command::new("node")
        .args(["-e", &script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("node runs");
    use std::io::Write;
    node.stdin
        .take()
        .expect("stdin")
        .write_all(&out.stdout)
        .expect("written");
    let found = node.wait_with_output().expect("node ends");
    let found = String::from_utf8_lossy(&found.stdout).into_owned();
    assert_eq!(
        found,
        format!(
            "{}|2|a different line: `nonsense` where the answer is `Invalid command`\n",
            dir.join("case.in").display()
        )
    );
    let _ = fs::remove_dir_all(&dir);
}
