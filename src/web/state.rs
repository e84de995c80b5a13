//! The game as it travels between page and server: a start position and the list of
//! moves played from it. Reading it from a request replays every move through
//! [`Game::play`] (an illegal one is refused with the judge's reason); writing it gives
//! the page everything it shows, each fact computed here by the judge's rules: the
//! pieces, the side to move, check and the attacked captains, the end of the game, the
//! judge's line and the `trace` sentence of every move, the captured pieces, which
//! pieces can move and where.

use crate::cli::json::Json;
use crate::judge::board::Board;
use crate::judge::game::{Game, Moved};
use crate::judge::piece::{Color, Square};
use crate::judge::rules::{self, Move};
use crate::judge::verdict_line;
use crate::show::explain;
use std::fmt;

/// The most moves a game may have in a request: twice the most commands a judge input
/// has (1000), and far more than a game on the board takes. It bounds what one request
/// costs (the game with every move's sentence is built in memory); beyond it, 413.
pub const MAX_MOVES: usize = 2000;

/// A request the API refuses, with its status and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// What is wrong, one line.
    pub message: String,
}

impl ApiError {
    /// A 400 with `message`.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }

    /// The 413 for a game of `moves` moves, more than [`MAX_MOVES`].
    pub fn too_long(moves: usize) -> ApiError {
        ApiError {
            status: 413,
            message: format!("the game has {moves} moves; the server takes at most {MAX_MOVES}"),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// One move of the game with the judge's answers to it.
#[derive(Clone, Debug)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// The judge's four answers.
    pub moved: Moved,
    /// The `trace` sentence for it.
    pub text: String,
}

/// A game replayed from a request.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The position it started from.
    pub start: Board,
    /// Every move, with its verdict.
    pub played: Vec<Played>,
    /// The game after the last move.
    pub game: Game,
}

impl Replayed {
    /// The moves alone.
    pub fn moves(&self) -> Vec<Move> {
        self.played.iter().map(|p| p.mv).collect()
    }
}

/// `[x, y]` of a square.
pub fn square_json(s: Square) -> Json {
    Json::Arr(vec![Json::int(s.x() as i64), Json::int(s.y() as i64)])
}

/// `[xs, ys, xt, yt]` of a move, as the analysis writes it too.
pub use crate::play::review::move_json;

/// `n` integers from a JSON array, or `None` when it is not exactly that.
pub fn ints<const N: usize>(value: &Json) -> Option<[i64; N]> {
    let items = value.as_array()?;
    if items.len() != N {
        return None;
    }
    let mut out = [0i64; N];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = item.as_int()?;
    }
    Some(out)
}

/// The square named by `value` (`[x, y]`, on the board), for the member `name`. A
/// square off the board is quoted as sent, however large its numbers.
pub fn square_from(value: Option<&Json>, name: &str) -> Result<Square, ApiError> {
    let [x, y] = value
        .and_then(ints::<2>)
        .ok_or_else(|| ApiError::bad(format!("{name}: expected [x, y]")))?;
    Square::new(x, y).ok_or_else(|| {
        let sent = value.map_or_else(String::new, |v| written_list(v, ", "));
        ApiError::bad(format!("{name}: ({sent}) is off the board"))
    })
}

/// The items of an array as the client wrote them, joined by `separator`.
fn written_list(value: &Json, separator: &str) -> String {
    let items = value.as_array().unwrap_or_default();
    let words: Vec<String> = items.iter().map(Json::written).collect();
    words.join(separator)
}

/// Reads `start` (notation; the start position when absent) and `moves` (an array of
/// `[xs, ys, xt, yt]`, at most [`MAX_MOVES`]; none when absent) from a request body and
/// replays the moves.
/// With `describe`, each move gets its `trace` sentence (the state needs it; a look-up
/// of legal targets does not).
pub fn replay(body: &Json, describe: bool) -> Result<Replayed, ApiError> {
    if !matches!(body, Json::Obj(_)) {
        return Err(ApiError::bad("expected a JSON object"));
    }
    let start = match body.get("start") {
        None | Some(Json::Null) => Board::start(),
        Some(Json::Str(text)) => text
            .parse::<Board>()
            .map_err(|e| ApiError::bad(format!("start: {e}")))?,
        Some(_) => return Err(ApiError::bad("start: expected a position in notation")),
    };
    let list = match body.get("moves") {
        None | Some(Json::Null) => &[][..],
        Some(Json::Arr(items)) => items.as_slice(),
        Some(_) => return Err(ApiError::bad("moves: expected an array")),
    };
    if list.len() > MAX_MOVES {
        return Err(ApiError::too_long(list.len()));
    }
    let mut game = Game::from_board(start.clone());
    let mut played = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let c = ints::<4>(item)
            .ok_or_else(|| ApiError::bad(format!("move {}: expected [xs, ys, xt, yt]", i + 1)))?;
        let verdict = game.play(c[0], c[1], c[2], c[3]);
        let moved = verdict.map_err(|reason| {
            ApiError::bad(format!(
                "move {} ({}) is invalid: {reason}",
                i + 1,
                written_list(item, " ")
            ))
        })?;
        // A legal command names two squares of the board.
        let mv = explain::command_move(c).ok_or_else(|| ApiError::bad("a move off the board"))?;
        let text = if describe {
            explain::describe(&verdict, c, game.board())
        } else {
            String::new()
        };
        played.push(Played { mv, moved, text });
    }
    Ok(Replayed {
        start,
        played,
        game,
    })
}

