//! The position notation (SPEC section 6): printing, parsing, round trips, and a table
//! of bad strings with the error each one gives.

use crate::common;

use duckchess::generate::{self, mode::Mode};
use duckchess::judge::board::{Board, NotationError, START_NOTATION};
use duckchess::judge::game::Game;
use duckchess::judge::piece::{Color, Piece, PieceKind};

#[test]
fn the_start_position_prints_as_the_spec_says() {
    assert_eq!(Board::start().to_string(), START_NOTATION);
    assert_eq!(
        START_NOTATION,
        "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r"
    );
    let parsed: Board = START_NOTATION.parse().expect("the start position parses");
    assert_eq!(parsed, Board::start());
}

#[test]
fn squares_map_to_rows_and_columns() {
    let board: Board = "8k/9/9/9/9/9/9/9/9/R8 b".parse().expect("parses");
    let car = board.piece_at(common::sq(0, 0));
    assert_eq!(car, Some(Piece::new(Color::Red, PieceKind::Car)));
    let captain = board.piece_at(common::sq(9, 8));
    assert_eq!(captain, Some(Piece::new(Color::Blue, PieceKind::Captain)));
    assert_eq!(board.side_to_move(), Color::Blue);
    assert!(board.is_over(), "no red captain: a finished game");
    assert_eq!(board.winner(), Some(Color::Blue));
}

#[test]
fn positions_from_real_games_round_trip() {
    for seed in 0..30 {
        let mut bytes = Vec::new();
        generate::input(seed, 300, Mode::Legal, &mut bytes).expect("vec");
        let text = String::from_utf8(bytes).expect("ascii");
        let numbers: Vec<i64> = text
            .split_ascii_whitespace()
            .skip(1)
            .map(|t| t.parse().expect("int"))
            .collect();
        let mut game = Game::new();
        for c in numbers.chunks(4) {
            let _ = game.play(c[0], c[1], c[2], c[3]);
            let printed = game.board().to_string();
            let parsed: Board = printed.parse().expect("printed notation parses");
            assert_eq!(&parsed, game.board());
            assert_eq!(parsed.to_string(), printed);
        }
    }
}

#[test]
fn bad_strings_say_what_and_where() {
    let cases: &[(&str, NotationError, &str)] = &[
        ("", NotationError::Empty, "empty position"),
        (
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9 r",
            NotationError::RankCount { found: 9 },
            "9 ranks, expected 10 separated by '/'",
        ),
        (
            "rhegkgehr/9/d7d/s1s1x1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r",
            NotationError::BadCharacter {
                rank: 4,
                column: 5,
                found: 'x',
            },
            "rank 4 (row 6), column 5: unexpected character 'x'; expected a piece letter (KGEHRDS, lower case for blue), a digit 1-9 or '/'",
        ),
        (
            "rhegkgehr/0/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r",
            NotationError::BadCharacter {
                rank: 2,
                column: 1,
                found: '0',
            },
            "rank 2 (row 8), column 1: unexpected character '0'; expected a piece letter (KGEHRDS, lower case for blue), a digit 1-9 or '/'",
        ),
        (
            "rhegkgehr/9/d8d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r",
            NotationError::RankTooLong { rank: 3 },
            "rank 3 (row 7): more than 9 squares",
        ),
        (
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/8/RHEGKGEHR r",
            NotationError::RankTooShort {
                rank: 9,
                squares: 8,
            },
            "rank 9 (row 1): 8 squares, expected 9",
        ),
        (
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR",
            NotationError::MissingSide,
            "missing side to move: expected a space and 'r' or 'b'",
        ),
        (
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR w",
            NotationError::BadSide {
                found: "w".to_string(),
            },
            "side to move: expected 'r' or 'b', found \"w\"",
        ),
        (
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r 0",
            NotationError::TrailingText {
                found: "0".to_string(),
            },
            "unexpected text after the side to move: \"0\"",
        ),
        (
            "k3k4/9/9/9/9/9/9/9/9/4K4 r",
            NotationError::TwoCaptains { color: Color::Blue },
            "blue has two captains",
        ),
        (
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEH鸭 r",
            NotationError::BadCharacter {
                rank: 10,
                column: 9,
                found: '鸭',
            },
            "rank 10 (row 0), column 9: unexpected character '鸭'; expected a piece letter (KGEHRDS, lower case for blue), a digit 1-9 or '/'",
        ),
    ];
    for (text, error, message) in cases {
        let result = text.parse::<Board>();
        assert_eq!(result.as_ref().err(), Some(error), "{text:?}");
        assert_eq!(error.to_string(), *message);
    }
}
