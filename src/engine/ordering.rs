//! Move ordering: the table move first, then captains and captures by victim value (the
//! cheaper attacker first), then killers and the countermove, then quiet moves by their
//! history and by whether they step out of attack or into it; captures that lose
//! material in the exchange last. Not on the judge path.

use crate::engine::history::History;
use crate::engine::movegen;
use crate::engine::see::see;
use crate::engine::tunables::{Tunables, X_THREAT_ORDER};
use crate::judge::board::Board;
use crate::judge::piece::PieceKind;
use crate::judge::rules::Move;

/// Move-ordering scores: the table move, then captains and captures by victim value
/// (the cheaper attacker first), then killers, then quiet moves by history.
pub(crate) const ORDER_TT: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 24;
const ORDER_KILLER: i32 = 1 << 22;
pub(crate) const ORDER_COUNTER: i32 = ORDER_KILLER - 1;
/// Captures that lose material (by [`see`]) come after every quiet move.
const ORDER_BAD_CAPTURE: i32 = -(1 << 20);

/// What a node's moves are ordered by besides the board: the search's memory of good
/// moves, the node's ply, the move that led there, and the table's move.
pub(crate) struct Node<'h, 'a> {
    pub history: &'h History<'a>,
    pub ply: usize,
    pub prev: Option<Move>,
    pub tt_move: Option<Move>,
}

/// Fills `list` (emptied first) with the moves of `board` (all, or only captures) and
/// their ordering scores, best first (or, when `lazy`, unsorted: see [`next_best`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn fill(
    list: &mut Vec<(Move, i32)>,
    board: &Board,
    node: Node,
    captures_only: bool,
    lazy: bool,
    t: &Tunables,
) {
    list.clear();
    let tt_move = node.tt_move;
    let killers = node.history.killers(node.ply);
    let counter = node.history.counter(node.prev);
    let history = node.history;
    let cont_row = History::cont_row(board, node.prev);
    // The squares the opponent attacks, worked out once and only if a move needs them.
    let mut attacked: Option<u128> = None;
    let mut attacks = || {
        *attacked.get_or_insert_with(|| movegen::attack_map(board, board.side_to_move().opponent()))
    };
    let threat_order = t.knob(X_THREAT_ORDER);
    movegen::for_each_move(board, captures_only, |m| {
        let victim = board.piece_at(m.to);
        let score = if Some(m) == tt_move {
            ORDER_TT
        } else if let Some(v) = victim {
            let attacker = board.piece_at(m.from).map_or(0, |p| t.value(p.kind));
            let v = if v.kind == PieceKind::Captain {
                10_000
            } else {
                t.value(v.kind)
            };
            // A capture that loses material in the exchange comes after the quiet
            // moves (only worth looking at when the cheap test says it might).
            let base = if !captures_only
                && attacker > v
                && attacks() & (1u128 << m.to.bit()) != 0
                && see(board, m, t) < 0
            {
                ORDER_BAD_CAPTURE
            } else {
                ORDER_CAPTURE
            };
            base + v * 16 - attacker / 16
        } else if killers.contains(&Some(m)) {
            ORDER_KILLER
        } else if counter == Some(m) {
            ORDER_COUNTER
        } else {
            let mover = board.piece_at(m.from);
            // A piece that steps out of attack comes earlier, one that steps into
            // attack later, by its value.
            let threat = match mover {
                Some(p) if threat_order != 0 && p.kind != PieceKind::Captain => {
                    let map = attacks();
                    let from = map >> m.from.bit() & 1 != 0;
                    let to = map >> m.to.bit() & 1 != 0;
                    let v = t.value(p.kind) * threat_order / 4;
                    match (from, to) {
                        (true, false) => v,
                        (_, true) => -v,
                        _ => 0,
                    }
                }
                _ => 0,
            };
            history.ordering(cont_row, mover, m) + threat
        };
        list.push((m, score));
    });
    if !lazy {
        list.sort_unstable_by_key(|e| std::cmp::Reverse(e.1));
    }
}

/// Puts the best-ordered move of `list[i..]` at `i`, in a list that [`fill`] left
/// unsorted. The first move is found by one scan: most nodes that cut do so on their
/// first move and need no sort. The rest are sorted once, when the second move is
/// reached.
#[inline]
pub(crate) fn next_best(list: &mut [(Move, i32)], i: usize) {
    match i {
        0 => {
            let mut top = 0;
            for (j, e) in list.iter().enumerate().skip(1) {
                if e.1 > list[top].1 {
                    top = j;
                }
            }
            list.swap(0, top);
        }
        1 => list[1..].sort_unstable_by_key(|e| std::cmp::Reverse(e.1)),
        _ => {}
    }
}

/// Whether a score from [`fill`] is that of an ordinary quiet move or a capture (not
/// the table move, a killer or the countermove).
#[inline]
pub(crate) fn below_counter(order: i32) -> bool {
    order < ORDER_COUNTER
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_best_gives_the_moves_best_first() {
        let board = Board::start();
        let moves = crate::judge::rules::legal_moves(&board);
        let mut list: Vec<(Move, i32)> = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| (m, (i as i32 * 37) % 11))
            .collect();
        let mut sorted: Vec<i32> = list.iter().map(|e| e.1).collect();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        for i in 0..list.len() {
            next_best(&mut list, i);
            assert_eq!(list[i].1, sorted[i], "at {i}");
        }
    }

    #[test]
    fn the_table_move_comes_first_and_a_losing_capture_after_the_quiet_moves() {
        // The red car on (1, 4) can take a soldier defended by a soldier.
        let board: Board = "4k4/9/9/4s4/4s4/9/9/9/4R4/K8 r".parse().unwrap();
        let mut table = vec![0; crate::engine::history::HISTORY_LEN];
        let history = History::new(&mut table);
        let quiet = crate::judge::rules::legal_moves(&board)
            .into_iter()
            .find(|m| board.is_empty(m.to))
            .unwrap();
        let node = |tt_move| Node {
            history: &history,
            ply: 0,
            prev: None,
            tt_move,
        };
        let mut list = Vec::new();
        fill(
            &mut list,
            &board,
            node(Some(quiet)),
            false,
            false,
            &Tunables::DEFAULT,
        );
        assert_eq!(list[0], (quiet, ORDER_TT));
        let take = list.iter().find(|(m, _)| !board.is_empty(m.to)).unwrap();
        let worst_quiet = list
            .iter()
            .filter(|(m, _)| board.is_empty(m.to))
            .map(|e| e.1)
            .min()
            .unwrap();
        assert!(take.1 < worst_quiet, "{take:?} {worst_quiet}");
    }
}
