//! `duckchess serve` over a real socket: every endpoint, the replay against the judge's
//! own answers (samples and official cases), bad requests and their status codes, a
//! slow client, idle connections by the dozen and beyond the descriptor limit, more
//! requests than the workers and their queue take, games beyond the move limit, memory
//! after large answers, clients that never read their answers, garbage bodies, and a
//! graceful stop at the end of standard input that answers what is in flight. After
//! each abuse the server must still answer.

use crate::official;
use crate::serve_common;

use duckchess::cli::json::Json;
use serve_common::{connect, exchange, get, parse_answer, post, read_all, request, Server};
use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

fn json(answer: &serve_common::Answer) -> Json {
    Json::parse(&answer.body).unwrap_or_else(|e| panic!("{e} in {:?}", answer.text()))
}

fn still_serving(server: &Server) {
    let page = get(server.addr, "/");
    assert_eq!(page.status, 200, "the server still answers");
}

#[test]
fn the_page_and_its_files() {
    let server = Server::start(&[]);
    let page = get(server.addr, "/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(page.header("connection"), Some("close"));
    assert!(page
        .header("content-security-policy")
        .is_some_and(|p| p.starts_with("default-src 'self'")));
    assert!(page.text().contains("<svg id=\"board\""));
    for (path, kind) in [
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let a = get(server.addr, path);
        assert_eq!(
            (a.status, a.header("content-type")),
            (200, Some(kind)),
            "{path}"
        );
        assert!(!a.body.is_empty());
    }
    let head = request(server.addr, "HEAD", "/", b"");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty(), "HEAD has no body");
    assert_eq!(
        head.header("content-length").map(str::to_string),
        page.header("content-length").map(str::to_string)
    );
    let (status, stderr) = server.stop();
    assert!(status.success(), "{stderr}");
    assert_eq!(stderr, "duckchess: serve: end of input: stopping\n");
}

