//! Reading a subcommand's arguments against its [`Spec`]: options with and without a
//! value, operands, conflicting options, and typed values whose errors say what is wrong
//! (not a number, or out of range) rather than only "expected a number".

use super::spec::Spec;
use std::ffi::{OsStr, OsString};
use std::time::Duration;

/// Parsed arguments of one subcommand: options (with or without a value) and operands.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Operands, in order, as text (an operand that is not UTF-8 is shown lossily here,
    /// and [`Parsed::operands`] refuses it; [`Parsed::file`] takes it as it is).
    operands: Vec<String>,
    /// The same operands as the operating system gave them.
    os_operands: Vec<OsString>,
    options: Vec<(&'static str, Option<String>)>,
}

/// Whether `arg` reads as a number (`-3`, `-0.5`): an operand or a value, not an option.
fn is_number(arg: &str) -> bool {
    arg.len() > 1 && arg[1..].bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// Whether `arg` looks like an option (so it is never taken as another option's value).
fn is_option(arg: &str) -> bool {
    arg.starts_with('-') && arg != "-" && !is_number(arg)
}

/// Parses `args` against `spec`: valued options take `--opt VALUE` or `--opt=VALUE`
/// (once: a repeated one is an error, not a silent override), flags take none (and may
/// be repeated), `-h`/`--help` is always a flag, `--` ends the options, `-` is an
/// operand. Options and operands may come in any order. A value that looks like an
/// option is refused (`--from --ascii` is a missing value, not the position
/// "--ascii"); `--from=--ascii` still says it explicitly. Options the spec lists as
/// conflicting may not both be given.
///
/// Arguments come as the operating system gives them: an operand need not be UTF-8 (a
/// file name), but an option, or an option's value, must be.
pub fn parse(spec: &Spec, args: &[OsString]) -> Result<Parsed, String> {
    let mut parsed = Parsed::default();
    let texts: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut rest = texts.iter().zip(args).peekable();
    let operand = |parsed: &mut Parsed, text: &String, os: &OsString| {
        parsed.operands.push(text.clone());
        parsed.os_operands.push(os.clone());
    };
    while let Some((arg, os)) = rest.next() {
        if arg == "--" {
            for (text, os) in rest.by_ref() {
                operand(&mut parsed, text, os);
            }
            break;
        }
        if !is_option(arg) {
            operand(&mut parsed, arg, os);
            continue;
        }
        if os.to_str().is_none() {
            return Err(format!("option {arg:?} is not valid UTF-8"));
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        if name == "-h" || name == "--help" {
            if inline.is_some() {
                return Err("--help takes no value".to_string());
            }
            parsed.options.push(("--help", None));
            continue;
        }
        let opt = spec
            .options
            .iter()
            .find(|o| o.name == name || o.short == Some(name))
            .or_else(|| {
                // The other name of the same idea, where the spec has one of the two.
                let other = SYNONYMS.iter().find_map(|&(a, b)| match name {
                    n if n == a => Some(b),
                    n if n == b => Some(a),
                    _ => None,
                })?;
                spec.options.iter().find(|o| o.name == other)
            })
            .ok_or_else(|| unknown(spec, name))?;
        match opt.value {
            None if inline.is_some() => return Err(format!("{} takes no value", opt.name)),
            None => parsed.options.push((opt.name, None)),
            Some(placeholder) => {
                // The name as the user wrote it (`-o`, not `--output`) in messages.
                let value = match inline {
                    Some(v) => v,
                    None => match rest.next() {
                        Some((v, os)) if !is_option(v) => {
                            if os.to_str().is_none() {
                                return Err(format!("{name}: the value {v:?} is not valid UTF-8"));
                            }
                            v.clone()
                        }
                        _ => return Err(format!("{name} needs a value {placeholder}")),
                    },
                };
                // A second value would silently replace the first: say so instead.
                if let Some(first) = parsed.value(opt.name).filter(|_| !opt.repeats) {
                    return Err(format!(
                        "{name} given twice ({first:?} and {value:?}): give it once"
                    ));
                }
                parsed.options.push((opt.name, Some(value)));
            }
        }
    }
    if !parsed.flag("--help") {
        for (a, b) in spec.conflicts {
            if parsed.flag(a) && parsed.flag(b) {
                return Err(format!("{a} and {b} cannot be used together"));
            }
        }
    }
    Ok(parsed)
}

/// Options that name the same idea in different subcommands: each is taken for the
/// other where a subcommand has only one of them (`play --movetime 500` thinks 500 ms).
const SYNONYMS: &[(&str, &str)] = &[("--think", "--movetime")];

/// The message for the unknown option `name`, with the option of `spec` it was likely
/// meant to be: one edit away, or the one it starts.
fn unknown(spec: &Spec, name: &str) -> String {
    let near = spec
        .options
        .iter()
        .map(|o| o.name)
        .find(|&o| edits(o, name) <= 2 || (name.len() >= 4 && o.starts_with(name)));
    match near {
        Some(o) => format!("unknown option {name} (did you mean {o}?)"),
        None => format!("unknown option {name}"),
    }
}

/// The edit distance between `a` and `b` (insertions, deletions, substitutions).
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut last = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (last + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            last = here;
        }
    }
    row[b.len()]
}

