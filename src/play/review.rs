//! Analysis of a game for people: what the engine thinks of every position of a game,
//! and what each move cost the side that played it. `duckchess analyze` prints it and
//! the browser board (`/api/analyze`) draws it; both use this module, so they judge
//! moves by the same rules.
//!
//! Every position is searched on its own ([`Analyser::next`] clears what the engine
//! learnt before), so a position's score depends only on the position, the earlier
//! positions (for repetitions) and the limits: a game analysed at once or a few
//! positions at a time gets the same numbers from a node or depth limit.
//!
//! A move is judged by its **loss**: the score of the position before it (what the
//! best move keeps) minus the score after it, both for the side that moved, each capped
//! at [`CAP`]. Then:
//!
//! | verdict | when |
//! |---|---|
//! | best | the engine's own move in that position |
//! | good | a loss under [`INACCURACY`] |
//! | inaccuracy | under [`MISTAKE`] |
//! | mistake | under [`BLUNDER`] |
//! | blunder | [`BLUNDER`] or more (a horse), or a move after which the opponent can force the capture of the captain (and could not before) |
//! | missed win | the mover could force the capture of the captain, and after the move cannot |
//!
//! Scores are the engine's: from red's side, in units where a horse is 300 (shown as
//! 3.00). Not on the judge path.

use crate::cli::json::Json;
use crate::engine::search::{mate_in, Context, Engine, Limits, ThreadsError};
use crate::judge::board::Board;
use crate::judge::piece::{Color, Piece};
use crate::judge::rules::Move;
use std::fmt;
use std::sync::atomic::AtomicBool;

/// Scores beyond this (10.00: more than a car ahead) count as this when a loss is
/// measured: a side that far ahead is winning, and a move that keeps it there loses
/// nothing that matters. A forced capture of the captain counts as this too.
pub const CAP: i32 = 1000;
/// The smallest loss that is an inaccuracy (a sixth of a horse).
pub const INACCURACY: i32 = 50;
/// The smallest loss that is a mistake (half a horse).
pub const MISTAKE: i32 = 150;
/// The smallest loss that is a blunder (a horse).
pub const BLUNDER: i32 = 300;
/// How many earlier positions a search is told of, for repetitions (a repetition
/// further back than this does not change what the position is worth).
pub const HISTORY: usize = 100;

/// What a position is worth, from red's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// An advantage in the engine's units (a horse is 300); positive is good for red.
    Cp(i32),
    /// `winner` takes the other captain within `plies` plies (moves of either side),
    /// whatever the other side does; 0 plies: the captain has been taken.
    Mate {
        /// The side that takes the captain.
        winner: Color,
        /// Plies until it does.
        plies: u32,
    },
}

impl Eval {
    /// The evaluation of a search's `score` for `side`, the side to move.
    pub fn from_score(score: i32, side: Color) -> Eval {
        match mate_in(score) {
            Some(n) => Eval::Mate {
                winner: if n > 0 { side } else { side.opponent() },
                plies: n.unsigned_abs(),
            },
            None if side == Color::Red => Eval::Cp(score),
            None => Eval::Cp(-score),
        }
    }

    /// The score for `side`, capped at [`CAP`] either way; a forced result counts as
    /// [`CAP`].
    pub fn capped(self, side: Color) -> i32 {
        match self {
            Eval::Cp(cp) if side == Color::Red => cp.clamp(-CAP, CAP),
            Eval::Cp(cp) => (-cp).clamp(-CAP, CAP),
            Eval::Mate { winner, .. } if winner == side => CAP,
            Eval::Mate { .. } => -CAP,
        }
    }

    /// Whether `side` can force the capture of the other captain (or has taken it).
    pub fn wins_for(self, side: Color) -> bool {
        matches!(self, Eval::Mate { winner, .. } if winner == side)
    }

