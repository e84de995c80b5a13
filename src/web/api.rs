//! The routes: the page's files for `GET`, and the JSON API for `POST`. Every rule is
//! decided here, by the judge's code; the page only shows answers.
//!
//! | path | body | answer |
//! |---|---|---|
//! | `/api/state` | `{start, moves}` | the game (see [`state_json`]) |
//! | `/api/targets` | `{start, moves, from: [x, y]}` | `{from, targets, reason}` |
//! | `/api/play` | `{start, moves, move: [xs, ys, xt, yt]}` | `{legal, line, text, state}` |
//! | `/api/ai` | `{start, moves, think: ms, level, seed}` | `{move, think, level}` (the time used, clamped) |
//! | `/api/replay` | a judge input (text) | see [`replay::replay`] (streamed) |
//! | `/api/analyze` | `{start, moves}` or `{input}`, `movetime`, `from`, `count`, `prior` | see [`review_jobs`] |
//! | `/api/load` | a saved game (text) | the game, as `/api/state` |
//! | `/api/save` | `{start, moves}` | the saved game (text) |
//! | `/api/judge` | a judge input (text) | `{output, error, note}`: the judge's exact output, and what it says on standard error |
//! | `/api/validate` | a judge input (text) | `{ok, commands, error, line, column}`: `validate`'s verdict |
//!
//! `start` is a position in notation (the start position when absent), `moves` the
//! moves played from it, each legal, at most [`state::MAX_MOVES`] (413 beyond, as for a
//! saved game to load). The replay shows at most [`replay::MAX_COMMANDS`] commands and
//! is written a step at a time, so no answer is held whole in memory beyond some
//! hundreds of kilobytes. Nothing here reads or writes a file: loading and saving go
//! through the browser.

use super::assets;
use super::http::{Method, Request, Response, JSON, TEXT};
use super::replay;
use super::review_jobs;
use super::state::{self, move_json, square_from, state_json, ApiError};
use super::think::{self, Thinker};
use crate::cli::json::Json;
use crate::judge::game::Invalid;
use crate::judge::rules;
use crate::judge::run::ignored_after;
use crate::judge::{verdict_line, Summary};
use crate::play::level::{Level, Strength, LEVELS};
use crate::play::saved::{parse_saved, save_text};
use crate::show::explain;
use crate::show::format::{self, ValidateError, DEFAULT_MAX_Q};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The thinking time when a request names none.
pub const DEFAULT_THINK_MS: i64 = 1000;

/// An endpoint: the request body in (and the flag raised if its client goes), a
/// response or a refusal out.
type Endpoint = fn(&Api, &[u8], &AtomicBool) -> Result<Response, ApiError>;

/// The API paths and what serves them.
const ENDPOINTS: [(&str, Endpoint); 10] = [
    ("/api/state", Api::state),
    ("/api/targets", Api::targets),
    ("/api/play", Api::play),
    ("/api/ai", Api::ai),
    ("/api/replay", Api::replay),
    ("/api/analyze", Api::analyze),
    ("/api/load", Api::load),
    ("/api/save", Api::save),
    ("/api/judge", Api::judge),
    ("/api/validate", Api::validate),
];

/// What answers the requests: the routes and the computer's limits.
pub struct Api {
    thinker: Thinker,
}

impl Api {
    /// An API whose computer searches at most `moves` moves and `analyses` analyses
    /// at once.
    pub fn new(moves: usize, analyses: usize) -> Api {
        Api {
            thinker: Thinker::new(moves, analyses),
        }
    }

    /// Answers one request.
    pub fn handle(&self, request: &Request) -> Response {
        if let Some(asset) = assets::find(&request.path) {
            return match request.method {
                Method::Get | Method::Head => Response::ok(asset.content_type, asset.body),
                _ => not_allowed("GET, HEAD"),
            };
        }
        let endpoint = match ENDPOINTS.iter().find(|(path, _)| *path == request.path) {
            Some((_, e)) => e,
            None => {
                let shown: String = request.path.chars().take(80).collect();
                return Response::error(404, format!("no such page: {shown}"));
            }
        };
        if request.method != Method::Post {
            return not_allowed("POST");
        }
        endpoint(self, &request.body, &request.gone.0)
            .unwrap_or_else(|e| Response::error(e.status, e.message))
    }

