//! The inputs `stress` tries: `gen`'s modes, and generators made to meet the mistakes
//! solutions make within a few commands. Case `i` of a seed is always the same bytes,
//! whatever the number of jobs, and every case stays within the official constraints
//! unless `--messy` asks for what SPEC section 5 allows beyond them.
//!
//! The stress modes play the game they write ([`super::games`]), choosing moves by what
//! they do to it (checks, approaches to the enemy captain, blocked attacks):
//!
//! - `decisive`: both sides attack; a captain falls within some 10-40 plies, and a few
//!   commands follow the end of the game.
//! - `captains`: the captains walk towards each other and the pieces between them step
//!   aside, so they soon face each other or meet.
//! - `attacks`: every kind of piece giving check, checks blocked and discovered.
//! - `invalid`: every kind of invalid command, among legal moves.
//! - `blocked`: moves and attacks whose blocking square is taken.
//!
//! Lengths are mixed, short ones first: the first failure found is usually short. The
//! first two cases are the smallest inputs there are, no command and one command (a
//! solution that reads `Q` commands before it looks, or prints something for none,
//! fails there first); the next four, in every mode but one chosen, are the inputs
//! that take the counts a solution keeps to their most ([`extremes`]: 1000 invalid
//! commands in a row, 1000 moves without a capture, the longest answer, every piece
//! taken), where an array, a buffer or a counter sized too small fails.

use crate::generate;
use crate::generate::case::{Case, Cmd, Layout};
use crate::generate::extremes;
use crate::generate::games::Writer;
use crate::generate::mode::Mode;
use crate::judge::piece::{COLS, ROWS};
use crate::sys::rng::Rng;

/// What the search asks for.
#[derive(Clone, Copy, Debug)]
pub struct Recipe {
    /// The seed of the whole run.
    pub seed: u64,
    /// One mode, or `None` for all of them mixed.
    pub mode: Option<Mode>,
    /// The most commands in a case.
    pub max_q: u64,
    /// Also what SPEC section 5 allows beyond the official constraints.
    pub messy: bool,
    /// Cases 2 to 5 are the inputs that take the counts a solution keeps to their most
    /// (`stress`'s, unless a mode is chosen).
    pub counts: bool,
}

/// Case `index` of `recipe`, and the mode it was made in.
pub fn case(recipe: &Recipe, index: u64) -> (Case, Mode) {
    let counts = (2..2 + extremes::NUMBERED).contains(&index);
    if counts && recipe.counts && recipe.mode.is_none_or(|m| m == Mode::Counts) {
        let mut cmds = extremes::numbered(index - 2);
        cmds.truncate(recipe.max_q as usize);
        return (Case::of(&cmds), Mode::Counts);
    }
    let mut rng = Rng::new(recipe.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64();
    let mode = recipe
        .mode
        .unwrap_or_else(|| Mode::MIXED[rng.index(Mode::MIXED.len())]);
    let q = length(&mut rng, index, recipe.max_q);
    let mut case = if mode.steers() {
        Writer::new(&mut rng, recipe.messy).play(mode, q)
    } else {
        from_gen(rng.next_u64(), q, mode)
    };
    if recipe.messy {
        for line in &mut case.lines {
            if rng.chance(0.3) {
                line.layout = Layout(rng.below(Layout::ALL_BITS as u64 + 1) as u8);
            }
        }
    }
    (case, mode)
}

/// The number of commands of case `index`: none for case 0, one for case 1, then
/// lengths that double by classes (4, 8, ... 512, then the maximum), and a class is open once enough shorter cases have been tried;
/// each case picks an open class, so short cases stay the most common.
fn length(rng: &mut Rng, index: u64, max_q: u64) -> u64 {
    if index < 2 {
        return index.min(max_q);
    }
    let open = (64 - (index / 16 + 1).leading_zeros()) as usize;
    let mut classes: Vec<u64> = (2..10).map(|k| 1u64 << k).filter(|&l| l < max_q).collect();
    classes.push(max_q);
    let top = open.min(classes.len() - 1);
    let class = classes[rng.index(top + 1)];
    if class <= 1 {
        return class;
    }
    class / 2 + 1 + rng.below(class - class / 2)
}

/// A case written by `gen`.
fn from_gen(seed: u64, q: u64, mode: Mode) -> Case {
    let mut bytes = Vec::new();
    // Writing to memory cannot fail.
    let _ = generate::input(seed, q, mode, &mut bytes);
    let text = String::from_utf8_lossy(&bytes);
    let cmds: Vec<Cmd> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let n: Vec<i64> = l.split(' ').filter_map(|w| w.parse().ok()).collect();
            (n.len() == 4).then(|| [n[0], n[1], n[2], n[3]])
        })
        .collect();
    Case::of(&cmds)
}

/// Whether every command of `case` is within the official constraints.
pub fn official(case: &Case) -> bool {
    case.len() <= 1000
        && case.lines.iter().all(|l| {
            l.layout == Layout::PLAIN
                && (0..ROWS as i64).contains(&l.cmd[0])
                && (0..COLS as i64).contains(&l.cmd[1])
                && (0..ROWS as i64).contains(&l.cmd[2])
                && (0..COLS as i64).contains(&l.cmd[3])
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipe(seed: u64, mode: Option<Mode>) -> Recipe {
        Recipe {
            seed,
            mode,
            max_q: 1000,
            messy: false,
            counts: true,
        }
    }

    #[test]
    fn the_first_cases_are_no_command_and_one_command() {
        for mode in Mode::ALL {
            for seed in 1..=3 {
                let r = recipe(seed, Some(mode));
                assert_eq!(case(&r, 0).0.len(), 0, "{mode:?}");
                assert_eq!(case(&r, 1).0.len(), 1, "{mode:?}");
                assert!(case(&r, 2).0.len() >= 2, "{mode:?}");
                assert!(case(&r, 6).0.len() >= 2, "{mode:?}");
            }
        }
    }

    #[test]
    fn the_same_index_gives_the_same_case() {
        for index in [0, 1, 77, 5000] {
            let r = recipe(9, None);
            assert_eq!(case(&r, index), case(&r, index));
        }
        assert_ne!(case(&recipe(1, None), 6).0, case(&recipe(2, None), 6).0);
    }

    #[test]
    fn cases_stay_within_the_official_constraints() {
        for mode in Mode::ALL {
            for index in 0..40 {
                let (c, m) = case(&recipe(index, Some(mode)), index * 50);
                assert_eq!(m, mode);
                assert!(official(&c), "{mode} {index}");
                assert!(c.len() as u64 <= 1000);
            }
        }
        let mut r = recipe(3, None);
        r.messy = true;
        let messy = (0..200).any(|i| !official(&case(&r, i).0));
        assert!(messy, "--messy goes beyond the official form");
    }

    #[test]
    fn short_cases_come_first_and_lengths_respect_the_maximum() {
        let r = recipe(4, None);
        // After the smallest inputs, the four that take the counts to their most.
        for i in 2..2 + extremes::NUMBERED {
            assert_eq!(
                case(&r, i),
                (Case::of(&extremes::numbered(i - 2)), Mode::Counts)
            );
        }
        assert!((6..16).all(|i| case(&r, i).0.len() <= 8));
        let long = (0..4000)
            .map(|i| case(&Recipe { max_q: 300, ..r }, i).0.len())
            .max();
        assert!(long.is_some_and(|l| (200..=300).contains(&l)), "{long:?}");
    }
}
