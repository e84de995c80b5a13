//! Words and marks for what one judge command did, shared by `trace` and `test`, and the
//! name of a move's direction that the reports of test data share.
//!
//! Nothing here decides anything: the verdict comes from [`Game::play`] (or
//! [`Game::validate`]), the checking pieces from [`rules::attackers`]. This module only
//! puts their answers into sentences and picks the squares a diagram should mark.

use crate::judge::board::Board;
use crate::judge::game::{Game, Invalid, Verdict};
use crate::judge::piece::{Color, PieceKind, Square};
use crate::judge::rules::{self, Move, PathError};
use crate::judge::scan::Cmd;
use crate::show::render::Style;

/// The command's move, when both of its squares are on the board.
pub fn command_move(c: Cmd) -> Option<Move> {
    Some(Move {
        from: Square::new(c[0], c[1])?,
        to: Square::new(c[2], c[3])?,
    })
}

/// Squares worth a highlight besides the move itself: the blocking square of a blocked
/// move, or the one on-board end of a command whose other end is off the board.
pub fn highlights(c: Cmd, verdict: &Verdict) -> Vec<Square> {
    let mut out: Vec<Square> = blocking(verdict).into_iter().collect();
    out.extend(lone_end(c));
    out
}

/// The square that blocks a blocked move.
pub fn blocking(verdict: &Verdict) -> Option<Square> {
    match verdict {
        Err(Invalid::Blocked(_, s)) => Some(*s),
        _ => None,
    }
}

/// The squares a move of `kind` from `m.from` to `m.to` passes over, which must be
/// empty by the move table: a leap's blocking squares, a car's squares in between;
/// none for a move of no blocking square or one the piece cannot make.
pub fn way(kind: PieceKind, m: Move) -> Vec<Square> {
    let delta = m.to.delta_from(m.from);
    match rules::reach(kind) {
        rules::Reach::Leaps(leaps) => leaps
            .iter()
            .find(|l| l.delta == delta)
            .map(|l| l.blocks.iter().filter_map(|&d| m.from.offset(d)).collect())
            .unwrap_or_default(),
        rules::Reach::Rays(_) => {
            let (dx, dy) = delta;
            if (dx != 0 && dy != 0) || delta == (0, 0) {
                return Vec::new();
            }
            let step = (dx.signum(), dy.signum());
            let mut out = Vec::new();
            let mut s = m.from;
            while let Some(next) = s.offset(step) {
                if next == m.to {
                    break;
                }
                out.push(next);
                s = next;
            }
            out
        }
    }
}

/// For a legal move: the squares on its way, all empty (what a solution that refused
/// it misread), with the sentence naming them; `None` when the move has none.
pub fn free_way(board_before: &Board, m: Move) -> Option<(String, Vec<Square>)> {
    let kind = board_before.piece_at(m.from)?.kind;
    let squares = way(kind, m);
    if squares.is_empty() {
        return None;
    }
    let names: Vec<String> = squares.iter().map(Square::to_string).collect();
    let (noun, verb) = match names.len() {
        1 => ("square", "is"),
        _ => ("squares", "are"),
    };
    let sentence = format!("the {noun} on its way, {}, {verb} empty", join_and(&names));
    Some((sentence, squares))
}

/// The one end of a command on the board when its other end is off it (a diagram marks
/// it as it marks a move's squares).
pub fn lone_end(c: Cmd) -> Option<Square> {
    if command_move(c).is_some() {
        return None;
    }
    Square::new(c[0], c[1]).or_else(|| Square::new(c[2], c[3]))
}

/// Plays `c` on `game` and returns the verdict with a sentence explaining it: the reason
/// for an invalid command; for a legal move the piece and squares, the capture, who gives
/// check to whose captain, and the end of the game.
pub fn play(game: &mut Game, c: Cmd) -> (Verdict, String) {
    let verdict = game.play(c[0], c[1], c[2], c[3]);
    let text = describe(&verdict, c, game.board());
    (verdict, text)
}

