//! Every example in the documentation runs, and shows what the program prints.
//!
//! README.md and every `docs/*.md` are read; each fenced block that holds `$ COMMAND`
//! lines is an example, run command by command, and what each command prints (standard
//! output and standard error together, in the order written) must be what the page
//! shows. The rules for writers (docs/architecture.md repeats them):
//!
//! - `$ ` starts a command; a line ending in `\` goes on with the next line.
//! - The lines up to the next `$ ` (or the end of the block) are what it prints.
//! - A line `...` stands for any number of lines, none included; `...` inside a line
//!   stands for any text (a time, a speed). Elide only what changes from run to run.
//! - `duckchess` is the binary under test; `cargo run --release --` means the same.
//! - Each block runs in bash in a fresh folder with links to the repository's
//!   `samples`, `tests`, `scripts`, `src` and `docs`, so relative paths work and nothing
//!   is written into the repository; commands of one block share the folder.
//! - `127.0.0.1:5380` is a `duckchess serve` started for the block (on a free port).
//! - `official/` is the contest's data, linked from `../shared/official/duckchess`
//!   beside the repository.
//!
//! Each page's examples are one test. A page whose examples need a program (g++,
//! curl) or the official data is ignored, with the reason, where build.rs found it
//! absent; the pages whose examples write whole suites (the setters' guide, its quick
//! start, the test data's inside page) are in the full tier.
//!
//! Besides the examples: every option of every subcommand's help appears in the
//! subcommand's guide, every subcommand is in the README's table, the README stays a
//! front door (at most 12 KB), the pages read as documentation, not as a log, their
//! links and headings resolve, and every page links the glossary before it uses the
//! words of ours that the glossary explains.

use crate::common;
use crate::official;

use std::collections::HashSet;
use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every documentation page: the README, then the guides in name order.
fn pages() -> Vec<PathBuf> {
    let mut guides: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    guides.sort();
    let mut all = vec![root().join("README.md")];
    all.extend(guides);
    all
}

/// One command of an example and what the page says it prints.
#[derive(Debug, Clone)]
struct Step {
    /// The command as bash reads it (continuation lines joined).
    command: String,
    /// The lines the page shows.
    expected: Vec<String>,
}

/// One example block.
#[derive(Debug, Clone)]
struct Example {
    /// Where the block starts: `docs/x.md:12`.
    place: String,
    steps: Vec<Step>,
}

/// The example blocks of one page's text.
fn examples(name: &str, text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let fence = line.trim_start();
        if !fence.starts_with("```") {
            continue;
        }
        let indent = line.len() - fence.len();
        let mut block = Vec::new();
        for (_, l) in lines.by_ref() {
            if l.trim_start().starts_with("```") {
                break;
            }
            // Lines of a block inside a list item carry the fence's indentation.
            let cut = l.len() - l.trim_start().len();
            block.push(&l[cut.min(indent)..]);
        }
        let steps = steps(&block);
        if !steps.is_empty() {
            found.push(Example {
                place: format!("{name}:{}", n + 1),
                steps,
            });
        }
    }
    found
}

/// The commands of a block and what each prints.
fn steps(block: &[&str]) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut lines = block.iter();
    while let Some(line) = lines.next() {
        if let Some(first) = line.strip_prefix("$ ") {
            let mut command = first.to_string();
            while command.ends_with('\\') {
                command.pop();
                match lines.next() {
                    Some(more) => command.push_str(more.trim_start()),
                    None => break,
                }
            }
            steps.push(Step {
                command,
                expected: Vec::new(),
            });
        } else if let Some(step) = steps.last_mut() {
            step.expected.push(line.trim_end().to_string());
        }
    }
    steps
}

/// Whether one line of output matches one line of the page (`...` is any text).
fn line_matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split("...").collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &text[first.len()..];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether the output `actual` matches the page's `expected` lines (a line `...` is
/// any number of lines).
fn matches(expected: &[String], actual: &[String]) -> bool {
    fn go(e: &[String], a: &[String], failed: &mut HashSet<(usize, usize)>) -> bool {
        let key = (e.len(), a.len());
        if failed.contains(&key) {
            return false;
        }
        let ok = match e.first() {
            None => a.is_empty(),
            Some(l) if l == "..." => (0..=a.len()).any(|k| go(&e[1..], &a[k..], failed)),
            Some(l) => a
                .first()
                .is_some_and(|x| line_matches(l, x) && go(&e[1..], &a[1..], failed)),
        };
        if !ok {
            failed.insert(key);
        }
        ok
    }
    go(expected, actual, &mut HashSet::new())
}

