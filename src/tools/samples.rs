//! The statement's sample and the repository's `samples/` cases, built into the binary,
//! so that `duckchess test --cmd ./a.out` works from any folder. A test checks that this
//! list and the folder agree.

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
    ($name:literal) => {
        Sample {
            name: $name,
            input: include_str!(concat!("../../samples/", $name, ".in")),
            answer: include_str!(concat!("../../samples/", $name, ".out")),
        }
    };
}

/// Every case of `samples/`, in natural order of the names.
pub const SAMPLES: [Sample; 10] = [
    sample!("car-rays-discovered-check"),
    sample!("duck-blocked-leg"),
    sample!("elephant-blocked-eye"),
    sample!("horse-blocked-leg"),
    sample!("messy-whitespace"),
    sample!("moves-after-game-over"),
    sample!("self-check"),
    sample!("soldier-every-direction"),
    sample!("statement"),
    sample!("wrong-side-and-off-board"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge;

    #[test]
    fn the_built_in_samples_are_the_folder_s() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("samples/ is readable")
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                name.strip_suffix(".in").map(str::to_string)
            })
            .collect();
        names.sort();
        let built_in: Vec<&str> = SAMPLES.iter().map(|s| s.name).collect();
        assert_eq!(names, built_in, "add new samples/ cases to SAMPLES");
        for s in SAMPLES {
            let disk = std::fs::read_to_string(dir.join(format!("{}.in", s.name))).expect("read");
            assert_eq!(disk, s.input);
            let mut out = Vec::new();
            judge::run(s.input.as_bytes(), &mut out).expect("a well-formed sample");
            assert_eq!(String::from_utf8_lossy(&out), s.answer, "{}", s.name);
        }
    }
}