/// The sentence for `verdict` of command `c`, given the position `after` it.
pub fn describe(verdict: &Verdict, c: Cmd, after: &Board) -> String {
    let moved = match verdict {
        Err(reason) => return format!("invalid: {reason}"),
        Ok(m) => m,
    };
    let mut text = match command_move(c) {
        Some(m) => format!("{} {} -> {}", moved.piece, m.from, m.to),
        None => moved.piece.to_string(),
    };
    if let Some(captured) = moved.captured {
        text.push_str(&format!(", captures the {captured}"));
    }
    if moved.check {
        text.push_str("; check: ");
        text.push_str(&checks(after).join("; "));
    }
    if moved.game_over {
        match after.winner() {
            Some(w) => text.push_str(&format!("; game over, {w} wins")),
            None => text.push_str("; game over"),
        }
    }
    text
}

/// For each side whose captain is attacked: "the blue captain on (9, 4) is attacked by
/// the red car on (3, 4)", every attacker named.
pub fn checks(board: &Board) -> Vec<String> {
    let mut out = Vec::new();
    for attacker in Color::ALL {
        let victim = attacker.opponent();
        let captain = match board.captain(victim) {
            Some(s) => s,
            None => continue,
        };
        let names: Vec<String> = rules::attackers(board, captain, attacker)
            .into_iter()
            .filter_map(|s| board.piece_at(s).map(|p| format!("the {p} on {s}")))
            .collect();
        if !names.is_empty() {
            out.push(format!(
                "the {victim} {} on {captain} is attacked by {}",
                PieceKind::Captain,
                join_and(&names)
            ));
        }
    }
    out
}

/// Why a position after a legal move is not check, for someone who expected it to be:
/// the game is over (there is never check then), or each attack on a captain that a
/// blocking square stops, with that square; the captains facing each other (the game has
/// no flying-captain rule). Returns the sentences and the blocking squares to mark.
pub fn no_check(board: &Board) -> (Vec<String>, Vec<Square>) {
    let mut out = Vec::new();
    let mut marks = Vec::new();
    if board.is_over() {
        let sentence = match board.winner() {
            Some(w) => format!(
                "no check once the game is over: the {} {} has been captured, {w} wins",
                w.opponent(),
                PieceKind::Captain
            ),
            None => "no check once the game is over".to_string(),
        };
        out.push(sentence);
        return (out, marks);
    }
    for attacker in Color::ALL {
        let victim = attacker.opponent();
        let captain = match board.captain(victim) {
            Some(s) => s,
            None => continue,
        };
        for (from, piece) in board.pieces().filter(|(_, p)| p.color == attacker) {
            if let Err(PathError::Blocked(at)) = rules::check_path(board, piece.kind, from, captain)
            {
                out.push(format!(
                    "no check from the {piece} on {from}: its way to the {victim} {} on \
                     {captain} is blocked at {at}",
                    PieceKind::Captain
                ));
                marks.push(at);
            }
        }
    }
    if let (Some(red), Some(blue)) = (board.captain(Color::Red), board.captain(Color::Blue)) {
        if captains_face(board) && red.x().abs_diff(blue.x()) > 1 {
            out.push(format!(
                "the captains face each other on column {}, but a captain moves one step: \
                 there is no flying-captain rule",
                red.y()
            ));
        }
    }
    if out.is_empty() {
        out.push("no check: no piece of either side can reach the other captain".to_string());
    }
    (out, marks)
}