/// The contest's data beside the repository; a test that needs it is ignored where
/// it is absent (build.rs), so here it is required.
fn official() -> PathBuf {
    official::cases().canonicalize().expect("canonical path")
}

/// A server for a block's `curl` commands; stopped when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_duckchess"))
            .args(["serve", "--port", "0"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("serve prints its address");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, address }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh folder for one block, with links to the repository's folders.
fn workspace(page: &str, n: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "duckchess-docs-{}-{}-{n}",
        std::process::id(),
        page.replace('.', "-")
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    for name in ["samples", "tests", "scripts", "src", "docs"] {
        std::os::unix::fs::symlink(root().join(name), dir.join(name)).expect("link");
    }
    let data = root().join(official::DIR);
    if data.is_dir() {
        std::os::unix::fs::symlink(official(), dir.join("official")).expect("link");
    }
    dir
}

/// Runs one command of an example in `dir`: its output lines (both streams, trailing
/// spaces dropped), or why it could not run.
fn run(command: &str, dir: &Path) -> Vec<String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_duckchess"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let command = command.replace("cargo run --release --", "duckchess");
    let mut child = Command::new("timeout")
        .args(["-k", "5", "300", "bash", "-c"])
        .arg(format!("{{ {command}\n}} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("CARGO_TERM_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("bash starts");
    let mut out = Vec::new();
    child
        .stdout
        .take()
        .expect("piped")
        .read_to_end(&mut out)
        .expect("output");
    let _ = child.wait();
    String::from_utf8_lossy(&out)
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// The pages whose examples each test below runs, by file name: every page with an
/// example has one (checked), so that a new page cannot go unrun.
const PAGE_TESTS: &[&str] = &[
    "README.md",
    "chase.md",
    "contestants-quick.md",
    "contestants.md",
    "engine-internals.md",
    "engine.md",
    "faq.md",
    "rules.md",
    "serve.md",
    "setters-quick.md",
    "setters.md",
    "test-data-internals.md",
];

/// Runs every example of the page `name` (`README.md` or a guide's file name): each
/// command prints what the page shows. The page's test is ignored where a program or
/// the official data its examples use is absent, so each one is required here.
fn examples_of(name: &str) {
    let page = if name == "README.md" {
        root().join(name)
    } else {
        root().join("docs").join(name)
    };
    let text = fs::read_to_string(&page).expect("readable page");
    let place = page.strip_prefix(root()).expect("in the repository");
    let mut failures = Vec::new();
    let mut ran = 0;
    for (n, example) in examples(&place.display().to_string(), &text)
        .into_iter()
        .enumerate()
    {
        let all: String = example.steps.iter().map(|s| s.command.as_str()).collect();
        let needs = |word: &str| all.contains(word);
        for (word, program) in [("g++", "g++"), ("curl ", "curl")] {
            assert!(
                !needs(word) || tool(program),
                "{}: needs {program}, which is not installed",
                example.place
            );
        }
        if needs("official/") {
            official();
        }
        let dir = workspace(name, n);
        let server = needs("127.0.0.1:5380").then(Server::start);
        for step in &example.steps {
            let command = match &server {
                Some(s) => step.command.replace("127.0.0.1:5380", &s.address),
                None => step.command.clone(),
            };
            let actual = run(&command, &dir);
            ran += 1;
            if !matches(&step.expected, &actual) {
                failures.push(format!(
                    "{}: $ {}\n--- the page shows:\n{}\n--- the program prints:\n{}\n",
                    example.place,
                    step.command,
                    step.expected.join("\n"),
                    actual.join("\n")
                ));
            }
        }
        drop(server);
        let _ = fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A parser that finds nothing would pass everything.
    assert!(ran >= 1, "no example command found in {name}");
}

/// Whether `program` is on `PATH`.
fn tool(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn every_page_with_examples_has_its_test() {
    let with: Vec<String> = pages()
        .iter()
        .filter(|page| {
            let text = fs::read_to_string(page).expect("readable page");
            !examples("page", &text).is_empty()
        })
        .map(|p| {
            p.file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(with, PAGE_TESTS, "a page's examples without a test below");
    let count: usize = pages()
        .iter()
        .map(|p| examples("page", &fs::read_to_string(p).expect("readable")).len())
        .sum();
    assert!(count >= 30, "only {count} examples found");
}

#[test]
fn examples_of_the_readme() {
    examples_of("README.md");
}

#[test]
fn examples_of_the_chase_guide() {
    examples_of("chase.md");
}

#[test]
#[ignore = "slow (about 15 s: stress and diagnose runs): the full tier runs it"]
fn examples_of_the_contestants_guide() {
    examples_of("contestants.md");
}

#[test]
#[ignore = "slow (about 10 s: a stress run): the full tier runs it"]
fn examples_of_the_contestants_quick_start() {
    examples_of("contestants-quick.md");
}

#[test]
fn examples_of_the_engine_internals() {
    examples_of("engine-internals.md");
}

#[test]
#[ignore = "slow (about 9 s: searches and games): the full tier runs it"]
fn examples_of_the_engine_guide() {
    examples_of("engine.md");
}

#[test]
#[cfg_attr(
    any(lacks_gxx, lacks_official),
    ignore = "needs g++ and the official cases (one was absent when the tests were built)"
)]
fn examples_of_the_faq() {
    examples_of("faq.md");
}

#[test]
fn examples_of_the_rules_guide() {
    examples_of("rules.md");
}

#[test]
#[cfg_attr(
    lacks_curl,
    ignore = "needs curl (none was found when the tests were built)"
)]
fn examples_of_the_serve_guide() {
    examples_of("serve.md");
}

#[test]
#[ignore = "slow (about 90 s: whole suites): the full tier runs it"]
fn examples_of_the_setters_guide() {
    examples_of("setters.md");
}

#[test]
#[ignore = "slow (about 60 s: a whole suite, and the bundle compiled): the full tier runs it"]
fn examples_of_the_setters_quick_start() {
    examples_of("setters-quick.md");
}

#[test]
#[ignore = "slow (about 60 s: whole suites): the full tier runs it"]
fn examples_of_the_test_data_internals() {
    examples_of("test-data-internals.md");
}

#[test]
fn the_matcher_elides_only_what_is_marked() {
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    let out = lines("a\nb\ntime: 1.134 s, 134375211 nodes/s\nc");
    assert!(matches(&lines("a\nb\ntime: ... s, ... nodes/s\nc"), &out));
    assert!(matches(&lines("a\n...\nc"), &out));
    assert!(matches(&lines("...\nc"), &out));
    assert!(matches(&lines("a\n...\nb\n...\nc"), &out));
    assert!(matches(&lines("a\nb\n...\n...\nc"), &out));
    // A changed line, a missing line, an extra line: each fails.
    assert!(!matches(&lines("a\nB\n...\nc"), &out));
    assert!(!matches(&lines("a\nb\nc"), &out));
    assert!(!matches(&lines("a\n...\nc\nd"), &out));
    assert!(!matches(
        &lines("a\nb\ntime: ... s, ... nodes/s\nc\n..."),
        &lines("a")
    ));
    assert!(line_matches(
        "found in ... s; seed 1",
        "found in 0.3 s; seed 1"
    ));
    assert!(!line_matches(
        "found in ... s; seed 1",
        "found in 0.3 s; seed 2"
    ));
    assert!(line_matches("......", "x"));
    assert!(!line_matches("ab...ba", "aba"));
}

#[test]
fn commands_and_their_output_are_read_from_blocks() {
    let page = "text\n\n```\n$ printf 'a\\n' \\\n    | cat\na\n$ true\n```\n\n- item\n\n  ```\n  $ echo b\n  b\n  ```\n\n```\nnot an example\n```\n";
    let found = examples("page.md", page);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].place, "page.md:3");
    assert_eq!(found[0].steps[0].command, "printf 'a\\n' | cat");
    assert_eq!(found[0].steps[0].expected, ["a"]);
    assert!(found[0].steps[1].expected.is_empty());
    assert_eq!(found[1].steps[0].command, "echo b");
    assert_eq!(found[1].steps[0].expected, ["b"]);
}

/// Which guide documents each subcommand.
fn guide(sub: &str) -> &'static str {
    match sub {
        "judge" => "docs/rules.md",
        "test" | "stress" | "diagnose" | "trace" => "docs/contestants.md",
        "gen" | "validate" | "bundle" | "audit" | "export" => "docs/setters.md",
        "perft" | "play" | "analyze" | "arena" | "uci" | "match" => "docs/engine.md",
        "fit" | "selfplay" | "train" => "docs/engine-internals.md",
        "serve" => "docs/serve.md",
        "chase" => "docs/chase.md",
        other => panic!("no guide for subcommand {other:?}: add it to this table"),
    }
}

