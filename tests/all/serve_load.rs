//! `duckchess serve` when it is busy or going: the computer's moves beside analyses,
//! clients that hang up before their answer, and a stop with requests queued.

use crate::serve_common;

use duckchess::cli::json::Json;
use serve_common::{connect, parse_answer, post, read_all, Server};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// An analysis of the first three positions of a game from the start, `ms` each: the
/// engine thinks the whole time about each (no position is decided early).
fn analysis(ms: u64) -> String {
    format!(r#"{{"moves":[[3,4,4,4],[6,4,5,4]],"movetime":{ms},"count":3}}"#)
}

/// A request for the computer's move, thinking `ms`.
const fn ai_request() -> &'static str {
    r#"{"think":50}"#
}

/// The raw bytes of `POST path` with `body`.
fn raw_post(addr: std::net::SocketAddr, path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[test]
fn analyses_never_keep_the_computer_from_moving() {
    let server = Server::start(&[]);
    let addr = server.addr;
    let done = Arc::new(AtomicBool::new(false));
    // Three clients analysing without a pause (some are told the analyses are busy).
    let analysts: Vec<_> = (0..3)
        .map(|_| {
            let done = Arc::clone(&done);
            thread::spawn(move || {
                let mut answered = 0;
                while !done.load(Ordering::SeqCst) {
                    let a = post(addr, "/api/analyze", &analysis(300));
                    assert!(a.status == 200 || a.status == 503, "{}", a.text());
                    answered += usize::from(a.status == 200);
                }
                answered
            })
        })
        .collect();
    thread::sleep(Duration::from_millis(300));
    // Two players asking for moves at the same time: every move comes.
    let players: Vec<_> = (0..2)
        .map(|_| {
            thread::spawn(move || {
                (0..10)
                    .map(|_| post(addr, "/api/ai", ai_request()))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for p in players {
        for a in p.join().expect("the player ends") {
            assert_eq!(a.status, 200, "{}", a.text());
        }
    }
    done.store(true, Ordering::SeqCst);
    let analysed: usize = analysts.into_iter().map(|a| a.join().expect("ends")).sum();
    assert!(analysed > 0, "the analyses went on too");
}

/// Sends `body` to `path` and closes the connection at once, without the answer.
fn hang_up(addr: std::net::SocketAddr, path: &str, body: &str) {
    let mut stream = connect(addr);
    stream.write_all(&raw_post(addr, path, body)).expect("sent");
    drop(stream);
}

/// Asks until the answer is not 503 (the computer busy), for at most `limit`; returns
/// the last answer and how long it took.
fn until_served(
    addr: std::net::SocketAddr,
    path: &str,
    body: &str,
    limit: Duration,
) -> (u16, Duration) {
    let start = Instant::now();
    loop {
        let a = post(addr, path, body);
        if a.status != 503 || start.elapsed() >= limit {
            return (a.status, start.elapsed());
        }
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_client_that_hangs_up_gives_back_its_search() {
    let server = Server::start(&[]);
    let addr = server.addr;
    // Both slots of the moves taken by five-second searches whose clients went.
    for _ in 0..2 {
        hang_up(addr, "/api/ai", r#"{"think":5000}"#);
    }
    let (status, waited) = until_served(addr, "/api/ai", ai_request(), Duration::from_secs(4));
    assert_eq!(status, 200);
    assert!(
        waited < Duration::from_secs(2),
        "the computer came back after {waited:?}"
    );
    // The slot of the analyses, taken by a three-second analysis whose client went.
    hang_up(addr, "/api/analyze", &analysis(1000));
    thread::sleep(Duration::from_millis(100));
    let (status, waited) =
        until_served(addr, "/api/analyze", &analysis(10), Duration::from_secs(2));
    assert_eq!(status, 200);
    assert!(
        waited < Duration::from_secs(1),
        "the analysis came back after {waited:?}"
    );
    // A client that only ends its sending side still gets its answer.
    let a = post(addr, "/api/ai", r#"{"think":600}"#);
    assert_eq!(a.status, 200, "{}", a.text());
}

#[test]
#[ignore = "slow (about 10 s of load): the full tier runs it"]
fn stopping_answers_every_request_read() {
    let server = Server::start(&["--workers", "1"]);
    let addr = server.addr;
    // Twelve three-second analyses for one worker: one at work, eight waiting, three
    // refused at once.
    let clients: Vec<_> = (0..12)
        .map(|_| {
            thread::spawn(move || {
                let mut stream = connect(addr);
                stream
                    .write_all(&raw_post(addr, "/api/analyze", &analysis(1000)))
                    .expect("sent");
                read_all(&mut stream)
            })
        })
        .collect();
    thread::sleep(Duration::from_millis(500));
    let (status, stderr) = server.stop();
    assert!(status.success(), "{stderr}");
    let mut statuses = Vec::new();
    for c in clients {
        let raw = c.join().expect("the client ends");
        assert!(!raw.is_empty(), "an empty reply");
        let a = parse_answer(&raw);
        let body = Json::parse(&a.body).unwrap_or_else(|e| panic!("{e}: {}", a.text()));
        if a.status == 503 {
            assert!(body.get("error").is_some());
        }
        statuses.push(a.status);
    }
    statuses.sort();
    assert!(
        statuses.iter().all(|&s| s == 200 || s == 503),
        "{statuses:?}"
    );
    assert!(statuses.contains(&200), "{statuses:?}");
}
