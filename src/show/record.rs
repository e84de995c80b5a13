//! What `test`, `stress` and `diagnose` print with `--json`: JSON Lines, one object per
//! line, each with the schema's name and version first ([`SCHEMA`]), for an editor or a
//! script to read. The schema is documented in `docs/contestants.md` ("Results as
//! JSON"); a change that removes or renames a field raises its version, one that adds
//! a field does not.

use crate::cli::json::Json;
use crate::judge::scan::Cmd;
use crate::sandbox::memory::{Peak, MIB};
use crate::show::diagnose::{CaseVerdict, Explained};
use std::time::Duration;

/// The schema's name and version, the first member of every object.
pub const SCHEMA: &str = "duckchess.results/1";

/// The head of every object: the schema, the tool that wrote it and what the object
/// is (`case`, `failure`, `mistake`, `summary`).
pub fn head(tool: &str, what: &str) -> Vec<(String, Json)> {
    vec![
        ("schema".to_string(), Json::str(SCHEMA)),
        ("tool".to_string(), Json::str(tool)),
        ("type".to_string(), Json::str(what)),
    ]
}

/// A peak of memory: megabytes (of 2^20 bytes) and bytes, whether it is only a bound,
/// and how it was counted; `null` where it was not measured.
pub fn memory(peak: Option<Peak>) -> Json {
    match peak {
        None => Json::Null,
        Some(p) => Json::obj([
            (
                "mb",
                Json::Num((p.bytes as f64 / MIB as f64 * 10.0).round() / 10.0),
            ),
            ("bytes", Json::count(p.bytes)),
            ("at_most", Json::Bool(p.at_most)),
            ("counted", Json::str(p.counting.to_string())),
        ]),
    }
}

fn command(c: Cmd) -> Json {
    Json::Arr(c.iter().map(|&n| Json::int(n)).collect())
}

fn text(t: &Option<String>) -> Json {
    t.as_ref().map_or(Json::Null, |t| Json::str(t.clone()))
}

/// A wrong answer's first differing line; `null` for none.
pub fn difference(d: Option<&Explained>) -> Json {
    match d {
        None => Json::Null,
        Some(d) => Json::obj([
            ("line", Json::count(d.line)),
            ("command", d.command.map_or(Json::Null, command)),
            ("input_line", d.input_line.map_or(Json::Null, Json::count)),
            ("expected", text(&d.expected)),
            ("actual", text(&d.actual)),
            ("differs", Json::str(d.differs.clone())),
            ("why", text(&d.why)),
        ]),
    }
}

/// The members every judged run has: its verdict, time, memory and first difference,
/// and the report a person reads (the lines `test` prints for it).
pub fn judged(
    verdict: &CaseVerdict,
    elapsed: Duration,
    peak: Option<Peak>,
    explained: Option<&Explained>,
    report: &str,
) -> Vec<(String, Json)> {
    vec![
        ("verdict".to_string(), Json::str(verdict.word())),
        (
            "time_ms".to_string(),
            Json::count(elapsed.as_millis().min(u64::MAX as u128) as u64),
        ),
        ("memory".to_string(), memory(peak)),
        ("difference".to_string(), difference(explained)),
        ("report".to_string(), Json::str(report)),
    ]
}

/// One object of `members`, written on one line with its end.
pub fn line(members: Vec<(String, Json)>) -> String {
    format!("{}\n", Json::Obj(members).written())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::memory::Counting;

    #[test]
    fn a_case_is_one_line_with_the_schema_first() {
        let mut members = head("test", "case");
        members.push(("name".to_string(), Json::str("samples/x")));
        let explained = Explained {
            line: 3,
            command: Some([0, 0, 1, 0]),
            input_line: Some(4),
            expected: Some("red car;NA;no;no".to_string()),
            actual: None,
            differs: "a missing line".to_string(),
            why: None,
        };
        let peak = Peak {
            bytes: 3 * MIB / 2,
            at_most: false,
            counting: Counting::ControlGroup,
        };
        members.extend(judged(
            &CaseVerdict::WrongAnswer(String::new()),
            Duration::from_millis(12),
            Some(peak),
            Some(&explained),
            "WA  samples/x\n",
        ));
        let written = line(members);
        assert!(written.ends_with("}\n") && written.lines().count() == 1);
        let back = Json::parse(written.trim_end().as_bytes()).expect("JSON");
        assert_eq!(back.get("schema").and_then(Json::as_str), Some(SCHEMA));
        assert_eq!(back.get("verdict").and_then(Json::as_str), Some("WA"));
        assert_eq!(back.get("time_ms").and_then(Json::as_int), Some(12));
        let memory = back.get("memory").expect("memory");
        assert_eq!(
            memory.get("counted").and_then(Json::as_str),
            Some("control group")
        );
        assert_eq!(memory.get("mb"), Some(&Json::Num(1.5)));
        let d = back.get("difference").expect("a difference");
        assert_eq!(d.get("line").and_then(Json::as_int), Some(3));
        assert_eq!(d.get("actual"), Some(&Json::Null));
        assert_eq!(
            d.get("command")
                .and_then(Json::as_array)
                .map(|a| a.iter().filter_map(Json::as_int).collect::<Vec<_>>()),
            Some(vec![0, 0, 1, 0])
        );
    }
}
