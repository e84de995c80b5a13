//! The API without a server: what the page calls when it is opened from plain static
//! files (the site `scripts/site.sh` writes) rather than served by `duckchess serve`.
//! The same routes answer ([`Api::handle`]), built to WebAssembly and run in the page's
//! Web Workers, so the static board decides every rule, plays every level and judges
//! every input with the very code of the server and the judge.
//!
//! [`call`] is the whole interface, and a [`Worker`] holds it with the buffers around
//! it; in a WebAssembly build four entry points carry it across (the page writes the
//! path and the body into memory the module gives it, none for a request over the
//! limit, and reads back the content type and the answer), and the page hands the
//! module its clock ([`crate::sys::clock`]). A search runs on the worker's one thread, bounded by
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
        too_large(body.len() as u64)
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
    Answer::of(response)
}

impl Answer {
    /// The whole of `response`.
    fn of(response: Response) -> Answer {
        Answer {
            status: response.status,
            content_type: response.content_type,
            body: response.into_bytes(),
        }
    }
}

/// The refusal of a body of `length` bytes, over the server's limit.
fn too_large(length: u64) -> Response {
    Response::error(
        413,
        format!(
            "the request is {length} bytes; at most {} are read",
            Limits::SERVE.body
        ),
    )
}

/// The most bytes one request may hand the module: a path as long as the server's
/// request line, and the server's largest body. A longer request is refused before
/// any memory is taken for it: a WebAssembly module's memory never shrinks.
pub const MAX_REQUEST: u64 = (Limits::SERVE.line + Limits::SERVE.body) as u64;

/// One worker of the page: its API (its own search slots) and the two buffers the
/// page writes a request into and reads the answer from. The WebAssembly entry points
/// are a thin layer over it.
pub struct Worker {
    api: Api,
    input: Vec<u8>,
    /// The length of a request refused by [`Worker::input`], until it is answered.
    refused: Option<u64>,
    output: Vec<u8>,
}

impl Default for Worker {
    fn default() -> Worker {
        Worker::new()
    }
}

impl Worker {
    /// A worker with one search slot for moves and one for analyses.
    pub fn new() -> Worker {
        Worker {
            api: Api::new(1, 1),
            input: Vec::new(),
            refused: None,
            output: Vec::new(),
        }
    }

    /// A buffer of `len` bytes for the next request (the path's bytes, then the
    /// body's), or `None` for one over [`MAX_REQUEST`] bytes: nothing is allocated for
    /// it, and [`Worker::call`] refuses it as the server refuses a body over its limit.
    pub fn input(&mut self, len: u64) -> Option<&mut [u8]> {
        self.input = Vec::new();
        if len > MAX_REQUEST {
            self.refused = Some(len);
            return None;
        }
        self.refused = None;
        self.input.resize(len as usize, 0);
        Some(&mut self.input)
    }

    /// Answers the request in the input buffer, whose first `path_len` bytes are the
    /// path (a request refused by [`Worker::input`]: with 413); the status. The answer
    /// is in [`Worker::output`]: its `Content-Type`, a newline, its body.
    pub fn call(&mut self, path_len: usize) -> u16 {
        let mut body = std::mem::take(&mut self.input);
        let answer = match self.refused.take() {
            Some(len) => Answer::of(too_large(len.saturating_sub(path_len as u64))),
            None => {
                let path_len = path_len.min(body.len());
                let path = String::from_utf8_lossy(&body[..path_len]).into_owned();
                body.drain(..path_len);
                call(&self.api, &path, body)
            }
        };
        let mut output = Vec::with_capacity(answer.content_type.len() + 1 + answer.body.len());
        output.extend_from_slice(answer.content_type.as_bytes());
        output.push(b'\n');
        output.extend_from_slice(&answer.body);
        self.output = output;
        answer.status
    }

    /// [`bench`] on the positions in the input buffer, to `depth`; the answer goes
    /// where [`Worker::call`]'s goes (as text, without a `Content-Type` line).
    pub fn bench(&mut self, depth: u32) {
        let input = std::mem::take(&mut self.input);
        self.refused = None;
        self.output = bench(&String::from_utf8_lossy(&input), depth).into_bytes();
    }