impl Parsed {
    /// Whether the option `name` (e.g. `--ascii`, or a valued one) was given.
    pub fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| *n == name)
    }

    /// Every value of an option given more than once, in order.
    pub fn values(&self, name: &str) -> Vec<&str> {
        self.options
            .iter()
            .filter(|(n, _)| *n == name)
            .filter_map(|(_, v)| v.as_deref())
            .collect()
    }

    /// The value of `name VALUE`, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The value of `name` as an integer in `min..=max`. The error names the option and
    /// says whether the value is not an integer or out of range, with the range.
    pub fn int(&self, name: &str, min: u64, max: u64) -> Result<Option<u64>, String> {
        self.value(name)
            .map(|v| int_in(v, min, max).map_err(|e| format!("{name}: {e}")))
            .transpose()
    }

    /// The value of `name` as a duration in seconds (decimals allowed), above zero and
    /// at most `max` seconds.
    pub fn seconds(&self, name: &str, max: f64) -> Result<Option<Duration>, String> {
        self.value(name)
            .map(|v| seconds(v, max).map_err(|e| format!("{name}: {e}")))
            .transpose()
    }

    /// The value of `name` as the path of a file or folder to write: an empty one is
    /// a usage error (`--suite ""` would name the current folder).
    pub fn path(&self, name: &str) -> Result<Option<&str>, String> {
        match self.value(name) {
            Some("") => Err(format!("{name}: the path is empty")),
            value => Ok(value),
        }
    }

    /// The operands as text; a usage error when one of them is not valid UTF-8.
    pub fn operands(&self) -> Result<&[String], String> {
        match self.os_operands.iter().position(|o| o.to_str().is_none()) {
            Some(i) => Err(format!(
                "argument {:?} is not valid UTF-8",
                self.operands[i]
            )),
            None => Ok(&self.operands),
        }
    }

    /// The operands as the operating system gave them (file names of any kind).
    pub fn os_operands(&self) -> &[OsString] {
        &self.os_operands
    }

    /// A usage error when any operand was given.
    pub fn no_operands(&self) -> Result<(), String> {
        match self.operands.first() {
            Some(extra) => Err(format!("unexpected argument {extra:?}")),
            None => Ok(()),
        }
    }

    /// The one optional FILE operand as the operating system gave it, any name (`None`
    /// for none or `-`: standard input).
    pub fn file(&self) -> Result<Option<&OsStr>, String> {
        match self.os_operands.as_slice() {
            [] => Ok(None),
            [path] if path == "-" => Ok(None),
            [path] => Ok(Some(path)),
            [_, _, ..] => Err(format!(
                "unexpected argument {:?} (expected at most one FILE)",
                self.operands[1]
            )),
        }
    }
}

/// `text` as an integer in `min..=max`: digits only (a leading `+` is fine), with a
/// message that tells "not an integer" from "too small" and "too large", however many
/// digits the text has.
pub fn int_in(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    let negative =
        text.starts_with('-') && text.len() > 1 && text[1..].bytes().all(|b| b.is_ascii_digit());
    if negative {
        return Err(format!("{text} is below the smallest allowed, {min}"));
    }
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "expected an integer from {min} to {max}, found {text:?}"
        ));
    }
    match digits.parse::<u64>() {
        Ok(v) if v < min => Err(format!("{text} is below the smallest allowed, {min}")),
        Ok(v) if v <= max => Ok(v),
        // Too many digits for u64 is above any maximum too.
        _ => Err(format!("{text} is above the largest allowed, {max}")),
    }
}

