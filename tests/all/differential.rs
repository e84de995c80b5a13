//! Randomized differential test: thousands of games from `gen` in every mode, replayed
//! through the game driver and compared, command by command, with the brute-force
//! reference in `common` (validity, captured piece, check, game over, and the full list
//! of legal moves).

use crate::common;

use common::{reference_check, reference_legal, reference_moves};
use duckchess::generate::{self, mode::Mode};
use duckchess::judge::game::Game;
use duckchess::judge::rules;
use std::collections::BTreeSet;

fn commands(seed: u64, q: u64, mode: Mode) -> Vec<[i64; 4]> {
    let mut bytes = Vec::new();
    generate::input(seed, q, mode, &mut bytes).expect("writing to a Vec");
    let text = String::from_utf8(bytes).expect("gen writes ASCII");
    let numbers: Vec<i64> = text
        .split_ascii_whitespace()
        .map(|t| t.parse().expect("gen writes integers"))
        .collect();
    assert_eq!(numbers[0] as u64, q);
    numbers[1..]
        .chunks(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

fn replay(seed: u64, q: u64, mode: Mode, full_move_lists: bool) -> (u64, u64) {
    let mut game = Game::new();
    let (mut legal, mut checks) = (0, 0);
    for [a, b, c, d] in commands(seed, q, mode) {
        let before = game.board().clone();
        let expected_legal = match (
            duckchess::judge::piece::Square::new(a, b),
            duckchess::judge::piece::Square::new(c, d),
        ) {
            (Some(from), Some(to)) => reference_legal(&before, from, to),
            _ => false,
        };
        if full_move_lists {
            let generated: BTreeSet<_> = rules::legal_moves(&before)
                .into_iter()
                .map(|m| (m.from, m.to))
                .collect();
            let reference: BTreeSet<_> = reference_moves(&before).into_iter().collect();
            assert_eq!(generated, reference, "move lists differ on {before}");
        }
        let verdict = game.play(a, b, c, d);
        assert_eq!(
            verdict.is_ok(),
            expected_legal,
            "seed {seed} {mode}: {a} {b} {c} {d} on {before}: {verdict:?}"
        );
        if let Ok(moved) = verdict {
            legal += 1;
            let from = common::sq(a, b);
            let to = common::sq(c, d);
            assert_eq!(Some(moved.piece), before.piece_at(from));
            assert_eq!(moved.captured, before.piece_at(to));
            assert_eq!(moved.game_over, common::board_over(game.board()));
            assert_eq!(
                moved.check,
                reference_check(game.board()),
                "check differs after {a} {b} {c} {d} on {before}"
            );
            checks += moved.check as u64;
        } else {
            assert_eq!(
                game.board(),
                &before,
                "an invalid command changed the board"
            );
        }
    }
    (legal, checks)
}

#[test]
fn thousands_of_generated_games_agree_with_the_reference() {
    let (mut games, mut legal, mut checks) = (0, 0, 0);
    for seed in 0..600u64 {
        for mode in Mode::ALL {
            let (l, c) = replay(seed, 100, mode, false);
            games += 1;
            legal += l;
            checks += c;
        }
    }
    assert_eq!(games, 600 * Mode::ALL.len());
    // The generator's modes really exercise the rules.
    assert!(legal > 100_000, "{legal} legal moves");
    assert!(checks > 10_000, "{checks} checks");
}

#[test]
fn move_lists_agree_with_the_reference() {
    for seed in 0..20u64 {
        for mode in [Mode::Legal, Mode::Check, Mode::Endgame] {
            replay(seed, 120, mode, true);
        }
    }
}
