//! Shrinking a failing case while it fails the same way (the same verdict; for a wrong
//! answer, any disagreement): cut everything after the first differing line, drop the
//! invalid commands, replace the game before the failing command by a shorter route to
//! what matters ([`super::route`]), then delta debugging (Zeller's ddmin, removing ever
//! smaller runs of commands) and pairs of commands (one move of each side, so the side to
//! move is kept). Rounds repeat until none shrinks; the last ddmin pass tries every
//! single command, so the result is 1-minimal unless the budget ran out first. Then the
//! game is retold more freely (the whole game, its last move included; pieces out of a
//! mover's way) and, when that is shorter, the rounds start again from there. A case still
//! longer than [`RELOCATE_ABOVE`] is then tried with the pieces that matter set up
//! elsewhere on the board by a shorter game ([`relocate`]), and shrunk again from there
//! when one of those fails the same way; once plain shifts bring nothing shorter, with
//! another piece of the mover's side making the last move.
//!
//! Candidates are tried in parallel through [`search::first`], which always settles on the
//! lowest failing one, so a seeded run shrinks to the same case whatever the jobs.

use super::relocate;
use super::route;
use super::search::{self, Budget, Tester, Trial};
use crate::generate::case::{Case, Line};
use crate::show::diagnose::Kind;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A case longer than this is tried with the pieces that matter moved elsewhere
/// ([`relocate`]) once the rounds and the retelling are done.
pub const RELOCATE_ABOVE: usize = 8;
/// At most this many relocations in a row, each from the case the last one left.
const RELOCATIONS: usize = 3;

/// A shrunk case.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The case.
    pub case: Case,
    /// How it fails.
    pub trial: Trial,
    /// Removing any one command makes it pass (or fail differently).
    pub minimal: bool,
    /// The candidate cases a search on one job runs to get there: the same for any
    /// number of jobs (more jobs also run candidates past the one that is kept).
    pub tries: u64,
}

/// Shrinks failing cases against one program.
pub struct Shrinker<'a> {
    /// The program.
    pub oracle: &'a dyn Tester,
    /// Parallel runs.
    pub jobs: usize,
    /// When to stop.
    pub budget: Budget,
    /// At most this many runs of the program in all (the oracle's count).
    pub max_runs: u64,
    /// Whether to try shorter routes to the same events ([`super::route`]).
    pub reroute: bool,
    /// Candidates run so far, counted as one job would run them.
    tries: AtomicU64,
}