/// The subcommands the top-level help lists.
fn subcommands() -> Vec<String> {
    let top = common::stdout(&common::run(&["--help"], b""));
    top.split("\nsubcommands (")
        .nth(1)
        .expect("the top-level help lists the subcommands")
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn every_option_in_a_help_is_in_its_guide() {
    let readme = fs::read_to_string(root().join("README.md")).expect("README");
    for sub in subcommands() {
        let page = guide(&sub);
        let text = fs::read_to_string(root().join(page)).expect("guide");
        let help = common::stdout(&common::run(&[&sub, "--help"], b""));
        let options = help
            .split("\noptions:\n")
            .nth(1)
            .expect("options")
            .split("\n\n")
            .next()
            .unwrap_or("");
        for line in options.lines().filter(|l| l.starts_with("  -")) {
            for name in line
                .split_whitespace()
                .take_while(|w| w.starts_with('-'))
                .map(|w| w.trim_end_matches(','))
                .filter(|w| w.starts_with("--") && *w != "--help")
            {
                assert!(
                    text.contains(&format!("`{name}")) || text.contains(&format!(" {name} ")),
                    "{page} does not mention {sub}'s option {name}"
                );
            }
        }
        assert!(
            readme.contains(&format!("`{sub}`")),
            "the README's table lacks {sub}"
        );
        assert!(
            readme.contains(page.trim_start_matches("./")),
            "the README does not link {page}"
        );
    }
}

/// The test data's inside page lists the hand-written mistakes, each with its sentence
/// and its rule as `duckchess audit --list` gives them, and the whole catalogue by group,
/// with how many mistakes each holds.
#[test]
fn the_catalogue_in_the_guide_is_the_catalogue() {
    use duckchess::catalogue::handwritten::Written;
    use duckchess::catalogue::list::{Group, Mistake};
    let page = "docs/test-data-internals.md";
    let text = fs::read_to_string(root().join(page)).expect("guide");
    for m in Written::ALL {
        let row = format!("| `{}` | {} | {} |", m.name(), m.sentence(), m.rule());
        assert!(text.contains(&row), "{page} lacks the row {row}");
    }
    let rows = text
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("` | "))
        .count();
    assert!(rows >= Written::ALL.len());
    for g in Group::all() {
        let count = Mistake::all().iter().filter(|m| m.group() == g).count();
        let row = format!("| {} | {count} |", g.title());
        assert!(text.contains(&row), "{page} lacks the row {row}");
    }
    let total = format!("| all | {} |", Mistake::all().len());
    assert!(text.contains(&total), "{page} lacks the row {total}");
}