/// The squares of the captains that are attacked, while the game goes on.
pub fn checked(board: &Board) -> Vec<Square> {
    if board.is_over() {
        return Vec::new();
    }
    Color::ALL
        .iter()
        .filter_map(|&c| {
            let captain = board.captain(c)?;
            rules::is_attacked(board, captain, c.opponent()).then_some(captain)
        })
        .collect()
}

/// The pieces of `board` as `[x, y, letter]` (upper case red, lower case blue).
pub fn pieces_json(board: &Board) -> Json {
    Json::Arr(
        board
            .pieces()
            .map(|(s, p)| {
                Json::Arr(vec![
                    Json::int(s.x() as i64),
                    Json::int(s.y() as i64),
                    Json::str(p.letter().to_string()),
                ])
            })
            .collect(),
    )
}

fn color_json(color: Option<Color>) -> Json {
    color.map_or(Json::Null, |c| Json::str(c.name()))
}

/// Everything the page shows of a game.
pub fn state_json(r: &Replayed) -> Json {
    let board = r.game.board();
    let legal = rules::legal_moves(board);
    let mut movable: Vec<Square> = legal.iter().map(|m| m.from).collect();
    movable.dedup();
    let mut lost: [Vec<Json>; 2] = [Vec::new(), Vec::new()];
    for p in &r.played {
        if let Some(c) = p.moved.captured {
            lost[c.color.index()].push(Json::str(c.letter().to_string()));
        }
    }
    let [red_lost, blue_lost] = lost;
    let history = r
        .played
        .iter()
        .map(|p| {
            Json::obj([
                ("move", move_json(p.mv)),
                ("line", Json::str(verdict_line(&Ok(p.moved)))),
                ("text", Json::str(p.text.clone())),
            ])
        })
        .collect();
    Json::obj([
        ("start", Json::str(r.start.to_string())),
        (
            "moves",
            Json::Arr(r.played.iter().map(|p| move_json(p.mv)).collect()),
        ),
        ("position", Json::str(board.to_string())),
        ("side", Json::str(board.side_to_move().name())),
        ("over", Json::Bool(board.is_over())),
        ("winner", color_json(board.winner())),
        ("check", Json::Bool(rules::is_check(board))),
        (
            "checked",
            Json::Arr(checked(board).into_iter().map(square_json).collect()),
        ),
        // The game goes on but the side to move has no move at all.
        ("stuck", Json::Bool(!board.is_over() && legal.is_empty())),
        ("pieces", pieces_json(board)),
        ("history", Json::Arr(history)),
        (
            "last",
            r.played.last().map_or(Json::Null, |p| move_json(p.mv)),
        ),
        (
            "lost",
            Json::obj([("red", Json::Arr(red_lost)), ("blue", Json::Arr(blue_lost))]),
        ),
        (
            "movable",
            Json::Arr(movable.into_iter().map(square_json).collect()),
        ),
        // Every legal move of the side to move: the page names each piece's targets
        // for a screen reader without asking again.
        (
            "legal",
            Json::Arr(legal.into_iter().map(move_json).collect()),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(text: &str) -> Json {
        Json::parse(text.as_bytes()).expect("test JSON")
    }

    #[test]
    fn a_game_replays_with_the_judges_answers() {
        let r = replay(&body(r#"{"moves":[[0,3,1,2],[9,4,8,4]]}"#), true).expect("legal");
        let state = state_json(&r);
        let history = state.get("history").and_then(Json::as_array).unwrap();
        assert_eq!(
            history[0].get("line").and_then(Json::as_str),
            Some("red guard;NA;no;no")
        );
        assert_eq!(
            history[1].get("text").and_then(Json::as_str),
            Some("blue captain (9, 4) -> (8, 4)")
        );
        assert_eq!(state.get("side").and_then(Json::as_str), Some("red"));
        let legal = state.get("legal").and_then(Json::as_array).unwrap();
        assert_eq!(legal.len(), rules::legal_moves(r.game.board()).len());
        assert!(legal.iter().any(|m| m.to_string() == "[0,1,2,2]"));
        assert_eq!(state.get("last").and_then(ints::<4>), Some([9, 4, 8, 4]));
        assert_eq!(
            state.get("position").and_then(Json::as_str),
            Some("rheg1gehr/4k4/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/2G6/RHE1KGEHR r")
        );
    }

    #[test]
    fn check_capture_and_the_end() {
        let start = "4k4/9/9/9/9/9/9/9/9/R3K4 r";
        let r = replay(
            &body(&format!(r#"{{"start":"{start}","moves":[[0,0,9,0]]}}"#)),
            true,
        )
        .unwrap();
        let state = state_json(&r);
        assert_eq!(state.get("check"), Some(&Json::Bool(true)));
        assert_eq!(
            state.get("checked").unwrap().to_string(),
            "[[9,4]]",
            "the blue captain is attacked"
        );
        let r = replay(
            &body(&format!(
                r#"{{"start":"{start}","moves":[[0,0,9,0],[9,4,8,4],[9,0,8,0],[8,4,7,4],[8,0,7,0],[7,4,7,3],[7,0,7,3]]}}"#
            )),
            true,
        )
        .unwrap();
        let state = state_json(&r);
        assert_eq!(state.get("over"), Some(&Json::Bool(true)));
        assert_eq!(state.get("winner").and_then(Json::as_str), Some("red"));
        assert_eq!(state.get("check"), Some(&Json::Bool(false)));
        assert_eq!(
            state.get("lost").unwrap().to_string(),
            r#"{"red":[],"blue":["k"]}"#
        );
        assert_eq!(state.get("movable").unwrap().to_string(), "[]");
        assert_eq!(state.get("legal").unwrap().to_string(), "[]");
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let cases = [
            ("[]", "expected a JSON object"),
            (r#"{"start":5}"#, "start: expected a position in notation"),
            (
                r#"{"start":"9/9 r"}"#,
                "start: 2 ranks, expected 10 separated by '/'",
            ),
            (r#"{"moves":{}}"#, "moves: expected an array"),
            (
                r#"{"moves":[[0,3,1]]}"#,
                "move 1: expected [xs, ys, xt, yt]",
            ),
            (
                r#"{"moves":[[0,3,1,2.5]]}"#,
                "move 1: expected [xs, ys, xt, yt]",
            ),
            (
                r#"{"moves":[[0,3,1,2],[0,0,1,0]]}"#,
                "move 2 (0 0 1 0) is invalid: the piece on (0, 0) is the opponent's (red car)",
            ),
            (
                r#"{"moves":[[0,0,7,0]]}"#,
                "move 1 (0 0 7 0) is invalid: the car is blocked at (2, 0)",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(
                replay(&body(text), false).unwrap_err(),
                ApiError::bad(message),
                "{text}"
            );
        }
        assert_eq!(
            square_from(Some(&body("[10, 0]")), "from").unwrap_err(),
            ApiError::bad("from: (10, 0) is off the board")
        );
        // Numbers beyond any board are quoted as sent, not as clamped.
        for (from, sent) in [
            ("[1e400, 0]", "1e400, 0"),
            (
                "[18446744073709551616, -1e999]",
                "18446744073709551616, -1e999",
            ),
            ("[99999999999, 0]", "99999999999, 0"),
        ] {
            assert_eq!(
                square_from(Some(&body(from)), "from").unwrap_err(),
                ApiError::bad(format!("from: ({sent}) is off the board"))
            );
        }
        assert_eq!(
            replay(&body(r#"{"moves":[[0,0,1e400,0]]}"#), false).unwrap_err(),
            ApiError::bad("move 1 (0 0 1e400 0) is invalid: the target square is off the board")
        );
    }

    #[test]
    fn a_game_beyond_the_limit_is_refused_with_413() {
        let cycle = ["[0,1,2,2]", "[9,1,7,2]", "[2,2,0,1]", "[7,2,9,1]"];
        let game = |n: usize| {
            let moves: Vec<&str> = (0..n).map(|i| cycle[i % 4]).collect();
            body(&format!(r#"{{"moves":[{}]}}"#, moves.join(",")))
        };
        let r = replay(&game(MAX_MOVES), false).expect("a game at the limit");
        assert_eq!(r.played.len(), MAX_MOVES);
        let e = replay(&game(MAX_MOVES + 1), true).unwrap_err();
        assert_eq!(e.status, 413);
        assert_eq!(
            e.message,
            "the game has 2001 moves; the server takes at most 2000"
        );
    }
}