    /// The last answer.
    pub fn output(&self) -> &[u8] {
        &self.output
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

/// The entry points of the WebAssembly module, over one [`Worker`]. The page asks
/// [`dc_input`] for a buffer for the request (the path's bytes, then the body's), writes
/// the request there, calls [`dc_call`] with the path's length, and reads the answer
/// (its `Content-Type`, a newline, its body) from [`dc_output`] and [`dc_output_len`].
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod entry {
    use super::Worker;
    use std::cell::RefCell;

    thread_local! {
        static WORKER: RefCell<Worker> = RefCell::new(Worker::new());
    }

    /// A buffer of `len` bytes for the next request; its address, or 0 for a request
    /// over [`super::MAX_REQUEST`] bytes, which [`dc_call`] answers with 413. The length
    /// is 64 bits wide (a `BigInt` in JavaScript), so no length wraps around.
    #[no_mangle]
    pub extern "C" fn dc_input(len: u64) -> *mut u8 {
        WORKER.with(|w| {
            w.borrow_mut()
                .input(len)
                .map_or(std::ptr::null_mut(), <[u8]>::as_mut_ptr)
        })
    }

    /// Answers the request in the input buffer, whose first `path_len` bytes are the
    /// path; the status.
    #[no_mangle]
    pub extern "C" fn dc_call(path_len: usize) -> u32 {
        WORKER.with(|w| u32::from(w.borrow_mut().call(path_len)))
    }

    /// [`super::bench`] on the positions in the input buffer, to `depth`; the answer
    /// goes where [`dc_call`]'s goes (as text, without a `Content-Type` line).
    #[no_mangle]
    pub extern "C" fn dc_bench(depth: u32) {
        WORKER.with(|w| w.borrow_mut().bench(depth))
    }

    /// The address of the last answer.
    #[no_mangle]
    pub extern "C" fn dc_output() -> *const u8 {
        WORKER.with(|w| w.borrow().output().as_ptr())
    }

    /// The length of the last answer.
    #[no_mangle]
    pub extern "C" fn dc_output_len() -> usize {
        WORKER.with(|w| w.borrow().output().len())
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

    /// 1,000 commands, the official size: a replay of some 600 KB, the parts of the
    /// streamed answer gathered into one body.
    #[test]
    fn a_replay_of_an_official_size_input_is_answered_whole() {
        let input = format!(
            "1000\n{}",
            "0 0 1 0\n9 0 8 0\n1 0 0 0\n8 0 9 0\n".repeat(250)
        );
        // On its own thread, so that a call that never ends fails the test.
        let (tx, rx) = std::sync::mpsc::channel();
        let body = input.clone().into_bytes();
        std::thread::spawn(move || {
            let _ = tx.send(call(&Api::new(1, 1), "/api/replay", body));
        });
        let a = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("the replay answers");
        assert_eq!(a.status, 200);
        assert!(
            a.body.len() > 8 * super::super::http::PART,
            "{} bytes",
            a.body.len()
        );
        let expected = format!("{}\n", super::super::replay::replay(input.as_bytes()));
        assert!(a.body == expected.as_bytes(), "the replay differs");
        let v = Json::parse(&a.body).expect("JSON");
        assert_eq!(
            v.get("steps").and_then(Json::as_array).map(<[Json]>::len),
            Some(1000)
        );
    }

    /// A request over the limit takes no memory: a length near 4 GiB, or past it, is
    /// refused before anything is allocated, with the server's 413.
    #[test]
    fn a_huge_request_is_refused_before_it_is_allocated() {
        let mut w = Worker::new();
        let path = b"/api/judge";
        for len in [MAX_REQUEST + 1, 300 << 20, (1 << 32) - 1, u64::MAX] {
            assert!(w.input(len).is_none(), "{len}");
            assert_eq!(w.input.capacity(), 0, "{len}");
            assert_eq!(w.call(path.len()), 413);
            let text = String::from_utf8_lossy(w.output()).into_owned();
            let body_len = len - path.len() as u64;
            assert_eq!(
                text,
                format!(
                    "application/json\n{{\"error\":\"the request is {body_len} bytes; at most {} are read\"}}\n",
                    Limits::SERVE.body
                )
            );
        }
        // Within the limit: the buffer, and the answer.
        let body = b"1\n0 0 1 0\n";
        let buf = w.input((path.len() + body.len()) as u64).expect("a buffer");
        buf[..path.len()].copy_from_slice(path);
        buf[path.len()..].copy_from_slice(body);
        assert_eq!(w.call(path.len()), 200);
        let text = String::from_utf8_lossy(w.output()).into_owned();
        assert!(text.contains("red car;NA;no;no"), "{text}");
        // The largest body the server takes fits, with its path.
        assert!(w.input(MAX_REQUEST).is_some());
        assert!(MAX_REQUEST >= (Limits::SERVE.body + path.len()) as u64);
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