    fn state(&self, body: &[u8], _: &AtomicBool) -> Result<Response, ApiError> {
        let game = state::replay(&parse(body)?, true)?;
        Ok(json(state_json(&game)))
    }

    fn targets(&self, body: &[u8], _: &AtomicBool) -> Result<Response, ApiError> {
        let body = parse(body)?;
        let from = square_from(body.get("from"), "from")?;
        let game = state::replay(&body, false)?;
        let targets: Vec<Json> = rules::legal_moves(game.game.board())
            .into_iter()
            .filter(|m| m.from == from)
            .map(|m| state::square_json(m.to))
            .collect();
        // Why this square has no targets, when the reason is not the piece's own moves:
        // the judge's check of a move that goes nowhere names it.
        let (x, y) = (from.x() as i64, from.y() as i64);
        let reason = match game.game.validate(x, y, x, y) {
            Err(Invalid::NotThatWay(_)) | Ok(_) => Json::Null,
            Err(e) => Json::str(e.to_string()),
        };
        Ok(json(Json::obj([
            ("from", state::square_json(from)),
            ("targets", Json::Arr(targets)),
            ("reason", reason),
        ])))
    }

    fn play(&self, body: &[u8], _: &AtomicBool) -> Result<Response, ApiError> {
        let body = parse(body)?;
        let c = body
            .get("move")
            .and_then(state::ints::<4>)
            .ok_or_else(|| ApiError::bad("move: expected [xs, ys, xt, yt]"))?;
        let mut game = state::replay(&body, true)?;
        let (verdict, text) = explain::play(&mut game.game, c);
        if let Ok(moved) = verdict {
            if let Some(mv) = explain::command_move(c) {
                game.played.push(state::Played {
                    mv,
                    moved,
                    text: text.clone(),
                });
            }
        }
        Ok(json(Json::obj([
            ("legal", Json::Bool(verdict.is_ok())),
            ("line", Json::str(verdict_line(&verdict))),
            ("text", Json::str(text)),
            ("state", state_json(&game)),
        ])))
    }

    fn ai(&self, body: &[u8], gone: &AtomicBool) -> Result<Response, ApiError> {
        let body = parse(body)?;
        let ms = match body.get("think") {
            None | Some(Json::Null) => DEFAULT_THINK_MS,
            Some(v) => v
                .as_int()
                .ok_or_else(|| ApiError::bad("think: expected milliseconds"))?,
        };
        let strength = strength(&body)?;
        let game = state::replay(&body, false)?;
        let time = Thinker::clamp(Duration::from_millis(ms.max(0) as u64));
        let report = self
            .thinker
            .think(game.game.board(), time, strength, gone)
            .map_err(think::refusal)?;
        // Only the move is read from the report: the search's other figures are its
        // own business and may change with it.
        Ok(json(Json::obj([
            ("move", report.best.map_or(Json::Null, move_json)),
            ("think", Json::int(time.as_millis() as i64)),
            ("level", Json::int(i64::from(strength.level.number()))),
        ])))
    }

    fn replay(&self, body: &[u8], _: &AtomicBool) -> Result<Response, ApiError> {
        // Made a part at a time, as the client reads.
        let mut parts = replay::parts(body.to_vec());
        Ok(Response::stream(
            JSON,
            Box::new(move |out: &mut Vec<u8>| {
                let more = parts(out)?;
                if !more {
                    out.push(b'\n');
                }
                Ok(more)
            }),
        ))
    }

    fn analyze(&self, body: &[u8], gone: &AtomicBool) -> Result<Response, ApiError> {
        review_jobs::analyze(&self.thinker, &parse(body)?, gone)
    }

    fn load(&self, body: &[u8], _: &AtomicBool) -> Result<Response, ApiError> {
        let text = std::str::from_utf8(body)
            .map_err(|_| ApiError::bad("the saved game is not UTF-8 text"))?;
        let (start, moves) = parse_saved(text).map_err(|e| ApiError::bad(e.to_string()))?;
        if moves.len() > state::MAX_MOVES {
            return Err(ApiError::too_long(moves.len()));
        }
        let request = Json::obj([
            ("start", Json::str(start.to_string())),
            (
                "moves",
                Json::Arr(moves.into_iter().map(move_json).collect()),
            ),
        ]);
        Ok(json(state_json(&state::replay(&request, true)?)))
    }