impl<'a> Shrinker<'a> {
    /// A shrinker of `oracle`'s failures, on `jobs` threads within `budget` and
    /// `max_runs` runs of the program in all; `reroute` tries shorter games to the same
    /// events.
    pub fn new(
        oracle: &'a dyn Tester,
        jobs: usize,
        budget: Budget,
        max_runs: u64,
        reroute: bool,
    ) -> Shrinker<'a> {
        Shrinker {
            oracle,
            jobs,
            budget,
            max_runs,
            reroute,
            tries: AtomicU64::new(0),
        }
    }

    /// Whether the budget or the runs are spent.
    pub fn exhausted(&self) -> bool {
        self.budget.spent() || self.oracle.runs() >= self.max_runs
    }

    /// The lowest index among `count` candidates made by `make` that fails like `like`,
    /// with the case and its trial.
    fn first_failing(
        &self,
        count: usize,
        like: &Trial,
        make: impl Fn(usize) -> Option<Case> + Sync,
    ) -> Option<(usize, Case, Trial)> {
        if self.exhausted() || count == 0 {
            return None;
        }
        // Which candidates were run, so that the count can leave out those that a
        // parallel search ran past the lowest failing one.
        let ran: Vec<AtomicBool> = (0..count).map(|_| AtomicBool::new(false)).collect();
        let found = search::first(
            self.jobs,
            count as u64,
            self.budget,
            |i| {
                if self.oracle.runs() >= self.max_runs {
                    return None;
                }
                let case = make(i as usize)?;
                ran[i as usize].store(true, Ordering::Relaxed);
                let trial = self.oracle.trial(&case)?;
                trial.fails_like(like).then_some((case, trial))
            },
            None,
        );
        let upto = found.first.as_ref().map_or(count, |(i, _)| *i as usize + 1);
        let tries = ran[..upto]
            .iter()
            .filter(|r| r.load(Ordering::Relaxed))
            .count();
        self.tries.fetch_add(tries as u64, Ordering::Relaxed);
        found
            .first
            .map(|(i, (case, trial))| (i as usize, case, trial))
    }

    /// Whether `case` fails like `like`; its trial if so.
    fn fails(&self, case: &Case, like: &Trial) -> Option<Trial> {
        let c = case.clone();
        self.first_failing(1, like, move |_| Some(c.clone()))
            .map(|(_, _, t)| t)
    }

    /// A wrong answer cut after its first differing line, when that still fails.
    fn cut(&self, case: Case, trial: Trial) -> (Case, Trial) {
        if let (Kind::WrongAnswer, Some(line)) = (trial.kind, trial.line) {
            let n = line as usize + 1;
            if n < case.len() {
                let shorter = case.prefix(n);
                if let Some(t) = self.fails(&shorter, &trial) {
                    return (shorter, t);
                }
            }
        }
        (case, trial)
    }

    /// Shrinks `case`, which fails as `trial` says. Once no round shrinks it, the game
    /// is retold more freely ([`Shrinker::reroute`] with `retell`) and, when that is
    /// shorter, shrunk again from there: the result is never longer than without it.
    pub fn shrink(&self, case: Case, trial: Trial) -> Shrunk {
        let (case, trial) = self.cut(case, trial);
        let (mut case, mut trial, mut minimal) = self.settle(case, trial, false);
        if self.reroute && trial.kind == Kind::WrongAnswer && !self.exhausted() {
            let (retold, t) = self.reroute(case.clone(), trial, true);
            if retold.len() < case.len() {
                (case, trial, minimal) = self.settle(retold, t, true);
            }
        }
        // Each relocation that shrinks the case may open another. Stand-ins for the
        // mover come after the plain shifts have done what they can: a stand-in's
        // shorter game may settle on a case that no later shift shortens, where the
        // plain shifts would have gone further.
        for stand_ins in [false, true] {
            for _ in 0..RELOCATIONS {
                if !self.reroute || trial.kind != Kind::WrongAnswer || case.len() <= RELOCATE_ABOVE
                {
                    break;
                }
                let Some((moved, t)) = self.relocate(&case, &trial, stand_ins) else {
                    break;
                };
                let (c, t, m) = self.settle(moved, t, true);
                if c.len() >= case.len() {
                    break;
                }
                (case, trial, minimal) = (c, t, m);
            }
        }
        Shrunk {
            case,
            trial,
            minimal,
            tries: self.tries.load(Ordering::Relaxed),
        }
    }

    /// The first of the [`relocate::TRIED`] shortest games that set up the pieces that
    /// matter elsewhere on the board ([`relocate::relocations`]) that fails like `trial`,
    /// when the last command of `case` is a legal move; with `stand_ins`, other pieces
    /// may make the last move too.
    fn relocate(&self, case: &Case, trial: &Trial, stand_ins: bool) -> Option<(Case, Trial)> {
        if self.exhausted() || !case.validity().last().copied().unwrap_or(false) {
            return None;
        }
        let games = relocate::relocations(&case.cmds(), stand_ins);
        let games = &games[..games.len().min(relocate::TRIED)];
        self.first_failing(games.len(), trial, |k| Some(Case::of(&games[k])))
            .map(|(_, c, t)| (c, t))
    }

    /// Rounds of shrinking until none shrinks; whether the result is 1-minimal.
    fn settle(&self, mut case: Case, mut trial: Trial, retell: bool) -> (Case, Trial, bool) {
        while !self.exhausted() {
            let before = case.len();
            (case, trial) = self.drop_invalid(case, trial);
            if self.reroute && trial.kind == Kind::WrongAnswer {
                (case, trial) = self.reroute(case, trial, retell);
            }
            let complete;
            (case, trial, complete) = self.ddmin(case, trial);
            (case, trial) = self.pairs(case, trial);
            if case.len() >= before {
                return (case, trial, complete && !self.exhausted());
            }
        }
        (case, trial, false)
    }

    /// Every invalid command but the last command dropped at once.
    fn drop_invalid(&self, case: Case, trial: Trial) -> (Case, Trial) {
        let valid = case.validity();
        let last = case.len().saturating_sub(1);
        let shorter = case.without(|i| i < last && !valid[i]);
        if shorter.len() < case.len() {
            if let Some(t) = self.fails(&shorter, &trial) {
                return self.cut(shorter, t);
            }
        }
        (case, trial)
    }

    /// The game before the last command replaced by a short route to the events that
    /// matter: delta debugging on the game's events (each candidate a legal game built
    /// by [`route::realize`]), with the captures as told and with the fastest taker of a
    /// captain; the shortest failing case wins. To `retell` is to go further: the whole
    /// game is retold, its last move included when it is legal (a difference in what
    /// follows a move, a check or the end of the game, shows wherever the piece came
    /// from, and the route to its square may be far shorter than the one to where it
    /// moved from), pieces step out of a mover's way, and taken pieces other than
    /// captains may step aside instead.
    fn reroute(&self, case: Case, trial: Trial, retell: bool) -> (Case, Trial) {
        let Some((&last, before)) = case.lines.split_last() else {
            return (case, trial);
        };
        let cmds: Vec<_> = case.lines.iter().map(|l| l.cmd).collect();
        let legal_last = case.validity().last().copied().unwrap_or(false);
        let mut best = (case.clone(), trial);
        for whole in [false, true] {
            if whole && !(retell && legal_last) {
                continue;
            }
            let story = route::story(if whole { &cmds } else { &cmds[..before.len()] });
            let takers = if retell {
                route::takers(&story.events)
            } else {
                vec![route::Takers::Fastest, route::Takers::AsTold]
            };
            for takers in takers {
                let build = |events: &[route::Event]| -> Option<Case> {
                    let mut lines: Vec<Line> = route::realize(events, story.side, takers, retell)?
                        .into_iter()
                        .map(Line::plain)
                        .collect();
                    if !whole {
                        lines.push(last);
                    }
                    Some(Case { lines })
                };
                let mut found = Vec::new();
                // Nothing but the last command, or every event, may already do.
                let all = &story.events[..];
                for events in if whole { vec![all] } else { vec![&[][..], all] } {
                    if let Some(c) = build(events).filter(|c| c.len() < best.0.len()) {
                        if let Some(t) = self.fails(&c, &trial) {
                            found.push((c, t));
                        }
                    }
                }
                if found.first().is_none_or(|(c, _)| c.len() > 1) {
                    self.reduce(story.events.clone(), &trial, build, |rest, candidate, t| {
                        found.push((candidate, t));
                        rest
                    });
                }
                for (candidate, t) in found {
                    if candidate.len() < best.0.len() {
                        best = self.cut(candidate, t);
                    }
                }
            }
        }
        best
    }

    /// Delta debugging by complements over `items`: remove one of `n` runs while the case
    /// `build` makes of the rest fails; when none does, halve the runs. `accept` takes
    /// the rest, the failing case and its trial, and gives the items to go on with.
    /// Returns the items and whether it ended by trying every single item.
    fn reduce<T: Clone + Sync>(
        &self,
        mut items: Vec<T>,
        like: &Trial,
        build: impl Fn(&[T]) -> Option<Case> + Sync,
        mut accept: impl FnMut(Vec<T>, Case, Trial) -> Vec<T>,
    ) -> (Vec<T>, bool) {
        let mut n = 2;
        while items.len() >= 2 {
            if self.exhausted() {
                return (items, false);
            }
            let len = items.len();
            let bounds = |k: usize| (k * len / n, (k + 1) * len / n);
            let rest = |k: usize| {
                let (a, b) = bounds(k);
                let mut r = items[..a].to_vec();
                r.extend_from_slice(&items[b..]);
                r
            };
            match self.first_failing(n, like, |k| build(&rest(k))) {
                Some((k, case, t)) => {
                    let kept = rest(k);
                    items = accept(kept, case, t);
                    n = (n - 1).max(2);
                }
                None if n >= len => return (items, !self.exhausted()),
                None => n = (n * 2).min(len),
            }
        }
        (items, !self.exhausted())
    }

    /// Delta debugging on the commands; returns whether it ended by trying every single
    /// command.
    fn ddmin(&self, case: Case, trial: Trial) -> (Case, Trial, bool) {
        let mut best = (case.clone(), trial);
        let (_, complete) = self.reduce(
            case.lines,
            &trial,
            |lines| {
                Some(Case {
                    lines: lines.to_vec(),
                })
            },
            |_, shorter, t| {
                best = self.cut(shorter, t);
                best.0.lines.clone()
            },
        );
        (best.0, best.1, complete)
    }

    /// Removes two neighbouring commands at once while that fails.
    fn pairs(&self, mut case: Case, mut trial: Trial) -> (Case, Trial) {
        let mut start = 0;
        while start + 1 < case.len() {
            let current = &case;
            let found = self.first_failing(case.len() - 1 - start, &trial, |k| {
                let i = start + k;
                Some(current.without(|j| j == i || j == i + 1))
            });
            match found {
                Some((k, shorter, t)) => {
                    start += k;
                    (case, trial) = self.cut(shorter, t);
                }
                None => break,
            }
        }
        (case, trial)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::case::Cmd;
    use crate::generate::mode::Mode;
    use crate::generate::recipe::{self, Recipe};
    use crate::judge::board::Board;
    use crate::judge::game::Game;
    use crate::judge::rules;
    use crate::show::compare::compare;
    use std::time::Duration;

    /// A stand-in for a program: the judge's answer, changed by `bug`.
    struct Fake<F> {
        bug: F,
        runs: AtomicU64,
    }

    impl<F: Fn(&Case) -> Vec<String> + Sync> Tester for Fake<F> {
        fn trial(&self, case: &Case) -> Option<Trial> {
            self.runs.fetch_add(1, Ordering::Relaxed);
            let output: String = (self.bug)(case).iter().map(|l| format!("{l}\n")).collect();
            let c = compare(&case.answer(), output.as_bytes());
            Some(Trial {
                kind: if c.exact {
                    Kind::Accepted
                } else {
                    Kind::WrongAnswer
                },
                line: c.difference.map(|d| d.line),
                elapsed: Duration::ZERO,
                fault: None,
            })
        }

        fn runs(&self) -> u64 {
            self.runs.load(Ordering::Relaxed)
        }
    }

    fn fake<F: Fn(&Case) -> Vec<String> + Sync>(bug: F) -> Fake<F> {
        Fake {
            bug,
            runs: AtomicU64::new(0),
        }
    }

    /// The judge's lines for `case`.
    fn judge_lines(case: &Case) -> Vec<String> {
        String::from_utf8_lossy(&case.answer())
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// A program that accepts a move by a piece's rule after the game is over.
    fn after_the_end(case: &Case) -> Vec<String> {
        let mut lines = judge_lines(case);
        let mut game = Game::new();
        for (i, l) in case.lines.iter().enumerate() {
            let [a, b, c, d] = l.cmd;
            let board = game.board().clone();
            if board.is_over() {
                let moves = match (
                    crate::judge::piece::Square::new(a, b),
                    crate::judge::piece::Square::new(c, d),
                ) {
                    (Some(from), Some(to)) => board.piece_at(from).is_some_and(|p| {
                        p.color == board.side_to_move()
                            && rules::check_path(&board, p.kind, from, to).is_ok()
                            && board.piece_at(to).is_none_or(|t| t.color != p.color)
                    }),
                    _ => false,
                };
                if moves {
                    lines[i] = "red car;NA;no;yes".to_string();
                }
            }
            let _ = game.play(a, b, c, d);
        }
        lines
    }

    fn shrinker(tester: &dyn Tester, reroute: bool) -> Shrinker<'_> {
        Shrinker::new(tester, 2, Budget { deadline: None }, 50_000, reroute)
    }

    /// Whether removing any one command makes `case` pass.
    fn one_minimal(tester: &dyn Tester, case: &Case) -> bool {
        (0..case.len()).all(|i| {
            tester
                .trial(&case.without(|j| j == i))
                .is_some_and(|t| t.kind == Kind::Accepted)
        })
    }

    #[test]
    fn delta_debugging_keeps_exactly_what_the_failure_needs() {
        // Fails on the line of command C when commands A and B came before it, in order.
        let (a, b, c): (Cmd, Cmd, Cmd) = ([1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]);
        let tester = fake(move |case: &Case| {
            let mut lines = judge_lines(case);
            let cmds = case.cmds();
            let at = |x: Cmd| cmds.iter().position(|&y| y == x);
            if let (Some(i), Some(j), Some(k)) = (at(a), at(b), at(c)) {
                if i < j && j < k {
                    lines[k] = "wrong".to_string();
                }
            }
            lines
        });
        let mut rng = crate::sys::rng::Rng::new(3);
        for _ in 0..5 {
            let mut cmds: Vec<Cmd> = (0..300)
                .map(|_| [rng.below(10) as i64 + 4, 5, 5, rng.below(9) as i64])
                .collect();
            cmds.insert(40 + rng.index(40), a);
            cmds.insert(120 + rng.index(40), b);
            cmds.insert(200 + rng.index(40), c);
            let case = Case::of(&cmds);
            let trial = tester.trial(&case).expect("runs");
            assert_eq!(trial.kind, Kind::WrongAnswer);
            let shrunk = shrinker(&tester, true).shrink(case, trial);
            assert_eq!(shrunk.case.cmds(), vec![a, b, c]);
            assert!(shrunk.minimal);
        }
    }

    /// A case of gen's endgame mode: a long game, then the hunt for a captain.
    fn endgame_case(seed: u64) -> Case {
        let recipe = Recipe {
            seed,
            mode: Some(Mode::Endgame),
            max_q: 1000,
            messy: false,
            counts: false,
        };
        recipe::case(&recipe, 5000).0
    }

    #[test]
    fn a_game_over_bug_shrinks_to_a_short_game_and_one_command() {
        let tester = fake(after_the_end);
        let mut shrunk_sizes = Vec::new();
        for seed in 0..12 {
            let case = endgame_case(seed);
            let Some(trial) = tester.trial(&case).filter(|t| t.kind == Kind::WrongAnswer) else {
                continue;
            };
            let shrunk = shrinker(&tester, true).shrink(case.clone(), trial);
            assert!(shrunk.trial.fails_like(&trial));
            assert!(shrunk.minimal && one_minimal(&tester, &shrunk.case));
            // The last command is the one after the end.
            let mut game = Game::new();
            for l in &shrunk.case.lines[..shrunk.case.len() - 1] {
                let [a, b, c, d] = l.cmd;
                let _ = game.play(a, b, c, d);
            }
            assert!(game.board().is_over());
            shrunk_sizes.push((case.len(), shrunk.case.len()));
        }
        assert!(shrunk_sizes.len() >= 6, "{shrunk_sizes:?}");
        assert!(
            shrunk_sizes.iter().all(|&(_, n)| n <= 20),
            "{shrunk_sizes:?}"
        );
    }

    #[test]
    fn rerouting_beats_plain_delta_debugging_on_long_games() {
        let tester = fake(after_the_end);
        let (mut with, mut without) = (0, 0);
        for seed in 0..6 {
            let case = endgame_case(seed);
            let Some(trial) = tester.trial(&case).filter(|t| t.kind == Kind::WrongAnswer) else {
                continue;
            };
            with += shrinker(&tester, true)
                .shrink(case.clone(), trial)
                .case
                .len();
            without += shrinker(&tester, false).shrink(case, trial).case.len();
        }
        assert!(
            with * 3 < without,
            "{with} with rerouting, {without} without"
        );
    }

    /// The judge's lines for `case` with the check field rewritten by `check`, given
    /// the board after each legal command of a game not over and whether the judge
    /// says check: a fake program with one slip in its look for check.
    fn check_judged_by(case: &Case, check: impl Fn(&Board, bool) -> bool) -> Vec<String> {
        let mut lines = judge_lines(case);
        let mut game = Game::new();
        for (line, l) in lines.iter_mut().zip(&case.lines) {
            let [a, b, c, d] = l.cmd;
            if game.play(a, b, c, d).is_err() || game.board().is_over() {
                continue;
            }
            let fields: Vec<&str> = line.split(';').collect();
            if fields.len() == 4 {
                let said = if check(game.board(), fields[2] == "yes") {
                    "yes"
                } else {
                    "no"
                };
                *line = format!("{};{};{said};{}", fields[0], fields[1], fields[3]);
            }
        }
        lines
    }

    /// A program that sees a blue horse's check on the red captain even when the
    /// horse's leg is blocked.
    fn horse_leg_ignored(case: &Case) -> Vec<String> {
        use crate::judge::piece::{Color, PieceKind};
        check_judged_by(case, |board, judged| {
            let pieces: Vec<_> = board.pieces().collect();
            let captain = pieces
                .iter()
                .find(|(_, p)| p.kind == PieceKind::Captain && p.color == Color::Red);
            let horses = pieces
                .iter()
                .filter(|(_, p)| p.kind == PieceKind::Horse && p.color == Color::Blue);
            judged
                || horses.into_iter().any(|(h, _)| {
                    captain.is_some_and(|(k, _)| {
                        let (dx, dy) = (
                            (k.x() as i64 - h.x() as i64).abs(),
                            (k.y() as i64 - h.y() as i64).abs(),
                        );
                        (dx, dy) == (1, 2) || (dx, dy) == (2, 1)
                    })
                })
        })
    }

    /// Commands written as in an input file, four numbers a line.
    fn cmds_of(text: &[&str]) -> Vec<Cmd> {
        text.iter()
            .map(|l| {
                let n: Vec<i64> = l.split(' ').map(|x| x.parse().expect("a number")).collect();
                [n[0], n[1], n[2], n[3]]
            })
            .collect()
    }

    /// A program that never sees a soldier's check backwards (towards its own side).
    fn soldier_backwards_ignored(case: &Case) -> Vec<String> {
        use crate::judge::piece::{Color, PieceKind};
        check_judged_by(case, |board, judged| {
            judged
                && Color::ALL.into_iter().any(|color| {
                    board.captain(color).is_some_and(|captain| {
                        let by = color.opponent();
                        rules::attackers(board, captain, by).into_iter().any(|at| {
                            let soldier =
                                board.piece_at(at).map(|p| p.kind) == Some(PieceKind::Soldier);
                            let backwards = match by {
                                Color::Red => captain.x() < at.x(),
                                Color::Blue => captain.x() > at.x(),
                            };
                            !(soldier && backwards)
                        })
                    })
                })
        })
    }

    #[test]
    fn a_far_walk_to_pieces_that_never_moved_is_set_up_nearer() {
        // The blue captain walks seven squares down to two red soldiers that attack it
        // from above; the soldiers coming to meet it make a shorter case.
        let case = Case::of(&cmds_of(&[
            "0 0 1 0", "9 4 8 4", "0 3 1 2", "8 4 7 4", "1 2 0 3", "7 4 7 5", "0 3 1 2", "7 5 6 5",
            "1 2 0 3", "6 5 5 5", "0 3 1 2", "5 5 4 5", "1 2 0 3", "4 5 3 5", "0 3 1 2", "3 5 2 5",
        ]));
        let tester = fake(soldier_backwards_ignored);
        let trial = tester.trial(&case).expect("runs");
        assert_eq!((trial.kind, trial.line), (Kind::WrongAnswer, Some(15)));
        let plain = shrinker(&tester, true);
        let (kept, _, minimal) = plain.settle(case.clone(), trial, true);
        assert!(minimal);
        assert!(kept.len() > RELOCATE_ABOVE, "{:?}", kept.cmds());
        let shrunk = shrinker(&tester, true).shrink(case, trial);
        assert!(shrunk.minimal && one_minimal(&tester, &shrunk.case));
        assert!(shrunk.case.len() < kept.len(), "{:?}", shrunk.case.cmds());
        assert!(shrunk.case.len() <= 12, "{:?}", shrunk.case.cmds());
    }

    #[test]
    fn retelling_the_game_finds_a_shorter_route_past_its_own_pieces() {
        // A blue horse walled in by its own soldiers went the long way round to check the
        // red captain past a blocked leg; one soldier stepping aside opens a short way,
        // and the 1-minimal case of the first rounds shrinks further.
        let case = Case::of(&cmds_of(&[
            "0 3 1 2", "9 1 7 2", "0 4 0 3", "7 2 8 4", "0 5 1 4", "8 4 6 5", "1 4 0 5", "6 5 4 6",
            "0 5 1 4", "4 6 5 8", "1 4 0 5", "5 8 3 7", "0 5 1 4", "3 7 1 6", "1 4 0 5", "1 6 2 4",
            "0 5 1 4",
        ]));
        let tester = fake(horse_leg_ignored);
        let trial = tester.trial(&case).expect("runs");
        assert_eq!((trial.kind, trial.line), (Kind::WrongAnswer, Some(16)));
        let shrunk = shrinker(&tester, true).shrink(case.clone(), trial);
        assert!(shrunk.minimal && one_minimal(&tester, &shrunk.case));
        assert!(shrunk.case.len() <= 11, "{:?}", shrunk.case.cmds());
        // Without the retelling, the first rounds keep it whole.
        let plain = shrinker(&tester, true);
        let (kept, _, minimal) = plain.settle(case.clone(), trial, false);
        assert!(minimal);
        assert_eq!(kept.len(), case.len());
    }
}