    /// `{"cp":22}`, or `{"mate":3,"winner":"red"}`.
    pub fn json(self) -> Json {
        match self {
            Eval::Cp(cp) => Json::obj([("cp", Json::int(cp.into()))]),
            Eval::Mate { winner, plies } => Json::obj([
                ("mate", Json::int(plies.into())),
                ("winner", Json::str(winner.to_string())),
            ]),
        }
    }
}

impl fmt::Display for Eval {
    /// `+0.22` (a horse is 3.00), or `#+3` when red takes the captain within 3 plies
    /// and `#-3` when blue does (`#+0`: red has taken it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(cp) => f.write_str(&units(cp)),
            Eval::Mate { winner, plies } => {
                let sign = if winner == Color::Red { '+' } else { '-' };
                write!(f, "#{sign}{plies}")
            }
        }
    }
}

/// A score in the engine's units as people read it: hundredths, signed (`+0.22`,
/// `-3.00`; a horse is 3.00).
pub fn units(score: i32) -> String {
    let sign = if score < 0 { '-' } else { '+' };
    let abs = score.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// What the engine found in one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What the position is worth.
    pub eval: Eval,
    /// The engine's move; `None` when the side to move has none (the game is over, or
    /// every piece is stuck).
    pub best: Option<Move>,
    /// The expected line of play, starting with `best`.
    pub line: Vec<Move>,
    /// The deepest iteration the search completed (0 when there was nothing to search).
    pub depth: u32,
    /// The positions the search visited.
    pub nodes: u64,
}

impl Finding {
    /// `{"eval":...,"best":[xs,ys,xt,yt] or null,"line":[...],"depth":D,"nodes":N}`.
    pub fn json(&self) -> Json {
        Json::obj([
            ("eval", self.eval.json()),
            ("best", self.best.map_or(Json::Null, move_json)),
            ("line", line_json(&self.line)),
            ("depth", Json::int(self.depth.into())),
            ("nodes", Json::count(self.nodes)),
        ])
    }
}

/// `[xs,ys,xt,yt]`: a move as the analysis and the server's API write it.
pub fn move_json(m: Move) -> Json {
    Json::Arr(
        [m.from.x(), m.from.y(), m.to.x(), m.to.y()]
            .iter()
            .map(|&v| Json::int(v.into()))
            .collect(),
    )
}

/// `[[xs,ys,xt,yt],...]`.
pub fn line_json(line: &[Move]) -> Json {
    Json::Arr(line.iter().map(|&m| move_json(m)).collect())
}

/// Searches the positions of one game in order, each on its own.
pub struct Analyser {
    engine: Engine,
    limits: Limits,
    /// The positions before the next one, the last [`HISTORY`] of them at least.
    history: Vec<Board>,
}

impl Analyser {
    /// An analyser that searches each position within `limits`, starting a game.
    pub fn new(limits: Limits) -> Analyser {
        Analyser::after(limits, Vec::new())
    }

    /// The same, for positions that come after `earlier` (oldest first).
    pub fn after(limits: Limits, mut earlier: Vec<Board>) -> Analyser {
        let cut = earlier.len().saturating_sub(HISTORY);
        earlier.drain(..cut);
        Analyser {
            engine: Engine::new(),
            limits,
            history: earlier,
        }
    }