    fn save(&self, body: &[u8], _: &AtomicBool) -> Result<Response, ApiError> {
        let game = state::replay(&parse(body)?, false)?;
        Ok(Response::ok(TEXT, save_text(&game.start, &game.moves())))
    }

    /// The judge itself on the input: its output byte for byte, and the one line it
    /// would write on standard error (an input error after the lines before it, or the
    /// note on input after the last command). The body's limit bounds the output: a
    /// line a command, and a command takes at least 8 bytes.
    fn judge(&self, body: &[u8], _: &AtomicBool) -> Result<Response, ApiError> {
        let mut output = Vec::new();
        let (error, note) = match crate::judge::run(body, &mut output) {
            Ok(Summary {
                commands,
                trailing: Some(at),
            }) => (Json::Null, Json::str(ignored_after(commands, at))),
            Ok(_) => (Json::Null, Json::Null),
            Err(e) => (Json::str(e.to_string()), Json::Null),
        };
        Ok(json(Json::obj([
            ("output", Json::str(String::from_utf8_lossy(&output))),
            ("error", error),
            ("note", note),
        ])))
    }

    /// The strict format check of `validate`: the number of commands, or the first
    /// place the input breaks the format (line and column from 1, columns in bytes).
    fn validate(&self, body: &[u8], _: &AtomicBool) -> Result<Response, ApiError> {
        let (ok, commands, error, line, column) = match format::validate(body, DEFAULT_MAX_Q) {
            Ok(q) => (
                true,
                Json::int(q as i64),
                Json::Null,
                Json::Null,
                Json::Null,
            ),
            Err(ValidateError::Format(e)) => (
                false,
                Json::Null,
                Json::str(e.to_string()),
                Json::int(e.line as i64),
                Json::int(e.column as i64),
            ),
            Err(ValidateError::Read(e)) => return Err(ApiError::bad(e.to_string())),
        };
        Ok(json(Json::obj([
            ("ok", Json::Bool(ok)),
            ("commands", commands),
            ("error", error),
            ("line", line),
            ("column", column),
        ])))
    }
}

/// The computer's strength a request asks for: `level` 1 to 8 ([`Level::DEFAULT`]
/// when absent, as on the page) and the game's `seed` for a weakened level's choices (0
/// when absent).
fn strength(body: &Json) -> Result<Strength, ApiError> {
    let level = match body.get("level") {
        None | Some(Json::Null) => Level::DEFAULT,
        Some(v) => v
            .as_int()
            .and_then(|n| u64::try_from(n).ok())
            .and_then(Level::new)
            .ok_or_else(|| ApiError::bad(format!("level: expected 1 to {LEVELS}")))?,
    };
    let seed = match body.get("seed") {
        None | Some(Json::Null) => 0,
        Some(v) => v
            .as_exact_int()
            .and_then(|n| u64::try_from(n).ok())
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "seed: expected a whole number from 0 to 2^53, found {}",
                    v.written()
                ))
            })?,
    };
    Ok(Strength { level, seed })
}

fn parse(body: &[u8]) -> Result<Json, ApiError> {
    Json::parse(body).map_err(|e| ApiError::bad(e.to_string()))
}

fn json(value: Json) -> Response {
    Response::ok(JSON, format!("{value}\n"))
}

