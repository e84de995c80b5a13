//! The catalogue of plausible mistakes: the hand-written ones ([`super::handwritten`]), their
//! variants ([`super::variants`]) and the slips grown from the move table
//! ([`super::slips`]), each listed once. Every mistake has a kebab-case name, one
//! sentence in plain words, the rule it breaks, a group for the tables, and a [`Fault`]
//! that the mutant judge ([`super::mutant`]) makes.
//!
//! A candidate is not listed when it is no mistake at all (it always answers as the
//! rules: a blocking square mirrored across the axis it lies on) or when it always
//! answers as a listed one (a car that counts the captain's square as in its way gives
//! no check that way: the direction dropped); the reason is kept with it
//! ([`Unlisted`]), and a test plays both on a large generated corpus to hold the reason
//! to the truth.

use super::handwritten::{Topic, Written};
use super::slips::{self, Effect, Key, Slip, Use};
use super::solution_shapes::{self, Family, Shaped};
use super::variants::{self, Standing, Variant};
use crate::cli::{self, help};
use crate::judge::piece::PieceKind;
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// What a mutant does wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// A hand-written mistake.
    Written(Written),
    /// A variant of one.
    Variant(Variant),
    /// A slip in one row of the move table.
    Slip(Slip),
    /// A mistake of a solution's shape: one starting piece, the order of validation,
    /// one side's bookkeeping.
    Shaped(Shaped),
}

/// The groups of the catalogue, in the order the tables list them: the hand-written
/// topics, then the rows of each piece's table in each use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    /// A topic of the hand-written mistakes and their variants.
    Topic(Topic),
    /// One row of a piece's table slipped, in one use.
    Rows(Use, PieceKind),
    /// A family of mistakes that follow a solution's shape.
    Family(Family),
}

impl Group {
    /// Every group that holds a listed mistake, in table order (no row of the
    /// captain's table is a mistake when check is decided: a captain's check is mutual).
    pub fn all() -> Vec<Group> {
        let mut out: Vec<Group> = Topic::ALL.iter().map(|&t| Group::Topic(t)).collect();
        for at in Use::ALL {
            for kind in PieceKind::ALL {
                out.push(Group::Rows(at, kind));
            }
        }
        out.extend(Family::ALL.iter().map(|&f| Group::Family(f)));
        let listed = &catalogue().entries;
        out.retain(|g| listed.iter().any(|e| e.group == *g));
        out
    }

    /// The group's title in tables.
    pub fn title(self) -> String {
        match self {
            Group::Topic(t) => t.title().to_string(),
            Group::Rows(at, PieceKind::Car) => format!(
                "one direction of the car, when {}",
                match at {
                    Use::Move => "a move is judged",
                    Use::Check => "check is decided",
                }
            ),
            Group::Rows(at, kind) => format!(
                "one row of the {kind}'s move table, when {}",
                match at {
                    Use::Move => "a move is judged",
                    Use::Check => "check is decided",
                }
            ),
            Group::Family(f) => f.title().to_string(),
        }
    }

    /// Whether the group's mistakes were grown from the move table.
    pub fn is_grown(self) -> bool {
        matches!(self, Group::Rows(..))
    }
}

/// One listed mistake.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its kebab-case name.
    pub name: String,
    /// What the solution does, in one sentence.
    pub sentence: String,
    /// The rule it breaks.
    pub rule: String,
    /// Where the tables list it.
    pub group: Group,
    /// What the mutant does.
    pub fault: Fault,
}

/// Why a candidate is not listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// It always answers as this listed mistake.
    SameAs(Mistake),
    /// It always answers as the rules (the reason in words).
    Rule(&'static str),
    /// Only an input beyond the official limits could tell (the reason in words).
    Outside(&'static str),
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::SameAs(m) => write!(f, "always answers as {m}"),
            Why::Rule(why) | Why::Outside(why) => f.write_str(why),
        }
    }
}

/// A candidate that is not listed, and why.
#[derive(Clone, Debug)]
pub struct Unlisted {
    /// Its name.
    pub name: String,
    /// What its mutant does.
    pub fault: Fault,
    /// Why it is not listed.
    pub why: Why,
}