    /// Searches on `threads` threads from the next position on (see
    /// [`Engine::set_threads`]).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), ThreadsError> {
        self.engine.set_threads(threads)
    }

    /// Analyses `board`, the position after the ones analysed (or given) before, and
    /// remembers it for the next. A finished game needs no search: the side whose
    /// captain stands has won. `stop`, raised from another thread, ends the search at
    /// once (its answer is then the best it had).
    pub fn next(&mut self, board: &Board, stop: Option<&AtomicBool>) -> Finding {
        let found = if board.is_over() {
            let winner = board
                .winner()
                .unwrap_or_else(|| board.side_to_move().opponent());
            Finding {
                eval: Eval::Mate { winner, plies: 0 },
                best: None,
                line: Vec::new(),
                depth: 0,
                nodes: 0,
            }
        } else {
            self.engine.clear();
            let context = Context {
                history: &self.history,
                stop,
                ..Context::default()
            };
            let report = self.engine.search_in(board, self.limits, context);
            Finding {
                // A side with no move at all: a draw, as the arena and play count it.
                eval: match report.best {
                    Some(_) => Eval::from_score(report.score, board.side_to_move()),
                    None => Eval::Cp(0),
                },
                best: report.best,
                line: self.engine.line().to_vec(),
                depth: report.depth,
                nodes: report.nodes,
            }
        };
        if self.history.len() >= 2 * HISTORY {
            self.history.drain(..HISTORY);
        }
        self.history.push(board.clone());
        found
    }
}

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Grade {
    /// The engine's own move.
    Best,
    /// A loss under [`INACCURACY`].
    Good,
    /// A loss under [`MISTAKE`].
    Inaccuracy,
    /// A loss under [`BLUNDER`].
    Mistake,
    /// A loss of [`BLUNDER`] or more, or a move after which the opponent can force the
    /// capture of the captain, which it could not before.
    Blunder,
    /// A forced win let go.
    MissedWin,
}

impl Grade {
    /// Every verdict, best first.
    pub const ALL: [Grade; 6] = [
        Grade::Best,
        Grade::Good,
        Grade::Inaccuracy,
        Grade::Mistake,
        Grade::Blunder,
        Grade::MissedWin,
    ];

    /// Its name: `best`, `good`, `inaccuracy`, `mistake`, `blunder`, `missed win`.
    pub fn name(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracy",
            Grade::Mistake => "mistake",
            Grade::Blunder => "blunder",
            Grade::MissedWin => "missed win",
        }
    }

    /// Its name for a count other than one: `inaccuracies`, `missed wins`.
    pub fn plural(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracies",
            Grade::Mistake => "mistakes",
            Grade::Blunder => "blunders",
            Grade::MissedWin => "missed wins",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The loss and the verdict of `played` by `mover`, from the analysis of the position
/// before it and the evaluation of the position after it (see the module's table).
pub fn judge(mover: Color, played: Move, before: &Finding, after: Eval) -> (i32, Grade) {
    if before.best == Some(played) {
        return (0, Grade::Best);
    }
    let loss = (before.eval.capped(mover) - after.capped(mover)).max(0);
    let opponent = mover.opponent();
    let verdict = if before.eval.wins_for(mover) && !after.wins_for(mover) {
        if after.wins_for(opponent) {
            Grade::Blunder
        } else {
            Grade::MissedWin
        }
    } else if after.wins_for(opponent) && !before.eval.wins_for(opponent) {
        // However far behind the mover was, the capture was not forced before.
        Grade::Blunder
    } else if loss >= BLUNDER {
        Grade::Blunder
    } else if loss >= MISTAKE {
        Grade::Mistake
    } else if loss >= INACCURACY {
        Grade::Inaccuracy
    } else {
        Grade::Good
    };
    (loss, verdict)
}

/// One move of a game, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reviewed {
    /// Its command's number in the input (for a saved game, its move number).
    pub command: u64,
    /// The move.
    pub played: Move,
    /// The piece that moved.
    pub piece: Piece,
    /// The position before it, as the engine saw it: its score (what the best move
    /// keeps), best move and line.
    pub before: Finding,
    /// The piece the best move moves.
    pub best_piece: Option<Piece>,
    /// What the position after it is worth.
    pub after: Eval,
    /// What it cost the mover, in the engine's units (see [`judge`]).
    pub loss: i32,
    /// The verdict.
    pub verdict: Grade,
}