/// Where the README and the FAQ count the catalogue ("N mistakes"), the count is the
/// catalogue's own.
#[test]
fn the_front_pages_count_the_catalogue_right() {
    use duckchess::catalogue::list::Mistake;
    let n = Mistake::all().len();
    for page in ["README.md", "docs/faq.md"] {
        let text = fs::read_to_string(root().join(page)).expect("page");
        let words: Vec<&str> = text.split_whitespace().collect();
        let counts: Vec<&str> = words
            .windows(2)
            .filter(|w| w[1].starts_with("mistakes") && w[0].chars().all(|c| c.is_ascii_digit()))
            .map(|w| w[0])
            .collect();
        assert!(!counts.is_empty(), "{page} counts the catalogue");
        for c in counts {
            assert_eq!(
                c,
                n.to_string(),
                "{page} says {c} mistakes; the catalogue holds {n}"
            );
        }
    }
}

/// The UCI options the engine offers and the `go` words it reads: every one is named in
/// `duckchess uci --help` and in the engine's guide (one list, both places).
#[test]
fn every_uci_option_and_go_word_is_in_the_help_and_the_guide() {
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let help = words(&common::stdout(&common::run(&["uci", "--help"], b"")));
    let guide = words(&fs::read_to_string(root().join("docs/engine.md")).expect("guide"));
    let handshake = uci_handshake();
    let options: Vec<&str> = handshake
        .lines()
        .filter_map(|l| l.strip_prefix("option name "))
        .filter_map(|l| l.split(" type ").next())
        .collect();
    assert!(options.len() >= 20, "{handshake}");
    for name in options {
        assert!(
            help.contains(name),
            "uci --help does not name the option {name:?}"
        );
        assert!(
            guide.contains(&format!("`{name}`")),
            "docs/engine.md does not name the option {name:?}"
        );
    }
    for word in duckchess::play::uci::GO_WORDS {
        assert!(help.contains(word), "uci --help does not name go {word}");
        assert!(
            guide.contains(&format!("`{word}")),
            "docs/engine.md does not name go {word}"
        );
    }
}

