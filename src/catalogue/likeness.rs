//! Which catalogued mistakes a program behaves like, from its answers to the kept
//! witnesses ([`super::witnesses`]). For each witness the program fails, its first wrong
//! line is compared with each mistake's mutant: a mistake *explains* the failure when
//! its mutant goes wrong at the same line with the same answer; it is *contradicted*
//! where its mutant goes wrong and the program does not (the program gets that line
//! right), or goes wrong there another way. A program behaves like a mistake that
//! explains some of its failures and is never contradicted. A program with two
//! mistakes behaves like both: a witness fails at the first line either makes wrong,
//! and where that is the other's line, this one is not contradicted.

use super::list::Mistake;
use super::mutant::{judge_answers, Answer, Mutant};
use crate::generate::case::Cmd;
use crate::judge::verdict_line;
use std::thread;

/// One input the program was run on.
#[derive(Clone, Debug)]
pub struct Probe {
    /// The input as the program read it.
    pub input: &'static str,
    /// Its commands.
    pub cmds: Vec<Cmd>,
}

impl Probe {
    /// The probe of a judge input in the official format; `None` when it is not one.
    pub fn of(input: &'static str) -> Option<Probe> {
        let numbers: Vec<i64> = input
            .split_ascii_whitespace()
            .map(|w| w.parse().ok())
            .collect::<Option<_>>()?;
        let (&q, rest) = numbers.split_first()?;
        if q < 0 || rest.len() as i64 != q * 4 {
            return None;
        }
        let cmds = rest.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        Some(Probe { input, cmds })
    }
}

/// What the program did with a probe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// It ran to its end and printed these lines.
    Lines(Vec<String>),
    /// It did not run to its end (a runtime error, a time or memory limit): the lines
    /// it printed before, and the verdict's word.
    Failed(Vec<String>, &'static str),
}

impl Seen {
    fn lines(&self) -> &[String] {
        match self {
            Seen::Lines(l) | Seen::Failed(l, _) => l,
        }
    }
}

/// The judge's line for an answer.
pub fn line(answer: &Answer) -> String {
    match answer {
        Some(moved) => verdict_line(&Ok(*moved)),
        None => "Invalid command".to_string(),
    }
}

/// Where a program first goes wrong on a probe: the command's index and the line it
/// printed there (`None` when it printed none). `None` when it is right throughout.
fn first_wrong(seen: &Seen, expected: &[String]) -> Option<(usize, Option<String>)> {
    let lines = seen.lines();
    for (i, e) in expected.iter().enumerate() {
        let actual = lines.get(i).map(|l| l.trim_end().to_string());
        if actual.as_deref() != Some(e.as_str()) {
            return Some((i, actual));
        }
    }
    let extra = lines[expected.len().min(lines.len())..]
        .iter()
        .any(|l| !l.trim().is_empty());
    match seen {
        Seen::Failed(..) => Some((expected.len(), None)),
        Seen::Lines(_) if extra => Some((expected.len(), lines.get(expected.len()).cloned())),
        Seen::Lines(_) => None,
    }
}

/// Where `mistake`'s mutant first goes wrong on `cmds`, whose judge's answers are
/// `expected`, with its line there.
fn mutant_wrong(mistake: Mistake, cmds: &[Cmd], expected: &[Answer]) -> Option<(usize, String)> {
    let mut game = Mutant::new(Some(mistake));
    cmds.iter()
        .zip(expected)
        .enumerate()
        .find_map(|(i, (&c, e))| {
            let a = game.play(c);
            (a != *e).then(|| (i, line(&a)))
        })
}

/// A mistake the program behaves like.
#[derive(Clone, Debug)]
pub struct Like {
    /// The mistake.
    pub mistake: Mistake,
    /// The program's failures it explains (the probes' indices).
    pub explains: Vec<usize>,
    /// The smallest probe among those (its index), its witness for the program.
    pub smallest: usize,
}

/// The mistakes of `likes` (best first) that a reader needs: each explains a failure
/// none before it does; the others are alike, explaining only what those do.
pub fn distinct(likes: &[Like]) -> (Vec<&Like>, Vec<&Like>) {
    let mut covered: Vec<usize> = Vec::new();
    let (mut named, mut alike) = (Vec::new(), Vec::new());
    for like in likes {
        if like.explains.iter().any(|p| !covered.contains(p)) {
            covered.extend(&like.explains);
            named.push(like);
        } else {
            alike.push(like);
        }
    }
    (named, alike)
}

/// What the program's answers to the probes say.
#[derive(Clone, Debug)]
pub struct Likeness {
    /// The probes the program failed (their indices).
    pub failed: Vec<usize>,
    /// The mistakes it behaves like, the one that explains most first (then the one
    /// with the smallest witness, then the catalogue's order).
    pub likes: Vec<Like>,
    /// The failures no mistake it behaves like explains (their indices).
    pub unexplained: Vec<usize>,
}