#[test]
fn play_a_game_through_the_api() {
    let server = Server::start(&[]);
    let state = json(&post(server.addr, "/api/state", "{}"));
    assert_eq!(
        state
            .get("pieces")
            .and_then(Json::as_array)
            .map(|p| p.len()),
        Some(32)
    );
    assert_eq!(state.get("side").and_then(Json::as_str), Some("red"));

    let t = json(&post(server.addr, "/api/targets", r#"{"from":[3,4]}"#));
    assert_eq!(
        t.get("targets").unwrap().to_string(),
        "[[4,4],[2,4],[3,5],[3,3],[4,5],[4,3],[2,5],[2,3]]",
        "a soldier steps to its eight neighbours"
    );
    // Five moves to the first capture: red soldier takes blue soldier.
    let moves = [[0, 1, 2, 2], [9, 1, 7, 2], [3, 4, 4, 4], [6, 4, 5, 4]];
    let list = |n: usize| {
        let items: Vec<String> = moves[..n]
            .iter()
            .map(|m| format!("{m:?}").replace(' ', ""))
            .collect();
        format!("[{}]", items.join(","))
    };
    let a = json(&post(
        server.addr,
        "/api/play",
        &format!(r#"{{"moves":{},"move":[4,4,5,4]}}"#, list(4)),
    ));
    assert_eq!(
        a.get("line").and_then(Json::as_str),
        Some("red soldier;blue soldier;no;no")
    );
    let s = a.get("state").unwrap();
    assert_eq!(
        s.get("lost").unwrap().to_string(),
        r#"{"red":[],"blue":["s"]}"#
    );
    assert_eq!(
        s.get("history").and_then(Json::as_array).map(|h| h.len()),
        Some(5)
    );

    let saved = post(
        server.addr,
        "/api/save",
        &format!(r#"{{"moves":{}}}"#, list(4)),
    );
    assert_eq!(saved.status, 200);
    assert_eq!(
        saved.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    assert_eq!(
        saved.text(),
        "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r\n4\n0 1 2 2\n9 1 7 2\n3 4 4 4\n6 4 5 4\n"
    );
    let loaded = json(&post(server.addr, "/api/load", &saved.text()));
    assert_eq!(loaded.get("moves").unwrap().to_string(), list(4));

    let ai = json(&post(
        server.addr,
        "/api/ai",
        &format!(r#"{{"moves":{},"think":50}}"#, list(4)),
    ));
    let m = ai
        .get("move")
        .and_then(duckchess::web::state::ints::<4>)
        .expect("a move");
    let after = json(&post(
        server.addr,
        "/api/play",
        &format!(
            r#"{{"moves":{},"move":[{},{},{},{}]}}"#,
            list(4),
            m[0],
            m[1],
            m[2],
            m[3]
        ),
    ));
    assert_eq!(
        after.get("legal"),
        Some(&Json::Bool(true)),
        "the computer's move is legal"
    );
    assert_eq!(ai.get("think").and_then(Json::as_int), Some(50));
}

/// The judge's lines for `input`, from the binary's judge.
fn judge_lines(input: &[u8]) -> Vec<String> {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the judge runs");
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let feeder = thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("the judge ends");
    let _ = feeder.join();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn replay_shows_the_judges_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The project's own samples: the statement's and at least 7 more.
    assert!(replays_as_the_judge(&root.join("samples")) >= 8);
}

#[test]
#[cfg_attr(
    lacks_official,
    ignore = "needs the official cases (../shared/official/duckchess; scripts/fetch-official.sh)"
)]
fn replay_shows_the_judges_lines_on_the_official_cases() {
    assert_eq!(replays_as_the_judge(&official::cases()), 4);
}

/// Each input of `dir` replayed by the server shows the judge's lines and lists its
/// invalid commands; how many inputs there were.
fn replays_as_the_judge(dir: &Path) -> usize {
    let server = Server::start(&[]);
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    for entry in fs::read_dir(dir).expect("a folder of cases").flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "in") {
            inputs.push((path.display().to_string(), fs::read(&path).unwrap()));
        }
    }
    for (name, input) in &inputs {
        let answer = request(server.addr, "POST", "/api/replay", input);
        assert_eq!(answer.status, 200, "{name}");
        let r = json(&answer);
        let lines: Vec<String> = r
            .get("steps")
            .and_then(Json::as_array)
            .unwrap()
            .iter()
            .map(|s| s.get("line").and_then(Json::as_str).unwrap().to_string())
            .collect();
        assert_eq!(lines, judge_lines(input), "{name}");
        let invalid: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| *l == "Invalid command")
            .map(|(i, _)| i + 1)
            .collect();
        let listed: Vec<usize> = r
            .get("invalid")
            .and_then(Json::as_array)
            .unwrap()
            .iter()
            .map(|n| n.as_int().unwrap() as usize)
            .collect();
        assert_eq!(listed, invalid, "{name}");
    }
    inputs.len()
}

#[test]
fn bad_requests_get_status_codes_and_the_server_lives() {
    let server = Server::start(&[]);
    let host = format!("Host: {}\r\n", server.addr);
    let many_headers: String = (0..100).map(|i| format!("X-{i}: {i}\r\n")).collect();
    let table: Vec<(String, u16)> = vec![
        ("GARBAGE\r\n\r\n".to_string(), 400),
        ("GET / HTTP/1.1 extra\r\n\r\n".to_string(), 400),
        ("GET / HTTP/3\r\n\r\n".to_string(), 505),
        (format!("GET /nope HTTP/1.1\r\n{host}\r\n"), 404),
        (format!("GET /api/play HTTP/1.1\r\n{host}\r\n"), 405),
        (format!("DELETE / HTTP/1.1\r\n{host}\r\n"), 405),
        (
            format!("GET /{} HTTP/1.1\r\n{host}\r\n", "a".repeat(5000)),
            414,
        ),
        (format!("GET / HTTP/1.1\r\n{host}{many_headers}\r\n"), 431),
        (
            format!("GET / HTTP/1.1\r\n{host}X: {}\r\n\r\n", "b".repeat(20_000)),
            431,
        ),
        (
            format!("POST /api/replay HTTP/1.1\r\n{host}Content-Length: 999999999\r\n\r\n"),
            413,
        ),
        (
            format!("POST /api/replay HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n"),
            411,
        ),
        (
            format!("POST /api/state HTTP/1.1\r\n{host}Content-Length: 3\r\n\r\n{{x}}"),
            400,
        ),
        (
            format!("POST /api/state HTTP/1.1\r\n{host}Content-Length: 5\r\n\r\n{{}}"),
            400,
        ),
        (
            "GET / HTTP/1.1\r\nHost: evil.example:5380\r\n\r\n".to_string(),
            403,
        ),
        // RFC 9112: one Host in HTTP/1.1, one Content-Length.
        ("GET / HTTP/1.1\r\n\r\n".to_string(), 400),
        (format!("GET / HTTP/1.1\r\n{host}{host}\r\n"), 400),
        (format!("GET / HTTP/1.1\r\n{host}Host: localhost\r\n\r\n"), 400),
        (
            format!("POST /api/state HTTP/1.1\r\n{host}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{{}}x"),
            400,
        ),
        (
            format!("POST /api/state HTTP/1.1\r\n{host}Content-Length: 2\r\nContent-Length: 2\r\n\r\n{{}}"),
            400,
        ),
    ];
    for (raw, status) in &table {
        let a = exchange(server.addr, raw.as_bytes());
        assert_eq!(a.status, *status, "{:?}", &raw[..raw.len().min(60)]);
        let message = json(&a);
        assert!(
            message.get("error").and_then(Json::as_str).is_some(),
            "{}",
            a.text()
        );
        if *status == 405 {
            assert!(a.header("allow").is_some());
        }
    }
    // A body over the limit that is actually sent: refused, and the answer arrives.
    let big = vec![b'1'; 300 * 1024];
    let a = request(server.addr, "POST", "/api/replay", &big);
    assert_eq!(a.status, 413);
    // Bad positions and moves: 400 with the reason.
    for (body, message) in [
        (
            r#"{"start":"rhegkgehr/9 r"}"#,
            "start: 2 ranks, expected 10 separated by '/'",
        ),
        (
            r#"{"start":"kk7/9/9/9/9/9/9/9/9/4K4 r"}"#,
            "start: blue has two captains",
        ),
        (
            r#"{"moves":[[0,0,4,0]]}"#,
            "move 1 (0 0 4 0) is invalid: the car is blocked at (2, 0)",
        ),
    ] {
        let a = post(server.addr, "/api/state", body);
        assert_eq!(a.status, 400, "{body}");
        assert_eq!(json(&a).get("error").and_then(Json::as_str), Some(message));
    }
    still_serving(&server);
}

#[test]
fn slow_clients_get_408() {
    let server = Server::start(&["--read-timeout", "0.3"]);
    // Half a request line, then silence.
    let mut stream = connect(server.addr);
    stream.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    assert_eq!(parse_answer(&read_all(&mut stream)).status, 408);
    // A byte at a time: the deadline covers the whole request, not each read.
    let mut stream = connect(server.addr);
    let mut writer = stream.try_clone().unwrap();
    let trickle = thread::spawn(move || {
        for b in b"POST /api/state HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"
            .iter()
            .cycle()
            .take(400)
        {
            if writer.write_all(&[*b]).is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(25));
        }
    });
    assert_eq!(parse_answer(&read_all(&mut stream)).status, 408);
    drop(stream);
    let _ = trickle.join();
    still_serving(&server);
}

