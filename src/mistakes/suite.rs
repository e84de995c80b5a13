//! `gen --suite`: a compact test set that kills every mistake of the catalogue.
//!
//! Each file is one game, written by a greedy search against the mutants still alive:
//! at every step it tries candidate continuations of the game (every legal move, every
//! invalid command a piece could plausibly be sent on, and short games played on from
//! here by `stress`'s steering writers), plays each on the judge and on every live
//! mutant, and keeps the one that kills the most mistakes per command, up to its last
//! kill. When nothing kills, a few moves of a steering writer take the game on to new
//! situations. A game that does not end can expose one mistake after another, so one
//! file usually does it all; the game's end comes last, because after it every command
//! is invalid.
//!
//! A killing file is laid out as: the greedy search; a stretch of invalid commands of
//! every kind; the end of the game, sought where the winner's own captain stands
//! attacked (and where a solution that plays on finds a move); commands after the end,
//! up to `Q = 1000`: a game that ends early and goes on. Should a mistake survive, another
//! killing file goes after the survivors. Then, if there is room, the longest legal game
//! (1000 legal moves, greedy on what legal moves can kill; the game never ends). The
//! same seed always gives the same bytes, whatever the number of threads.

use super::catalogue::{Group, Mistake};
use super::mutant::{Answer, Cmd, Mutant};
use super::written::Topic;
use crate::cli;
use crate::generate::case::Case;
use crate::generate::games::Writer;
use crate::generate::mode::Mode;
use crate::judge::game::Game;
use crate::judge::piece::{PieceKind, Square};
use crate::judge::rules;
use crate::sys::rng::Rng;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::thread;

/// Commands per file: the official maximum.
pub const Q: usize = 1000;
/// The default (and largest useful) number of files.
pub const DEFAULT_FILES: usize = 10;
/// The length of the stretch of invalid commands in a killing file.
const STRETCH: usize = 60;
/// Commands kept for the end of a killing file: reaching the end, and after it.
const END_RESERVE: usize = 300;
/// Commands after the end of the game, at least.
const AFTER_END: usize = 40;
/// Commands after the end a candidate may have (what a solution that plays on accepts).
const AFTER_END_TRIED: usize = 3;
/// Moves a steering writer plays when no candidate kills anything.
const STEER: usize = 4;
/// Plies of each played-on candidate game.
const PLAYOUT: u64 = 12;
/// Played-on candidates per steering mode and step.
const PLAYOUTS: usize = 5;
/// Steps without a kill after which the killing part of a file gives up.
const PATIENCE: usize = 60;

/// What a file of the suite is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The greedy search for kills, then the end of the game.
    Killer,
    /// 1000 legal moves; the game never ends.
    LongestLegal,
}

/// One file of the suite: its commands and what it has besides its kills.
#[derive(Clone, Debug)]
pub struct SuiteFile {
    /// What it is for.
    pub role: Role,
    /// The commands.
    pub cmds: Vec<Cmd>,
    /// What else it has, in words (`an all-invalid stretch: commands 201-260`).
    pub features: Vec<String>,
}

/// A game being written, and the mutants that have agreed with the judge so far.
struct Search {
    game: Game,
    cmds: Vec<Cmd>,
    /// Live mutants, each in the state its answers so far left it in.
    alive: Vec<Mutant>,
    rng: Rng,
    jobs: usize,
    /// The squares the last legal moves left (a solution that forgets to empty them
    /// can still move from them).
    left: Vec<Square>,
}

/// What one candidate continuation does.
#[derive(Clone, Copy, Debug, Default)]
struct Score {
    kills: usize,
    /// Commands up to and including the last kill.
    used: usize,
}

impl Score {
    /// Whether `self` kills more per command than `other`.
    fn beats(&self, other: &Score) -> bool {
        // kills / (used + 2), compared without division.
        self.kills * (other.used + 2) > other.kills * (self.used + 2)
    }
}