/// Whether the two captains stand on one column with nothing between them (which is
/// no check: there is no flying-captain rule).
pub fn captains_face(board: &Board) -> bool {
    let (Some(red), Some(blue)) = (board.captain(Color::Red), board.captain(Color::Blue)) else {
        return false;
    };
    red.y() == blue.y()
        && (red.x().min(blue.x()) + 1..red.x().max(blue.x()))
            .all(|x| Square::new(x as i64, red.y() as i64).is_some_and(|s| board.is_empty(s)))
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Whether standard output gets colour for verdict words and the like.
pub fn stdout_color() -> bool {
    Style::for_stdout(true).color
}

/// `up2-right1`: a leap's direction in words (rows count up, columns right); a car's
/// direction without the counts.
pub fn direction(kind: PieceKind, dir: (i8, i8)) -> String {
    let counts = kind != PieceKind::Car;
    let part = |word: &str, n: i8| {
        if counts {
            format!("{word}{}", n.abs())
        } else {
            word.to_string()
        }
    };
    let mut parts = Vec::new();
    match dir.0 {
        0 => {}
        d if d > 0 => parts.push(part("up", d)),
        d => parts.push(part("down", d)),
    }
    match dir.1 {
        0 => {}
        d if d > 0 => parts.push(part("right", d)),
        d => parts.push(part("left", d)),
    }
    parts.join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_for_the_statement_sample() {
        let mut game = Game::new();
        let (_, text) = play(&mut game, [0, 0, 7, 0]);
        assert_eq!(text, "invalid: the car is blocked at (2, 0)");
        let (_, text) = play(&mut game, [0, 3, 1, 2]);
        assert_eq!(text, "red guard (0, 3) -> (1, 2)");
    }

    #[test]
    fn check_names_every_attacker() {
        let board: Board = "4k4/9/9/9/9/9/9/9/4R4/4K4 b".parse().expect("a position");
        let lines = checks(&board);
        assert_eq!(
            lines,
            vec!["the blue captain on (9, 4) is attacked by the red car on (1, 4)"]
        );
        let mut game = Game::from_board("4k4/9/9/9/9/9/9/9/9/R3K4 r".parse().expect("a position"));
        let (_, text) = play(&mut game, [0, 0, 9, 0]);
        assert_eq!(
            text,
            "red car (0, 0) -> (9, 0); check: the blue captain on (9, 4) is attacked by the red car on (9, 0)"
        );
        let (_, text) = play(&mut game, [9, 4, 9, 3]);
        assert_eq!(
            text,
            "blue captain (9, 4) -> (9, 3); check: the blue captain on (9, 3) is attacked by the red car on (9, 0)"
        );
        let (_, text) = play(&mut game, [9, 0, 9, 3]);
        assert_eq!(
            text,
            "red car (9, 0) -> (9, 3), captures the blue captain; game over, red wins"
        );
    }

    #[test]
    fn no_check_names_the_blocked_attack_the_end_and_facing_captains() {
        // The red horse on (7, 3) would take the blue captain on (9, 4), but (8, 3) is
        // taken.
        let board: Board = "4k4/3s5/3H5/9/9/9/9/9/9/4K4 b".parse().expect("a position");
        let (lines, marks) = no_check(&board);
        assert_eq!(
            lines,
            vec![
                "no check from the red horse on (7, 3): its way to the blue captain on (9, 4) \
                 is blocked at (8, 3)",
                "the captains face each other on column 4, but a captain moves one step: \
                 there is no flying-captain rule"
            ]
        );
        assert_eq!(marks, vec![Square::new(8, 3).expect("on")]);
        let over: Board = "9/9/9/9/9/9/9/9/9/4K4 b".parse().expect("a position");
        assert_eq!(
            no_check(&over).0,
            vec!["no check once the game is over: the blue captain has been captured, red wins"]
        );
        let quiet: Board = "3k5/9/9/9/9/9/9/9/9/4K4 b".parse().expect("a position");
        assert_eq!(
            no_check(&quiet).0,
            vec!["no check: no piece of either side can reach the other captain"]
        );
    }

    #[test]
    fn off_board_and_blocked_commands_highlight_what_they_can() {
        let blocked = Err(Invalid::Blocked(
            crate::judge::piece::Piece::new(Color::Red, PieceKind::Car),
            Square::new(1, 0).expect("on the board"),
        ));
        assert_eq!(
            highlights([0, 0, 7, 0], &blocked),
            vec![Square::new(1, 0).expect("on")]
        );
        let verdict: Verdict = Err(Invalid::TargetOffBoard);
        assert_eq!(
            highlights([0, 0, 10, 0], &verdict),
            vec![Square::new(0, 0).expect("on")]
        );
        assert_eq!(command_move([0, 0, 10, 0]), None);
        assert_eq!(blocking(&verdict), None);
        assert_eq!(lone_end([0, 0, -1, 0]), Square::new(0, 0));
        assert_eq!(lone_end([-1, 0, 0, 0]), Square::new(0, 0));
        assert_eq!(lone_end([0, 0, 1, 0]), None);
    }
}