#[test]
fn beyond_workers_and_queue_the_answer_is_503() {
    // One worker and a queue of 8. The worker thinks for three seconds (the full engine:
    // the weaker levels count nodes, not time); meanwhile ten complete requests come, and
    // the queue holds only eight of them.
    let server = Server::start(&["--workers", "1"]);
    let addr = server.addr;
    let body = r#"{"think":3000,"level":8}"#;
    let thinking = thread::spawn(move || post(addr, "/api/ai", body).status);
    thread::sleep(Duration::from_millis(300));
    let waiting: Vec<_> = (0..10)
        .map(|_| thread::spawn(move || post(addr, "/api/targets", r#"{"from":[0,1]}"#)))
        .collect();
    let answers: Vec<_> = waiting.into_iter().map(|t| t.join().unwrap()).collect();
    let busy: Vec<_> = answers.iter().filter(|a| a.status == 503).collect();
    assert!(!busy.is_empty(), "the queue held more than it may");
    assert!(busy.iter().all(|a| a.header("retry-after") == Some("1")));
    assert!(
        answers.iter().all(|a| a.status == 200 || a.status == 503),
        "the queued requests are answered"
    );
    assert_eq!(thinking.join().unwrap(), 200);
    still_serving(&server);
}

/// A request from a raw text that must be answered within `limit`.
fn answered_within(addr: std::net::SocketAddr, raw: &[u8], limit: Duration) -> (u16, Duration) {
    let start = Instant::now();
    let mut stream = connect(addr);
    stream.set_read_timeout(Some(limit)).unwrap();
    stream.write_all(raw).unwrap();
    let answer = parse_answer(&read_all_within(&mut stream, limit));
    (answer.status, start.elapsed())
}

/// Everything `stream` delivers, failing the test if that takes more than `limit`.
fn read_all_within(stream: &mut std::net::TcpStream, limit: Duration) -> Vec<u8> {
    let deadline = Instant::now() + limit;
    let mut answer = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(!left.is_zero(), "no answer within {limit:?}");
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut chunk) {
            Ok(0) => return answer,
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                panic!("no answer within {limit:?}")
            }
            Err(_) if !answer.is_empty() => return answer,
            Err(e) => panic!("reading the answer failed: {e}"),
        }
    }
}

