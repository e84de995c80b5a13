//! The API without a server: what the page calls when it is opened from plain static
//! files (the site `scripts/site.sh` writes) rather than served by `duckchess serve`.
//! The same routes answer ([`Api::handle`]), built to WebAssembly and run in the page's
//! Web Workers, so the static board decides every rule, plays every level and judges
//! every input with the very code of the server and the judge.
//!
//! [`call`] is the whole interface; in a WebAssembly build four entry points carry it
//! across (the page writes the path and the body into memory the module gives it, and
//! reads back the content type and the answer), and the page hands the module its
//! clock ([`crate::sys::clock`]). A search runs on the worker's one thread, bounded by
//! its own clock; the page ends a worker that overruns its time and the grace, and
//! starts another.

use super::api::Api;
use super::http::{Gone, Limits, Method, Request, Response, Version};
use crate::engine::search::{Context, Engine, Limits as SearchLimits};
use crate::judge::board::Board;
use crate::sys::clock::Instant;

/// One answer: the status, the `Content-Type` and the whole body.
#[derive(Debug)]
pub struct Answer {
    /// The HTTP status the server would send.
    pub status: u16,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// The body, whole (a streamed answer produced into memory: the limits of the
    /// routes bound it).
    pub body: Vec<u8>,
}

/// Answers a `POST` of `body` to `path`, as the server would (a body over the server's
/// limit is refused the same way, with 413).
pub fn call(api: &Api, path: &str, body: Vec<u8>) -> Answer {
    let response = if body.len() > Limits::SERVE.body {
        Response::error(
            413,
            format!(
                "the request is {} bytes; at most {} are read",
                body.len(),
                Limits::SERVE.body
            ),
        )
    } else {
        api.handle(&Request {
            method: Method::Post,
            path: path.to_string(),
            query: None,
            version: Version::Http11,
            headers: Vec::new(),
            body,
            gone: Gone::default(),
        })
    };
    Answer {
        status: response.status,
        content_type: response.content_type,
        body: response.into_bytes(),
    }
}

/// The deepest search [`bench`] runs: its time stays bounded however it is called.
pub const MAX_BENCH_DEPTH: u32 = 14;

/// The speed benchmark of `scripts/bench-site.sh`, the same natively and in a browser:
/// each position of `positions` (one a line, in notation) searched on one thread to
/// `depth` (at most [`MAX_BENCH_DEPTH`]) with a fresh engine; a line each, `nodes
/// microseconds`, or `error: ...` for a line that is no position.
pub fn bench(positions: &str, depth: u32) -> String {
    let depth = depth.clamp(1, MAX_BENCH_DEPTH);
    let mut out = String::new();
    for line in positions.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let board = match line.parse::<Board>() {
            Ok(b) => b,
            Err(e) => {
                out.push_str(&format!("error: {e}\n"));
                continue;
            }
        };
        let started = Instant::now();
        let report =
            Engine::new().search_in(&board, SearchLimits::depth(depth), Context::default());
        let micros = started.elapsed().as_micros();
        out.push_str(&format!("{} {micros}\n", report.nodes));
    }
    out
}

/// The entry points of the WebAssembly module. The page gives the request in the
/// buffer [`dc_input`] returns (the path's bytes, then the body's), calls [`dc_call`]
/// with the path's length, and reads the answer (its `Content-Type`, a newline, its
/// body) from [`dc_output`] and [`dc_output_len`].
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod entry {
    use super::{call, Api};
    use std::cell::RefCell;

    /// One worker's API (its own search slots) and its buffers.
    struct Worker {
        api: Api,
        input: Vec<u8>,
        output: Vec<u8>,
    }

    thread_local! {
        static WORKER: RefCell<Worker> = RefCell::new(Worker {
            api: Api::new(1, 1),
            input: Vec::new(),
            output: Vec::new(),
        });
    }

    /// A buffer of `len` bytes for the next request; its address.
    #[no_mangle]
    pub extern "C" fn dc_input(len: usize) -> *mut u8 {
        WORKER.with(|w| {
            let mut w = w.borrow_mut();
            w.input.clear();
            w.input.resize(len, 0);
            w.input.as_mut_ptr()
        })
    }

    /// Answers the request in the input buffer, whose first `path_len` bytes are the
    /// path; the status.
    #[no_mangle]
    pub extern "C" fn dc_call(path_len: usize) -> u32 {
        WORKER.with(|w| {
            let mut w = w.borrow_mut();
            let mut body = std::mem::take(&mut w.input);
            let path_len = path_len.min(body.len());
            let path = String::from_utf8_lossy(&body[..path_len]).into_owned();
            body.drain(..path_len);
            let answer = call(&w.api, &path, body);
            let mut output = Vec::with_capacity(answer.content_type.len() + 1 + answer.body.len());
            output.extend_from_slice(answer.content_type.as_bytes());
            output.push(b'\n');
            output.extend_from_slice(&answer.body);
            w.output = output;
            u32::from(answer.status)
        })
    }

    /// [`super::bench`] on the positions in the input buffer, to `depth`; the answer
    /// goes where [`dc_call`]'s goes (as text, without a `Content-Type` line).
    #[no_mangle]
    pub extern "C" fn dc_bench(depth: u32) {
        WORKER.with(|w| {
            let mut w = w.borrow_mut();
            let input = std::mem::take(&mut w.input);
            w.output = super::bench(&String::from_utf8_lossy(&input), depth).into_bytes();
        })
    }

    /// The address of the last answer.
    #[no_mangle]
    pub extern "C" fn dc_output() -> *const u8 {
        WORKER.with(|w| w.borrow().output.as_ptr())
    }

    /// The length of the last answer.
    #[no_mangle]
    pub extern "C" fn dc_output_len() -> usize {
        WORKER.with(|w| w.borrow().output.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::json::Json;

    #[test]
    fn the_routes_answer_as_the_server_does() {
        let api = Api::new(1, 1);
        let a = call(&api, "/api/targets", br#"{"from":[0,1]}"#.to_vec());
        assert_eq!((a.status, a.content_type), (200, super::super::http::JSON));
        let v = Json::parse(&a.body).expect("JSON");
        assert_eq!(
            v.get("targets").map(|t| t.to_string()).as_deref(),
            Some("[[2,2]]")
        );
        assert_eq!(call(&api, "/api/nothing", Vec::new()).status, 404);
        assert_eq!(call(&api, "/api/state", b"{".to_vec()).status, 400);
    }

    #[test]
    fn the_benchmark_searches_each_position_to_its_depth() {
        let text = format!("{}\nnot a position\n", Board::start());
        let out = bench(&text, 3);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        let nodes: u64 = lines[0].split(' ').next().unwrap().parse().unwrap();
        // The same search natively: the same nodes.
        let report =
            Engine::new().search_in(&Board::start(), SearchLimits::depth(3), Context::default());
        assert_eq!(nodes, report.nodes);
        assert!(lines[1].starts_with("error: "), "{out}");
    }

    #[test]
    fn a_body_over_the_limit_is_refused_as_the_server_refuses_it() {
        let api = Api::new(1, 1);
        let a = call(&api, "/api/judge", vec![b' '; Limits::SERVE.body + 1]);
        assert_eq!(a.status, 413);
        let a = call(&api, "/api/judge", vec![b' '; Limits::SERVE.body]);
        assert_eq!(a.status, 200);
    }
}
