//! The game driver: applies one judge command to a position and returns the verdict, an
//! invalid command with its precise reason or the four answers of a legal move.
//!
//! The judge, the tracer, the sample tester and the terminal game all go through
//! [`Game::play`], so every tool reports exactly what the judge decides. On the judge
//! path: Rust 1.63 only.

use super::board::Board;
use super::piece::{Color, Piece, Square};
use super::rules::{self, PathError};
use std::fmt;

/// Why a command is `Invalid command`, in the order the checks are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// A captain has been captured; no command is valid any more.
    GameOver,
    /// The source coordinates are off the board (so no own piece stands there).
    SourceOffBoard,
    /// The source square is empty.
    NoPiece(Square),
    /// The source square holds a piece of the side not to move.
    OpponentPiece(Square, Piece),
    /// The target coordinates are off the board.
    TargetOffBoard,
    /// No rule of this piece goes from the source to the target (this includes not
    /// moving at all).
    NotThatWay(Piece),
    /// The target holds a piece of the mover's own side.
    OwnPiece(Piece),
    /// The piece could go there, but this square on the way is occupied.
    Blocked(Piece, Square),
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Invalid::GameOver => write!(f, "the game is already over"),
            Invalid::SourceOffBoard => write!(f, "the source square is off the board"),
            Invalid::NoPiece(s) => write!(f, "no piece on the source square {s}"),
            Invalid::OpponentPiece(s, p) => {
                write!(f, "the piece on {s} is the opponent's ({p})")
            }
            Invalid::TargetOffBoard => write!(f, "the target square is off the board"),
            Invalid::NotThatWay(p) => {
                write!(f, "{} {} cannot move that way", p.kind.article(), p.kind)
            }
            Invalid::OwnPiece(p) => write!(f, "the target holds an own piece ({p})"),
            Invalid::Blocked(p, s) => write!(f, "the {} is blocked at {s}", p.kind),
        }
    }
}

/// The four answers the judge prints for a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The piece that moved.
    pub piece: Piece,
    /// The opposing piece it captured, if any.
    pub captured: Option<Piece>,
    /// Whether the position after the move is check.
    pub check: bool,
    /// Whether the game is over after the move.
    pub game_over: bool,
}

/// The outcome of one command.
pub type Verdict = Result<Moved, Invalid>;

/// A game in progress: a position that commands are applied to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    board: Board,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the start position, red to move.
    pub fn new() -> Game {
        Game {
            board: Board::start(),
        }
    }

    /// A game from any position.
    pub fn from_board(board: Board) -> Game {
        Game { board }
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Checks the command "move the piece on `(xs, ys)` to `(xt, yt)`" without playing
    /// it. Any integers may be given; off-board ones are simply invalid.
    pub fn validate(
        &self,
        xs: i64,
        ys: i64,
        xt: i64,
        yt: i64,
    ) -> Result<(Square, Square, Piece), Invalid> {
        let board = &self.board;
        if board.is_over() {
            return Err(Invalid::GameOver);
        }
        let from = Square::new(xs, ys).ok_or(Invalid::SourceOffBoard)?;
        let piece = board.piece_at(from).ok_or(Invalid::NoPiece(from))?;
        if piece.color != board.side_to_move() {
            return Err(Invalid::OpponentPiece(from, piece));
        }
        let to = Square::new(xt, yt).ok_or(Invalid::TargetOffBoard)?;
        // The shape of the move is judged before ownership of the target and before
        // blockers, so the reason names the most basic thing that is wrong.
        let path = rules::check_path(board, piece.kind, from, to);
        if path == Err(PathError::NotThatWay) {
            return Err(Invalid::NotThatWay(piece));
        }
        if let Some(own) = board.piece_at(to).filter(|p| p.color == piece.color) {
            return Err(Invalid::OwnPiece(own));
        }
        match path {
            Err(PathError::Blocked(s)) => Err(Invalid::Blocked(piece, s)),
            _ => Ok((from, to, piece)),
        }
    }

    /// Plays one judge command: validates it and, when it is legal, makes it and returns
    /// the four answers. An invalid command changes nothing.
    #[inline]
    pub fn play(&mut self, xs: i64, ys: i64, xt: i64, yt: i64) -> Verdict {
        let (from, to, piece) = self.validate(xs, ys, xt, yt)?;
        let captured = self.board.make_move(from, to);
        let game_over = self.board.is_over();
        Ok(Moved {
            piece,
            captured,
            check: rules::is_check(&self.board),
            game_over,
        })
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }
}

#[cfg(test)]
mod tests {
    use super::super::piece::PieceKind;
    use super::*;

    #[test]
    fn a_refused_way_names_its_kind_with_the_right_article() {
        let elephant = Piece::new(Color::Blue, PieceKind::Elephant);
        let why = Invalid::NotThatWay(elephant).to_string();
        assert_eq!(why, "an elephant cannot move that way");
        let horse = Piece::new(Color::Red, PieceKind::Horse);
        assert_eq!(
            Invalid::NotThatWay(horse).to_string(),
            "a horse cannot move that way"
        );
    }
}
