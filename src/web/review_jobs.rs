//! `/api/analyze`: the engine's view of a game for the page, a few positions a request.
//!
//! A request names a game (`start` and `moves`, as the other endpoints take it, or the
//! text of a judge input or saved game as `input`), the thinking time a position
//! (`movetime`), and which positions to analyse: `from` (0 is the start) and `count`.
//! One request analyses at most [`MAX_POSITIONS`] positions and at most
//! [`BUDGET`] of thinking, in the analyses' own bounded slots ([`Thinker`], apart from
//! the computer's moves, so that an analysis never keeps the computer from moving), and
//! stops when its client goes; the answer says where to go on (`next`), so the page asks again and shows its progress in
//! between, and cancelling is not asking. Every position is searched on its own
//! ([`crate::play::review`]), so a game analysed a few positions at a time gets
//! the analysis it would get at once. The verdict of the move into the first position
//! needs the position before it: the page sends back what an earlier answer said of it
//! (`prior`).

use super::http::{Response, JSON};
use super::state::{self, ApiError};
use super::think::{Pool, Thinker};
use crate::cli::json::Json;
use crate::engine::search::{Limits, MATE};
use crate::judge::board::Board;
use crate::judge::piece::{Color, Square};
use crate::judge::rules::Move;
use crate::play::review::{Analyser, Eval, Finding, Reviewed, HISTORY};
use crate::play::saved::load_text;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The thinking time a position when a request names none, in milliseconds.
pub const DEFAULT_MOVETIME_MS: u64 = 300;
/// The shortest thinking time a position.
pub const MIN_MOVETIME: Duration = Duration::from_millis(10);
/// The longest thinking time a position.
pub const MAX_MOVETIME: Duration = Duration::from_secs(1);
/// The most positions one request analyses.
pub const MAX_POSITIONS: usize = 16;
/// The most thinking one request does, all its positions together.
pub const BUDGET: Duration = Duration::from_secs(3);
/// The longest line a `prior` may carry.
const MAX_LINE: usize = 64;

/// What a request asks for, read and checked.
struct Asked {
    /// The game: its positions, from the start, and its moves with their commands'
    /// numbers.
    boards: Vec<Board>,
    moves: Vec<Move>,
    commands: Vec<u64>,
    movetime: Duration,
    /// The first position and how many.
    from: usize,
    count: usize,
    /// The analysis of the position before `from`, as an earlier answer gave it.
    prior: Option<Finding>,
}

/// Answers `/api/analyze` with `body`, the request's JSON, for a client that may go
/// (`gone`: the analysis then stops).
pub fn analyze(thinker: &Thinker, body: &Json, gone: &AtomicBool) -> Result<Response, ApiError> {
    let asked = read(body)?;
    let total = asked.boards.len();
    let per = asked.movetime.as_millis().max(1) as usize;
    let count = asked
        .count
        .min(MAX_POSITIONS)
        .min((BUDGET.as_millis() as usize / per).max(1))
        .min(total - asked.from);
    let from = asked.from;
    let earlier = asked.boards[from.saturating_sub(HISTORY)..from].to_vec();
    let chunk = asked.boards[from..from + count].to_vec();
    let limits = Limits::time(asked.movetime);
    let positions = thinker
        .run(
            asked.movetime * count as u32,
            Pool::Analyses,
            gone,
            move |stop| {
                let mut analyser = Analyser::after(limits, earlier);
                chunk
                    .iter()
                    .map(|board| analyser.next(board, Some(stop)))
                    .collect::<Vec<Finding>>()
            },
        )
        .map_err(super::think::refusal)?;
    let mut reviewed = Vec::new();
    for (i, after) in positions.iter().enumerate() {
        let p = from + i;
        let before = match i {
            0 => asked.prior.as_ref(),
            _ => positions.get(i - 1),
        };
        if let (Some(before), Some(m)) = (before, p.checked_sub(1)) {
            let judged = Reviewed::new(
                asked.commands[m],
                &asked.boards[m],
                asked.moves[m],
                before,
                after,
            );
            reviewed.extend(judged.map(|r| r.json()));
        }
    }
    let next = from + count;
    let count_of = |n: usize| Json::count(n as u64);
    let answer = Json::obj([
        ("from", count_of(from)),
        ("total", count_of(total)),
        (
            "next",
            if next < total {
                count_of(next)
            } else {
                Json::Null
            },
        ),
        (
            "movetime",
            Json::count(u64::try_from(asked.movetime.as_millis()).unwrap_or(u64::MAX)),
        ),
        (
            "positions",
            Json::Arr(positions.iter().map(Finding::json).collect()),
        ),
        ("moves", Json::Arr(reviewed)),
    ]);
    Ok(Response::ok(JSON, format!("{answer}\n")))
}