#[test]
fn the_readme_is_a_front_door() {
    let size = fs::metadata(root().join("README.md"))
        .expect("README")
        .len();
    assert!(size <= 12 * 1024, "README.md is {size} bytes, over 12 KB");
}

/// The anchors of a page's headings, as GitHub makes them (lower case, spaces to
/// hyphens, other punctuation dropped), in the page's order.
fn headings_in_order(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        found.push(slug);
    }
    found
}

/// The anchors of a page's headings.
fn anchors(text: &str) -> HashSet<String> {
    headings_in_order(text).into_iter().collect()
}

/// The headings a page's contents list links to, in the list's order: the same-page
/// links of the list items before its first section.
fn contents_list(text: &str) -> Vec<String> {
    let mut listed = Vec::new();
    let mut in_list = false;
    for line in text.lines() {
        if line.starts_with("## ") {
            break;
        }
        if line.starts_with("- ") {
            in_list = true;
        } else if !line.starts_with("  ") {
            in_list = false;
        }
        if !in_list {
            continue;
        }
        for link in line.split("](#").skip(1) {
            listed.push(link.split(')').next().unwrap_or("").to_string());
        }
    }
    listed
}

#[test]
fn every_contents_list_follows_its_sections() {
    let mut lists = 0;
    for page in pages() {
        let text = fs::read_to_string(&page).expect("page");
        let listed = contents_list(&text);
        if listed.is_empty() {
            continue;
        }
        lists += 1;
        let headings = headings_in_order(&text);
        let mut last = None;
        for anchor in &listed {
            let at = headings.iter().position(|h| h == anchor);
            assert!(
                at.is_some(),
                "{}: the contents list names #{anchor}, no heading of the page",
                page.display()
            );
            assert!(
                at > last,
                "{}: the contents list names #{anchor} after a section it comes before; \
                 list the sections in the page's order",
                page.display()
            );
            last = at;
        }
    }
    assert!(lists >= 10, "only {lists} pages with a contents list found");
}

#[test]
fn pages_read_as_documentation_not_as_a_log() {
    for page in pages() {
        let text = fs::read_to_string(&page).expect("page");
        let lower = text.to_lowercase();
        for phrase in [
            "issue 1",
            "issue 2",
            "issue 3",
            "issue 4",
            "issue 5",
            "issue 6",
            "issue 7",
            "issue 8",
            "issue 9",
            "issue #",
            "this change",
            "before this",
            "this session",
            "todo",
        ] {
            assert!(
                !lower.contains(phrase),
                "{}: {phrase:?} reads as a development log",
                page.display()
            );
        }
        // The front door points at nothing outside the repository: a user's clone has
        // nothing beside it (the maintainers' pages may say where the tests look).
        if page.ends_with("README.md") {
            assert!(!text.contains("../shared"), "{}", page.display());
        }
        // Links to other pages, their headings and images resolve.
        for link in text.split("](").skip(1) {
            let target = link.split(')').next().unwrap_or("");
            if target.contains("://") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let linked = if file.is_empty() {
                page.clone()
            } else {
                page.parent().expect("folder").join(file)
            };
            assert!(
                linked.exists(),
                "{}: the link {target} leads nowhere",
                page.display()
            );
            if !anchor.is_empty() {
                let headings = anchors(&fs::read_to_string(&linked).expect("linked page"));
                assert!(
                    headings.contains(anchor),
                    "{}: the link {target} names no heading of {}",
                    page.display(),
                    linked.display()
                );
            }
        }
    }
}