/// Whether a command is a move that takes a captain, in `game`'s position.
fn takes_captain(game: &Game, c: Cmd) -> bool {
    game.validate(c[0], c[1], c[2], c[3]).is_ok()
        && Square::new(c[2], c[3])
            .and_then(|s| game.board().piece_at(s))
            .is_some_and(|p| p.kind == PieceKind::Captain)
}

fn cmd_of(from: Square, to: Square) -> Cmd {
    [
        from.x() as i64,
        from.y() as i64,
        to.x() as i64,
        to.y() as i64,
    ]
}

/// What continuations may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Allowed {
    /// Invalid commands.
    invalid: bool,
    /// The move that ends the game.
    end: bool,
}

impl Search {
    fn new(seed: u64, jobs: usize) -> Search {
        Search {
            game: Game::new(),
            cmds: Vec::new(),
            alive: Mistake::all()
                .iter()
                .map(|&m| Mutant::new(Some(m)))
                .collect(),
            rng: Rng::new(seed),
            jobs: jobs.max(1),
            left: Vec::new(),
        }
    }

    /// Plays `cmds` on the judge and every live mutant; mutants that answer differently
    /// are dead.
    fn push(&mut self, cmds: &[Cmd]) {
        for &c in cmds {
            let answer: Answer = self.game.play(c[0], c[1], c[2], c[3]).ok();
            if answer.is_some() {
                if let Some(from) = Square::new(c[0], c[1]) {
                    self.left.insert(0, from);
                    self.left.truncate(3);
                }
            }
            self.alive.retain_mut(|m| m.play(c) == answer);
            self.cmds.push(c);
        }
    }

    fn over(&self) -> bool {
        self.game.board().is_over()
    }

    fn room(&self) -> usize {
        Q - self.cmds.len()
    }

    /// The live mistakes that a game that goes on could still kill (all but the end's).
    fn alive_before_end(&self) -> usize {
        self.alive
            .iter()
            .filter(|m| {
                m.mistake()
                    .is_some_and(|m| m.group() != Group::Topic(Topic::End))
            })
            .count()
    }

    /// How many live mutants `cont` kills, and how many of its commands that takes.
    fn score(&self, cont: &[Cmd]) -> Score {
        let mut game = self.game.clone();
        let answers: Vec<Answer> = cont
            .iter()
            .map(|c| game.play(c[0], c[1], c[2], c[3]).ok())
            .collect();
        let mut score = Score::default();
        for m in &self.alive {
            let mut m = m.clone();
            if let Some(at) = cont
                .iter()
                .zip(&answers)
                .position(|(&c, a)| m.play(c) != *a)
            {
                score.kills += 1;
                score.used = score.used.max(at + 1);
            }
        }
        score
    }