impl Reviewed {
    /// Judges `played` (command number `command`) in `board`, between the analyses of
    /// `board` (`before`) and of the position after the move (`after`). `None` when
    /// `played` moves no piece in `board`.
    pub fn new(
        command: u64,
        board: &Board,
        played: Move,
        before: &Finding,
        after: &Finding,
    ) -> Option<Reviewed> {
        let piece = board.piece_at(played.from)?;
        let (loss, verdict) = judge(piece.color, played, before, after.eval);
        Some(Reviewed {
            command,
            played,
            piece,
            before: before.clone(),
            best_piece: before.best.and_then(|m| board.piece_at(m.from)),
            after: after.eval,
            loss,
            verdict,
        })
    }

    /// `{"command":5,"move":[0,3,1,2],"side":"red","piece":"red guard","before":{...},
    /// "after":{...},"loss":27,"verdict":"good","best":[...],"best_piece":"red soldier",
    /// "line":[[...],...]}`.
    pub fn json(&self) -> Json {
        Json::obj([
            ("command", Json::count(self.command)),
            ("move", move_json(self.played)),
            ("side", Json::str(self.piece.color.to_string())),
            ("piece", Json::str(self.piece.to_string())),
            ("before", self.before.eval.json()),
            ("after", self.after.json()),
            ("loss", Json::int(self.loss.into())),
            ("verdict", Json::str(self.verdict.to_string())),
            ("best", self.before.best.map_or(Json::Null, move_json)),
            (
                "best_piece",
                self.best_piece
                    .map_or(Json::Null, |p| Json::str(p.to_string())),
            ),
            ("line", line_json(&self.before.line)),
        ])
    }
}

/// One side's moves, summed up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Moves judged.
    pub moves: u64,
    /// Their losses added up.
    pub loss: u64,
    /// How many got each verdict, in the order of [`Grade::ALL`].
    pub counts: [u64; 6],
}

impl Tally {
    /// Counts `r`.
    pub fn add(&mut self, r: &Reviewed) {
        self.moves += 1;
        self.loss += r.loss.max(0) as u64;
        self.counts[r.verdict.index()] += 1;
    }

    /// The average loss a move, rounded (0 without moves).
    pub fn average_loss(&self) -> i32 {
        match self.moves {
            0 => 0,
            n => ((self.loss + n / 2) / n) as i32,
        }
    }

    /// `5 moves, average loss 0.10: 2 best, 3 good, 1 inaccuracy` (the verdicts
    /// given, best first).
    pub fn text(&self) -> String {
        let counts: Vec<String> = Grade::ALL
            .iter()
            .map(|&v| (v, self.counts[v.index()]))
            .filter(|&(_, n)| n > 0)
            .map(|(v, n)| format!("{n} {}", if n == 1 { v.name() } else { v.plural() }))
            .collect();
        if counts.is_empty() {
            return crate::cli::plural(self.moves, "move");
        }
        let average = units(self.average_loss());
        format!(
            "{}, average loss {}: {}",
            crate::cli::plural(self.moves, "move"),
            average.trim_start_matches('+'),
            counts.join(", ")
        )
    }