/// What the engine announces when a GUI says `uci`: its name and its options.
fn uci_handshake() -> String {
    common::stdout(&common::run(&["uci", "--tuning"], b"uci\nquit\n"))
}

/// Every numeric option in the guide's table of UCI options (rows of `spin` options, one
/// default for all their names or one for each) has the range and the default that the
/// engine announces.
#[test]
fn the_guide_gives_each_spin_option_its_range_and_default() {
    let guide = fs::read_to_string(root().join("docs/engine.md")).expect("guide");
    let handshake = uci_handshake();
    let mut checked = 0;
    for row in guide.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (names, kind, defaults) = match cells.get(1..4) {
            Some(&[n, k, d]) => (n, k, d),
            _ => continue,
        };
        let Some(range) = kind.strip_prefix("spin ") else {
            continue;
        };
        // "-500-500": the range's second minus sign is the separator.
        let split = range[1..].find('-').map(|i| i + 1).expect(row);
        let (min, max) = (&range[..split], &range[split + 1..]);
        let names: Vec<&str> = names.split('`').skip(1).step_by(2).collect();
        let defaults: Vec<&str> = defaults
            .split(", ")
            .map(|d| d.split(' ').next().unwrap_or(d))
            .collect();
        // One default for every name, or one for each.
        assert!(
            defaults.len() == 1 || defaults.len() == names.len(),
            "defaults of {row}"
        );
        for (i, name) in names.iter().enumerate() {
            let default = defaults[i.min(defaults.len() - 1)];
            let line =
                format!("option name {name} type spin default {default} min {min} max {max}");
            assert!(
                handshake.lines().any(|l| l == line),
                "docs/engine.md says {line:?}; the engine says otherwise"
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked} spin options checked");
}

/// The guide's table of levels gives each weakened level the name, the share of
/// mistakes, the largest mistake and the `UCI_Elo` that the engine has.
#[test]
fn the_guide_gives_each_level_its_profile_and_rating() {
    use duckchess::play::level::{ANY_MOVE, ELO, PROFILES};
    let guide = fs::read_to_string(root().join("docs/engine.md")).expect("guide");
    let mut checked = 0;
    for row in guide.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let Some(n) = cells.get(1).and_then(|c| c.parse::<usize>().ok()) else {
            continue;
        };
        let Some(profile) = PROFILES.get(n.wrapping_sub(1)) else {
            continue;
        };
        assert_eq!(cells.len(), 8, "{row}");
        assert_eq!(cells[2], profile.name, "{row}");
        let share = cells[4].split('%').next().expect("a share");
        assert_eq!(share, profile.mistakes.to_string(), "{row}");
        let largest = if profile.largest == ANY_MOVE {
            "any move".to_string()
        } else {
            profile.largest.to_string()
        };
        assert_eq!(cells[5], largest, "{row}");
        assert_eq!(cells[6], ELO[n - 1].to_string(), "{row}");
        checked += 1;
    }
    assert_eq!(checked, PROFILES.len(), "levels in the guide's table");
}

/// The test data's inside page gives its table of held-out families in the form
/// `scripts/bench-heldout.sh families` prints: its header, then one row for each family
/// of the catalogue, in order, with the family's size.
#[test]
fn the_held_out_families_table_is_the_benchmarks() {
    use duckchess::suite::held_out::{families, Summary};
    let text = fs::read_to_string(root().join("docs/test-data-internals.md")).expect("guide");
    let lines: Vec<&str> = text.lines().collect();
    let header: Vec<&str> = Summary::HEADER.lines().collect();
    let at = lines
        .windows(header.len())
        .position(|w| w == &header[..])
        .expect("docs/test-data-internals.md has the table of held-out families");
    let rows = &lines[at + header.len()..];
    let families = families();
    for (i, family) in families.iter().enumerate() {
        let row = rows.get(i).copied().unwrap_or("");
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), 6, "{row}");
        assert_eq!(cells[0], family.name, "row {} of the table", i + 1);
        let number = |s: &str| -> f64 {
            s.trim_end_matches(['%', ')'])
                .parse()
                .unwrap_or_else(|_| panic!("{s} in {row}"))
        };
        let (mean, sd) = cells[2].split_once("% (").expect("mean% (sd)");
        let summary = Summary {
            held: cells[1].parse().expect("a count"),
            mean: number(mean),
            sd: number(sd),
            min: number(cells[3]),
            twice: number(cells[4]),
            missed: cells[5].parse().expect("a count"),
            seconds: 0.0,
        };
        assert_eq!(summary.row(&family.name), row);
        assert_eq!(summary.held, family.held.len(), "{row}");
    }
    assert!(
        !rows.get(families.len()).is_some_and(|r| r.starts_with('|')),
        "the table has a row for no family"
    );
}

