//! `duckchess audit`: how strong is a test set? Every mistake of a catalogue of plausible
//! ones is played on every input by a mutant judge, in process; a mistake that answers
//! some input differently from the judge is killed, one that answers all of them alike
//! survives, and the setter learns what the data lets through.
//!
//! Before that, every input must pass `validate`'s strict rules and every answer file
//! must agree with the judge: a wrong answer file is the worst bug a setter can ship.
//!
//! A test is *redundant* when it is outside the cover of the set
//! ([`crate::harness::cover`]): the tests kept by the greedy choice so that together they
//! kill every mistake, and reach every cell of the statement's model and of the move
//! table's map, that the whole set kills and reaches. Without all the redundant tests
//! at once, nothing the tool measures is lost.
//!
//! The mistakes, their mutant judge and the matrix of what kills what live in
//! [`crate::catalogue`], the statement's model and the move table's map in
//! [`crate::model`], the witnesses in [`crate::suite`]; this module reads the test set
//! and writes the report.

use crate::catalogue::kills::{Running, Tally, Test};
use crate::catalogue::list::{self, Group, Mistake};
use crate::catalogue::mutant::{self, Answer};
use crate::cli::{self, help, Opt, Spec, EXIT_FAILURE, EXIT_INVALID, EXIT_OK};
use crate::generate::case::Cmd;
use crate::harness::cases::{self, CaseList, Reference};
use crate::harness::cover::{self, Sets};
use crate::harness::process::Feed;
use crate::judge;
use crate::model::{statement, table};
use crate::show::compare::Comparator;
use crate::show::format::{self, ValidateError, DEFAULT_MAX_Q};
use crate::suite::witness;
use std::fmt;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::thread;

/// The largest input file read (a valid one, `Q <= 1000`, is under 9 KB).
const MAX_INPUT: u64 = 1 << 20;

/// What is wrong with a test set before any mistake is tried.
#[derive(Debug)]
pub enum Problem {
    /// A file that cannot be read.
    Unreadable(PathBuf, String),
    /// An input that breaks the strict format.
    Invalid(PathBuf, format::FormatError),
    /// An answer file that disagrees with the judge on a line.
    WrongAnswer {
        /// The answer file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// The command that line answers, when there is one.
        command: Option<Cmd>,
        /// The judge's line (`None`: the judge has no such line).
        expected: Option<String>,
        /// The file's line (`None`: the file has no such line).
        found: Option<String>,
    },
}