/// The likeness of a program that answered `seen` to `probes` (one each), on `jobs`
/// threads.
pub fn of(probes: &[Probe], seen: &[Seen], jobs: usize) -> Likeness {
    let expected: Vec<Vec<Answer>> = probes.iter().map(|p| judge_answers(&p.cmds)).collect();
    let wrong: Vec<Option<(usize, Option<String>)>> = probes
        .iter()
        .zip(seen)
        .zip(&expected)
        .map(|((_, s), e)| first_wrong(s, &e.iter().map(line).collect::<Vec<_>>()))
        .collect();
    let failed: Vec<usize> = (0..probes.len()).filter(|&p| wrong[p].is_some()).collect();
    let mistakes = Mistake::all();
    let judged = |m: Mistake| -> Option<Like> {
        let mut explained = Vec::new();
        for (p, probe) in probes.iter().enumerate() {
            let theirs = mutant_wrong(m, &probe.cmds, &expected[p]);
            match (&wrong[p], theirs) {
                (_, None) => {}
                (None, Some(_)) => return None,
                (Some((i, line)), Some((j, mutant_line))) => {
                    if *i > j {
                        // The program is right where the mutant is wrong.
                        return None;
                    }
                    if *i == j {
                        if line.as_deref() != Some(mutant_line.as_str()) {
                            return None;
                        }
                        explained.push(p);
                    }
                }
            }
        }
        let smallest = explained
            .iter()
            .copied()
            .min_by_key(|&p| probes[p].cmds.len())?;
        Some(Like {
            mistake: m,
            explains: explained,
            smallest,
        })
    };
    let jobs = jobs.clamp(1, mistakes.len().max(1));
    let chunk = mistakes.len().div_ceil(jobs);
    let mut likes: Vec<Like> = thread::scope(|scope| {
        let handles: Vec<_> = mistakes
            .chunks(chunk.max(1))
            .map(|part| {
                scope.spawn(move || part.iter().filter_map(|&m| judged(m)).collect::<Vec<_>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    likes.sort_by_key(|l| {
        (
            std::cmp::Reverse(l.explains.len()),
            probes[l.smallest].cmds.len(),
            l.mistake.index(),
        )
    });
    let unexplained = failed
        .iter()
        .copied()
        .filter(|p| !likes.iter().any(|l| l.explains.contains(p)))
        .collect();
    Likeness {
        failed,
        likes,
        unexplained,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::witnesses;

    /// What `mistake`'s mutant prints for each probe.
    fn as_mutant(mistake: Option<Mistake>, probes: &[Probe]) -> Vec<Seen> {
        probes
            .iter()
            .map(|p| {
                let mut game = Mutant::new(mistake);
                Seen::Lines(p.cmds.iter().map(|&c| line(&game.play(c))).collect())
            })
            .collect()
    }

    fn probes() -> Vec<Probe> {
        witnesses::all()
            .into_iter()
            .filter_map(|(_, w)| Probe::of(w))
            .collect()
    }

    #[test]
    fn the_judge_fails_nothing_and_is_like_no_mistake() {
        let probes = probes();
        let l = of(&probes, &as_mutant(None, &probes), 2);
        assert!(l.failed.is_empty() && l.likes.is_empty() && l.unexplained.is_empty());
    }

    #[test]
    fn a_mutant_is_like_its_own_mistake_first_and_explains_every_failure() {
        let probes = probes();
        for name in [
            "check-ignores-horse-leg",
            "moves-after-the-end",
            "move-blue-soldier-up1-right1-dropped",
            "piece-red-captain-0-4-never-moves",
        ] {
            let m = Mistake::from_name(name).expect("a listed mistake");
            let l = of(&probes, &as_mutant(Some(m), &probes), 2);
            assert!(!l.failed.is_empty(), "{name}");
            assert!(l.unexplained.is_empty(), "{name}");
            let first = &l.likes[0];
            assert_eq!(first.explains.len(), l.failed.len(), "{name}");
            assert!(
                l.likes
                    .iter()
                    .take_while(|x| x.explains.len() == first.explains.len())
                    .any(|x| x.mistake == m),
                "{name}: {:?}",
                l.likes.iter().map(|x| x.mistake.name()).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn a_mistake_is_named_only_for_failures_none_before_it_explains() {
        let m = Mistake::all();
        let like = |i: usize, explains: &[usize]| Like {
            mistake: m[i],
            explains: explains.to_vec(),
            smallest: explains[0],
        };
        let likes = [
            like(0, &[1, 2, 3]),
            like(1, &[2, 3]),
            like(2, &[4]),
            like(3, &[1]),
        ];
        let (named, alike) = distinct(&likes);
        let names = |v: &[&Like]| v.iter().map(|l| l.mistake).collect::<Vec<_>>();
        assert_eq!(names(&named), [m[0], m[2]]);
        assert_eq!(names(&alike), [m[1], m[3]]);
    }

    #[test]
    fn a_program_that_stops_early_is_contradicted_by_nothing_it_did_not_print() {
        let probe = Probe::of("2\n0 0 1 0\n9 0 8 0\n").expect("a probe");
        let seen = Seen::Failed(vec!["red car;NA;no;no".to_string()], "RE");
        let expected: Vec<String> = judge_answers(&probe.cmds).iter().map(line).collect();
        assert_eq!(first_wrong(&seen, &expected), Some((1, None)));
        let right = Seen::Lines(expected.clone());
        assert_eq!(first_wrong(&right, &expected), None);
        let mut extra = expected.clone();
        extra.push("more".to_string());
        assert_eq!(
            first_wrong(&Seen::Lines(extra), &expected),
            Some((2, Some("more".to_string())))
        );
    }
}