/// Reads and checks a request.
fn read(body: &Json) -> Result<Asked, ApiError> {
    if !matches!(body, Json::Obj(_)) {
        return Err(ApiError::bad("expected a JSON object"));
    }
    let (start, moves, commands) = match body.get("input") {
        None | Some(Json::Null) => {
            let game = state::replay(body, false)?;
            let moves = game.moves();
            let commands = (1..=moves.len() as u64).collect();
            (game.start, moves, commands)
        }
        Some(_) if body.get("start").is_some() || body.get("moves").is_some() => {
            return Err(ApiError::bad(
                "input: give either a judge input or start and moves, not both",
            ))
        }
        Some(Json::Str(text)) => {
            let loaded = load_text(text).map_err(|e| ApiError::bad(format!("input: {e}")))?;
            if loaded.moves.len() > state::MAX_MOVES {
                return Err(ApiError::too_long(loaded.moves.len()));
            }
            (loaded.start, loaded.moves, loaded.commands)
        }
        Some(_) => {
            return Err(ApiError::bad(
                "input: expected the text of a judge input or a saved game",
            ))
        }
    };
    let mut boards = Vec::with_capacity(moves.len() + 1);
    let mut board = start;
    for m in &moves {
        let next = {
            let mut b = board.clone();
            b.make_move(m.from, m.to);
            b
        };
        boards.push(board);
        board = next;
    }
    boards.push(board);
    let ms = match body.get("movetime") {
        None | Some(Json::Null) => DEFAULT_MOVETIME_MS as i64,
        Some(v) => v
            .as_int()
            .ok_or_else(|| ApiError::bad("movetime: expected milliseconds"))?,
    };
    let movetime = Duration::from_millis(ms.max(0) as u64).clamp(MIN_MOVETIME, MAX_MOVETIME);
    let last = boards.len() - 1;
    let from = match body.get("from") {
        None | Some(Json::Null) => 0,
        Some(v) => v
            .as_int()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= last)
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "from: expected a position from 0 (the start) to {last} (after the last move)"
                ))
            })?,
    };
    let count = match body.get("count") {
        None | Some(Json::Null) => usize::MAX,
        Some(v) => v
            .as_int()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n >= 1)
            .ok_or_else(|| ApiError::bad("count: expected a number of positions, 1 or more"))?,
    };
    let prior = match body.get("prior") {
        None | Some(Json::Null) => None,
        Some(_) if from == 0 => {
            return Err(ApiError::bad(
                "prior: the start has no position before it (give prior only with from)",
            ))
        }
        Some(v) => Some(prior(v).map_err(|e| ApiError::bad(format!("prior: {e}")))?),
    };
    Ok(Asked {
        boards,
        moves,
        commands,
        movetime,
        from,
        count,
        prior,
    })
}

/// A move `[xs, ys, xt, yt]` with both squares on the board.
fn move_from(value: &Json) -> Option<Move> {
    let [xs, ys, xt, yt] = state::ints::<4>(value)?;
    Some(Move {
        from: Square::new(xs, ys)?,
        to: Square::new(xt, yt)?,
    })
}

/// The analysis of a position as an answer gave it: `eval`, `best` and `line` (the
/// rest is not needed to judge the move after it).
fn prior(value: &Json) -> Result<Finding, String> {
    let eval = value.get("eval").ok_or("expected an object with eval")?;
    let eval = match (eval.get("cp"), eval.get("mate"), eval.get("winner")) {
        (Some(cp), None, None) => cp
            .as_int()
            // A range, not `abs()`, which overflows on the least integer.
            .filter(|cp| (1 - i64::from(MATE)..i64::from(MATE)).contains(cp))
            .map(|cp| Eval::Cp(cp as i32)),
        (None, Some(plies), Some(winner)) => {
            let winner = match winner.as_str() {
                Some("red") => Some(Color::Red),
                Some("blue") => Some(Color::Blue),
                _ => None,
            };
            let plies = plies.as_int().and_then(|n| u32::try_from(n).ok());
            winner
                .zip(plies)
                .map(|(winner, plies)| Eval::Mate { winner, plies })
        }
        _ => None,
    }
    .ok_or(r#"eval: expected {"cp": N} or {"mate": N, "winner": "red" or "blue"}"#)?;
    let best = match value.get("best") {
        None | Some(Json::Null) => None,
        Some(v) => Some(move_from(v).ok_or("best: expected [xs, ys, xt, yt] on the board")?),
    };
    let line = match value.get("line") {
        None | Some(Json::Null) => Vec::new(),
        Some(v) => v
            .as_array()
            .filter(|items| items.len() <= MAX_LINE)
            .and_then(|items| items.iter().map(move_from).collect::<Option<Vec<Move>>>())
            .ok_or("line: expected at most 64 moves [xs, ys, xt, yt] on the board")?,
    };
    Ok(Finding {
        eval,
        best,
        line,
        depth: 0,
        nodes: 0,
    })
}