    /// The scores of all `candidates`, on `jobs` threads.
    fn scores(&self, candidates: &[Vec<Cmd>]) -> Vec<Score> {
        let jobs = self.jobs.min(candidates.len().max(1));
        if jobs <= 1 {
            return candidates.iter().map(|c| self.score(c)).collect();
        }
        let mut scores = vec![Score::default(); candidates.len()];
        thread::scope(|scope| {
            let handles: Vec<_> = (0..jobs)
                .map(|j| {
                    scope.spawn(move || {
                        (j..candidates.len())
                            .step_by(jobs)
                            .map(|i| (i, self.score(&candidates[i])))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for h in handles {
                // A scoring thread only plays games; it does not panic.
                if let Ok(part) = h.join() {
                    for (i, s) in part {
                        scores[i] = s;
                    }
                }
            }
        });
        scores
    }

    /// `cont` cut to what is allowed: invalid commands dropped (they change nothing, so
    /// the rest stays legal) unless allowed; cut before the move that ends the game
    /// unless allowed, else a few commands after it.
    fn allowed(&self, cont: &[Cmd], allowed: Allowed) -> Vec<Cmd> {
        let mut game = self.game.clone();
        let mut out = Vec::new();
        let mut after_end = 0;
        for &c in cont {
            if game.board().is_over() {
                after_end += 1;
                if after_end > AFTER_END_TRIED {
                    break;
                }
                out.push(c);
                continue;
            }
            if takes_captain(&game, c) && !allowed.end {
                break;
            }
            let legal = game.play(c[0], c[1], c[2], c[3]).is_ok();
            if legal || allowed.invalid {
                out.push(c);
            }
        }
        out
    }

    /// `plies` commands of a steering writer in `mode` that plays on from here.
    fn written(&mut self, mode: Mode, plies: u64) -> Vec<Cmd> {
        let mut rng = Rng::new(self.rng.next_u64());
        Writer::continuing(&mut rng, self.game.clone())
            .play(mode, plies)
            .cmds()
    }

    /// A game played on from here by a steering writer in `mode`, cut to what is allowed.
    fn playout(&mut self, mode: Mode, plies: u64, allowed: Allowed) -> Vec<Cmd> {
        let cont = self.written(mode, plies);
        self.allowed(&cont, allowed)
    }

    /// Invalid commands a careless solution might take for moves: every piece sent to
    /// every square within three rows and columns or along its lines, and the squares
    /// the last moves left sent likewise.
    fn invalid_singles(&self) -> Vec<Vec<Cmd>> {
        let board = self.game.board();
        let mut from: Vec<Square> = board.pieces().map(|(s, _)| s).collect();
        from.extend(self.left.iter().filter(|&&s| board.is_empty(s)));
        let mut out = Vec::new();
        for f in from {
            for t in Square::all() {
                let (dx, dy) = t.delta_from(f);
                let near = dx.abs() <= 3 && dy.abs() <= 3;
                if !(near || dx == 0 || dy == 0) {
                    continue;
                }
                let c = cmd_of(f, t);
                if self.game.validate(c[0], c[1], c[2], c[3]).is_err() {
                    out.push(vec![c]);
                }
            }
        }
        out
    }

    /// The candidates of one step.
    fn candidates(&mut self, allowed: Allowed, modes: &[Mode]) -> Vec<Vec<Cmd>> {
        let mut out: Vec<Vec<Cmd>> = rules::legal_moves(self.game.board())
            .into_iter()
            .map(|m| cmd_of(m.from, m.to))
            .filter(|&c| allowed.end || !takes_captain(&self.game, c))
            .map(|c| vec![c])
            .collect();
        if allowed.invalid {
            out.extend(self.invalid_singles());
        }
        for &mode in modes {
            for _ in 0..PLAYOUTS {
                let p = self.playout(mode, PLAYOUT, allowed);
                if !p.is_empty() {
                    out.push(p);
                }
            }
        }
        out
    }

    /// One greedy step: the candidate that kills the most per command, up to its last
    /// kill, if any kills; else a few moves of a steering writer. Returns whether it
    /// killed, and `false` too when it could not go on at all.
    fn step(&mut self, allowed: Allowed, modes: &[Mode], steer: Mode) -> Option<bool> {
        let candidates = self.candidates(allowed, modes);
        let scores = self.scores(&candidates);
        let mut best: Option<usize> = None;
        for (i, s) in scores.iter().enumerate() {
            if s.kills > 0 && best.is_none_or(|b| s.beats(&scores[b])) {
                best = Some(i);
            }
        }
        if let Some(b) = best {
            let used = scores[b].used.min(self.room());
            let chosen = candidates[b][..used].to_vec();
            self.push(&chosen);
            return Some(true);
        }
        let limit = self.cmds.len() + STEER;
        self.wander(steer, allowed, limit).then_some(false)
    }

    /// Up to [`STEER`] commands (no further than `limit`) of a steering writer in
    /// `mode`, or when it has nothing allowed to play, one allowed legal move. Returns
    /// whether anything was played.
    fn wander(&mut self, mode: Mode, allowed: Allowed, limit: usize) -> bool {
        let room = limit.min(Q).saturating_sub(self.cmds.len()).min(STEER);
        let mut steps = self.playout(mode, STEER as u64, allowed);
        if steps.is_empty() {
            let moves: Vec<Cmd> = rules::legal_moves(self.game.board())
                .into_iter()
                .map(|m| cmd_of(m.from, m.to))
                .filter(|&c| allowed.end || !takes_captain(&self.game, c))
                .collect();
            steps.extend(self.rng.pick(&moves));
        }
        steps.truncate(room);
        self.push(&steps);
        !steps.is_empty()
    }

    /// Greedy steps until `limit` commands, nothing left to kill before the end, or
    /// [`PATIENCE`] steps without a kill.
    fn kill(&mut self, limit: usize, allowed: Allowed, modes: &[Mode]) {
        let mut idle = 0;
        let mut turn = 0;
        while self.cmds.len() < limit && self.alive_before_end() > 0 && idle < PATIENCE {
            let steer = modes[turn % modes.len()];
            turn += 1;
            match self.step(allowed, modes, steer) {
                Some(true) => idle = 0,
                Some(false) => idle += 1,
                None => break,
            }
        }
    }

    /// A stretch of `n` invalid commands of every kind (the position stays as it is).
    fn invalid_stretch(&mut self, n: usize) {
        let mut rng = Rng::new(self.rng.next_u64());
        let mut writer = Writer::continuing(&mut rng, self.game.clone());
        let stretch: Vec<Cmd> = (0..n).map(|_| writer.invalid(Mode::Invalid)).collect();
        self.push(&stretch);
    }

    /// Steered legal play (greedy while anything is left to kill) up to `limit`.
    fn play_on(&mut self, limit: usize, allowed: Allowed, modes: &[Mode]) {
        let mut turn = 0;
        while self.cmds.len() < limit && !self.over() {
            let steer = modes[turn % modes.len()];
            turn += 1;
            let went = if self.alive_before_end() > 0 {
                self.step(allowed, modes, steer)
            } else {
                self.wander(steer, allowed, limit).then_some(false)
            };
            if went.is_none() {
                break;
            }
        }
    }

    /// Ends the game, preferring an end that kills (the winner's own captain attacked,
    /// for one): greedy steps that may end the game, steered by moves that may not, for
    /// at most `budget` commands; then a decisive game to the end.
    fn end(&mut self, budget: usize) {
        let ending = Allowed {
            invalid: true,
            end: true,
        };
        let going_on = Allowed {
            invalid: false,
            end: false,
        };
        let modes = [Mode::Attacks, Mode::Captains, Mode::Decisive];
        let until = self.cmds.len() + budget;
        let mut turn = 0;
        while !self.over() && self.cmds.len() < until && self.room() > AFTER_END {
            let candidates = self.candidates(ending, &modes);
            let scores = self.scores(&candidates);
            // Any end kills the easy ones; wait for an end that kills every mistake of
            // the end still alive, since there is only one end.
            let of_the_end = self.alive.len() - self.alive_before_end();
            let ends = |c: &[Cmd]| {
                let mut game = self.game.clone();
                c.iter().any(|c| {
                    let _ = game.play(c[0], c[1], c[2], c[3]);
                    game.board().is_over()
                })
            };
            let best = (0..scores.len())
                .filter(|&i| {
                    scores[i].kills > 0
                        && (!ends(&candidates[i][..scores[i].used])
                            || scores[i].kills >= of_the_end)
                })
                .reduce(|b, i| if scores[i].beats(&scores[b]) { i } else { b });
            match best {
                Some(b) => {
                    let used = scores[b].used.min(self.room());
                    let chosen = candidates[b][..used].to_vec();
                    self.push(&chosen);
                }
                None => {
                    turn += 1;
                    if !self.wander(modes[turn % modes.len()], going_on, until) {
                        break;
                    }
                }
            }
        }
        // Out of budget: a decisive game to the end.
        while !self.over() && self.room() > 0 {
            let mut steps = self.playout(Mode::Decisive, 40, ending);
            steps.truncate(self.room());
            if steps.is_empty() {
                break;
            }
            self.push(&steps);
        }
    }

    /// Commands after the end: first single commands that kill (a solution that still
    /// plays on accepts a move its rule allows), then a writer's commands after the end,
    /// mostly moves that would be legal if the game went on.
    fn after_end(&mut self) {
        while self.room() > 0 && !self.alive.is_empty() {
            let singles = self.after_end_singles();
            let scores = self.scores(&singles);
            match scores.iter().position(|s| s.kills > 0) {
                Some(i) => self.push(&singles[i].clone()),
                None => break,
            }
        }
        let rest = self.written(Mode::Decisive, self.room() as u64);
        self.push(&rest);
    }

    /// After the end: every piece sent where its rule would take it.
    fn after_end_singles(&self) -> Vec<Vec<Cmd>> {
        let board = self.game.board();
        board
            .pieces()
            .flat_map(|(from, _)| {
                crate::generate::position::rule_targets(board, from)
                    .into_iter()
                    .map(move |to| vec![cmd_of(from, to)])
            })
            .collect()
    }
}

/// The modes whose writers steer the killing search.
const KILL_MODES: [Mode; 5] = [
    Mode::Attacks,
    Mode::Blocked,
    Mode::Captains,
    Mode::Invalid,
    Mode::Decisive,
];

/// A killing file from `seed`.
fn killer(seed: u64, jobs: usize, alive: &[Mistake]) -> SuiteFile {
    let mut s = Search::new(seed, jobs);
    s.alive
        .retain(|m| m.mistake().is_some_and(|m| alive.contains(&m)));
    let everything = Allowed {
        invalid: true,
        end: false,
    };
    s.kill(Q - END_RESERVE - STRETCH, everything, &KILL_MODES);
    let mut features = Vec::new();
    let start = s.cmds.len();
    s.invalid_stretch(STRETCH);
    features.push(format!(
        "an all-invalid stretch: commands {}-{}",
        start + 1,
        s.cmds.len()
    ));
    s.end(END_RESERVE - AFTER_END);
    s.after_end();
    features.extend(ending(&s));
    SuiteFile {
        role: Role::Killer,
        cmds: s.cmds,
        features,
    }
}

/// Where the game ended, in words.
fn ending(s: &Search) -> Option<String> {
    let mut game = Game::new();
    let at = s.cmds.iter().position(|c| {
        let _ = game.play(c[0], c[1], c[2], c[3]);
        game.board().is_over()
    })?;
    let winner = game.board().winner()?;
    Some(format!(
        "the game ends at command {} ({winner} takes the captain); {} commands follow",
        at + 1,
        s.cmds.len() - at - 1
    ))
}

/// The longest legal game: [`Q`] legal moves, greedy on what legal moves can kill.
fn longest_legal(seed: u64, jobs: usize) -> SuiteFile {
    let mut s = Search::new(seed, jobs);
    let legal = Allowed {
        invalid: false,
        end: false,
    };
    let modes = [Mode::Attacks, Mode::Captains, Mode::Blocked, Mode::Legal];
    s.play_on(Q, legal, &modes);
    let mut features = vec![format!(
        "{} legal moves in a row: the longest game the limits allow; it never ends",
        s.cmds.len()
    )];
    if s.cmds.len() < Q {
        // No legal move that does not end the game: end it and go on after the end.
        s.end(Q);
        s.after_end();
        features = ending(&s).into_iter().collect();
    }
    SuiteFile {
        role: Role::LongestLegal,
        cmds: s.cmds,
        features,
    }
}

/// The mistakes that `cmds` kills.
pub fn killed_by(cmds: &[Cmd]) -> Vec<Mistake> {
    let expected = super::mutant::judge_answers(cmds);
    Mistake::all()
        .iter()
        .copied()
        .filter(|&m| super::mutant::first_difference(m, cmds, &expected).is_some())
        .collect()
}

/// The suite for `seed`: killing files while mistakes survive (at most `max_files`),
/// then, room permitting, the longest legal game and a game that ends early.
pub fn suite(seed: u64, max_files: usize, jobs: usize) -> Vec<SuiteFile> {
    let salt = |k: u64| seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut files: Vec<SuiteFile> = Vec::new();
    let mut alive: Vec<Mistake> = Mistake::all().to_vec();
    while !alive.is_empty() && files.len() < max_files {
        let file = killer(salt(files.len() as u64 + 1), jobs, &alive);
        let killed = killed_by(&file.cmds);
        let before = alive.len();
        alive.retain(|m| !killed.contains(m));
        files.push(file);
        if alive.len() == before {
            // This seed's searches find nothing more.
            break;
        }
    }
    if files.len() < max_files {
        files.push(longest_legal(salt(101), jobs));
    }
    files
}

/// Why a suite could not be written.
#[derive(Debug)]
pub enum SuiteError {
    /// DIR exists and holds something the suite does not write.
    Foreign(PathBuf),
    /// DIR exists and is not a directory.
    NotADirectory(PathBuf),
    /// Reading or writing failed.
    Io(PathBuf, io::Error),
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Foreign(p) => write!(
                f,
                "{} is not a file the suite writes (N.in, N.ans, suite.txt): refusing to \
                 write into its directory; give an empty or a new one",
                p.display()
            ),
            SuiteError::NotADirectory(p) => write!(f, "{} is not a directory", p.display()),
            SuiteError::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for SuiteError {}

/// Whether `name` is one the suite writes: `N.in` or `N.ans` (`N` from 1, no leading
/// zero) or `suite.txt`.
fn written_by_the_suite(name: &str) -> bool {
    if name == "suite.txt" {
        return true;
    }
    let stem = name
        .strip_suffix(".in")
        .or_else(|| name.strip_suffix(".ans"));
    stem.is_some_and(|n| {
        !n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Makes `dir` ready for a suite: created when missing; when it exists, it may hold only
/// files the suite writes (an earlier suite), which are removed so that no file of a
/// larger earlier suite is left behind.
fn prepare(dir: &Path) -> Result<(), SuiteError> {
    let io = |p: &Path, e: io::Error| SuiteError::Io(p.to_path_buf(), e);
    match fs::metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return fs::create_dir_all(dir).map_err(|e| io(dir, e));
        }
        Err(e) => return Err(io(dir, e)),
        Ok(m) if !m.is_dir() => return Err(SuiteError::NotADirectory(dir.to_path_buf())),
        Ok(_) => {}
    }
    let mut ours = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(|e| io(dir, e))?;
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let is_file = fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
        if !is_file || !written_by_the_suite(name) {
            return Err(SuiteError::Foreign(path));
        }
        ours.push(path);
    }
    for path in ours {
        fs::remove_file(&path).map_err(|e| io(&path, e))?;
    }
    Ok(())
}

/// What was written.
#[derive(Debug)]
pub struct Written {
    /// The files, in order.
    pub files: Vec<SuiteFile>,
    /// The mistakes no file kills.
    pub survivors: Vec<Mistake>,
    /// The text of `suite.txt`.
    pub summary: String,
}

/// `words` joined by ", " and filled into lines of at most 80 columns, each starting
/// with `indent`.
fn wrapped(words: &[&str], indent: &str) -> String {
    cli::help::filled(&words.join(", "), indent, indent)
}

/// The text of `suite.txt`: how it was made, and for each file its commands, what it
/// has besides its kills, and the mistakes it kills.
fn summary(seed: u64, max_files: usize, files: &[SuiteFile], survivors: &[Mistake]) -> String {
    let total = Mistake::all().len();
    let mut out = format!(
        "duckchess gen --suite DIR --seed {seed} --files {max_files}\n{} of at most \
         {max_files}; {} of {total} mistakes of the catalogue killed\n",
        cli::plural(files.len() as u64, "file"),
        total - survivors.len()
    );
    for (i, f) in files.iter().enumerate() {
        let answers = super::mutant::judge_answers(&f.cmds);
        let legal = answers.iter().filter(|a| a.is_some()).count();
        let checks = answers.iter().flatten().filter(|m| m.check).count();
        out.push_str(&format!(
            "\n{}.in: Q = {}: {}, {}, {}\n",
            i + 1,
            f.cmds.len(),
            cli::plural(legal as u64, "legal move"),
            cli::plural(checks as u64, "check"),
            cli::plural((f.cmds.len() - legal) as u64, "invalid command")
        ));
        for feature in &f.features {
            out.push_str(&format!("  {feature}\n"));
        }
        let mut killed = killed_by(&f.cmds);
        killed.sort_by_key(|m| m.name());
        let names: Vec<&str> = killed.iter().map(|m| m.name()).collect();
        out.push_str(&format!("  kills {}:\n", names.len()));
        out.push_str(&wrapped(&names, "    "));
    }
    if !survivors.is_empty() {
        let mut names: Vec<&str> = survivors.iter().map(|m| m.name()).collect();
        names.sort();
        out.push_str(&format!("\nno file kills {}:\n", names.len()));
        out.push_str(&wrapped(&names, "    "));
    }
    out
}

/// Writes the suite for `seed` (at most `max_files` files) into `dir`: `N.in` and the
/// judge's `N.ans` for each file, and `suite.txt`.
pub fn write(dir: &Path, seed: u64, max_files: usize, jobs: usize) -> Result<Written, SuiteError> {
    prepare(dir)?;
    let files = suite(seed, max_files, jobs);
    let mut survivors: Vec<Mistake> = Mistake::all().to_vec();
    for f in &files {
        let killed = killed_by(&f.cmds);
        survivors.retain(|m| !killed.contains(m));
    }
    let put = |name: String, bytes: &[u8]| {
        let path = dir.join(name);
        fs::write(&path, bytes).map_err(|e| SuiteError::Io(path, e))
    };
    for (i, f) in files.iter().enumerate() {
        let case = Case::of(&f.cmds);
        put(format!("{}.in", i + 1), &case.to_bytes())?;
        put(format!("{}.ans", i + 1), &case.answer())?;
    }
    let summary = summary(seed, max_files, &files, &survivors);
    put("suite.txt".to_string(), summary.as_bytes())?;
    Ok(Written {
        files,
        survivors,
        summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_files_are_recognised_by_name() {
        for name in ["1.in", "1.ans", "10.in", "suite.txt"] {
            assert!(written_by_the_suite(name), "{name}");
        }
        for name in [
            "0.in", "01.in", "1.out", ".in", "a.in", "1.in.bak", "suite.md", "1",
        ] {
            assert!(!written_by_the_suite(name), "{name}");
        }
    }

    #[test]
    fn one_killing_file_kills_everything_whatever_the_threads() {
        let one = suite(7, 1, 1);
        let two = suite(7, 1, 2);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].cmds, two[0].cmds);
        assert_eq!(one[0].cmds.len(), Q);
        assert_eq!(killed_by(&one[0].cmds).len(), Mistake::all().len());
    }

    #[test]
    fn greedy_scores_prefer_kills_per_command() {
        let s = |kills, used| Score { kills, used };
        assert!(s(2, 1).beats(&s(1, 1)));
        assert!(s(1, 1).beats(&s(2, 9)));
        assert!(!s(1, 3).beats(&s(1, 3)));
    }

    #[test]
    fn wrapped_lists_stay_within_80_columns() {
        let names: Vec<&str> = Mistake::all().iter().map(|m| m.name()).collect();
        let text = wrapped(&names, "    ");
        assert!(text.lines().all(|l| l.len() <= 80 && l.starts_with("    ")));
        let words: Vec<&str> = text
            .split_whitespace()
            .map(|w| w.trim_end_matches(','))
            .collect();
        assert_eq!(words, names);
    }
}