    /// `{"moves":5,"average_loss":10,"best":2,"good":3,"inaccuracy":0,...,
    /// "missed_win":0}`.
    pub fn json(&self) -> Json {
        let mut members = vec![
            ("moves".to_string(), Json::count(self.moves)),
            (
                "average_loss".to_string(),
                Json::int(self.average_loss().into()),
            ),
        ];
        members.extend(Grade::ALL.iter().map(|&v| {
            (
                v.name().replace(' ', "_"),
                Json::count(self.counts[v.index()]),
            )
        }));
        Json::Obj(members)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::piece::{PieceKind, Square};

    fn mv(xs: i64, ys: i64, xt: i64, yt: i64) -> Move {
        Move {
            from: Square::new(xs, ys).unwrap(),
            to: Square::new(xt, yt).unwrap(),
        }
    }

    fn at(eval: Eval, best: Move) -> Finding {
        Finding {
            eval,
            best: Some(best),
            line: vec![best],
            depth: 1,
            nodes: 1,
        }
    }

    const RED_WINS: Eval = Eval::Mate {
        winner: Color::Red,
        plies: 3,
    };
    const BLUE_WINS: Eval = Eval::Mate {
        winner: Color::Blue,
        plies: 2,
    };

    #[test]
    fn verdicts_follow_the_thresholds() {
        let best = mv(0, 0, 1, 0);
        let other = mv(0, 8, 1, 8);
        let cases = [
            // (mover, before, after, loss, verdict)
            (Color::Red, Eval::Cp(20), Eval::Cp(0), 20, Grade::Good),
            (Color::Red, Eval::Cp(20), Eval::Cp(-29), 49, Grade::Good),
            (
                Color::Red,
                Eval::Cp(20),
                Eval::Cp(-30),
                50,
                Grade::Inaccuracy,
            ),
            (
                Color::Red,
                Eval::Cp(20),
                Eval::Cp(-130),
                150,
                Grade::Mistake,
            ),
            (
                Color::Red,
                Eval::Cp(20),
                Eval::Cp(-279),
                299,
                Grade::Mistake,
            ),
            (
                Color::Red,
                Eval::Cp(20),
                Eval::Cp(-280),
                300,
                Grade::Blunder,
            ),
            // Blue's view is the other way round.
            (
                Color::Blue,
                Eval::Cp(-20),
                Eval::Cp(280),
                300,
                Grade::Blunder,
            ),
            (Color::Blue, Eval::Cp(20), Eval::Cp(-300), 0, Grade::Good),
            // Beyond the cap a lead loses nothing.
            (Color::Red, Eval::Cp(2500), Eval::Cp(1100), 0, Grade::Good),
            (
                Color::Red,
                Eval::Cp(1200),
                Eval::Cp(800),
                200,
                Grade::Mistake,
            ),
            // Forced results.
            (Color::Red, RED_WINS, Eval::Cp(900), 100, Grade::MissedWin),
            (Color::Red, RED_WINS, Eval::Cp(-100), 1100, Grade::MissedWin),
            (Color::Red, RED_WINS, BLUE_WINS, 2000, Grade::Blunder),
            (Color::Red, RED_WINS, RED_WINS, 0, Grade::Good),
            (Color::Red, Eval::Cp(0), BLUE_WINS, 1000, Grade::Blunder),
            (Color::Red, BLUE_WINS, BLUE_WINS, 0, Grade::Good),
            // Far behind, but the captain was not lost yet: walking into a forced
            // capture is a blunder all the same.
            (Color::Red, Eval::Cp(-950), BLUE_WINS, 50, Grade::Blunder),
            (Color::Blue, Eval::Cp(911), RED_WINS, 89, Grade::Blunder),
            (Color::Blue, BLUE_WINS, RED_WINS, 2000, Grade::Blunder),
        ];
        for (mover, before, after, loss, verdict) in cases {
            let got = judge(mover, other, &at(before, best), after);
            assert_eq!(got, (loss, verdict), "{mover} {before} -> {after}");
        }
        // The engine's own move is the best, whatever the score after it says.
        assert_eq!(
            judge(Color::Red, best, &at(Eval::Cp(20), best), BLUE_WINS),
            (0, Grade::Best)
        );
    }

    #[test]
    fn evaluations_read_from_red_side() {
        assert_eq!(Eval::from_score(22, Color::Red), Eval::Cp(22));
        assert_eq!(Eval::from_score(22, Color::Blue), Eval::Cp(-22));
        let mate = crate::engine::search::MATE;
        assert_eq!(
            Eval::from_score(mate - 3, Color::Blue),
            Eval::Mate {
                winner: Color::Blue,
                plies: 3
            }
        );
        assert_eq!(
            Eval::from_score(-(mate - 2), Color::Blue),
            Eval::Mate {
                winner: Color::Red,
                plies: 2
            }
        );
        assert_eq!(Eval::Cp(22).to_string(), "+0.22");
        assert_eq!(Eval::Cp(-305).to_string(), "-3.05");
        assert_eq!(Eval::Cp(0).to_string(), "+0.00");
        assert_eq!(RED_WINS.to_string(), "#+3");
        assert_eq!(BLUE_WINS.to_string(), "#-2");
        assert_eq!(Eval::Cp(-5).json().to_string(), "{\"cp\":-5}");
        assert_eq!(
            BLUE_WINS.json().to_string(),
            "{\"mate\":2,\"winner\":\"blue\"}"
        );
    }

    #[test]
    fn a_hanging_captain_is_a_blunder_and_its_capture_the_best() {
        // Red's car on (0, 3) holds column 3; blue to move steps its captain from
        // (9, 4) onto (9, 3), into the car's reach.
        let start: Board = "4k4/9/9/9/9/9/9/9/9/3RK4 b".parse().unwrap();
        let mut analyser = Analyser::new(Limits::depth(3));
        let first = analyser.next(&start, None);
        let blunder = mv(9, 4, 9, 3);
        let mut board = start.clone();
        board.make_move(blunder.from, blunder.to);
        let after = analyser.next(&board, None);
        assert!(after.eval.wins_for(Color::Red), "{:?}", after.eval);
        let r = Reviewed::new(1, &start, blunder, &first, &after).unwrap();
        assert_eq!(r.piece, Piece::new(Color::Blue, PieceKind::Captain));
        assert_eq!(r.verdict, Grade::Blunder, "{r:?}");
        // Red takes it: the best move, and the game is over.
        let take = after.best.unwrap();
        let before = board.clone();
        board.make_move(take.from, take.to);
        let end = analyser.next(&board, None);
        assert_eq!(
            end.eval,
            Eval::Mate {
                winner: Color::Red,
                plies: 0
            }
        );
        let r = Reviewed::new(2, &before, take, &after, &end).unwrap();
        assert_eq!(r.piece, Piece::new(Color::Red, PieceKind::Car));
        assert_eq!((r.loss, r.verdict), (0, Grade::Best));
    }

    #[test]
    fn a_position_gets_the_same_analysis_alone_or_in_a_game() {
        let mut board = Board::start();
        let mut boards = vec![board.clone()];
        for c in [[0, 1, 2, 2], [9, 1, 7, 2], [3, 4, 4, 4], [6, 4, 5, 4]] {
            board.make_move(
                Square::new(c[0], c[1]).unwrap(),
                Square::new(c[2], c[3]).unwrap(),
            );
            boards.push(board.clone());
        }
        let limits = Limits::nodes(3000);
        let mut whole = Analyser::new(limits);
        let all: Vec<Finding> = boards.iter().map(|b| whole.next(b, None)).collect();
        for k in 0..boards.len() {
            let mut part = Analyser::after(limits, boards[..k].to_vec());
            assert_eq!(part.next(&boards[k], None), all[k], "position {k}");
        }
    }

    #[test]
    fn tallies_add_up() {
        let best = mv(0, 0, 1, 0);
        let board = Board::start();
        let mut tally = Tally::default();
        for after in [Eval::Cp(0), Eval::Cp(-290), Eval::Cp(-2)] {
            let before = at(Eval::Cp(0), best);
            let r = Reviewed::new(1, &board, mv(0, 8, 1, 8), &before, &at(after, best));
            tally.add(&r.unwrap());
        }
        assert_eq!(Tally::default().text(), "0 moves");
        assert_eq!(tally.moves, 3);
        assert_eq!(tally.average_loss(), 97);
        assert_eq!(
            tally.text(),
            "3 moves, average loss 0.97: 2 good, 1 mistake"
        );
        assert_eq!(
            tally.json().to_string(),
            "{\"moves\":3,\"average_loss\":97,\"best\":0,\"good\":2,\"inaccuracy\":0,\
             \"mistake\":1,\"blunder\":0,\"missed_win\":0}"
        );
    }
}
