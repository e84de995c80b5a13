//! The crate's architecture, held against its code: the folders under `src/` are layers,
//! each folder's module doc says in one "May use" line which others it may use, and the
//! imports must keep to it. Also: no two files import each other in a circle, the engine,
//! what plays with it, the server and the CQOI solver use nothing of the contest tools,
//! the engine's core nothing of its front ends or its lab, the catalogue of mistakes and
//! the model of the statement nothing of each other, the suite nothing of the catalogue
//! but its one interface, no folder outgrows the others (and no room of the test data
//! holds more files than a reader takes in at a glance), the architecture guide's table
//! says what the module docs say, and only `src/sys/` binds to the system's own
//! functions.
//!
//! Imports are read from the source as written (`use` trees, and `crate::`, `super::`,
//! `self::` paths in code), with comments and string literals left out; test modules
//! count like any other code.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module path from the crate root, e.g. `["check", "process"]`.
type ModPath = Vec<String>;

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file of the library (not `main.rs`), by its module path.
fn modules() -> BTreeMap<ModPath, PathBuf> {
    fn walk(dir: &Path, prefix: &ModPath, out: &mut BTreeMap<ModPath, PathBuf>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .expect("src is readable")
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                let mut sub = prefix.clone();
                sub.push(name.to_string());
                walk(&path, &sub, out);
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let mut module = prefix.clone();
                match stem {
                    "mod" => {}
                    "lib" if prefix.is_empty() => {}
                    "main" if prefix.is_empty() => continue,
                    _ => module.push(stem.to_string()),
                }
                out.insert(module, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&src_dir(), &Vec::new(), &mut out);
    out
}

/// The code of a Rust file with comments, strings and character literals blanked out
/// (newlines kept), so that only real paths and braces remain.
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&b, i) {
            // A raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                match b.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    _ => j += 1,
                }
            }
            for &ch in &b[i..j.min(b.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            for &ch in &b[i..(j + 1).min(b.len())] {
                out.push(blank(ch));
            }
            i = j + 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'), or a lifetime ('a).
            let close = if next == Some('\\') {
                (i + 2..b.len().min(i + 12)).find(|&k| b[k] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match close {
                Some(k) => {
                    for _ in i..=k {
                        out.push(' ');
                    }
                    i = k + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Sep,
    Open,
    Close,
    Comma,
    Star,
    Semi,
    Other(char),
}

fn tokens(code: &str) -> Vec<Token> {
    let b: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(b[start..i].iter().collect()));
            continue;
        }
        out.push(match c {
            ':' if b.get(i + 1) == Some(&':') => {
                i += 1;
                Token::Sep
            }
            '{' => Token::Open,
            '}' => Token::Close,
            ',' => Token::Comma,
            '*' => Token::Star,
            ';' => Token::Semi,
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            c => Token::Other(c),
        });
        i += 1;
    }
    out
}

/// The paths of a `use` tree starting at `t[*i]`, each with `prefix` in front.
fn use_tree(t: &[Token], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    loop {
        match t.get(*i) {
            // `{self, ...}`: the path so far.
            Some(Token::Ident(name)) if name == "self" && !path.is_empty() => *i += 1,
            Some(Token::Ident(name)) if name == "as" => {
                *i += 2;
                break;
            }
            Some(Token::Ident(name)) => {
                path.push(name.clone());
                *i += 1;
            }
            Some(Token::Sep) => *i += 1,
            Some(Token::Star) => {
                *i += 1;
                break;
            }
            Some(Token::Open) => {
                *i += 1;
                loop {
                    match t.get(*i) {
                        Some(Token::Close) => {
                            *i += 1;
                            break;
                        }
                        Some(Token::Comma) => *i += 1,
                        None => return,
                        _ => use_tree(t, i, &path, out),
                    }
                }
                return;
            }
            _ => break,
        }
    }
    out.push(path);
}

/// Every path a file names (from `use` trees, and `crate::`, `super::` and `self::`
/// paths in code), each with the module it is named in.
fn named_paths(file_module: &ModPath, code: &str) -> Vec<(ModPath, Vec<String>)> {
    let t = tokens(code);
    let mut out = Vec::new();
    // Inline modules (`mod tests { ... }`): the module path at each brace depth.
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    let here = |stack: &Vec<(usize, String)>| {
        let mut m = file_module.clone();
        m.extend(stack.iter().map(|(_, n)| n.clone()));
        m
    };
    while i < t.len() {
        match &t[i] {
            Token::Open => depth += 1,
            Token::Close => {
                depth -= 1;
                if stack.last().is_some_and(|(d, _)| *d == depth) {
                    stack.pop();
                }
            }
            Token::Ident(w) if w == "mod" => {
                if let (Some(Token::Ident(name)), Some(Token::Open)) = (t.get(i + 1), t.get(i + 2))
                {
                    stack.push((depth, name.clone()));
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            Token::Ident(w) if w == "use" => {
                i += 1;
                let mut paths = Vec::new();
                use_tree(&t, &mut i, &[], &mut paths);
                let m = here(&stack);
                out.extend(paths.into_iter().map(|p| (m.clone(), p)));
                continue;
            }
            Token::Ident(w)
                if (w == "crate" || w == "super" || w == "self")
                    && t.get(i + 1) == Some(&Token::Sep)
                    && (i == 0 || t[i - 1] != Token::Sep) =>
            {
                let mut path = vec![w.clone()];
                let mut j = i + 1;
                while t.get(j) == Some(&Token::Sep) {
                    match t.get(j + 1) {
                        Some(Token::Ident(n)) => {
                            path.push(n.clone());
                            j += 2;
                        }
                        _ => break,
                    }
                }
                out.push((here(&stack), path));
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The module a path names, made absolute, or `None` when it leaves the crate.
fn absolute(
    module: &ModPath,
    path: &[String],
    modules: &BTreeMap<ModPath, PathBuf>,
) -> Option<ModPath> {
    let mut base = module.clone();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("super") | Some("self") => {
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "super" => {
                        base.pop()?;
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        Some(first) => {
            // A child module of this one (`use oracle::Oracle` after `mod oracle;`).
            let mut child = module.clone();
            child.push(first.to_string());
            if !modules.contains_key(&child) {
                return None;
            }
        }
        None => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The file that holds the module path: its longest prefix that is a file.
fn file_of<'m>(path: &ModPath, modules: &'m BTreeMap<ModPath, PathBuf>) -> Option<&'m ModPath> {
    (0..=path.len())
        .rev()
        .find_map(|n| modules.get_key_value(&path[..n]).map(|(k, _)| k))
}

/// Every import, as (importing file, imported file), between different files.
fn imports(modules: &BTreeMap<ModPath, PathBuf>) -> BTreeSet<(ModPath, ModPath)> {
    let mut edges = BTreeSet::new();
    for (module, path) in modules {
        let text = fs::read_to_string(path).expect("a source file");
        for (at, named) in named_paths(module, &code_only(&text)) {
            let Some(target) = absolute(&at, &named, modules) else {
                continue;
            };
            if let Some(file) = file_of(&target, modules) {
                if file != module {
                    edges.insert((module.clone(), file.clone()));
                }
            }
        }
    }
    edges
}

/// The module doc (`//!` lines) of a file, as one text.
fn module_doc(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("a source file");
    text.lines()
        .take_while(|l| l.starts_with("//!") || l.trim().is_empty())
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The folders a module doc says its folder may use: the `crate::X` names of its "May
/// use" paragraph, or none when it says it uses only `std`.
fn may_use(doc: &str) -> Result<BTreeSet<String>, String> {
    if let Some(at) = doc.find("May use") {
        let paragraph = doc[at..].split("\n\n").next().unwrap_or("");
        return Ok(paragraph
            .split("crate::")
            .skip(1)
            .map(|s| {
                s.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect()
            })
            .collect());
    }
    if doc.replace('\n', " ").contains("only `std`") {
        return Ok(BTreeSet::new());
    }
    Err("its module doc says neither \"May use: ...\" nor \"only `std`\"".to_string())
}

/// Every top-level folder of `src/`, with what its module doc says it may use.
fn layers(modules: &BTreeMap<ModPath, PathBuf>) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    let mut problems = Vec::new();
    for (module, path) in modules {
        if module.len() == 1 && path.ends_with("mod.rs") {
            match may_use(&module_doc(path)) {
                Ok(set) => {
                    out.insert(module[0].clone(), set);
                }
                Err(e) => problems.push(format!("src/{}/mod.rs: {e}", module[0])),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    out
}

/// What each folder may use, by folder name.
type Layers = BTreeMap<String, BTreeSet<String>>;

/// The imports that cross into a folder the importing folder's "May use" line does not
/// list.
fn import_breaks(layers: &Layers, imports: &BTreeSet<(ModPath, ModPath)>) -> Vec<String> {
    let mut broken = Vec::new();
    for (from, to) in imports {
        let (Some(a), Some(b)) = (from.first(), to.first()) else {
            continue;
        };
        if a == b {
            continue;
        }
        let allowed = layers.get(a).is_some_and(|set| set.contains(b));
        if !allowed {
            broken.push(format!(
                "src/{} uses crate::{}, which src/{a}/mod.rs does not list after \"May use\"",
                from.join("/"),
                to.join("::")
            ));
        }
    }
    broken
}

/// The contest tools: what runs, judges and shrinks contestants' programs, and what
/// measures and writes test data.
const CONTEST_TOOLS: [&str; 7] = [
    "commands",
    "harness",
    "shrink",
    "catalogue",
    "model",
    "suite",
    "export",
];

/// The rooms of the test data that must not know each other: the catalogue of mistakes
/// and the model of what a test set shows, whatever the mistake. What the model says of
/// a test set holds for mistakes nobody listed only as long as it knows none.
const APART: [(&str, &str); 2] = [("catalogue", "model"), ("model", "catalogue")];

/// The engine's own rooms above its core: the front ends and the lab.
const ABOVE_THE_ENGINE: [&str; 4] = ["play", "lab", "web", "commands"];

/// What breaks the floors: a "May use" naming no folder, a folder that may use itself
/// through others, a judge path that uses anything, the engine's rooms, the server or
/// the CQOI solver reaching the contest tools, and the engine's core reaching what plays
/// with it or what trains it.
fn floor_breaks(layers: &Layers) -> Vec<String> {
    let mut broken = Vec::new();
    for (folder, uses) in layers {
        for used in uses {
            if !layers.contains_key(used) {
                broken.push(format!(
                    "src/{folder}/mod.rs may use crate::{used}, which is no folder of src/"
                ));
            }
        }
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = uses.iter().collect();
        while let Some(next) = todo.pop() {
            if next == folder {
                broken.push(format!("src/{folder} may use, through others, itself"));
                break;
            }
            if seen.insert(next) {
                todo.extend(layers.get(next).into_iter().flatten());
            }
        }
    }
    // The judge path stands alone; the engine's rooms, the server and the CQOI solver
    // stand apart from the contest tools, so a change to a tool cannot break them.
    if layers.get("judge").is_some_and(|uses| !uses.is_empty()) {
        broken.push("the judge path uses only std".to_string());
    }
    for folder in ["engine", "play", "lab", "web", "chase"] {
        for tool in CONTEST_TOOLS {
            if layers.get(folder).is_some_and(|uses| uses.contains(tool)) {
                broken.push(format!(
                    "src/{folder} may not use the contest tools (crate::{tool})"
                ));
            }
        }
    }
    for (folder, other) in APART {
        if layers.get(folder).is_some_and(|uses| uses.contains(other)) {
            broken.push(format!(
                "src/{folder} may not use crate::{other}: the catalogue and the model know nothing of each other"
            ));
        }
    }
    // The engine's core chooses moves and knows nothing of who asks for them.
    for above in ABOVE_THE_ENGINE {
        if layers
            .get("engine")
            .is_some_and(|uses| uses.contains(above))
        {
            broken.push(format!(
                "src/engine may not use crate::{above}: the engine's core imports nothing of its front ends or its lab"
            ));
        }
    }
    broken
}

#[test]
fn every_import_keeps_to_what_its_folder_may_use() {
    let modules = modules();
    let broken = import_breaks(&layers(&modules), &imports(&modules));
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_folders_stand_in_floors() {
    // What each folder may use, followed to the end, never comes back to it: the
    // "May use" lines make floors, with nothing that uses a floor above it.
    let broken = floor_breaks(&layers(&modules()));
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// A set of folder names.
fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_floor_rules_catch_a_planted_violation_of_each() {
    let good: Layers = [
        ("judge", names(&[])),
        ("engine", names(&["judge"])),
        ("play", names(&["judge", "engine"])),
        ("lab", names(&["judge", "engine", "play"])),
        ("harness", names(&["judge"])),
        (
            "commands",
            names(&["judge", "engine", "play", "lab", "harness"]),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert!(floor_breaks(&good).is_empty(), "{:?}", floor_breaks(&good));
    let planted = |folder: &str, uses: &str, says: &str| {
        let mut layers = good.clone();
        layers.get_mut(folder).unwrap().insert(uses.to_string());
        let broken = floor_breaks(&layers);
        assert!(
            broken.iter().any(|b| b.contains(says)),
            "{folder} using {uses}: {broken:?}"
        );
    };
    planted("engine", "play", "imports nothing of its front ends");
    planted("engine", "lab", "imports nothing of its front ends");
    planted(
        "play",
        "harness",
        "may not use the contest tools (crate::harness)",
    );
    planted("lab", "commands", "may use, through others, itself");
    planted("judge", "engine", "the judge path uses only std");
    let mut apart = good.clone();
    apart.insert("catalogue".into(), names(&["judge"]));
    apart.insert("model".into(), names(&["judge", "catalogue"]));
    assert!(floor_breaks(&apart)
        .iter()
        .any(|b| b.contains("src/model may not use crate::catalogue")));
    planted("play", "nowhere", "which is no folder of src/");
    // An import its folder's line does not allow.
    let path = |p: &str| -> ModPath { p.split('/').map(str::to_string).collect() };
    let imports: BTreeSet<(ModPath, ModPath)> = [
        (path("play/uci"), path("engine/search")),
        (path("engine/search"), path("play/level")),
    ]
    .into_iter()
    .collect();
    let broken = import_breaks(&good, &imports);
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(broken[0].starts_with("src/engine/search uses crate::play::level"));
}

#[test]
fn no_two_files_import_each_other_in_a_circle() {
    let modules = modules();
    let edges = imports(&modules);
    let mut next: BTreeMap<&ModPath, Vec<&ModPath>> = BTreeMap::new();
    for (a, b) in &edges {
        next.entry(a).or_default().push(b);
    }
    // Depth-first search; a file met again while still on the path closes a circle.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let mut marks: BTreeMap<&ModPath, Mark> = modules.keys().map(|m| (m, Mark::New)).collect();
    let mut circles = Vec::new();
    fn visit<'m>(
        m: &'m ModPath,
        next: &BTreeMap<&'m ModPath, Vec<&'m ModPath>>,
        marks: &mut BTreeMap<&'m ModPath, Mark>,
        path: &mut Vec<&'m ModPath>,
        circles: &mut Vec<String>,
    ) {
        marks.insert(m, Mark::OnPath);
        path.push(m);
        for &n in next.get(m).into_iter().flatten() {
            match marks.get(n).copied().unwrap_or(Mark::Done) {
                Mark::New => visit(n, next, marks, path, circles),
                Mark::OnPath => {
                    let start = path.iter().position(|p| *p == n).unwrap_or(0);
                    let names: Vec<String> = path[start..]
                        .iter()
                        .chain(std::iter::once(&n))
                        .map(|p| format!("src/{}", p.join("/")))
                        .collect();
                    circles.push(names.join(" -> "));
                }
                Mark::Done => {}
            }
        }
        path.pop();
        marks.insert(m, Mark::Done);
    }
    for m in modules.keys() {
        if marks[m] == Mark::New {
            visit(m, &next, &mut marks, &mut Vec::new(), &mut circles);
        }
    }
    assert!(circles.is_empty(), "circles:\n{}", circles.join("\n"));
}

/// The folders that hold more than 15% of the crate's lines (their subfolders' included):
/// past that, a folder holds more than one job, and should be split along them.
fn oversized(lines: &BTreeMap<String, usize>) -> Vec<String> {
    let total: usize = lines.values().sum();
    lines
        .iter()
        .filter(|(_, &n)| n * 100 > total * 15)
        .map(|(folder, n)| {
            format!("src/{folder} holds {n} of the crate's {total} lines, more than 15%")
        })
        .collect()
}

#[test]
fn no_folder_outgrows_the_others() {
    let modules = modules();
    let mut lines: BTreeMap<String, usize> = BTreeMap::new();
    for (module, path) in &modules {
        let n = fs::read_to_string(path)
            .expect("a source file")
            .lines()
            .count();
        if let Some(folder) = module.first() {
            *lines.entry(folder.clone()).or_default() += n;
        }
    }
    let big = oversized(&lines);
    assert!(big.is_empty(), "{}", big.join("\n"));
    // A planted folder of just over 15% is caught; one of 15% is not.
    let folders = |sizes: &[usize]| -> BTreeMap<String, usize> {
        sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| (format!("f{i}"), n))
            .collect()
    };
    assert_eq!(
        oversized(&folders(&[151, 142, 142, 142, 142, 141, 140])),
        ["src/f0 holds 151 of the crate's 1000 lines, more than 15%"]
    );
    assert!(oversized(&folders(&[150, 142, 142, 142, 142, 142, 140])).is_empty());
}

/// The rooms where test data is made: the next work on test data lands there, and a
/// reader must take in each folder of them at a glance.
const TEST_DATA_ROOMS: [&str; 3] = ["catalogue", "model", "suite"];

/// Files a folder of the test data's rooms may hold, at most.
const ROOM_FILES: usize = 12;

/// The folders (a room or a folder in it) that hold more than [`ROOM_FILES`] files of
/// their own, from the number of files in each folder.
fn crowded(files: &BTreeMap<Vec<String>, usize>) -> Vec<String> {
    files
        .iter()
        .filter(|(_, &n)| n > ROOM_FILES)
        .map(|(folder, n)| {
            format!(
                "src/{} holds {n} files, more than {ROOM_FILES}",
                folder.join("/")
            )
        })
        .collect()
}

#[test]
fn no_room_of_the_test_data_holds_more_files_than_a_reader_takes_in() {
    let mut files: BTreeMap<Vec<String>, usize> = BTreeMap::new();
    for path in modules().values() {
        let rel = path.strip_prefix(src_dir()).expect("under src");
        let folder: Vec<String> = rel
            .parent()
            .into_iter()
            .flat_map(|p| p.iter())
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        if folder
            .first()
            .is_some_and(|f| TEST_DATA_ROOMS.contains(&f.as_str()))
        {
            *files.entry(folder).or_default() += 1;
        }
    }
    for room in TEST_DATA_ROOMS {
        assert!(files.contains_key(&vec![room.to_string()]), "no src/{room}");
    }
    let big = crowded(&files);
    assert!(big.is_empty(), "{}", big.join("\n"));
    let planted: BTreeMap<Vec<String>, usize> = [(vec!["suite".to_string()], ROOM_FILES + 1)]
        .into_iter()
        .collect();
    assert_eq!(
        crowded(&planted),
        ["src/suite holds 13 files, more than 12"]
    );
}

/// The module through which the suite sees the catalogue.
const CATALOGUE_INTERFACE: [&str; 2] = ["catalogue", "for_suite"];

/// The imports from the suite into the catalogue that do not go through its interface.
fn around_the_interface(imports: &BTreeSet<(ModPath, ModPath)>) -> Vec<String> {
    imports
        .iter()
        .filter(|(from, to)| {
            from.first().is_some_and(|f| f == "suite")
                && to.first().is_some_and(|t| t == "catalogue")
                && to[..] != CATALOGUE_INTERFACE[..]
        })
        .map(|(from, to)| {
            format!(
                "src/{} uses crate::{}: the suite sees the catalogue through crate::{} only",
                from.join("/"),
                to.join("::"),
                CATALOGUE_INTERFACE.join("::")
            )
        })
        .collect()
}

#[test]
fn the_suite_sees_the_catalogue_through_one_interface() {
    let modules = modules();
    let edges = imports(&modules);
    let broken = around_the_interface(&edges);
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    // The suite does use it, and a planted import past it is caught.
    let interface: ModPath = CATALOGUE_INTERFACE.iter().map(|s| s.to_string()).collect();
    assert!(edges
        .iter()
        .any(|(from, to)| from[0] == "suite" && *to == interface));
    let path = |p: &str| -> ModPath { p.split('/').map(str::to_string).collect() };
    let planted: BTreeSet<(ModPath, ModPath)> = [(path("suite/build"), path("catalogue/mutant"))]
        .into_iter()
        .collect();
    assert_eq!(around_the_interface(&planted).len(), 1);
}

#[test]
fn the_architecture_guide_shows_the_layers_the_module_docs_name() {
    // Its table: | floor | folder | what lives there | may use |
    let layers = layers(&modules());
    let guide =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .expect("docs/architecture.md");
    let mut shown: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in guide.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 {
            continue;
        }
        let Some(folder) = cells[2]
            .strip_prefix("`src/")
            .and_then(|f| f.strip_suffix("/`"))
        else {
            continue;
        };
        let uses = cells[4]
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|w| *w != "std")
            .map(str::to_string)
            .collect();
        shown.insert(folder.to_string(), uses);
    }
    assert_eq!(
        shown, layers,
        "the guide's table of layers and the module docs"
    );
}

/// The lines (from 1) of `code` (already through [`code_only`]) that bind to foreign code:
/// an `extern` block or function, whatever its ABI (`extern "C"`, `extern "system"`, or
/// none written). `extern crate` is an import, not a binding.
fn foreign_bindings(code: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let t = tokens(line);
        let binds = t.iter().enumerate().any(|(i, tok)| {
            *tok == Token::Ident("extern".into())
                && t.get(i + 1) != Some(&Token::Ident("crate".into()))
        });
        if binds {
            lines.push(n + 1);
        }
    }
    lines
}

#[test]
fn system_calls_are_made_only_in_sys() {
    // The system's own functions are declared in src/sys/ and src/sandbox/ alone, each
    // behind a small safe function there: the rest of the crate has no foreign code and no `unsafe` to
    // review for it. The one exception is no binding: the functions of `web::wasm`
    // that the page calls in the WebAssembly build.
    let mut found = Vec::new();
    for (module, path) in modules() {
        if matches!(module.first().map(String::as_str), Some("sys" | "sandbox")) {
            continue;
        }
        let text = fs::read_to_string(&path).expect("a source file");
        let lines: Vec<&str> = text.lines().collect();
        for line in foreign_bindings(&code_only(&text)) {
            // The WebAssembly build's entry points, which the page calls: defined
            // here with the C ABI, they bind to nothing.
            let entry = lines[line - 1]
                .trim_start()
                .starts_with("pub extern \"C\" fn ");
            if module == ["web", "wasm"] && entry {
                continue;
            }
            found.push(format!(
                "src/{}.rs:{line} binds to foreign code outside src/sys/ and src/sandbox/",
                module.join("/")
            ));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_reader_finds_foreign_bindings_in_every_form() {
    let code = code_only(
        "unsafe extern \"C\" {\n\
         \x20   fn getpid() -> i32;\n\
         }\n\
         extern \"system\" { fn GetLastError() -> u32; }\n\
         extern {}\n\
         extern \"C\" fn on_signal(_: i32) {}\n\
         // extern \"C\" in a comment\n\
         let s = \"extern \\\"C\\\" in a string\";\n\
         extern crate alloc;\n\
         fn external() {}\n",
    );
    assert_eq!(foreign_bindings(&code), [1, 4, 5, 6]);
}

#[test]
fn the_reader_finds_imports_in_every_form() {
    // The reader itself, on the forms the crate uses.
    let code = code_only(
        "use crate::a::{b::{self, C}, d};\n\
         use super::e::F as G;\n\
         // use crate::commented::Out;\n\
         fn f() { let s = \"crate::in_a_string\"; let c = '{'; crate::h::i(); }\n\
         mod tests { use super::*; use crate::j; }\n",
    );
    let module: ModPath = vec!["x".to_string(), "y".to_string()];
    let found: Vec<String> = named_paths(&module, &code)
        .into_iter()
        .map(|(at, p)| format!("{}: {}", at.join("::"), p.join("::")))
        .collect();
    assert_eq!(
        found,
        [
            "x::y: crate::a::b",
            "x::y: crate::a::b::C",
            "x::y: crate::a::d",
            "x::y: super::e::F",
            "x::y: crate::h::i",
            "x::y::tests: super",
            "x::y::tests: crate::j",
        ]
    );
}