/// `text` as a positive number of seconds, at most `max`.
pub fn seconds(text: &str, max: f64) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() || *v == f64::INFINITY)
        .ok_or_else(|| format!("expected a number of seconds, found {text:?}"))?;
    if value <= 0.0 {
        return Err(format!("{text} is not above 0 seconds"));
    }
    if value > max {
        return Err(format!(
            "{text} is above the largest allowed, {max} seconds"
        ));
    }
    Ok(Duration::from_secs_f64(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::spec::Opt;

    const SPEC: Spec = Spec {
        name: "demo",
        summary: "a demo",
        usage: &["[--from POSITION] [--ascii] [--think MS | --depth D]"],
        about: "",
        options: &[
            Opt::valued("--from", "POSITION", "start here"),
            Opt::flag("--ascii", "letters"),
            Opt::valued("--think", "MS", "time"),
            Opt::valued("--depth", "D", "depth"),
            Opt::valued("--output", "FILE", "where").short("-o"),
        ],
        conflicts: &[("--think", "--depth")],
        exit: "0 success, 2 usage error",
    };

    fn args(list: &[&str]) -> Vec<std::ffi::OsString> {
        list.iter().map(std::ffi::OsString::from).collect()
    }

    #[test]
    fn a_value_never_swallows_the_next_option() {
        let e = parse(&SPEC, &args(&["--from", "--ascii"])).unwrap_err();
        assert_eq!(e, "--from needs a value POSITION");
        let p = parse(&SPEC, &args(&["--from=--ascii"])).unwrap();
        assert_eq!(p.value("--from"), Some("--ascii"));
        let p = parse(&SPEC, &args(&["--think", "-5"])).unwrap();
        assert_eq!(p.value("--think"), Some("-5"));
        let p = parse(&SPEC, &args(&["-o", "x", "a", "--", "--ascii"])).unwrap();
        assert_eq!(p.value("--output"), Some("x"));
        assert_eq!(p.operands, ["a", "--ascii"]);
    }

    #[test]
    fn a_value_is_given_once_and_named_as_written() {
        let e = parse(&SPEC, &args(&["--think", "5", "--think", "6"])).unwrap_err();
        assert_eq!(e, "--think given twice (\"5\" and \"6\"): give it once");
        let e = parse(&SPEC, &args(&["-o", "a", "--output=b"])).unwrap_err();
        assert_eq!(e, "--output given twice (\"a\" and \"b\"): give it once");
        let e = parse(&SPEC, &args(&["-o"])).unwrap_err();
        assert_eq!(e, "-o needs a value FILE");
        let p = parse(&SPEC, &args(&["--ascii", "--ascii"])).unwrap();
        assert!(p.flag("--ascii"));
    }

    #[test]
    fn conflicts_unknown_options_and_stray_values() {
        let e = parse(&SPEC, &args(&["--think", "5", "--depth", "3"])).unwrap_err();
        assert_eq!(e, "--think and --depth cannot be used together");
        assert_eq!(
            parse(&SPEC, &args(&["--nope"])).unwrap_err(),
            "unknown option --nope"
        );
        // A near miss names the option it was likely meant to be.
        assert_eq!(
            parse(&SPEC, &args(&["--thnik", "5"])).unwrap_err(),
            "unknown option --thnik (did you mean --think?)"
        );
        assert_eq!(
            parse(&SPEC, &args(&["--dep", "5"])).unwrap_err(),
            "unknown option --dep (did you mean --depth?)"
        );
        // The other name of the same idea is the same option.
        let p = parse(&SPEC, &args(&["--movetime", "5"])).unwrap();
        assert_eq!(p.value("--think"), Some("5"));
        assert_eq!(
            parse(&SPEC, &args(&["--ascii=1"])).unwrap_err(),
            "--ascii takes no value"
        );
        assert!(parse(&SPEC, &args(&["--think", "5", "--depth", "3", "-h"])).is_ok());
    }

    #[test]
    fn integers_say_what_is_wrong() {
        assert_eq!(int_in("7", 0, 9), Ok(7));
        assert_eq!(int_in("+7", 0, 9), Ok(7));
        assert_eq!(
            int_in("18446744073709551616", 0, u64::MAX).unwrap_err(),
            "18446744073709551616 is above the largest allowed, 18446744073709551615"
        );
        assert_eq!(
            int_in("10", 0, 9).unwrap_err(),
            "10 is above the largest allowed, 9"
        );
        assert_eq!(
            int_in("-1", 0, 9).unwrap_err(),
            "-1 is below the smallest allowed, 0"
        );
        assert_eq!(
            int_in("0", 1, 9).unwrap_err(),
            "0 is below the smallest allowed, 1"
        );
        assert_eq!(
            int_in("1.5", 0, 9).unwrap_err(),
            "expected an integer from 0 to 9, found \"1.5\""
        );
        assert_eq!(
            int_in("", 0, 9).unwrap_err(),
            "expected an integer from 0 to 9, found \"\""
        );
    }

    #[test]
    fn seconds_say_what_is_wrong() {
        assert_eq!(seconds("0.5", 60.0), Ok(Duration::from_millis(500)));
        assert_eq!(
            seconds("1e20", 3600.0).unwrap_err(),
            "1e20 is above the largest allowed, 3600 seconds"
        );
        assert_eq!(
            seconds("inf", 3600.0).unwrap_err(),
            "inf is above the largest allowed, 3600 seconds"
        );
        assert_eq!(seconds("0", 60.0).unwrap_err(), "0 is not above 0 seconds");
        assert_eq!(
            seconds("NaN", 60.0).unwrap_err(),
            "expected a number of seconds, found \"NaN\""
        );
    }
}
