//! A witness for every listed mistake, kept in the binary: a small judge input on which
//! the mistake's mutant answers differently from the judge. A mistake written by hand
//! has its own fixture (`tests/fixtures/witness/NAME.in`); the others' are kept
//! together in `tests/fixtures/witnesses.txt`, found and shrunk by the suite's search
//! (`duckchess audit --witness NAME` finds the same). `diagnose` runs a program on all
//! of them. A maintainer makes the file again with
//! `UPDATE_WITNESSES=1 cargo test --test all diagnose::every_listed_mistake_has_a_witness`.
//!
//! The file: a block per mistake, `== NAME` on a line of its own, then the input.

use super::list::Mistake;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The kept witnesses of the mistakes not written by hand, as the file holds them.
const STORED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/witnesses.txt"
));

/// The line that opens a block: the marker, then the mistake's name.
pub const MARK: &str = "== ";

/// The blocks of `text`: each mistake's name with its input.
pub fn blocks(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(MARK) {
        let after = &rest[at + MARK.len()..];
        let (name, body) = after.split_once('\n').unwrap_or((after, ""));
        let end = body
            .find(&format!("\n{MARK}"))
            .map_or(body.len(), |e| e + 1);
        out.push((name.trim(), &body[..end]));
        rest = &body[end..];
    }
    out
}

/// The kept witness of `mistake`: its fixture when it was written by hand, else its
/// block of the file; `None` for a mistake the file does not hold yet.
pub fn of(mistake: Mistake) -> Option<&'static str> {
    static BY_NAME: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    if let Some(fixture) = mistake.fixture() {
        return Some(fixture);
    }
    BY_NAME
        .get_or_init(|| blocks(STORED).into_iter().collect())
        .get(mistake.name())
        .copied()
}

/// Every listed mistake with its kept witness, in the catalogue's order.
pub fn all() -> Vec<(Mistake, &'static str)> {
    Mistake::all()
        .iter()
        .filter_map(|&m| Some((m, of(m)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_read_back_as_written() {
        let text = "== one\n1\n0 0 1 0\n== two\n0\n";
        assert_eq!(blocks(text), [("one", "1\n0 0 1 0\n"), ("two", "0\n")]);
        assert_eq!(blocks(""), []);
    }
}
