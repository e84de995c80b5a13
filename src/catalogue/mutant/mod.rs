//! The mutant judge: a plain game simulator written straight from the rules, square by
//! square, whose every clause asks whether it should make its mistake: a hand-written
//! one, a variant of one, or a slip in one row of the move table. With no mistake it
//! answers exactly as the judge does (a differential test holds it to that), so whatever
//! a mutant answers differently is its mistake's doing.
//!
//! It shares nothing with the judge's move table (`judge::rules`): it is a second,
//! independent reading of the rules, simple, with hooks. A slip names the row it changes
//! by the row's target and blocking squares; the mutant finds that row among its own
//! and changes it there. Only the value types (sides, kinds, the four answers) come from
//! the judge.
//!
//! - `board`: its board, its pieces and their ids.
//! - `command`: one command judged, made and answered.
//! - `reach`: whether a piece may go somewhere by its rule, as the solution thinks.
//! - `check`: whether the position is check, as the solution decides.

mod board;
mod check;
mod command;
mod reach;

use super::handwritten::Written;
use super::list::{Fault, Mistake};
use super::slips::Slip;
use super::solution_shapes::{self, InstanceSlip, Shaped, Target};
use super::variants::{Refusal, Variant};
use crate::judge::game::Moved;
use crate::judge::piece::{Color, Piece, PieceKind, Square};

/// One judge command `xs ys xt yt`, any integers.
use crate::generate::case::Cmd;

/// What a solution answers to one command: the four answers of a legal move, or `None`
/// for `Invalid command`.
pub type Answer = Option<Moved>;

/// No starting piece on a square.
const NO_ID: u8 = u8::MAX;

/// A square as plain coordinates (always on the 10 x 9 board once made).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At {
    x: i64,
    y: i64,
}

