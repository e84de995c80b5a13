//! The help layout, one for every subcommand and the top level, drawn from the same
//! [`Spec`] the argument parser reads, so the options a help lists are the options the
//! subcommand takes.

use super::spec::{Opt, Spec};

/// Help text lines stay within this many columns.
pub const WIDTH: usize = 80;

/// How far option help is indented when an option's name is long.
const MAX_NAME_COLUMN: usize = 28;

impl Opt {
    /// How the option is written in an options list: `-o, --output FILE`.
    fn label(&self) -> String {
        let mut label = String::new();
        if let Some(short) = self.short {
            label.push_str(short);
            label.push_str(", ");
        }
        label.push_str(self.name);
        if let Some(value) = self.value {
            label.push(' ');
            label.push_str(value);
        }
        label
    }
}

/// How many terminal columns `text` takes: East Asian wide characters (the Chinese piece
/// names, full-width forms) take two, every other character one.
pub fn columns(text: &str) -> usize {
    text.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

/// Whether a terminal draws `c` two columns wide (the wide and full-width ranges of
/// Unicode's East Asian Width property that help text can meet).
fn is_wide(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x20000..=0x3FFFD)
}

/// The words of `text` for wrapping, a quoted example (`'total: N'`, `'xs ys xt yt'`)
/// kept together as one word when it fits in `width`, so that no line ends inside it.
fn words(text: &str, width: usize) -> Vec<String> {
    let closes = |w: &str| {
        w.trim_end_matches(|c: char| ",.;:)".contains(c))
            .ends_with('\'')
    };
    let mut words: Vec<String> = Vec::new();
    let mut open: Option<Vec<&str>> = None;
    for word in text.split_whitespace() {
        match open.as_mut() {
            Some(group) => {
                group.push(word);
                if closes(word) {
                    let joined = group.join(" ");
                    if columns(&joined) <= width {
                        words.push(joined);
                    } else {
                        words.extend(group.iter().map(|w| w.to_string()));
                    }
                    open = None;
                }
            }
            None if word.starts_with('\'') && !(word.len() > 1 && closes(word)) => {
                open = Some(vec![word]);
            }
            None => words.push(word.to_string()),
        }
    }
    // An unclosed quote is only an apostrophe: its words go as they are.
    words.extend(open.into_iter().flatten().map(str::to_string));
    words
}

/// Breaks `text` into lines of at most `width` columns at spaces (never inside a short
/// quoted example); a word longer than the width stands on a line of its own.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in words(text, width) {
        let word = word.as_str();
        if !line.is_empty() && columns(&line) + 1 + columns(word) > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Free text as the help shows it: paragraphs (separated by blank lines) whose lines
/// start at the margin are filled to [`WIDTH`] columns; indented lines (lists, tables,
/// examples) are kept as written.
fn fill(text: &str) -> String {
    let mut out = String::new();
    for (i, paragraph) in text.trim_end().split("\n\n").enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut prose = String::new();
        for line in paragraph.lines() {
            if line.starts_with(' ') {
                for l in wrap(&prose, WIDTH) {
                    if !l.is_empty() {
                        out.push_str(&format!("{l}\n"));
                    }
                }
                prose.clear();
                out.push_str(line);
                out.push('\n');
            } else {
                prose.push(' ');
                prose.push_str(line);
            }
        }
        for l in wrap(&prose, WIDTH) {
            if !l.is_empty() {
                out.push_str(&format!("{l}\n"));
            }
        }
    }
    out
}

