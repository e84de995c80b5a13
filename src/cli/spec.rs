//! What the command line knows of a subcommand: its [`Spec`] (name, usage, help text,
//! options, conflicts, exit statuses), read both by the parser and by the help, so the
//! two cannot disagree.

/// One option of a subcommand.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// The long name, `--output`.
    pub name: &'static str,
    /// A short alias, `-o`.
    pub short: Option<&'static str>,
    /// The placeholder of its value (`FILE`), or `None` for a flag.
    pub value: Option<&'static str>,
    /// What it does: one paragraph, filled to the help's width under the option.
    pub help: &'static str,
    /// Whether it may be given more than once, each value kept (`--wrong A --wrong B`).
    pub repeats: bool,
}

impl Opt {
    /// An option without a value.
    pub const fn flag(name: &'static str, help: &'static str) -> Opt {
        Opt {
            name,
            short: None,
            value: None,
            help,
            repeats: false,
        }
    }

    /// An option with a value, written `name PLACEHOLDER`.
    pub const fn valued(name: &'static str, placeholder: &'static str, help: &'static str) -> Opt {
        Opt {
            name,
            short: None,
            value: Some(placeholder),
            help,
            repeats: false,
        }
    }

    /// The same option, taken more than once (each value kept).
    pub const fn repeated(self) -> Opt {
        Opt {
            repeats: true,
            ..self
        }
    }

    /// The same option with a short alias.
    pub const fn short(self, short: &'static str) -> Opt {
        Opt {
            short: Some(short),
            ..self
        }
    }
}

/// Everything the command line knows of one subcommand.
#[derive(Debug)]
pub struct Spec {
    /// The subcommand, `gen`.
    pub name: &'static str,
    /// One line: what it does.
    pub summary: &'static str,
    /// Usage lines after `duckchess NAME`; together they name every option.
    pub usage: &'static [&'static str],
    /// Free text between the usage and the options, already wrapped at 80 columns.
    pub about: &'static str,
    /// The options, in the order the help lists them (`-h, --help` is added).
    pub options: &'static [Opt],
    /// Pairs of options that cannot be given together.
    pub conflicts: &'static [(&'static str, &'static str)],
    /// The exit statuses, one line: `0 success, 1 bad input, 2 usage error`.
    pub exit: &'static str,
}
