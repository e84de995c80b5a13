//! Check and game over (SPEC section 3): check by each of the 7 kinds, for both sides at
//! once, walking into attack, leaving one's captain attacked, discovered check, blocking
//! squares next to the attacker (not the target), and no check once the game is over.
//! Each case is a position, one command, and the judge's exact output line.

use crate::common;

use common::setup;
use duckchess::judge::game::Game;
use duckchess::judge::rules;
use duckchess::judge::verdict_line;

struct Case {
    name: &'static str,
    pieces: &'static [(i64, i64, char)],
    side: char,
    command: [i64; 4],
    expected: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "captain steps next to the other captain: both attacked",
        pieces: &[(4, 4, 'K'), (6, 4, 'k')],
        side: 'r',
        command: [4, 4, 5, 4],
        expected: "red captain;NA;yes;no",
    },
    Case {
        name: "guard",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (7, 2, 'G')],
        side: 'r',
        command: [7, 2, 8, 3],
        expected: "red guard;NA;yes;no",
    },
    Case {
        name: "elephant over an empty midpoint",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (5, 0, 'E')],
        side: 'r',
        command: [5, 0, 7, 2],
        expected: "red elephant;NA;yes;no",
    },
    Case {
        name: "horse",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (5, 2, 'H')],
        side: 'r',
        command: [5, 2, 7, 3],
        expected: "red horse;NA;yes;no",
    },
    Case {
        name: "car along a column",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (5, 0, 'R')],
        side: 'r',
        command: [5, 0, 5, 4],
        expected: "red car;NA;yes;no",
    },
    Case {
        name: "duck",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (3, 0, 'D')],
        side: 'r',
        command: [3, 0, 6, 2],
        expected: "red duck;NA;yes;no",
    },
    Case {
        name: "soldier",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (7, 3, 'S')],
        side: 'r',
        command: [7, 3, 8, 3],
        expected: "red soldier;NA;yes;no",
    },
    Case {
        name: "blue gives check too",
        pieces: &[(0, 4, 'K'), (9, 0, 'k'), (4, 8, 'r')],
        side: 'b',
        command: [4, 8, 0, 8],
        expected: "blue car;NA;yes;no",
    },
    Case {
        name: "horse blocked next to itself: no check",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (5, 2, 'H'), (8, 3, 's')],
        side: 'r',
        command: [5, 2, 7, 3],
        expected: "red horse;NA;no;no",
    },
    Case {
        name: "horse with a piece beside the target, not the attacker: check",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (5, 2, 'H'), (8, 4, 's')],
        side: 'r',
        command: [5, 2, 7, 3],
        expected: "red horse;NA;yes;no",
    },
    Case {
        name: "duck blocked at its first square: no check",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (3, 0, 'D'), (7, 2, 's')],
        side: 'r',
        command: [3, 0, 6, 2],
        expected: "red duck;NA;no;no",
    },
    Case {
        name: "duck blocked at its second square: no check",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (3, 0, 'D'), (8, 3, 's')],
        side: 'r',
        command: [3, 0, 6, 2],
        expected: "red duck;NA;no;no",
    },
    Case {
        name: "duck with pieces only where a target-side reading would look: check",
        pieces: &[
            (0, 0, 'K'),
            (9, 4, 'k'),
            (3, 0, 'D'),
            (8, 4, 's'),
            (7, 3, 's'),
        ],
        side: 'r',
        command: [3, 0, 6, 2],
        expected: "red duck;NA;yes;no",
    },
    Case {
        name: "elephant blocked at the midpoint: no check",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (5, 0, 'E'), (8, 3, 'g')],
        side: 'r',
        command: [5, 0, 7, 2],
        expected: "red elephant;NA;no;no",
    },
    Case {
        name: "captain walks into a car's line",
        pieces: &[(1, 4, 'K'), (9, 0, 'k'), (2, 8, 'r')],
        side: 'r',
        command: [1, 4, 2, 4],
        expected: "red captain;NA;yes;no",
    },
    Case {
        name: "a side leaves its captain attacked",
        pieces: &[(0, 4, 'K'), (9, 0, 'k'), (5, 4, 'r'), (2, 0, 'S')],
        side: 'r',
        command: [2, 0, 3, 0],
        expected: "red soldier;NA;yes;no",
    },
    Case {
        name: "discovered check: a soldier steps out of its car's line",
        pieces: &[(0, 0, 'K'), (9, 4, 'k'), (5, 4, 'R'), (6, 4, 'S')],
        side: 'r',
        command: [6, 4, 6, 3],
        expected: "red soldier;NA;yes;no",
    },
    Case {
        name: "discovered against oneself: a soldier opens the enemy car's line",
        pieces: &[(0, 4, 'K'), (9, 0, 'k'), (5, 4, 'r'), (3, 4, 'S')],
        side: 'r',
        command: [3, 4, 3, 5],
        expected: "red soldier;NA;yes;no",
    },
    Case {
        name: "capturing the captain ends the game without check",
        pieces: &[(0, 4, 'K'), (9, 4, 'k'), (8, 4, 'R'), (5, 4, 'r')],
        side: 'r',
        command: [8, 4, 9, 4],
        expected: "red car;blue captain;no;yes",
    },
    Case {
        name: "a capture that is not the captain leaves the game on",
        pieces: &[(0, 4, 'K'), (9, 4, 'k'), (8, 0, 'R'), (8, 5, 'e')],
        side: 'r',
        command: [8, 0, 8, 5],
        expected: "red car;blue elephant;no;no",
    },
];

#[test]
fn check_cases() {
    for case in CASES {
        let board = setup(case.pieces, case.side);
        let mut game = Game::from_board(board.clone());
        let [a, b, c, d] = case.command;
        let verdict = game.play(a, b, c, d);
        assert_eq!(verdict_line(&verdict), case.expected, "{}", case.name);
        // The fast detection agrees with the brute-force definition on the result.
        assert_eq!(
            rules::is_check(game.board()),
            common::reference_check(game.board()),
            "{}",
            case.name
        );
    }
}

#[test]
fn every_command_after_the_game_ended_is_invalid() {
    let board = setup(&[(0, 4, 'K'), (9, 4, 'k'), (8, 4, 'R'), (9, 0, 'r')], 'r');
    let mut game = Game::from_board(board);
    assert_eq!(
        verdict_line(&game.play(8, 4, 9, 4)),
        "red car;blue captain;no;yes"
    );
    // Blue's car could take the red car, and red could move again: neither is valid now.
    for command in [[9, 0, 9, 4], [0, 4, 1, 4], [9, 4, 8, 4], [5, 5, 5, 5]] {
        let [a, b, c, d] = command;
        assert_eq!(verdict_line(&game.play(a, b, c, d)), "Invalid command");
    }
    // A captain left attacked after the end is not check.
    assert!(!rules::is_check(game.board()));
}

#[test]
fn the_attack_list_names_every_checking_piece() {
    let board = setup(
        &[
            (0, 0, 'K'),
            (5, 4, 'k'),
            (5, 0, 'R'),
            (3, 3, 'H'),
            (4, 5, 'S'),
            (2, 2, 'D'),
        ],
        'b',
    );
    let mut attackers = rules::attackers(
        &board,
        common::sq(5, 4),
        duckchess::judge::piece::Color::Red,
    );
    attackers.sort();
    let expected = vec![
        common::sq(2, 2),
        common::sq(3, 3),
        common::sq(4, 5),
        common::sq(5, 0),
    ];
    assert_eq!(attackers, expected);
}