/// The whole catalogue.
#[derive(Debug)]
pub struct Catalogue {
    /// The listed mistakes, in table order.
    pub entries: Vec<Entry>,
    /// The candidates that are not listed.
    pub unlisted: Vec<Unlisted>,
    mistakes: Vec<Mistake>,
    by_name: HashMap<String, Mistake>,
}

fn build() -> Catalogue {
    let mut listed: Vec<Entry> = Written::ALL
        .iter()
        .map(|&w| Entry {
            name: w.name().to_string(),
            sentence: w.sentence().to_string(),
            rule: w.rule().to_string(),
            group: Group::Topic(w.topic()),
            fault: Fault::Written(w),
        })
        .collect();
    // Unlisted candidates, each with why: in words, or the name of the listed one it
    // answers as.
    let mut pending: Vec<(String, Fault, Result<Why, String>)> = Vec::new();
    for v in variants::all() {
        let fault = Fault::Variant(v.variant);
        match v.standing {
            Standing::Listed => listed.push(Entry {
                name: v.name,
                sentence: v.sentence,
                rule: v.rule,
                group: Group::Topic(v.topic),
                fault,
            }),
            Standing::SameAs(w) => pending.push((v.name, fault, Err(w.name().to_string()))),
            Standing::Rule(why) => pending.push((v.name, fault, Ok(Why::Rule(why)))),
            Standing::Outside(why) => pending.push((v.name, fault, Ok(Why::Outside(why)))),
        }
    }
    for d in solution_shapes::all() {
        let fault = Fault::Shaped(d.shaped);
        match d.standing {
            solution_shapes::Standing::Listed => listed.push(Entry {
                name: d.name,
                sentence: d.sentence,
                rule: d.rule,
                group: Group::Family(d.shaped.family()),
                fault,
            }),
            solution_shapes::Standing::Rule(why) => {
                pending.push((d.name, fault, Ok(Why::Rule(why))))
            }
        }
    }
    let mut first: HashMap<Key, String> = HashMap::new();
    for g in slips::candidates() {
        let fault = Fault::Slip(g.slip);
        let key = g.slip.key();
        if let Effect::Rule(why) = key.4 {
            pending.push((g.name, fault, Ok(Why::Rule(why))));
        } else if let Some(same) = first.get(&key) {
            pending.push((g.name, fault, Err(same.clone())));
        } else {
            first.insert(key, g.name.clone());
            listed.push(Entry {
                name: g.name,
                sentence: g.sentence,
                rule: g.rule,
                group: Group::Rows(g.slip.at, g.slip.kind),
                fault,
            });
        }
    }
    // Table order: by group, in the order written within each.
    listed.sort_by_key(|e| e.group);
    let mistakes: Vec<Mistake> = (0..listed.len()).map(|i| Mistake(i as u16)).collect();
    let by_name: HashMap<String, Mistake> = listed
        .iter()
        .zip(&mistakes)
        .map(|(e, &m)| (e.name.clone(), m))
        .collect();
    let unlisted = pending
        .into_iter()
        .map(|(name, fault, why)| Unlisted {
            name,
            fault,
            // Every name given here is a listed one: a hand-written or a first grown one.
            why: why.unwrap_or_else(|same| Why::SameAs(by_name[&same])),
        })
        .collect();
    Catalogue {
        entries: listed,
        unlisted,
        mistakes,
        by_name,
    }
}

/// The catalogue, built once.
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(build)
}

/// One mistake of the catalogue: an index into its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mistake(u16);