/// The words of ours that the guides use in a sense of their own: each has an entry in
/// the glossary.
const OUR_WORDS: &[&str] = &[
    "square",
    "side",
    "kind",
    "captain",
    "car",
    "duck",
    "blocking square",
    "move table",
    "row of the move table",
    "command",
    "invalid command",
    "check",
    "output line",
    "ply",
    "position notation",
    "case",
    "samples",
    "official cases",
    "strict format",
    "lenient",
    "verdict",
    "seed",
    "mode",
    "shrink",
    "1-minimal",
    "flaky",
    "planted mistake",
    "control group",
    "test set",
    "suite",
    "mistake",
    "catalogue",
    "variant",
    "grown",
    "starting piece",
    "group",
    "family",
    "mutant",
    "kill",
    "survivor",
    "witness",
    "redundant test",
    "cell",
    "model",
    "map",
    "coverage",
    "mission",
    "repair",
    "held-out",
    "engine",
    "level",
    "evaluation",
    "UCI",
    "perft",
    "static site",
];

/// The glossary's entries: each `### ` heading names one word, or several separated by
/// commas; each with the text that explains it.
fn glossary_entries() -> Vec<(Vec<String>, String)> {
    let text = fs::read_to_string(root().join("docs/glossary.md")).expect("the glossary");
    let mut entries: Vec<(Vec<String>, String)> = Vec::new();
    for line in text.lines() {
        if let Some(words) = line.strip_prefix("### ") {
            let words = words.split(", ").map(str::to_string).collect();
            entries.push((words, String::new()));
        } else if line.starts_with('#') {
            entries.push((Vec::new(), String::new()));
        } else if let Some((_, body)) = entries.last_mut() {
            body.push_str(line.trim());
        }
    }
    entries.retain(|(words, _)| !words.is_empty());
    entries
}

/// Whether `word` appears in `text` where a word starts (so `cell` in `cells`, not in
/// `excellent`), letter case aside.
fn uses(text: &str, word: &str) -> bool {
    let (text, word) = (text.to_lowercase(), word.to_lowercase());
    text.match_indices(&word)
        .any(|(at, _)| !text[..at].ends_with(|c: char| c.is_alphanumeric()))
}

/// The glossary explains every word of ours, and only words the pages use; every other
/// page links it before its first section, so a reader meets the link before the words.
#[test]
fn the_glossary_explains_our_words_and_every_page_links_it_first() {
    let entries = glossary_entries();
    let defined: Vec<&String> = entries.iter().flat_map(|(words, _)| words).collect();
    for word in OUR_WORDS {
        assert!(
            defined.iter().any(|d| d == word),
            "docs/glossary.md has no entry for {word:?}"
        );
    }
    let others: Vec<(PathBuf, String)> = pages()
        .into_iter()
        .filter(|p| !p.ends_with("glossary.md"))
        .map(|p| {
            let text = fs::read_to_string(&p).expect("page");
            (p, text)
        })
        .collect();
    for (words, body) in &entries {
        assert!(
            body.split_whitespace().count() >= 8,
            "docs/glossary.md: the entry {words:?} explains too little"
        );
        for word in words {
            assert!(
                others.iter().any(|(_, text)| uses(text, word)),
                "docs/glossary.md explains {word:?}, which no other page uses"
            );
        }
    }
    for (page, text) in &others {
        let intro = text.split("\n## ").next().unwrap_or("");
        let link = if page.ends_with("README.md") {
            "](docs/glossary.md)"
        } else {
            "](glossary.md)"
        };
        assert!(
            intro.contains(link),
            "{}: no link to the glossary before its first section",
            page.display()
        );
    }
    assert!(others.len() >= 15, "only {} pages found", others.len());
}

#[test]
fn uses_finds_a_word_where_a_word_starts() {
    assert!(uses("Every Cell reached", "cell"));
    assert!(uses("cells", "cell"));
    assert!(!uses("excellent", "cell"));
    assert!(uses("a 1-minimal case", "1-minimal"));
}