fn targets_request(addr: std::net::SocketAddr) -> Vec<u8> {
    let body = r#"{"moves":[[0,1,2,2]],"from":[9,1]}"#;
    format!(
        "POST /api/targets HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[test]
fn idle_and_trickling_connections_cost_no_worker() {
    // Fifty connections that send nothing or part of a request line, and one that
    // trickles a byte every 50 ms, all with a minute before their deadline: more than
    // the workers and their queue together (8 + 64 would be needed for 72).
    let server = Server::start(&["--workers", "2", "--read-timeout", "60"]);
    let idle: Vec<_> = (0..50)
        .map(|i| {
            let mut s = connect(server.addr);
            if i % 2 == 1 {
                s.write_all(b"POST /api/sta").unwrap();
            }
            s
        })
        .collect();
    let mut trickler = connect(server.addr);
    trickler
        .write_all(b"POST /api/state HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        .unwrap();
    let (stop, stopped) = std::sync::mpsc::channel::<()>();
    let trickle = thread::spawn(move || {
        // A header that grows by a byte every 50 ms: far from its limit for minutes.
        loop {
            if trickler.write_all(b"a").is_err() {
                return;
            }
            if stopped.recv_timeout(Duration::from_millis(50)).is_ok() {
                return;
            }
        }
    });
    for _ in 0..10 {
        let (status, _) = answered_within(
            server.addr,
            &targets_request(server.addr),
            Duration::from_secs(5),
        );
        assert_eq!(status, 200);
    }
    // The idle ones are still there, and still get their 408 in the end.
    let mut first = idle.into_iter().next().unwrap();
    first
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut byte = [0u8; 1];
    assert!(
        first.read(&mut byte).is_err(),
        "an idle connection is kept until its deadline"
    );
    let _ = stop.send(());
    let _ = trickle.join();
}

#[test]
fn beyond_the_descriptor_limit_the_oldest_idle_connections_are_closed() {
    // 128 descriptors for the server (soft and hard), two hundred idle connections.
    let mut command = std::process::Command::new("sh");
    command.args([
        "-c",
        "ulimit -n 128 && exec \"$0\" serve --port 0 --workers 1 --read-timeout 60",
        env!("CARGO_BIN_EXE_duckchess"),
    ]);
    let mut server = Server::start_command(command);
    let idle: Vec<_> = (0..200).map(|_| connect(server.addr)).collect();
    for _ in 0..5 {
        let (status, _) = answered_within(
            server.addr,
            &targets_request(server.addr),
            Duration::from_secs(5),
        );
        assert_eq!(status, 200);
    }
    assert!(server.alive());
    // The oldest were closed, without an answer, to make room.
    let mut oldest = idle.into_iter().next().unwrap();
    assert!(read_all_within(&mut oldest, Duration::from_secs(5)).is_empty());
    let (status, stderr) = server.stop();
    assert!(status.success(), "{stderr}");
}

#[test]
fn partial_bodies_beyond_the_read_budget_close_the_oldest() {
    // Eighty requests of 256 KB each stop 6 KB short of their end: 20 MB held by
    // requests being read, more than the 16 MB the server allows them together.
    let server = Server::start(&["--read-timeout", "60"]);
    let head = format!(
        "POST /api/replay HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\r\n",
        server.addr,
        256 * 1024
    );
    let partial = [head.as_bytes(), &[b'0'; 250 * 1024][..]].concat();
    let clients: Vec<_> = (0..80)
        .map(|_| {
            let mut s = connect(server.addr);
            s.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
            let _ = s.write_all(&partial);
            s
        })
        .collect();
    let (status, _) = answered_within(
        server.addr,
        &targets_request(server.addr),
        Duration::from_secs(5),
    );
    assert_eq!(status, 200);
    // The first were closed without an answer; the last is still being read.
    let mut first = clients.into_iter();
    let mut oldest = first.next().unwrap();
    let mut byte = [0u8; 1];
    oldest
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let closed = oldest.read(&mut byte).map_err(|e| e.kind());
    assert!(
        matches!(closed, Ok(0) | Err(std::io::ErrorKind::ConnectionReset)),
        "the oldest partial request is dropped: {closed:?}"
    );
    let mut newest = first.next_back().unwrap();
    newest
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let open = newest.read(&mut byte).map_err(|e| e.kind());
    assert!(
        matches!(
            open,
            Err(std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)
        ),
        "the newest is still read: {open:?}"
    );
    if let Some(rss) = server.status_kb("VmRSS") {
        assert!(rss < 64 * 1024, "resident size {rss} kB");
    }
}

/// A game of `n` moves, the horses going back and forth.
fn long_game(n: usize) -> Vec<[u8; 4]> {
    let cycle = [[0, 1, 2, 2], [9, 1, 7, 2], [2, 2, 0, 1], [7, 2, 9, 1]];
    (0..n).map(|i| cycle[i % 4]).collect()
}

fn moves_json(moves: &[[u8; 4]]) -> String {
    let items: Vec<String> = moves
        .iter()
        .map(|[a, b, c, d]| format!("[{a},{b},{c},{d}]"))
        .collect();
    format!("[{}]", items.join(","))
}

fn saved_game(moves: &[[u8; 4]]) -> String {
    let mut text = format!(
        "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r\n{}\n",
        moves.len()
    );
    for [a, b, c, d] in moves {
        text.push_str(&format!("{a} {b} {c} {d}\n"));
    }
    text
}

/// `count` moves of two soldiers stepping back and forth while each side's car attacks
/// the other captain: in every position the side to move can take a captain, which the
/// engine does at once, so analysing any number of them takes no time at all.
fn captains_en_prise(count: usize) -> String {
    let cycle = ["[4,4,4,3]", "[5,4,5,5]", "[4,3,4,4]", "[5,5,5,4]"];
    let moves: Vec<&str> = (0..count).map(|i| cycle[i % 4]).collect();
    format!(
        r#""start":"k7r/9/9/9/4s4/4S4/9/9/9/R7K r","moves":[{}]"#,
        moves.join(",")
    )
}

#[test]
fn analysis_of_a_game_a_few_positions_at_a_time() {
    let server = Server::start(&[]);
    // Blue's captain walks into the red car's column; red takes it.
    let game = r#""start":"r3k4/9/9/9/9/9/9/9/9/3RK4 b","moves":[[9,4,9,3],[0,3,9,3]]"#;
    let whole = json(&post(
        server.addr,
        "/api/analyze",
        &format!(r#"{{{game},"movetime":20}}"#),
    ));
    assert_eq!(whole.get("from").and_then(Json::as_int), Some(0));
    assert_eq!(whole.get("total").and_then(Json::as_int), Some(3));
    assert_eq!(whole.get("next"), Some(&Json::Null));
    assert_eq!(whole.get("movetime").and_then(Json::as_int), Some(20));
    let positions = whole.get("positions").and_then(Json::as_array).unwrap();
    assert_eq!(positions.len(), 3);
    assert_eq!(
        positions[2].get("eval").unwrap().to_string(),
        r#"{"mate":0,"winner":"red"}"#
    );
    let moves = whole.get("moves").and_then(Json::as_array).unwrap();
    let verdicts: Vec<&str> = moves
        .iter()
        .filter_map(|m| m.get("verdict").and_then(Json::as_str))
        .collect();
    assert_eq!(verdicts, ["blunder", "best"]);
    assert_eq!(
        moves[0].get("piece").and_then(Json::as_str),
        Some("blue captain")
    );

    // One position at a time: the first answer says where to go on; the second, given
    // the first's analysis as its prior, judges the move between them.
    let first = json(&post(
        server.addr,
        "/api/analyze",
        &format!(r#"{{{game},"movetime":20,"count":1}}"#),
    ));
    assert_eq!(first.get("next").and_then(Json::as_int), Some(1));
    assert_eq!(first.get("moves").unwrap().to_string(), "[]");
    let prior = &first.get("positions").and_then(Json::as_array).unwrap()[0];
    let second = json(&post(
        server.addr,
        "/api/analyze",
        &format!(r#"{{{game},"movetime":20,"from":1,"count":1,"prior":{prior}}}"#),
    ));
    let moves = second.get("moves").and_then(Json::as_array).unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(
        moves[0].get("verdict").and_then(Json::as_str),
        Some("blunder")
    );
    assert_eq!(moves[0].get("before"), prior.get("eval"));
    assert_eq!(second.get("next").and_then(Json::as_int), Some(2));

    // A judge input: its valid commands are the moves, numbered as in the input.
    let sample = fs::read_to_string("samples/statement.in").unwrap();
    let body = format!(
        r#"{{"input":{},"movetime":10,"from":8,"count":2}}"#,
        Json::str(sample)
    );
    let a = json(&post(server.addr, "/api/analyze", &body));
    assert_eq!(a.get("total").and_then(Json::as_int), Some(10));
    let moves = a.get("moves").and_then(Json::as_array).unwrap();
    assert_eq!(moves.len(), 1, "the move into position 8 has no prior");
    assert_eq!(moves[0].get("command").and_then(Json::as_int), Some(17));
    assert_eq!(moves[0].get("verdict").and_then(Json::as_str), Some("best"));
    still_serving(&server);
}

#[test]
fn analysis_requests_are_bounded() {
    let server = Server::start(&[]);
    let ask = |extra: &str| {
        let body = format!("{{{},{extra}}}", captains_en_prise(40));
        let a = post(server.addr, "/api/analyze", &body);
        assert_eq!(a.status, 200, "{extra}: {}", a.text());
        json(&a)
    };
    let positions = |a: &Json| a.get("positions").and_then(Json::as_array).unwrap().len();
    // At most 16 positions a request, and at most 3 s of thinking: 3 positions at the
    // longest time a position, 1 s, to which longer times are clamped.
    let a = ask(r#""movetime":1"#);
    assert_eq!(a.get("movetime").and_then(Json::as_int), Some(10));
    assert_eq!(positions(&a), 16);
    assert_eq!(a.get("next").and_then(Json::as_int), Some(16));
    let a = ask(r#""movetime":99999,"from":30"#);
    assert_eq!(a.get("movetime").and_then(Json::as_int), Some(1000));
    assert_eq!(positions(&a), 3);
    assert_eq!(a.get("next").and_then(Json::as_int), Some(33));
    let a = ask(r#""movetime":300,"from":35,"count":50"#);
    assert_eq!(positions(&a), 6, "the last six positions, 35 to 40");
    assert_eq!(a.get("next"), Some(&Json::Null));
    let a = ask(r#""count":2"#);
    assert_eq!(positions(&a), 2);
    assert_eq!(a.get("movetime").and_then(Json::as_int), Some(300));
    // Every move in such a game leaves the other captain standing and its own to be
    // taken: a blunder each time.
    let all = ask(
        r#""movetime":10,"from":1,"count":3,"prior":{"eval":{"mate":1,"winner":"red"},"best":[0,0,9,0]}"#,
    );
    let verdicts: Vec<String> = all
        .get("moves")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .filter_map(|m| m.get("verdict").and_then(Json::as_str).map(str::to_string))
        .collect();
    assert_eq!(verdicts, ["blunder", "blunder", "blunder"]);
    still_serving(&server);
}

#[test]
fn bad_analysis_requests_say_what_is_wrong() {
    let server = Server::start(&[]);
    let game = r#""moves":[[0,1,2,2]]"#;
    let cases = [
        ("[]".to_string(), "expected a JSON object"),
        (
            r#"{"input":5}"#.to_string(),
            "input: expected the text of a judge input or a saved game",
        ),
        (
            r#"{"input":"1\n0 1 2 2\n","moves":[]}"#.to_string(),
            "input: give either a judge input or start and moves, not both",
        ),
        (
            r#"{"input":"2\n0 1 2 2\n"}"#.to_string(),
            "input: line 3, column 1: expected an integer (xs of command 2 of 2), found end of input",
        ),
        (
            format!(r#"{{{game},"movetime":"fast"}}"#),
            "movetime: expected milliseconds",
        ),
        (
            format!(r#"{{{game},"from":2}}"#),
            "from: expected a position from 0 (the start) to 1 (after the last move)",
        ),
        (
            format!(r#"{{{game},"from":-1}}"#),
            "from: expected a position from 0 (the start) to 1 (after the last move)",
        ),
        (
            format!(r#"{{{game},"count":0}}"#),
            "count: expected a number of positions, 1 or more",
        ),
        (
            format!(r#"{{{game},"prior":{{"eval":{{"cp":1}}}}}}"#),
            "prior: the start has no position before it (give prior only with from)",
        ),
        (
            format!(r#"{{{game},"from":1,"prior":{{"eval":{{"mate":1,"winner":"green"}}}}}}"#),
            r#"prior: eval: expected {"cp": N} or {"mate": N, "winner": "red" or "blue"}"#,
        ),
        // The least integers are out of range too, as the largest are.
        (
            format!(r#"{{{game},"from":1,"prior":{{"eval":{{"cp":-1e400}}}}}}"#),
            r#"prior: eval: expected {"cp": N} or {"mate": N, "winner": "red" or "blue"}"#,
        ),
        (
            format!(r#"{{{game},"from":1,"prior":{{"eval":{{"cp":-9223372036854775808}}}}}}"#),
            r#"prior: eval: expected {"cp": N} or {"mate": N, "winner": "red" or "blue"}"#,
        ),
        (
            format!(r#"{{{game},"from":1,"prior":{{"eval":{{"cp":1e400}}}}}}"#),
            r#"prior: eval: expected {"cp": N} or {"mate": N, "winner": "red" or "blue"}"#,
        ),
        (
            format!(r#"{{{game},"from":1,"prior":{{"eval":{{"cp":1}},"best":[0,0,10,0]}}}}"#),
            "prior: best: expected [xs, ys, xt, yt] on the board",
        ),
        (
            format!(r#"{{{game},"from":1,"prior":{{"eval":{{"cp":1}},"line":[1]}}}}"#),
            "prior: line: expected at most 64 moves [xs, ys, xt, yt] on the board",
        ),
        (
            r#"{"moves":[[0,0,7,0]]}"#.to_string(),
            "move 1 (0 0 7 0) is invalid: the car is blocked at (2, 0)",
        ),
    ];
    for (body, message) in cases {
        let a = post(server.addr, "/api/analyze", &body);
        assert_eq!(a.status, 400, "{body}");
        assert_eq!(
            json(&a).get("error").and_then(Json::as_str),
            Some(message),
            "{body}"
        );
    }
    assert_eq!(get(server.addr, "/api/analyze").status, 405);
    still_serving(&server);
}

#[test]
fn games_beyond_the_move_limit_get_413() {
    let server = Server::start(&[]);
    for (n, status) in [(2000, 200), (2001, 413), (24_000, 413)] {
        let game = long_game(n);
        for (path, body) in [
            (
                "/api/state",
                format!(r#"{{"moves":{}}}"#, moves_json(&game)),
            ),
            (
                "/api/play",
                format!(r#"{{"moves":{},"move":[0,1,2,2]}}"#, moves_json(&game)),
            ),
            ("/api/load", saved_game(&game)),
            (
                "/api/analyze",
                format!(
                    r#"{{"moves":{},"from":{n},"count":1,"movetime":10}}"#,
                    moves_json(&game)
                ),
            ),
            (
                "/api/analyze",
                format!(
                    r#"{{"input":{},"from":{n},"movetime":10}}"#,
                    Json::str(saved_game(&game))
                ),
            ),
        ] {
            let a = post(server.addr, path, &body);
            assert_eq!(a.status, status, "{path} with {n} moves");
            if status == 413 {
                assert_eq!(
                    json(&a).get("error").and_then(Json::as_str),
                    Some(format!("the game has {n} moves; the server takes at most 2000").as_str()),
                    "{path}"
                );
            }
        }
    }
    still_serving(&server);
}

#[test]
fn memory_stays_flat_after_large_answers() {
    let server = Server::start(&[]);
    if server.status_kb("VmRSS").is_none() {
        println!("note: no /proc/PID/status here; skipping");
        return;
    }
    // The largest replay a body can ask for: ten thousand steps, some 6 MB of answer.
    let mut input = b"32000\n".to_vec();
    input.extend(b"0 0 0 0\n".repeat(32_000));
    for _ in 0..10 {
        let a = request(server.addr, "POST", "/api/replay", &input);
        assert_eq!(a.status, 200);
        assert_eq!(
            json(&a)
                .get("steps")
                .and_then(Json::as_array)
                .map(|s| s.len()),
            Some(10_000)
        );
    }
    let game = format!(r#"{{"moves":{}}}"#, moves_json(&long_game(2000)));
    for _ in 0..10 {
        assert_eq!(post(server.addr, "/api/state", &game).status, 200);
    }
    // A generous bound: the old server kept over 600 MB after these.
    let rss = server.status_kb("VmRSS").unwrap();
    assert!(rss < 64 * 1024, "resident size {rss} kB after the sequence");
}

#[test]
fn a_lone_client_never_finds_the_computer_busy() {
    // The search ends at once (the captain can be taken), so each slot is free again
    // before the answer goes out.
    let server = Server::start(&[]);
    let body = r#"{"start":"4k4/9/9/9/9/9/9/9/9/R3K4 r","moves":[[0,0,9,0],[9,4,9,3]],"think":10}"#;
    for i in 0..200 {
        let a = post(server.addr, "/api/ai", body);
        assert_eq!(a.status, 200, "request {i}: {}", a.text());
    }
}

#[test]
fn many_clients_at_once_are_all_served() {
    let server = Server::start(&["--workers", "4"]);
    let addr = server.addr;
    let clients: Vec<_> = (0..24)
        .map(|i| {
            thread::spawn(move || {
                (0..15)
                    .map(|j| {
                        let from = if (i + j) % 2 == 0 { "[0,1]" } else { "[3,4]" };
                        post(addr, "/api/targets", &format!(r#"{{"from":{from}}}"#)).status
                    })
                    .collect::<Vec<u16>>()
            })
        })
        .collect();
    for c in clients {
        // 24 clients never exceed 4 workers plus a queue of 32.
        assert!(c.join().unwrap().iter().all(|&s| s == 200));
    }
    still_serving(&server);
}

#[test]
fn garbage_bodies_never_hurt_the_server() {
    let server = Server::start(&[]);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let pieces: [&[u8]; 12] = [
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"moves\"",
        b"\"start\"",
        b":",
        b",",
        b"[0,1,2,2]",
        b"1e999",
        b"\"\\ud800\"",
        b"\xff",
    ];
    // Not /api/ai: a body that happens to be `{}` would think for a second; its body is
    // read by the same code as the others'.
    let paths = [
        "/api/state",
        "/api/targets",
        "/api/play",
        "/api/replay",
        "/api/load",
        "/api/save",
    ];
    for i in 0..300 {
        let mut body = Vec::new();
        for _ in 0..next() % 12 {
            body.extend_from_slice(pieces[(next() % 12) as usize]);
        }
        let path = paths[i % paths.len()];
        let a = request(server.addr, "POST", path, &body);
        assert!(
            a.status == 200 || a.status == 400,
            "{path} {:?}: {}",
            String::from_utf8_lossy(&body),
            a.status
        );
    }
    still_serving(&server);
}

#[test]
fn command_line() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("usage: duckchess serve"), "{help}");
    for line in help.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    let top = std::process::Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&top.stdout).contains("\n  serve "));
    // A port another program listens on: the message says how to take any free one.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = taken.local_addr().expect("its address").port().to_string();
    let in_use = "(another program listens there: --port 0 takes any free port)";
    for (args, status, message) in [
        (&["serve", "--port", port.as_str()][..], 1, in_use),
        (
            &["serve", "--port", "70000"],
            2,
            "--port: 70000 is above the largest allowed, 65535",
        ),
        (
            &["serve", "--workers", "0"],
            2,
            "--workers: 0 is below the smallest allowed, 1",
        ),
        (&["serve", "extra"], 2, "unexpected argument \"extra\""),
        (
            &["serve", "--host", "192.0.2.1"],
            1,
            "cannot listen on 192.0.2.1 port",
        ),
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_duckchess"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(status), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with("duckchess: serve: ") && err.contains(message),
            "{args:?}: {err}"
        );
    }
    // Another address than loopback: a warning, and it still serves. On every
    // address, the address to open is loopback's, which a browser can open.
    let server = Server::start(&["--host", "0.0.0.0"]);
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    assert_eq!(get(server.addr, "/").status, 200);
    let (status, stderr) = server.stop();
    assert!(status.success());
    assert!(
        stderr.contains("warning: listening on 0.0.0.0:"),
        "{stderr}"
    );
}

#[test]
fn numbers_out_of_range_are_refused_as_sent() {
    let server = Server::start(&[]);
    for (path, body, message) in [
        (
            "/api/ai",
            r#"{"level":2,"seed":18446744073709551616}"#,
            "seed: expected a whole number from 0 to 2^53, found 18446744073709551616",
        ),
        (
            "/api/ai",
            r#"{"level":2,"seed":1e400}"#,
            "seed: expected a whole number from 0 to 2^53, found 1e400",
        ),
        (
            "/api/targets",
            r#"{"from":[1e400,0]}"#,
            "from: (1e400, 0) is off the board",
        ),
        (
            "/api/targets",
            r#"{"from":[0,-18446744073709551616]}"#,
            "from: (0, -18446744073709551616) is off the board",
        ),
    ] {
        let a = post(server.addr, path, body);
        assert_eq!(a.status, 400, "{body}: {}", a.text());
        assert_eq!(
            json(&a).get("error").and_then(Json::as_str),
            Some(message),
            "{body}"
        );
    }
    still_serving(&server);
}

/// A replay of ten thousand steps (some 6 MB of answer) from a 256 KB body.
fn long_replay_request(addr: std::net::SocketAddr) -> Vec<u8> {
    let mut body = b"32000\n".to_vec();
    body.extend(b"0 0 0 0\n".repeat(32_000));
    let mut raw = format!(
        "POST /api/replay HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    raw.extend(body);
    raw
}

#[test]
fn clients_that_never_read_delay_no_one() {
    // 24 clients ask for a long replay and never read it: three times the workers.
    // Each holds its own part of the answer in the server, not a worker, so a normal
    // request is answered at once (the bound is generous: a loaded machine).
    let server = Server::start(&["--read-timeout", "60"]);
    let request = long_replay_request(server.addr);
    let readers: Vec<_> = (0..24)
        .map(|_| {
            let mut s = connect(server.addr);
            s.set_write_timeout(Some(Duration::from_secs(30))).unwrap();
            s.write_all(&request).expect("the request goes out");
            s
        })
        .collect();
    // Time for the server to fill their sockets and find them full.
    thread::sleep(Duration::from_millis(1500));
    for _ in 0..5 {
        let (status, took) = answered_within(
            server.addr,
            &targets_request(server.addr),
            Duration::from_secs(5),
        );
        assert_eq!(status, 200);
        assert!(
            took < Duration::from_secs(1),
            "a normal request took {took:?}"
        );
    }
    if let Some(rss) = server.status_kb("VmRSS") {
        assert!(
            rss < 128 * 1024,
            "resident size {rss} kB with 24 stalled answers"
        );
    }
    drop(readers);
    still_serving(&server);
}

#[test]
fn the_end_of_input_answers_what_is_in_flight() {
    let server = Server::start(&["--read-timeout", "60"]);
    let addr = server.addr;
    // A request the computer thinks about for a second, under way when the input
    // ends: it is answered in full.
    let thinking = thread::spawn(move || post(addr, "/api/ai", r#"{"think":1000}"#));
    // A request still arriving: refused with a status, not dropped.
    let mut arriving = connect(addr);
    arriving
        .write_all(b"POST /api/state HTTP/1.1\r\nHost: ")
        .unwrap();
    thread::sleep(Duration::from_millis(300));
    let (status, stderr) = server.stop();
    assert!(status.success(), "{stderr}");
    assert_eq!(stderr, "duckchess: serve: end of input: stopping\n");
    let answer = thinking.join().expect("the client ends");
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert!(json(&answer).get("move").is_some(), "{}", answer.text());
    let refused = parse_answer(&read_all_within(&mut arriving, Duration::from_secs(5)));
    assert_eq!(refused.status, 503);
    assert_eq!(
        json(&refused).get("error").and_then(Json::as_str),
        Some("the server is stopping")
    );
    // Then nothing listens.
    assert!(std::net::TcpStream::connect(addr).is_err());
}

/// The threads of the server process named `name` (Linux: `/proc/PID/task`), and all
/// its threads; `None` where the system does not show them.
fn threads(server: &Server, name: &str) -> Option<(usize, usize)> {
    let tasks = fs::read_dir(format!("/proc/{}/task", server.pid())).ok()?;
    let (mut named, mut all) = (0, 0);
    for task in tasks.flatten() {
        all += 1;
        let comm = fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim_end() == name {
            named += 1;
        }
    }
    Some((named, all))
}

#[test]
fn the_computer_searches_on_at_most_three_threads_whatever_the_workers() {
    let server = Server::start(&["--workers", "16"]);
    let Some((_, idle)) = threads(&server, "serve-think") else {
        eprintln!("note: no /proc/PID/task here, the thread count is not checked");
        return;
    };
    let addr = server.addr;
    // Twelve clients ask for a move and six for an analysis, all at once.
    let moves = (0..12).map(|_| {
        thread::spawn(move || post(addr, "/api/ai", r#"{"think":1500,"level":8}"#).status)
    });
    let analyses = (0..6).map(|_| {
        thread::spawn(move || {
            let body = r#"{"input":"2\n0 3 1 2\n9 4 8 4\n","movetime":500,"count":3}"#;
            post(addr, "/api/analyze", body).status
        })
    });
    let clients: Vec<_> = moves.chain(analyses).collect();
    let (mut most_searches, mut most_threads) = (0, 0);
    let started = Instant::now();
    while started.elapsed() < Duration::from_millis(1200) {
        if let Some((searches, all)) = threads(&server, "serve-think") {
            most_searches = most_searches.max(searches);
            most_threads = most_threads.max(all);
        }
        thread::sleep(Duration::from_millis(20));
    }
    let statuses: Vec<u16> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    assert!(
        statuses.iter().all(|&s| s == 200 || s == 503),
        "{statuses:?}"
    );
    assert!(
        statuses.contains(&503),
        "every client found a free slot: {statuses:?}"
    );
    assert!(
        (1..=3).contains(&most_searches),
        "{most_searches} search threads at once"
    );
    // A search is one thread: nothing else starts beside the searches.
    assert!(
        most_threads <= idle + 3,
        "{most_threads} threads at most, {idle} idle"
    );
    still_serving(&server);
}