impl Mistake {
    /// Every listed mistake, grouped as the tables list them.
    pub fn all() -> &'static [Mistake] {
        &catalogue().mistakes
    }

    fn entry(self) -> &'static Entry {
        &catalogue().entries[self.0 as usize]
    }

    /// Its place in [`Mistake::all`].
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The short kebab-case name.
    pub fn name(self) -> &'static str {
        &self.entry().name
    }

    /// What the mistaken solution does, in one sentence.
    pub fn sentence(self) -> &'static str {
        &self.entry().sentence
    }

    /// The rule it breaks.
    pub fn rule(self) -> &'static str {
        &self.entry().rule
    }

    /// Its group.
    pub fn group(self) -> Group {
        self.entry().group
    }

    /// What its mutant does.
    pub fn fault(self) -> Fault {
        self.entry().fault
    }

    /// The hand-written witness input (`tests/fixtures/witness/NAME.in`) of a
    /// hand-written mistake; the others' are found on demand by
    /// the suite's search (`suite::witness::of`).
    pub fn fixture(self) -> Option<&'static str> {
        match self.fault() {
            Fault::Written(w) => Some(w.witness()),
            _ => None,
        }
    }

    /// The mistake called `name`, if any.
    pub fn from_name(name: &str) -> Option<Mistake> {
        catalogue().by_name.get(name).copied()
    }

    /// The hand-written mistake `w`.
    pub fn written(w: Written) -> Mistake {
        // Every hand-written mistake is listed, under its own name.
        catalogue().by_name[w.name()]
    }
}

/// The catalogue as `audit --list` prints it: how many mistakes, where they come from,
/// each group with its mistakes, their sentences and rules; then the candidates not
/// listed, each with why.
pub fn listing() -> String {
    let all = Mistake::all();
    let count = |f: &dyn Fn(Fault) -> bool| all.iter().filter(|m| f(m.fault())).count();
    let mut out = format!(
        "{} in {} groups\n",
        cli::plural(all.len() as u64, "mistake"),
        Group::all().len(),
    );
    out.push_str(&help::filled(
        &format!(
            "({} written by hand, {} variants of them, {} grown from the move table, {} \
             from the shapes solutions take)",
            count(&|f| matches!(f, Fault::Written(_))),
            count(&|f| matches!(f, Fault::Variant(_))),
            count(&|f| matches!(f, Fault::Slip(_))),
            count(&|f| matches!(f, Fault::Shaped(_))),
        ),
        "",
        "",
    ));
    for group in Group::all() {
        out.push_str(&format!("\n{}:\n", group.title()));
        for m in all.iter().filter(|m| m.group() == group) {
            out.push_str(&format!("  {m}\n"));
            out.push_str(&help::filled(m.sentence(), "    ", "    "));
            out.push_str(&help::filled(m.rule(), "    rule: ", "          "));
        }
    }
    let unlisted = &catalogue().unlisted;
    out.push('\n');
    out.push_str(&help::filled(
        &format!(
            "not listed: {} more candidates, each always answering as a listed mistake or \
             as the rules (a test plays them on a large corpus to hold these reasons to the \
             truth):",
            unlisted.len()
        ),
        "",
        "",
    ));
    for u in unlisted {
        out.push_str(&help::filled(
            &format!("{}: {}", u.name, u.why),
            "  ",
            "    ",
        ));
    }
    out
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_kebab_case() {
        assert!(Mistake::all().len() >= 300, "{}", Mistake::all().len());
        for &m in Mistake::all() {
            assert_eq!(Mistake::from_name(m.name()), Some(m));
            assert!(
                m.name()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{m}"
            );
            assert!(!m.sentence().ends_with('.') && !m.rule().ends_with('.'));
        }
        let cat = catalogue();
        for u in &cat.unlisted {
            assert_eq!(Mistake::from_name(&u.name), None, "{} is listed", u.name);
        }
        // Grouped: each group's mistakes stand together, in table order.
        let groups: Vec<Group> = Mistake::all().iter().map(|m| m.group()).collect();
        let mut sorted = groups.clone();
        sorted.sort();
        assert_eq!(groups, sorted);
        assert_eq!(Mistake::from_name("no-such-mistake"), None);
        assert_eq!(Mistake::written(Written::NineRows).name(), "nine-rows");
    }

    #[test]
    fn one_listed_mistake_for_each_effect() {
        let mut seen = HashMap::new();
        for &m in Mistake::all() {
            if let Fault::Slip(s) = m.fault() {
                assert!(!matches!(s.key().4, Effect::Rule(_)), "{m}");
                assert!(seen.insert(s.key(), m).is_none(), "{m} twice");
            }
        }
        for u in &catalogue().unlisted {
            if let (Fault::Slip(s), Why::SameAs(m)) = (u.fault, u.why) {
                assert_eq!(seen.get(&s.key()), Some(&m), "{}", u.name);
            }
        }
    }
}