/// A usage form after `lead`, wrapped at [`WIDTH`] with continuation lines under its
/// first argument.
fn usage_lines(lead: &str, form: &str) -> String {
    let indent = columns(lead) + 1;
    let mut out = String::new();
    let mut line = format!("{lead} ");
    // Break only between bracketed groups so that `[--think MS | --depth D]` stays whole.
    for group in groups(form) {
        if columns(&line) > indent && columns(&line) + 1 + columns(&group) > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(indent);
        }
        if columns(&line) > indent {
            line.push(' ');
        }
        line.push_str(&group);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The words of a usage form, with bracketed and quoted groups kept together.
fn groups(form: &str) -> Vec<String> {
    let mut groups = Vec::new();
    let mut current = String::new();
    let (mut depth, mut quoted) = (0i32, false);
    for c in form.chars() {
        match c {
            '[' if !quoted => depth += 1,
            ']' if !quoted => depth -= 1,
            '\'' => quoted = !quoted,
            ' ' if depth == 0 && !quoted => {
                if !current.is_empty() {
                    groups.push(std::mem::take(&mut current));
                }
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.is_empty() {
        groups.push(current);
    }
    groups
}

/// The `--help` of one subcommand:
///
/// ```text
/// duckchess NAME: SUMMARY
///
/// usage: duckchess NAME USAGE
///
/// ABOUT
///
/// options:
///   --opt VALUE   what it does
///   -h, --help    this help
///
/// exit status: EXIT
/// ```
pub fn render(spec: &Spec) -> String {
    let mut out = format!("duckchess {}: {}\n\n", spec.name, spec.summary);
    for (i, usage) in spec.usage.iter().enumerate() {
        let lead = if i == 0 { "usage:" } else { "      " };
        out.push_str(&usage_lines(
            &format!("{lead} duckchess {}", spec.name),
            usage,
        ));
    }
    if !spec.about.is_empty() {
        out.push('\n');
        out.push_str(&fill(spec.about));
    }
    out.push_str("\noptions:\n");
    let help = Opt::flag("--help", "this help").short("-h");
    let all: Vec<&Opt> = spec.options.iter().chain(Some(&help)).collect();
    let column = all
        .iter()
        .map(|o| columns(&o.label()) + 5)
        .filter(|&c| c <= MAX_NAME_COLUMN)
        .max()
        .unwrap_or(MAX_NAME_COLUMN);
    for opt in all {
        let label = format!("  {}", opt.label());
        // One paragraph, filled: a line break written in the text would leave a short
        // line that the next word could have completed.
        let mut lines = wrap(opt.help, WIDTH - column).into_iter();
        let first = lines.next().unwrap_or_default();
        if columns(&label) + 2 <= column {
            out.push_str(&format!("{label:<column$}{first}\n"));
        } else {
            out.push_str(&format!("{label}\n{:column$}{first}\n", ""));
        }
        for more in lines {
            out.push_str(&format!("{:column$}{more}\n", ""));
        }
    }
    let exit = wrap(spec.exit, WIDTH - "exit status: ".len()).join("\n             ");
    out.push_str(&format!("\nexit status: {exit}\n"));
    out
}

/// The top-level help: what the program is, then every subcommand with its summary and
/// its usage lines (which name every option), then where to read more.
pub fn render_top(intro: &str, specs: &[&Spec], exit: &str) -> String {
    let mut out = String::from(intro.trim_end());
    out.push_str("\n\nsubcommands (each option is explained by 'duckchess help SUBCOMMAND'):\n");
    for spec in specs {
        out.push_str(&format!("\n  {:<10}{}\n", spec.name, spec.summary));
        for usage in spec.usage {
            out.push_str(&usage_lines(&format!("    duckchess {}", spec.name), usage));
        }
    }
    let exit = wrap(exit, WIDTH - "exit status: ".len()).join("\n             ");
    out.push_str(&format!("\nexit status: {exit}\n"));
    out
}

/// `text` filled to 80 columns: the first line starts with `first`, the others with
/// `rest`.
pub fn filled(text: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let lines = wrap(text, WIDTH - rest.len().max(first.len()));
    for (i, line) in lines.iter().enumerate() {
        out.push_str(if i == 0 { first } else { rest });
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        name: "demo",
        summary: "show the layout",
        usage: &["[FILE] [-o FILE] [--ascii] [--think MS | --depth D] [--from POSITION] [--q N]"],
        about: "Reads FILE, and this is a sentence long enough to be filled onto a second line of
the help.

  an indented line stays as it is, however it is written
and prose after it is filled again.",
        options: &[
            Opt::valued(
                "--output",
                "FILE",
                "write the text here instead of to the standard output, which is where it goes",
            )
            .short("-o"),
            Opt::flag("--ascii", "letters"),
        ],
        conflicts: &[],
        exit: "0 success, 2 usage error",
    };

    #[test]
    fn chinese_characters_take_two_columns() {
        assert_eq!(columns("王士象马车鸭兵"), 14);
        assert_eq!(columns("red 红"), 6);
        let lines = wrap(
            "pieces are the Chinese names (王士象马车鸭兵) in red and blue",
            40,
        );
        assert!(lines.iter().all(|l| columns(l) <= 40), "{lines:?}");
        assert_eq!(lines[0], "pieces are the Chinese names");
    }

    #[test]
    fn quoted_examples_stay_on_one_line() {
        let lines = wrap(
            "print each first move as 'xs ys xt yt: count', then 'total: N'",
            50,
        );
        assert_eq!(
            lines,
            [
                "print each first move as 'xs ys xt yt: count',",
                "then 'total: N'"
            ]
        );
        // An apostrophe opens nothing.
        let lines = wrap("the program's own 'uci' and the judge's line", 20);
        assert_eq!(
            lines,
            ["the program's own", "'uci' and the", "judge's line"]
        );
    }

    #[test]
    fn the_layout() {
        assert_eq!(
            render(&SPEC),
            "\
duckchess demo: show the layout

usage: duckchess demo [FILE] [-o FILE] [--ascii] [--think MS | --depth D]
                      [--from POSITION] [--q N]

Reads FILE, and this is a sentence long enough to be filled onto a second line
of the help.

  an indented line stays as it is, however it is written
and prose after it is filled again.

options:
  -o, --output FILE   write the text here instead of to the standard output,
                      which is where it goes
  --ascii             letters
  -h, --help          this help

exit status: 0 success, 2 usage error
"
        );
    }
}