impl At {
    fn plus(self, dx: i64, dy: i64) -> At {
        At {
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    fn index(self) -> usize {
        (self.x * 9 + self.y) as usize
    }

    fn of(index: usize) -> At {
        At {
            x: index as i64 / 9,
            y: index as i64 % 9,
        }
    }

    fn on_board(self) -> bool {
        (0..10).contains(&self.x) && (0..9).contains(&self.y)
    }
}

/// A game as a solution with one mistake (or none) plays it.
#[derive(Clone, Debug)]
pub struct Mutant {
    mistake: Option<Mistake>,
    written: Option<Written>,
    variant: Option<Variant>,
    slip: Option<Slip>,
    shaped: Option<Shaped>,
    squares: [Option<Piece>; 90],
    /// The id of the starting piece on each square ([`NO_ID`] for none), as a solution
    /// that keeps the 32 pieces in a table by id knows them.
    ids: [u8; 90],
    /// The ids of the last move's mover and captured piece.
    moved_ids: (u8, u8),
    /// The piece a refused move's target held, for a solution that records it.
    recorded: Option<Piece>,
    /// The squares of the last command refused after its path was judged.
    pending: Option<(At, At)>,
    /// The squares of each side's pieces, as bits `x * 9 + y`.
    occupied: [u128; 2],
    side: Color,
    over: bool,
    /// The piece the last capture took (for a solution that never resets it).
    last_captured: Option<Piece>,
    /// A taken piece its table still keeps as alive, on the square it was taken on.
    ghost: Option<(At, Piece)>,
}

impl Mutant {
    /// A game from the start position that makes `mistake` (none: the rules exactly).
    pub fn new(mistake: Option<Mistake>) -> Mutant {
        let mut m = Mutant::making(mistake.map(|m| m.fault()));
        m.mistake = mistake;
        m
    }

    /// A game from the start position that makes `fault` (listed or not).
    pub fn making(fault: Option<Fault>) -> Mutant {
        use PieceKind::*;
        const BACK: [PieceKind; 9] = [
            Car, Horse, Elephant, Guard, Captain, Guard, Elephant, Horse, Car,
        ];
        let mut m = Mutant {
            mistake: None,
            written: None,
            variant: None,
            slip: None,
            shaped: None,
            squares: [None; 90],
            ids: [NO_ID; 90],
            moved_ids: (NO_ID, NO_ID),
            recorded: None,
            pending: None,
            occupied: [0; 2],
            side: Color::Red,
            over: false,
            last_captured: None,
            ghost: None,
        };
        m.set_fault(fault);
        for color in Color::ALL {
            let row = |r: i64| if color == Color::Red { r } else { 9 - r };
            let mut put = |x: i64, y: i64, kind| {
                m.set(At { x, y }, Some(Piece::new(color, kind)));
            };
            for (y, &kind) in BACK.iter().enumerate() {
                put(row(0), y as i64, kind);
            }
            put(row(2), 0, Duck);
            put(row(2), 8, Duck);
            for y in [0, 2, 4, 6, 8] {
                put(row(3), y, Soldier);
            }
        }
        for s in solution_shapes::starts() {
            m.ids[At { x: s.x, y: s.y }.index()] = s.id;
        }
        if m.makes(Written::BlueMovesFirst) {
            m.side = Color::Blue;
        }
        m
    }

    /// This game as a solution making `mistake` would stand in it had it been right so
    /// far: the same position, side to move, end and last capture, and from now on the
    /// mistake. Made from a mutant without a mistake, which stands where the judge does.
    pub fn refaulted(&self, mistake: Mistake) -> Mutant {
        let mut m = self.with_fault(mistake.fault());
        m.mistake = Some(mistake);
        m
    }

    /// The same, for any fault, listed or not.
    pub fn with_fault(&self, fault: Fault) -> Mutant {
        let mut m = self.clone();
        m.mistake = None;
        m.set_fault(Some(fault));
        m
    }

    fn set_fault(&mut self, fault: Option<Fault>) {
        (self.written, self.variant, self.slip, self.shaped) = (None, None, None, None);
        match fault {
            Some(Fault::Written(w)) => self.written = Some(w),
            Some(Fault::Variant(v)) => self.variant = Some(v),
            Some(Fault::Slip(s)) => self.slip = Some(s),
            Some(Fault::Shaped(s)) => self.shaped = Some(s),
            None => {}
        }
    }

    /// The id of the starting piece on `s` as a table by id keeps it (for a mutant
    /// without a mistake, the piece that started there and stands there now), if any.
    pub fn id_on(&self, s: Square) -> Option<u8> {
        let id = self.ids[s.bit() as usize];
        (id != NO_ID).then_some(id)
    }

    /// The mistake it makes.
    pub fn mistake(&self) -> Option<Mistake> {
        self.mistake
    }

    fn makes(&self, w: Written) -> bool {
        self.written == Some(w)
    }

    fn varies(&self, v: Variant) -> bool {
        self.variant == Some(v)
    }

    fn shapes(&self, s: Shaped) -> bool {
        self.shaped == Some(s)
    }

    /// Whether the starting piece on `s` has this slip.
    fn instance(&self, s: At, slip: InstanceSlip) -> bool {
        s.on_board() && self.shapes(Shaped::Instance(self.ids[s.index()], slip))
    }

    /// Whether the branch for `piece` moving onto `target` skips the test for `class`.
    fn order_skips(&self, class: Refusal, piece: Piece, target: Option<Piece>) -> bool {
        let here = match target {
            None => Some(Target::Empty),
            Some(p) if p.color != piece.color => Some(Target::Enemy),
            Some(_) => None,
        };
        match self.shaped {
            Some(Shaped::Order(c, kind, t)) => c == class && kind == piece.kind && here == Some(t),
            Some(Shaped::AfterTheEnd(t)) => class == Refusal::Over && here == Some(t),
            _ => false,
        }
    }

    /// Plays one command and returns what the solution answers.
    pub fn play(&mut self, [xs, ys, xt, yt]: Cmd) -> Answer {
        match self.try_move(xs, ys, xt, yt) {
            Ok((moved, from)) => Some(self.written(moved, from)),
            Err(refusal) => {
                if self.shapes(Shaped::MovedWhenRefused(refusal)) {
                    if let Some((from, to)) = self.pending {
                        self.displace(from, to);
                    }
                }
                if self.makes(Written::TurnPassesAfterInvalid)
                    || self.varies(Variant::TurnPassesAfter(refusal))
                {
                    self.side = self.side.opponent();
                }
                None
            }
        }
    }
}

/// What the mutant of `mistake` answers to each of `cmds`.
pub fn answers(mistake: Option<Mistake>, cmds: &[Cmd]) -> Vec<Answer> {
    let mut game = Mutant::new(mistake);
    cmds.iter().map(|&c| game.play(c)).collect()
}

/// What a mutant making `fault` (listed or not) answers to each of `cmds`.
pub fn fault_answers(fault: Fault, cmds: &[Cmd]) -> Vec<Answer> {
    let mut game = Mutant::making(Some(fault));
    cmds.iter().map(|&c| game.play(c)).collect()
}

/// The first command (index from 0) whose answer from the mutant of `mistake` differs
/// from `expected` (the judge's answers to `cmds`), if any.
pub fn first_difference(mistake: Mistake, cmds: &[Cmd], expected: &[Answer]) -> Option<usize> {
    let mut game = Mutant::new(Some(mistake));
    cmds.iter()
        .zip(expected)
        .position(|(&c, e)| game.play(c) != *e)
}

/// The judge's answers to `cmds`.
pub fn judge_answers(cmds: &[Cmd]) -> Vec<Answer> {
    let mut game = crate::judge::game::Game::new();
    cmds.iter()
        .map(|c| game.play(c[0], c[1], c[2], c[3]).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::recipe::{self, Recipe};
    use crate::sys::rng::Rng;

    #[test]
    fn without_a_mistake_it_answers_as_the_judge_on_generated_games() {
        let mut commands = 0;
        for index in 0..1500 {
            let recipe = Recipe {
                seed: 17,
                mode: None,
                max_q: 1000,
                messy: index % 5 == 0,
                counts: false,
            };
            let (case, mode) = recipe::case(&recipe, index * 7);
            let cmds = case.cmds();
            commands += cmds.len();
            let expected = judge_answers(&cmds);
            let got = answers(None, &cmds);
            if let Some(i) = (0..cmds.len()).find(|&i| got[i] != expected[i]) {
                panic!(
                    "case {index} ({mode}), command {}: {:?} answered {:?}, the judge {:?}",
                    i + 1,
                    cmds[i],
                    got[i],
                    expected[i]
                );
            }
        }
        assert!(commands > 200_000, "{commands} commands");
    }

    #[test]
    fn random_legal_walks_agree_to_the_end() {
        // Games of legal moves only, captain captures included, then a few more commands.
        let mut rng = Rng::new(5);
        for _ in 0..400 {
            let mut game = crate::judge::game::Game::new();
            let mut cmds = Vec::new();
            for _ in 0..300 {
                let moves = crate::judge::rules::legal_moves(game.board());
                let c = match rng.pick(&moves) {
                    Some(m) => [
                        m.from.x() as i64,
                        m.from.y() as i64,
                        m.to.x() as i64,
                        m.to.y() as i64,
                    ],
                    None => [
                        rng.below(10) as i64,
                        rng.below(9) as i64,
                        rng.below(10) as i64,
                        rng.below(9) as i64,
                    ],
                };
                let _ = game.play(c[0], c[1], c[2], c[3]);
                cmds.push(c);
            }
            assert_eq!(answers(None, &cmds), judge_answers(&cmds));
        }
    }

    /// The commands of a judge input written as one line of numbers, `Q` first.
    fn commands(text: &str) -> Vec<Cmd> {
        let n: Vec<i64> = text
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(n[0] as usize * 4, n.len() - 1, "{text}");
        n[1..].chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()
    }

    /// The 1-based commands `name`'s mutant answers differently from the judge.
    fn wrong_at(name: &str, cmds: &[Cmd]) -> Vec<usize> {
        let m = Mistake::from_name(name).unwrap_or_else(|| panic!("{name}: not listed"));
        let (got, expected) = (answers(Some(m), cmds), judge_answers(cmds));
        (0..cmds.len())
            .filter(|&i| got[i] != expected[i])
            .map(|i| i + 1)
            .collect()
    }

    #[test]
    fn check_after_the_end_for_one_winner_only() {
        // Red's captain takes blue's on (9, 4) while the blue guard on (8, 4) attacks it.
        let red_wins = commands(
            "19 0 4 1 4 9 3 8 2 1 4 2 4 9 5 8 4 2 4 2 5 8 4 9 5 2 5 3 5 9 5 8 4 3 5 4 5 \
             8 4 9 5 4 5 5 5 9 5 8 4 0 0 1 0 8 4 9 5 1 0 1 3 9 5 8 4 1 3 9 3 8 4 9 5 9 3 9 4",
        );
        // Blue takes red's captain on its last move while blue's captain stands attacked.
        let blue_wins = commands(
            "14 0 1 2 2 6 4 5 3 2 2 1 4 6 6 5 6 1 4 3 5 5 6 4 6 3 5 5 6 4 6 3 7 5 6 7 5 \
             3 7 2 6 0 3 1 2 2 6 1 5 0 5 1 4 1 5 0 4",
        );
        let side_blind = "check-after-the-end";
        assert_eq!(wrong_at(side_blind, &red_wins), [19]);
        assert_eq!(wrong_at(side_blind, &blue_wins), [14]);
        let red = "check-after-the-end-when-red-wins";
        let blue = "check-after-the-end-when-blue-wins";
        assert_eq!(wrong_at(red, &red_wins), [19]);
        assert_eq!(wrong_at(red, &blue_wins), Vec::<usize>::new());
        assert_eq!(wrong_at(blue, &blue_wins), [14]);
        assert_eq!(wrong_at(blue, &red_wins), Vec::<usize>::new());
    }

    #[test]
    fn a_car_scan_that_ends_at_the_first_piece_misses_the_later_rays() {
        let name = "check-car-scan-ends-at-first-piece";
        // The blue captain walks to (1, 3); the red car steps to (1, 0), where its ray
        // up meets its own duck on (2, 0) first and the ray right reaches the captain.
        let walk = "0 7 2 6 9 4 8 4 2 6 0 7 8 4 8 3 0 7 2 6 8 3 7 3 2 6 0 7 7 3 6 3 0 7 2 6 \
                    6 3 5 3 2 6 0 7 5 3 4 3 0 7 2 6 4 3 3 3 2 6 0 7 3 3 2 3 0 7 2 6 2 3 1 3";
        let input = commands(&format!("19 {walk} 0 0 1 0"));
        assert_eq!(wrong_at(name, &input), [19]);
        // The side-blind slips of one ray see that check.
        for seen in ["check-car-up-dropped", "check-car-down-dropped"] {
            assert_eq!(wrong_at(seen, &input), []);
        }
    }

    #[test]
    fn a_soldiers_neighbour_guarded_by_another_neighbours_bound() {
        // A red soldier steps beside the blue captain on (9, 3), to its left, on row 9.
        let name = "check-soldier-right1-wrong-guard-row-9";
        let input = commands(
            "11 3 0 4 0 9 3 8 4 4 0 5 0 8 4 7 5 5 0 6 1 7 5 8 6 6 1 7 2 9 4 9 3 7 2 8 3 \
             6 6 7 7 8 3 9 2",
        );
        assert_eq!(wrong_at(name, &input), [11]);
        // The same soldier's check on a captain off the edge is seen.
        assert_eq!(
            wrong_at("check-soldier-right1-wrong-guard-row-0", &input),
            Vec::<usize>::new()
        );
    }
}