fn not_allowed(allow: &'static str) -> Response {
    Response::error(405, format!("use {allow} here")).with_header("Allow", allow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::http::Version;

    fn post(api: &Api, path: &str, body: &str) -> Response {
        api.handle(&Request {
            method: Method::Post,
            path: path.to_string(),
            query: None,
            version: Version::Http11,
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
            gone: Default::default(),
        })
    }

    fn body_json(r: Response) -> Json {
        Json::parse(&r.into_bytes()).expect("JSON answer")
    }

    #[test]
    fn targets_of_a_piece_and_why_none() {
        let api = Api::new(1, 1);
        let r = post(&api, "/api/targets", r#"{"from":[0,1]}"#);
        assert_eq!(r.status, 200);
        // The red horse on (0, 1): (2, 2) only; (2, 0) holds its own duck and (1, 3)
        // is blocked at (0, 2) by its own elephant.
        assert_eq!(body_json(r).get("targets").unwrap().to_string(), "[[2,2]]");
        let r = post(&api, "/api/targets", r#"{"from":[9,1]}"#);
        assert_eq!(
            body_json(r).get("reason").and_then(Json::as_str),
            Some("the piece on (9, 1) is the opponent's (blue horse)")
        );
        let r = post(&api, "/api/targets", r#"{"from":[5,5]}"#);
        assert_eq!(
            body_json(r).get("reason").and_then(Json::as_str),
            Some("no piece on the source square (5, 5)")
        );
        assert_eq!(post(&api, "/api/targets", "{}").status, 400);
    }

    /// The judge run here, as `/api/judge` should show it.
    fn judged(input: &str) -> (String, Option<String>) {
        let mut out = Vec::new();
        let error = crate::judge::run(input.as_bytes(), &mut out).err();
        (
            String::from_utf8(out).unwrap(),
            error.map(|e| e.to_string()),
        )
    }

    #[test]
    fn judge_gives_the_judges_output_and_its_message() {
        let api = Api::new(1, 1);
        let cases = [
            // Whole, lenient spacing included; cut off by a bad token; input after
            // the last command.
            "3\n0 3 1 2\n9  4 8 4\n0 0 7 0\n",
            "3\n0 3 1 2\n9 4 x 4\n0 0 7 0\n",
            "1\n0 3 1 2\n9 4 8 4\n",
        ];
        for input in cases {
            let v = body_json(post(&api, "/api/judge", input));
            let (output, error) = judged(input);
            assert_eq!(
                v.get("output").and_then(Json::as_str),
                Some(output.as_str())
            );
            assert_eq!(v.get("error").and_then(Json::as_str), error.as_deref());
        }
        let v = body_json(post(&api, "/api/judge", cases[2]));
        assert_eq!(
            v.get("note").and_then(Json::as_str),
            Some("ignoring the input after command 1, from line 3, column 1")
        );
        let v = body_json(post(&api, "/api/judge", cases[1]));
        assert!(v
            .get("error")
            .and_then(Json::as_str)
            .unwrap()
            .starts_with("line 3, column 5"));
        assert_eq!(v.get("note"), Some(&Json::Null));
    }

    #[test]
    fn validate_gives_the_verdict_with_its_line_and_column() {
        let api = Api::new(1, 1);
        let v = body_json(post(&api, "/api/validate", "2\n0 3 1 2\n9 4 8 4\n"));
        assert_eq!(v.get("ok"), Some(&Json::Bool(true)));
        assert_eq!(v.get("commands").and_then(Json::as_int), Some(2));
        assert_eq!(v.get("line"), Some(&Json::Null));
        let v = body_json(post(&api, "/api/validate", "2\n0 3 1 2\n9 4 8 4 \n"));
        assert_eq!(v.get("ok"), Some(&Json::Bool(false)));
        assert_eq!(v.get("line").and_then(Json::as_int), Some(3));
        assert_eq!(v.get("column").and_then(Json::as_int), Some(8));
        assert_eq!(
            v.get("error").and_then(Json::as_str),
            Some("line 3, column 8: expected end of line after yt, found a space")
        );
    }

    #[test]
    fn play_answers_invalid_commands_with_the_reason() {
        let api = Api::new(1, 1);
        let r = post(&api, "/api/play", r#"{"move":[0,0,7,0]}"#);
        let v = body_json(r);
        assert_eq!(v.get("legal"), Some(&Json::Bool(false)));
        assert_eq!(
            v.get("line").and_then(Json::as_str),
            Some("Invalid command")
        );
        assert_eq!(
            v.get("text").and_then(Json::as_str),
            Some("invalid: the car is blocked at (2, 0)")
        );
        let r = post(&api, "/api/play", r#"{"move":[0,3,1,2]}"#);
        let v = body_json(r);
        assert_eq!(
            v.get("line").and_then(Json::as_str),
            Some("red guard;NA;no;no")
        );
        assert_eq!(
            v.get("state")
                .and_then(|s| s.get("moves"))
                .unwrap()
                .to_string(),
            "[[0,3,1,2]]"
        );
        let r = post(&api, "/api/play", r#"{"move":[99999999999,0,0,0]}"#);
        assert_eq!(
            body_json(r).get("text").and_then(Json::as_str),
            Some("invalid: the source square is off the board")
        );
    }

    #[test]
    fn save_and_load_round_trip() {
        let api = Api::new(1, 1);
        let r = post(&api, "/api/save", r#"{"moves":[[0,1,2,2],[9,1,7,2]]}"#);
        let text = String::from_utf8(r.into_bytes()).unwrap();
        assert_eq!(
            text,
            "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r\n2\n0 1 2 2\n9 1 7 2\n"
        );
        let r = post(&api, "/api/load", &text);
        assert_eq!(
            body_json(r).get("moves").unwrap().to_string(),
            "[[0,1,2,2],[9,1,7,2]]"
        );
        let r = post(&api, "/api/load", "nonsense\n");
        assert_eq!(r.status, 400);
        assert!(String::from_utf8_lossy(&r.into_bytes()).contains("line 1:"));
    }

    #[test]
    fn the_computer_takes_a_captain_at_once() {
        let api = Api::new(1, 1);
        let r = post(
            &api,
            "/api/ai",
            r#"{"start":"4k4/9/9/9/9/9/9/9/9/R3K4 r","moves":[[0,0,9,0],[0,0,0,0]],"think":10}"#,
        );
        assert_eq!(r.status, 400, "an invalid move in the list is refused");
        let r = post(
            &api,
            "/api/ai",
            r#"{"start":"4k4/9/9/9/9/9/9/9/9/R3K4 r","moves":[[0,0,9,0],[9,4,9,3]],"think":99999999}"#,
        );
        let v = body_json(r);
        assert_eq!(v.get("move").unwrap().to_string(), "[9,0,9,3]", "{v}");
        assert_eq!(v.get("think").and_then(Json::as_int), Some(5000));
    }

    #[test]
    fn the_computer_plays_at_a_level_with_a_seed() {
        let api = Api::new(1, 1);
        let ask = |level: &str, seed: &str| {
            post(
                &api,
                "/api/ai",
                &format!(r#"{{"moves":[[3,4,4,4]],"think":50,"level":{level},"seed":{seed}}}"#),
            )
        };
        let chosen = |r: Response| {
            assert_eq!(r.status, 200);
            let v = body_json(r);
            assert_eq!(v.get("level").and_then(Json::as_int), Some(1));
            v.get("move").unwrap().to_string()
        };
        // The same seed, the same move; other seeds, other moves.
        assert_eq!(chosen(ask("1", "5")), chosen(ask("1", "5")));
        let moves: std::collections::BTreeSet<String> =
            (0..8).map(|s| chosen(ask("1", &s.to_string()))).collect();
        assert!(moves.len() > 1, "{moves:?}");
        for (level, seed) in [
            ("0", "1"),
            ("9", "1"),
            ("\"x\"", "1"),
            ("1", "-1"),
            ("1", "0.5"),
        ] {
            let r = ask(level, seed);
            assert_eq!(r.status, 400, "level {level}, seed {seed}");
        }
        let refused = ask("9", "1").into_bytes();
        assert!(String::from_utf8_lossy(&refused).contains("level: expected 1 to 8"));
    }

    #[test]
    fn routes_methods_and_assets() {
        let api = Api::new(1, 1);
        let get = |path: &str, method| {
            api.handle(&Request {
                method,
                path: path.to_string(),
                query: None,
                version: Version::Http11,
                headers: Vec::new(),
                body: Vec::new(),
                gone: Default::default(),
            })
        };
        assert_eq!(get("/", Method::Get).status, 200);
        assert_eq!(get("/app.js", Method::Head).status, 200);
        assert_eq!(get("/nope", Method::Get).status, 404);
        let r = get("/api/state", Method::Get);
        assert_eq!(r.status, 405);
        assert_eq!(r.headers, vec![("Allow", "POST".to_string())]);
        assert_eq!(get("/", Method::Post).status, 405);
        assert_eq!(post(&api, "/api/state", "{").status, 400);
    }
}
