//! The statement's sample and the repository's `samples/` cases, built into the binary,
//! so that `duckchess test --cmd ./a.out` works from any folder. A test checks that these
//! lists and the folders agree.
//!
//! [`SAMPLES`] keep to the official input format, so a correct solution passes them all.
//! [`LENIENT`] (`samples/lenient/`) go beyond it, with odd whitespace and coordinates off
//! the board, which the judge accepts by its lenient contract but no official test
//! holds: a correct solution may fail them, and `test` runs them only when asked.

/// One built-in case: its name and the contents of `NAME.in` and `NAME.out`.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The file name without `.in`.
    pub name: &'static str,
    /// The input.
    pub input: &'static str,
    /// The judge's answer.
    pub answer: &'static str,
}

macro_rules! sample {
    ($dir:literal, $name:literal) => {
        Sample {
            name: $name,
            input: include_str!(concat!("../../samples/", $dir, $name, ".in")),
            answer: include_str!(concat!("../../samples/", $dir, $name, ".out")),
        }
    };
}

/// Every case of `samples/`, in natural order of the names: the official input format
/// (the statement's sample as published, without a final newline).
pub const SAMPLES: [Sample; 8] = [
    sample!("", "car-rays-discovered-check"),
    sample!("", "duck-blocked-leg"),
    sample!("", "elephant-blocked-eye"),
    sample!("", "horse-blocked-leg"),
    sample!("", "moves-after-game-over"),
    sample!("", "self-check"),
    sample!("", "soldier-every-direction"),
    sample!("", "statement"),
];

/// Every case of `samples/lenient/`, in natural order of the names: inputs beyond the
/// official format that the judge still answers.
pub const LENIENT: [Sample; 2] = [
    sample!("lenient/", "messy-whitespace"),
    sample!("lenient/", "wrong-side-and-off-board"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge;
    use crate::show::format::{validate, DEFAULT_MAX_Q};

    /// The cases of `samples/DIR` by name, checked against `list`: the same names, the
    /// same inputs, and the judge's answers.
    fn agree(dir: &str, list: &[Sample]) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("samples/ is readable")
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                name.strip_suffix(".in").map(str::to_string)
            })
            .collect();
        names.sort();
        let built_in: Vec<&str> = list.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            built_in,
            "add new {} cases to the list",
            dir.display()
        );
        for s in list {
            let disk = std::fs::read_to_string(dir.join(format!("{}.in", s.name))).expect("read");
            assert_eq!(disk, s.input);
            let mut out = Vec::new();
            judge::run(s.input.as_bytes(), &mut out).expect("a well-formed sample");
            assert_eq!(String::from_utf8_lossy(&out), s.answer, "{}", s.name);
        }
    }

    #[test]
    fn the_built_in_samples_are_the_folder_s() {
        agree("samples", &SAMPLES);
        agree("samples/lenient", &LENIENT);
    }

    #[test]
    fn the_samples_keep_to_the_official_format_and_the_lenient_ones_do_not() {
        for s in SAMPLES {
            // The statement's sample is published without a final newline.
            let input = if s.input.ends_with('\n') {
                s.input.to_string()
            } else {
                format!("{}\n", s.input)
            };
            let checked = validate(input.as_bytes(), DEFAULT_MAX_Q);
            assert!(checked.is_ok(), "{}: {:?}", s.name, checked.err());
        }
        for s in LENIENT {
            assert!(
                validate(s.input.as_bytes(), DEFAULT_MAX_Q).is_err(),
                "{}",
                s.name
            );
        }
    }
}