impl Problem {
    /// The exit status it calls for: 3 for bad data, 1 for a file that cannot be read.
    pub fn status(&self) -> u8 {
        match self {
            Problem::Unreadable(..) => EXIT_FAILURE,
            _ => EXIT_INVALID,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Unreadable(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            Problem::Invalid(p, e) => write!(f, "{}: {e}", p.display()),
            Problem::WrongAnswer {
                path,
                line,
                command,
                expected,
                found,
            } => {
                write!(f, "{}: line {line}", path.display())?;
                if let Some([a, b, c, d]) = command {
                    write!(f, " (command {a} {b} {c} {d})")?;
                }
                // The lines come escaped already (control characters shown).
                match (expected, found) {
                    (Some(e), Some(x)) => {
                        write!(f, ": the judge answers \"{e}\", the file has \"{x}\"")
                    }
                    (Some(e), None) => {
                        write!(f, ": the judge answers \"{e}\", the file ends before it")
                    }
                    (None, Some(x)) => {
                        write!(f, ": the file has \"{x}\" after the judge's last line")
                    }
                    (None, None) => write!(f, ": the file differs from the judge's output"),
                }
            }
        }
    }
}

/// Parses an input that `validate` accepted: `Q`, then `Q` commands.
fn parse(bytes: &[u8]) -> Vec<Cmd> {
    let text = String::from_utf8_lossy(bytes);
    let numbers: Vec<i64> = text
        .split_ascii_whitespace()
        .skip(1)
        .filter_map(|w| w.parse().ok())
        .collect();
    numbers
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

/// Loads one case of `cases::collect`: validates its input, judges it, and compares its
/// answer file (if any) with the judge's output. A note is pushed for an answer file
/// that differs in whitespace only.
pub fn load(case: &cases::Case, notes: &mut Vec<String>) -> Result<Test, Problem> {
    let unreadable = |p: &Path, e: &dyn fmt::Display| Problem::Unreadable(p.into(), e.to_string());
    let Feed::File(input) = &case.input else {
        // `cases::collect` makes files only; built-in samples are not audited.
        return Err(unreadable(Path::new(&case.name), &"not a file"));
    };
    let file = File::open(input).map_err(|e| unreadable(input, &e))?;
    match format::validate(file, DEFAULT_MAX_Q) {
        Ok(_) => {}
        Err(ValidateError::Format(e)) => return Err(Problem::Invalid(input.clone(), e)),
        Err(ValidateError::Read(e)) => return Err(unreadable(input, &e)),
    }
    let bytes = cli::read_small_file(input, MAX_INPUT).map_err(|e| unreadable(input, &e))?;
    let test = Test::new(input.display().to_string(), parse(&bytes));
    let Reference::File(answer) = &case.answer else {
        return Ok(test);
    };
    let mut output = Vec::new();
    // A valid input is always answered in full.
    let _ = judge::run(&bytes[..], &mut output);
    let source = File::open(answer).map_err(|e| unreadable(answer, &e))?;
    // The answer file is the expected side, streamed: any size, flat memory.
    let mut comparator = Comparator::new(source);
    let _ = comparator.write_all(&output);
    let compared = comparator.finish();
    if let Some(e) = compared.expected_error {
        return Err(unreadable(answer, &e));
    }
    if let Some(d) = compared.difference {
        let line = |l: Option<&crate::show::compare::Line>| l.map(|l| l.shown());
        return Err(Problem::WrongAnswer {
            path: answer.clone(),
            line: d.line + 1,
            command: test.cmds.get(d.line as usize).copied(),
            expected: line(d.actual.first()),
            found: line(d.expected.first()),
        });
    }
    if let Some(what) = compared.whitespace {
        notes.push(format!(
            "note: {} differs from the judge's output only in whitespace ({what}); a judge \
             that compares byte for byte rejects every solution",
            answer.display()
        ));
    }
    Ok(test)
}

/// The mistakes in report order: by name.
fn sorted_mistakes() -> Vec<Mistake> {
    let mut all = Mistake::all().to_vec();
    all.sort_by_key(|m| m.name());
    all
}

/// The judge's line for an answer.
fn line_of(answer: &Answer) -> String {
    match answer {
        Some(m) => judge::verdict_line(&Ok(*m)),
        None => "Invalid command".to_string(),
    }
}

/// How `mistake`'s witness shows it, for the report: the input, indented, and the
/// first command on which the mistake answers differently, with both answers.
fn witness_text(mistake: Mistake) -> String {
    let Some(input) = mistake.fixture() else {
        return format!("  witness: 'duckchess audit --witness {mistake}' finds one\n");
    };
    let cmds = parse(input.as_bytes());
    let mut text = format!(
        "  witness ({}):\n",
        cli::plural(cmds.len() as u64, "command")
    );
    for line in input.lines() {
        text.push_str(&format!("    {line}\n"));
    }
    let expected = mutant::judge_answers(&cmds);
    let got = mutant::answers(Some(mistake), &cmds);
    if let Some(i) = (0..cmds.len()).find(|&i| got[i] != expected[i]) {
        let [a, b, c, d] = cmds[i];
        text.push_str(&format!(
            "  command {} ({a} {b} {c} {d}):\n    the judge:    {}\n    this mistake: {}\n",
            i + 1,
            line_of(&expected[i]),
            line_of(&got[i])
        ));
    }
    text
}

/// How many redundant tests the report names before "and N more".
const REDUNDANT_NAMED: usize = 10;

/// The name of a test in the report: its input's path.
fn test_name(case: &cases::Case) -> String {
    match &case.input {
        Feed::File(path) => path.display().to_string(),
        _ => case.name.clone(),
    }
}

/// The head of the report: the count, and each survivor with its witness.
fn survivors_text(
    tests: usize,
    commands: u64,
    mistakes: &[Mistake],
    survivors: &[Mistake],
) -> String {
    let mut out = format!(
        "audited {} ({}) against {}: killed {} of {}",
        cli::plural(tests as u64, "test"),
        cli::plural(commands, "command"),
        cli::plural(mistakes.len() as u64, "mistake"),
        mistakes.len() - survivors.len(),
        mistakes.len()
    );
    if survivors.is_empty() {
        out.push_str(", none survives\n");
        return out;
    }
    out.push_str(&match survivors.len() {
        1 => ", 1 survives\n".to_string(),
        n => format!(", {n} survive\n"),
    });
    let (grown, written): (Vec<Mistake>, Vec<Mistake>) =
        survivors.iter().partition(|m| m.group().is_grown());
    if !written.is_empty() {
        out.push_str(
            "\nsurvivors, each with its witness: an input on which it answers differently\n\
             ('duckchess audit --witness NAME' prints it):\n",
        );
    }
    for &m in &written {
        out.push_str(&format!("\n{m}\n"));
        out.push_str(&help::filled(m.sentence(), "  ", "  "));
        out.push_str(&help::filled(m.rule(), "  rule: ", "        "));
        out.push_str(&witness_text(m));
    }
    if !grown.is_empty() {
        out.push_str(
            "\nsurvivors grown from the move table, by group ('duckchess audit --list' says\n\
             what each does; 'duckchess audit --witness NAME' finds a witness):\n",
        );
        for group in Group::all() {
            let names: Vec<&str> = grown
                .iter()
                .filter(|m| m.group() == group)
                .map(|m| m.name())
                .collect();
            if !names.is_empty() {
                out.push_str(&format!("\n{} ({}):\n", group.title(), names.len()));
                out.push_str(&help::filled(&names.join(", "), "  ", "  "));
            }
        }
    }
    out
}

/// Up to [`REDUNDANT_NAMED`] of the tests `which` names, then how many more.
fn named(cases: &CaseList, which: &[usize]) -> String {
    let mut names: Vec<String> = which
        .iter()
        .take(REDUNDANT_NAMED)
        .map(|&j| test_name(&cases.get(j)))
        .collect();
    if which.len() > REDUNDANT_NAMED {
        let last = names.pop().unwrap_or_default();
        names.push(format!("{last} and {} more", which.len() - REDUNDANT_NAMED));
    }
    names.join(", ")
}

/// The tests needed (`needed`: a cover, [`cover::greedy`]) and the redundant ones.
fn cover_text(cases: &CaseList, needed: &[usize]) -> String {
    let redundant: Vec<usize> = (0..cases.len())
        .filter(|j| needed.binary_search(j).is_err())
        .collect();
    let mut out = help::filled(
        &format!(
            "needed ({} of {}, chosen greedily: together they kill every mistake the set \
             kills and reach every cell of the statement's model and of the move table's \
             map it reaches): {}",
            needed.len(),
            cases.len(),
            match needed.is_empty() {
                true => "none".to_string(),
                false => named(cases, needed),
            }
        ),
        "",
        "  ",
    );
    if !redundant.is_empty() {
        out.push_str(&help::filled(
            &format!(
                "redundant (the other {}: without all of them, nothing is lost): {}",
                redundant.len(),
                named(cases, &redundant)
            ),
            "",
            "  ",
        ));
    }
    out
}

/// Writes the report of an audit of `cases` (each loaded, with `commands[j]` commands)
/// as `tally` of `mistakes` says: the count, each survivor with its witness, what each
/// test kills, the tests `needed` (a cover of everything the set shows) and the
/// redundant ones, and with `with_matrix` the matrix. Written as it goes, a line a test.
fn write_report(
    out: &mut dyn Write,
    cases: &CaseList,
    commands: &[u32],
    tally: &Tally,
    mistakes: &[Mistake],
    needed: &[usize],
    with_matrix: bool,
) -> io::Result<()> {
    let survivors: Vec<Mistake> = mistakes
        .iter()
        .zip(&tally.killers)
        .filter(|(_, &(n, _))| n == 0)
        .map(|(&m, _)| m)
        .collect();
    let total: u64 = commands.iter().map(|&n| u64::from(n)).sum();
    out.write_all(survivors_text(cases.len(), total, mistakes, &survivors).as_bytes())?;
    // Per test: what it kills, and what no other test kills (the mistakes killed by
    // one test only, by that test: a few hundred at most, sorted).
    let mut alone: Vec<u32> = tally
        .killers
        .iter()
        .filter_map(|&(count, first)| first.filter(|_| count == 1))
        .collect();
    alone.sort_unstable();
    let alone_of = |j: usize| {
        let j = j as u32;
        alone.partition_point(|&k| k <= j) - alone.partition_point(|&k| k < j)
    };
    let width = cases.iter().map(|c| test_name(&c).len()).max().unwrap_or(0);
    let digits = cases.len().to_string().len();
    out.write_all(b"\ntests (kills: mistakes it kills; alone: those no other test kills):\n")?;
    for (j, case) in cases.iter().enumerate() {
        writeln!(
            out,
            "  {:>digits$}  {:<width$}  {:>4} {:<8}  kills {:>3}  alone {:>3}",
            j + 1,
            test_name(&case),
            commands[j],
            if commands[j] == 1 {
                "command"
            } else {
                "commands"
            },
            tally.kills[j],
            alone_of(j)
        )?;
    }
    out.write_all(cover_text(cases, needed).as_bytes())?;
    if with_matrix {
        let name_width = mistakes.iter().map(|m| m.name().len()).max().unwrap_or(0);
        write!(
            out,
            "\nmatrix (x: the test kills the mistake; columns: the tests above):\n  {:name_width$} ",
            ""
        )?;
        for j in 0..cases.len() {
            write!(out, " {:>digits$}", j + 1)?;
        }
        out.write_all(b"\n")?;
        for (i, m) in mistakes.iter().enumerate() {
            write!(out, "  {:name_width$} ", m.name())?;
            for j in 0..cases.len() {
                let cell = if tally.kills(i, j) { "x" } else { "." };
                write!(out, " {cell:>digits$}")?;
            }
            out.write_all(b"\n")?;
        }
    }
    Ok(())
}

/// The command line of `audit`.
pub const SPEC: Spec = Spec {
    name: "audit",
    summary: "measure how many plausible mistakes a test set catches",
    usage: &[
        "[PATH...] [--matrix]",
        "--coverage [PATH...]",
        "--witness NAME",
        "--list",
    ],
    about: "\
Each PATH is a directory or a file; every X.in is paired with X.out (or X.ans), as
'duckchess test' pairs them (default: the current directory). First every input
must follow the official format exactly ('duckchess validate') and every answer
file must agree with the built-in judge; the first differing line is named with
the judge's line and the file's. Then every mistake of the catalogue ('--list':
the hand-written ones, a forgotten blocking square, a xiangqi rule, check for the
wrong side, moves after the end, an output slip, ...; and those grown from the
move table, one slip in one row of one piece's table, when a move is judged or
when check is decided) is played on every input by a mutant judge, in process:
a mistake that answers some input differently from the judge is killed by it.

The report: 'killed K of M'; each surviving mistake with what it does, the rule
it breaks, and its witness (a small input that kills it, with the line where it
answers differently; the grown ones are listed by group); for each test how many
mistakes it kills and how many no other test kills; the tests needed, a small
set chosen greedily that kills every mistake and reaches every cell of the
statement's model and of the move table's map the whole set does, and the other
tests, redundant; with --matrix, which test kills which mistake.

--coverage reports instead what the data exercises of the rules, and how often:
for each piece, side and row of the move table, the moves judged legal, the
captures, the moves refused for what stands in the way, the checks that row
alone gives and those a blocking square stops; the edges, check, the end of the
game and after it, each kind of invalid command; and, in words, every cell the
data never reaches. 'duckchess gen --suite DIR' writes a test set that kills
every mistake and reaches what it can.",
    options: &[
        Opt::flag("--matrix", "also print which test kills which mistake"),
        Opt::flag(
            "--coverage",
            "print instead what the data exercises of the rules, and what never",
        ),
        Opt::valued(
            "--witness",
            "NAME",
            "print the witness input of the mistake NAME and stop",
        ),
        Opt::flag(
            "--list",
            "print the catalogue: every mistake, what it does, the rule it breaks",
        ),
    ],
    conflicts: &[
        ("--witness", "--list"),
        ("--witness", "--matrix"),
        ("--list", "--matrix"),
        ("--coverage", "--matrix"),
        ("--coverage", "--witness"),
        ("--coverage", "--list"),
    ],
    exit: "0 every mistake killed (with --coverage: every cell reached), 1 some\n             \
           survive (some cells never reached) or an I/O error, 2 usage error,\n             \
           3 an invalid input or a wrong answer file",
};

/// Prints `text` on standard output for `audit`.
fn print(text: &str) -> u8 {
    let mut out = io::stdout().lock();
    cli::output_status(
        "audit",
        out.write_all(text.as_bytes()).and_then(|()| out.flush()),
    )
}

/// The `audit` subcommand; returns the exit status.
pub fn cli(args: &[std::ffi::OsString]) -> u8 {
    cli::run(&SPEC, args, |parsed| {
        if let Some(name) = parsed.value("--witness") {
            parsed.no_operands()?;
            let m = Mistake::from_name(name).ok_or_else(|| {
                format!("--witness: no mistake {name:?} in the catalogue ('--list' lists them)")
            })?;
            let jobs = thread::available_parallelism().map_or(1, |n| n.get());
            return match witness::of(m, jobs) {
                Some(w) => Ok(print(&w)),
                None => Ok(cli::fail("audit", &format!("no witness found for {m}"))),
            };
        }
        if parsed.flag("--list") {
            parsed.no_operands()?;
            return Ok(print(&list::listing()));
        }
        let paths = if parsed.operands()?.is_empty() {
            vec![".".to_string()]
        } else {
            parsed.operands()?.to_vec()
        };
        let report = if parsed.flag("--coverage") {
            Report::Coverage
        } else {
            Report::Mistakes {
                matrix: parsed.flag("--matrix"),
            }
        };
        Ok(audit(&paths, report))
    })
}

/// What `audit` reports on a test set.
#[derive(Clone, Copy, Debug)]
enum Report {
    /// The mistakes it kills, and with `matrix` which test kills which.
    Mistakes { matrix: bool },
    /// The coverage map.
    Coverage,
}

/// How many skipped inputs a note names before "and N more".
const NAMED: usize = 3;

/// One line for the inputs skipped for want of an answer (their stems), however many:
/// the count and the first few names.
fn skipped_note(stems: &[PathBuf]) -> Option<String> {
    let names: Vec<String> = stems
        .iter()
        .take(NAMED)
        .map(|s| format!("{}.in", s.display()))
        .collect();
    let more = match stems.len().saturating_sub(NAMED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let (first, count) = (names.first()?, stems.len());
    Some(if count == 1 {
        format!(
            "skipping {first}: no {0}.out or {0}.ans (name the file alone to compare with \
             the built-in judge)",
            first.trim_end_matches(".in")
        )
    } else {
        format!(
            "skipping {count} inputs without X.out or X.ans ({}{more}; name a file alone to \
             compare it with the built-in judge)",
            names.join(", ")
        )
    })
}

/// What each test of a set shows, for the cover ([`cover::greedy`]): the mistakes it
/// kills, the cells of the statement's model and of the move table's map it reaches.
#[derive(Default)]
struct Shown {
    kills: Sets,
    model: Sets,
    map: Sets,
}

impl Shown {
    /// The cells the next test reaches.
    fn cells(&mut self, cmds: &[Cmd]) {
        let mut model = statement::Map::new();
        model.add(cmds);
        self.model.push(reached(&model.counts));
        let mut map = table::Map::new();
        map.add(cmds);
        self.map.push(reached(&map.counts));
    }

    /// What the tests played since the last call kill, in order.
    fn kills(&mut self, sets: Vec<Vec<u64>>) {
        for set in sets {
            self.kills.push(set);
        }
    }
}

/// The cells `counts` reaches, a bit each.
fn reached(counts: &[u64]) -> Vec<u64> {
    let mut bits = vec![0u64; counts.len().div_ceil(64)];
    for (i, _) in counts.iter().enumerate().filter(|(_, &n)| n > 0) {
        bits[i / 64] |= 1 << (i % 64);
    }
    bits
}

/// Audits the test set under `paths`; returns the exit status.
fn audit(paths: &[String], report_of: Report) -> u8 {
    let mut skipped = Vec::new();
    let collected = cases::collect_skipping(paths, &mut skipped);
    if let Some(note) = skipped_note(&skipped) {
        cli::say("audit", &note);
    }
    let cases = match collected {
        Ok(cases) => cases,
        Err(e) => return cli::fail("audit", &e.to_string()),
    };
    let jobs = thread::available_parallelism().map_or(1, |n| n.get());
    let mistakes = sorted_mistakes();
    let with_matrix = matches!(report_of, Report::Mistakes { matrix: true });
    // Each test is tallied (or mapped) as it is loaded and then dropped: what is kept
    // is a few bytes a test.
    let mut running = Running::new(&mistakes, jobs, with_matrix);
    let mut map = table::Map::new();
    let mut statement = statement::Map::new();
    // What each test kills and reaches, for the cover: each distinct set kept once.
    let mut shown = Shown::default();
    let mut commands: Vec<u32> = Vec::new();
    let mut status = EXIT_OK;
    let mut notes = Vec::new();
    for case in cases.iter() {
        match load(&case, &mut notes) {
            // After a problem the rest is only checked: no report follows.
            Ok(_) if status != EXIT_OK => {}
            Ok(test) => {
                commands.push(test.cmds.len() as u32);
                match report_of {
                    Report::Mistakes { .. } => {
                        shown.cells(&test.cmds);
                        running.add(test);
                        shown.kills(running.take_sets());
                    }
                    Report::Coverage => {
                        map.add(&test.cmds);
                        statement.add(&test.cmds);
                    }
                }
            }
            Err(problem) => {
                cli::say("audit", &problem.to_string());
                status = status.max(problem.status());
            }
        }
    }
    for note in &notes {
        cli::say("audit", note);
    }
    if status != EXIT_OK {
        return status;
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (written, short) = match report_of {
        Report::Mistakes { matrix } => {
            running.play();
            shown.kills(running.take_sets());
            let tally = running.finish();
            let short = tally.killers.iter().filter(|&&(n, _)| n == 0).count();
            let needed = cover::greedy(&[&shown.kills, &shown.model, &shown.map]);
            let written = write_report(
                &mut out, &cases, &commands, &tally, &mistakes, &needed, matrix,
            );
            (written, short)
        }
        Report::Coverage => {
            // The header, then the statement's model, then the move table's map.
            let table = map.render();
            let (head, rest) = table.split_once('\n').unwrap_or((&table, ""));
            let text = format!("{head}\n\n{}{rest}", statement.render());
            let short = map.missing() + statement.missing().len();
            (out.write_all(text.as_bytes()), short)
        }
    };
    match cli::output_status("audit", written.and_then(|()| out.flush())) {
        EXIT_OK if short > 0 => EXIT_FAILURE,
        status => status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_inputs_make_one_line() {
        assert_eq!(skipped_note(&[]), None);
        let stems: Vec<PathBuf> = (1..=5000)
            .map(|i| PathBuf::from(format!("d/{i}")))
            .collect();
        assert_eq!(
            skipped_note(&stems[..1]).unwrap(),
            "skipping d/1.in: no d/1.out or d/1.ans (name the file alone to compare with the \
             built-in judge)"
        );
        assert_eq!(
            skipped_note(&stems).unwrap(),
            "skipping 5000 inputs without X.out or X.ans (d/1.in, d/2.in, d/3.in and 4997 \
             more; name a file alone to compare it with the built-in judge)"
        );
        assert_eq!(
            skipped_note(&stems[..2]).unwrap(),
            "skipping 2 inputs without X.out or X.ans (d/1.in, d/2.in; name a file alone to \
             compare it with the built-in judge)"
        );
    }
}
